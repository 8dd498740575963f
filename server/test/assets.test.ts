// Asset inventory: marking devices as assets with good and bad input and the subtree scope; where
// each asset is now from positions committed through the ingest pipeline (location, floor, last
// seen, moving or still, missing); counts per location; a stock-take with missing and extra assets,
// its history and its export.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceMessage } from '@wt/protocols';
import { locationWatches } from '../src/modules/location/watch.js';
import { moved } from '../src/rules/asset.js';
import { readSheetRows } from '../src/modules/device/excel.js';
import { addDevice, type TestDevice } from './alarm-fixtures.js';
import { positionTenants, sceneWithFloor } from './position-fixtures.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

type Fields = { Fields?: { Field: string; Message: string }[] };
const ROOM: [number, number][] = [[2, 2], [8, 2], [8, 6], [2, 6]];

describe('moving or still', () => {
  const at = (x: number, y: number, floorId: number | null = 1) => ({ lat: null, lon: null, floorId, x, y });
  const gnss = (lat: number, lon: number) => ({ lat, lon, floorId: null, x: null, y: null });
  it('is still within the noise of its fixes, moving beyond it or across floors', () => {
    expect(moved([])).toBe(false);
    expect(moved([at(5, 5)])).toBe(false);
    expect(moved([at(5, 5), at(5.5, 5.5), at(6, 5)])).toBe(false);
    expect(moved([at(5, 5), at(5.5, 5.5), at(8, 5)])).toBe(true);
    expect(moved([at(5, 5), at(5, 5, 2)])).toBe(true);
    // Outdoors a still receiver wanders some metres (0.0001 deg is about 11 m).
    expect(moved([gnss(22.5, 113.9), gnss(22.5001, 113.9)])).toBe(false);
    expect(moved([gnss(22.5, 113.9), gnss(22.5003, 113.9)])).toBe(true);
  });
});

describe.each(databases())('asset inventory on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let operator: string;
  let floorId: number;
  let sceneId: number;
  let locationId: number;
  let n = 0;
  const fields = (body: Fields) => (body.Fields ?? []).map((f) => [f.Field, f.Message]);

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    ({ agent, operator } = await positionTenants(p));
    ({ sceneId, floorId } = await sceneWithFloor(p, agent, '医院', { no: 2, name: '二楼', description: '病区' }));
    locationId = (await p.call('/Bluetooth/AddBeaconLocationInfo', { Name: '器械室', Event: 1, Kind: 1, FloorId: floorId, Points: ROOM }, agent)).body.LocationId;
  });
  afterAll(() => p?.stop());

  const device = (account = 'clinic01') => addDevice(p, account, `86520000000${1000 + ++n}`, `标签${n}`);
  /** Indoor positions committed through the pipeline and evaluated by the locations. */
  const walk = async (d: TestDevice, points: [number, number][], end = Date.now()) => {
    const messages: DeviceMessage[] = points.map(([x, y], i) => {
      const t = new Date(end - (points.length - 1 - i) * 2000);
      return { deviceId: d.imei, protocol: 'uplink', kind: 'position', type: 'indoor', time: t, fix: { time: t, valid: true, lat: 22.54, lon: 113.93, accuracy: 1.5, indoor: { sceneId, floorId, x, y, method: 'trilateration' } } };
    });
    for (const m of messages) await p.deps.ingest.ingest([m], { transport: 'indoor', remote: 'test', mode: 'short' });
    await locationWatches.get(p.deps)!.settled();
  };
  const list = async (q: Record<string, unknown> = {}, token = agent) => (await p.call('/Asset/List', { PageCount: 100, ...q }, token)).body;

  it('refuses bad input naming the field, and devices or locations out of reach', async () => {
    const d = await device();
    const cases: [string, Record<string, unknown>, string, string][] = [
      ['/Asset/Save', { DeviceIds: [d.id] }, 'Category', 'asset.categoryRequired'],
      ['/Asset/Save', { DeviceIds: [d.id], Category: 9 }, 'Category', 'asset.categoryInvalid'],
      ['/Asset/Save', { DeviceIds: [], Category: 1 }, 'DeviceIds', 'validation.required'],
      ['/Asset/Save', { DeviceIds: [d.id], Category: 1, ExpectedLocationId: 0 }, 'ExpectedLocationId', 'validation.min'],
      ['/Asset/Save', { DeviceIds: [d.id], Category: 1, ExpectedLocationId: 999999 }, 'ExpectedLocationId', 'asset.locationNotFound'],
      ['/Asset/List', { State: 3 }, 'State', 'asset.stateInvalid'],
      ['/Asset/List', { PageCount: 5000 }, 'PageCount', 'validation.max'],
      ['/Asset/StockTake', {}, 'LocationId', 'validation.required'],
      ['/Asset/StockTake', { LocationId: 999999 }, 'LocationId', 'asset.locationNotFound'],
    ];
    for (const [path, body, field, key] of cases) {
      const r = await p.call(path, body, agent);
      expect(r.status, `${path} ${JSON.stringify(body)}`).toBe(400);
      expect(fields(r.body), `${path} ${JSON.stringify(body)}`).toContainEqual([field, key]);
    }
    // The sibling tenant: our location and our device are not theirs.
    expect(fields((await p.call('/Asset/Save', { DeviceIds: [d.id], Category: 1, ExpectedLocationId: locationId }, operator)).body)).toEqual([['ExpectedLocationId', 'asset.locationNotFound']]);
    expect((await p.call('/Asset/Save', { DeviceIds: [d.id], Category: 1 }, operator)).body).toMatchObject({ Succeeded: 0, Failed: [{ Imei: String(d.id), Message: 'asset.notFound' }] });
    expect(fields((await p.call('/Asset/StockTake', { LocationId: locationId }, operator)).body)).toEqual([['LocationId', 'asset.locationNotFound']]);
    expect((await list()).Total).toBe(0);
  });

  it('shows each asset where it is now, counts per location, and scopes to the subtree', async () => {
    const chair = await device();
    const pump = await device();
    const theirs = await device('operator01');
    expect((await p.call('/Asset/Save', { DeviceIds: [chair.id, pump.id], Category: 1, ExpectedLocationId: locationId }, agent)).body).toMatchObject({ Succeeded: 2, Failed: [] });
    expect((await p.call('/Asset/Save', { DeviceIds: [pump.id], Category: 2, ExpectedLocationId: null }, agent)).body).toMatchObject({ Succeeded: 1 });
    expect((await p.call('/Asset/Save', { DeviceIds: [theirs.id], Category: 4 }, operator)).body).toMatchObject({ Succeeded: 1 });

    // The chair is wheeled into the room and on across it; the pump stands still in the corridor.
    await walk(chair, [[1, 4], [3, 4], [4, 4], [6, 4], [7, 5]]);
    await walk(pump, [[10, 10], [10.2, 10], [10.1, 10.1]]);

    const body = await list();
    expect(body.Items.map((a: { Imei: string }) => a.Imei)).toEqual([chair.imei, pump.imei]);
    const [c, q] = body.Items;
    expect(c).toMatchObject({ DeviceId: chair.id, Category: 1, ExpectedLocationId: locationId, ExpectedLocationName: '器械室', LocationId: locationId, LocationName: '器械室', FloorName: '二楼', Moving: true, Missing: false });
    expect(Date.now() - Date.parse(c.LastSeen)).toBeLessThan(60_000);
    expect(q).toMatchObject({ DeviceId: pump.id, Category: 2, ExpectedLocationId: null, LocationId: null, FloorName: '二楼', Moving: false, Missing: false });
    expect(body.PerLocation).toEqual([{ LocationId: locationId, Name: '器械室', Count: 1 }]);
    expect(body).toMatchObject({ Missing: 0, MissingMinutes: 30 });
    expect((await list({ LocationId: locationId })).Items.map((a: { DeviceId: number }) => a.DeviceId)).toEqual([chair.id]);
    expect((await list({ Category: 2 })).Items.map((a: { DeviceId: number }) => a.DeviceId)).toEqual([pump.id]);
    expect((await list({ Keyword: chair.imei.slice(-4) })).Total).toBe(1);

    // Not seen for longer than ASSET_MISSING_MINUTES: missing.
    await p.deps.database.db.execute(sql`UPDATE device_state SET last_seen = now() - interval '31 minutes' WHERE device_id = ${pump.id}`);
    expect((await list({ State: 2 })).Items).toMatchObject([{ DeviceId: pump.id, Missing: true }]);
    expect((await list({ State: 1 })).Items).toMatchObject([{ DeviceId: chair.id }]);
    expect((await list()).Missing).toBe(1);

    // The sibling sees only its own; our devices are not theirs to remove.
    expect((await list({}, operator)).Items.map((a: { DeviceId: number }) => a.DeviceId)).toEqual([theirs.id]);
    expect((await p.call('/Asset/Delete', { DeviceIds: [chair.id] }, operator)).body).toMatchObject({ Succeeded: 0, Failed: [{ Message: 'asset.notFound' }] });
    expect((await p.call('/Asset/Delete', { DeviceIds: [pump.id] }, agent)).body).toMatchObject({ Succeeded: 1 });
    expect((await list()).Total).toBe(1);
  });

  it('a stock-take lists the missing and the extra assets, is kept with who and when, and exports', async () => {
    const [bed, pump, tool] = [await device(), await device(), await device()];
    await p.call('/Asset/Save', { DeviceIds: [bed.id, pump.id], Category: 3, ExpectedLocationId: locationId }, agent);
    await p.call('/Asset/Save', { DeviceIds: [tool.id], Category: 4 }, agent);
    await walk(bed, [[3, 3], [4, 3], [4, 3]]); // where it belongs
    await walk(pump, [[20, 20], [20, 20]]); // elsewhere: missing from the room
    await walk(tool, [[5, 5], [5, 5], [5, 5]]); // left in the room: extra

    const taken = await p.call('/Asset/StockTake', { LocationId: locationId }, agent);
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    const item = taken.body.Item;
    const lines = (result: number) => item.Lines.filter((l: { Result: number }) => l.Result === result).map((l: { DeviceId: number }) => l.DeviceId);
    expect(lines(2)).toContain(pump.id);
    expect(lines(3)).toEqual([tool.id]);
    expect(lines(1)).toContain(bed.id);
    expect(lines(1)).not.toContain(pump.id);
    expect(item).toMatchObject({ LocationId: locationId, LocationName: '器械室', UserName: 'agent01', Extra: 1 });
    expect(item.Expected).toBe(lines(1).length + lines(2).length);
    expect(item.Missing).toBe(lines(2).length);

    const history = await p.call('/Asset/StockTakes', { LocationId: locationId }, agent);
    expect(history.body.Items[0]).toMatchObject({ StockTakeId: item.StockTakeId, Missing: item.Missing, Extra: 1 });
    expect((await p.call('/Asset/StockTakes', {}, operator)).body.Total).toBe(0);

    const sheet = await p.call('/Asset/StockTakeExport', { StockTakeId: item.StockTakeId }, agent, { 'accept-language': 'en' });
    expect(sheet.status).toBe(200);
    expect(sheet.body.FileName).toBe('Stock-take 器械室.xlsx');
    const cells = (await readSheetRows(sheet.body.Content)).flatMap((r) => r.cells);
    expect(cells).toEqual(expect.arrayContaining(['器械室', tool.imei, 'Tool', 'Extra', pump.imei, 'Missing', 'Bed', 'Present']));
    expect((await p.call('/Asset/StockTakeExport', { StockTakeId: item.StockTakeId }, operator)).body.Message).toBe('asset.stockTakeNotFound');
  });
});
