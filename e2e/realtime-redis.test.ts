// Two server processes on one Redis: a watch reports to the first, and the console open on the
// second shows it online at once. Runs when TEST_REDIS_URL is set.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, startServer, type ServerProcess } from './harness.js';
import { login } from './console.js';

const REDIS = process.env.TEST_REDIS_URL;
// A demo device: both processes seed the same demo tenant, so it has the same id on both.
const IMEI = '865000000000007';

describe.skipIf(!REDIS)('realtime across two server processes', () => {
  let a: ServerProcess;
  let b: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    [a, b] = await Promise.all([startServer({ REDIS_URL: REDIS! }), startServer({ REDIS_URL: REDIS! })]);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all([a?.stop(), b?.stop()]);
  });

  it('a report to one process reaches the browser of the other', async () => {
    const ctx = await newContext(browser, { locale: 'en' });
    const page = await ctx.newPage();
    await login(page, b.url, 'en');
    await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    await page.locator('.wt-monitor-panel input').first().fill(IMEI);
    const row = page.locator('[data-testid="device-list"] .wt-device-row').first();
    await expect(row.innerText()).resolves.toContain('Offline');
    // Give the console's socket a moment to register before the report.
    await page.waitForTimeout(1500);
    const res = await fetch(`${a.url}/osmand?id=${IMEI}&lat=22.5431&lon=114.0579&timestamp=${Math.floor(Date.now() / 1000)}`);
    expect(res.status).toBe(200);
    await page.locator('[data-testid="device-list"] .wt-device-row', { hasText: 'Online' }).waitFor({ timeout: 15_000 });
    await ctx.close();
  });
});
