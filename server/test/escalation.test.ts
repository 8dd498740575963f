// Escalation of unacknowledged alarms: policies per account and alarm type, inherited down the tree,
// validated with localized field errors and scoped to the caller's subtree; steps sent from the
// durable schedule with every send recorded, the next step scheduled, quiet hours held back except for
// SOS, and acknowledging cancelling what is pending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES } from '@wt/contract';
import { EscalationChannel, inQuietHours } from '../src/modules/escalation/engine.js';
import { escalationWorkers } from '../src/rules/services.js';
import { startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, deviceAlarm } from './alarm-fixtures.js';
import { until } from './sms-fixtures.js';

type Row = Record<string, any>;

describe('escalation policies and steps (PGlite)', () => {
  let p: TestPlatform;
  let admin: string;
  let agent: string;
  let clinic: string;
  let operator: string;
  let clinicId: number;
  let agentId: number;
  const idOf = async (login: string) => Number((await p.deps.database.query<Row>(`SELECT id FROM accounts WHERE login_name = $1`, [login]))[0]!.id);
  beforeAll(async () => {
    p = await startTestPlatform('pglite', {});
    await p.deps.database.query(`UPDATE accounts SET is_send_message = 1`);
    admin = (await p.login()).token;
    agent = (await p.login('agent01')).token;
    clinic = (await p.login('clinic01')).token;
    operator = (await p.login('operator01')).token;
    clinicId = await idOf('clinic01');
    agentId = await idOf('agent01');
    // Starting a platform on a loaded machine is slow.
  }, 240_000);
  afterAll(async () => {
    await p?.stop();
  }, 60_000);

  it('saves a policy, inherits it below, refuses bad input unchanged and another tenant', async () => {
    const bad = await p.call('/Escalation/Save', { UserId: agentId, AlarmType: ALARM_CODES.sos, Steps: [{ Wait: 5, Channels: ['sms'] }, { Wait: 2, Channels: ['fax'] }] }, agent);
    expect(bad.body.State).not.toBe(200);
    expect(JSON.stringify(bad.body)).toMatch(/Steps/);
    // The demo's SOS policy of the agent, unchanged by the refused save.
    const seeded = await p.call('/Escalation/Get', { UserId: agentId, AlarmType: ALARM_CODES.sos }, agent);
    expect(seeded.body.Own).toMatchObject({ RepeatMinutes: 5, RepeatCap: 6, Steps: [{ Wait: 0, Channels: ['console'] }, { Wait: 1, Contacts: [1] }, { Wait: 3, Contacts: [2], Parent: true }] });
    const noType = await p.call('/Escalation/Save', { AlarmType: 56, Steps: [{ Wait: 0, Channels: ['console'] }] }, agent);
    expect(noType.body.State).not.toBe(200);

    const saved = await p.call(
      '/Escalation/Save',
      { UserId: agentId, AlarmType: ALARM_CODES.sos, Steps: [{ Wait: 0, Channels: ['console', 'sms'], Contacts: [1] }, { Wait: 3, Channels: ['sms', 'email'], Contacts: [2], Parent: true }], RepeatMinutes: 5, RepeatCap: 2 },
      agent,
    );
    expect(saved.body.State).toBe(200);
    expect(saved.body.Own).toMatchObject({ UserId: agentId, RepeatMinutes: 5, RepeatCap: 2 });
    const below = await p.call('/Escalation/List', {}, clinic);
    const sos = below.body.Items.find((i: Row) => i.AlarmType === ALARM_CODES.sos);
    expect(sos).toMatchObject({ Inherited: true, FromUserId: agentId, FromUserName: 'agent01' });
    expect(below.body.Items.find((i: Row) => i.AlarmType === ALARM_CODES.fall)).toMatchObject({ Policy: null, Inherited: false });
    // Another tenant neither reads nor changes it.
    expect((await p.call('/Escalation/Get', { UserId: agentId, AlarmType: ALARM_CODES.sos }, operator)).body.State).not.toBe(200);
    expect((await p.call('/Escalation/Delete', { UserId: agentId, AlarmType: ALARM_CODES.sos }, operator)).body.State).not.toBe(200);
    expect((await p.call('/Escalation/Get', { UserId: agentId, AlarmType: ALARM_CODES.sos }, admin)).body.Own).not.toBeNull();
    // A sub-account's own policy replaces it, and deleting it brings the inherited one back.
    await p.call('/Escalation/Save', { AlarmType: ALARM_CODES.sos, Steps: [{ Wait: 1, Channels: ['console'] }] }, clinic);
    expect((await p.call('/Escalation/Get', { AlarmType: ALARM_CODES.sos }, clinic)).body.Effective).toMatchObject({ Inherited: false, FromUserId: clinicId });
    const back = await p.call('/Escalation/Delete', { AlarmType: ALARM_CODES.sos }, clinic);
    expect(back.body).toMatchObject({ Own: null, Effective: { Inherited: true, FromUserId: agentId } });
  }, 60_000);

  it('sends due steps, records each send, schedules the next, and stops when acknowledged', async () => {
    await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Daughter', Phone: '13800000101' }, clinic);
    await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Son', Phone: '13800000102', Email: 'son@example.com' }, clinic);
    const watch = await addDevice(p, 'clinic01', '865000000026001', 'Room 4');
    await deviceAlarm(p, watch, 'sos');
    const [alarm] = await p.deps.database.query<Row>(`SELECT id FROM alarms WHERE device_id = $1 AND type = 5`, [watch.id]);
    const alarmId = Number(alarm!.id);
    // Step 1 at once: the console and the first contact's SMS.
    const first = await until(async () => {
      const rows = await p.deps.database.query<Row>(`SELECT * FROM escalation_sends WHERE alarm_id = $1 ORDER BY id`, [alarmId]);
      return rows.length >= 2 && rows;
    });
    expect(first.map((r) => [r.step, r.channel, r.recipient, r.ok])).toEqual([
      [1, 'sms', '13800000101', true],
      [1, 'console', 'clinic01', true],
    ]);
    // Step 2 is scheduled 3 minutes after the alarm; bring it forward and it goes to the second contact.
    const [next] = await p.deps.database.query<Row>(`SELECT * FROM escalation_outbox WHERE alarm_id = $1 AND step = 1`, [alarmId]);
    expect(next).toMatchObject({ status: 'pending' });
    const [created] = await p.deps.database.query<Row>(`SELECT created_at FROM alarms WHERE id = $1`, [alarmId]);
    expect(new Date(next!.next_at).getTime() - new Date(created!.created_at).getTime()).toBe(3 * 60_000);
    await p.deps.database.query(`UPDATE escalation_outbox SET next_at = now() WHERE id = $1`, [next!.id]);
    escalationWorkers.get(p.deps)!.kick();
    const second = await until(async () => {
      const rows = await p.deps.database.query<Row>(`SELECT * FROM escalation_sends WHERE alarm_id = $1 AND step = 2 ORDER BY id`, [alarmId]);
      return rows.length >= 2 && rows;
    });
    expect(second.map((r) => [r.channel, r.recipient])).toEqual(expect.arrayContaining([['sms', '13800000102'], ['email', 'son@example.com']]));
    // The repeat of the last step waits; acknowledging cancels it.
    const [repeat] = await p.deps.database.query<Row>(`SELECT * FROM escalation_outbox WHERE alarm_id = $1 AND step = 2`, [alarmId]);
    expect(repeat).toMatchObject({ status: 'pending' });
    expect((await p.call('/ExceptionMessage/updateExceptionByID', { Id: alarmId, Remark: 'on my way' }, clinic)).body.State).toBe(200);
    const [after] = await p.deps.database.query<Row>(`SELECT status FROM escalation_outbox WHERE id = $1`, [repeat!.id]);
    expect(after!.status).toBe('cancelled');
    const sends = await p.deps.database.query<Row>(`SELECT count(*)::int AS n FROM escalation_sends WHERE alarm_id = $1`, [alarmId]);
    expect(sends[0]!.n).toBe(first.length + second.length);
    // The alarm's timeline shows each send among its events, in time order.
    const timeline = (await p.call('/AlarmRecord/Timeline', { Id: alarmId }, clinic)).body.Items as Row[];
    const escalated = timeline.filter((e) => e.Kind === 'escalated');
    expect(escalated.map((e) => [e.Params.step, e.Params.channel, e.Params.recipient, e.Params.status])).toEqual([
      [1, 'sms', '13800000101', 'sent'],
      [1, 'console', 'clinic01', 'sent'],
      ...second.map((r) => [2, r.channel, r.recipient, r.ok ? 'sent' : 'failed']),
    ]);
    const kinds = timeline.map((e) => e.Kind);
    expect(kinds[0]).toBe('raised');
    expect(kinds.at(-1)).toBe('acknowledged');
    expect(kinds.indexOf('acknowledged')).toBeGreaterThan(kinds.lastIndexOf('escalated'));
    expect(timeline.map((e) => e.At)).toEqual([...timeline.map((e) => e.At)].sort());
  }, 120_000);

  it('runs a step once: a finished step delivered again sends nothing, a step whose worker died runs when its lease expires', async () => {
    await p.call('/Escalation/Save', { AlarmType: ALARM_CODES.fall, Steps: [{ Wait: 0, Channels: ['sms'], Contacts: [1] }, { Wait: 10, Channels: ['sms'], Contacts: [1] }] }, clinic);
    const watch = await addDevice(p, 'clinic01', '865000000026002', 'Room 5');
    await deviceAlarm(p, watch, 'fall');
    const [alarm] = await p.deps.database.query<Row>(`SELECT id FROM alarms WHERE device_id = $1 AND type = $2`, [watch.id, ALARM_CODES.fall]);
    const sendsOf = () => p.deps.database.query<Row>(`SELECT * FROM escalation_sends WHERE alarm_id = $1 ORDER BY id`, [alarm!.id]);
    await until(async () => (await sendsOf()).length === 1);
    const [done] = await p.deps.database.query<Row>(`SELECT * FROM escalation_outbox WHERE alarm_id = $1 AND step = 0`, [alarm!.id]);
    expect(done!.status).toBe('delivered');
    // A process that committed the step and died before its outbox update: claimed again, it sends nothing.
    const channel = new EscalationChannel(p.deps);
    expect(await channel.deliver(done!)).toMatchObject({ ok: true, status: 'cancelled' });
    channel.close();
    expect(await sendsOf()).toHaveLength(1);
    // The next step claimed by a worker that died (a lease that ran out) runs once when it is due.
    await p.deps.database.query(`UPDATE escalation_outbox SET next_at = now(), locked_until = now() - interval '1 second' WHERE alarm_id = $1 AND step = 1`, [alarm!.id]);
    escalationWorkers.get(p.deps)!.kick();
    const after = await until(async () => {
      const rows = await sendsOf();
      return rows.length === 2 && rows;
    });
    expect(after[1]).toMatchObject({ step: 2, channel: 'sms', recipient: '13800000101', ok: true });
    const rows = await p.deps.database.query<Row>(`SELECT step, status FROM escalation_outbox WHERE alarm_id = $1 ORDER BY step`, [alarm!.id]);
    expect(rows).toEqual([
      { step: 0, status: 'delivered' },
      { step: 1, status: 'delivered' },
    ]);
  }, 120_000);

  it('keeps quiet hours a contact was given through the contact call: a watch taken off is held back, an SOS goes through', async () => {
    // Bad quiet hours are refused with the field, and nothing changes.
    const listed = async () => (await p.call('/ExceptionMessage/AlarmContactPersonByUserId', {}, clinic)).body.Items as Row[];
    // The clinic's first contact (the policy's contact 1), made here when this test runs alone.
    if (!(await listed()).length) await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Daughter', Phone: '13800000101' }, clinic);
    const daughter = (await listed())[0]!;
    expect(daughter).toMatchObject({ QuietFrom: '', QuietTo: '' });
    for (const [body, field] of [
      [{ QuietFrom: '25:00', QuietTo: '07:00' }, 'QuietFrom'],
      [{ QuietFrom: '22:00', QuietTo: '' }, 'QuietTo'],
      [{ QuietFrom: '22:00', QuietTo: '22:00' }, 'QuietTo'],
    ] as const) {
      const bad = await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Id: daughter.Id, Name: 'Daughter', Phone: '13800000101', ...body }, clinic);
      expect(bad.status).toBe(400);
      expect(JSON.stringify(bad.body)).toContain(field);
    }
    expect((await listed()).find((c) => c.Id === daughter.Id)).toMatchObject({ QuietFrom: '', QuietTo: '' });
    // Quiet from an hour ago to an hour from now, in the clinic's zone.
    const [acct] = await p.deps.database.query<Row>(`SELECT time_zone_offset FROM accounts WHERE id = $1`, [clinicId]);
    const nowMin = (((Math.floor(Date.now() / 60_000) + Number(acct!.time_zone_offset)) % 1440) + 1440) % 1440;
    const hhmm = (m: number) => {
      const x = ((m % 1440) + 1440) % 1440;
      return `${String(Math.floor(x / 60)).padStart(2, '0')}:${String(x % 60).padStart(2, '0')}`;
    };
    const quiet = { QuietFrom: hhmm(nowMin - 60), QuietTo: hhmm(nowMin + 60) };
    const saved = await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Id: daughter.Id, Name: 'Daughter', Phone: '13800000101', ...quiet }, clinic);
    expect(saved.body.State).toBe(200);
    expect((await listed()).find((c) => c.Id === daughter.Id)).toMatchObject(quiet);

    await p.call('/Escalation/Save', { AlarmType: ALARM_CODES.removal, Steps: [{ Wait: 0, Channels: ['sms'], Contacts: [1] }] }, clinic);
    const sendsOf = async (device: { id: number }, type: number) => {
      const [a] = await p.deps.database.query<Row>(`SELECT id FROM alarms WHERE device_id = $1 AND type = $2`, [device.id, type]);
      return a ? p.deps.database.query<Row>(`SELECT channel, recipient, ok, error FROM escalation_sends WHERE alarm_id = $1 AND channel = 'sms'`, [a.id]) : [];
    };
    const band = await addDevice(p, 'clinic01', '865000000026003', 'Room 6');
    await deviceAlarm(p, band, 'removal');
    const held = await until(async () => {
      const rows = await sendsOf(band, ALARM_CODES.removal);
      return rows.length > 0 && rows;
    });
    expect(held).toEqual([{ channel: 'sms', recipient: '13800000101', ok: false, error: 'escalation.quietHours' }]);
    const [bandAlarm] = await p.deps.database.query<Row>(`SELECT id FROM alarms WHERE device_id = $1 AND type = $2`, [band.id, ALARM_CODES.removal]);
    const bandTimeline = (await p.call('/AlarmRecord/Timeline', { Id: Number(bandAlarm!.id) }, clinic)).body.Items as Row[];
    expect(bandTimeline.find((e) => e.Kind === 'escalated')).toMatchObject({
      Actor: null,
      Params: { step: 1, channel: 'sms', recipient: '13800000101', status: 'held', error: 'escalation.quietHours' },
    });
    const watch = await addDevice(p, 'clinic01', '865000000026004', 'Room 7');
    await deviceAlarm(p, watch, 'sos');
    const sent = await until(async () => {
      const rows = await sendsOf(watch, ALARM_CODES.sos);
      return rows.length > 0 && rows;
    });
    expect(sent).toEqual([{ channel: 'sms', recipient: '13800000101', ok: true, error: '' }]);
  }, 120_000);

  it('holds back a contact in quiet hours, except for SOS and falls', () => {
    const at = new Date('2026-11-27T15:30:00Z'); // 23:30 at UTC+8
    expect(inQuietHours(22 * 60, 7 * 60, at, 480)).toBe(true);
    expect(inQuietHours(22 * 60, 7 * 60, at, 0)).toBe(false);
    expect(inQuietHours(9 * 60, 17 * 60, at, 0)).toBe(true);
    expect(inQuietHours(null, null, at, 0)).toBe(false);
  });
});
