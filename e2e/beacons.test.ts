// The beacon registry in a real browser, in one logged-in page, first in Chinese then in English:
// the page opened directly, beacons of both identity models registered by importing a sheet (a bad
// sheet first, refused row by row), found in the list, made invalid, and the administrator's
// platform-wide page showing them with their owner. Screenshots land in e2e/screenshots/.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { root, screenshot, type ServerProcess } from './harness.js';
import { callApi, consoleSession, switchLanguage } from './console.js';

const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'beacons.json'), 'utf8')) as Record<string, any>;
const LANGS = [
  { lang: 'zh-CN', mac: 'AC:23:3F:E1:00:01', minor: 101, name: 'E2E 前台' },
  { lang: 'en', mac: 'AC:23:3F:E1:00:02', minor: 102, name: 'E2E front desk' },
] as const;
const CODE = 'B9407F30F5F8466EAFF925556B57FE6D';

const session = consoleSession({}, { timezoneId: 'Asia/Shanghai' });
let page: Page;
let server: ServerProcess;
let errors: string[];
const dir = mkdtempSync(path.join(tmpdir(), 'wt-beacons-'));

async function sheet(file: string, rows: (string | number)[][]) {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('beacons').addRows(rows);
  writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));
}

beforeAll(async () => {
  ({ page, server, errors } = session);
});

describe.each(LANGS)('beacon registry in $lang', (l) => {
  const tx = texts(l.lang);
  it('imports beacons of both models, refusing a bad sheet row by row', async () => {
    // A retry finds the console in English already.
    if (l.lang === 'en' && (await page.locator('html[lang="en"]').count()) === 0) await switchLanguage(page, 'zh-CN', 'en');
    await page.goto(`${server.url}/position/beacons`);
    await page.locator('[data-testid="beacon-table"] .ant-table').waitFor({ timeout: 30_000 });
    // A retry starts afresh.
    const stale = [
      ...((await callApi(page, server.url, '/Bluetooth/searchBTByIdentifier', { Identifier: l.mac })).Items as { BeaconId: number }[]),
      ...((await callApi(page, server.url, '/Bluetooth/searchBTByIdentifier', { Identifier: `${CODE}:7:${l.minor}` })).Items as { BeaconId: number }[]),
    ];
    if (stale.length) await callApi(page, server.url, '/Bluetooth/batchDelBTBindStatus', { BeaconIds: stale.map((b) => b.BeaconId) });

    const head = ['Code', 'Major', 'Minor', 'Mac', 'Name', 'Address', 'Longitude', 'Latitude', 'Type', 'State'];
    const bad = path.join(dir, `bad-${l.lang}.xlsx`);
    await sheet(bad, [head, [CODE, 7, l.minor, '', l.name, 'Lobby', 114.05, 22.54, 'Bluetooth', 'Valid'], ['', '', '', 'not-a-mac', 'x', '', '', '', '', '']]);
    await page.locator('[data-testid="import-beacons"]').click();
    const dialog = page.locator('.ant-modal', { hasText: tx.import.title });
    await dialog.locator('input[type="file"]').setInputFiles(bad);
    await dialog.locator('[data-testid="import-submit"]').click();
    const report = dialog.locator('[data-testid="import-report"]');
    await report.waitFor({ timeout: 45_000 });
    await expect(report.innerText()).resolves.toContain('not-a-mac');
    await screenshot(page, `beacons-import-report-${l.lang}`);

    const good = path.join(dir, `good-${l.lang}.xlsx`);
    await sheet(good, [head, [CODE, 7, l.minor, '', l.name, 'Lobby', 114.05, 22.54, 'Bluetooth', 'Valid'], ['', '', '', l.mac, l.name, 'Gate', '', '', 'UWB', 'Valid']]);
    // Another file: the report's first button goes back to the upload.
    await dialog.locator('.ant-modal-footer .ant-btn').first().click();
    await dialog.locator('input[type="file"]').setInputFiles(good);
    await dialog.locator('[data-testid="import-submit"]').click();
    await expect.poll(async () => (await report.isVisible()) && (await report.innerText()), { timeout: 20_000 }).not.toContain('not-a-mac');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.waitFor({ state: 'hidden' });
    const table = page.locator('[data-testid="beacon-table"]');
    await expect.poll(async () => table.innerText(), { timeout: 15_000 }).toContain(l.mac);
    await expect(table.innerText()).resolves.toMatch(new RegExp(`${CODE}\\s+7/${l.minor}`));
    await screenshot(page, `beacons-list-${l.lang}`);
  });

  it('makes a beacon invalid and adds one by hand', async () => {
    const table = page.locator('[data-testid="beacon-table"]');
    const row = table.locator('tr', { hasText: l.mac });
    await row.locator('.ant-checkbox-input').check();
    await page.locator('button', { hasText: tx.makeInvalid }).click();
    await expect.poll(async () => row.innerText(), { timeout: 10_000 }).toContain(tx.state['2']);
    await page.locator('[data-testid="add-mac-beacon"]').click();
    const dialog = page.locator('.ant-modal', { hasText: tx.addMac });
    await dialog.locator('[data-testid="beacon-mac"]').fill('zz');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.locator('.ant-form-item-explain-error').first().waitFor();
    await screenshot(page, `beacons-add-${l.lang}`);
    await dialog.locator('.ant-modal-footer .ant-btn').first().click();
    await dialog.waitFor({ state: 'hidden' });
  });

  it("shows every beacon with its owner on the administrator's page", async () => {
    await page.goto(`${server.url}/indoorBeacons/index`);
    const table = page.locator('[data-testid="beacon-table"]');
    await table.locator('.ant-table').waitFor({ timeout: 30_000 });
    await expect.poll(async () => table.innerText(), { timeout: 15_000 }).toContain(l.mac);
    // The demo care home's anchors are operator01's.
    await expect(table.innerText()).resolves.toContain('operator01');
    await screenshot(page, `beacons-platform-${l.lang}`);
    expect(errors).toEqual([]);
  });
});
