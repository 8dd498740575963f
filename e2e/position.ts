// What the indoor-positioning browser tests share: one logged-in page against a server process
// (started before the file's tests, stopped after them), the HTTP uplink of an integration, and the
// open dialog's select.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchBrowser, startServer, watchErrors, type ServerProcess } from './harness.js';
import { callApi, login } from './console.js';

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

/** A UWB anchor of the demo care home: its MAC, place on the plan, floor and scene. */
export async function demoUwbAnchor(page: Page, url: string) {
  const scenes = (await callApi(page, url, '/Scene/SceneInfoListByMonitor', { EnabledOnly: false })).Items as { SceneId: number; Name: string; Floors: { FloorId: number; Name: string }[] }[];
  for (const s of scenes) {
    const anchors = (await callApi(page, url, '/Scene/BeaconsInfoByMonitor', { SceneId: s.SceneId })).Items as { Mac: string; Type: number; FloorId: number; X: number; Y: number }[];
    const a = anchors.find((x) => x.Type === 2);
    if (a) return { mac: a.Mac, x: a.X, y: a.Y, floorId: a.FloorId, floorName: s.Floors.find((f) => f.FloorId === a.FloorId)!.Name, sceneName: s.Name };
  }
  throw new Error('the demo care home has no UWB anchor');
}
