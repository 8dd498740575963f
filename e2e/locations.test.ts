// Locations in a real browser, in one logged-in page, first in Chinese then in English: the page
// opened directly, a location defined by drawing its zone on a floor plan of the demo care home
// (four clicks on the plan), a tag walking into it (UWB coordinates over the HTTP uplink) and the
// "entered" alarm popping up with the location's name, then the location live (who is inside,
// entries today). Screenshots land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { root, screenshot, type ServerProcess } from './harness.js';
import { choose, demoUwbAnchor, modal as modalOf, uplink } from './position.js';
import { callApi, consoleSession, switchLanguage } from './console.js';

const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'locations.json'), 'utf8')) as Record<string, any>;
const LANGS = [
  { lang: 'zh-CN', name: 'E2E 活动室', imei: '865000000000010' },
  { lang: 'en', name: 'E2E day room', imei: '865000000000011' },
] as const;

const session = consoleSession({ LOCATION_ENTER_FIXES: '2', LOCATION_ENTER_SECONDS: '0' }, { timezoneId: 'Asia/Shanghai' });
let page: Page;
let server: ServerProcess;
let errors: string[];
let token = '';
/** A UWB anchor of the demo care home, and its floor. */
let uwb: Awaited<ReturnType<typeof demoUwbAnchor>>;

beforeAll(async () => {
  ({ page, server, errors } = session);
  uwb = await demoUwbAnchor(page, server.url);
  token = (await callApi(page, server.url, '/Integration/Save', { Name: 'e2e-locations' })).Token;
});

const modal = () => modalOf(page);

/** A UWB engine reports the tag at (x, y) on the anchor's floor. */
const uwbAt = (imei: string, x: number, y: number, time: Date) => uplink(session, 'e2e-locations', token, { tagId: imei, gatewayId: uwb.mac, x, y, time: time.toISOString() });

describe.each(LANGS)('locations in $lang', (l) => {
  const tx = texts(l.lang);
  it('draws a zone on the plan, and a tag walking in raises the alarm with its name', async () => {
    // A retry finds the console in English already.
    if (l.lang === 'en' && (await page.locator('html[lang="en"]').count()) === 0) await switchLanguage(page, 'zh-CN', 'en');
    // The other language's location covers the same ground: only one location is watched at a time
    // (a device's open alarm of a type takes the repeats, whichever location they come from).
    const stale = ((await callApi(page, server.url, '/Bluetooth/allBeaconLocationList', { Name: 'E2E' })).Items as { LocationId: number }[]).map((x) => x.LocationId);
    if (stale.length) await callApi(page, server.url, '/BeaconLocation/Delete', { LocationIds: stale });
    await page.goto(`${server.url}/position/fenceList`);
    await page.locator('[data-testid="location-table"] .ant-table').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="add-location"]').click();
    await modal().locator('[data-testid="location-name"]').fill(l.name);
    await modal().locator('[data-testid="location-event"] input[value="2"]').check();
    await choose(page, 'location-scene', uwb.sceneName);
    await choose(page, 'location-floor', uwb.floorName);
    const plan = modal().locator('[data-testid="zone-plan"]');
    await plan.locator('img').first().waitFor({ timeout: 20_000 });
    const box = (await plan.boundingBox())!;
    // Four corners around the plan's middle.
    for (const [fx, fy] of [[0.3, 0.3], [0.7, 0.3], [0.7, 0.7], [0.3, 0.7]] as const) await page.mouse.click(box.x + box.width * fx, box.y + box.height * fy);
    await modal().locator('[data-testid="zone-corner-3"]').waitFor();
    await screenshot(page, `locations-draw-${l.lang}`);
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    await modal().waitFor({ state: 'hidden', timeout: 15_000 });
    const [loc] = (await callApi(page, server.url, '/Bluetooth/allBeaconLocationList', { Name: l.name })).Items as { LocationId: number; Points: [number, number][]; FloorId: number }[];
    expect(loc!.FloorId).toBe(uwb.floorId);
    expect(loc!.Points).toHaveLength(4);
    await screenshot(page, `locations-list-${l.lang}`);

    // The tag walks from outside the zone into its middle.
    const xs = loc!.Points.map((p) => p[0]);
    const ys = loc!.Points.map((p) => p[1]);
    const mid = [(Math.min(...xs) + Math.max(...xs)) / 2, (Math.min(...ys) + Math.max(...ys)) / 2] as const;
    const t0 = Date.now() - 10_000;
    await uwbAt(l.imei, Math.min(...xs) - 5, mid[1], new Date(t0));
    await uwbAt(l.imei, mid[0], mid[1], new Date(t0 + 2000));
    await uwbAt(l.imei, mid[0] + 0.5, mid[1], new Date(t0 + 4000));
    const entered = (JSON.parse(readFileSync(path.join(root, 'contract/src/messages', `${l.lang}.json`), 'utf8')) as { alarm: { msg: { locationIn: string } } }).alarm.msg.locationIn.replace('{{location}}', l.name);
    const note = page.locator('.ant-notification-notice', { has: page.locator('.wt-alarm-note[data-alarm-type="60"]') }).filter({ hasText: entered });
    await note.first().waitFor({ timeout: 30_000 });
    // The pop-up has finished sliding in.
    await note.first().evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await screenshot(page, `locations-alarm-${l.lang}`);
    for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click({ timeout: 2_000 }).catch(() => undefined);

    // The location live: the tag inside, one entry today.
    await page.locator(`[data-testid="location-detail-${loc!.LocationId}"]`).click();
    await page.locator('[data-testid="detail-inside"]').waitFor({ timeout: 20_000 });
    await expect.poll(async () => page.locator('[data-testid="detail-inside"]').innerText(), { timeout: 15_000 }).toContain(l.imei);
    await expect(page.locator('[data-testid="detail-entries"]').innerText()).resolves.toContain('1');
    await page.locator('[data-testid="detail-plan"] img').first().waitFor();
    await screenshot(page, `locations-live-${l.lang}`);
    expect(tx.live.insideNow).toBeTruthy();
    expect(errors).toEqual([]);
  });
});
