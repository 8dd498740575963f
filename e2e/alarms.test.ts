// Alarms in a real browser against a real server process, in one logged-in page: two simulated
// watches raise SOS and a high heart rate; the monitor's SOS count follows the pop-up; a click on
// the pop-up opens the device on the monitor, where the SOS is confirmed with a remark; the
// single-device page confirms that device's alarms of today and leaves the other watch's open SOS;
// the records say who confirmed them and when and link a position to the monitor; a partner
// endpoint that fails twice receives the signed alarms; an acknowledged SOS is resolved from the
// records page and its timeline shows each step. Screenshots in Chinese and English land in
// e2e/screenshots/.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import path from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { AlarmRecord } from '@wt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/src/index.js';
import { launchBrowser, newContext, root, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { callApi, login, open } from './console.js';

const texts = (lang: string, ns: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, `${ns}.json`), 'utf8')) as Record<string, any>;
const zh = texts('zh-CN', 'alarm');
const en = texts('en', 'alarm');
const enMonitor = texts('en', 'monitor');
// Two watches of the demo care home.
const A = '865000000000003';
const B = '865000000000004';
const CODE = 'e2e-partner-secret';

let server: ServerProcess;
let browser: Browser;
let ctx: BrowserContext;
let page: Page;
let errors: string[];
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
  server = await startServer({ PUSH_RETRY_BASE_MS: '300', OUTBOUND_ALLOW: '127.0.0.1/32' });
  browser = await launchBrowser();
  ctx = await newContext(browser);
  page = await ctx.newPage();
  errors = watchErrors(page);
});
afterAll(async () => {
  await sim?.stop();
  await ctx?.close();
  await browser?.close();
  await server?.stop();
  await new Promise((r) => partner.close(r));
});

const rows = (p: Page) => p.locator('[data-testid="alarm-records"] .ant-table-tbody tr.ant-table-row');
const recordsOf = async (filter: Record<string, unknown>) =>
  (await callApi<{ Items: AlarmRecord[] }>(page, server.url, '/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 100, ...filter })).Items;
/** The realtime socket is registered: alarms raised from now on reach this page. */
const realtimeOpen = () => page.locator('[data-testid="alarm-sound"][data-realtime="open"]').waitFor({ state: 'attached', timeout: 20_000 });
const sosCount = async () => Number(await page.locator('[data-testid="count-sos"]').getAttribute('data-count'));
/** The open pop-up of an alarm type for a device. */
const popup = (type: number, imei: string): Locator =>
  page.locator('.ant-notification-notice', { has: page.locator(`.wt-alarm-note[data-alarm-type="${type}"]`, { hasText: imei }) }).first();
/** Closes the pop-ups open now (the heart-rate episode keeps raising new ones). */
async function closePopups() {
  for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click({ timeout: 2_000 }).catch(() => undefined);
}
/** The records as shown once loaded, scrolled to who confirmed them and when. */
async function recordsSettled(p: Page) {
  await p.locator('[data-testid="alarm-records"] .ant-spin-spinning').waitFor({ state: 'detached' });
  await p.locator('[data-testid="alarm-records"] .ant-table-content').evaluate((el) => (el.scrollLeft = 420));
}
/** The element has stopped moving (the map's flight to it is over). */
async function settled(l: Locator) {
  let last = '';
  await expect
    .poll(
      async () => {
        const b = JSON.stringify(await l.boundingBox());
        const same = b === last;
        last = b;
        return same;
      },
      { timeout: 10_000, interval: 250 },
    )
    .toBe(true);
}
async function confirmWithRemark(remark: string) {
  await page.locator('[data-testid="confirm-remark"]').fill(remark);
  await page.locator('.ant-modal-footer .ant-btn-primary').click();
  await page.locator('.ant-modal-wrap').waitFor({ state: 'hidden' });
}

describe('alarms from simulated watches', () => {
  let sosBefore = 0;

  it('counts an SOS on the monitor as soon as its pop-up arrives', async () => {
    const token = (await (await fetch(`${server.url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: 'admin', Password: 'admin123' }) })).json()).AccessToken as string;
    const saved = await fetch(`${server.url}/api/Push/SaveCompany`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ Name: 'E2E 合作方', PushUrl: partnerUrl, VerificationCode: CODE, PushModel: 1, DefaultFormat: 2 }),
    });
    expect(((await saved.json()) as { State: number }).State).toBe(200);

    await login(page, server.url);
    await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="count-sos"][data-count]').waitFor({ timeout: 30_000 });
    sosBefore = await sosCount();
    await realtimeOpen();

    sim = await startSimulator({
      devices: [
        { imei: A, protocol: 'watch' },
        { imei: B, protocol: 'watch' },
      ],
      ports: { watch: server.ports.WATCH_PORT },
      interval: 60,
      healthInterval: 5,
      seed: 11,
      rates: { sos: 0, fall: 0, removal: 0, highHeartRate: 0 },
    });
    await expect.poll(() => sim!.stats().connected, { timeout: 20_000 }).toBe(2);
    sim.trigger(A, 'sos');
    sim.trigger(A, 'highHeartRate');
    await popup(5, A).waitFor({ timeout: 30_000 });
    // The count is asked again with the pop-up: well within the list's 30 s poll.
    await expect.poll(sosCount, { timeout: 8_000 }).toBe(sosBefore + 1);
    await popup(30, A).waitFor({ timeout: 30_000 });
    await screenshot(page, 'alarms-popups-zh-CN');
  });

  it('opens the device on the monitor from the pop-up and confirms its SOS with a remark', async () => {
    await popup(5, A).locator('.wt-alarm-note').click();
    const card = page.locator('[data-testid="device-card"]');
    await card.locator('.ant-tag').first().waitFor();
    await expect(card.innerText()).resolves.toContain(A);
    // The address is the plain monitor again, the device selected and centred.
    await expect.poll(() => page.evaluate(() => location.pathname + location.search)).toBe('/');
    const focus = page.locator('[data-testid="alarm-focus"]');
    const sosItem = focus.locator('.ant-list-item', { hasText: 'SOS求救' });
    await sosItem.waitFor();
    await expect(popup(5, A).count()).resolves.toBe(0);
    await screenshot(page, 'alarms-monitor-zh-CN');

    await sosItem.locator('[data-testid="focus-confirm"]').click();
    await confirmWithRemark('已电话联系家属');
    await sosItem.waitFor({ state: 'detached' });
    await expect.poll(sosCount, { timeout: 8_000 }).toBe(sosBefore);
    const [sos] = await recordsOf({ Imei: A, Type: 5 });
    expect(sos).toMatchObject({ Status: 1, Remark: '已电话联系家属', ConfirmedBy: 'admin', ConfirmedAt: expect.stringMatching(/^\d{4}-/) });
  });

  it("confirms all of today's alarms of one device on its page, leaving the other watch's open SOS", async () => {
    sim!.trigger(B, 'sos');
    await popup(5, B).waitFor({ timeout: 30_000 });
    await expect.poll(async () => (await recordsOf({ Imei: A, Status: 0 })).length, { timeout: 30_000 }).toBeGreaterThan(0);
    const openOfA = (await recordsOf({ Imei: A, Status: 0 })).map((r) => r.Id);
    const sosOfB = await recordsOf({ Imei: B, Type: 5, Status: 0 });
    expect(sosOfB).toHaveLength(1);

    await closePopups();
    await open(page, `/deviceAlarm?imei=${A}`);
    await rows(page).first().waitFor();
    await page.locator('[data-testid="confirm-today"]').click();
    await expect(page.locator('.ant-modal').innerText()).resolves.toContain(A);
    await confirmWithRemark('夜班已巡查');
    await page.locator('.ant-message', { hasText: '已确认' }).waitFor({ timeout: 10_000 });

    // The other watch's SOS is still open; the page's device's alarms are confirmed, by admin.
    expect((await recordsOf({ Imei: B, Type: 5, Status: 0 })).map((r) => r.Id)).toEqual(sosOfB.map((r) => r.Id));
    const ofA = new Map((await recordsOf({ Imei: A })).map((r) => [r.Id, r]));
    for (const id of openOfA) expect(ofA.get(id)).toMatchObject({ Status: 1, Remark: '夜班已巡查', ConfirmedBy: 'admin' });
    await expect
      .poll(async () => (await rows(page).allInnerTexts()).some((r) => r.includes('夜班已巡查') && r.includes('admin') && r.includes(zh.status['1'])), { timeout: 10_000 })
      .toBe(true);
    await recordsSettled(page);
    await screenshot(page, 'alarms-device-confirmed-zh-CN');
  });

  it('lists who confirmed each record and when, and opens a position on the monitor', async () => {
    await open(page, '/alarm/record');
    const sosRowOfB = rows(page).filter({ hasText: B }).filter({ hasText: 'SOS求救' }).first();
    await sosRowOfB.waitFor();
    await expect(sosRowOfB.innerText()).resolves.toContain(zh.status['0']);
    const sosRowOfA = rows(page).filter({ hasText: A }).filter({ hasText: 'SOS求救' }).first();
    await expect(sosRowOfA.innerText()).resolves.toMatch(/admin\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+已电话联系家属/);
    await expect(page.locator('[data-testid="alarm-records"] thead').innerText()).resolves.toContain(zh.record.confirmedBy);
    await recordsSettled(page);
    await screenshot(page, 'alarms-records-zh-CN');

    const link = sosRowOfA.locator('[data-testid="alarm-position"]');
    await link.click();
    await page.locator('[data-testid="alarm-spot"]').waitFor();
    await expect(page.locator('[data-testid="device-card"]').innerText()).resolves.toContain(A);
    await settled(page.locator('[data-testid="alarm-spot"]'));
    await screenshot(page, 'alarms-position-zh-CN');
  });

  it('delivers the signed alarms to the partner after two failures', async () => {
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
    for (const r of received) expect(createHmac('sha256', CODE).update(r.body).digest('hex')).toBe(r.headers['x-signature']);
    expect([A, B]).toContain(JSON.parse(received[2]!.body).DeviceID);
    await open(page, '/push/pushlist');
    await page.locator('.ant-tabs-tab', { hasText: '推送记录' }).click();
    await page.locator('[data-testid="push-attempts"] .ant-table-row').first().waitFor();
    await screenshot(page, 'push-deliveries-zh-CN');
  });

  it('shows the pop-up, the monitor and the records in English', async () => {
    await closePopups();
    await open(page, '/');
    await page.evaluate(() => localStorage.setItem('wt.locale', 'en'));
    await page.reload();
    await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    await realtimeOpen();
    sim!.trigger(A, 'sos');
    const note = popup(5, A);
    await note.waitFor({ timeout: 30_000 });
    await expect(note.innerText()).resolves.toContain(enMonitor.alarm.openOnMonitor);
    await screenshot(page, 'alarms-popups-en');

    await note.locator('[data-testid="alarm-open-monitor"]').click();
    const sosItem = page.locator('[data-testid="alarm-focus"] .ant-list-item', { hasText: 'SOS' });
    await sosItem.waitFor();
    await expect(page.locator('[data-testid="alarm-focus"]').innerText()).resolves.toContain(enMonitor.focus.confirm);
    await screenshot(page, 'alarms-monitor-en');
    await sosItem.locator('[data-testid="focus-confirm"]').click();
    await expect(page.locator('.ant-modal-title').innerText()).resolves.toContain('SOS');
    await confirmWithRemark('Called the family');
    await sosItem.waitFor({ state: 'detached' });

    await open(page, '/alarm/record');
    const row = rows(page).filter({ hasText: 'Called the family' }).first();
    await row.waitFor();
    await expect(row.innerText()).resolves.toContain(en.status['1']);
    await expect(page.locator('[data-testid="alarm-records"] thead').innerText()).resolves.toContain(en.record.confirmedAt);
    await recordsSettled(page);
    await screenshot(page, 'alarms-records-en');
    await open(page, '/alarm/rule');
    await page.locator('.ant-table-row', { hasText: 'Left account fence' }).waitFor();
    await screenshot(page, 'alarms-types-en');
    await open(page, '/alarm/alarmSetting');
    await page.locator('.ant-table-row', { hasText: 'SOS' }).first().waitFor();
    await screenshot(page, 'alarms-settings-en');
    await open(page, '/push/pushlist');
    await page.locator('.ant-table-row', { hasText: 'E2E' }).waitFor();
    await screenshot(page, 'push-companies-en');
    expect(errors).toEqual([]);
  });

  it('resolves the acknowledged SOS from the records page with a cause and a note, and shows it on its timeline', async () => {
    await open(page, '/alarm/record');
    const row = () => rows(page).filter({ hasText: 'Called the family' }).first();
    await row().waitFor();
    await expect(row().innerText()).resolves.toContain(en.life.state.acknowledged);
    await row().locator('[data-testid="resolve-one"]').click();
    await page.locator('[data-testid="resolve-cause"]').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: en.life.causes.handled }).click();
    await page.locator('[data-testid="resolve-note"]').fill('Her daughter is with her');
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await page.locator('.ant-modal-wrap').waitFor({ state: 'hidden' });
    await expect.poll(async () => (await row().innerText()).includes(en.life.state.resolved), { timeout: 10_000 }).toBe(true);
    await row().locator('[data-testid="timeline-one"]').click();
    const timeline = page.locator('[data-testid="alarm-timeline"]');
    await timeline.waitFor();
    const text = await timeline.innerText();
    expect(text).toContain(en.life.kind.raised);
    expect(text).toContain(en.life.kind.acknowledged);
    expect(text).toContain('Her daughter is with her');
    await screenshot(page, 'alarms-timeline-en');
    expect(errors).toEqual([]);
  });
});
