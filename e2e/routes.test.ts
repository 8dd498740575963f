// Every page of the route table opened directly by its address in a fresh tab, in the three
// languages, as the administrator and as a restricted account: no page error, no console error, no
// missing translation key, and every map canvas shows more than one flat colour. A page that works
// only when another page was visited first (a map worker set up by another module, say) fails here.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagePaths, permittedRoutes } from '../web/src/access/index.js';
import { callApi, cjkTexts, login } from './console.js';
import { launchBrowser, newContext, screenshot, startServer, type ServerProcess } from './harness.js';
import type { Browser } from 'playwright-core';

/**
 * The administrator sees every page, opened in Chinese and in English (traditional Chinese has the
 * same keys, which the locale tests compare); viewer01, a restricted account of the demo tenant, in
 * all three languages.
 */
const RUNS = [
  ['admin', 'zh-CN'],
  ['admin', 'en'],
  ['viewer01', 'zh-CN'],
  ['viewer01', 'zh-TW'],
  ['viewer01', 'en'],
] as const;

/**
 * Pages that need a subject in their address get one of the account's own devices: another
 * account's device is rightly not found (404) for a restricted account.
 */
const SUBJECT_PAGES = ['/devices/detail', '/devices/history', '/deviceAlarm', '/health/detail'];

let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  server = await startServer({ SIMULATE: '3' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Counts the distinct colours of a PNG, decoded by the page itself (no image library needed). */
async function distinctColours(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = document.createElement('canvas');
    c.width = img.width;
    c.height = img.height;
    const g = c.getContext('2d')!;
    g.drawImage(img, 0, 0);
    const data = g.getImageData(0, 0, c.width, c.height).data;
    const seen = new Set<number>();
    // Every 7th pixel is plenty to tell a drawn map from a flat fill.
    for (let i = 0; i < data.length && seen.size < 50; i += 28) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
    return seen.size;
  }, png.toString('base64'));
}

interface PageReport {
  path: string;
  errors: string[];
  missing: string[];
  blankMaps: number;
  /** English pages: Chinese text outside what people typed or named (marked as user data). */
  cjk: string[];
}

/** Opens one address in a new tab of the logged-in context and reports what went wrong there. */
async function visit(first: Page, path: string, lang: string, shot: string, imei: string): Promise<PageReport> {
  // A link opened in a new tab starts with the session of the tab it came from, as it is now:
  // refresh tokens rotate, and a tab that renewed them has handed the new pair to the others.
  const session = await first.evaluate(() => Object.fromEntries(Object.entries(sessionStorage)));
  const page = await first.context().newPage();
  await page.addInitScript((s) => {
    for (const [k, v] of Object.entries(s)) if (sessionStorage.getItem(k) === null) sessionStorage.setItem(k, v);
  }, session);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // A failed request is reported below with its address; the console's line has none.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(`console: ${m.text()}`);
  });
  page.on('response', (r) => {
    if (r.status() >= 400) errors.push(`response ${r.status()}: ${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  const report: PageReport = { path, errors, missing: [], blankMaps: 0, cjk: [] };
  try {
    await page.goto(`${server.url}${path}${SUBJECT_PAGES.includes(path) ? `?imei=${imei}` : ''}`);
    await page.locator(`.wt-tags .wt-tag.active`).waitFor({ timeout: 30_000 });
    // The page's own requests have answered (the realtime socket is not a request that idles).
    await page.waitForLoadState('networkidle', { timeout: 20_000 }).catch(() => undefined);
    const canvases = page.locator('canvas.maplibregl-canvas');
    const n = await canvases.count();
    for (let i = 0; i < n; i++) {
      const canvas = canvases.nth(i);
      if (!(await canvas.isVisible())) continue;
      let colours = 0;
      const deadline = Date.now() + 15_000;
      while (Date.now() < deadline) {
        colours = await distinctColours(page, await canvas.screenshot());
        if (colours > 1) break;
        await page.waitForTimeout(250);
      }
      if (colours <= 1) report.blankMaps++;
    }
    if (lang === 'en') report.cjk = (await cjkTexts(page)).map((t) => `${t.where}: ${t.text}`);
    report.missing = await page.evaluate(() => (window as unknown as { __wtMissingKeys?: string[] }).__wtMissingKeys ?? []);
    await screenshot(page, shot);
  } catch (err) {
    errors.push(`open: ${(err as Error).message.split('\n')[0]}`);
    await screenshot(page, shot).catch(() => undefined);
  }
  await page.close();
  return report;
}

describe('every page opened directly', () => {
  for (const [account, lang] of RUNS) {
    it(`${account} in ${lang}`, async () => {
      const ctx = await newContext(browser, { locale: lang });
      const first = await ctx.newPage();
      await login(first, server.url, lang, account, 'admin123');
      // The logged-in tab stays open: every page is opened from it in a new tab (see visit).
      const session = await first.evaluate(() => Object.fromEntries(Object.entries(sessionStorage)));
      const userId = Number(session['wt.userId']);
      const info = (await callApi(first, server.url, '/User/UserInfo', { UserId: userId })).UserInfo as { UserType: number; routes: string };
      const own = await callApi<{ Items: { Imei: string }[] }>(first, server.url, '/Device/devicesByUserId', { PageNo: 1, PageCount: 1 });
      const imei = own.Items[0]!.Imei;

      const paths = pagePaths(permittedRoutes(info)).filter((p) => p !== '*');
      expect(paths.length).toBeGreaterThan(3);
      const failures: PageReport[] = [];
      const took: [string, number][] = [];
      for (const p of paths) {
        const t0 = Date.now();
        const r = await visit(first, p, lang, `route-${account}-${lang}${p.replace(/\//g, '-')}`, imei);
        took.push([p, Date.now() - t0]);
        if (r.errors.length || r.missing.length || r.blankMaps || r.cjk.length) failures.push(r);
      }
      await ctx.close();
      const slowest = [...took].sort((a, b) => b[1] - a[1]).slice(0, 3);
      console.log(`${account} ${lang}: ${took.length} pages in ${Math.round(took.reduce((n, [, ms]) => n + ms, 0) / 1000)} s; slowest ${slowest.map(([p, ms]) => `${p} ${ms} ms`).join(', ')}`);
      expect(failures, JSON.stringify(failures, null, 1)).toEqual([]);
      // The administrator opens every page of the console (about 50) one after the other.
    }, 480_000);
  }
});
