// The console's maps opened directly, as the first page a tab loads: the device fence map draws
// (its canvas is not one flat colour, MapLibre's worker loads), the device card names the place,
// and the history opened from a card shows the track at once with its start and end. Screenshots
// in Chinese and English.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/src/index.js';
import { launchBrowser, newContext, pngColours, root, screenshot, startServer, type ServerProcess } from './harness.js';
import { login } from './console.js';

const texts = (lang: string, ns: string) =>
  JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<
    string,
    any
  >;
const IMEI = '865000000000007';

let server: ServerProcess;
let browser: Browser;
let sim: Simulator;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // Half an hour of walking around Shenzhen, replayed 60 times faster: a track for today.
  sim = await startSimulator({
    devices: [{ imei: IMEI, protocol: 'watch' }],
    ports: { watch: server.ports.WATCH_PORT },
    interval: 30,
    speedup: 60,
    startTime: Date.now() - 1800_000,
    seed: 11,
    rampSeconds: 1,
  });
});
afterAll(async () => {
  await sim?.stop();
  await browser?.close();
  await server?.stop();
});

/** Colours of the canvas as shown: how many distinct ones, and how many pixels near some given ones. */
async function canvasColours(page: Page, canvas: Locator, near: Record<string, [number, number, number]> = {}) {
  return pngColours(page, await canvas.screenshot(), near);
}

/** Console messages of a page, to find MapLibre's worker errors. */
function consoleErrors(page: Page): string[] {
  const out: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') out.push(m.text());
  });
  page.on('pageerror', (e) => out.push(e.message));
  return out;
}

describe.each(['zh-CN', 'en'])('maps opened directly (%s)', (lang) => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const ctx = await newContext(browser, { locale: lang });
    page = await ctx.newPage();
    errors = consoleErrors(page);
    await login(page, server.url, lang);
  });
  afterAll(async () => page?.context().close());

  it('draws the device fence map when it is the first page loaded', async () => {
    // A full load of the fence page: no other map module was loaded before it in this document.
    await page.goto(`${server.url}/deviceFence?imei=${IMEI}`);
    const canvas = page.locator('[data-testid="fence-map"] canvas.maplibregl-canvas');
    await canvas.waitFor({ timeout: 45_000 });
    await expect
      .poll(async () => (await canvasColours(page, canvas)).distinct, { timeout: 30_000 })
      .toBeGreaterThan(20);
    await page.waitForTimeout(800);
    await screenshot(page, `maps-fence-${lang}`);
    expect(errors.filter((e) => /worker/i.test(e))).toEqual([]);
  });

  it('names the place of a device on its card and shows its history from the card', async () => {
    const h = texts(lang, 'history');
    const m = texts(lang, 'monitor');
    await page.goto(`${server.url}/`);
    await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    await page.locator('.wt-monitor-panel input').first().fill(IMEI);
    await page.locator('[data-testid="device-list"] .wt-device-row').first().click();
    const card = page.locator('[data-testid="device-card"]');
    await card.waitFor();
    // The offline geocoder: the simulated watch walks in Shenzhen.
    const address = card.locator('[data-testid="device-address"]');
    await expect
      .poll(() => address.innerText(), { timeout: 20_000 })
      .toMatch(lang === 'en' ? /Shenzhen, Guangdong$/ : /^广东省深圳市/);
    await page.waitForTimeout(1500);
    await screenshot(page, `maps-monitor-street-${lang}`);

    await card.locator('button', { hasText: m.card.history }).click();
    const history = page.locator('[data-testid="history"]');
    // Queried at once, without pressing "show track".
    await page.locator('[data-testid="history"][data-loaded="1"]').waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="playback"]').waitFor({ timeout: 20_000 });
    // Both full date-times fit their inputs.
    for (const input of await history.locator('.ant-picker-range input').all()) {
      const fits = await input.evaluate(
        (el: HTMLInputElement) => el.value.length === 19 && el.scrollWidth <= el.clientWidth,
      );
      expect(fits).toBe(true);
    }
    const canvas = history.locator('canvas.maplibregl-canvas');
    // The track (blue), its start (green) and its end (red), fitted into the view.
    const colours = {
      line: [0x40, 0x9e, 0xff],
      start: [0x52, 0xc4, 0x1a],
      end: [0xf5, 0x22, 0x2d],
    } as Record<string, [number, number, number]>;
    await expect
      .poll(
        async () => {
          const c = await canvasColours(page, canvas, colours);
          return c.counts.line! > 200 && c.counts.start! > 30 && c.counts.end! > 30;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await screenshot(page, `maps-history-${lang}`);
    expect(await page.locator('.ant-message-warning', { hasText: h.chooseDevice }).count()).toBe(0);
    expect(errors.filter((e) => /worker/i.test(e))).toEqual([]);
  });
});
