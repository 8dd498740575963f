// Uplink integrations in a real browser against a real server process: create one in the console,
// read its token from the dialog (shown once), POST a position of a demo watch with it, rotate the
// token (the old one is refused), disable and delete it. Screenshots of the page and of the token
// dialog in Chinese and English land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  newContext,
  root,
  screenshot,
  startServer,
  watchErrors,
  type ServerProcess,
} from './harness.js';
import { callApi, closeOverlays, login, open } from './console.js';

const texts = (lang: string) =>
  JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'integrations.json'), 'utf8')) as {
    add: string;
    never: string;
    tokenDialog: { once: string };
  };
const IMEI = '865000000000001';

let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const post = (name: string, token: string, lat = 22.5431) =>
  fetch(`${server.url}/api/ingest/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ imei: IMEI, lat, lon: 114.0579 }),
  });

/** Removes an integration an earlier attempt left behind, so a retry starts from the same state. */
async function forget(page: Page, name: string) {
  const list = await callApi(page, server.url, '/Integration/List', { Name: name });
  const ids = (list.Items as { IntegrationId: number; Name: string }[])
    .filter((i) => i.Name === name)
    .map((i) => i.IntegrationId);
  if (ids.length) await callApi(page, server.url, '/Integration/Delete', { IntegrationIds: ids });
}

/** Confirms the pop-up question a row action opened. */
async function confirmPopup(page: Page) {
  await page.locator('.ant-popover:visible .ant-popconfirm-buttons .ant-btn-primary').click();
}

/** The token the dialog shows, once it is open. */
async function tokenFromDialog(page: Page) {
  const dialog = page.locator('[data-testid="token-dialog"]');
  await dialog.waitFor({ timeout: 15_000 });
  const token = await dialog.locator('[data-testid="integration-token"]').inputValue();
  const url = await dialog.locator('[data-testid="integration-url"]').inputValue();
  const example = await dialog.locator('[data-testid="integration-example"]').innerText();
  return { token, url, example };
}

describe('integrations console', () => {
  let page: Page;
  let errors: string[];
  const zh = texts('zh-CN');

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

  it('creates an integration, shows its token once, and the token uplinks a position', async () => {
    const name = 'e2e-chirpstack';
    await forget(page, name);
    await open(page, '/devices/integrations');
    await page.locator('[data-testid="integration-table"]').waitFor();
    await page.locator('[data-testid="add-integration"]').click();
    const dialog = page.locator('.ant-modal', { hasText: zh.add });
    // The rules are checked before anything is sent.
    await dialog.locator('[data-testid="integration-name"]').fill('Bad Name');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await dialog.locator('.ant-form-item-explain-error').first().waitFor();
    await dialog.locator('[data-testid="integration-name"]').fill(name);
    // The owner defaults to the signed-in account.
    await expect.poll(() => dialog.locator('[data-testid="account-select"]').innerText()).toContain('admin');
    // Changing the name takes its refusal away.
    await dialog.locator('.ant-form-item-explain-error').waitFor({ state: 'detached' });
    await page.waitForTimeout(300);
    await screenshot(page, 'integrations-create-zh-CN');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();

    const { token, url, example } = await tokenFromDialog(page);
    expect(url).toBe(`${server.url}/api/ingest/${name}`);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(example).toContain(`Authorization: Bearer ${token}`);
    expect(example).toContain(url);
    await page.waitForTimeout(400);
    await screenshot(page, 'integrations-token-zh-CN');
    // The copy button puts the token on the clipboard.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.locator('[data-testid="integration-token-copy"]').click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    const r = await post(name, token);
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ State: 200, Stored: 1, Unknown: [] });

    await page.locator('[data-testid="token-done"]').click();
    await page.locator('[data-testid="token-dialog"]').waitFor({ state: 'hidden' });
    const row = page.locator('[data-testid="integration-table"] tr', {
      has: page.locator(`[data-testid="integration-${name}"]`),
    });
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain('admin');
    // Closing the dialog refreshes the list, which now shows the uplink as the last use.
    await expect.poll(() => row.innerText()).not.toContain(zh.never);
    // The list never shows the token again.
    await expect(page.locator('body').innerText()).resolves.not.toContain(token);
    await page.waitForTimeout(400);
    await screenshot(page, 'integrations-zh-CN');
  });

  it('rotates the token (the old one is refused), disables and deletes the integration', async () => {
    const name = 'e2e-rotate';
    await forget(page, name);
    const created = await callApi(page, server.url, '/Integration/Save', { Name: name });
    const old = created.Token as string;
    expect((await post(name, old)).status).toBe(200);

    await open(page, '/devices/integrations');
    // A new search shows the row whatever else the list holds.
    await page.locator('.search-form input').first().fill(name);
    await page.locator('.search-form button[type="submit"]').click();
    const row = page.locator('[data-testid="integration-table"] tr', {
      has: page.locator(`[data-testid="integration-${name}"]`),
    });
    await row.waitFor({ timeout: 15_000 });

    await row.locator(`[data-testid="rotate-${name}"]`).click();
    await confirmPopup(page);
    const { token } = await tokenFromDialog(page);
    expect(token).not.toBe(old);
    await page.locator('[data-testid="token-done"]').click();
    await page.locator('[data-testid="token-dialog"]').waitFor({ state: 'hidden' });
    expect((await post(name, old)).status).toBe(401);
    expect((await post(name, token, 22.55)).status).toBe(200);

    await row.locator(`[data-testid="enabled-${name}"]`).click();
    await expect
      .poll(() => row.locator(`[data-testid="enabled-${name}"]`).getAttribute('aria-checked'))
      .toBe('false');
    await expect.poll(async () => (await post(name, token)).status).toBe(401);

    await row.locator(`[data-testid="delete-${name}"]`).click();
    await confirmPopup(page);
    await row.waitFor({ state: 'detached', timeout: 15_000 });
    const list = await callApi(page, server.url, '/Integration/List', { Name: name });
    expect(list.Total).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('integrations console in English', () => {
  it('renders the page and the token dialog', async () => {
    const ctx = await newContext(browser, { locale: 'en' });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const en = texts('en');
    try {
      await login(page, server.url, 'en');
      const name = 'e2e-partner-en';
      await forget(page, name);
      await callApi(page, server.url, '/Integration/Save', { Name: name });
      await open(page, '/devices/integrations');
      const row = page.locator('[data-testid="integration-table"] tr', {
        has: page.locator(`[data-testid="integration-${name}"]`),
      });
      await row.waitFor({ timeout: 15_000 });
      await expect(page.locator('body').innerText()).resolves.toContain(en.add);
      await page.waitForTimeout(400);
      await screenshot(page, 'integrations-en');

      await row.locator(`[data-testid="rotate-${name}"]`).click();
      await confirmPopup(page);
      const { token, url } = await tokenFromDialog(page);
      expect(url).toBe(`${server.url}/api/ingest/${name}`);
      await expect(page.locator('[data-testid="token-dialog"]').innerText()).resolves.toContain(
        en.tokenDialog.once,
      );
      await page.waitForTimeout(400);
      await screenshot(page, 'integrations-token-en');
      expect((await post(name, token)).status).toBe(200);
      expect(errors).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
