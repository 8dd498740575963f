// Indoor positioning in a real browser against a real server process, in one logged-in page, first
// in Chinese and then in English: a scene created with its SVG map, a floor with a PNG plan
// uploaded, its scale set by clicking two points of the plan, an anchor placed by clicking the plan;
// then the demo care home on the inner map, opened directly, with its simulated tags walking (the
// simulator's indoor mode over the HTTP uplink): a resident found by the tag search, seen moving,
// and her indoor track replayed on the plan. Screenshots in both languages land in e2e/screenshots/.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARE_HOME, renderFloorPlan } from '@wt/simulator';
import { launchBrowser, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { callApi, login, switchLanguage } from './console.js';

const texts = (lang: string, ns: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, any>;

const LANGS = [
  { lang: 'zh-CN', scene: 'E2E 一号楼', floor: 'E2E 一层', anchor: 'E2E 信标', mac: 'AC:23:3F:EE:00:01', resident: '陈秀英' },
  { lang: 'en', scene: 'E2E Block B', floor: 'E2E ground', anchor: 'E2E beacon', mac: 'AC:23:3F:EE:00:02', resident: '林桂芳' },
] as const;

let server: ServerProcess;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let errors: string[];
const files = mkdtempSync(path.join(tmpdir(), 'wt-indoor-'));
const svgFile = path.join(files, 'site.svg');
const planFile = path.join(files, 'plan.png');

beforeAll(async () => {
  writeFileSync(svgFile, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 100"><rect x="10" y="10" width="180" height="80" fill="#eef" stroke="#333"/></svg>');
  writeFileSync(planFile, renderFloorPlan(CARE_HOME, 'F1').png);
  // The demo simulation walks the care home's tags (SIMULATE > 0 starts it).
  server = await startServer({ SIMULATE: '2' });
  browser = await launchBrowser();
  ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
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
/** antd's InputNumber puts the test id on its input element, or on a wrapper (with an addon). */
const numberInput = (id: string) => `input[data-testid="${id}"], [data-testid="${id}"] input`;

async function choose(testId: string, option: string) {
  await modal().locator(`[data-testid="${testId}"]`).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

async function scenes(): Promise<{ SceneId: number; Name: string; Floors: { FloorId: number; Name: string; MetresPerPixel: number | null }[] }[]> {
  return (await callApi(page, server.url, '/Scene/SceneInfoListByMonitor', { EnabledOnly: false })).Items;
}

/** Removes what a failed attempt may have left, so a retry starts afresh. */
async function removeScene(name: string) {
  const s = (await scenes()).find((x) => x.Name === name);
  if (!s) return;
  const anchors = (await callApi(page, server.url, '/Scene/BeaconsInfoList', { SceneId: s.SceneId, PageCount: 100 })).Items.map((a: { BeaconId: number }) => a.BeaconId);
  if (anchors.length) await callApi(page, server.url, '/Scene/DeleteBeaconsInfo', { BeaconIds: anchors });
  await callApi(page, server.url, '/Scene/DeleteSceneInfo', { SceneIds: [s.SceneId] });
}

/**
 * Clicks the plan at a point given as fractions of the plan viewer's box, once the box has stopped
 * moving (a dialog zooms in when it opens: a box measured meanwhile sends the click elsewhere).
 */
async function clickPlan(scope: ReturnType<Page['locator']>, fx: number, fy: number) {
  const view = scope.locator('[data-testid="plan-view"]');
  let box = await view.boundingBox();
  await expect
    .poll(async () => {
      const now = await view.boundingBox();
      const still = !!box && !!now && box.x === now.x && box.y === now.y && box.width === now.width && box.height === now.height;
      box = now;
      return still;
    })
    .toBe(true);
  await page.mouse.click(box!.x + box!.width * fx, box!.y + box!.height * fy);
}

function indoorFlow(L: (typeof LANGS)[number]) {
  it(`creates a scene, uploads a floor plan, sets its scale and places an anchor on it (${L.lang})`, async () => {
    const t = texts(L.lang, 'scene');
    await removeScene(L.scene);
    await page.goto(`${server.url}/scene/sencelist`);
    await page.locator('[data-testid="scene-table"] .ant-table').waitFor({ timeout: 30_000 });

    await page.locator('[data-testid="scene-add"]').click();
    await modal().locator('[data-testid="scene-name"]').fill(L.scene);
    await modal().locator(numberInput('scene-lat')).fill('22.5431');
    await modal().locator(numberInput('scene-lon')).fill('114.0579');
    await modal().locator('[data-testid="scene-address"]').fill('深圳市福田区');
    await modal().locator('input[type=file][accept*="svg"]').first().setInputFiles(svgFile);
    await modal().locator('[data-testid="scene-map-upload-preview"]').waitFor();
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    await page.locator('[data-testid="scene-table"]', { hasText: L.scene }).waitFor();
    const sceneId = (await scenes()).find((s) => s.Name === L.scene)!.SceneId;

    // Its floors, opened directly by address: add the first floor with its plan.
    await page.goto(`${server.url}/scene/floors?scene=${sceneId}`);
    await page.locator('[data-testid="floor-add"]').click();
    await modal().locator(numberInput('floor-no')).fill('1');
    await modal().locator('[data-testid="floor-name"]').fill(L.floor);
    await choose('floor-type', t.floorTypes['1']);
    await modal().locator('[data-testid="floor-description"]').fill('E2E');
    await modal().locator('input[type=file][accept*="png"]').first().setInputFiles(planFile);
    await expect.poll(() => modal().locator('[data-testid="floor-plan-size"]').textContent()).toContain('1000');
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    await expect.poll(async () => (await scenes()).find((s) => s.SceneId === sceneId)?.Floors.length).toBe(1);
    const floorId = (await scenes()).find((s) => s.SceneId === sceneId)!.Floors[0]!.FloorId;

    // The scale: two points 40 m apart (the plan's full width is 40 m at 0.04 m/px).
    await page.locator(`[data-testid="floor-scale-${floorId}"]`).click();
    await modal().locator('[data-testid="plan-view"] img').first().waitFor();
    // Each click sets one end of the measure (the plan is fitted once its image has loaded).
    await clickPlan(modal(), 0.25, 0.5);
    await modal().locator('[data-testid="scale-point-0"]').waitFor();
    await clickPlan(modal(), 0.75, 0.5);
    await modal().locator('[data-testid="scale-point-1"]').waitFor();
    await modal().locator(numberInput('scale-distance')).fill('20');
    await modal().locator('[data-testid="scale-save"]').click();
    await expect
      .poll(async () => (await scenes()).find((s) => s.SceneId === sceneId)!.Floors[0]!.MetresPerPixel)
      .toBeGreaterThan(0);
    const mpp = (await scenes()).find((s) => s.SceneId === sceneId)!.Floors[0]!.MetresPerPixel!;
    expect(mpp).toBeGreaterThan(0.01);
    expect(mpp).toBeLessThan(0.2);

    // An anchor placed by clicking the plan on the beacons page.
    await page.goto(`${server.url}/scene/beacons?scene=${sceneId}&floor=${floorId}`);
    await page.locator('[data-testid="plan-view"] img').first().waitFor();
    await clickPlan(page.locator('body'), 0.5, 0.5);
    await modal().locator('[data-testid="anchor-name"]').fill(L.anchor);
    await modal().locator('[data-testid="anchor-mac"]').fill(L.mac);
    await modal().locator('[data-testid="anchor-code"]').fill('FDA50693A4E24FB1AFCFC6EB07647825');
    await modal().locator(numberInput('anchor-major')).fill('9');
    await modal().locator(numberInput('anchor-minor')).fill(L.lang === 'en' ? '2' : '1');
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    await expect
      .poll(async () => (await callApi(page, server.url, '/Scene/BeaconsInfoList', { SceneId: sceneId })).Total)
      .toBe(1);
    const anchor = (await callApi(page, server.url, '/Scene/BeaconsInfoList', { SceneId: sceneId })).Items[0];
    // Placed where it was clicked: within the plan, in metres.
    expect(anchor.X).toBeGreaterThan(0);
    expect(anchor.Y).toBeGreaterThan(0);
    await page.locator('[data-testid="anchor-markers"]', { hasText: L.anchor }).waitFor();
    await screenshot(page, `indoor-beacons-${L.lang}`);
    expect(errors).toEqual([]);
  });

  it(`shows the care home live on the inner map, finds a resident walking and replays her indoor track (${L.lang})`, async () => {
    await page.goto(`${server.url}/position/innerMap`);
    await page.locator('[data-testid="inner-map"]').waitFor({ timeout: 30_000 });
    // The demo care home is the first scene; its tags arrive from the simulation.
    await page.locator('[data-testid="floor-switch"]').waitFor();
    await page.locator('[data-testid="tag-search"] input').fill(L.resident);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: L.resident }).first().click({ timeout: 20_000 });
    const card = page.locator('[data-testid="tag-card"]');
    await card.waitFor();
    await expect.poll(() => card.textContent()).toContain(L.resident);
    // She moves: the position on her card changes as fixes arrive (walkers pause now and then).
    const position = async () => (await card.locator('[data-testid="tag-card-position"]').textContent()) ?? '';
    const first = await position();
    await expect.poll(position, { timeout: 60_000 }).not.toBe(first);
    await screenshot(page, `indoor-inner-map-${L.lang}`);

    // Her indoor track, from the card.
    await card.locator('[data-testid="tag-history"]').click();
    const playback = page.locator('[data-testid="playback"]');
    await playback.waitFor();
    await page.locator('[data-testid="history-query"]').click();
    await expect.poll(async () => Number(await playback.getAttribute('data-points')), { timeout: 20_000 }).toBeGreaterThan(1);
    await playback.locator('[data-testid="play"]').click();
    await expect.poll(async () => Number(await playback.getAttribute('data-index')), { timeout: 20_000 }).toBeGreaterThan(0);
    await screenshot(page, `indoor-playback-${L.lang}`);
    // Both ends of the range are read in full in the narrow panel: no input cuts its date and time.
    const cut = await page
      .locator('[data-testid="inner-history"] .ant-picker-range input')
      .evaluateAll((inputs) => inputs.filter((i) => (i as HTMLInputElement).scrollWidth > (i as HTMLInputElement).clientWidth + 1).map((i) => (i as HTMLInputElement).value));
    expect(cut).toEqual([]);
    expect(errors).toEqual([]);
  });
}

describe('indoor positioning, in Chinese', () => {
  indoorFlow(LANGS[0]);
});

describe('indoor positioning, in English', () => {
  beforeAll(async () => {
    // The console's own language switch, in the same logged-in page.
    await switchLanguage(page, 'zh-CN', 'en');
  });
  indoorFlow(LANGS[1]);
});
