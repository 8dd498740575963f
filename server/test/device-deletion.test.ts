// Deleting a device (SPEC §4, §8): refused while it is a beacon placed on a floor plan or a location
// made of beacons or drawn on a floor names it, with the messages of §8; otherwise everything that
// hangs on it goes in the same transaction. The orphan check walks the schema: every column that
// refers to a device (named like device_id, device_ids or imei) is looked at, so a new table is
// covered without touching this test.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../src/lib/sql.js';
import { addDevice, type TestDevice } from './alarm-fixtures.js';
import { positionTenants, sceneWithFloor } from './position-fixtures.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

const ROOM: [number, number][] = [[2, 2], [8, 2], [8, 6], [2, 6]];
const CODE = 'E2C56DB5DFFB48D2B060D0F5A71096E0';

/**
 * Tables that keep an IMEI as the record of something that happened (a sale, a stock item, a push or
 * notice sent): the record stays when the device goes, by design. Any other column naming a device
 * must not name a deleted one.
 */
const RECORDS_BY_IMEI = new Set(['erp_sale_devices', 'inv_items', 'push_outbox', 'push_attempts', 'notice_outbox']);

interface DeviceColumn {
  table: string;
  column: string;
  array: boolean;
}

/** Every column of a table (not a partition) of the schema that refers to a device. */
async function deviceColumns(p: TestPlatform): Promise<DeviceColumn[]> {
  const found = await rows<{ table: string; column: string; type: string }>(
    p.deps.database.db,
    sql`SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS type
          FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND a.attnum > 0 AND NOT a.attisdropped
           AND c.relname <> 'devices'
           AND (a.attname IN ('imei', 'device_id', 'device_ids') OR a.attname LIKE '%\\_device\\_id' OR a.attname LIKE '%\\_device\\_ids')
         ORDER BY 1, 2`,
  );
  return found.map((r) => ({ table: r.table, column: r.column, array: r.type.endsWith('[]') }));
}

/** Rows of each device column that name a device that does not exist (by id) or the IMEIs given. */
async function orphans(p: TestPlatform, columns: DeviceColumn[], goneImeis: string[]) {
  const out: Record<string, number> = {};
  for (const c of columns) {
    const t = sql.identifier(c.table);
    const col = sql.identifier(c.column);
    let q;
    if (c.column === 'imei') {
      if (RECORDS_BY_IMEI.has(c.table)) continue;
      q = sql`SELECT count(*)::int AS n FROM ${t} WHERE ${col} = ANY(${`{${goneImeis.join(',')}}`}::text[])`;
    } else if (c.array) {
      q = sql`SELECT count(*)::int AS n FROM ${t} x CROSS JOIN LATERAL unnest(x.${col}) AS u(id) WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.id = u.id)`;
    } else {
      q = sql`SELECT count(*)::int AS n FROM ${t} x WHERE x.${col} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.id = x.${col})`;
    }
    const n = Number((await rows<{ n: number }>(p.deps.database.db, q))[0]!.n);
    if (n) out[`${c.table}.${c.column}`] = n;
  }
  return out;
}

describe.each(databases())('deleting devices on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let floorId: number;
  let n = 0;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    ({ agent } = await positionTenants(p));
    ({ floorId } = await sceneWithFloor(p, agent, '仓库', { no: 1, name: '一楼', description: '库房' }));
  });
  afterAll(() => p?.stop());

  const device = () => addDevice(p, 'clinic01', `86530000000${1000 + ++n}`, `设备${n}`);
  const del = (d: TestDevice) => p.call('/Device/BatchDelDevices', { Imeis: [d.imei] }, agent);
  const exists = async (d: TestDevice) => (await rows(p.deps.database.db, sql`SELECT 1 FROM devices WHERE id = ${d.id}`)).length === 1;

  it('refuses a device placed as a beacon on a floor plan with deleteHasBeacons until the beacon is taken off', async () => {
    const gateway = await device();
    await p.deps.database.db.execute(sql`UPDATE devices SET ext_id = 'ac233fa08090' WHERE id = ${gateway.id}`);
    const placed = await p.call('/Scene/addBeaconsInfoByMonitor', { FloorId: floorId, Name: 'G', Mac: 'AC:23:3F:A0:80:90', Code: CODE, Major: 1, Minor: 90, Type: 1, X: 1, Y: 1 }, agent);
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const refused = await del(gateway);
    expect(refused.body).toMatchObject({ Succeeded: 0, Failed: [{ Imei: gateway.imei, Message: 'device.deleteHasBeacons' }] });
    expect(await exists(gateway)).toBe(true);
    expect((await p.call('/Bluetooth/removeInnerBT', { BeaconIds: [placed.body.BeaconId] }, agent)).body.Succeeded).toBe(1);
    expect((await del(gateway)).body.Succeeded).toBe(1);
    expect(await exists(gateway)).toBe(false);
  });

  it('refuses a device a floor zone supervises (deleteHasFloors) or a location of beacons does (deleteHasBeacons)', async () => {
    const zoned = await device();
    const beaconed = await device();
    const free = await device();
    const zone = await p.call('/Bluetooth/AddBeaconLocationInfo', { Name: '库房区', Event: 1, Kind: 1, FloorId: floorId, Points: ROOM, DeviceIds: [zoned.id] }, agent);
    expect(zone.status, JSON.stringify(zone.body)).toBe(200);
    const beacon = await p.call('/Bluetooth/addBTDeviceInfoMac', { Name: 'B', Mac: 'AC:23:3F:A0:80:91', Type: 1 }, agent);
    expect(beacon.status, JSON.stringify(beacon.body)).toBe(200);
    const near = await p.call('/Bluetooth/AddBeaconLocationInfo', { Name: '门口', Event: 2, Kind: 2, BeaconIds: [beacon.body.BeaconId], DeviceIds: [beaconed.id] }, agent);
    expect(near.status, JSON.stringify(near.body)).toBe(200);

    const r = await p.call('/Device/BatchDelDevices', { Imeis: [zoned.imei, beaconed.imei, free.imei] }, agent, { 'accept-language': 'en' });
    expect(r.body.Succeeded).toBe(1);
    expect(r.body.Failed).toEqual([
      { Imei: zoned.imei, Message: 'device.deleteHasFloors' },
      { Imei: beaconed.imei, Message: 'device.deleteHasBeacons' },
    ]);
    expect([await exists(zoned), await exists(beaconed), await exists(free)]).toEqual([true, true, false]);
    // By id too, and once the locations no longer name them, they go.
    const byId = await p.call('/Device/BatchDeleteByDeviceId', { DeviceIds: [zoned.id] }, agent);
    expect(byId.body.Failed).toEqual([{ Imei: zoned.imei, Message: 'device.deleteHasFloors' }]);
    expect((await p.call('/BeaconLocation/Delete', { LocationIds: [zone.body.LocationId, near.body.LocationId] }, agent)).status).toBe(200);
    expect((await p.call('/Device/BatchDeleteByDeviceId', { DeviceIds: [zoned.id, beaconed.id] }, agent)).body.Succeeded).toBe(2);
  });

  it('takes the master-slave binding, asset and presence of a deleted device with it; no table is left naming it', async () => {
    const columns = await deviceColumns(p);
    // The walk finds the tables the deletion must handle (a sanity check that it reads the schema).
    expect(columns.map((c) => `${c.table}.${c.column}`)).toEqual(
      expect.arrayContaining(['master_slave_bindings.master_device_id', 'assets.device_id', 'beacon_location_presence.device_id', 'beacon_location_events.device_id', 'positions.device_id', 'beacon_locations.device_ids']),
    );
    expect(await orphans(p, columns, [])).toEqual({});

    const master = await device();
    const bound = await p.call('/Bluetooth/addBTMasterSlaveInfo', { Imei: master.imei, Slaves: [{ Mac: 'AC:23:3F:D0:10:01', Name: 'Bag' }], TimeoutSeconds: 120 }, agent);
    expect(bound.status, JSON.stringify(bound.body)).toBe(200);
    expect((await p.call('/Asset/Save', { DeviceIds: [master.id], Category: 4 }, agent)).status).toBe(200);
    const loc = await p.call('/Bluetooth/AddBeaconLocationInfo', { Name: '走廊', Event: 2, Kind: 1, FloorId: floorId, Points: ROOM }, agent);
    const now = new Date();
    await p.deps.database.db.execute(sql`INSERT INTO beacon_location_presence (location_id, device_id, inside, since, time) VALUES (${loc.body.LocationId}, ${master.id}, true, ${now}, ${now})`);
    await p.deps.database.db.execute(sql`INSERT INTO beacon_location_events (location_id, device_id, inside, time) VALUES (${loc.body.LocationId}, ${master.id}, true, ${now})`);

    expect((await del(master)).body).toMatchObject({ Succeeded: 1, Failed: [] });
    expect(await orphans(p, columns, [master.imei])).toEqual({});
    // The slave's MAC is free again: another master may bind it.
    const next = await device();
    const rebound = await p.call('/Bluetooth/addBTMasterSlaveInfo', { Imei: next.imei, Slaves: [{ Mac: 'AC:23:3F:D0:10:01' }], TimeoutSeconds: 120 }, agent);
    expect(rebound.status, JSON.stringify(rebound.body)).toBe(200);
    expect((await p.call('/Bluetooth/allMasterSlaveList', {}, agent)).body.Items.map((b: { Imei: string }) => b.Imei)).toEqual([next.imei]);
  });
});
