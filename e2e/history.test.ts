// History and dashboard in a real browser: a simulated watch's track of the last hour plays to
// "finished", the fourth export of one date selection is refused, and the dashboard shows the
// account's figures. Screenshots in Chinese and English.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/src/index.js';
import { launchBrowser, newContext, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { cjkTexts, closeOverlays, login, open } from './console.js';

const texts = (lang: string, ns: string) =>
  JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, any>;
const IMEI = '865000000000003';

let server: ServerProcess;
let browser: Browser;
let sim: Simulator;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  // An hour of simulated walking, replayed 120 times faster: a report every quarter second.
  sim = await startSimulator({
    devices: [{ imei: IMEI, protocol: 'watch' }],
    ports: { watch: server.ports.WATCH_PORT },
    interval: 30,
    speedup: 120,
    startTime: Date.now() - 3600_000,
    seed: 5,
    rampSeconds: 1,
  });
  // Enough of it to draw a path.
  await new Promise((r) => setTimeout(r, 15_000));
});
afterAll(async () => {
  await sim?.stop();
  await browser?.close();
  await server?.stop();
});

async function showTrack(page: Page, lang: string) {
  const h = texts(lang, 'history');
  // The landing page first, so the router is up before navigating.
  await page.locator('[data-testid="monitor"]').waitFor({ timeout: 30_000 });
  await open(page, `/devices/history?imei=${IMEI}`);
  await page.locator('[data-testid="history"]').waitFor();
  await page.locator('.ant-picker-range').click();
  await page.locator('.ant-picker-presets li', { hasText: h.range.week }).click();
  await page.locator('[data-testid="history-query"]').click();
  await page.locator('[data-testid="playback"]').waitFor({ timeout: 20_000 });
  return h;
}

describe('history and dashboard', () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const ctx = await newContext(browser, { locale: 'zh-CN' });
    page = await ctx.newPage();
    errors = watchErrors(page);
    await login(page, server.url);
  });

  // A failed attempt may leave a dialog open; its retry (and the next test) starts without it.
  beforeEach(async () => {
    await closeOverlays(page);
  });

  it('plays a device history to the end', async () => {
    const h = await showTrack(page, 'zh-CN');
    const points = Number((await page.locator('.wt-history-stats .ant-statistic-content-value').first().innerText()).replace(/\D/g, ''));
    expect(points).toBeGreaterThan(10);
    await page.locator('[data-testid="play"]').click();
    await expect(page.locator('[data-testid="play-state"]').innerText()).resolves.toBe(h.state.playing);
    await page.waitForTimeout(1200);
    await screenshot(page, 'history-playback-zh-CN');
    await page.locator('[data-testid="play"]').click();
    await expect(page.locator('[data-testid="playback"]').getAttribute('data-state')).resolves.toBe('paused');
    await expect(page.locator('[data-testid="play"]').innerText()).resolves.toContain(h.continue);
    for (let i = 0; i < 4; i++) await page.locator('[data-testid="faster"]').click();
    await page.locator('[data-testid="play"]').click();
    await page.locator('[data-testid="playback"][data-state="finished"]').waitFor({ timeout: 60_000 });
    await expect(page.locator('[data-testid="play-state"]').innerText()).resolves.toBe(h.state.finished);
    await screenshot(page, 'history-finished-zh-CN');
  });

  it('refuses the fourth export of the same date selection', async () => {
    const msg = JSON.parse(readFileSync(path.join(root, 'contract/src/messages/zh-CN.json'), 'utf8')).monitor.exportLimit as string;
    for (let i = 0; i < 3; i++) {
      const download = page.waitForEvent('download');
      await page.locator('[data-testid="history-export"]').click();
      expect((await download).suggestedFilename()).toMatch(new RegExp(`^track_${IMEI}_.*\\.xlsx$`));
      await page.waitForTimeout(300);
    }
    await page.locator('[data-testid="history-export"]').click();
    await page.locator('.ant-message-error', { hasText: msg }).waitFor({ timeout: 10_000 });
  });

  it('shows the dashboard', async () => {
    await open(page, '/dashboard');
    await page.locator('[data-testid="dashboard"][data-loaded="1"]').waitFor({ timeout: 20_000 });
    await expect(page.locator('[data-testid="stat-total"] .wt-dash-stat-value').innerText()).resolves.toBe('75');
    await page.waitForTimeout(1500);
    await screenshot(page, 'dashboard-zh-CN');
    expect(errors).toEqual([]);
  });

  it('in English', async () => {
    // The animated dashboard of the first page would share two cores with this one.
    await page.close();
    const ctx = await newContext(browser, { locale: 'en' });
    const en = await ctx.newPage();
    const enErrors = watchErrors(en);
    await login(en, server.url, 'en');
    const h = await showTrack(en, 'en');
    // The track's figures under English titles, the same track as in Chinese.
    const stats = en.locator('.wt-history-stats');
    expect(await stats.innerText()).toContain(h.points);
    expect(Number((await stats.locator('.ant-statistic-content-value').first().innerText()).replace(/\D/g, ''))).toBeGreaterThan(10);
    // Playing: the button offers to pause, the state says so, and the marker moves along the track.
    await en.locator('[data-testid="faster"]').click();
    await en.locator('[data-testid="play"]').click();
    await expect.poll(() => en.locator('[data-testid="play-state"]').innerText()).toBe(h.state.playing);
    expect(await en.locator('[data-testid="play"]').innerText()).toContain(h.pause);
    const position = en.locator('[data-testid="playback"] .ant-slider-handle');
    await expect.poll(async () => Number(await position.getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    expect(await cjkTexts(en, '[data-testid="history"]')).toEqual([]);
    await screenshot(en, 'history-playback-en');

    const d = texts('en', 'dashboard');
    await open(en, '/dashboard');
    await en.locator('[data-testid="dashboard"][data-loaded="1"]').waitFor({ timeout: 20_000 });
    const total = en.locator('[data-testid="stat-total"]');
    await expect(total.locator('.wt-dash-stat-value').innerText()).resolves.toBe('75');
    await expect(total.locator('.wt-dash-stat-label').innerText()).resolves.toBe(d.stat.total);
    await expect(en.locator('[data-testid="stat-accounts"] .wt-dash-stat-label').innerText()).resolves.toBe(d.stat.accounts);
    expect(await cjkTexts(en, '[data-testid="dashboard"]')).toEqual([]);
    await screenshot(en, 'dashboard-en');
    expect(enErrors).toEqual([]);
    await ctx.close();
  });
});
