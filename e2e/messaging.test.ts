// Messaging in a real browser against a real server process, one logged-in page, in Chinese and then
// in English: the SMS service page opened directly, an account recharged through its dialog, an
// alarm of a simulated watch recorded for the alarm contact as "logged, not sent"; a message sent
// to a device role from the send dialog, the devices drawer turning to "answered" as the simulated
// watches reply; an app version published with an uploaded APK. Screenshots land in e2e/screenshots/.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/src/index.js';
import { zipOf } from '../server/test/zip-fixture.js';
import { root, screenshot, type ServerProcess } from './harness.js';
import { callApi, closeOverlays, consoleSession, switchLanguage } from './console.js';

const texts = (lang: string, ns: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, any>;

const A = '865000000000005';
const B = '865000000000006';
const LANGS = [
  { lang: 'zh-CN', phone: '13800000101', alarm: 'sos', version: '3.1.0', code: 310, message: '下午三点做操' },
  { lang: 'en', phone: '13800000102', alarm: 'fall', version: '3.2.0', code: 320, message: 'Exercise at three' },
] as const;

const session = consoleSession();
let server: ServerProcess;
let sim: Simulator;
let page: Page;
let errors: string[];
let roleId: number;
let apk: string;

beforeAll(async () => {
  ({ server, page, errors } = session);
  sim = await startSimulator({
    devices: [
      { imei: A, protocol: 'watch' },
      { imei: B, protocol: 'watch' },
    ],
    ports: { watch: server.ports.WATCH_PORT },
    interval: 120,
    seed: 3,
    rates: { sos: 0, fall: 0, removal: 0, highHeartRate: 0 },
  });
  const role = await callApi(page, server.url, '/DeviceRole/Save', { Name: 'Ward C', Color: 'green' });
  roleId = role.Item.RoleId;
  await callApi(page, server.url, '/DeviceRole/AssignDevices', { RoleId: roleId, Imeis: [A, B] });
  apk = path.join(mkdtempSync(path.join(tmpdir(), 'wt-apk-')), 'guardian.apk');
  writeFileSync(apk, zipOf({ 'AndroidManifest.xml': '<manifest package="com.weartrack.guardian"/>', 'classes.dex': 'dex\n035' }));
  for (const end = Date.now() + 30_000; sim.stats().connected < 2; ) {
    if (Date.now() > end) throw new Error('the simulated watches did not connect');
    await new Promise((r) => setTimeout(r, 200));
  }
});
afterAll(async () => {
  await sim?.stop();
});

const modal = () => page.locator('.ant-modal-wrap:visible .ant-modal');

describe.each(LANGS)('messaging ($lang)', (l) => {
  const m = texts(l.lang, 'messaging');

  it('recharges the SMS service and records the alarm text as logged, not sent (the logging SMS provider)', async () => {
    if (l.lang === 'en') await switchLanguage(page, 'zh-CN', 'en');
    await closeOverlays(page);
    // The root account turns its own message service on: without it no alarm text is made.
    expect((await callApi(page, server.url, '/User/EditFunctionSwitches', { isSendMessage: 1 })).State).toBe(200);
    await callApi(page, server.url, '/ExceptionMessage/actionForAlarmContactPeople', { Name: `Contact ${l.lang}`, Phone: l.phone });
    await page.goto(`${server.url}/push/sendMessage?tab=sms`);
    const remaining = page.locator('[data-testid="sms-remaining-admin"]');
    await remaining.waitFor({ timeout: 30_000 });
    const before = Number(await remaining.innerText());
    await page.locator('[data-testid="sms-recharge-admin"]').click();
    await modal().locator('[data-testid="sms-count"]').locator('xpath=self::input | .//input').first().fill('5');
    await modal().locator('[data-testid="sms-remark"]').fill(`E2E ${l.lang}`);
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    await modal().waitFor({ state: 'hidden', timeout: 20_000 });
    await expect.poll(async () => Number(await remaining.innerText()), { timeout: 20_000 }).toBe(before + 5);
    await expect(page.locator('[data-testid="sms-accounts"]').innerText()).resolves.toContain(m.sms.statusValues['1']);
    await screenshot(page, `sms-service-${l.lang}`);

    sim.trigger(A, l.alarm);
    await page.goto(`${server.url}/push/sendMessage?tab=records`);
    const tag = page.locator(`[data-testid="notice-sms-${l.phone}"]`);
    await expect
      .poll(
        async () => {
          const state = (await tag.count()) ? await tag.getAttribute('data-state') : null;
          if (state !== 'logged') {
            await page.reload();
            await page.locator('[data-testid="sms-records"] .ant-table').waitFor({ timeout: 20_000 });
          }
          return state;
        },
        { timeout: 30_000, interval: 1000 },
      )
      .toBe('logged');
    await expect(tag.innerText()).resolves.toBe(m.records.statuses.logged);
    await screenshot(page, `sms-records-${l.lang}`);
  });

  it('sends a message to a role and watches the devices answer', async () => {
    await page.goto(`${server.url}/push/sendMessage`);
    await page.locator('[data-testid="message-new"]').click();
    await modal().locator('[data-testid="message-roles"]').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: 'Ward C' }).click();
    await modal().locator('.ant-modal-title').click();
    await expect(modal().locator('[data-testid="message-reach"]').innerText({ timeout: 20_000 })).resolves.toContain('2');
    await modal().locator('[data-testid="message-name"]').fill(`E2E ${l.lang}`);
    await modal().locator('[data-testid="message-content"]').fill(l.message);
    await screenshot(page, `message-send-${l.lang}`);
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    await modal().waitFor({ state: 'hidden', timeout: 20_000 });
    // The new send's devices open by themselves and turn answered as the watches reply.
    for (const imei of [A, B]) {
      await expect.poll(() => page.locator(`[data-testid="message-state-${imei}"]`).getAttribute('data-state'), { timeout: 30_000 }).toBe('answered');
    }
    await expect(page.locator(`[data-testid="message-state-${A}"]`).innerText()).resolves.toBe(texts(l.lang, 'commands').status.answered);
    await screenshot(page, `message-devices-${l.lang}`);
    expect(sim.device(A)?.snapshot().messages.at(-1)).toBe(l.message);
  });

  it('publishes an app version with an uploaded APK', async () => {
    const a = texts(l.lang, 'appVersion');
    await page.goto(`${server.url}/push/app`);
    await page.locator('[data-testid="app-add"]').click();
    await modal().locator('[data-testid="app-new-version"]').fill(l.version);
    await modal().locator('[data-testid="app-version-code"]').locator('xpath=self::input | .//input').first().fill(String(l.code));
    await modal().locator('[data-testid="app-min-version"]').fill('3.0.0');
    await modal().locator('input[type="file"]').setInputFiles(apk);
    await modal().locator('[data-testid="app-uploaded"]').waitFor({ timeout: 20_000 });
    await modal().locator(`[data-testid="app-content-${l.lang}"]`).fill(l.lang === 'en' ? 'Faster maps' : '地图加载更快');
    await screenshot(page, `appversion-form-${l.lang}`);
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    await modal().waitFor({ state: 'hidden', timeout: 20_000 });
    const row = page.locator(`[data-testid="app-row-${l.version}"]`);
    await row.waitFor({ timeout: 20_000 });
    await expect(page.locator('[data-testid="app-table"]').innerText()).resolves.toContain(a.forcedValues['2']);
    await screenshot(page, `appversion-list-${l.lang}`);
    const check = await callApi(page, server.url, '/APPInfo/CheckAppVersion', { Platform: 'android', Version: '2.9', Language: l.lang });
    expect(check).toMatchObject({ Update: true, Forced: true, NewVersion: l.version });
    expect(errors).toEqual([]);
  });
});
