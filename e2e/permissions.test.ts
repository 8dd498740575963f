// Permission sets in a real browser against a real server process, in Chinese and English: the
// administrator creates a set on the permission page by ticking routes of the function tree (the
// set is saved with those routes), and viewer01, whose set grants no action, sees its menu but no
// add, delete, move, import or export button on the device list. Screenshots of the permission
// page and of viewer01's device list, each opened by its address, land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { callApi, login } from './console.js';

const LANGS = ['zh-CN', 'en'] as const;
const json = (lang: string, ns: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8'));

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

/** Opens a page of the console by its address (a full load), in a language. */
async function visit(page: Page, lang: string, to: string) {
  await page.evaluate((l) => localStorage.setItem('wt.locale', l), lang);
  await page.goto(`${server.url}${to}`);
  await page.locator('.ant-menu').first().waitFor();
}

/** Ticks a node of the function tree by its key (a route's path or an action). */
async function tick(page: Page, key: string) {
  await page.locator('.ant-tree-treenode', { has: page.locator(`[data-testid="tree-${key}"]`) }).locator('.ant-tree-checkbox').click();
}

describe('permission sets in the console', () => {
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    const ctx = await newContext(browser, { locale: 'zh-CN' });
    page = await ctx.newPage();
    errors = watchErrors(page);
  });

  it('creates a set with ticked routes on the permission page', async () => {
    await login(page, server.url, 'zh-CN', 'admin', 'admin123');
    for (const lang of LANGS) {
      const t = json(lang, 'permissions');
      const key = `e2e-${lang.toLowerCase()}`;
      await visit(page, lang, '/account/role');
      const table = page.locator('[data-testid="permission-table"]');
      await table.locator('[data-testid="permission-apply-view-only"]').waitFor();
      await page.locator('[data-testid="permission-add"]').click();
      const dialog = page.locator('.ant-modal', { has: page.locator('[data-testid="permission-form"]') });
      await dialog.locator('[data-testid="permission-key"]').fill(key);
      await dialog.locator('[data-testid="permission-name"]').fill(`Desk ${lang}`);
      await tick(page, '/devices/list');
      await tick(page, 'device.add');
      // An action ticks its route; the permission action brings the account permission menu.
      await tick(page, 'permission.edit');
      await expect.poll(() => dialog.locator('.ant-tree-checkbox-checked').count()).toBeGreaterThanOrEqual(4);
      await page.waitForTimeout(300);
      await screenshot(page, `permissions-dialog-${lang}`);
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      await dialog.waitFor({ state: 'hidden' });
      await table.locator('tr', { hasText: key }).waitFor();
      await expect(table.innerText()).resolves.toContain(t.builtIn);

      const list = await callApi(page, server.url, '/user/rolePermissionList', { Search: key });
      expect(list.Items).toHaveLength(1);
      expect(list.Items[0]).toMatchObject({ Key: key, Routes: ['/devices/list', '/account/role'], Actions: ['device.add', 'permission.edit'] });

      // Opened by its address in a fresh load, as a user would.
      await visit(page, lang, '/account/role');
      await table.locator('tr', { hasText: key }).waitFor();
      await page.waitForTimeout(400);
      await screenshot(page, `permissions-${lang}`);
    }
  });

  it('applies a set to oneself: new token, routes and menu regenerated, tabs cleared', async () => {
    const route = json('en', 'route');
    await visit(page, 'en', '/account/role');
    const before = await page.evaluate(() => sessionStorage.getItem('wt.token'));
    const apply = async (key: string) => {
      await page.locator(`[data-testid="permission-apply-${key}"]`).click();
      await page.locator('.ant-popover:visible .ant-popconfirm-buttons .ant-btn-primary').click();
    };
    await apply('e2e-en');
    // The set opens the device list and this page only: the menu shrinks to their groups, the tabs start anew.
    const menu = page.locator('.ant-menu').first();
    await expect.poll(() => menu.innerText()).not.toContain(route.dashboard);
    const shrunk = await menu.innerText();
    expect(shrunk).toContain(route.devices);
    for (const k of ['monitor', 'alarm', 'setting', 'model']) expect(shrunk, k).not.toContain(route[k]);
    expect(await page.evaluate(() => sessionStorage.getItem('wt.token'))).not.toBe(before);
    await page.waitForURL((u) => u.pathname === '/account/role');
    // The tabs start anew with this page's own.
    await expect.poll(() => page.locator('.wt-tags .wt-tag').count()).toBe(1);
    await page.locator('.wt-tags .wt-tag.active[href="/account/role"]').waitFor();
    await page.locator('[data-testid="permission-apply-admin"]').waitFor();
    await screenshot(page, 'permissions-applied-en');
    // Back to every page with the default administrator set.
    await apply('admin');
    await expect.poll(() => menu.innerText()).toContain(route.dashboard);
  });

  it('shows viewer01 its menu but no button that changes devices', async () => {
    await page.evaluate(() => sessionStorage.clear());
    await login(page, server.url, 'zh-CN', 'viewer01', 'admin123');
    for (const lang of LANGS) {
      const route = json(lang, 'route');
      await visit(page, lang, '/devices/list');
      const menu = await page.locator('.ant-menu').first().innerText();
      for (const k of ['devices', 'alarm', 'account']) expect(menu, k).toContain(route[k]);
      // The rows are there, and what changes devices is not.
      const firstRow = page.locator('.devices-page .ant-table-tbody tr.ant-table-row').first();
      await firstRow.waitFor();
      for (const id of ['add-device', 'batch-menu', 'move-devices', 'create-user-devices', 'import-devices', 'export-devices', 'assign-menu']) {
        expect(await page.locator(`[data-testid="${id}"]`).count(), id).toBe(0);
      }
      expect(await page.locator('[data-testid^="cmd-86"]').count()).toBe(0);
      expect(await page.locator('[data-testid^="person-86"]').count()).toBe(0);
      // The row menu keeps the pages to look at, without bind, unbind or delete.
      await firstRow.locator('[data-testid^="more-"]').click();
      const dropdown = page.locator('.ant-dropdown:visible');
      await dropdown.waitFor();
      const items = await dropdown.innerText();
      const devices = json(lang, 'devices');
      expect(items).toContain(devices.action.history);
      for (const k of ['delete', 'bind', 'unbind']) expect(items).not.toContain(devices.action[k]);
      await page.keyboard.press('Escape');
      await dropdown.waitFor({ state: 'hidden' });
      await page.waitForTimeout(400);
      await screenshot(page, `permissions-viewer-devices-${lang}`);
    }
    // The permission page shows it the sets it may use, and nothing to edit.
    await visit(page, 'en', '/account/role');
    await page.locator('[data-testid="permission-readonly"]').waitFor();
    expect(await page.locator('[data-testid="permission-add"]').count()).toBe(0);
    expect(errors).toEqual([]);
  });
});
