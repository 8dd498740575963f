// A view-only account (the demo's viewer01, whose permission set grants no action) in a real browser
// against a real server process, one logged-in page: the device fence page shows a device's fences
// without the circle and polygon draw buttons or the fence form, and its own account dialog offers
// no platform title; the server refuses both changes anyway.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, startServer, watchErrors, type ServerProcess } from './harness.js';
import { callApi, login } from './console.js';

let server: ServerProcess;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ctx = await newContext(browser);
  page = await ctx.newPage();
  errors = watchErrors(page);
  await login(page, server.url, 'zh-CN', 'viewer01', 'admin123');
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
  await server?.stop();
});

describe('view only', () => {
  it('shows fences without draw controls, and its account without the platform title', async () => {
    const devices = await callApi<{ Items: { Imei: string }[] }>(page, server.url, '/Device/devicesByUserId', { PageNo: 1, PageCount: 1 });
    const imei = devices.Items[0]!.Imei;
    await page.goto(`${server.url}/deviceFence?imei=${imei}`);
    // The device's fence list is there (loaded), and nothing to draw or save with.
    await page.locator('.device-fence-page .ant-list').waitFor({ timeout: 30_000 });
    await page.locator('.device-fence-page .ant-list-loading').waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.locator('[data-testid="draw-circle"], [data-testid="draw-polygon"], [data-testid="fence-form"]').count()).toBe(0);
    expect((await callApi(page, server.url, '/Geofence/addDeviceGeofence', { Imei: imei, Name: 'x', Type: 'circle', Lat: 22.5, Lon: 114, Radius: 200 })).State).toBe(403);

    await page.goto(`${server.url}/account/accounts`);
    await page.locator('[data-testid="edit-mine"]').click();
    const form = page.locator('[data-testid="account-form"]');
    await form.locator('[data-testid="account-contact"]').waitFor();
    const labels = await form.locator('.ant-form-item-label').allInnerTexts();
    expect(labels.join('|')).not.toContain('平台标题');
    expect(labels.join('|')).toContain('联系人');
    expect((await callApi(page, server.url, '/user/EditUserInfoForCurrentUser', { PageName: 'Mine now' })).State).toBe(403);
    expect(errors).toEqual([]);
  });
});
