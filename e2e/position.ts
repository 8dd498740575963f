// What the indoor-positioning browser tests share: one logged-in page against a server process
// (started before the file's tests, stopped after them), the HTTP uplink of an integration, and the
// open dialog's select.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser, startServer, watchErrors, type ServerProcess } from './harness.js';
import { login } from './console.js';

export interface ConsoleSession {
  server: ServerProcess;
  browser: Browser;
  ctx: BrowserContext;
  page: Page;
  errors: string[];
}

/** Starts the server and a logged-in page (Chinese first) before the tests, stops them after. */
export function consoleSession(env: Record<string, string> = {}): ConsoleSession {
  const s = {} as ConsoleSession;
  beforeAll(async () => {
    s.server = await startServer(env);
    s.browser = await launchBrowser();
    s.ctx = await s.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' });
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

/** Posts one uplink body to an integration, as a network server or gateway would. */
export async function uplink(s: ConsoleSession, integration: string, token: string, body: unknown) {
  const res = await fetch(`${s.server.url}/api/ingest/${integration}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

export const modal = (page: Page) => page.locator('.ant-modal-wrap:visible .ant-modal');

/** Picks an option of a select of the open dialog. */
export async function choose(page: Page, testId: string, option: string) {
  await modal(page).locator(`[data-testid="${testId}"]`).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}
