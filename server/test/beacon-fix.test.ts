// Beacon-assisted positioning: the loudest registered beacon with a place is chosen and its RSSI
// gives the accuracy; a recent GNSS fix or indoor solution wins over it. Through the real uplink: a
// wearable hearing a registered beacon is placed at it (method 5 "beacon", no scene), and not once a
// GNSS fix is recent; the console's device tracking names the fix.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BEACON_FIX_MAX_M, BEACON_FIX_MIN_M, BETTER_FIX_MS, betterFixRecent, chooseBeacon, type PlacedBeacon } from '../src/rules/beacon-fix.js';
import { indoorPositionings } from '../src/modules/indoor/service.js';
import { rows } from '../src/lib/sql.js';
import { addDevice } from './alarm-fixtures.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe('choosing the beacon', () => {
  const registry = new Map<string, PlacedBeacon>([
    ['mac:aa', { id: 1, lat: 22.5, lon: 113.9 }],
    ['mac:bb', { id: 2, lat: 22.6, lon: 114.0 }],
  ]);
  it('takes the loudest registered beacon with a place and ignores unknown ones', () => {
    const f = chooseBeacon([{ key: 'mac:aa', rssi: -80 }, { key: 'mac:cc', rssi: -40 }, { key: 'mac:bb', rssi: -62 }], registry);
    expect(f).toMatchObject({ beaconId: 2, lat: 22.6, lon: 114.0 });
    expect(chooseBeacon([{ key: 'mac:cc', rssi: -40 }], registry)).toBeNull();
    expect(chooseBeacon([], registry)).toBeNull();
  });
  it('gives an accuracy from the RSSI, bounded', () => {
    const near = chooseBeacon([{ key: 'mac:aa', rssi: -55 }], registry)!;
    const mid = chooseBeacon([{ key: 'mac:aa', rssi: -80 }], registry)!;
    const far = chooseBeacon([{ key: 'mac:aa', rssi: -110 }], registry)!;
    expect(near.accuracy).toBe(BEACON_FIX_MIN_M);
    expect(mid.accuracy).toBeGreaterThan(BEACON_FIX_MIN_M);
    expect(mid.accuracy).toBeLessThan(BEACON_FIX_MAX_M);
    expect(far.accuracy).toBe(BEACON_FIX_MAX_M);
  });
  it('a recent GNSS fix or indoor solution wins; an old one does not', () => {
    const now = 1_000_000_000;
    expect(betterFixRecent(undefined, now)).toBe(false);
    expect(betterFixRecent({}, now)).toBe(false);
    expect(betterFixRecent({ gnss: now - 10_000 }, now)).toBe(true);
    expect(betterFixRecent({ indoor: now - BETTER_FIX_MS + 1000 }, now)).toBe(true);
    expect(betterFixRecent({ gnss: now - BETTER_FIX_MS - 1, indoor: now - 3_600_000 }, now)).toBe(false);
  });
});

describe.each(databases())('beacon fixes through the uplink on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let url: string;
  let token: string;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
    await p.deps.database.db.execute(sql`UPDATE accounts SET user_type = 3 WHERE login_name = 'agent01'`);
    agent = (await p.login('agent01')).token;
    token = (await p.call('/Integration/Save', { Name: 'beacon-fix' }, agent)).body.Token;
    url = `${p.url}/api/ingest/beacon-fix`;
  });
  afterAll(() => p?.stop());

  const post = async (body: unknown) => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    expect(res.status, await res.text()).toBe(200);
    await indoorPositionings.get(p.deps)!.settled();
  };
  const positions = (id: number) =>
    rows<{ lat: number; lon: number; accuracy: number; method: number | null; scene_id: number | null }>(
      p.deps.database.db,
      sql`SELECT lat, lon, accuracy, method, scene_id FROM positions WHERE device_id = ${id} ORDER BY time`,
    );

  it('places a wearable hearing a registered beacon at it, unless a GNSS fix is recent', async () => {
    expect((await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'ac:23:3f:b0:00:01', Name: '大门', Type: 1, Lat: 22.5431, Lon: 113.9502 }, agent)).status).toBe(200);
    expect((await p.call('/Bluetooth/addBTDeviceInfoMac', { Mac: 'ac:23:3f:b0:00:02', Name: '无坐标', Type: 1 }, agent)).status).toBe(200);
    await indoorPositionings.get(p.deps)!.reload();
    const d = await addDevice(p, 'clinic01', '865300000000001', '外出老人');
    const t = Date.now() - 60_000;
    // Only the beacon without a place is heard: nothing.
    await post({ imei: d.imei, time: new Date(t).toISOString(), beacons: [{ mac: 'AC233FB00002', rssi: -50 }] });
    expect(await positions(d.id)).toEqual([]);
    await post({ imei: d.imei, time: new Date(t + 1000).toISOString(), beacons: [{ mac: 'AC233FB00002', rssi: -50 }, { mac: 'AC233FB00001', rssi: -85 }] });
    const [fix] = await positions(d.id);
    expect(fix).toMatchObject({ method: 5, scene_id: null });
    expect([Number(fix!.lat), Number(fix!.lon)]).toEqual([22.5431, 113.9502]);
    expect(Number(fix!.accuracy)).toBeGreaterThan(5);
    expect(Number(fix!.accuracy)).toBeLessThanOrEqual(50);
    // The console's device tracking names the fix.
    const tracked = (await p.call('/device/deviceTracking', { DeviceId: d.id, Minutes: 60 }, agent)).body;
    expect(tracked.Fix).toEqual({ Method: 'beacon', Accuracy: Number(fix!.accuracy) });

    // A GNSS fix arrives: the next scan does not place it at the beacon.
    await post({ imei: d.imei, time: new Date(t + 2000).toISOString(), lat: 22.55, lon: 113.96 });
    await post({ imei: d.imei, time: new Date(t + 3000).toISOString(), beacons: [{ mac: 'AC233FB00001', rssi: -60 }] });
    expect((await positions(d.id)).map((x) => x.method)).toEqual([5, null]);
    expect((await p.call('/device/deviceTracking', { DeviceId: d.id, Minutes: 60 }, agent)).body.Fix).toMatchObject({ Method: 'gnss' });
  });
});
