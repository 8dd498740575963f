// Asset inventory in a real browser, in one logged-in page, first in Chinese then in English: tags
// of the demo care home walk (UWB coordinates over the HTTP uplink) into a location drawn around a
// UWB anchor, one is marked an asset through the page's dialog, the list shows it in the location;
// a stock-take of the location lists the asset expected but elsewhere as missing and the one left
// there as extra, and exports the sheet; the history keeps it. Screenshots land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { root, screenshot, type ServerProcess } from './harness.js';
import { choose, demoUwbAnchor, modal as modalOf, uplink } from './position.js';
import { callApi, consoleSession, switchLanguage } from './console.js';

const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'contract/src/messages', `${lang}.json`), 'utf8')).asset as { category: Record<string, string>; result: Record<string, string> };
const LANGS = [
  { lang: 'zh-CN', name: 'E2E 器械室', imeis: ['865000000000020', '865000000000021', '865000000000022'], wearable: '865000000000026', fix: '信标' },
  { lang: 'en', name: 'E2E equipment room', imeis: ['865000000000023', '865000000000024', '865000000000025'], wearable: '865000000000027', fix: 'Beacon' },
] as const;

const session = consoleSession({ LOCATION_ENTER_FIXES: '2', LOCATION_ENTER_SECONDS: '0' }, { timezoneId: 'Asia/Shanghai' });
let page: Page;
let server: ServerProcess;
let errors: string[];
let token = '';
/** A UWB anchor of the demo care home: its MAC, floor and place on the plan. */
let uwb: Awaited<ReturnType<typeof demoUwbAnchor>>;

beforeAll(async () => {
  ({ page, server, errors } = session);
  uwb = await demoUwbAnchor(page, server.url);
  token = (await callApi(page, server.url, '/Integration/Save', { Name: 'e2e-assets' })).Token;
  // A registered beacon at the garden gate, with a place: a wearable hearing it outdoors is placed there.
  await callApi(page, server.url, '/Bluetooth/addBTDeviceInfoMac', { Mac: BEACON, Name: 'E2E gate', Type: 1, Lat: 22.5431, Lon: 113.9502 });
});

const modal = () => modalOf(page);
const BEACON = 'AC:23:3F:E2:E0:01';
/** The dialog has finished zooming in. */
const settled = (l: Locator) => l.evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
/** A UWB engine reports the tag at (dx, dy) metres from the anchor, three times two seconds apart. */
const walkTo = async (imei: string, dx: number, dy: number) => {
  const t0 = Date.now() - 6000;
  for (let i = 0; i < 3; i++) await uplink(session, 'e2e-assets', token, { tagId: imei, gatewayId: uwb.mac, x: uwb.x + dx + i * 0.2, y: uwb.y + dy, time: new Date(t0 + i * 2000).toISOString() });
};
const deviceId = async (imei: string) => ((await callApi(page, server.url, '/Device/devicesByUserId', { Imei: imei })).Items as { DeviceId: number }[])[0]!.DeviceId;

describe.each(LANGS)('asset inventory in $lang', (l) => {
  const tx = texts(l.lang);
  it('shows a tag marked as an asset in its location, takes stock with missing and extra assets, and exports it', async () => {
    if (l.lang === 'en' && (await page.locator('html[lang="en"]').count()) === 0) await switchLanguage(page, 'zh-CN', 'en');
    const stale = ((await callApi(page, server.url, '/Bluetooth/allBeaconLocationList', { Name: 'E2E' })).Items as { LocationId: number }[]).map((x) => x.LocationId);
    if (stale.length) await callApi(page, server.url, '/BeaconLocation/Delete', { LocationIds: stale });
    const around = (r: number): [number, number][] => [[uwb.x - r, uwb.y - r], [uwb.x + r, uwb.y - r], [uwb.x + r, uwb.y + r], [uwb.x - r, uwb.y + r]];
    const loc = (await callApi(page, server.url, '/Bluetooth/AddBeaconLocationInfo', { Name: l.name, Event: 1, Kind: 1, FloorId: uwb.floorId, Points: around(4) })).LocationId as number;

    // The wheelchair and the tool are in the room, the pump far from it.
    const [chair, pump, tool] = l.imeis;
    await walkTo(chair, 0, 0);
    await walkTo(tool, 1, 1);
    await walkTo(pump, 30, 30);
    await callApi(page, server.url, '/Asset/Save', { DeviceIds: [await deviceId(pump)], Category: 2, ExpectedLocationId: loc });
    await callApi(page, server.url, '/Asset/Save', { DeviceIds: [await deviceId(tool)], Category: 4, ExpectedLocationId: null });

    // The wheelchair is marked through the dialog.
    await page.goto(`${server.url}/position/assetInventory`);
    await page.locator('[data-testid="asset-table"] .ant-table').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="add-asset"]').click();
    await modal().locator('[data-testid="asset-devices"]').click();
    await page.keyboard.type(chair);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: chair }).first().click();
    await page.keyboard.press('Escape');
    await choose(page, 'asset-category', tx.category['1']!);
    await choose(page, 'asset-expected', l.name);
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    await modal().waitFor({ state: 'hidden', timeout: 15_000 });
    const row = page.locator('[data-testid="asset-table"] tr', { hasText: chair });
    await expect.poll(() => row.innerText(), { timeout: 20_000 }).toContain(l.name);
    await expect(row.innerText()).resolves.toContain(tx.category['1']);
    await expect.poll(() => page.locator('[data-testid="asset-counts"]').innerText(), { timeout: 10_000 }).toContain(`${l.name} 2`);
    await screenshot(page, `assets-list-${l.lang}`);

    // Stock-take of the room: the pump is missing, the tool extra, the wheelchair present.
    await page.locator('[data-testid="open-stocktake"]').click();
    await choose(page, 'stocktake-location', l.name);
    await modal().locator('[data-testid="stocktake-run"]').click();
    const lines = modal().locator('[data-testid="stocktake-lines"]');
    await lines.locator('tbody tr').first().waitFor({ timeout: 15_000 });
    await settled(modal());
    const byImei = async (imei: string) => lines.locator('tr', { hasText: imei }).innerText();
    await expect(byImei(pump)).resolves.toContain(tx.result['2']);
    await expect(byImei(tool)).resolves.toContain(tx.result['3']);
    await expect(byImei(chair)).resolves.toContain(tx.result['1']);
    await screenshot(page, `assets-stocktake-${l.lang}`);
    const [download] = await Promise.all([page.waitForEvent('download'), modal().locator('[data-testid="stocktake-export"]').click()]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`${l.name}\\.xlsx$`));
    await modal().locator('.ant-modal-close').click();
    await modal().waitFor({ state: 'hidden' });

    // The history keeps it.
    await page.locator('[data-testid="open-history"]').click();
    await modal().locator('[data-testid="stocktake-history"] tbody tr', { hasText: l.name }).first().waitFor({ timeout: 15_000 });
    await settled(modal());
    await screenshot(page, `assets-history-${l.lang}`);
    await modal().locator('.ant-modal-close').first().click();

    // A wearable outdoors hears the registered beacon (the positioning reads the registry's places
    // every 30 s): placed at it, the tracking card names the fix.
    await expect
      .poll(
        async () => {
          await uplink(session, 'e2e-assets', token, { imei: l.wearable, time: new Date().toISOString(), beacons: [{ mac: BEACON, rssi: -80 }] });
          return (await callApi(page, server.url, '/device/deviceTracking', { Imei: l.wearable, Minutes: 60 })).Fix?.Method;
        },
        { timeout: 45_000, interval: 1000 },
      )
      .toBe('beacon');
    await page.goto(`${server.url}/track/index?imei=${l.wearable}`);
    await expect.poll(() => page.locator('[data-testid="track-fix"]').innerText().catch(() => ''), { timeout: 20_000 }).toContain(l.fix);
    await screenshot(page, `assets-beacon-fix-${l.lang}`);
    expect(errors).toEqual([]);
  });
});
