// Alarms in a real browser against a real server process: a simulated watch sends SOS and a high
// heart rate; both appear as pop-ups and in the records; all of today's are confirmed with a
// remark; a partner endpoint that fails twice receives the signed alarm. Screenshots in Chinese
// and English land in e2e/screenshots/.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/src/index.js';
import { launchBrowser, newContext, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { login, open } from './console.js';

const texts = (lang: string, ns: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, any>;
const zh = texts('zh-CN', 'alarm');
const IMEI = '865000000000003';
const CODE = 'e2e-partner-secret';

let server: ServerProcess;
let browser: Browser;
let sim: Simulator | undefined;
let partner: Server;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
let partnerUrl = '';

beforeAll(async () => {
  let n = 0;
  partner = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      n++;
      res.statusCode = n <= 2 ? 500 : 200;
      res.end();
    });
  });
  await new Promise<void>((r) => partner.listen(0, '127.0.0.1', r));
  partnerUrl = `http://127.0.0.1:${(partner.address() as { port: number }).port}/hook`;
  server = await startServer({ PUSH_RETRY_BASE_MS: '300' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await sim?.stop();
  await browser?.close();
  await server?.stop();
  await new Promise((r) => partner.close(r));
});

async function api(pathName: string, body: unknown, token?: string) {
  const r = await fetch(`${server.url}/api${pathName}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await r.json()) as Record<string, any>;
}



const rows = (page: Page) => page.locator('[data-testid="alarm-records"] .ant-table-tbody tr.ant-table-row');

describe('alarms from a simulated watch', () => {
  let ctx: BrowserContext;
  let page: Page;
  let errors: string[];

  it('shows SOS and high heart rate as pop-ups and in the records', async () => {
    const token = (await api('/User/Login', { LoginName: 'admin', Password: 'admin123' })).AccessToken as string;
    const saved = await api('/Push/SaveCompany', { Name: 'E2E 合作方', PushUrl: partnerUrl, VerificationCode: CODE, PushModel: 1, DefaultFormat: 2 }, token);
    expect(saved.State).toBe(200);

    ctx = await newContext(browser);
    page = await ctx.newPage();
    errors = watchErrors(page);
    await login(page, server.url);
    await open(page, '/alarm/record');
    await page.locator('[data-testid="alarm-records"]').waitFor();
    // Let the realtime socket register before the watch raises anything.
    await page.waitForTimeout(1500);

    sim = await startSimulator({ devices: [{ imei: IMEI, protocol: 'watch' }], ports: { watch: server.ports.WATCH_PORT }, interval: 60, healthInterval: 5, seed: 11 });
    await expect.poll(() => sim!.stats().connected, { timeout: 20_000 }).toBeGreaterThan(0);
    await page.waitForTimeout(1000);
    sim.trigger(IMEI, 'sos');
    sim.trigger(IMEI, 'highHeartRate');

    await page.locator('.wt-alarm-note[data-alarm-type="5"]').first().waitFor({ timeout: 30_000 });
    await page.locator('.wt-alarm-note[data-alarm-type="30"]').first().waitFor({ timeout: 30_000 });
    await screenshot(page, 'alarms-popups-zh-CN');

    await expect
      .poll(
        async () => {
          await page.waitForTimeout(500);
          return rows(page).allInnerTexts();
        },
        { timeout: 30_000 },
      )
      .toEqual(expect.arrayContaining([expect.stringContaining('SOS求救'), expect.stringContaining('心率过高')]));
    const sosRow = rows(page).filter({ hasText: 'SOS求救' }).first();
    await expect(sosRow.innerText()).resolves.toContain(IMEI);
    await expect(sosRow.innerText()).resolves.toContain(zh.status['0']);
    await screenshot(page, 'alarms-records-zh-CN');
  });

  it("confirms all of today's alarms with a remark", async () => {
    // The watch stops first: its heart-rate episode would otherwise open new alarms after the confirmation.
    await sim?.stop();
    sim = undefined;
    await page.waitForTimeout(1000);
    // Close the pop-ups so they do not cover the toolbar.
    for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click().catch(() => {});
    await page.locator('[data-testid="confirm-today"]').click();
    await page.locator('[data-testid="confirm-remark"]').fill('已电话联系家属');
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await page.locator('.ant-message', { hasText: '已确认' }).waitFor({ timeout: 10_000 });
    await expect
      .poll(
        async () => {
          const mine = (await rows(page).allInnerTexts()).filter((r) => r.includes(IMEI));
          return mine.length >= 2 && mine.every((r) => r.includes(zh.status['1']) && r.includes('已电话联系家属'));
        },
        { timeout: 10_000 },
      )
      .toBe(true);
    await screenshot(page, 'alarms-confirmed-zh-CN');
  });

  it('delivers the signed alarm to the partner after two failures', async () => {
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    const ok = received[2]!;
    expect(createHmac('sha256', CODE).update(ok.body).digest('hex')).toBe(ok.headers['x-signature']);
    expect(JSON.parse(ok.body)).toMatchObject({ DeviceID: IMEI });
    await open(page, '/push/pushlist');
    await page.locator('.ant-tabs-tab', { hasText: '推送记录' }).click();
    await page.locator('[data-testid="push-attempts"] .ant-table-row').first().waitFor();
    await screenshot(page, 'push-deliveries-zh-CN');
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('shows the pages in English', async () => {
    const en = await newContext(browser, { locale: 'en' });
    await en.addInitScript(() => localStorage.setItem('wt.locale', 'en'));
    const p = await en.newPage();
    const errs = watchErrors(p);
    await login(p, server.url);
    await open(p, '/alarm/record');
    await rows(p).first().waitFor();
    await expect(rows(p).filter({ hasText: 'SOS' }).first().innerText()).resolves.toContain('Confirmed');
    await screenshot(p, 'alarms-records-en');
    await open(p, '/alarm/rule');
    await p.locator('.ant-table-row', { hasText: 'Watch removed' }).waitFor();
    await screenshot(p, 'alarms-types-en');
    await open(p, '/alarm/alarmSetting');
    await p.locator('.ant-table-row', { hasText: 'SOS' }).first().waitFor();
    await screenshot(p, 'alarms-settings-en');
    await open(p, '/push/pushlist');
    await p.locator('.ant-table-row', { hasText: 'E2E' }).waitFor();
    await screenshot(p, 'push-companies-en');
    expect(errs).toEqual([]);
    await en.close();
  });
});
