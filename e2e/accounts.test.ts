// Account administration in a real browser against a real server process: the administrator
// creates a sub-account with a permission set and a generated password, resets it, and the
// sub-account is made to change it at its next login; deleting an account that holds devices is
// refused; an authorized agent (in English) takes over a self-registered end user by IMEI.
// Screenshots of /account/accounts opened by its address in a fresh tab, in Chinese and English.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { callApi, closeOverlays, freshTab, login, pickAccount } from './console.js';

const texts = (lang: string, file: string) => JSON.parse(readFileSync(path.join(root, file.replace('{lang}', lang)), 'utf8')) as Record<string, any>;
const zh = texts('zh-CN', 'web/src/i18n/locales/{lang}/accounts.json');
const en = texts('en', 'web/src/i18n/locales/{lang}/accounts.json');
const zhMessages = texts('zh-CN', 'contract/src/messages/{lang}.json');
const zhShell = texts('zh-CN', 'web/src/i18n/locales/{lang}/shell.json');
const SUB = 'e2esub01';
const END_USER = 'e2eend01';
// A watch the platform stocks in and sells to agent01 (the evidence of the agent's claim) in the test.
const END_IMEI = '865000000000950';

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

/** The row of an account in the children table. */
const rowOf = (page: Page, loginName: string) => page.locator('[data-testid="accounts-table"] tr', { has: page.locator(`[data-testid="account-row-${loginName}"]`) });

/** Reads the password the dialog shows once, and closes it. */
async function shownPassword(page: Page): Promise<string> {
  const input = page.locator('[data-testid="generated-password"]');
  await input.waitFor();
  await expect.poll(() => input.inputValue()).toMatch(/^[A-Za-z0-9]{12}$/);
  const password = await input.inputValue();
  await page.locator('[data-testid="password-done"]').click();
  await input.waitFor({ state: 'hidden' });
  return password;
}

describe('accounts console (administrator, zh-CN)', () => {
  let ctx: BrowserContext;
  let page: Page;
  let errors: string[];
  let password = '';

  beforeAll(async () => {
    ctx = await newContext(browser, { locale: 'zh-CN' });
    const first = await ctx.newPage();
    await login(first, server.url, 'zh-CN');
    ({ tab: page, errors } = await freshTab(first, server.url, '/account/accounts'));
    await first.close();
    await page.locator('[data-testid="account-row-agent01"]').waitFor({ timeout: 30_000 });
  });
  afterAll(() => ctx?.close());

  it('shows the tree and the table of the administrator’s children, opened by its address', async () => {
    await page.locator('[data-testid="account-tree"] .ant-tree-treenode', { hasText: 'agent01' }).waitFor();
    await expect.poll(() => rowOf(page, 'agent01').innerText()).toContain(zh.authorized);
    await screenshot(page, 'accounts-zh-CN');
    // Opening agent01 in the tree loads its children; selecting it shows them in the table.
    await page.locator('[data-testid="account-tree"] .ant-tree-treenode', { hasText: 'agent01' }).locator('.ant-tree-switcher').click();
    await page.locator('[data-testid="account-tree"] .ant-tree-treenode', { hasText: 'clinic01' }).waitFor();
    await page.locator('[data-testid="account-tree"] .ant-tree-node-content-wrapper', { hasText: 'agent01' }).click();
    await rowOf(page, 'clinic01').waitFor();
    await expect.poll(() => page.locator('[data-testid="accounts-parent"]').innerText()).toBe('agent01');
    expect(errors).toEqual([]);
  });

  it('creates a sub-account with a permission set and a generated password shown once', async () => {
    await closeOverlays(page);
    const sets = (await callApi<{ Items: { Name: string; BuiltIn: boolean }[] }>(page, server.url, '/user/rolePermissionList', { PageNo: 1, PageCount: 100 })).Items;
    const set = sets.find((s) => !s.BuiltIn)!;
    await page.locator('[data-testid="add-account"]').click();
    const form = page.locator('[data-testid="account-form"]');
    await form.waitFor();
    await form.locator('[data-testid="account-login"]').fill(SUB);
    await pickAccount(page, 'account-parent', 'clinic01');
    await form.locator('[data-testid="account-permission"]').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: set.Name }).click();
    await form.locator('[data-testid="account-company"]').fill('E2E 家属');
    await form.locator('[data-testid="account-contact"]').fill('王女士');
    await screenshot(page, 'accounts-create-zh-CN');
    await page.locator('.ant-modal:visible .ant-modal-footer .ant-btn-primary').click();
    password = await shownPassword(page);
    // Under clinic01, with the set.
    const table = await callApi(page, server.url, '/user/searchAccountByName', { Keyword: SUB });
    expect(table.Items[0].Ancestors.map((a: { LoginName: string }) => a.LoginName)).toEqual(['admin', 'agent01', 'clinic01']);
    const rows = await callApi(page, server.url, '/user/childrenUsers', { UserId: table.Items[0].ParentId, Keyword: SUB });
    expect(rows.Items[0]).toMatchObject({ PermissionName: set.Name, companyName: 'E2E 家属', MustChangePassword: true });
    expect(errors).toEqual([]);
  });

  it('finds the account by the search, resets its password, and the account must change it at login', async () => {
    await closeOverlays(page);
    await page.locator('[data-testid="account-tree-search"] input').fill('王女士');
    await page.locator(`[data-testid="account-found-${SUB}"]`).click();
    // The tree opens the way down to it, the table shows clinic01's children.
    await page.locator('[data-testid="account-tree"] .ant-tree-treenode-selected', { hasText: SUB }).waitFor();
    await page.locator('[data-testid="account-tree"] .ant-tree-node-content-wrapper', { hasText: 'clinic01' }).click();
    await rowOf(page, SUB).waitFor();
    await rowOf(page, SUB).locator(`[data-testid="password-${SUB}"]`).click();
    await page.locator('.ant-popover:visible .ant-popconfirm-buttons .ant-btn-primary').click();
    const reset = await shownPassword(page);
    expect(reset).not.toBe(password);
    expect((await callApi(page, server.url, '/User/Login', { LoginName: SUB, Password: password })).State).not.toBe(0);

    const sub = await newContext(browser, { locale: 'zh-CN' });
    try {
      const p = await sub.newPage();
      const subErrors = watchErrors(p);
      await p.addInitScript(() => localStorage.setItem('wt.locale', 'zh-CN'));
      await p.goto(`${server.url}/login`);
      await p.locator('input[autocomplete="username"]').fill(SUB);
      await p.locator('input[autocomplete="current-password"]').fill(reset);
      await p.locator('button[type="submit"]').click();
      await p.locator('[data-testid="forced-password"]').waitFor({ timeout: 20_000 });
      const dialog = p.locator('.ant-modal:visible', { hasText: zhShell.password.title });
      await dialog.waitFor();
      // No way around it: no close button, Escape does nothing, another address shows the same screen.
      expect(await dialog.locator('.ant-modal-close').count()).toBe(0);
      await p.keyboard.press('Escape');
      await p.goto(`${server.url}/devices/list`);
      await p.locator('[data-testid="forced-password"]').waitFor();
      await dialog.waitFor();
      expect(await p.locator('.ant-menu').count()).toBe(0);
      // The dialog's opening animation is over before the picture.
      await p.locator('.ant-modal[class*="-appear"], .ant-modal[class*="-enter"]').waitFor({ state: 'detached' });
      await screenshot(p, 'accounts-forced-password-zh-CN');
      await dialog.locator('input').nth(0).fill(reset);
      await dialog.locator('input').nth(1).fill('NewPass123');
      await dialog.locator('input').nth(2).fill('NewPass123');
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      // As every password change: the success message, then logout to the login page.
      await p.waitForURL((u) => u.pathname.startsWith('/login'), { timeout: 20_000 });
      await p.locator('input[autocomplete="username"]').fill(SUB);
      await p.locator('input[autocomplete="current-password"]').fill('NewPass123');
      await p.locator('button[type="submit"]').click();
      await p.locator('.ant-menu').first().waitFor({ timeout: 20_000 });
      expect(await p.locator('[data-testid="forced-password"]').count()).toBe(0);
      expect(subErrors).toEqual([]);
    } finally {
      await sub.close();
    }
  });

  it('refuses to delete an account while it holds devices, and says why', async () => {
    await closeOverlays(page);
    const found = (await callApi(page, server.url, '/user/searchAccountByName', { Keyword: SUB })).Items[0];
    const moved = await callApi(page, server.url, '/Device/batchMoveDeviceToAccount', { Imeis: ['865000000000049'], TargetUserId: found.UserId });
    expect(moved.State).toBe(200);
    // Moved behind the page's back: the page is loaded again, and clinic01 found by the search.
    await page.reload();
    await page.locator('[data-testid="account-tree-search"] input').fill('clinic01');
    await page.locator('[data-testid="account-found-clinic01"]').click();
    await rowOf(page, SUB).waitFor();
    await expect.poll(() => rowOf(page, SUB).innerText()).toContain('1 / 1');
    await rowOf(page, SUB).locator(`[data-testid="delete-${SUB}"]`).click();
    await page.locator('.ant-popover:visible .ant-popconfirm-buttons .ant-btn-primary').click();
    await page.locator('.ant-message-notice', { hasText: zhMessages.account.deleteHasDevices }).waitFor();
    await screenshot(page, 'accounts-delete-refused-zh-CN');
    expect((await callApi(page, server.url, '/user/searchAccountByName', { Keyword: SUB })).Items).toHaveLength(1);
    expect(errors).toEqual([]);
  });
});

describe('agent authorization (agent01, en)', () => {
  let ctx: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    // A self-registered end user with a device the platform sold to the agent (the administrator moves it there).
    await fetch(`${server.url}/api/User/Register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ LoginName: END_USER, Password: 'abc123', ConfirmPassword: 'abc123', Email: 'e2eend01@example.com' }),
    });
    ctx = await newContext(browser, { locale: 'en' });
    const first = await ctx.newPage();
    await login(first, server.url, 'en');
    const endUser = (await callApi(first, server.url, '/user/searchAccountByName', { Keyword: END_USER })).Items[0];
    const agent = (await callApi(first, server.url, '/user/searchAccountByName', { Keyword: 'agent01' })).Items[0];
    const inv = (call: string, body: unknown) => callApi(first, server.url, `/Inventory/${call}`, body);
    const model = (await inv('ModelInsert', { Name: 'E2E-AGENT' })).Id;
    const store = (await inv('StoreList', { PageCount: 100 })).Items[0].Id;
    expect((await inv('BatchInsert', { ModelId: model, StoreId: store, StockInDate: '2026-11-01', Imeis: [END_IMEI] })).State).toBe(200);
    expect((await inv('SalesInsert', { CustomerId: agent.UserId, ModelId: model, Imeis: [END_IMEI] })).State).toBe(200);
    expect((await callApi(first, server.url, '/Device/batchMoveDeviceToAccount', { Imeis: [END_IMEI], TargetUserId: endUser.UserId })).State).toBe(200);
    await first.evaluate(() => sessionStorage.clear());
    await login(first, server.url, 'en', 'agent01');
    ({ tab: page, errors } = await freshTab(first, server.url, '/account/accounts'));
    await first.close();
    await page.locator('[data-testid="account-row-clinic01"]').waitFor({ timeout: 30_000 });
  });
  afterAll(() => ctx?.close());

  it('takes over a self-registered end user by IMEI, and lists what became of each IMEI', async () => {
    await screenshot(page, 'accounts-en');
    await page.locator('[data-testid="agent-import"]').click();
    const dialog = page.locator('.ant-modal:visible', { hasText: en.agent.title });
    await dialog.waitFor();
    await dialog.locator('[data-testid="agent-imeis"]').fill(`${END_IMEI}\n865000000000001\n999000000000000`);
    await dialog.locator('[data-testid="agent-submit"]').click();
    const result = dialog.locator('[data-testid="agent-result"]');
    await result.waitFor();
    await expect.poll(() => result.innerText()).toContain(en.agent.outcomes.moved);
    const text = await result.innerText();
    expect(text).toContain(en.agent.outcomes.inYourTree);
    expect(text).toContain(en.agent.outcomes.notSoldToYou);
    expect(text).toContain(END_USER);
    await screenshot(page, 'accounts-agent-en');
    await dialog.locator('.ant-modal-footer .ant-btn').first().click();
    // The end user is now the agent's child, in the table and in the tree.
    await rowOf(page, END_USER).waitFor();
    await expect.poll(() => rowOf(page, END_USER).innerText()).toContain('1 / 1');
    await page.locator('[data-testid="account-tree"] .ant-tree-treenode', { hasText: END_USER }).waitFor();
    expect(errors).toEqual([]);
  });
});
