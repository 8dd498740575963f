// The Devices area in a real browser against a real server process: add a device, import an
// Excel sheet with a bad row, move devices to a sub-account, create a role and see its colour (in the
// list and on the monitor map),
// draw a polygon fence, and send an upload interval to a simulated watch until it answers.
// Screenshots in Chinese and English land in e2e/screenshots/.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/src/index.js';
import { writeXlsx } from '../server/src/lib/xlsx.js';
import { launchBrowser, newContext, pngColours, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { callApi, closeOverlays, login, open, pickAccount } from './console.js';

const texts = (lang: string, ns: string) =>
  JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, any>;
const zh = texts('zh-CN', 'devices');
const zhCmd = texts('zh-CN', 'commands');
const zhMessages = JSON.parse(readFileSync(path.join(root, 'contract/src/messages/zh-CN.json'), 'utf8')) as Record<string, any>;
const NEW_IMEI = '865999000000001';
const SIM_IMEI = '865000000000002';

let server: ServerProcess;
let browser: Browser;
let sim: Simulator | undefined;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await sim?.stop();
  await browser?.close();
  await server?.stop();
});



/** Searches the device list by IMEI and waits for the row. */
async function findDevice(page: Page, imei: string) {
  const form = page.locator('.search-form');
  await form.locator('input').first().fill(imei);
  await form.locator('button[type="submit"]').click();
  await page.locator(`[data-testid="imei-${imei}"]`).waitFor({ timeout: 30_000 });
  return page.locator('tr', { has: page.locator(`[data-testid="imei-${imei}"]`) });
}

async function pickOption(page: Page, selectTestId: string, text: string) {
  await page.locator(`[data-testid="${selectTestId}"]`).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: text }).first().click();
}

describe('devices console', () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const ctx = await newContext(browser, { locale: 'zh-CN' });
    page = await ctx.newPage();
    errors = watchErrors(page);
    await login(page, server.url);
    await open(page, '/devices/list');
    await page.locator('[data-testid="device-table"] tbody tr.ant-table-row').first().waitFor({ timeout: 20_000 });
  });

  // A failed attempt may leave a dialog open; its retry (and the next test) starts without it.
  beforeEach(async () => {
    await closeOverlays(page);
  });

  /** The demo's roles, and the orange one the role test makes (made here when that test did not run). */
  async function roleNamed(name: string, color: string) {
    const roles = (await callApi(page, server.url, '/DeviceRole/List', {})).Items as { RoleId: number; Name: string; Color: string }[];
    return roles.find((r) => r.Name === name) ?? (await callApi(page, server.url, '/DeviceRole/Save', { Name: name, Color: color, Shape: 'circle' })).Item;
  }

  it('goes to page 2 on the first click, and scrolls its fixed columns under the navbar', async () => {
    // A fresh list (a retry must not start from a table that has already been paged).
    await page.reload();
    const table = page.locator('[data-testid="device-table"]');
    const firstImei = () => table.locator('tbody tr.ant-table-row [data-testid^="imei-"]').first().innerText();
    await table.locator('tbody tr.ant-table-row').first().waitFor({ timeout: 30_000 });
    const onFirstPage = await firstImei();
    await table.locator('.ant-pagination-item-2').click();
    await expect.poll(() => table.locator('.ant-pagination-item-active').innerText()).toBe('2');
    await expect.poll(firstImei).not.toBe(onFirstPage);

    // Scrolled, the fixed IMEI column passes under the navbar and tags, not over them.
    const cell = (await table.locator('tbody tr.ant-table-row td.ant-table-cell-fix-start').first().boundingBox())!;
    await page.mouse.move(cell.x + cell.width / 2, 500);
    await page.mouse.wheel(0, 600);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    for (const y of [25, 65]) {
      const onTop = await page.evaluate(([x, y]) => !!document.elementFromPoint(x!, y!)?.closest('.wt-header'), [cell.x + cell.width / 2, y]);
      expect(onTop, `header on top at y=${y}`).toBe(true);
    }
  });

  it('lists devices with server-side paging and adds a device (model, IMEI and name required)', async () => {
    // A retry starts again from a list without the device.
    await callApi(page, server.url, '/Device/BatchDelDevices', { Imeis: [NEW_IMEI] });
    await open(page, '/devices/list');
    await expect(page.locator('.ant-pagination-total-text').innerText()).resolves.toMatch(/共 \d+ 条/);
    await screenshot(page, 'devices-list-zh-CN');

    await page.locator('[data-testid="add-device"]').click();
    const dialog = page.locator('.ant-modal', { hasText: zh.add.title });
    await dialog.locator('input').nth(1).fill('12345');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    // The §5 messages, in Chinese, from the contract's catalogue.
    await dialog.locator('.ant-form-item-explain-error', { hasText: '请选择型号' }).waitFor();
    await dialog.locator('.ant-form-item-explain-error', { hasText: 'IMEI' }).waitFor();
    await screenshot(page, 'devices-add-errors-zh-CN');

    await dialog.locator('.ant-select').first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().click();
    await dialog.locator('input').nth(1).fill(NEW_IMEI);
    await dialog.locator('input').nth(2).fill('E2E 手表');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.waitFor({ state: 'hidden' });
    const row = await findDevice(page, NEW_IMEI);
    await expect(row.innerText()).resolves.toContain('E2E 手表');
  });

  it('imports an Excel sheet with a bad row and shows the row-by-row report', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'wt-xlsx-'));
    const file = path.join(dir, 'devices.xlsx');
    const header = ['LoginName', 'Password', 'Username', 'Email', 'IMEI', 'ICCID', 'Model', 'DeviceName'];
    writeFileSync(
      file,
      await writeXlsx([
        {
          name: 'Devices',
          rows: [header, ['e2eimport', 'abc12345', 'Import', '', '865999000000101', '', 'K9 4G 定位手表', 'Good'], ['e2eimport', 'abc12345', 'Import', '', '12345', '', 'K9 4G 定位手表', 'Bad']],
        },
      ]),
    );
    await page.locator('[data-testid="import-devices"]').click();
    const dialog = page.locator('.ant-modal', { hasText: zh.import.title });
    await dialog.locator('input[type="file"]').setInputFiles(file);
    await dialog.locator('[data-testid="import-submit"]').click();
    const report = dialog.locator('[data-testid="import-report"]');
    await report.waitFor({ timeout: 20_000 });
    const text = await report.innerText();
    // The bad row (sheet row 3) is refused with the IMEI rule; nothing was imported.
    expect(text).toContain('12345');
    expect(text).toMatch(/\b3\b/);
    expect(text).toContain('15');
    await screenshot(page, 'devices-import-report-zh-CN');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('moves a device to a sub-account', async () => {
    const row = await findDevice(page, NEW_IMEI);
    await row.locator('.ant-checkbox-input').check();
    await page.locator('[data-testid="move-devices"]').click();
    const dialog = page.locator('.ant-modal', { hasText: zh.move.title });
    await pickAccount(page, 'account-select', 'clinic01');
    await screenshot(page, 'devices-move-zh-CN');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.waitFor({ state: 'hidden' });
    await expect.poll(async () => (await findDevice(page, NEW_IMEI)).innerText(), { timeout: 10_000 }).toContain('clinic01');
  });

  it('creates a role and shows its colour on the devices given that role', async () => {
    // A retry starts again without the role a failed attempt may have made.
    const before = (await callApi(page, server.url, '/DeviceRole/List', {})).Items as { RoleId: number; Name: string }[];
    const stale = before.filter((r) => r.Name === 'E2E 巡检').map((r) => r.RoleId);
    if (stale.length) await callApi(page, server.url, '/DeviceRole/Delete', { RoleIds: stale });
    await open(page, '/devices/roles');
    await page.locator('[data-testid="add-role"]').click();
    const dialog = page.locator('.ant-modal', { hasText: zh.roles.add });
    await dialog.locator('input').first().fill('E2E 巡检');
    await dialog.locator('[data-testid="role-color-orange"]').click();
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.waitFor({ state: 'hidden' });
    const roleRow = page.locator('[data-testid="role-table"] tr', { hasText: 'E2E 巡检' });
    await roleRow.waitFor();
    await roleRow.locator('button', { hasText: zh.roles.assign }).click();
    const assign = page.locator('.ant-modal', { hasText: 'E2E 巡检' });
    await page.locator('[data-testid="role-devices"] input').fill(NEW_IMEI);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: NEW_IMEI }).click();
    // Close the options list, which covers the dialog's buttons.
    await assign.locator('.ant-modal-title').click();
    await assign.locator('.ant-modal-footer .ant-btn-primary').click();
    await assign.waitFor({ state: 'hidden' });
    await expect.poll(() => roleRow.innerText()).toMatch(/\b1\b/);
    await screenshot(page, 'devices-roles-zh-CN');

    await open(page, '/devices/list');
    const row = await findDevice(page, NEW_IMEI);
    await expect(row.locator('svg[data-role-color]').getAttribute('data-role-color')).resolves.toBe('orange');
  });

  it('draws a polygon fence on the map', async () => {
    await open(page, `/deviceFence?imei=${SIM_IMEI}`);
    const canvas = page.locator('[data-testid="fence-map"] canvas.maplibregl-canvas');
    // The map's chunk loads lazily and slowly on a busy machine; once in a while the map of a page
    // opened inside the console does not come at all (cause not found): the page is loaded again.
    await canvas.waitFor({ timeout: 30_000 }).catch(async () => {
      await page.reload();
      await canvas.waitFor({ timeout: 45_000 });
    });
    await page.waitForTimeout(1000);
    await page.locator('[data-testid="draw-polygon"]').click();
    const box = (await canvas.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const pts = [
      [cx - 120, cy - 80],
      [cx + 120, cy - 90],
      [cx + 60, cy + 110],
      [cx - 100, cy + 70],
    ];
    for (const [x, y] of pts) {
      await page.mouse.move(x!, y!, { steps: 4 });
      await page.mouse.click(x!, y!);
      await page.waitForTimeout(250);
    }
    // Closing click on the first point finishes the polygon.
    await page.mouse.move(pts[0]![0]!, pts[0]![1]!, { steps: 4 });
    await page.mouse.click(pts[0]![0]!, pts[0]![1]!);
    await page.locator('[data-testid="fence-shape"]', { hasText: '4' }).waitFor({ timeout: 10_000 });
    await page.locator('[data-testid="fence-form"] input').first().fill('E2E 围栏');
    await page.locator('[data-testid="fence-save"]').click();
    // (A retry after a failed attempt may have saved one already.)
    const saved = page.locator('[data-testid="fence-E2E 围栏"]').first();
    await saved.waitFor({ timeout: 20_000 });
    await expect(saved.innerText()).resolves.toContain(zh.fences.polygon);
    await screenshot(page, 'devices-fence-zh-CN');
  });

  it('sends an upload interval to a simulated watch and sees it answered', async () => {
    await sim?.stop();
    sim = await startSimulator({ devices: [{ imei: SIM_IMEI, protocol: 'watch' }], ports: { watch: server.ports.WATCH_PORT }, interval: 30, seed: 7 });
    // Its first position, before the new interval restarts the watch's report timer (5 minutes);
    // the map test below needs the watch on the map.
    await expect
      .poll(async () => (await callApi(page, server.url, '/Device/DeviceDetail', { Imei: SIM_IMEI })).Item?.LastLocation, { timeout: 30_000, interval: 500 })
      .toBeTruthy();
    await open(page, '/devices/list');
    await findDevice(page, SIM_IMEI);
    await page.locator(`[data-testid="cmd-${SIM_IMEI}"]`).click();
    const dialog = page.locator('.ant-modal', { hasText: zhCmd.history });
    await pickOption(page, 'cmd-code', zhMessages.command.names.UPLOAD);
    const input = dialog.locator('[data-testid="cmd-interval"] input').or(dialog.locator('input[data-testid="cmd-interval"]')).first();
    await input.fill('1');
    await dialog.locator('#cmd-send').click();
    await dialog.locator('.ant-form-item-explain-error', { hasText: '2' }).waitFor();
    await input.fill('5');
    await dialog.locator('#cmd-send').click();
    await dialog.locator('[data-testid="command-status"][data-status="answered"]').first().waitFor({ timeout: 45_000 });
    await screenshot(page, 'devices-command-zh-CN');
    expect(errors).toEqual([]);
  });

  it("draws a device on the monitor map in its role's colour", async () => {
    // The simulated watch reports positions; give it a green role, then the orange one made above,
    // and count the pixels of each colour around its place on the map.
    const api = (p: string, body: unknown) => callApi(page, server.url, p, body);
    const green = await roleNamed('E2E 绿', 'green');
    const orange = await roleNamed('E2E 巡检', 'orange');
    expect(orange.Color).toBe('orange');

    const colourAround = async () => {
      await page.locator('.wt-monitor-panel input').first().fill(SIM_IMEI);
      await page.locator('[data-testid="device-list"] .wt-device-row').first().click();
      const card = page.locator('[data-testid="device-card"]');
      await card.waitFor();
      const name = (await card.locator('.ant-card-head-title span').first().innerText()).trim();
      const label = page.locator('.wt-map-label', { hasText: name }).first();
      // The map flies to the device, then labels what it shows; ask again if the first flight was cut short.
      await label.waitFor({ timeout: 15_000 }).catch(async () => {
        await page.locator('[data-testid="device-list"] .wt-device-row').first().click();
        await label.waitFor({ timeout: 30_000 });
      });
      await page.waitForTimeout(1500);
      const box = (await label.boundingBox())!;
      const png = await page.screenshot({ clip: { x: box.x + box.width / 2 - 40, y: box.y - 40, width: 80, height: box.height + 100 } });
      const { counts } = await pngColours(page, png, { orange: [0xfa, 0x8c, 0x16], green: [0x52, 0xc4, 0x1a] }, 60);
      return { orange: counts.orange!, green: counts.green! };
    };

    expect((await api('/DeviceRole/AssignDevices', { Imeis: [SIM_IMEI], RoleId: green.RoleId })).State).toBe(200);
    await page.goto(`${server.url}/`);
    await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    const asGreen = await colourAround();
    expect(asGreen.green).toBeGreaterThan(20);

    expect((await api('/DeviceRole/AssignDevices', { Imeis: [SIM_IMEI], RoleId: orange.RoleId })).State).toBe(200);
    await page.goto(`${server.url}/`);
    await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    const asOrange = await colourAround();
    await screenshot(page, 'monitor-role-colour-zh-CN');
    expect(asOrange.orange).toBeGreaterThan(asGreen.orange + 20);
    expect(asOrange.green).toBeLessThan(asGreen.green);
  });
});

describe('devices console in English', () => {
  it('renders the device list, roles, fences and detail pages', { timeout: 240_000 }, async () => {
    const ctx = await newContext(browser, { locale: 'en' });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await login(page, server.url, 'en');
    const en = texts('en', 'devices');
    for (const [to, name, ready] of [
      ['/devices/list', 'devices-list-en', '[data-testid="device-table"] tbody tr.ant-table-row'],
      ['/devices/roles', 'devices-roles-en', '[data-testid="role-table"] tbody tr.ant-table-row'],
      [`/deviceFence?imei=${SIM_IMEI}`, 'devices-fence-en', '[data-testid="fence-map"] canvas.maplibregl-canvas'],
      [`/devices/detail?imei=${SIM_IMEI}`, 'devices-detail-en', '[data-testid="device-detail"]'],
      ['/model/list', 'model-list-en', '.ant-table-row >> visible=true'],
    ] as const) {
      await open(page, to);
      await page.locator(ready).first().waitFor({ timeout: 45_000 });
      await page.waitForTimeout(600);
      await screenshot(page, name);
    }
    await expect(page.locator('body').innerText()).resolves.toContain(en.detail.identity);
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
