// Health pages in a real browser: a simulated watch reports health readings; the list shows them,
// the detail page draws them with the threshold bands, asks the watch to measure, and is readable
// in Chinese and English. Screenshots land in e2e/screenshots/.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/src/index.js';
import { launchBrowser, newContext, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { login, open } from './console.js';

const IMEI = '865000000000004';
let server: ServerProcess;
let browser: Browser;
let sim: Simulator | undefined;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  sim = await startSimulator({ devices: [{ imei: IMEI, protocol: 'watch' }], ports: { watch: server.ports.WATCH_PORT }, interval: 60, healthInterval: 2, seed: 5 });
});
afterAll(async () => {
  await sim?.stop();
  await browser?.close();
  await server?.stop();
});



describe('health pages', () => {
  it('lists the readings of the simulated watch and draws its charts', async () => {
    // Let the watch report a few readings first.
    const token = (await (await fetch(`${server.url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: 'admin', Password: 'admin123' }) })).json()).AccessToken;
    const count = async () =>
      (await (await fetch(`${server.url}/api/Device/allHealthDataPage`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ Imei: IMEI, Kind: 'heartRate' }) })).json()).Total as number;
    await expect.poll(count, { timeout: 60_000 }).toBeGreaterThanOrEqual(3);

    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await login(page, server.url);
    await open(page, '/health/data');
    const row = page.locator('[data-testid="health-readings"] .ant-table-row', { hasText: IMEI }).first();
    await row.waitFor({ timeout: 20_000 });
    await screenshot(page, 'health-list-zh-CN');

    await row.locator('button').click();
    await page.waitForURL((u) => u.pathname === '/health/detail');
    await page.locator('[data-testid="health-device"]', { hasText: IMEI }).waitFor({ timeout: 20_000 });
    await page.locator('[data-testid="chart-heart"] canvas').waitFor();
    await page.locator('[data-testid="chart-pressure"] canvas').waitFor();
    const readings = Number(/(\d+)/.exec((await page.locator('[data-testid="health-device"]').innerText()).split('·').at(-1)!)![1]);
    expect(readings).toBeGreaterThanOrEqual(3);

    // Ask the watch to measure now: the command is answered and a new reading arrives.
    const before = await count();
    await page.getByRole('button', { name: '测量心率' }).click();
    await page.locator('.ant-message', { hasText: '测量指令已发送' }).waitFor();
    await expect.poll(count, { timeout: 30_000 }).toBeGreaterThan(before);
    await page.waitForTimeout(500);
    await screenshot(page, 'health-detail-zh-CN');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('shows the detail in English with the week view', async () => {
    const ctx = await newContext(browser, { locale: 'en' });
    await ctx.addInitScript(() => localStorage.setItem('wt.locale', 'en'));
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await login(page, server.url);
    await open(page, `/health/detail?imei=${IMEI}`);
    await page.locator('[data-testid="chart-heart"] canvas').waitFor({ timeout: 20_000 });
    await page.locator('.ant-segmented-item', { hasText: 'Week' }).click();
    await page.locator('[data-testid="chart-heart"] canvas').waitFor();
    await page.waitForTimeout(800);
    await screenshot(page, 'health-detail-en');
    await open(page, '/health/data');
    await page.locator('[data-testid="health-readings"] .ant-table-row').first().waitFor();
    await screenshot(page, 'health-list-en');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
