// The console shell in a real browser against a real server process: login, menus by role, tags,
// languages, password change, automatic login. Screenshots of the login page and the shell in the
// three languages land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { cjkTexts, login, visibleTexts } from './console.js';

const texts = (lang: string, ns: string) =>
  JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, any>;
const route = { 'zh-CN': texts('zh-CN', 'route'), 'zh-TW': texts('zh-TW', 'route'), en: texts('en', 'route') };
const shell = texts('zh-CN', 'shell');

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


const menuText = (page: Page) => page.locator('.ant-menu').first().innerText();

/**
 * In-app navigation (a full reload would start a new set of tags), waiting until the page's tag is
 * the active one: pages load lazily, and a second navigation during a load would replace the first.
 */
async function nav(page: Page, to: string, title: string) {
  await page.evaluate((p) => {
    window.history.pushState({}, '', p);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, to);
  await page.locator('.wt-tag.active', { hasText: title }).waitFor();
}

describe('console shell', () => {
  it('shows the login page in the three languages', async () => {
    // One page: the language is switched before each visit (the console reads it as it starts).
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    const squeeze = (s: string) => s.replace(/\s+/g, '');
    for (const lang of ['zh-CN', 'zh-TW', 'en'] as const) {
      const l = texts(lang, 'login');
      await page.goto(`${server.url}/login`);
      await page.evaluate((x) => localStorage.setItem('wt.locale', x), lang);
      await page.reload();
      await page.locator(`html[lang="${lang}"]`).waitFor({ state: 'attached' });
      const submit = page.locator('button[type="submit"]');
      await submit.waitFor();
      // The form in the page's language: its fields (named and hinted), the button, the links.
      const account = page.locator('input[autocomplete="username"]');
      const password = page.locator('input[autocomplete="current-password"]');
      expect(await account.getAttribute('placeholder')).toBe(l.placeholders.account);
      expect(await account.getAttribute('aria-label')).toBe(l.fields.account);
      expect(await password.getAttribute('placeholder')).toBe(l.placeholders.password);
      expect(squeeze(await submit.innerText())).toBe(squeeze(l.actions.login));
      await page.getByText(l.actions.toRegister, { exact: true }).waitFor();
      await page.getByText(l.actions.toForgot, { exact: true }).waitFor();
      // The language menu names the language on screen, and nothing of another language shows.
      expect(await page.locator('button[aria-label]').filter({ has: page.locator('.anticon-translation') }).innerText()).toContain(texts(lang, 'common').languages[lang]);
      if (lang === 'en') expect(await cjkTexts(page)).toEqual([]);
      else expect((await visibleTexts(page)).map((t) => t.text)).toContain(l.actions.toRegister);
      await screenshot(page, `login-${lang}`);
    }
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('refuses a bad login with the §8 message and keeps the user on the login page', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/login`);
    await page.locator('input[autocomplete="username"]').fill('admin');
    await page.locator('input[autocomplete="current-password"]').fill('wrong12');
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => page.locator('.ant-message, .ant-alert, .ant-notification').innerText().catch(() => '')).toContain('账号或密码错误');
    expect(new URL(page.url()).pathname).toBe('/login');
    await ctx.close();
  });

  it('gives the administrator every area and an editor-healthdata user no health or admin pages', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await login(page, server.url, 'zh-CN', 'admin', 'admin123');
    const adminMenu = await menuText(page);
    // The health group has one visible child, so the menu shows that child (single-visible-child rule).
    for (const key of ['monitor', 'dashboard', 'devices', 'alarm', 'healthData', 'model', 'inventory', 'sceneApplications', 'push', 'setting']) {
      expect(adminMenu, key).toContain(route['zh-CN'][key]);
    }
    await screenshot(page, 'shell-admin-zh-CN');
    await ctx.close();

    const ctx2 = await newContext(browser);
    const page2 = await ctx2.newPage();
    await login(page2, server.url, 'zh-CN', 'viewer01', 'admin123');
    const viewerMenu = await menuText(page2);
    expect(viewerMenu).toContain(route['zh-CN'].devices);
    expect(viewerMenu).toContain(route['zh-CN'].alarm);
    for (const key of ['healthData', 'model', 'inventory', 'sceneApplications', 'push']) expect(viewerMenu, key).not.toContain(route['zh-CN'][key]);
    // A page outside the permitted routes is not reachable by typing its address either.
    await page2.goto(`${server.url}/health/data`);
    await page2.waitForURL((u) => u.pathname === '/404');
    await screenshot(page2, 'shell-editor-healthdata-zh-CN');
    await ctx2.close();
    expect(errors).toEqual([]);
  });

  it('opens and closes tags: close others and close all keep the affix tag', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await login(page, server.url, 'zh-CN', 'admin', 'admin123');
    const z = route['zh-CN'];
    for (const [p, title] of [['/devices/list', z.deviceList], ['/alarm/record', z.alarmRecord], ['/dashboard', z.dashboard], ['/setting/platform', z.platform]]) {
      await nav(page, p!, title!);
    }
    const tags = () => page.locator('.wt-tags .wt-tag').allInnerTexts();
    await expect.poll(async () => (await tags()).length).toBe(5);
    // The affix tag (Monitor) has no close button.
    expect(await page.locator('.wt-tag', { hasText: route['zh-CN'].monitor }).locator('.wt-tag-close').count()).toBe(0);

    await page.locator('.wt-tag', { hasText: route['zh-CN'].alarmRecord }).click({ button: 'right' });
    await page.locator('.wt-contextmenu li', { hasText: shell.tags.closeOthers }).click();
    await expect.poll(async () => (await tags()).map((t) => t.trim())).toEqual([route['zh-CN'].monitor, route['zh-CN'].alarmRecord]);
    expect(new URL(page.url()).pathname).toBe('/alarm/record');

    await page.locator('.wt-tag', { hasText: route['zh-CN'].alarmRecord }).click({ button: 'right' });
    await page.locator('.wt-contextmenu li', { hasText: shell.tags.closeAll }).click();
    await expect.poll(async () => (await tags()).map((t) => t.trim())).toEqual([route['zh-CN'].monitor]);
    await page.waitForURL((u) => u.pathname === '/');

    // Closing the active tag moves to the last remaining one.
    await nav(page, '/devices/list', z.deviceList);
    await nav(page, '/alarm/record', z.alarmRecord);
    await page.locator('.wt-tag.active .wt-tag-close').click();
    await page.waitForURL((u) => u.pathname === '/devices/list');
    await ctx.close();
  });

  it('switches the language to English and traditional Chinese, and remembers it', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await login(page, server.url, 'zh-CN', 'admin', 'admin123');
    let current = 'zh-CN';
    for (const lang of ['en', 'zh-TW'] as const) {
      await page.locator(`.wt-navbar button[aria-label]`).filter({ has: page.locator('.anticon-translation') }).click();
      // The menu names the languages in the language on screen.
      const label = texts(current, 'common').languages[lang];
      current = lang;
      await page.locator('.ant-dropdown-menu-item', { hasText: label }).click();
      await expect.poll(() => menuText(page)).toContain(route[lang].devices);
      await screenshot(page, `shell-admin-${lang}`);
      if (lang === 'en') {
        // Pages of texts the server stores (command and alarm type names) show no Chinese in English,
        // outside what people named (the user, the platform): the catalogue's names are rendered by key.
        await nav(page, '/model/command', route.en.modelCommand);
        await page.locator('.ant-table-row', { hasText: 'UPLOAD' }).waitFor();
        expect(await cjkTexts(page)).toEqual([]);
        await nav(page, '/alarm/rule', route.en.alarmRule);
        await page.locator('.ant-table-row', { hasText: 'Entered account fence' }).waitFor();
        expect(await cjkTexts(page)).toEqual([]);
        // The walk sees the page (not an empty list), and the user's name only as user data.
        const seen = (await visibleTexts(page)).map((t) => t.text);
        expect(seen).toContain('Entered account fence');
        expect(await page.locator('[data-user-data]', { hasText: /\p{Script=Han}/u }).count()).toBeGreaterThan(0);
      }
    }
    await page.reload();
    await page.locator('.ant-menu').first().waitFor();
    expect(await menuText(page)).toContain(route['zh-TW'].devices);
    await ctx.close();
  });

  it('logs in through the automatic login route without leaving the password in the address bar', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/login/operator01/admin123/en`);
    await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
    await page.locator('.ant-menu').first().waitFor();
    expect(page.url()).not.toContain('admin123');
    expect(await menuText(page)).toContain(route.en.devices);
    const stored = await page.evaluate(() => JSON.stringify({ ...sessionStorage }) + JSON.stringify({ ...localStorage }));
    expect(stored).not.toContain('admin123');
    await ctx.close();
  });

  it('shows progress from a menu click until the page is there, leaves the dashboard without errors, and fits the monitor on a phone', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    // Logged errors too: a chart library reports what it catches on the console.
    page.on('console', (m) => {
      if (m.type() === 'error' || /TypeError/.test(m.text())) errors.push(m.text());
    });
    // The dashboard's module is held back until the test lets it through, so the page is still on
    // its way when the screen is looked at (prefetching asks for it too, and waits with it).
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/DashboardPage-[^/]*\.js$/, async (r) => {
      await held;
      await r.continue();
    });
    await login(page, server.url, 'zh-CN', 'admin', 'admin123');
    const z = route['zh-CN'];

    await page.locator('.ant-menu-item', { hasText: z.dashboard }).click();
    await page.locator('[data-testid="nav-progress"][data-state="loading"]').waitFor();
    await page.locator('.ant-menu-item-selected', { hasText: z.dashboard }).waitFor();
    expect(await page.locator('.wt-tag', { hasText: z.dashboard }).count()).toBe(0);
    await screenshot(page, 'navigation-progress-zh-CN');
    release();
    await page.locator('[data-testid="dashboard"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="nav-progress"]').waitFor({ state: 'detached' });

    // Leaving the dashboard hides it (kept alive); closing its tag unmounts it.
    await nav(page, '/devices/list', z.deviceList);
    await nav(page, '/dashboard', z.dashboard);
    await nav(page, '/', z.monitor);
    await page.locator('.wt-tag', { hasText: z.dashboard }).locator('.wt-tag-close').click();
    await expect.poll(() => page.locator('.wt-tag', { hasText: z.dashboard }).count()).toBe(0);

    // The monitor: the legend at 1440 px, then the map over most of a phone's screen, list below.
    await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    const legend = page.locator('[data-testid="map-legend"]');
    await legend.locator('[data-testid="legend-sos"]').waitFor();
    await expect.poll(() => legend.locator('[data-testid^="legend-role-"]').count()).toBeGreaterThan(0);
    await screenshot(page, 'monitor-legend-zh-CN');
    for (const lang of ['zh-CN', 'en'] as const) {
      await page.evaluate((l) => localStorage.setItem('wt.locale', l), lang);
      await page.setViewportSize({ width: 390, height: 844 });
      await page.reload();
      await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
      const map = (await page.locator('.wt-monitor-map').boundingBox())!;
      const panel = (await page.locator('.wt-monitor-panel').boundingBox())!;
      expect(map.width).toBeGreaterThan(350);
      expect(map.height).toBeGreaterThan(844 * 0.6);
      expect(panel.y).toBeGreaterThanOrEqual(map.y + map.height);
      await screenshot(page, `monitor-390-${lang}`);
      await page.setViewportSize({ width: 1440, height: 900 });
    }
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('changes the password, then logs out, and the new password works', async () => {
    const ctx = await newContext(browser);
    const page = await ctx.newPage();
    await login(page, server.url, 'zh-CN', 'clinic01', 'admin123');
    await page.locator('.wt-nav-user').click();
    await page.locator('.ant-dropdown-menu-item', { hasText: shell.user.changePassword }).click();
    const dialog = page.locator('.ant-modal');
    await dialog.locator('#OldPass').fill('admin123');
    await dialog.locator('#NewPass').fill('weak');
    await dialog.locator('#RePass').fill('weak');
    await dialog.locator('.ant-btn-primary').click();
    await expect.poll(() => dialog.locator('.ant-form-item-explain-error').count()).toBeGreaterThan(0);
    await dialog.locator('#NewPass').fill('Clinic2026');
    await dialog.locator('#RePass').fill('Clinic2026');
    await dialog.locator('.ant-btn-primary').click();
    await page.waitForURL((u) => u.pathname.startsWith('/login'), { timeout: 15_000 });
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await login(page, server.url, 'zh-CN', 'clinic01', 'Clinic2026');
    expect(new URL(page.url()).pathname).toBe('/');
    await ctx.close();
  });
});
