// Alarm conditions on each database: overspeed after consecutive fixes above the device's speed
// limit (never on a single spike) and cleared under it; staying too long in a location, raised past
// its maximum stay and cleared on leaving. Each alarm is stored as a message key with parameters,
// rendered in the reader's language, and seen only in its device's subtree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C } from '@wt/contract';
import type { DeviceMessage } from '@wt/protocols';
import { TOPICS, type HealthEvent, type PositionEvent } from '../src/pipeline/events.js';
import { locationWatches } from '../src/modules/location/watch.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, engineOf, type TestDevice } from './alarm-fixtures.js';
import { positionTenants, sceneWithFloor } from './position-fixtures.js';

const ROOM: [number, number][] = [[2, 2], [8, 2], [8, 6], [2, 6]];
const MIN = 60_000;

describe.each(databases())('alarm conditions on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let operator: string;
  let car: TestDevice; // under clinic01, below agent01
  let steady: TestDevice; // same owner, no speed limit of its own: inherits none
  let t0: number;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { ALARM_OVERSPEED_FIXES: '2', ALARM_REPEAT_WINDOW_SECONDS: '600' });
    ({ agent, operator } = await positionTenants(p));
    car = await addDevice(p, 'clinic01', '865000000064001', 'Van 7');
    steady = await addDevice(p, 'clinic01', '865000000064002', 'Van 8');
    t0 = Date.now() - 3600_000;
  }, 180_000);
  afterAll(() => p?.stop());

  const records = async (token: string, filter: Record<string, unknown>, lang = 'en') => {
    const r = await p.call('/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 50, ...filter }, token, { 'accept-language': lang });
    expect(r.body.State).toBe(200);
    return r.body as { Total: number; Items: Record<string, any>[] };
  };
  const fix = async (d: TestDevice, atMs: number, speed: number) => {
    const e: PositionEvent = {
      deviceId: d.id,
      imei: d.imei,
      name: d.name,
      accountId: d.accountId,
      accountPath: d.accountPath,
      protocol: 'gt06',
      time: new Date(atMs).toISOString(),
      receivedAt: new Date().toISOString(),
      lat: 22.54,
      lon: 113.95,
      valid: true,
      speed,
    };
    p.deps.bus.publish(TOPICS.position, e);
    await engineOf(p).idle();
  };
  const stored = (d: TestDevice, type: number) =>
    p.deps.database.query<{ id: number; message_key: string; message_params: Record<string, unknown>; cleared_at: Date | null; count: number }>(
      `SELECT id, message_key, message_params, cleared_at, count FROM alarms WHERE device_id = $1 AND type = $2 ORDER BY id`,
      [d.id, type],
    );

  describe('overspeed', () => {
    it('takes a speed limit per device beside the health thresholds, bounded', async () => {
      const bad = await p.call('/ExceptionMessage/actionThresholdValue', { DeviceId: car.id, speedLimit: 5000 }, agent, { 'accept-language': 'en' });
      expect(bad.body.State).not.toBe(200);
      expect(bad.body.Fields[0]).toMatchObject({ Field: 'speedLimit' });
      const ok = await p.call('/ExceptionMessage/actionThresholdValue', { DeviceId: car.id, speedLimit: 80 }, agent);
      expect(ok.body).toMatchObject({ State: 200, Source: 'device', Item: { speedLimit: 80, heartRateMax: 120 } });
      const foreign = await p.call('/ExceptionMessage/actionThresholdValue', { DeviceId: car.id, speedLimit: 20 }, operator);
      expect(foreign.body.State).not.toBe(200);
      const shown = await p.call('/ExceptionMessage/allExceptionThreshold', { DeviceId: car.id }, agent);
      expect(shown.body.Item.speedLimit).toBe(80);
    });

    it('raises nothing on a single spike above the limit', async () => {
      await fix(car, t0, 60);
      await fix(car, t0 + 10_000, 140);
      await fix(car, t0 + 20_000, 70);
      expect(await stored(car, C.overspeed)).toEqual([]);
    });

    it('raises after two consecutive fixes above the limit, once, and clears back under it', async () => {
      await fix(car, t0 + 30_000, 95);
      expect(await stored(car, C.overspeed)).toEqual([]);
      await fix(car, t0 + 40_000, 102.46);
      await fix(car, t0 + 50_000, 110);
      const [a, ...more] = await stored(car, C.overspeed);
      expect(more).toEqual([]);
      expect(a).toMatchObject({ message_key: 'alarm.msg.overspeed', message_params: { speed: 102.5, limit: 80 }, cleared_at: null, count: 1 });

      const en = (await records(agent, { Type: C.overspeed, DeviceId: car.id }, 'en')).Items[0]!;
      expect(en.Message).toBe('Speed 102.5 km/h above the limit 80 km/h');
      const zh = (await records(agent, { Type: C.overspeed, DeviceId: car.id }, 'zh-CN')).Items[0]!;
      expect(zh.Message).toBe('速度 102.5 km/h 超过限速 80 km/h');

      await fix(car, t0 + 60_000, 79);
      const [after] = await stored(car, C.overspeed);
      expect(after!.cleared_at).not.toBeNull();
      const tl = await p.call('/AlarmRecord/Timeline', { Id: after!.id }, agent);
      expect((tl.body.Items as { Kind: string; Params: Record<string, unknown> }[]).map((e) => e.Kind)).toEqual(['raised', 'cleared']);
    });

    it('ignores speeds that are no reading and devices without a limit', async () => {
      await fix(car, t0 + 70_000, Number.NaN);
      await fix(car, t0 + 80_000, 1e9);
      await fix(car, t0 + 90_000, -5);
      expect((await stored(car, C.overspeed)).length).toBe(1);
      await fix(steady, t0 + 70_000, 200);
      await fix(steady, t0 + 80_000, 210);
      expect(await stored(steady, C.overspeed)).toEqual([]);
    });

    it('is not seen by another tenant', async () => {
      expect((await records(operator, { Type: C.overspeed })).Items.filter((i) => i.DeviceId === car.id || i.Imei === car.imei)).toEqual([]);
      expect((await records(operator, { Type: C.overspeed })).Total).toBe(0);
      expect((await records(agent, { Type: C.overspeed })).Total).toBe(1);
    });
  });

  describe('stayed too long in a location', () => {
    let floorId: number;
    let sceneId: number;
    let bathroom: number;
    let resident: TestDevice;
    let neighbour: TestDevice;

    beforeAll(async () => {
      ({ sceneId, floorId } = await sceneWithFloor(p, agent, 'Care home', { no: 1, name: 'Ground', description: 'Rooms' }));
      expect(floorId).toBeGreaterThan(0);
      resident = await addDevice(p, 'clinic01', '865000000066001', 'Room 12');
      neighbour = await addDevice(p, 'clinic01', '865000000066002', 'Room 14');
    });

    const watch = () => locationWatches.get(p.deps)!;
    const at = async (d: TestDevice, time: number, x: number) => {
      const t = new Date(time);
      const m: DeviceMessage = {
        deviceId: d.imei,
        protocol: 'uplink',
        kind: 'position',
        type: 'indoor',
        time: t,
        fix: { time: t, valid: true, lat: 22.54, lon: 113.93, accuracy: 1.5, indoor: { sceneId, floorId, x, y: 4, method: 'trilateration' } },
      };
      await p.deps.ingest.ingest([m], { transport: 'indoor', remote: 'test', mode: 'short' });
      await watch().settled();
      await engineOf(p).idle();
    };

    it('takes a maximum stay per location, bounded', async () => {
      const base = { Name: 'Bathroom', Event: 1, Kind: 1, FloorId: floorId, Points: ROOM };
      const bad = await p.call('/Bluetooth/AddBeaconLocationInfo', { ...base, MaxStayMinutes: 2000 }, agent, { 'accept-language': 'en' });
      expect(bad.body.State).not.toBe(200);
      expect(bad.body.Fields).toEqual([expect.objectContaining({ Field: 'MaxStayMinutes', Message: 'validation.max' })]);
      const r = await p.call('/Bluetooth/AddBeaconLocationInfo', { ...base, MaxStayMinutes: 30 }, agent);
      expect(r.body.State).toBe(200);
      bathroom = r.body.LocationId as number;
      const listed = await p.call('/Bluetooth/allBeaconLocationList', { Name: 'Bathroom' }, agent);
      expect(listed.body.Items[0]).toMatchObject({ LocationId: bathroom, MaxStayMinutes: 30 });
    });

    it('raises past the maximum stay (31 min, not 29), once, and clears on leaving', async () => {
      const t = Date.now() - 29.5 * MIN;
      await at(resident, t - 1000, 1); // corridor
      await at(resident, t, 4); // in
      await at(resident, t + 1000, 5); // confirmed, dated t
      await watch().checkStays(t + 29 * MIN);
      const stays = () =>
        p.deps.database.query<{ id: number; message_key: string; message_params: Record<string, unknown>; cleared_at: Date | null; created_at: Date }>(
          `SELECT id, message_key, message_params, cleared_at, created_at FROM alarms WHERE device_id = $1 AND type = $2 ORDER BY id`,
          [resident.id, C.stayedTooLong],
        );
      expect(await stays()).toEqual([]);

      await watch().checkStays(t + 31 * MIN);
      await engineOf(p).idle();
      await watch().checkStays(t + 32 * MIN);
      const [a, ...more] = await stays();
      expect(more).toEqual([]);
      expect(a).toMatchObject({ message_key: 'alarm.msg.stayedTooLong', message_params: { location: 'Bathroom', locationId: bathroom, minutes: 30 }, cleared_at: null });
      const en = (await records(agent, { Type: C.stayedTooLong, DeviceId: resident.id }, 'en')).Items[0]!;
      expect(en.Message).toBe('In Bathroom for over 30 minutes');
      const zh = (await records(agent, { Type: C.stayedTooLong, DeviceId: resident.id }, 'zh-CN')).Items[0]!;
      expect(zh.Message).toBe('在位置 Bathroom 停留超过 30 分钟');

      // Out, now (after the alarm): three positions outside confirm the exit.
      const out = Date.now();
      await at(resident, out, 10);
      await at(resident, out + 100, 11);
      await at(resident, out + 200, 12);
      const [after] = await stays();
      expect(after!.cleared_at).not.toBeNull();
      const tl = await p.call('/AlarmRecord/Timeline', { Id: after!.id }, agent);
      expect((tl.body.Items as { Kind: string }[]).map((e) => e.Kind)).toEqual(['raised', 'cleared']);
      // The neighbour never entered: nothing.
      await watch().checkStays(t + 60 * MIN);
      expect((await records(agent, { Type: C.stayedTooLong, DeviceId: neighbour.id })).Total).toBe(0);
    });

    it('is not seen by another tenant', async () => {
      expect((await records(operator, { Type: C.stayedTooLong })).Total).toBe(0);
      expect((await records(agent, { Type: C.stayedTooLong })).Total).toBe(1);
    });
  });

  describe('no motion inside a watched window', () => {
    let still: TestDevice;
    let later: TestDevice;
    let tz: number;
    const hhmm = (ms: number) => new Date(ms + tz * MIN).toISOString().slice(11, 16);
    const steps = async (d: TestDevice, n: number, at = Date.now()) => {
      const e: HealthEvent = {
        deviceId: d.id,
        imei: d.imei,
        name: d.name,
        accountId: d.accountId,
        accountPath: d.accountPath,
        protocol: 'watch',
        time: new Date(at).toISOString(),
        receivedAt: new Date().toISOString(),
        health: { steps: n },
      };
      p.deps.bus.publish(TOPICS.health, e);
      await engineOf(p).idle();
    };
    const noMotion = (d: TestDevice) =>
      p.deps.database.query<{ id: number; message_key: string; message_params: Record<string, unknown>; cleared_at: Date | null }>(
        `SELECT id, message_key, message_params, cleared_at FROM alarms WHERE device_id = $1 AND type = $2 ORDER BY id`,
        [d.id, C.noMotion],
      );

    beforeAll(async () => {
      still = await addDevice(p, 'clinic01', '865000000065001', 'Bed 3');
      later = await addDevice(p, 'clinic01', '865000000065002', 'Bed 4');
      const [a] = await p.deps.database.query<{ tz: number }>(`SELECT time_zone_offset AS tz FROM accounts WHERE id = $1`, [still.accountId]);
      tz = Number(a!.tz);
    });

    it('takes minutes and a window per device, bounded', async () => {
      const now = Date.now();
      const bad = await p.call('/ExceptionMessage/actionThresholdValue', { DeviceId: still.id, noMotionMinutes: 2 }, agent, { 'accept-language': 'en' });
      expect(bad.body.Fields).toEqual([expect.objectContaining({ Field: 'noMotionMinutes', Message: 'validation.min' })]);
      const all = [0, 1, 2, 3, 4, 5, 6];
      const r = await p.call(
        '/ExceptionMessage/actionThresholdValue',
        { DeviceId: still.id, noMotionMinutes: 30, noMotionSchedule: { Days: all, Windows: [{ Start: hhmm(now - 120 * MIN), End: hhmm(now + 120 * MIN) }] } },
        agent,
      );
      expect(r.body).toMatchObject({ State: 200, Item: { noMotionMinutes: 30, noMotionSchedule: { Days: all } } });
      // The other's window opens in three hours.
      const r2 = await p.call(
        '/ExceptionMessage/actionThresholdValue',
        { DeviceId: later.id, noMotionMinutes: 30, noMotionSchedule: { Days: all, Windows: [{ Start: hhmm(now + 180 * MIN), End: hhmm(now + 240 * MIN) }] } },
        agent,
      );
      expect(r2.body.State).toBe(200);
    });

    it('raises once after the minutes without motion inside the window, not outside it, and clears on motion', async () => {
      const t = Date.now();
      await steps(still, 100, t);
      await steps(later, 500, t);
      expect(await engineOf(p).checkNoMotion(t + 29 * MIN)).toEqual([]);
      const raised = await engineOf(p).checkNoMotion(t + 31 * MIN);
      expect(raised.map((a) => a.code)).toEqual([C.noMotion]);
      expect(await engineOf(p).checkNoMotion(t + 45 * MIN)).toEqual([]);
      const [a, ...more] = await noMotion(still);
      expect(more).toEqual([]);
      expect(a).toMatchObject({ message_key: 'alarm.msg.noMotion', message_params: { minutes: 30 }, cleared_at: null });
      expect(await noMotion(later)).toEqual([]);
      expect((await records(agent, { Type: C.noMotion, DeviceId: still.id }, 'en')).Items[0]!.Message).toBe('No motion for 30 minutes');
      expect((await records(agent, { Type: C.noMotion, DeviceId: still.id }, 'zh-CN')).Items[0]!.Message).toBe('已 30 分钟无活动');

      // The same step count is no motion; more steps are.
      await steps(still, 100);
      expect((await noMotion(still))[0]!.cleared_at).toBeNull();
      await steps(still, 140);
      expect((await noMotion(still))[0]!.cleared_at).not.toBeNull();

      // Inside the other's window, 30 minutes after it opened.
      expect(await engineOf(p).checkNoMotion(t + 200 * MIN)).toEqual([]);
      expect((await engineOf(p).checkNoMotion(t + 211 * MIN)).length).toBe(1);
      expect((await noMotion(later)).length).toBe(1);
    });

    it('is not seen by another tenant', async () => {
      expect((await records(operator, { Type: C.noMotion })).Total).toBe(0);
      expect((await records(agent, { Type: C.noMotion })).Total).toBe(2);
    });
  });
});
