// The monitor in a real browser against a real server process with simulated watches: a device
// moves on the map, an SOS pops up a sticky notification with the sound on and lands under the
// alarm icon, the base map switches to satellite (offline). Screenshots in Chinese and English.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/src/index.js';
import { launchBrowser, newContext, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { cjkTexts, closeOverlays, login } from './console.js';

const texts = (lang: string, ns: string) =>
  JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, any>;
const zh = texts('zh-CN', 'monitor');
const IMEIS = ['865000000000001', '865000000000002', '865000000000003', '865000000000004', '865000000000005', '865000000000006'];
const SOS_IMEI = IMEIS[1]!;

let server: ServerProcess;
let browser: Browser;
let sim: Simulator;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // Ten times faster than real time: a walker covers about 140 m between two reports.
  sim = await startSimulator({
    devices: IMEIS.map((imei) => ({ imei, protocol: 'watch' as const })),
    ports: { watch: server.ports.WATCH_PORT },
    interval: 20,
    speedup: 10,
    seed: 11,
    rampSeconds: 1,
  });
});
afterAll(async () => {
  await sim?.stop();
  await browser?.close();
  await server?.stop();
});

/** Screen position of a device's name label on the map (labels are redrawn as devices move: retried). */
async function labelBox(page: Page, name: string) {
  for (let i = 0; i < 50; i++) {
    const label = page.locator('.wt-map-label', { hasText: name }).first();
    const box = (await label.count()) ? await label.boundingBox().catch(() => null) : null;
    if (box) return box;
    await page.waitForTimeout(200);
  }
  throw new Error(`no label for ${name}`);
}

describe('monitor', () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const ctx = await newContext(browser, { locale: 'zh-CN' });
    page = await ctx.newPage();
    errors = watchErrors(page);
    await login(page, server.url);
    await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
  });

  // A failed attempt may leave a dialog open; its retry (and the next test) starts without it.
  beforeEach(async () => {
    await closeOverlays(page);
  });

  it('shows the devices and moves one as the simulator reports', async () => {
    const list = page.locator('[data-testid="device-list"]');
    await list.locator(".wt-device-row").first().waitFor();
    // Pick a device the simulator drives and open its card.
    await page.locator('.wt-monitor-panel input').first().fill(IMEIS[0]!);
    await list.locator(".wt-device-row").first().click();
    await page.locator('[data-testid="device-card"]').waitFor();
    await page.locator('[data-testid="device-card"] .ant-tag').first().waitFor();
    const name = (await page.locator('[data-testid="device-card"] .ant-card-head-title span').first().innerText()).trim();
    await page.waitForTimeout(1500);
    const before = await labelBox(page, name);
    await screenshot(page, 'monitor-card-zh-CN');
    let after = before;
    for (let i = 0; i < 30 && Math.hypot(after.x - before.x, after.y - before.y) < 3; i++) {
      await page.waitForTimeout(1000);
      after = await labelBox(page, name);
    }
    expect(Math.hypot(after.x - before.x, after.y - before.y)).toBeGreaterThanOrEqual(3);
    // The offline geocoder names the district the simulated watch walks in (Shenzhen), not its coordinates.
    await expect.poll(() => page.locator('[data-testid="device-address"]').innerText()).toMatch(/^广东省深圳市\S+区$/);
  });

  it('pops up a sticky SOS notification with the sound on, kept under the alarm icon', async () => {
    sim.trigger(SOS_IMEI, 'sos');
    const note = page.locator('.ant-notification-notice .wt-alarm-note[data-alarm-type="5"]').first();
    await note.waitFor({ timeout: 30_000 });
    await expect(note.getAttribute('data-sticky')).resolves.toBe('1');
    await expect(page.locator('[data-testid="alarm-sound"]').getAttribute('data-sound')).resolves.toBe('on');
    // Still there after the 4.5 s a normal notification lasts.
    await page.waitForTimeout(5000);
    await expect(note.isVisible()).resolves.toBe(true);
    await expect(page.locator('[data-testid="alarm-bell"] .ant-badge-count').innerText()).resolves.toMatch(/[1-9]/);
    await screenshot(page, 'monitor-sos-zh-CN');
    await page.locator('[data-testid="alarm-bell"]').click();
    await expect(page.locator('[data-testid="alarm-list"] [data-alarm-type="5"]').first().innerText()).resolves.toContain(SOS_IMEI);
    await page.keyboard.press('Escape');
    // Closing the last open notification stops the sound.
    const notices = page.locator('.ant-notification-notice-close');
    while ((await notices.count()) > 0) {
      await notices.first().click();
      await page.waitForTimeout(300);
    }
    await expect(page.locator('[data-testid="alarm-sound"]').getAttribute('data-sound')).resolves.toBe('off');
  });

  it('switches to the satellite mode of the offline map', async () => {
    const close = page.locator('[data-testid="device-card"] .ant-card-extra button');
    if (await close.count()) await close.click();
    // Out to the region, where the offline shapes show.
    for (let i = 0; i < 9; i++) {
      await page.locator('.wt-map-zoom button').last().click();
      await page.waitForTimeout(300);
    }
    await page.locator('.wt-map-toolbar .ant-segmented-item', { hasText: zh.toolbar.satellite }).click();
    await page.waitForTimeout(1200);
    await screenshot(page, 'monitor-satellite-offline-zh-CN');
    await page.locator('.wt-map-toolbar .ant-segmented-item', { hasText: zh.toolbar.normal }).click();
    await page.waitForTimeout(800);
    await screenshot(page, 'monitor-map-zh-CN');
    expect(errors).toEqual([]);
  });

  it('shows the map in English', async () => {
    const m = texts('en', 'monitor');
    const ctx = await newContext(browser, { locale: 'en' });
    const en = await ctx.newPage();
    const enErrors = watchErrors(en);
    await login(en, server.url, 'en');
    const monitor = en.locator('[data-testid="monitor"][data-loaded="1"]');
    await monitor.waitFor({ timeout: 30_000 });
    // The toolbar in English: base maps, and switches named as their labels say.
    const toolbar = en.locator('.wt-map-toolbar');
    await toolbar.locator('.ant-segmented-item', { hasText: m.toolbar.normal }).waitFor();
    await toolbar.locator('.ant-segmented-item', { hasText: m.toolbar.satellite }).waitFor();
    const switches = await toolbar.locator('.ant-switch').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
    expect(switches).toEqual(expect.arrayContaining([m.toolbar.fences, m.toolbar.sosAnimation]));
    // A watch the simulator drives: online in the list, its card with English labels and its IMEI.
    await en.locator('.wt-monitor-panel input').first().fill(IMEIS[0]!);
    const row = en.locator('[data-testid="device-list"] .wt-device-row').first();
    await expect.poll(() => row.innerText()).toContain(m.status.online);
    await row.click();
    const card = en.locator('[data-testid="device-card"]');
    await card.locator('.ant-tag').first().waitFor();
    const shown = await card.innerText();
    for (const label of [m.card.battery, m.card.signal, m.card.lastSeen, m.card.address, m.card.history]) expect(shown).toContain(label);
    expect(shown).toContain(IMEIS[0]);
    // The address is looked up (what the geocoder names is data; no label of another language is left).
    await expect.poll(() => card.locator('[data-testid="device-address"]').innerText()).not.toBe(m.card.locating);
    expect(await cjkTexts(en, '[data-testid="monitor"]')).toEqual([]);
    await screenshot(en, 'monitor-card-en');
    expect(enErrors).toEqual([]);
    await ctx.close();
  });
});
