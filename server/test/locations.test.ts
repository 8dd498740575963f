// Locations: the calls with good and bad input and the subtree scope; a simulated walk (indoor
// positions committed through the ingest pipeline) into and out of a zone drawn on a floor plan
// raises "entered" and "left" once each with the location's name, a doorway does not, the live
// detail lists who is inside and today's entries and exits; a beacon-defined location is entered
// when its beacon hears the tag and left on the silence; a pending alarm left by a crash is raised.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C } from '@wt/contract';
import type { DeviceMessage } from '@wt/protocols';
import { locationWatches } from '../src/modules/location/watch.js';
import { rows } from '../src/lib/sql.js';
import { addDevice, engineOf, type TestDevice } from './alarm-fixtures.js';
import { positionTenants, sceneWithFloor } from './position-fixtures.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

type Fields = { Fields?: { Field: string; Message: string }[] };
const ROOM: [number, number][] = [[2, 2], [8, 2], [8, 6], [2, 6]];

describe.each(databases())('locations on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let operator: string;
  let floorId: number;
  let sceneId: number;
  let n = 0;
  const fields = (body: Fields) => (body.Fields ?? []).map((f) => [f.Field, f.Message]);

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    ({ agent, operator } = await positionTenants(p));
    ({ sceneId, floorId } = await sceneWithFloor(p, agent, '护理楼', { no: 1, name: '一楼', description: '大厅' }));
  });
  afterAll(() => p?.stop());

  const device = () => addDevice(p, 'clinic01', `86510000000${1000 + ++n}`, `住户${n}`);
  const settle = async () => {
    await locationWatches.get(p.deps)!.settled();
    await engineOf(p).idle();
  };
  /** One indoor position, committed through the pipeline and evaluated. */
  const at = async (d: TestDevice, time: number, x: number, y = 4, floor = floorId) => {
    const t = new Date(time);
    const m: DeviceMessage = {
      deviceId: d.imei,
      protocol: 'uplink',
      kind: 'position',
      type: 'indoor',
      time: t,
      fix: { time: t, valid: true, lat: 22.54, lon: 113.93, accuracy: 1.5, indoor: { sceneId, floorId: floor, x, y, method: 'trilateration' } },
    };
    await p.deps.ingest.ingest([m], { transport: 'indoor', remote: 'test', mode: 'short' });
    await settle();
  };
  const alarms = async (d: TestDevice) => {
    const r = await p.call('/ExceptionMessage/allExceptionMsgPage', { Imei: d.imei, Type: [C.locationIn, C.locationOut], PageCount: 50 }, agent, { 'accept-language': 'en' });
    return (r.body.Items as { Type: number; Message: string; Count: number }[]).map((a) => [a.Type, a.Message, a.Count]).sort();
  };
  const zone = (extra: Record<string, unknown> = {}) => ({ Name: `活动室${++n}`, Event: 2, Kind: 1, FloorId: floorId, Points: ROOM, ...extra });

  it('refuses bad input naming the field', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [zone({ Name: ' ' }), 'Name', 'location.nameRequired'],
      [zone({ Event: 3 }), 'Event', 'location.eventInvalid'],
      [zone({ Kind: undefined }), 'Kind', 'location.kindRequired'],
      [zone({ FloorId: undefined }), 'FloorId', 'location.floorRequired'],
      [zone({ Points: [[1, 1], [2, 2]] }), 'Points', 'location.pointsRequired'],
      [zone({ Points: [[1, 1], [2, 2], [1e6, 3]] }), 'Points.2.0', 'validation.max'],
      [zone({ Kind: 2, BeaconIds: [] }), 'BeaconIds', 'location.beaconsRequired'],
      [zone({ Kind: 2, BeaconIds: [999999] }), 'BeaconIds', 'location.beaconNotFound'],
      [zone({ DeviceIds: [999999] }), 'DeviceIds', 'location.deviceNotFound'],
      [zone({ Schedule: { Days: [], Windows: [] } }), 'Schedule.Days', 'accountFence.daysRequired'],
    ];
    for (const [body, field, key] of cases) {
      const r = await p.call('/Bluetooth/AddBeaconLocationInfo', body, agent);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(fields(r.body), JSON.stringify(body)).toContainEqual([field, key]);
    }
    // Another tenant's floor is "not found" for the sibling.
    const foreign = await p.call('/Bluetooth/AddBeaconLocationInfo', zone(), operator);
    expect(fields(foreign.body)).toEqual([['FloorId', 'scene.floorNotFound']]);
    expect(Number((await rows<{ n: number }>(p.deps.database.db, sql`SELECT count(*)::int AS n FROM beacon_locations`))[0]!.n)).toBe(0);
  });

  it('creates, lists, edits, switches off and deletes a location in the subtree only', async () => {
    const made = await p.call('/Bluetooth/AddBeaconLocationInfo', zone({ Name: '餐厅', Description: '一楼餐厅', Event: 1 }), agent);
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const id = made.body.LocationId as number;
    const dup = await p.call('/Bluetooth/AddBeaconLocationInfo', zone({ Name: '餐厅' }), agent);
    expect([dup.status, dup.body.Message]).toEqual([409, 'location.nameExists']);
    const listed = await p.call('/Bluetooth/allBeaconLocationList', { Name: '餐' }, agent);
    expect(listed.body.Items[0]).toMatchObject({ LocationId: id, Name: '餐厅', Description: '一楼餐厅', Event: 1, Kind: 1, FloorId: floorId, FloorName: '一楼', SceneId: sceneId, Points: ROOM, Status: 1, Inside: 0 });
    const edited = await p.call('/Bluetooth/updateBeaconLocationInfo', zone({ LocationId: id, Name: '餐厅', Event: 2 }), agent);
    expect(edited.status).toBe(200);
    // The sibling: not found everywhere.
    expect((await p.call('/Bluetooth/allBeaconLocationList', {}, operator)).body.Total).toBe(0);
    const theirs = await p.call('/Bluetooth/updateBeaconLocationInfo', { ...zone({ LocationId: id }), FloorId: undefined, Kind: 2, BeaconIds: [1] }, operator);
    expect([theirs.status, theirs.body.Message]).toEqual([404, 'location.notFound']);
    expect((await p.call('/BeaconLocation/Detail', { LocationId: id }, operator)).body.Message).toBe('location.notFound');
    expect((await p.call('/Bluetooth/updateBeaconLocationStatus', { LocationIds: [id], Status: 2 }, operator)).body).toMatchObject({ Succeeded: 0, Failed: [{ Message: 'location.notFound' }] });
    expect((await p.call('/Bluetooth/updateBeaconLocationStatus', { LocationIds: [id], Status: 2 }, agent)).body).toMatchObject({ Succeeded: 1 });
    expect((await p.call('/Bluetooth/allBeaconLocationList', { Status: 2 }, agent)).body.Total).toBe(1);
    expect((await p.call('/BeaconLocation/Delete', { LocationIds: [id] }, agent)).body).toMatchObject({ Succeeded: 1, Failed: [] });
  });

  it('a walk into and out of a zone raises "entered" and "left" once each, naming it; a doorway raises nothing', async () => {
    const loc = (await p.call('/Bluetooth/AddBeaconLocationInfo', zone({ Name: 'Day room' }), agent)).body.LocationId as number;
    const d = await device();
    const other = await device();
    const t = Date.now() - 120_000;
    await at(d, t, 1); // corridor
    await at(d, t + 1000, 3); // a first step inside
    expect(await alarms(d)).toEqual([]);
    await at(d, t + 2000, 4); // the second confirms the entry
    await at(d, t + 3000, 5);
    expect(await alarms(d)).toEqual([[C.locationIn, 'Entered location Day room', 1]]);

    // The other resident stands in the doorway (x = 2 is the wall): nothing.
    for (let i = 0; i < 12; i++) await at(other, t + 1000 * i, i % 2 ? 2.1 : 1.9);
    expect(await alarms(other)).toEqual([]);

    const detail = await p.call('/BeaconLocation/Detail', { LocationId: loc }, agent);
    expect(detail.body.Inside.map((x: { Imei: string; Since: string; X: number }) => [x.Imei, Date.parse(x.Since), x.X])).toEqual([[d.imei, t + 1000, 5]]);
    expect((await p.call('/Bluetooth/allBeaconLocationList', { Name: 'Day' }, agent)).body.Items[0].Inside).toBe(1);

    // Out: three positions outside (one of them on another floor).
    await at(d, t + 4000, 9);
    await at(d, t + 5000, 10);
    await at(d, t + 6000, 4, 4, floorId + 1000);
    await at(d, t + 7000, 11);
    expect(await alarms(d)).toEqual([
      [C.locationIn, 'Entered location Day room', 1],
      [C.locationOut, 'Left location Day room', 1],
    ]);
    const after = await p.call('/BeaconLocation/Detail', { LocationId: loc }, agent);
    expect(after.body).toMatchObject({ Inside: [], EntriesToday: 1, ExitsToday: 1 });
    expect(after.body.Events.map((e: { Inside: boolean; Time: string }) => [e.Inside, Date.parse(e.Time)])).toEqual([
      [false, t + 4000],
      [true, t + 1000],
    ]);
    await p.call('/BeaconLocation/Delete', { LocationIds: [loc] }, agent);
  });

  it('alarms on entering only when the location asks for that', async () => {
    const loc = (await p.call('/Bluetooth/AddBeaconLocationInfo', zone({ Name: 'Office', Event: 1 }), agent)).body.LocationId as number;
    const d = await device();
    const t = Date.now() - 60_000;
    for (const [i, x] of [1, 3, 4, 9, 10, 11].entries()) await at(d, t + i * 1000, x);
    expect(await alarms(d)).toEqual([[C.locationIn, 'Entered location Office', 1]]);
    await p.call('/BeaconLocation/Delete', { LocationIds: [loc] }, agent);
  });

  it('a beacon-defined location is entered when its beacon hears the tag, and left on the silence', async () => {
    const beacon = (await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'AC:23:3F:C0:00:01', Name: 'Nurse desk' }, agent)).body.BeaconId as number;
    const loc = (await p.call('/Bluetooth/AddBeaconLocationInfo', { Name: 'Nurse desk', Event: 2, Kind: 2, BeaconIds: [beacon] }, agent)).body.LocationId as number;
    const d = await device();
    await settle();
    const heard = async (time: number, gateway: string) => {
      const t = new Date(time);
      await p.deps.ingest.ingest([{ deviceId: d.imei, protocol: 'uplink', kind: 'beacon', type: 'gateway', time: t, beacon: { kind: 'ble', gatewayId: gateway, beacons: [{ rssi: -60 }] } }], { transport: 'indoor', remote: 'test', mode: 'short' });
      await settle();
    };
    const t = Date.now();
    await heard(t - 3000, 'ac233fc00001');
    await heard(t - 2000, 'AC:23:3F:C0:99:99'); // another gateway: says nothing
    await heard(t - 1000, 'ac-23-3f-c0-00-01');
    expect(await alarms(d)).toEqual([[C.locationIn, 'Entered location Nurse desk', 1]]);
    locationWatches.get(p.deps)!.sweep(t + 60_000);
    await settle();
    expect(await alarms(d)).toEqual([
      [C.locationIn, 'Entered location Nurse desk', 1],
      [C.locationOut, 'Left location Nurse desk', 1],
    ]);
    await p.call('/BeaconLocation/Delete', { LocationIds: [loc] }, agent);
  });

  it('a location changed starts afresh: nobody is inside until seen again', async () => {
    const loc = (await p.call('/Bluetooth/AddBeaconLocationInfo', zone({ Name: 'Lounge', Event: 1 }), agent)).body.LocationId as number;
    const d = await device();
    const t = Date.now() - 60_000;
    for (const [i, x] of [1, 3, 4].entries()) await at(d, t + i * 1000, x);
    expect((await p.call('/BeaconLocation/Detail', { LocationId: loc }, agent)).body.Inside).toHaveLength(1);
    await p.call('/Bluetooth/updateBeaconLocationInfo', zone({ LocationId: loc, Name: 'Lounge', Event: 1, Description: 'moved' }), agent);
    await settle();
    expect((await p.call('/BeaconLocation/Detail', { LocationId: loc }, agent)).body.Inside).toEqual([]);
    await at(d, t + 10_000, 4);
    await at(d, t + 11_000, 5);
    expect((await p.call('/BeaconLocation/Detail', { LocationId: loc }, agent)).body.Inside).toHaveLength(1);
    expect(await alarms(d)).toEqual([[C.locationIn, 'Entered location Lounge', 2]]);
    await p.call('/BeaconLocation/Delete', { LocationIds: [loc] }, agent);
  });

  it('raises an alarm a crash left pending, once', async () => {
    const loc = (await p.call('/Bluetooth/AddBeaconLocationInfo', zone({ Name: 'Garden' }), agent)).body.LocationId as number;
    const d = await device();
    await p.deps.database.db.execute(sql`INSERT INTO beacon_location_events (location_id, device_id, inside, time, pending) VALUES (${loc}, ${d.id}, true, now() - interval '1 minute', true)`);
    await locationWatches.get(p.deps)!.replay();
    await settle();
    await locationWatches.get(p.deps)!.replay();
    await settle();
    expect(await alarms(d)).toEqual([[C.locationIn, 'Entered location Garden', 1]]);
    const left = await rows<{ n: number }>(p.deps.database.db, sql`SELECT count(*)::int AS n FROM beacon_location_events WHERE pending`);
    expect(Number(left[0]!.n)).toBe(0);
  });
});
