// The project map in a real browser, in one logged-in page: opened by its address in a new tab, it
// shows the demo care home and a second (disabled, greyed) scene as labelled markers over a drawn
// base map, both in view; the care home's card shows its floors, beacons and recent tags as the
// server counts them; the side list's search finds the other scene and opens its card; in English
// the page holds no Chinese outside user data, and "open scene map" leads to the scene's map page.
// Screenshots in Chinese and English land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CARE_HOME } from '@wt/simulator';
import { pngColours, root, screenshot } from './harness.js';
import { callApi, cjkTexts, consoleSession, freshTab, switchLanguage } from './console.js';

type SceneTexts = { list: Record<string, string>; projectMap: Record<string, string> };
const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'scene.json'), 'utf8')) as SceneTexts;
const zh = texts('zh-CN');
const en = texts('en');
const s = consoleSession();
const DEMO = '阳光护理院';
// Its own name per attempt (a retried test finds the first attempt's scene there too).
const OTHER = `E2E 广州仓库 ${Date.now() % 100_000}`;
const SVG = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10"/></svg>').toString('base64')}`;

type Item = { SceneId: number; Name: string; Address: string; FloorCount: number; AnchorCount: number; TagCount: number; Enabled: boolean };

/** The card's numbers as shown. */
const cardCounts = async (p: Page) =>
  Promise.all(['floors', 'anchors', 'tags'].map(async (k) => Number(await p.locator(`[data-testid="project-card-${k}"]`).innerText())));

/** Whether an element's centre lies inside the map. */
async function inMap(p: Page, selector: string) {
  const map = (await p.locator('.wt-project-map').boundingBox())!;
  const b = (await p.locator(selector).boundingBox())!;
  const x = b.x + b.width / 2;
  const y = b.y + b.height / 2;
  return x > map.x && x < map.x + map.width && y > map.y && y < map.y + map.height;
}

describe('project map', () => {
  it('shows the scenes as markers with their counts, searches them and opens a scene map, in Chinese and English', async () => {
    // A second scene, disabled, in Guangzhou: the view must frame both cities.
    const added = await callApi<{ State: number; SceneId: number }>(s.page, s.server.url, '/Scene/addSceneInfo', {
      Name: OTHER, Lat: 23.1291, Lon: 113.2644, Address: '广州市天河区', BeaconType: 2, Method: 1, Enabled: false, MapSvg: SVG,
    });
    expect(added.State).toBe(200);
    const items = (await callApi<{ Items: Item[] }>(s.page, s.server.url, '/Scene/ProjectMap', {})).Items;
    const demo = items.find((i) => i.Name === DEMO)!;
    expect(demo).toMatchObject({ FloorCount: CARE_HOME.floors.length, AnchorCount: CARE_HOME.anchors.length + CARE_HOME.locators.length, Enabled: true });
    const other = added.SceneId;

    const { tab: page, errors } = await freshTab(s.page, s.server.url, '/scene/projectMap', 'zh-CN');
    await page.locator('[data-testid="project-map"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    const demoMarker = `[data-testid="project-marker-${demo.SceneId}"]`;
    const otherMarker = `[data-testid="project-marker-${other}"]`;
    await page.locator(demoMarker).waitFor({ timeout: 30_000 });
    await expect(page.locator(demoMarker).innerText()).resolves.toBe(DEMO);
    await expect(page.locator(otherMarker).innerText()).resolves.toBe(OTHER);
    // Disabled: greyed.
    await expect(page.locator(otherMarker).getAttribute('data-enabled')).resolves.toBe('0');
    await expect(page.locator(demoMarker).getAttribute('data-enabled')).resolves.toBe('1');
    await expect(page.locator(`${otherMarker} .wt-project-pin`).evaluate((e) => getComputedStyle(e).color)).resolves.toBe('rgb(166, 166, 166)');
    // The base map is drawn (not one flat colour) and both markers are in view.
    const canvas = page.locator('[data-testid="project-map"] canvas.maplibregl-canvas');
    await expect.poll(async () => (await pngColours(page, await canvas.screenshot())).distinct, { timeout: 30_000 }).toBeGreaterThan(20);
    await expect.poll(async () => [await inMap(page, demoMarker), await inMap(page, otherMarker)], { timeout: 10_000 }).toEqual([true, true]);

    // The care home's card: the server's counts.
    await page.locator(demoMarker).click();
    const card = page.locator('[data-testid="project-card"]');
    await expect(card.locator('[data-testid="project-card-name"]').innerText()).resolves.toBe(DEMO);
    expect(await cardCounts(page)).toEqual([demo.FloorCount, demo.AnchorCount, demo.TagCount]);
    await expect(card.locator('[data-testid="project-card-enabled"]').innerText()).resolves.toBe(zh.list.enabled);
    await expect(page.locator('[data-testid="project-open-floors"]').innerText()).resolves.toBe(zh.list.floors);
    await expect(card.innerText()).resolves.toContain(zh.projectMap.tags.replace('{{minutes}}', '10'));
    await screenshot(page, 'project-map-zh-CN');

    // The side list searched by name: only the other scene; its row opens its card and pans the map to it.
    await page.locator('[data-testid="project-search"] input').fill(OTHER.slice(4));
    await expect.poll(() => page.locator('[data-testid="project-list"] [data-testid^="project-row-"]').count()).toBe(1);
    await page.locator(`[data-testid="project-row-${other}"]`).click();
    await expect.poll(() => card.locator('[data-testid="project-card-name"]').innerText()).toBe(OTHER);
    await expect(card.locator('[data-testid="project-card-enabled"]').innerText()).resolves.toBe(zh.list.disabled);
    expect(await cardCounts(page)).toEqual([0, 0, 0]);
    await expect.poll(() => inMap(page, otherMarker), { timeout: 10_000 }).toBe(true);
    await page.locator('[data-testid="project-search"] input').fill('');

    // English: the same page, no Chinese outside user data.
    await switchLanguage(page, 'zh-CN', 'en');
    await page.locator('[data-testid="project-map"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    // The care home chosen in the side list: the map pans back to it.
    await page.locator(`[data-testid="project-row-${demo.SceneId}"]`).click();
    await expect.poll(() => card.locator('[data-testid="project-card-name"]').innerText()).toBe(DEMO);
    await expect.poll(() => inMap(page, demoMarker), { timeout: 10_000 }).toBe(true);
    expect(await cardCounts(page)).toEqual([demo.FloorCount, demo.AnchorCount, demo.TagCount]);
    await expect(card.innerText()).resolves.toContain(en.projectMap.tags.replace('{{minutes}}', '10'));
    await expect(page.locator('[data-testid="project-open-map"]').innerText()).resolves.toBe(en.projectMap.openMap);
    expect(await cjkTexts(page, '[data-testid="project-map"]')).toEqual([]);
    await screenshot(page, 'project-map-en');

    // "Open scene map": the scene's map page with its details.
    await page.locator('[data-testid="project-open-map"]').click();
    await page.waitForURL((u) => u.pathname === '/scene/scenemap' && u.searchParams.get('id') === String(demo.SceneId));
    await page.locator('[data-testid="scene-details"]').waitFor({ timeout: 20_000 });
    await expect(page.locator('[data-testid="scene-details"]').innerText()).resolves.toContain(demo.Address);
    await expect(page.locator('.ant-card-head-title').first().innerText()).resolves.toContain(DEMO);
    expect(errors).toEqual([]);
  }, 180_000);
});
