// Accessibility of the console's main pages in a real browser: axe-core checks the login page and,
// in one logged-in page, the main pages one after the other (WCAG 2.1 A and AA). No critical or
// serious violation is allowed: fields have labels, switches and icon buttons names, progress bars
// names, and text reaches its contrast ratio (white on the theme colour included).
import { AxeBuilder } from '@axe-core/playwright';
import type { Result } from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, startServer, watchErrors, type ServerProcess } from './harness.js';
import { login, open } from './console.js';

/** Each page by its address, with what shows that it has loaded its data. */
const PAGES: [string, string][] = [
  ['/', '[data-testid="monitor"][data-loaded="1"] [data-testid="device-list"] .wt-device-row'],
  ['/dashboard', '[data-testid="dashboard"][data-loaded="1"]'],
  ['/devices/list', '.ant-table-row:visible'],
  ['/alarm/record', '.ant-table:visible'],
  ['/alarm/alarmSetting', '.ant-table-row:visible'],
  // The demo tenant has no health data yet: the page says so.
  ['/health/data', '[data-testid="health-readings"] .ant-table:visible, .wt-main .ant-empty:visible'],
  ['/account/accounts', '[data-testid="account-tree"] .ant-tree-treenode:visible'],
  ['/inventory/list', '.ant-table:visible'],
  ['/scene/sencelist', '.ant-table:visible'],
  ['/push/sendMessage', '.ant-tabs:visible'],
  ['/setting/platform', '[data-testid="retention-effective"]'],
  ['/setting/setingfunction', '[data-testid="switch-switchAnimation"] .ant-switch'],
];

/** The critical and serious violations on the page, each with the nodes at fault (a line each). */
async function violations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  const line = (v: Result) =>
    [`${v.id} (${v.impact}, ${v.nodes.length} nodes): ${v.help}`, ...v.nodes.map((n) => `  ${n.target.join(' ')} ${n.html.slice(0, 160)}${n.any[0]?.message ? ` — ${n.any[0].message}` : ''}`)].join('\n');
  return result.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map(line);
}

/** The page on screen has its data: no placeholder rows of a table still waiting, no spinner. */
async function settled(page: Page) {
  await page.locator('.wt-main .data-table-skeleton:visible').first().waitFor({ state: 'detached', timeout: 30_000 });
  await page.locator('.wt-main .ant-spin-spinning:visible').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

let server: ServerProcess;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let errors: string[];

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  ctx = await newContext(browser, { locale: 'zh-CN' });
  page = await ctx.newPage();
  errors = watchErrors(page);
});
afterAll(async () => {
  await ctx?.close();
  await browser?.close();
  await server?.stop();
});

describe('accessibility (axe-core, WCAG 2.1 AA): no critical or serious violation', () => {
  it('on the login page', async () => {
    await page.goto(`${server.url}/login`);
    await page.locator('button[type="submit"]').waitFor();
    await settled(page);
    expect((await violations(page)).join('\n')).toBe('');
  });

  describe('logged in, page after page', () => {
    beforeAll(async () => {
      await login(page, server.url);
    });

    for (const [to, ready] of PAGES) {
      it(`on ${to}`, async () => {
        await open(page, to);
        await page.locator(ready).first().waitFor({ timeout: 30_000 });
        await settled(page);
        expect((await violations(page)).join('\n')).toBe('');
      });
    }

    it('threw no error on the way', () => {
      expect(errors).toEqual([]);
    });
  });
});
