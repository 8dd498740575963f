// Realtime hub: registration, subtree filtering, merged bursts, alarms and the refresh notice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_ACTIONS } from '@wt/contract';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { account, addDevices, RealtimeClient, sleep } from './monitor-fixtures.js';
import { TOPICS, type PositionEvent } from '../src/pipeline/events.js';
import { REALTIME_TOPICS, SESSION_ENDED_CLOSE, type AlarmRaisedEvent } from '../src/realtime/topics.js';
import { FLUSH_MS } from '../src/realtime/hub.js';

describe.each(databases())('realtime hub (%s)', (kind) => {
  let p: TestPlatform;
  const clients: RealtimeClient[] = [];
  const connect = async (login: string) => {
    const { token, userId } = await p.login(login, 'admin123');
    const c = await RealtimeClient.connect(p.url, token, userId);
    clients.push(c);
    return c;
  };
  const position = (dev: { id: number; imei: string; name: string }, path: string, lat: number, lon: number): PositionEvent => ({
    deviceId: dev.id, imei: dev.imei, name: dev.name, accountId: 0, accountPath: path, protocol: 'watch',
    time: new Date().toISOString(), receivedAt: new Date().toISOString(), lat, lon, valid: true, speed: 3,
  });

  beforeAll(async () => {
    p = await startTestPlatform(kind);
  });
  afterAll(async () => {
    for (const c of clients) c.close();
    await p?.stop();
  });

  it('registers with a valid token and refuses a missing or bad one', async () => {
    const c = await connect('admin');
    expect(c.messages[0]).toMatchObject({ type: 'registered' });
    const bad = await RealtimeClient.connect(p.url, 'not-a-token', 1);
    expect(bad.messages[0]).toMatchObject({ type: 'error', Message: 'monitor.realtimeUnauthorized' });
    await bad.until(() => bad.closed).catch(() => undefined);
    await sleep(50);
    expect(bad.closed).toBe(true);
  });

  it('closes the sockets of a session that logs out, and of the other sessions when the password changes', async () => {
    const a = await p.login('agent01', 'admin123');
    const b = await p.login('agent01', 'admin123');
    const ca = await RealtimeClient.connect(p.url, a.token, a.userId);
    const cb = await RealtimeClient.connect(p.url, b.token, b.userId);
    const other = await connect('clinic01');
    clients.push(ca, cb);
    // Logging out session a closes its socket only.
    expect((await p.call('/User/SaveUserLoginLog', { ActionCode: LOG_ACTIONS.LOGOUT, ClientType: 'web', ClientCode: 1 }, a.token)).body.State).toBe(200);
    await ca.until(() => ca.closed);
    expect(ca.closeCode).toBe(SESSION_ENDED_CLOSE);
    await sleep(FLUSH_MS);
    expect(cb.closed).toBe(false);
    // A password change from session c ends b (and its socket), not c.
    const [{ hash }] = await p.deps.database.query<{ hash: string }>(`SELECT password_hash AS hash FROM accounts WHERE login_name = 'agent01'`);
    const c = await p.login('agent01', 'admin123');
    const cc = await RealtimeClient.connect(p.url, c.token, c.userId);
    clients.push(cc);
    expect((await p.call('/User/ChangePassword', { OldPass: 'admin123', NewPass: 'Admin1234', RePass: 'Admin1234' }, c.token)).body.State).toBe(0);
    await cb.until(() => cb.closed);
    expect(cb.closeCode).toBe(SESSION_ENDED_CLOSE);
    await sleep(FLUSH_MS);
    expect(cc.closed).toBe(false);
    expect(other.closed).toBe(false);
    // The other tests log in as agent01 with the demo password.
    await p.deps.database.query(`UPDATE accounts SET password_hash = $1 WHERE login_name = 'agent01'`, [hash]);
  });

  it('sends a device change only to the owner account and its ancestors, never to a sibling', async () => {
    const clinic = await account(p, 'clinic01');
    const [dev] = await addDevices(p, 'clinic01', [{ lat: 22.5, lon: 114.05 }]);
    const admin = await connect('admin');
    const agent = await connect('agent01');
    const clinicClient = await connect('clinic01');
    const sibling = await connect('operator01');
    p.deps.bus.publish(TOPICS.position, position(dev!, clinic.path, 22.51, 114.06));
    for (const c of [admin, agent, clinicClient]) {
      await c.until((m) => m.type === 'devices' && m.devices.some((d) => d.i === dev!.id));
      expect(c.deviceUpdates(dev!.id).at(-1)).toMatchObject({ la: 22.51, lo: 114.06, on: true });
    }
    await sleep(FLUSH_MS * 2);
    expect(sibling.deviceUpdates(dev!.id)).toEqual([]);
    expect(sibling.messages.filter((m) => m.type === 'devices')).toEqual([]);
  });

  it('merges a burst into a few messages with the latest state per device', async () => {
    const agent = await account(p, 'agent01');
    const devs = await addDevices(p, 'agent01', Array.from({ length: 50 }, () => ({ lat: 23, lon: 113 })));
    const c = await connect('agent01');
    const before = c.messages.length;
    const started = Date.now();
    // 2 000 positions over about half a second: 40 per device, each further north.
    for (let step = 1; step <= 40; step++) {
      for (const d of devs) p.deps.bus.publish(TOPICS.position, position(d, agent.path, 23 + step / 1000, 113));
      await sleep(12);
    }
    await sleep(FLUSH_MS * 2);
    const batches = c.messages.slice(before).filter((m) => m.type === 'devices');
    const seconds = (Date.now() - started) / 1000;
    // At most one message per flush interval, plus one for the tail.
    expect(batches.length).toBeLessThanOrEqual(Math.ceil((seconds * 1000) / FLUSH_MS) + 1);
    expect(batches.length).toBeGreaterThan(0);
    for (const m of batches) {
      if (m.type !== 'devices') continue;
      // A device appears at most once per message.
      expect(new Set(m.devices.map((d) => d.i)).size).toBe(m.devices.length);
    }
    for (const d of devs) expect(c.deviceUpdates(d.id).at(-1)!.la).toBeCloseTo(23.04, 6);
  });

  it('skips buffered (historical) uploads on the live map', async () => {
    const admin = await account(p, 'admin');
    const [dev] = await addDevices(p, 'admin', [{ lat: 30, lon: 120 }]);
    const c = await connect('admin');
    p.deps.bus.publish(TOPICS.position, { ...position(dev!, admin.path, 31, 121), buffered: true });
    p.deps.bus.publish(TOPICS.position, position(dev!, admin.path, 30.5, 120.5));
    await c.until((m) => m.type === 'devices' && m.devices.some((d) => d.i === dev!.id));
    expect(c.deviceUpdates(dev!.id).map((d) => d.la)).toEqual([30.5]);
  });

  it('pushes raised alarms at once, to the subtree only', async () => {
    const clinic = await account(p, 'clinic01');
    const [dev] = await addDevices(p, 'clinic01', [{ lat: 22.5, lon: 114.05 }]);
    const agent = await connect('agent01');
    const sibling = await connect('viewer01');
    const alarm: AlarmRaisedEvent = {
      NotificationType: 5, DeviceID: dev!.imei, Nickname: dev!.name, Message: 'SOS', Created: '2026-01-01 10:00:00',
      deviceId: dev!.id, accountPath: clinic.path, AlarmId: 77,
    };
    p.deps.bus.publish(REALTIME_TOPICS.alarmRaised, alarm);
    const got = await agent.until((m) => m.type === 'alarm');
    expect(got).toEqual({
      type: 'alarm', deviceId: dev!.id,
      // The record's id: the pop-up acknowledges and assigns that alarm.
      alarm: { NotificationType: 5, DeviceID: dev!.imei, Nickname: dev!.name, Message: 'SOS', Created: '2026-01-01 10:00:00', AlarmId: 77 },
    });
    p.deps.bus.publish(REALTIME_TOPICS.refresh, { accountPath: clinic.path });
    await agent.until((m) => m.type === 'refresh');
    // The platform cleared it (the condition ended): the pop-ups of that alarm close.
    p.deps.bus.publish(REALTIME_TOPICS.alarmCleared, { deviceId: dev!.id, accountPath: clinic.path, alarms: [{ id: 77, type: 5 }] });
    expect(await agent.until((m) => m.type === 'alarmCleared')).toEqual({ type: 'alarmCleared', deviceId: dev!.id, alarms: [{ id: 77, type: 5 }] });
    await sleep(100);
    expect(sibling.messages.filter((m) => m.type === 'alarm' || m.type === 'refresh' || m.type === 'alarmCleared')).toEqual([]);
  });

  it('carries a message decoded by the pipeline to the console (OsmAnd uplink)', async () => {
    const [dev] = await addDevices(p, 'agent01', [{ lat: 22, lon: 113 }]);
    const c = await connect('agent01');
    const res = await fetch(`${p.url}/osmand?id=${dev!.imei}&lat=22.601&lon=113.902&timestamp=${Math.floor(Date.now() / 1000)}&speed=4`);
    expect(res.status).toBe(200);
    await c.until((m) => m.type === 'devices' && m.devices.some((d) => d.i === dev!.id && d.la !== undefined));
    const last = c.deviceUpdates(dev!.id).filter((d) => d.la !== undefined).at(-1)!;
    expect(last.la).toBeCloseTo(22.601, 5);
    expect(last.lo).toBeCloseTo(113.902, 5);
  });
});
