// Platform settings in a real browser against a real server process: the agent saves its platform
// info (title, tab title, login link key) through the form; the save appears in the operation log,
// named in the reader's language; its sub-account sees the agent's title in the sidebar and the tab,
// and the login page opened from the agent's link shows it. The three settings pages are opened by
// their address in a fresh tab in Chinese and English and photographed (e2e/screenshots/).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { CJK, callApi, cjkTexts, freshTab, login, open } from './console.js';

type Texts = {
  platform: { saved: string; title: string; menus: string };
  functions: Record<string, string>;
  retention: { title: string; days: string };
  calls: Record<string, string>;
  oplog: { success: string };
  logs: { tab: string; actions: Record<string, string> };
};
const routeTexts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'route.json'), 'utf8')) as Record<string, string>;
const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'settings.json'), 'utf8')) as Texts;

const TITLE = '东方关爱';
const PAGE_TITLE = '东方关爱平台';
const KEY = 'east-care';

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

/** Fonts loaded (the CJK fallback font included) and two frames drawn since. */
async function settled(page: Page) {
  await page.evaluate(async () => {
    await document.fonts.load('14px sans-serif', '中文');
    await document.fonts.ready;
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  });
}

/**
 * Opens `to` by its address in a new tab of the same session, in `lang`: its tag is active under the
 * page's title in that language and `shows` are on screen (an English page shows nothing Chinese);
 * photographs it and closes it.
 */
async function shootFresh(from: Page, lang: string, to: string, ready: string, name: string, title: string, shows: string[]) {
  const { tab, errors } = await freshTab(from, server.url, to, lang);
  await tab.locator(ready).first().waitFor({ timeout: 30_000 });
  await tab.locator('.ant-spin-spinning').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
  expect((await tab.locator(`.wt-tags .wt-tag.active[href="${to}"]`).innerText()).trim()).toBe(title);
  for (const text of shows) await tab.locator('.wt-main').getByText(text).first().waitFor({ timeout: 15_000 });
  await settled(tab);
  await screenshot(tab, name);
  const foreign = lang === 'en' ? await cjkTexts(tab, '.wt-main') : [];
  await tab.close();
  expect(errors).toEqual([]);
  expect(foreign).toEqual([]);
}

describe('platform settings and the operation log', () => {
  let ctx: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    ctx = await newContext(browser, { locale: 'zh-CN' });
    page = await ctx.newPage();
    errors = watchErrors(page);
    await login(page, server.url, 'zh-CN', 'agent01');
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('saves the agent’s platform info through the form, and the save is in the operation log', { timeout: 120_000 }, async () => {
    const zh = texts('zh-CN');
    await open(page, '/setting/platform');
    const form = page.locator('[data-testid="platform-form"]');
    await form.waitFor();
    await page.locator('[data-testid="platform-title"]').fill(TITLE);
    await form.locator('input#PageTitle').fill(PAGE_TITLE);
    await page.locator('[data-testid="platform-key"]').fill(KEY);
    // Device roles are hidden from the agent's customers.
    await page.locator('[data-testid="platform-menus"] .ant-tree-treenode', { hasText: routeTexts('zh-CN').deviceRoles! }).locator('.ant-tree-checkbox').click();
    await page.locator('[data-testid="platform-save"]').click();
    await page.locator('.ant-message-success', { hasText: zh.platform.saved }).waitFor({ timeout: 15_000 });
    // The agent itself now shows its brand.
    await page.locator('[data-testid="sidebar-title"]', { hasText: TITLE }).waitFor({ timeout: 15_000 });
    await page.waitForFunction((t) => document.title.endsWith(t), PAGE_TITLE);

    // The log is written in batches within a second of the call.
    await expect.poll(async () => (await callApi(page, server.url, '/OperationLog/List', { Call: '/Platform/Save' })).Total, { timeout: 10_000 }).toBe(1);
    await open(page, '/setting/userlogs');
    const log = page.locator('[data-testid="operation-log"]');
    const row = log.locator('tbody tr.ant-table-row', { hasText: zh.calls['/Platform/Save']! }).first();
    await row.waitFor({ timeout: 15_000 });
    await expect(row.innerText()).resolves.toContain('agent01');
    await expect(row.innerText()).resolves.toContain(zh.oplog.success);
    const api = await callApi(page, server.url, '/OperationLog/List', { Call: '/Platform/Save' });
    expect(api.Items[0]).toMatchObject({ LoginName: 'agent01', State: 0, Object: expect.stringContaining(KEY) });
    const info = await callApi(page, server.url, '/Platform/Info', {});
    expect(info.Own.HiddenMenus).toEqual(['/devices/roles']);
    expect(errors).toEqual([]);
  });

  it('turns a function switch that takes effect in the console without a reload', { timeout: 60_000 }, async () => {
    await open(page, '/setting/setingfunction');
    const row = page.locator('[data-testid="switch-IsShowMonitorFence"] .ant-switch');
    await row.waitFor();
    const before = await row.getAttribute('aria-checked');
    await row.click();
    await page.waitForFunction(([sel, b]) => document.querySelector(sel!)?.getAttribute('aria-checked') !== b, ['[data-testid="switch-IsShowMonitorFence"] .ant-switch', before] as const);
    // The monitor's toolbar shows the new state at once (account fences: its second switch).
    await open(page, '/');
    const fences = page.locator('.wt-map-toolbar .ant-switch').nth(1);
    await fences.waitFor({ timeout: 20_000 });
    await expect(fences.getAttribute('aria-checked')).resolves.toBe(before === 'true' ? 'false' : 'true');
    // A service is granted from above: on one's own account it cannot be turned.
    await open(page, '/setting/setingfunction');
    await expect(page.locator('[data-testid="switch-isWeatherConfig"] .ant-switch').isDisabled()).resolves.toBe(true);
  });

  it('shows the retention in force for the agent, which only the root account changes', { timeout: 60_000 }, async () => {
    await page.goto(`${server.url}/setting/platform`);
    const effective = page.locator('[data-testid="retention-effective"]');
    await effective.waitFor({ timeout: 30_000 });
    expect(await effective.innerText()).toMatch(/180\s*天[\s\S]*365\s*天[\s\S]*365\s*天/);
    await page.locator('[data-testid="retention-form"]').waitFor();
    expect(await page.locator('[data-testid="retention-form"] input').first().isDisabled()).toBe(true);
    expect(await page.locator('[data-testid="retention-save"]').count()).toBe(0);
    await page.locator('[data-testid="retention-section"]').scrollIntoViewIfNeeded();
    await settled(page);
    await screenshot(page, 'setting-retention-zh-CN');
  });

  it('shows the pages by their address in a fresh tab, in Chinese and English', { timeout: 180_000 }, async () => {
    for (const lang of ['zh-CN', 'en']) {
      const s = texts(lang);
      const r = routeTexts(lang);
      // The platform info the agent saved and the retention in force (180 days of positions).
      await shootFresh(page, lang, '/setting/platform', '[data-testid="retention-effective"]', `setting-platform-${lang}`, r.platform!, [
        s.platform.title,
        s.platform.menus,
        s.retention.title,
        s.retention.days.replace('{{n}}', '180'),
      ]);
      await shootFresh(page, lang, '/setting/setingfunction', '[data-testid="switch-switchAnimation"] .ant-switch', `setting-functions-${lang}`, r.settingFunction!, [
        s.functions.switchAnimation!,
        s.functions.IsShowMonitorFence!,
      ]);
      // The save of the first test, named in the page's language.
      await shootFresh(page, lang, '/setting/userlogs', '[data-testid="operation-log"] tbody tr.ant-table-row', `setting-userlogs-${lang}`, r.userLogs!, [
        s.calls['/Platform/Save']!,
        s.oplog.success,
      ]);
    }
  });

  it('shows the operation in English with its English name', { timeout: 60_000 }, async () => {
    const en = texts('en');
    await page.evaluate(() => localStorage.setItem('wt.locale', 'en'));
    await page.reload();
    await open(page, '/setting/userlogs');
    const row = page.locator('[data-testid="operation-log"] tbody tr.ant-table-row', { hasText: en.calls['/Platform/Save']! }).first();
    await row.waitFor({ timeout: 15_000 });
    await expect(row.innerText()).resolves.toContain(en.oplog.success);
    await settled(page);
    await screenshot(page, 'setting-oplog-row-en');
    // The login log, the other tab: the agent's own login.
    await page.locator('.ant-tabs-tab', { hasText: en.logs.tab }).click();
    await page.locator('[data-testid="login-log"] tbody tr.ant-table-row', { hasText: en.logs.actions['1001']! }).first().waitFor({ timeout: 15_000 });
    await settled(page);
    await screenshot(page, 'setting-loginlog-en');
  });

  it('gives the agent’s sub-account the agent’s title, and the login page of the agent’s link its brand', { timeout: 90_000 }, async () => {
    // The same tab, logged out, then the sub-account.
    await page.evaluate(() => sessionStorage.clear());
    await page.goto(`${server.url}/login?platform=${KEY}`);
    await page.locator('[data-testid="login-title"]', { hasText: TITLE }).waitFor({ timeout: 15_000 });
    await page.waitForFunction((t) => document.title.endsWith(t), PAGE_TITLE);
    await settled(page);
    await screenshot(page, 'setting-login-brand-en');
    await login(page, server.url, 'en', 'clinic01');
    await page.locator('[data-testid="sidebar-title"]', { hasText: TITLE }).waitFor({ timeout: 15_000 });
    await page.waitForFunction((t) => document.title.endsWith(t), PAGE_TITLE);
    await settled(page);
    await screenshot(page, 'setting-subaccount-brand-en');
    // The menu the agent hides is not in its customer's sidebar; the rest of the group is.
    const en = routeTexts('en');
    await page.locator('.ant-menu-submenu-title', { hasText: en.devices! }).click();
    await page.locator('.ant-menu-item', { hasText: en.deviceList! }).waitFor();
    expect(await page.locator('.ant-menu-item', { hasText: en.deviceRoles! }).count()).toBe(0);
    // An English page with the brand's Chinese title: the title is user data, nothing else is Chinese.
    const foreign = (await cjkTexts(page, '.ant-layout-sider')).filter((t) => CJK.test(t.text));
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
  });
});
