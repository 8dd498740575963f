// The alarm's life on each database: acknowledged (the console's confirm), resolved with a cause,
// cleared by the platform when the condition ends, assigned and commented, with a timeline; repeats
// counted into an open alarm within the window; every call kept to the caller's subtree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C } from '@wt/contract';
import { REALTIME_TOPICS } from '../src/realtime/topics.js';
import { ALARM_TOPICS } from '../src/rules/alarm-engine.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, deviceAlarm, engineOf, healthReading, type TestDevice } from './alarm-fixtures.js';

describe.each(databases())("the alarm's life on %s", (kind) => {
  let p: TestPlatform;
  let agent: string;
  let clinic: string;
  let operator: string;
  let watch: TestDevice; // under clinic01, below agent01
  let other: TestDevice; // under operator01, a sibling of agent01
  const popups: Record<string, unknown>[] = [];
  // What the consoles are told the platform cleared, once committed.
  const clearedNotes: { deviceId: number; accountPath: string; alarms: { id: number; type: number }[] }[] = [];
  const toldCleared = (id: number) => clearedNotes.filter((n) => n.alarms.some((a) => a.id === id));

  beforeAll(async () => {
    p = await startTestPlatform(kind, { OFFLINE_TIMEOUT_SECONDS: '60', ALARM_REPEAT_WINDOW_SECONDS: '600', ALARM_HEALTH_CLEAR_READINGS: '3' });
    // The pop-ups of raising and repeating; escalation steps of an unanswered alarm (their own test)
    // pop up too, marked with their step.
    p.deps.bus.subscribe(REALTIME_TOPICS.alarmRaised, (e) => {
      if (!(e as { EscalationStep?: number }).EscalationStep) popups.push(e as Record<string, unknown>);
    });
    p.deps.bus.subscribe(REALTIME_TOPICS.alarmCleared, (e) => clearedNotes.push(e as (typeof clearedNotes)[number]));
    agent = (await p.login('agent01')).token;
    clinic = (await p.login('clinic01')).token;
    operator = (await p.login('operator01')).token;
    watch = await addDevice(p, 'clinic01', '865000000019001', 'Grandma');
    other = await addDevice(p, 'operator01', '865000000019002', 'Driver');
  }, 180_000);
  afterAll(() => p?.stop());

  const records = async (token: string, filter: Record<string, unknown> = {}) => {
    const r = await p.call('/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 50, ...filter }, token);
    expect(r.body.State).toBe(200);
    return r.body as { Total: number; Items: Record<string, any>[] };
  };
  const one = async (token: string, type: number, d = watch) => {
    const r = await records(token, { Type: type, DeviceId: d.id });
    return r.Items[0]!;
  };
  const timeline = async (id: number, token = agent) => {
    const r = await p.call('/AlarmRecord/Timeline', { Id: id }, token);
    expect(r.body.State).toBe(200);
    return r.body.Items as { Kind: string; Actor: string | null; Params: Record<string, unknown>; At: string }[];
  };

  it('goes open, acknowledged (confirm), resolved with a cause and a note, each step on the timeline', async () => {
    await deviceAlarm(p, watch, 'removal');
    const a = await one(agent, C.removal);
    expect(a).toMatchObject({ State: 'open', Status: 0, AssigneeId: null, ResolvedAt: null });
    expect((await records(agent, { State: 'open', DeviceId: watch.id })).Items.map((i) => i.Id)).toContain(a.Id);

    const ack = await p.call('/ExceptionMessage/updateExceptionByID', { Id: a.Id, Remark: 'on my way' }, clinic);
    expect(ack.body).toEqual({ State: 200 });
    expect(await one(agent, C.removal)).toMatchObject({ State: 'acknowledged', Status: 1, ConfirmedBy: 'clinic01', Remark: 'on my way' });

    const res = await p.call('/AlarmRecord/Resolve', { Id: a.Id, Cause: 'handled', Note: 'put back on' }, agent);
    expect(res.body).toEqual({ State: 200 });
    const after = await one(agent, C.removal);
    expect(after).toMatchObject({ State: 'resolved', Status: 1, ResolvedBy: 'agent01', ResolveCause: 'handled', ResolveNote: 'put back on' });
    expect(after.ResolvedAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect((await records(agent, { State: 'resolved' })).Items.map((i) => i.Id)).toContain(a.Id);
    expect((await records(agent, { State: 'open' })).Items.map((i) => i.Id)).not.toContain(a.Id);

    const tl = await timeline(a.Id);
    expect(tl.map((e) => e.Kind)).toEqual(['raised', 'acknowledged', 'resolved']);
    expect(tl[1]).toMatchObject({ Actor: 'clinic01', Params: { note: 'on my way' } });
    expect(tl[2]).toMatchObject({ Actor: 'agent01', Params: { cause: 'handled', note: 'put back on' } });

    // Resolved once: a second resolve is refused and changes nothing.
    const again = await p.call('/AlarmRecord/Resolve', { Id: a.Id, Cause: 'falseAlarm' }, agent);
    expect(again.body.State).toBe(409);
    expect((await one(agent, C.removal)).ResolveCause).toBe('handled');
  });

  it('resolves an alarm nobody acknowledged, acknowledging it with the same step', async () => {
    await deviceAlarm(p, watch, 'powerOff');
    const a = await one(agent, C.powerOff);
    await p.call('/AlarmRecord/Resolve', { Id: a.Id, Cause: 'test' }, clinic);
    expect(await one(agent, C.powerOff)).toMatchObject({ State: 'resolved', Status: 1, ConfirmedBy: 'clinic01', ResolveNote: '' });
    expect((await timeline(a.Id)).map((e) => e.Kind)).toEqual(['raised', 'acknowledged', 'resolved']);
  });

  it('counts repeats within the window into the open alarm and opens a new one after a longer silence; each SOS pops up', async () => {
    const t0 = new Date(Date.now() - 30 * 60_000);
    const t1 = new Date(Date.now() - 25 * 60_000);
    popups.length = 0;
    await deviceAlarm(p, watch, 'sos', t0);
    await deviceAlarm(p, watch, 'sos', t1);
    let list = await records(agent, { Type: C.sos, DeviceId: watch.id });
    expect(list.Total).toBe(1);
    expect(list.Items[0]).toMatchObject({ Count: 2, State: 'open' });
    const first = list.Items[0]!.Id;
    // Two pop-ups of the same record: a repeated SOS is shown again.
    expect(popups.filter((e) => e.NotificationType === C.sos).map((e) => e.AlarmId)).toEqual([first, first]);
    // 25 minutes of silence, longer than the 10-minute window: a new alarm.
    await deviceAlarm(p, watch, 'sos');
    list = await records(agent, { Type: C.sos, DeviceId: watch.id });
    expect(list.Total).toBe(2);
    expect(list.Items.map((i) => i.Count)).toEqual([1, 2]);
    expect(list.Items[1]!.State).toBe('open');
    // (The demo policy escalates an SOS left unanswered: its sends are on the timeline too, tested with escalation.)
    expect((await timeline(first)).map((e) => e.Kind).filter((k) => k !== 'escalated')).toEqual(['raised', 'repeated']);
    // An acknowledged alarm takes no repeats: the next SOS opens a new one.
    const newest = list.Items[0]!.Id;
    await p.call('/ExceptionMessage/UpdateExceptionMessageStatus', { Ids: [newest], Remark: '' }, clinic);
    await deviceAlarm(p, watch, 'sos');
    expect((await records(agent, { Type: C.sos, DeviceId: watch.id })).Total).toBe(3);
    expect((await timeline(newest)).map((e) => e.Kind).filter((k) => k !== 'escalated')).toEqual(['raised', 'acknowledged']);
  });

  it('clears an offline alarm when the device reports again, still unacknowledged and shown as such', async () => {
    await p.deps.database.query(
      `INSERT INTO device_state (device_id, last_seen, online) VALUES ($1, now() - interval '10 minutes', false)
       ON CONFLICT (device_id) DO UPDATE SET last_seen = EXCLUDED.last_seen`,
      [watch.id],
    );
    await engineOf(p).checkOffline();
    const a = await one(agent, C.offline);
    expect(a.State).toBe('open');
    // Still silent: nothing cleared.
    expect(await engineOf(p).clearEnded()).toEqual([]);
    await p.deps.database.query(`UPDATE device_state SET last_seen = now() + interval '1 second', battery = 15 WHERE device_id = $1`, [watch.id]);
    expect(toldCleared(a.Id)).toEqual([]);
    expect(await engineOf(p).clearEnded()).toContain(a.Id);
    expect(toldCleared(a.Id)).toEqual([{ deviceId: watch.id, accountPath: watch.accountPath, alarms: [{ id: a.Id, type: C.offline }] }]);
    const after = await one(agent, C.offline);
    expect(after).toMatchObject({ State: 'clearedUnacknowledged', Status: 0 });
    expect(after.ClearedAt).not.toBeNull();
    expect((await records(agent, { State: 'clearedUnacknowledged' })).Items.map((i) => i.Id)).toContain(a.Id);
    expect((await records(agent, { State: 'cleared' })).Items.map((i) => i.Id)).toContain(a.Id);
    expect((await timeline(a.Id)).at(-1)).toMatchObject({ Kind: 'cleared', Actor: null, Params: { reason: 'backOnline' } });
    // It can still be acknowledged: cleared, acknowledged.
    await p.call('/ExceptionMessage/updateExceptionByID', { Id: a.Id, Remark: 'seen' }, clinic);
    expect((await one(agent, C.offline)).State).toBe('cleared');
  });

  it('clears a low battery alarm once charged above the threshold, not before', async () => {
    await deviceAlarm(p, watch, 'lowBattery');
    const a = await one(agent, C.lowBattery);
    await p.deps.database.query(`UPDATE device_state SET last_seen = now() + interval '2 seconds', battery = 18 WHERE device_id = $1`, [watch.id]);
    expect(await engineOf(p).clearEnded()).not.toContain(a.Id);
    await p.deps.database.query(`UPDATE device_state SET last_seen = now() + interval '3 seconds', battery = 60 WHERE device_id = $1`, [watch.id]);
    expect(await engineOf(p).clearEnded()).toContain(a.Id);
    expect(await one(agent, C.lowBattery)).toMatchObject({ State: 'clearedUnacknowledged' });
    expect((await timeline(a.Id)).at(-1)!.Params).toEqual({ reason: 'charged' });
  });

  it('clears a heart rate alarm after three consecutive readings in range, an abnormal one starting the count again', async () => {
    const at = (s: number) => new Date(Date.now() - 120_000 + s * 1000);
    await healthReading(p, watch, { heartRate: 150 }, at(0));
    const a = await one(agent, C.heartRateHigh);
    await healthReading(p, watch, { heartRate: 80 }, at(10));
    await healthReading(p, watch, { heartRate: 82 }, at(20));
    await healthReading(p, watch, { heartRate: 140 }, at(30));
    await healthReading(p, watch, { heartRate: 80 }, at(40));
    await healthReading(p, watch, { heartRate: 81 }, at(50));
    // A reading of another measure only does not count.
    await healthReading(p, watch, { bloodOxygen: 97 }, at(55));
    expect((await one(agent, C.heartRateHigh)).State).toBe('open');
    await healthReading(p, watch, { heartRate: 79 }, at(60));
    const after = await one(agent, C.heartRateHigh);
    expect(after).toMatchObject({ Id: a.Id, State: 'clearedUnacknowledged', Count: 2 });
    expect(toldCleared(a.Id)).toEqual([{ deviceId: watch.id, accountPath: watch.accountPath, alarms: [{ id: a.Id, type: C.heartRateHigh }] }]);
    expect((await timeline(a.Id)).map((e) => e.Kind)).toEqual(['raised', 'repeated', 'cleared']);
  });

  it('clears a fence-out alarm when the device is back inside that fence, not another', async () => {
    const cross = (kind: 'enter' | 'exit', fenceId: number) =>
      p.deps.bus.publish(ALARM_TOPICS.deviceFence, { deviceId: watch.id, fenceId, kind, time: new Date().toISOString(), lat: 22.5, lon: 113.9, accountPath: watch.accountPath, fenceName: 'Home' });
    cross('exit', 41);
    await engineOf(p).idle();
    const a = await one(agent, C.deviceFenceOut);
    cross('enter', 42);
    await engineOf(p).idle();
    expect((await one(agent, C.deviceFenceOut)).State).toBe('open');
    expect(toldCleared(a.Id)).toEqual([]);
    cross('enter', 41);
    await engineOf(p).idle();
    expect(await one(agent, C.deviceFenceOut)).toMatchObject({ Id: a.Id, State: 'clearedUnacknowledged' });
    expect(toldCleared(a.Id)).toEqual([{ deviceId: watch.id, accountPath: watch.accountPath, alarms: [{ id: a.Id, type: C.deviceFenceOut }] }]);
    expect((await timeline(a.Id)).at(-1)!.Params).toEqual({ reason: 'backInside' });
  });

  it("assigns to the alarm's account or one above it, reassigns, takes back, comments, and filters by assignee", async () => {
    await deviceAlarm(p, watch, 'fall');
    const a = await one(agent, C.fall);
    const options = await p.call('/AlarmRecord/Assignees', { Id: a.Id }, clinic);
    const names = (options.body.Items as { Id: number; Name: string }[]).map((u) => u.Id);
    expect(names[0]).toBe(watch.accountId);
    const agentId = (await p.login('agent01')).userId;
    expect(names).toContain(agentId);
    // clinic01 gives it to its parent, who gives it back.
    expect((await p.call('/AlarmRecord/Assign', { Id: a.Id, AssigneeId: agentId }, clinic)).body).toEqual({ State: 200 });
    expect(await one(agent, C.fall)).toMatchObject({ AssigneeId: agentId });
    expect((await records(agent, { AssigneeId: agentId })).Items.map((i) => i.Id)).toEqual([a.Id]);
    await p.call('/AlarmRecord/Assign', { Id: a.Id, AssigneeId: watch.accountId }, agent);
    expect((await one(agent, C.fall)).AssigneeId).toBe(watch.accountId);
    // An account of another branch, not above the alarm's: refused, naming the field.
    const operatorId = (await p.login('operator01')).userId;
    const bad = await p.call('/AlarmRecord/Assign', { Id: a.Id, AssigneeId: operatorId }, agent);
    expect(bad.body.State).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('AssigneeId');
    expect((await one(agent, C.fall)).AssigneeId).toBe(watch.accountId);
    await p.call('/AlarmRecord/Comment', { Id: a.Id, Text: 'called her daughter' }, clinic);
    await p.call('/AlarmRecord/Assign', { Id: a.Id, AssigneeId: null }, agent);
    expect((await one(agent, C.fall)).AssigneeId).toBeNull();
    const tl = await timeline(a.Id, clinic);
    expect(tl.map((e) => e.Kind)).toEqual(['raised', 'assigned', 'assigned', 'comment', 'assigned']);
    expect(tl[1]!.Params).toMatchObject({ assigneeId: agentId });
    expect(tl[3]).toMatchObject({ Actor: 'clinic01', Params: { text: 'called her daughter' } });
    expect(tl[4]!.Params).toEqual({ assignee: null });
  });

  it('refuses bad input with the field named and changes nothing', async () => {
    await deviceAlarm(p, watch, 'removal');
    const a = (await records(agent, { Type: C.removal, State: 'open', DeviceId: watch.id })).Items[0]!;
    const noCause = await p.call('/AlarmRecord/Resolve', { Id: a.Id, Cause: 'bored' }, agent);
    expect(noCause.body.State).toBe(400);
    expect(JSON.stringify(noCause.body)).toContain('Cause');
    const long = await p.call('/AlarmRecord/Resolve', { Id: a.Id, Cause: 'other', Note: 'x'.repeat(501) }, agent);
    expect(long.body.State).toBe(400);
    expect(JSON.stringify(long.body)).toContain('Note');
    const empty = await p.call('/AlarmRecord/Comment', { Id: a.Id, Text: '  ' }, agent);
    expect(empty.body.State).toBe(400);
    const badState = await p.call('/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 10, State: 'gone' }, agent);
    expect(badState.body.State).toBe(400);
    expect((await one(agent, C.removal)).State).toBe('open');
    expect((await timeline(a.Id)).map((e) => e.Kind)).toEqual(['raised']);
  });

  it("keeps other tenants out: another branch's alarm cannot be resolved, assigned, commented or read", async () => {
    await deviceAlarm(p, other, 'sos');
    const theirs = await one(operator, C.sos, other);
    for (const [path, body] of [
      ['/AlarmRecord/Resolve', { Id: theirs.Id, Cause: 'handled' }],
      ['/AlarmRecord/Assign', { Id: theirs.Id, AssigneeId: null }],
      ['/AlarmRecord/Comment', { Id: theirs.Id, Text: 'mine now' }],
      ['/AlarmRecord/Timeline', { Id: theirs.Id }],
      ['/AlarmRecord/Assignees', { Id: theirs.Id }],
    ] as const) {
      const r = await p.call(path, body, agent);
      expect(r.body.State, path).toBe(404);
    }
    expect(await one(operator, C.sos, other)).toMatchObject({ State: 'open', AssigneeId: null });
    expect((await timeline(theirs.Id, operator)).map((e) => e.Kind)).toEqual(['raised']);
  });
});
