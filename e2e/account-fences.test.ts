// Account fences in a real browser against a real server process, in one logged-in page, first in
// Chinese and then in English: the fence page opened directly; a polygon fence drawn on the map
// (terra-draw: points clicked on the canvas, closed on the first one) and a district fence picked
// county by county, both watching the care home's account; both drawn on the monitor map once its
// "account fences" switch is on; a wearer of the care home (watch frames over TCP) walks out of the
// polygon and the leaving alarm pops up naming the fence; the attendance tab lists the wearer's day
// and exports it as a workbook. Screenshots in Chinese and English land in e2e/screenshots/.
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { launchBrowser, pngColours, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { callApi, closeOverlays, login, pickAccount, switchLanguage } from './console.js';

const texts = (lang: string, ns: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, any>;
const messages = (lang: string) => JSON.parse(readFileSync(path.join(root, 'contract/src/messages', `${lang}.json`), 'utf8')) as Record<string, any>;

/** The care home's account and two of its watches (demo tenant), one per language. */
const CARE_HOME = 'clinic01';
/** A street in Futian, Shenzhen. */
const FUTIAN = { lat: 22.5431, lon: 114.0579 };
const LANGS = [
  { lang: 'zh-CN', imei: '865000000000010', polygon: 'E2E 巡查区', district: 'E2E 福田', county: '福田', countyName: '福田区' },
  { lang: 'en', imei: '865000000000011', polygon: 'E2E patrol area', district: 'E2E Futian', county: 'Futian', countyName: 'Futian' },
] as const;
type Lang = (typeof LANGS)[number];

let server: ServerProcess;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  // The attendance job summarises today's positions every 5 s (the calls leave today to it).
  server = await startServer({ ATTENDANCE_INTERVAL_SECONDS: '5' });
  browser = await launchBrowser();
  // The owner's clock (UTC+8, the demo accounts' zone): "today" on the attendance tab is the wearer's day.
  ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', acceptDownloads: true });
  page = await ctx.newPage();
  errors = watchErrors(page);
  await login(page, server.url);
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
  await server?.stop();
});

const modal = () => page.locator('.ant-modal-wrap:visible .ant-modal');

/** The fence page, loaded directly (a full load, as a bookmark opens it). */
async function openFencePage() {
  await page.goto(`${server.url}/account/showfence`);
  await page.locator('[data-testid="account-fence-table"] .ant-table').waitFor({ timeout: 30_000 });
}

/** The fences of the caller's subtree with their shapes. */
async function fences(): Promise<{ FenceId: number; Name: string; Type: string; Points: { Lat: number; Lon: number }[]; DistrictCode: string | null; DeviceCount: number; Accounts: { UserId: number; LoginName: string }[] }[]> {
  return (await callApi(page, server.url, '/AccountFence/List', { PageNo: 1, PageCount: 100, WithShape: true })).Items;
}

/** Deletes fences of these names a failed attempt may have saved, so a retry starts afresh. */
async function removeFences(...names: string[]) {
  const stale = (await fences()).filter((f) => names.includes(f.Name)).map((f) => f.FenceId);
  if (stale.length) await callApi(page, server.url, '/Geofence/DelGeofenceByUserCustom', { FenceIds: stale });
}

/** Opens the add dialog and fills what every fence has: name and the care home's account. */
async function startFence(name: string) {
  await page.locator('[data-testid="add-account-fence"]').click();
  await modal().locator('[data-testid="fence-name"]').fill(name);
  await pickAccount(page, 'fence-accounts', CARE_HOME);
  // Close the account tree, which covers the form.
  await modal().locator('.ant-modal-title').click();
}

async function saveFence(name: string) {
  await modal().locator('.ant-modal-footer .ant-btn-primary').click();
  await modal().waitFor({ state: 'hidden', timeout: 20_000 });
  await page.locator(`[data-testid="fence-row-${name}"]`).waitFor({ timeout: 20_000 });
}

/** Waits until `picture` answers the same twice in a row half a second apart: the map has stopped. */
async function steady(picture: () => Promise<string>) {
  let last = '';
  await expect
    .poll(
      async () => {
        const now = await picture();
        const same = now === last;
        last = now;
        return same;
      },
      { timeout: 15_000, interval: 500 },
    )
    .toBe(true);
}

/** Sends watch position frames for one device over TCP, as a watch does, in order. */
async function walk(imei: string, fixes: { lat: number; lon: number }[]) {
  const socket = net.connect({ port: server.ports.WATCH_PORT, host: '127.0.0.1' });
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  // A second apart, ending now: newer than anything the device reported before.
  const start = Date.now() - fixes.length * 1000;
  const frames = fixes.map((f, i) =>
    buildWatchFrame('3G', imei, watchContent.ud({ fix: { time: new Date(start + i * 1000), valid: true, lat: f.lat, lon: f.lon, speed: 4, course: 90, altitude: 10, satellites: 8 }, battery: 80, signal: 90 })),
  );
  await new Promise<void>((resolve, reject) => socket.write(Buffer.concat(frames), (err) => (err ? reject(err) : resolve())));
  // An LK is answered once the batch before it has committed: the positions are stored.
  const ack = `[3G*${imei}*0002*LK]`;
  let got = '';
  const answered = new Promise<void>((resolve) =>
    socket.on('data', (d) => {
      got += d.toString('latin1');
      if (got.includes(ack)) resolve();
    }),
  );
  socket.write(buildWatchFrame('3G', imei, watchContent.lk({ steps: 0, battery: 80 })));
  await answered;
  socket.destroy();
}

function fenceFlow(l: Lang) {
  const af = texts(l.lang, 'accountFence');
  const mon = texts(l.lang, 'monitor');
  const att = texts(l.lang, 'attendance');
  const msg = messages(l.lang);

  it(`draws a polygon fence on the map (${l.lang})`, async () => {
    await closeOverlays(page);
    // Only this language's fences watch the care home: another polygon over the same ground would
    // raise its own leaving alarm for the wearer, counted on the same open alarm.
    await removeFences(...LANGS.flatMap((x) => [x.polygon, x.district]));
    // The wearer is somewhere in Futian: the dialog's map opens there once the care home is picked.
    await walk(l.imei, [FUTIAN, FUTIAN]);
    await openFencePage();
    await startFence(l.polygon);
    // Polygon is the default shape.
    await modal().locator('[data-testid="fence-draw-polygon"]').click();
    await modal().locator('[data-testid="fence-points"]', { hasText: af.form.polygonHint }).waitFor();
    const canvas = modal().locator('[data-testid="account-fence-map"] canvas.maplibregl-canvas');
    await canvas.waitFor({ timeout: 30_000 });
    const box = (await canvas.boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const pts = [
      [cx - 120, cy - 80],
      [cx + 110, cy - 90],
      [cx + 70, cy + 100],
      [cx - 100, cy + 80],
    ];
    for (const [x, y] of pts) {
      await page.mouse.move(x!, y!, { steps: 4 });
      await page.mouse.click(x!, y!);
    }
    // A click on the first point closes the ring.
    await page.mouse.move(pts[0]![0]!, pts[0]![1]!, { steps: 4 });
    await page.mouse.click(pts[0]![0]!, pts[0]![1]!);
    await modal().locator('[data-testid="fence-points"]', { hasText: af.form.pointsDrawn.replace('{{count}}', '4') }).waitFor({ timeout: 10_000 });
    await screenshot(page, `account-fences-draw-${l.lang}`);
    await saveFence(l.polygon);
    const saved = (await fences()).find((f) => f.Name === l.polygon)!;
    expect(saved).toMatchObject({ Type: 'polygon' });
    expect(saved.Points).toHaveLength(4);
    // The dialog's map opened at the care home's devices (points clicked around its centre), not at
    // country scale hundreds of kilometres away from them.
    const careHome = saved.Accounts.find((a) => a.LoginName === CARE_HOME)!;
    const located = (await callApi(page, server.url, '/device/devicesByUserIdPageColorBigData', { UserId: careHome.UserId })) as { Fields: string[]; Rows: (number | string | null)[][] };
    const [latAt, lonAt] = [located.Fields.indexOf('Lat'), located.Fields.indexOf('Lon')];
    const spots = located.Rows.filter((r) => typeof r[latAt] === 'number').map((r) => ({ lat: r[latAt] as number, lon: r[lonAt] as number }));
    expect(spots.length).toBeGreaterThan(0);
    const mid = (xs: number[]) => (Math.min(...xs) + Math.max(...xs)) / 2;
    const centre = { lat: mid(saved.Points.map((p) => p.Lat)), lon: mid(saved.Points.map((p) => p.Lon)) };
    const devicesCentre = { lat: mid(spots.map((p) => p.lat)), lon: mid(spots.map((p) => p.lon)) };
    // Within a few kilometres (a degree of latitude is 111 km; the map shifts by hundreds of metres at most).
    expect(Math.abs(centre.lat - devicesCentre.lat)).toBeLessThan(0.05);
    expect(Math.abs(centre.lon - devicesCentre.lon)).toBeLessThan(0.05);
  });

  it(`creates a district fence by picking a county (${l.lang})`, async () => {
    await closeOverlays(page);
    await removeFences(l.district);
    await startFence(l.district);
    await modal().locator('.ant-radio-button-wrapper', { hasText: af.types.district }).click();
    const picker = modal().locator('.ant-cascader');
    await picker.click();
    await picker.locator('input').fill(l.county);
    await page.locator('.ant-cascader-dropdown:visible .ant-cascader-menu-item', { hasText: l.countyName }).first().click();
    await expect.poll(() => picker.innerText()).toContain(l.countyName);
    await screenshot(page, `account-fences-district-${l.lang}`);
    await saveFence(l.district);
    expect((await fences()).find((f) => f.Name === l.district)).toMatchObject({ Type: 'district', DistrictCode: '440304' });
    await screenshot(page, `account-fences-list-${l.lang}`);
  });

  it(`shows both on the monitor map with the account fence switch on, and pops up the leaving alarm (${l.lang})`, async () => {
    await closeOverlays(page);
    const polygon = (await fences()).find((f) => f.Name === l.polygon)!;
    const inside = {
      lat: polygon.Points.reduce((s, p) => s + p.Lat, 0) / polygon.Points.length,
      lon: polygon.Points.reduce((s, p) => s + p.Lon, 0) / polygon.Points.length,
    };
    const west = Math.min(...polygon.Points.map((p) => p.Lon));
    const outside = { lat: inside.lat, lon: west - 2 };
    // The wearer's open alarms are confirmed (a retry's leaving would only count again on an open
    // one, without a pop-up); then it is inside (a first sighting raises nothing, coming back in no
    // pop-up of the type looked for).
    expect((await callApi(page, server.url, '/ExceptionMessage/UpdateExceptionMessageStatus', { Imei: l.imei, AllToday: true, Remark: 'e2e' })).State).toBe(200);
    await walk(l.imei, [inside, inside]);

    // The switch is off when the monitor loads: turning it on loads the fences.
    const userId = await page.evaluate(() => Number(sessionStorage.getItem('wt.userId')));
    expect((await callApi(page, server.url, '/User/EditUserInfoByFenceStatus', { UserId: userId, IsShowMonitorFence: 2 })).State).toBe(200);
    await page.goto(`${server.url}/`);
    await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="alarm-sound"][data-realtime="open"]').waitFor({ state: 'attached', timeout: 20_000 });
    const toggle = page
      .locator('.wt-map-toolbar')
      .getByText(mon.toolbar.fences, { exact: true })
      .locator('xpath=ancestor::*[.//button[contains(@class, "ant-switch")]][1]//button[contains(@class, "ant-switch")]');
    await expect.poll(() => toggle.getAttribute('aria-checked')).toBe('false');
    const canvas = page.locator('[data-testid="monitor"] canvas.maplibregl-canvas').first();
    // The wearer picked in the list: the map flies to it, street scale, inside the polygon drawn
    // around the care home (a few kilometres across).
    await page.locator('.wt-monitor-panel input').first().fill(l.imei);
    await page.locator('[data-testid="device-list"] .wt-device-row').first().click();
    await page.locator('[data-testid="device-card"]').waitFor();
    await steady(async () => JSON.stringify(await pngColours(page, await canvas.screenshot(), { fill: [0xdf, 0xd2, 0xe5] }, 30)));
    // The fences' colours (FenceLayers): the outline, and the fill (15 % over the light base map).
    const colours = async () => (await pngColours(page, await canvas.screenshot(), { line: [0x53, 0x1d, 0xab], fill: [0xdf, 0xd2, 0xe5] }, 30)).counts;
    const before = await colours();
    const listed = page.waitForResponse((r) => r.url().endsWith('/api/AccountFence/List') && r.request().method() === 'POST');
    await toggle.click();
    const answer = (await (await listed).json()) as { Items: { Name: string }[] };
    expect(answer.Items.map((f) => f.Name)).toEqual(expect.arrayContaining([l.polygon, l.district]));
    // The map shows the wearer, inside the polygon: the view turns the fence's colour.
    await expect.poll(async () => (await colours()).fill!, { timeout: 15_000 }).toBeGreaterThan(before.fill! + 10_000);
    // Zoomed out to the country, the polygon's outline and the county's show.
    const zoomOut = page.locator('[data-testid="monitor"] button:has(.anticon-minus)').first();
    await expect
      .poll(
        async () => {
          const line = (await colours()).line!;
          if (line <= before.line! + 100) await zoomOut.click();
          return line;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBeGreaterThan(before.line! + 100);
    // Two levels further out Shenzhen is in the view too, with the county's outline: the picture once the map has stopped.
    await zoomOut.click();
    await zoomOut.click();
    await steady(async () => JSON.stringify(await colours()));
    await screenshot(page, `account-fences-monitor-${l.lang}`);

    // Out of the polygon: two fixes outside confirm the crossing; the pop-up names the fence.
    await walk(l.imei, [outside, outside]);
    // (The other language's polygon covers the same ground: its alarm comes too, and the shared
    // pop-up of alarms other than SOS shows whichever came last, so either fence's name will do.)
    const escape = (x: string) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const leftAny = new RegExp(
      LANGS.map((x) => escape(msg.alarm.msg.fenceOut.replace('{{fence}}', x.polygon))).join('|'),
    );
    const note = page.locator('.ant-notification-notice', { has: page.locator(`.wt-alarm-note[data-alarm-type="23"]`, { hasText: l.imei }) }).filter({ hasText: leftAny });
    await note.first().waitFor({ timeout: 30_000 });
    await screenshot(page, `account-fences-alarm-${l.lang}`);
    for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click({ timeout: 2_000 }).catch(() => undefined);
  });

  it(`lists the wearer's day on the attendance tab and exports it (${l.lang})`, async () => {
    await closeOverlays(page);
    await openFencePage();
    await page.locator('.ant-tabs-tab', { hasText: att.tab }).click();
    const panel = page.locator('[data-testid="attendance-panel"]');
    await panel.locator('[data-testid="attendance-imei"]').fill(l.imei);
    const row = panel.locator('[data-testid="attendance-table"] tr.ant-table-row', { hasText: l.polygon });
    // The job summarises the day when asked: search until the wearer's row is in.
    await expect
      .poll(
        async () => {
          await panel.locator('.search-form button[type="submit"]').click();
          await panel.locator('[data-testid="attendance-table"] .ant-spin-spinning').waitFor({ state: 'detached' });
          return row.count();
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBeGreaterThan(0);
    await screenshot(page, `account-fences-attendance-${l.lang}`);

    const download = page.waitForEvent('download');
    await panel.locator('[data-testid="attendance-export"]').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/\.xlsx$/);
    const saved = path.join(mkdtempSync(path.join(tmpdir(), 'wt-attendance-')), file.suggestedFilename());
    await file.saveAs(saved);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(saved);
    const cells = book.worksheets.flatMap((ws) => ws.getSheetValues().flat().map(String));
    expect(cells).toContain(l.imei);
    expect(errors).toEqual([]);
  });
}

describe('account fences, in Chinese', () => {
  fenceFlow(LANGS[0]);
});

describe('account fences, in English', () => {
  beforeAll(async () => {
    // The console's own language switch, in the same logged-in page.
    await switchLanguage(page, 'zh-CN', 'en');
  });
  fenceFlow(LANGS[1]);
});
