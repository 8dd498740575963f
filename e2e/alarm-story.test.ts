// The life of one unanswered SOS in a real browser, against a real server process whose alarm SMS go
// to an in-process SMSC over SMPP 3.4: a resident's watch raises SOS; the administrator's console pops
// it up and he takes it ("assign to me"); nobody acknowledges, so a minute later the demo policy of
// agent01 texts the care home's first alarm contact (the SMSC receives the text, in the contact's
// language); the administrator acknowledges in the pop-up, which stops the escalation; he resolves the
// alarm on the records page with a cause and a note, and its timeline shows every step, in Chinese and
// then in English. Screenshots land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { AlarmRecord } from '@wt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../simulator/src/index.js';
import { startSmsc } from '../server/test/sms-fixtures.js';
import { root, screenshot } from './harness.js';
import { callApi, consoleSession, open, switchLanguage } from './console.js';

type Tree = Record<string, any>;
const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'alarm.json'), 'utf8')) as Tree;
const zh = texts('zh-CN');
const en = texts('en');
const fill = (s: string, p: Record<string, string | number>) => s.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(p[k]));

// A watch of the demo care home (clinic01, below agent01, whose SOS policy applies to it).
const WATCH = '865000000000003';
const PHONE = '13800000161';
const SOS = 5;

const smsc = await startSmsc();
const s = consoleSession({ SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url, SMPP_SYSTEM_ID: 'wt', SMPP_PASSWORD: 'secret', NOTICE_RETRY_BASE_MS: '200' });
let sim: Simulator | undefined;

beforeAll(async () => {
  const api = <T = Tree>(p: string, body: unknown) => callApi<T>(s.page, s.server.url, p, body);
  const ids = new Map<string, number>();
  for (const name of ['agent01', 'clinic01']) {
    const found = (await api<{ Items: { UserId: number; LoginName: string }[] }>('/user/searchAccountByName', { Keyword: name, Limit: 5 })).Items;
    ids.set(name, found.find((u) => u.LoginName === name)!.UserId);
  }
  const id = (name: string) => ids.get(name)!;
  const me = (await api<{ UserInfo: { uid: number } }>('/User/EditFunctionSwitches', { isSendMessage: 1 })).UserInfo;
  expect(me).toBeTruthy();
  // The message service is granted down to the care home, which gets ten texts and one alarm contact.
  for (const name of ['agent01', 'clinic01']) expect((await api('/User/EditFunctionSwitches', { UserId: id(name), isSendMessage: 1 })).State).toBe(200);
  expect((await api('/User/actionSMSData', { UserId: id('clinic01'), Count: 10, Status: 1 })).State).toBe(200);
  const contact = await api('/ExceptionMessage/actionForAlarmContactPeople', {
    UserId: id('clinic01'),
    Name: '值班护士',
    Phone: PHONE,
    Email: '',
    NotifySms: 1,
    NotifyEmail: 2,
    // Told at once of a low battery only: of an SOS she hears from the escalation, when nobody answers.
    Types: [10],
    QuietFrom: '',
    QuietTo: '',
  });
  expect(contact.State).toBe(200);
}, 60_000);
afterAll(async () => {
  await sim?.stop();
  await smsc.close();
});

const page = () => s.page;
const popup = (p: Page): Locator =>
  p.locator('.ant-notification-notice', { has: p.locator(`.wt-alarm-note[data-alarm-type="${SOS}"]`, { hasText: WATCH }) }).first();
const sosRecords = async () =>
  (await callApi<{ Items: AlarmRecord[] }>(page(), s.server.url, '/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 20, Imei: WATCH, Type: SOS })).Items;
const rows = (p: Page) => p.locator('[data-testid="alarm-records"] .ant-table-tbody tr.ant-table-row');

// One story: a retried step would find the alarm already further on.
describe('an unanswered SOS, from the watch to its resolution', { retry: 0 }, () => {
  let raisedAt = 0;
  let alarmId = 0;
  let assignee = '';

  it('pops up on the console, is taken by the administrator, and texts the first contact after the policy’s minute', async () => {
    const p = page();
    await p.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 30_000 });
    await p.locator('[data-testid="alarm-sound"][data-realtime="open"]').waitFor({ state: 'attached', timeout: 20_000 });
    sim = await startSimulator({
      devices: [{ imei: WATCH, protocol: 'watch' }],
      ports: { watch: s.server.ports.WATCH_PORT },
      interval: 60,
      healthInterval: 600,
      seed: 26,
      rates: { sos: 0, fall: 0, removal: 0, highHeartRate: 0 },
    });
    await expect.poll(() => sim!.stats().connected, { timeout: 20_000 }).toBe(1);
    raisedAt = Date.now();
    sim.trigger(WATCH, 'sos');
    const note = popup(p);
    await note.locator('[data-testid="alarm-acknowledge"]').waitFor({ timeout: 30_000 });
    await screenshot(p, 'alarm-story-popup-zh-CN');
    [{ Id: alarmId }] = (await sosRecords()) as [AlarmRecord];

    await note.locator('[data-testid="alarm-assign-me"]').click();
    await p.locator('.ant-message', { hasText: zh.assignedToMe }).waitFor({ timeout: 10_000 });
    // No text before the policy's minute, one to the first contact after it.
    expect(smsc.submits).toEqual([]);
    await expect.poll(() => smsc.submits.length, { timeout: 120_000, interval: 1_000 }).toBe(1);
    const [sms] = smsc.submits;
    expect(sms!.destination).toBe(PHONE);
    expect(sms!.at - raisedAt).toBeGreaterThanOrEqual(55_000);
    expect(sms!.text).toContain(WATCH);
    expect(sms!.text).toContain('SOS');
  }, 200_000);

  it('is acknowledged in the pop-up, which stops the escalation', async () => {
    const p = page();
    const note = popup(p);
    await note.locator('[data-testid="alarm-acknowledge"]').click();
    await p.locator('.ant-message', { hasText: zh.acknowledged }).waitFor({ timeout: 10_000 });
    await expect.poll(async () => (await sosRecords()).find((r) => r.Id === alarmId)?.Status, { timeout: 10_000 }).toBe(1);
    const timeline = await callApi<{ Items: { Kind: string; Params: Tree }[] }>(p, s.server.url, '/AlarmRecord/Timeline', { Id: alarmId });
    const kinds = timeline.Items.map((e) => e.Kind);
    // Raised, taken, texted (step 2), acknowledged: in that order, and nothing sent after it.
    expect(kinds).toEqual(expect.arrayContaining(['raised', 'assigned', 'escalated', 'acknowledged']));
    expect(kinds.indexOf('raised')).toBeLessThan(kinds.indexOf('assigned'));
    expect(kinds.lastIndexOf('escalated')).toBeLessThan(kinds.indexOf('acknowledged'));
    assignee = String(timeline.Items.find((e) => e.Kind === 'assigned')?.Params.assignee ?? '');
    expect(assignee).not.toBe('');
    const sends = timeline.Items.filter((e) => e.Kind === 'escalated' && e.Params.channel === 'sms');
    expect(sends.map((e) => [e.Params.step, e.Params.channel, e.Params.recipient, e.Params.status])).toEqual([[2, 'sms', PHONE, 'sent']]);
    expect(smsc.submits).toHaveLength(1);
  });

  it('is resolved on the records page, and its timeline tells the story in Chinese and in English', async () => {
    const p = page();
    await open(p, '/alarm/record');
    const row = () => rows(p).filter({ hasText: WATCH }).filter({ hasText: zh.life.state.acknowledged }).first();
    await row().waitFor({ timeout: 20_000 });
    await expect(row().innerText()).resolves.toContain('admin');
    await row().locator('[data-testid="resolve-one"]').click();
    await p.locator('[data-testid="resolve-cause"]').click();
    await p.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: zh.life.causes.handled }).click();
    await p.locator('[data-testid="resolve-note"]').fill('护士已到房间');
    await p.locator('.ant-modal-footer .ant-btn-primary').click();
    await p.locator('.ant-modal-wrap').waitFor({ state: 'hidden' });
    await expect.poll(async () => (await rows(p).filter({ hasText: WATCH }).allInnerTexts()).some((t) => t.includes(zh.life.state.resolved)), { timeout: 10_000 }).toBe(true);

    const events = async (lang: Tree) => {
      const r = rows(p).filter({ hasText: WATCH }).filter({ hasText: lang.life.state.resolved }).first();
      await r.locator('[data-testid="timeline-one"]').click();
      const timeline = p.locator('[data-testid="alarm-timeline"]');
      await timeline.waitFor();
      await expect.poll(async () => timeline.locator('[data-testid="alarm-event"]').count(), { timeout: 10_000 }).toBeGreaterThanOrEqual(5);
      return timeline.locator('[data-testid="alarm-event"]').allInnerTexts();
    };
    const story = (lang: Tree) => [
      lang.life.kind.raised,
      fill(lang.life.kind.assigned, { assignee: assignee }),
      fill(lang.escalation.send.title, { step: 2, channel: lang.escalation.channel.sms, recipient: PHONE }),
      lang.life.kind.acknowledged,
      fill(lang.life.kind.resolved, { cause: lang.life.causes.handled }),
    ];
    // Each step of the story is an event of its own, in the order it happened; the text was delivered.
    const told = (list: string[], lang: Tree) => {
      const at = story(lang).map((x) => list.findIndex((e) => e.includes(x)));
      expect(at.every((i) => i >= 0), JSON.stringify(list)).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      expect(list[at[2]!]).toContain(lang.escalation.send.sent);
    };
    const zhEvents = await events(zh);
    told(zhEvents, zh);
    expect(zhEvents[zhEvents.length - 1]).toContain('护士已到房间');
    await screenshot(p, 'alarm-story-timeline-zh-CN');

    await p.keyboard.press('Escape');
    await switchLanguage(p, 'zh-CN', 'en');
    told(await events(en), en);
    await screenshot(p, 'alarm-story-timeline-en');
    expect(s.errors).toEqual([]);
  }, 120_000);
});
