// Alarm conditions on each database: overspeed after consecutive fixes above the device's speed
// limit (never on a single spike) and cleared under it; staying too long in a location, raised past
// its maximum stay and cleared on leaving. Each alarm is stored as a message key with parameters,
// rendered in the reader's language, and seen only in its device's subtree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C } from '@wt/contract';
import { TOPICS, type PositionEvent } from '../src/pipeline/events.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, engineOf, type TestDevice } from './alarm-fixtures.js';

describe.each(databases())('alarm conditions on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let operator: string;
  let car: TestDevice; // under clinic01, below agent01
  let steady: TestDevice; // same owner, no speed limit of its own: inherits none
  let t0: number;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { ALARM_OVERSPEED_FIXES: '2', ALARM_REPEAT_WINDOW_SECONDS: '600' });
    agent = (await p.login('agent01')).token;
    operator = (await p.login('operator01')).token;
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
});
