// Steps shared by the console's browser tests.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, newContext, root, startServer, watchErrors, type ServerProcess } from './harness.js';

/** Logs in through the login form (the demo administrator unless told otherwise), in a console language. */
export async function login(page: Page, url: string, lang = 'zh-CN', name = 'admin', password = 'admin123') {
  // Only a first visit gets the language: a later switch in the console is remembered across reloads.
  await page.addInitScript((l) => {
    if (!localStorage.getItem('wt.locale')) localStorage.setItem('wt.locale', l);
  }, lang);
  await page.goto(`${url}/login`);
  await page.locator('input[autocomplete="username"]').fill(name);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
  await page.locator('.ant-menu').first().waitFor();
}

export interface ConsoleSession {
  server: ServerProcess;
  browser: Browser;
  ctx: BrowserContext;
  page: Page;
  errors: string[];
}

/**
 * One logged-in page (the demo administrator, Chinese first) against a server process, for a test
 * file: started before its tests, stopped after them. Hooks the file registers after this one run
 * after the login, and their own stops before the server's.
 */
export function consoleSession(env: Record<string, string> = {}, opts: { timezoneId?: string } = {}): ConsoleSession {
  const s = {} as ConsoleSession;
  beforeAll(async () => {
    s.server = await startServer(env);
    s.browser = await launchBrowser();
    s.ctx = await newContext(s.browser, { locale: 'zh-CN', timezoneId: opts.timezoneId });
    s.page = await s.ctx.newPage();
    s.errors = watchErrors(s.page);
    await login(s.page, s.server.url);
  });
  afterAll(async () => {
    await s.ctx?.close();
    await s.browser?.close();
    await s.server?.stop();
  });
  return s;
}

/**
 * Opens `to` by its address in a new tab of the logged-in page's browser context, as a link opened in
 * a new tab is: the tab starts with the page's session (sessionStorage is per tab) and, when `lang` is
 * given, in that console language. Errors are watched from the first request.
 */
export async function freshTab(from: Page, url: string, to: string, lang?: string): Promise<{ tab: Page; errors: string[] }> {
  const session = await from.evaluate(() => Object.fromEntries(Object.entries(sessionStorage)));
  const tab = await from.context().newPage();
  const errors = watchErrors(tab);
  await tab.addInitScript(
    ([s, l]) => {
      for (const [k, v] of Object.entries(s)) if (sessionStorage.getItem(k) === null) sessionStorage.setItem(k, v);
      if (l) localStorage.setItem('wt.locale', l);
    },
    [session, lang ?? ''] as const,
  );
  await tab.goto(`${url}${to}`);
  return { tab, errors };
}

/**
 * Client-side navigation, so kept-alive pages stay as they are. Waits until the shell shows the page
 * (its tag is the active one); pages load lazily, and a navigation issued while another page was
 * still loading can be superseded, so it is issued once more if the page has not come.
 */
export async function open(page: Page, to: string) {
  const go = () =>
    page.evaluate((p) => {
      window.history.pushState({}, '', p);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, to);
  const active = page.locator(`.wt-tags .wt-tag.active[href="${to}"]`);
  await go();
  try {
    await active.waitFor({ timeout: 15_000 });
  } catch {
    await go();
    await active.waitFor({ timeout: 30_000 });
  }
}

/**
 * Clears whatever dialog or drop-down an earlier step left open (a failed attempt, before its retry),
 * so the next step starts from the page itself: the page is loaded again (the session survives).
 */
export async function closeOverlays(page: Page) {
  const overlays = page.locator('.ant-modal-wrap:visible, .ant-select-dropdown:visible, .ant-popover:visible');
  if ((await overlays.count()) === 0) return;
  await page.reload();
  await page.locator('.ant-menu').first().waitFor({ timeout: 30_000 });
}

/** Calls the API with the session token the console holds. */
export async function callApi<T = any>(page: Page, url: string, path: string, body: unknown): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem('wt.token'));
  const res = await fetch(`${url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return (await res.json()) as T;
}

/** Chinese, Japanese and Korean characters and full-width punctuation: none belongs on an English page. */
export const CJK = /[\u2e80-\u2fdf\u3000-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

export interface VisibleText {
  text: string;
  /** Where it is: the tag and classes of its element, to find it in a failure message. */
  where: string;
}

/**
 * The texts a user sees on the page, except user data: for the checks that a page in one language
 * shows no text of another (untranslated keys, server texts stored in one language).
 *
 * Counted: text of visible elements (not hidden, not `display: none`, not transparent; kept-alive
 * pages in the background and closed drop-downs are hidden) and the placeholders of visible fields.
 * Not counted: anything inside an element marked `data-user-data` (the console marks what people
 * typed or named: device, account and platform names, remarks; `USER_DATA` and `userDataCell` in
 * web/src/i18n/texts.ts), the values typed in fields, and what is drawn on a canvas (the map).
 *
 *   await open(page, '/model/command');
 *   expect(await cjkTexts(page)).toEqual([]);          // an English page
 *   const all = await visibleTexts(page);              // e.g. zh-TW: test each text for simplified characters
 *
 * `root` narrows the walk to part of the page (a CSS selector, e.g. '.ant-modal').
 */
export async function visibleTexts(page: Page, root = 'body'): Promise<VisibleText[]> {
  return page.evaluate((selector) => {
    const out: { text: string; where: string }[] = [];
    const shown = (el: Element) =>
      !el.closest('[data-user-data], script, style, noscript, template') && el.checkVisibility({ opacityProperty: true, visibilityProperty: true });
    const where = (el: Element) => `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}`;
    for (const top of Array.from(document.querySelectorAll(selector))) {
      const walker = document.createTreeWalker(top, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = (n.nodeValue ?? '').trim();
        const el = n.parentElement;
        if (text && el && shown(el)) out.push({ text, where: where(el) });
      }
      for (const el of Array.from(top.querySelectorAll('input[placeholder], textarea[placeholder]'))) {
        const text = el.getAttribute('placeholder')!.trim();
        if (text && shown(el)) out.push({ text, where: where(el) });
      }
    }
    return out;
  }, root);
}

/** The visible texts (outside user data) holding Chinese, Japanese or Korean characters: none on an English page. */
export async function cjkTexts(page: Page, root = 'body'): Promise<VisibleText[]> {
  return (await visibleTexts(page, root)).filter((t) => CJK.test(t.text));
}

/** Chooses an account in an owner picker (the account tree select) by searching its login name. */
export async function pickAccount(page: Page, testId: string, loginName: string) {
  const select = page.locator(`[data-testid="${testId}"]`);
  await select.click();
  await select.locator('input').fill(loginName);
  await page.locator('.ant-select-dropdown:visible .ant-select-tree-treenode', { hasText: loginName }).first().click();
}

/**
 * Switches the console's language with its own menu in the navbar, in the same logged-in page. The
 * menu names the languages in the language on screen (`from`).
 */
export async function switchLanguage(page: Page, from: string, to: 'zh-CN' | 'zh-TW' | 'en') {
  const common = JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', from, 'common.json'), 'utf8')) as { languages: Record<string, string> };
  await closeOverlays(page);
  await page.locator('.wt-navbar button[aria-label]').filter({ has: page.locator('.anticon-translation') }).click();
  await page.locator('.ant-dropdown-menu-item', { hasText: common.languages[to] }).click();
  await page.locator(`html[lang="${to}"]`).waitFor({ state: 'attached' });
}
