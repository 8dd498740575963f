// The alarm area end to end on each database: events on the bus become stored, de-duplicated,
// published alarms; the ExceptionMessage calls list, confirm, configure and keep to the subtree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C } from '@wt/contract';
import { REALTIME_TOPICS } from '../src/realtime/topics.js';
import { ALARM_TOPICS } from '../src/rules/alarm-engine.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, deviceAlarm, engineOf, healthReading, type TestDevice } from './alarm-fixtures.js';

describe.each(databases())('alarms on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let agent: string;
  let operator: string;
  let watch: TestDevice; // under clinic01, below agent01
  let other: TestDevice; // under operator01, a sibling of agent01
  const raised: Record<string, unknown>[] = [];

  beforeAll(async () => {
    p = await startTestPlatform(kind, { OFFLINE_TIMEOUT_SECONDS: '60' });
    p.deps.bus.subscribe(REALTIME_TOPICS.alarmRaised, (e) => raised.push(e as Record<string, unknown>));
    admin = (await p.login()).token;
    agent = (await p.login('agent01')).token;
    operator = (await p.login('operator01')).token;
    watch = await addDevice(p, 'clinic01', '865000000009001', 'Grandma');
    other = await addDevice(p, 'operator01', '865000000009002', 'Driver');
  });
  afterAll(() => p?.stop());

  const records = async (token: string, filter: Record<string, unknown> = {}) => {
    const r = await p.call('/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 50, ...filter }, token);
    expect(r.body.State).toBe(200);
    return r.body as { Total: number; Items: Record<string, any>[] };
  };

  it('seeds the alarm types, SOS as 5', async () => {
    const r = await p.call('/ExceptionMessage/ExcdeptionListWhitoutCode', {}, agent);
    const sos = r.body.Items.find((t: { Code: number }) => t.Code === 5);
    expect(sos).toMatchObject({ NameZh: 'SOS求救', NameEn: 'SOS', Level: 3, Enabled: 1 });
    expect(r.body.Items.map((t: { Code: number }) => t.Code)).toEqual(expect.arrayContaining([150, 151, C.offline, C.heartRateHigh]));
  });

  it('makes one SOS alarm of repeated frames, with a count and the latest time, and publishes it for the hub', async () => {
    const t0 = new Date(Date.now() - 60_000);
    const t1 = new Date(Date.now() - 30_000);
    await deviceAlarm(p, watch, 'sos', t0);
    await deviceAlarm(p, watch, 'sos', t1);
    await deviceAlarm(p, watch, 'sos');
    const list = await records(agent, { Type: 5 });
    expect(list.Total).toBe(1);
    expect(list.Items[0]).toMatchObject({ Type: 5, Imei: watch.imei, DeviceName: 'Grandma', Status: 0, Count: 3, Model: 'W1', AccountName: '康宁养老院' });
    expect(new Date(list.Items[0]!.LastTime.replace(' ', 'T')).getTime()).toBeGreaterThan(new Date(list.Items[0]!.Created.replace(' ', 'T')).getTime());
    const pub = raised.find((e) => e.NotificationType === 5);
    expect(pub).toMatchObject({ DeviceID: watch.imei, Imei: watch.imei, Nickname: 'Grandma', accountPath: watch.accountPath, AlarmId: list.Items[0]!.Id });
    // The database enforces it too: a second open SOS of the device cannot exist.
    await expect(
      p.deps.database.query(`INSERT INTO alarms (type, device_id, account_id) VALUES (5, $1, $2)`, [watch.id, watch.accountId]),
    ).rejects.toThrow();
  });

  it('raises fall, removal, low battery and power off as their own types', async () => {
    for (const k of ['fall', 'removal', 'lowBattery', 'powerOff'] as const) await deviceAlarm(p, watch, k);
    const types = (await records(agent, { DeviceId: watch.id })).Items.map((r) => r.Type);
    expect(types).toEqual(expect.arrayContaining([C.fall, C.removal, C.lowBattery, C.powerOff]));
  });

  it('raises health alarms beyond the default thresholds and none exactly at them', async () => {
    await healthReading(p, watch, { heartRate: 120, bloodOxygen: 90, bodyTemp: 37.3, systolic: 140, diastolic: 60 });
    expect((await records(agent, { Type: [C.heartRateHigh, C.bloodOxygenLow, C.bodyTempHigh, C.bloodPressureHigh, C.bloodPressureLow] })).Total).toBe(0);
    await healthReading(p, watch, { heartRate: 121, bloodOxygen: 89 });
    const r = await records(agent, { Type: [C.heartRateHigh, C.bloodOxygenLow] });
    expect(r.Items.map((i) => i.Type).sort()).toEqual([C.heartRateHigh, C.bloodOxygenLow].sort());
    expect(r.Items.find((i) => i.Type === C.heartRateHigh)).toMatchObject({ Value: 121 });
  });

  it('uses the device thresholds over the account ones, and the account ones over the defaults', async () => {
    const acc = await p.call('/ExceptionMessage/actionThresholdValue', { heartRateMin: 40, heartRateMax: 100 }, agent);
    expect(acc.body).toMatchObject({ State: 200, Source: 'account', Item: { heartRateMax: 100 } });
    // clinic01 inherits from its parent agent01.
    const inherited = await p.call('/ExceptionMessage/allExceptionThreshold', { DeviceId: watch.id }, agent);
    expect(inherited.body).toMatchObject({ Source: 'ancestor', Item: { heartRateMax: 100, bloodOxygenMin: 90 } });
    await healthReading(p, watch, { heartRate: 45 });
    expect((await records(agent, { Type: C.heartRateLow })).Total).toBe(0);
    const dev = await p.call('/ExceptionMessage/actionThresholdValue', { DeviceId: watch.id, heartRateMin: 50, heartRateMax: 160 }, agent);
    expect(dev.body.Source).toBe('device');
    await healthReading(p, watch, { heartRate: 49 });
    expect((await records(agent, { Type: C.heartRateLow })).Total).toBe(1);
    const bad = await p.call('/ExceptionMessage/actionThresholdValue', { heartRateMin: 130, heartRateMax: 100 }, agent);
    expect(bad.body.Fields[0]).toMatchObject({ Field: 'heartRateMin', Message: 'validation.minBelowMax' });
    const foreign = await p.call('/ExceptionMessage/allExceptionThreshold', { DeviceId: watch.id }, operator);
    expect(foreign.body.State).toBe(404);
  });

  it("evaluates the alarm types' threshold ranges as the defaults, a device's own thresholds taking precedence", async () => {
    const types = (await p.call('/ExceptionMessage/ExcdeptionListWhitoutCode', {}, admin)).body.Items as Record<string, any>[];
    const high = types.find((t) => t.Code === C.heartRateHigh)!;
    const save = (max: number) => {
      const { Id, Code, NameZh, NameEn, DescriptionZh, DescriptionEn, Category, Level, MinValue, RingType, PagePush, Enabled } = high;
      return p.call('/ExceptionMessage/saveExceptionType', { Id, Code, NameZh, NameEn, DescriptionZh, DescriptionEn, Category, Level, MinValue, MaxValue: max, RingType, PagePush, Enabled }, admin);
    };
    // viewer01's tree has no thresholds of its own: the defaults apply.
    const plain = await addDevice(p, 'viewer01', '865000000009011', 'Truck 1');
    const own = await addDevice(p, 'viewer01', '865000000009012', 'Truck 2');
    expect((await p.call('/ExceptionMessage/actionThresholdValue', { DeviceId: own.id, heartRateMin: 40, heartRateMax: 150 }, admin)).body.State).toBe(200);
    try {
      expect((await save(100)).body.State).toBe(200);
      const shown = await p.call('/ExceptionMessage/allExceptionThreshold', { DeviceId: plain.id }, admin);
      expect(shown.body).toMatchObject({ Source: 'default', Item: { heartRateMax: 100, heartRateMin: 50 } });
      await healthReading(p, plain, { heartRate: 110 });
      await healthReading(p, own, { heartRate: 110 });
      expect((await records(admin, { Type: C.heartRateHigh, DeviceId: plain.id })).Items).toEqual([expect.objectContaining({ Value: 110 })]);
      expect((await records(admin, { Type: C.heartRateHigh, DeviceId: own.id })).Total).toBe(0);
    } finally {
      expect((await save(120)).body.State).toBe(200);
    }
    const back = await p.call('/ExceptionMessage/allExceptionThreshold', { DeviceId: plain.id }, admin);
    expect(back.body.Item.heartRateMax).toBe(120);
  });

  it('raises device and account fence alarms from the transition sources', async () => {
    p.deps.bus.publish(ALARM_TOPICS.deviceFence, { deviceId: watch.id, fenceId: 7, kind: 'exit', time: new Date().toISOString(), lat: 22.5, lon: 113.9, accountPath: watch.accountPath, fenceName: 'Home' });
    p.deps.bus.publish(ALARM_TOPICS.accountFence, { deviceId: watch.id, fenceId: 3, kind: 'enter', time: new Date().toISOString(), lat: 22.5, lon: 113.9, accountPath: watch.accountPath });
    await engineOf(p).idle();
    const r = await records(agent, { Type: [C.deviceFenceOut, C.accountFenceIn] }, );
    expect(r.Items.map((i) => i.Type).sort()).toEqual([C.deviceFenceOut, C.accountFenceIn].sort());
    expect(r.Items.find((i) => i.Type === C.deviceFenceOut)!.Message).toContain('Home');
  });

  it('raises one offline alarm per silence', async () => {
    await p.deps.database.query(`INSERT INTO device_state (device_id, last_seen, online) VALUES ($1, now() - interval '10 minutes', false)
      ON CONFLICT (device_id) DO UPDATE SET last_seen = EXCLUDED.last_seen`, [other.id]);
    expect((await engineOf(p).checkOffline()).map((a) => a.code)).toContain(C.offline);
    expect(await engineOf(p).checkOffline()).toEqual([]);
    expect((await records(operator, { Type: C.offline })).Total).toBe(1);
  });

  it('keeps other accounts out: a sibling sees and confirms none of these alarms', async () => {
    await deviceAlarm(p, other, 'sos');
    const mine = await records(operator);
    expect(mine.Items.every((i) => i.Imei === other.imei)).toBe(true);
    const theirs = (await records(agent, { Type: 5 })).Items[0]!;
    const r = await p.call('/ExceptionMessage/updateExceptionByID', { Id: theirs.Id, Remark: 'x' }, operator);
    expect(r.body.State).toBe(404);
    const viaAccount = await p.call('/ExceptionMessage/allExceptionMsgPage', { AccountId: watch.accountId }, operator);
    expect(viaAccount.body.State).toBe(403);
    // The administrator above both sees both.
    const all = await records(admin, { Type: 5 });
    expect(all.Items.map((i) => i.Imei).sort()).toEqual([watch.imei, other.imei].sort());
  });

  it('filters by device text, status and time, and confirms one with a remark', async () => {
    expect((await records(admin, { Imei: 'Grand' })).Items.every((i) => i.Imei === watch.imei)).toBe(true);
    const future = await records(admin, { StartTime: new Date(Date.now() + 3600_000).toISOString() });
    expect(future.Total).toBe(0);
    const sos = (await records(agent, { Type: 5 })).Items[0]!;
    const r = await p.call('/ExceptionMessage/updateExceptionByID', { Id: sos.Id, Remark: 'called the family' }, agent);
    expect(r.body.State).toBe(200);
    const after = (await records(agent, { Type: 5, Status: 1 })).Items[0]!;
    expect(after).toMatchObject({ Id: sos.Id, Status: 1, Remark: 'called the family' });
    expect(after.ConfirmedAt).toBeTruthy();
    // A new SOS after the confirmation opens a new alarm.
    await deviceAlarm(p, watch, 'sos');
    expect((await records(agent, { Type: 5 })).Total).toBe(2);
  });

  it('confirms nothing on a request that names no alarms, no device and not "all of today"', async () => {
    const open = async () => (await records(admin, { Status: 0 })).Total;
    const before = await open();
    expect(before).toBeGreaterThan(3);
    const scopeless: unknown[] = [{}, null, { Remark: 'night shift checked' }, { AllToday: false, Remark: 'x' }, { Ids: [], Remark: 'x' }, { Since: 0 }];
    for (const body of scopeless) {
      const r = await p.call('/ExceptionMessage/UpdateExceptionMessageStatus', body, agent, { 'accept-language': 'en' });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.State).toBe(400);
      expect(r.body.Fields).toEqual([expect.objectContaining({ Field: 'AllToday', Message: 'alarm.confirmScopeRequired' })]);
      expect(r.body.Text).toContain("all of today's");
    }
    // A request without any body at all is refused alike.
    const bare = await fetch(`${p.url}/api/ExceptionMessage/UpdateExceptionMessageStatus`, { method: 'POST', headers: { authorization: `Bearer ${agent}` } });
    expect(bare.status).toBe(400);
    expect(await open()).toBe(before);
  });

  it("confirms all of today's alarms of one device only, by IMEI or id, and none of another tenant's device", async () => {
    // Both devices have open alarms; the administrator sees them all.
    const openOf = async (imei: string) => (await records(admin, { Status: 0, Imei: imei })).Total;
    const otherOpen = await openOf(other.imei);
    expect(otherOpen).toBeGreaterThan(0);
    expect((await records(admin, { Status: 0, Imei: other.imei, Type: 5 })).Total).toBe(1);
    const watchOpen = await openOf(watch.imei);
    expect(watchOpen).toBeGreaterThan(1);
    // The sibling cannot reach the watch by IMEI or id: not found, nothing confirmed.
    for (const scope of [{ Imei: watch.imei }, { DeviceId: watch.id }]) {
      const foreign = await p.call('/ExceptionMessage/UpdateExceptionMessageStatus', { ...scope, AllToday: true, Remark: 'x' }, operator);
      expect(foreign.body.State, JSON.stringify(scope)).toBe(404);
    }
    expect(await openOf(watch.imei)).toBe(watchOpen);
    const bad = await p.call('/ExceptionMessage/UpdateExceptionMessageStatus', { Imei: '12345', Remark: 'x' }, admin);
    expect(bad.body.Fields[0]).toMatchObject({ Field: 'Imei', Message: 'validation.imeiInvalid' });

    const r = await p.call('/ExceptionMessage/UpdateExceptionMessageStatus', { Imei: watch.imei, AllToday: true, Remark: 'visited Grandma' }, admin);
    expect(r.body).toEqual({ State: 200, Count: watchOpen });
    expect(await openOf(watch.imei)).toBe(0);
    // The other device's open SOS is untouched.
    expect(await openOf(other.imei)).toBe(otherOpen);
    expect((await records(admin, { Status: 0, Imei: other.imei, Type: 5 })).Total).toBe(1);
    // Each confirmed record says who confirmed it and when.
    const done = (await records(admin, { Status: 1, Imei: watch.imei })).Items;
    expect(done.filter((i) => i.Remark === 'visited Grandma')).toHaveLength(watchOpen);
    for (const i of done.filter((x) => x.Remark === 'visited Grandma')) expect(i).toMatchObject({ ConfirmedBy: 'admin', ConfirmedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d/) });
    expect((await records(admin, { Status: 0 })).Items.every((i) => i.ConfirmedBy === null && i.ConfirmedAt === null)).toBe(true);

    // By device id alike; a device without open alarms confirms none.
    await deviceAlarm(p, watch, 'sos');
    const byId = await p.call('/ExceptionMessage/UpdateExceptionMessageStatus', { DeviceId: watch.id, Remark: 'again' }, agent);
    expect(byId.body).toEqual({ State: 200, Count: 1 });
    expect((await p.call('/ExceptionMessage/UpdateExceptionMessageStatus', { DeviceId: watch.id, Remark: 'again' }, agent)).body.Count).toBe(0);
    expect((await records(admin, { Status: 1, Type: 5, Imei: watch.imei })).Items[0]).toMatchObject({ Remark: 'again', ConfirmedBy: 'agent01' });
    expect(await openOf(other.imei)).toBe(otherOpen);
  });

  it("confirms all of today's unconfirmed alarms of the subtree when asked explicitly, and only those", async () => {
    await deviceAlarm(p, watch, 'fall');
    const open = (await records(agent, { Status: 0 })).Total;
    expect(open).toBeGreaterThan(0);
    const r = await p.call('/ExceptionMessage/UpdateExceptionMessageStatus', { AllToday: true, Remark: 'night shift checked' }, agent);
    expect(r.body).toEqual({ State: 200, Count: open });
    expect((await records(agent, { Status: 0 })).Total).toBe(0);
    // The sibling's alarm is untouched.
    expect((await records(operator, { Status: 0 })).Total).toBeGreaterThan(0);
  });

  it('manages alarm types as administrator only, with the §5 rules', async () => {
    const denied = await p.call('/ExceptionMessage/saveExceptionType', { Code: 900, NameZh: 'x', NameEn: 'x', Level: 1, RingType: 1, PagePush: 1 }, agent);
    expect(denied.body.State).toBe(403);
    const bad = await p.call('/ExceptionMessage/saveExceptionType', { Code: 900, NameZh: '测试', NameEn: 'Test', Level: 1, RingType: 1, PagePush: 1, MinValue: 10, MaxValue: 5 }, admin);
    expect(bad.body.Fields[0].Message).toBe('validation.minBelowMax');
    const dup = await p.call('/ExceptionMessage/saveExceptionType', { Code: 5, NameZh: '测试', NameEn: 'Test', Level: 1, RingType: 1, PagePush: 1 }, admin);
    expect(dup.body).toMatchObject({ State: 409, Message: 'alarm.codeExists' });
    const ok = await p.call('/ExceptionMessage/saveExceptionType', { Code: 900, NameZh: '测试', NameEn: 'Test', Level: 2, RingType: 3, PagePush: 2, MinValue: 1, MaxValue: 5 }, admin);
    expect(ok.body.State).toBe(200);
    const page = await p.call('/ExceptionMessage/ExceptionType', { Keyword: 'Test' }, admin);
    expect(page.body.Items).toEqual([expect.objectContaining({ Code: 900, Level: 2, RingType: 3, PagePush: 2, MinValue: 1, MaxValue: 5 })]);
    expect((await p.call('/ExceptionMessage/DeleteExceptionType', { Id: ok.body.Id }, admin)).body.State).toBe(200);
    // A type with records cannot be deleted; it can be made invalid, and then raises nothing.
    const sosType = (await p.call('/ExceptionMessage/ExceptionType', { Keyword: 'SOS' }, admin)).body.Items[0];
    // SOS and fall stay on: not deleted, not closed, not renumbered; their sound and texts may change.
    expect((await p.call('/ExceptionMessage/DeleteExceptionType', { Id: sosType.Id }, admin)).body.Message).toBe('alarm.typeAlwaysOn');
    const closed = await p.call('/ExceptionMessage/saveExceptionType', { ...sosType, Enabled: 2 }, admin, { 'accept-language': 'en' });
    expect(closed.body.Fields[0]).toMatchObject({ Field: 'Enabled', Message: 'alarm.typeAlwaysOn' });
    expect(closed.body.Fields[0].Text).toContain('SOS');
    const renumbered = await p.call('/ExceptionMessage/saveExceptionType', { ...sosType, Code: 905 }, admin);
    expect(renumbered.body.Fields[0]).toMatchObject({ Field: 'Code', Message: 'alarm.typeCodeFixed' });
    expect((await p.call('/ExceptionMessage/saveExceptionType', { ...sosType, RingType: 3 }, admin)).body.State).toBe(200);
    // A row closed before the rule (an older database) raises its alarms all the same.
    await p.deps.database.query(`UPDATE alarm_types SET enabled = 2 WHERE code = 5`);
    p.deps.bus.publish('alarm.types.changed', {});
    await new Promise((r) => setTimeout(r, 50));
    await engineOf(p).idle();
    const raisedSos = async () => Number((await p.deps.database.query<{ n: number }>(`SELECT coalesce(sum(count), 0)::int AS n FROM alarms WHERE type = 5`))[0]!.n);
    const sosBefore = await raisedSos();
    await deviceAlarm(p, other, 'sos');
    await expect.poll(raisedSos).toBeGreaterThan(sosBefore);
    await p.deps.database.query(`UPDATE alarm_types SET enabled = 1 WHERE code = 5`);
    const lowBat = (await p.call('/ExceptionMessage/ExceptionType', { Keyword: 'Low battery' }, admin)).body.Items[0];
    await p.call('/ExceptionMessage/saveExceptionType', { ...lowBat, Enabled: 2 }, admin);
    await new Promise((r) => setTimeout(r, 50));
    await engineOf(p).idle();
    const before = (await records(admin, { Type: C.lowBattery })).Total;
    await deviceAlarm(p, other, 'lowBattery');
    expect((await records(admin, { Type: C.lowBattery })).Total).toBe(before);
  });

  it('keeps per-user alarm settings (State 200 and the list) and contacts, scoped', async () => {
    const types = (await p.call('/ExceptionMessage/ExcdeptionListWhitoutCode', {}, agent)).body.Items;
    const sos = types.find((t: { Code: number }) => t.Code === 5);
    const saved = await p.call('/ExceptionMessage/saveAlarmRules', { ExceptionTypeId: sos.Id, NewState: 1, RingType: 3 }, agent);
    expect(saved.body.State).toBe(200);
    const again = await p.call('/ExceptionMessage/saveAlarmRules', { ExceptionTypeId: sos.Id, NewState: 1, RingType: 2 }, agent);
    expect(again.body.Id).toBe(saved.body.Id);
    const list = await p.call('/ExceptionMessage/AlarmRulesByUserId', {}, agent);
    expect(list.body).toEqual({ State: 200, Items: [expect.objectContaining({ ExceptionTypeId: sos.Id, Code: 5, RingType: 2, NewState: 1 })] });
    expect((await p.call('/ExceptionMessage/AlarmRulesByUserId', { UserId: watch.accountId }, operator)).body.State).toBe(403);
    expect((await p.call('/ExceptionMessage/DeleteAlarmSetById', { Id: saved.body.Id }, operator)).body.State).toBe(404);
    expect((await p.call('/ExceptionMessage/DeleteAlarmSetById', { Id: saved.body.Id }, agent)).body.State).toBe(200);

    const noWay = await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Li' }, agent);
    expect(noWay.body.Fields[0].Message).toBe('alarm.contactNeedsPhoneOrEmail');
    const c = await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Li', Email: 'li@example.com', Phone: '13900000000', Types: [5] }, agent);
    expect(c.body.State).toBe(200);
    const contacts = await p.call('/ExceptionMessage/AlarmContactPersonByUserId', {}, agent);
    expect(contacts.body.Items).toEqual([expect.objectContaining({ Name: 'Li', Email: 'li@example.com', Types: [5] })]);
    expect((await p.call('/ExceptionMessage/DeleteAlarmContactPerson', { Id: c.body.Id }, operator)).body.State).toBe(404);
  });

  it('tells the alarm contacts above the device by e-mail when an alarm opens', async () => {
    const { readdirSync, readFileSync, existsSync } = await import('node:fs');
    const path = await import('node:path');
    const outbox = path.join(p.dataDir, 'outbox');
    const count = () => (existsSync(outbox) ? readdirSync(outbox).length : 0);
    const before = count();
    await deviceAlarm(p, watch, 'sos');
    await new Promise((r) => setTimeout(r, 200));
    expect(count()).toBe(before + 1);
    const newest = readdirSync(outbox).sort().at(-1)!;
    expect(readFileSync(path.join(outbox, newest), 'utf8')).toContain('li@example.com');
  });

  it("refuses every id-taking call with another account's ids", async () => {
    const agentId = watch.accountId;
    const types = (await p.call('/ExceptionMessage/ExcdeptionListWhitoutCode', {}, agent)).body.Items;
    const setting = await p.call('/ExceptionMessage/saveAlarmRules', { ExceptionTypeId: types[0].Id, RingType: 1 }, agent);
    const contact = await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Zhao', Phone: '13700000000' }, agent);
    const alarmId = (await records(agent)).Items[0]!.Id;
    const refused: [string, Record<string, unknown>][] = [
      ['/ExceptionMessage/allExceptionMsgPage', { AccountId: agentId }],
      ['/ExceptionMessage/updateExceptionByID', { Id: alarmId, Remark: 'x' }],
      ['/ExceptionMessage/UpdateExceptionMessageStatus', { Ids: [alarmId], Remark: 'x' }],
      ['/ExceptionMessage/allExceptionThreshold', { Imei: watch.imei }],
      ['/ExceptionMessage/actionThresholdValue', { DeviceId: watch.id, heartRateMax: 150 }],
      ['/ExceptionMessage/actionThresholdValue', { AccountId: agentId, heartRateMax: 150 }],
      ['/ExceptionMessage/AlarmRulesByUserId', { UserId: agentId }],
      ['/ExceptionMessage/saveAlarmRules', { UserId: agentId, ExceptionTypeId: types[0].Id, RingType: 1 }],
      ['/ExceptionMessage/saveAlarmRules', { Id: setting.body.Id, ExceptionTypeId: types[0].Id, RingType: 2 }],
      ['/ExceptionMessage/DeleteAlarmSetById', { Id: setting.body.Id }],
      ['/ExceptionMessage/AlarmContactPersonByUserId', { UserId: agentId }],
      ['/ExceptionMessage/actionForAlarmContactPeople', { Id: contact.body.Id, Name: 'Mine now', Phone: '13700000000' }],
      ['/ExceptionMessage/actionForAlarmContactPeople', { UserId: agentId, Name: 'Planted', Phone: '13700000000' }],
      ['/ExceptionMessage/DeleteAlarmContactPerson', { Id: contact.body.Id }],
      ['/health/GetHealth2', { DeviceId: watch.id, StartTime: 0, EndTime: Date.now() }],
      ['/health/HealthHasDataForDevice', { Imei: watch.imei }],
      ['/health/HealthHasDataForUsers', { AccountId: agentId }],
      ['/Device/allHealthDataPage', { AccountId: agentId }],
    ];
    for (const [path, body] of refused) {
      const r = await p.call(path, body, operator);
      // Confirming by ids answers a count: none of the foreign ones may be touched.
      if (path.endsWith('UpdateExceptionMessageStatus')) expect(r.body.Count, path).toBe(0);
      else expect([403, 404], `${path} ${JSON.stringify(r.body)}`).toContain(r.body.State);
    }
    // Nothing changed on the owner's side.
    expect((await p.call('/ExceptionMessage/AlarmContactPersonByUserId', {}, agent)).body.Items.map((c: { Name: string }) => c.Name)).toContain('Zhao');
    expect((await p.call('/ExceptionMessage/AlarmRulesByUserId', {}, agent)).body.Items[0].RingType).toBe(1);
    expect((await p.call('/ExceptionMessage/allExceptionThreshold', { DeviceId: watch.id }, agent)).body.Item.heartRateMax).toBe(160);
  });

  it('exports the records as a spreadsheet', async () => {
    const res = await fetch(`${p.url}/api/export/alarm-records`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${agent}` },
      body: JSON.stringify({ Type: [5] }),
    });
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const ExcelJS = (await import('exceljs')).default;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).getCell(1).value).toBe('时间');
    expect(ws.rowCount).toBe(1 + (await records(agent, { Type: 5 })).Total);
    expect(ws.getRow(2).getCell(3).value).toBe(watch.imei);
    const anon = await fetch(`${p.url}/api/export/alarm-records`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(anon.status).toBe(401);
    expect(await anon.json()).toMatchObject({ State: 1100, Message: 'common.tokenInvalid' });
    // A bad filter is refused like a list call's, with the field at fault, in the caller's language.
    const bad = await fetch(`${p.url}/api/export/alarm-records`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${agent}`, 'accept-language': 'en' },
      body: JSON.stringify({ Status: 5 }),
    });
    expect(bad.status).toBe(400);
    const body = (await bad.json()) as { State: number; Fields: { Field: string }[]; Text: string };
    expect(body.State).toBe(400);
    expect(body.Fields[0]!.Field).toBe('Status');
    expect(body.Text).toMatch(/not valid/);
  });
});
