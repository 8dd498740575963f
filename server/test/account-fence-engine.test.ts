// Account fences on committed positions: walks sent as OsmAnd requests through the real ingest
// path, evaluated by the fence engine, alarms raised by the alarm engine. Debounced sides (two fixes
// or 60 s), the first side taken without alarm, schedules in the owner's time zone, poor fixes
// ignored, crossings and first sightings stored, devices marked for attendance.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C } from '@wt/contract';
import { fenceEngines } from '../src/modules/fence/engine.js';
import { rows } from '../src/lib/sql.js';
import { addDevice, engineOf, type TestDevice } from './alarm-fixtures.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

const HOME = { Lat: 22.5405, Lon: 113.9345 };
const north = (meters: number) => HOME.Lat + (meters / 6_371_008.8) * (180 / Math.PI);
/** A Monday, 09:00 in UTC+8. */
const MONDAY_9 = Date.parse('2026-03-02T01:00:00Z');
const SQUARE = [
  { Lat: north(-300), Lon: HOME.Lon - 0.003 },
  { Lat: north(-300), Lon: HOME.Lon + 0.003 },
  { Lat: north(300), Lon: HOME.Lon + 0.003 },
  { Lat: north(300), Lon: HOME.Lon - 0.003 },
];

describe.each(databases())('account fence engine on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let ids: { agent: number; clinic: number };
  let n = 0;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    const g = await p.login('agent01');
    agent = g.token;
    ids = { agent: g.userId, clinic: (await p.login('clinic01')).userId };
  });
  afterAll(() => p?.stop());

  const device = () => addDevice(p, 'clinic01', `86500000000${9100 + ++n}`, `W${n}`);
  const settle = async () => {
    await fenceEngines.get(p.deps)!.idle();
    await engineOf(p).idle();
  };
  /** One OsmAnd position, committed and evaluated. */
  const at = async (d: TestDevice, time: number, lat: number, extra: Record<string, string> = {}) => {
    const q = new URLSearchParams({ id: d.imei, lat: String(lat), lon: String(HOME.Lon), timestamp: String(time / 1000), ...extra });
    const res = await fetch(`${p.url}/osmand?${q}`);
    expect(res.status).toBe(200);
    await settle();
  };
  const fence = async (body: Record<string, unknown>) => {
    const r = await p.call('/Geofence/CreateGeofence', { Name: '康宁院区', UserIds: [ids.agent], IncludeChildren: true, AlarmType: 3, Type: 'circle', ...HOME, Radius: 200, ...body }, agent);
    expect(r.status).toBe(200);
    return r.body.Item.FenceId as number;
  };
  const drop = (id: number) => p.call('/Geofence/DelGeofenceByUserCustom', { FenceIds: [id] }, agent);
  const transitions = (fenceId: number, d: TestDevice) =>
    rows<{ inside: boolean; time: Date; confirmed_at: Date; initial: boolean; alarmed: boolean }>(
      p.deps.database.db,
      sql`SELECT inside, time, confirmed_at, initial, alarmed FROM account_fence_transitions WHERE fence_id = ${fenceId} AND device_id = ${d.id} ORDER BY id`,
    ).then((r) => r.map((t) => ({ inside: t.inside, time: new Date(t.time).getTime(), confirmedAt: new Date(t.confirmed_at).getTime(), initial: t.initial, alarmed: t.alarmed })));
  const alarms = async (d: TestDevice) => {
    const r = await p.call('/ExceptionMessage/allExceptionMsgPage', { Imei: d.imei, Type: [C.accountFenceIn, C.accountFenceOut], PageCount: 50 }, agent, { 'accept-language': 'zh-CN' });
    return r.body.Items as { Type: number; Message: string; Count: number }[];
  };
  const state = async (fenceId: number, d: TestDevice) =>
    (await rows<{ inside: boolean; since: Date; pending_count: number }>(p.deps.database.db, sql`SELECT inside, since, pending_count FROM account_fence_state WHERE fence_id = ${fenceId} AND device_id = ${d.id}`))[0];

  it('raises one alarm 23 naming the fence when a wearer leaves, dated by the first fix outside', async () => {
    const f = await fence({});
    const d = await device();
    const t = MONDAY_9;
    await at(d, t, north(0)); // first sighting: inside, no alarm
    await at(d, t + 10_000, north(50));
    await at(d, t + 20_000, north(400)); // a candidate crossing
    expect(await alarms(d)).toEqual([]);
    await at(d, t + 30_000, north(500)); // the second fix outside confirms it
    await at(d, t + 40_000, north(600));
    expect(await transitions(f, d)).toEqual([
      { inside: true, time: t, confirmedAt: t, initial: true, alarmed: false },
      { inside: false, time: t + 20_000, confirmedAt: t + 30_000, initial: false, alarmed: true },
    ]);
    const raised = await alarms(d);
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ Type: C.accountFenceOut, Count: 1 });
    expect(raised[0]!.Message).toContain('康宁院区');
    expect(await state(f, d)).toMatchObject({ inside: false, pending_count: 0 });
    expect(new Date((await state(f, d))!.since).getTime()).toBe(t + 20_000);
    // Marked for the attendance job from its first position on; a late (buffered) one moves it back.
    await p.deps.database.db.execute(sql`SELECT 1`);
    const dirty = async () => new Date((await rows<{ since: Date }>(p.deps.database.db, sql`SELECT since FROM attendance_dirty WHERE device_id = ${d.id}`))[0]!.since).getTime();
    expect(await dirty()).toBe(t);
    await at(d, t - 3_600_000, north(0));
    expect(await dirty()).toBe(t - 3_600_000);
    // The late fix changed no side.
    expect(await transitions(f, d)).toHaveLength(2);
    await drop(f);
  });

  it('raises nothing for single fixes jittering across the edge', async () => {
    const f = await fence({});
    const d = await device();
    let t = MONDAY_9;
    for (let i = 0; i < 4; i++) {
      await at(d, (t += 10_000), north(190));
      await at(d, (t += 10_000), north(215)); // one fix outside, then back
    }
    expect(await alarms(d)).toEqual([]);
    expect((await transitions(f, d)).map((x) => x.initial)).toEqual([true]);
    expect(await state(f, d)).toMatchObject({ inside: true, pending_count: 1 });
    await drop(f);
  });

  it('takes the side of a device already inside when the fence is created, without alarm; then an entry alarm 22', async () => {
    const d = await device();
    const t = MONDAY_9;
    await at(d, t, north(10));
    const f = await fence({ AlarmType: 1 });
    await at(d, t + 10_000, north(20));
    expect(await transitions(f, d)).toEqual([{ inside: true, time: t + 10_000, confirmedAt: t + 10_000, initial: true, alarmed: false }]);
    const monitor = await p.call('/device/fenceMonitorByChildUserId', { UserId: ids.clinic, FenceId: f }, agent);
    expect(monitor.body.Items[0].Devices).toEqual([{ DeviceId: d.id, Imei: d.imei, Name: d.name, Since: new Date(t + 10_000).toISOString() }]);
    // Leaving is not alarmed by an "entering" fence; coming back is (the time criterion: 60 s on one fix each).
    await at(d, t + 20_000, north(900));
    await at(d, t + 90_000, north(900));
    await at(d, t + 100_000, north(0));
    await at(d, t + 200_000, north(0));
    expect((await transitions(f, d)).map((x) => [x.inside, x.alarmed])).toEqual([
      [true, false],
      [false, false],
      [true, true],
    ]);
    expect((await alarms(d)).map((a) => a.Type)).toEqual([C.accountFenceIn]);
    await drop(f);
  });

  it('records a crossing outside the schedule without alarm, and alarms one inside it (owner time zone +8)', async () => {
    // Mondays 14:00-18:00 local: 09:00 local is outside, 15:00 inside.
    const f = await fence({ Schedule: { Days: [1], Windows: [{ Start: '14:00', End: '18:00' }] } });
    const d = await device();
    const t = MONDAY_9;
    await at(d, t, north(0));
    await at(d, t + 10_000, north(500));
    await at(d, t + 20_000, north(500));
    expect(await transitions(f, d)).toMatchObject([{ initial: true }, { inside: false, alarmed: false }]);
    const t15 = t + 6 * 3_600_000;
    await at(d, t15, north(0));
    await at(d, t15 + 10_000, north(0));
    await at(d, t15 + 20_000, north(500));
    await at(d, t15 + 30_000, north(500));
    expect((await transitions(f, d)).map((x) => x.alarmed)).toEqual([false, false, true, true]);
    expect((await alarms(d)).map((a) => a.Type).sort()).toEqual([C.accountFenceIn, C.accountFenceOut].sort());
    await drop(f);
  });

  it('ignores fixes poorer than the accuracy threshold (LBS at 500 m)', async () => {
    const f = await fence({});
    const d = await device();
    const t = MONDAY_9;
    await at(d, t, north(0), { accuracy: '20' });
    for (let i = 1; i <= 4; i++) await at(d, t + i * 30_000, north(2000), { accuracy: '500' });
    expect(await state(f, d)).toMatchObject({ inside: true, pending_count: 0 });
    expect(await transitions(f, d)).toHaveLength(1);
    expect(await alarms(d)).toEqual([]);
    await drop(f);
  });

  it('evaluates a drawn polygon, and forgets the sides when its shape changes', async () => {
    const f = await fence({ Type: 'polygon', Points: SQUARE, AlarmType: 2 });
    const d = await device();
    const t = MONDAY_9;
    await at(d, t, north(250));
    await at(d, t + 10_000, north(350));
    await at(d, t + 20_000, north(360));
    expect((await alarms(d)).map((a) => a.Type)).toEqual([C.accountFenceOut]);
    // A larger square: the next fix is a first sighting again.
    const larger = SQUARE.map((q) => ({ Lat: HOME.Lat + (q.Lat - HOME.Lat) * 2, Lon: q.Lon }));
    const r = await p.call('/Geofence/updateGeofenceMonitorCustom', { FenceId: f, Name: '康宁院区', UserIds: [ids.agent], IncludeChildren: true, AlarmType: 2, Type: 'polygon', Points: larger }, agent);
    expect(r.status).toBe(200);
    expect(await state(f, d)).toBeUndefined();
    await at(d, t + 30_000, north(370));
    expect((await transitions(f, d)).slice(-1)).toMatchObject([{ inside: true, initial: true, alarmed: false }]);
    // A device of an account the fence does not watch is not evaluated.
    const elsewhere = await addDevice(p, 'operator01', '865000000009199');
    await at(elsewhere, t, north(0));
    expect(await transitions(f, elsewhere)).toEqual([]);
    await drop(f);
  });

  it('evaluates a county boundary (南山区 440305): leaving it eastwards for 福田区 raises alarm 23', async () => {
    const f = await fence({ Type: 'district', DistrictCode: '440305', AlarmType: 2 });
    const d = await device();
    const t = MONDAY_9;
    await at(d, t, HOME.Lat, { lon: '113.98' });
    await at(d, t + 10_000, HOME.Lat, { lon: '114.01' });
    await at(d, t + 20_000, HOME.Lat, { lon: '114.02' });
    expect((await transitions(f, d)).map((x) => [x.inside, x.initial, x.alarmed])).toEqual([
      [true, true, false],
      [false, false, true],
    ]);
    const raised = await alarms(d);
    expect(raised.map((a) => a.Type)).toEqual([C.accountFenceOut]);
    expect(raised[0]!.Message).toContain('康宁院区');
    await drop(f);
  });
});
