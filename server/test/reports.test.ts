// The report calls on stored history: trips and stops of a device and of a group with their addresses,
// the summary per device per day of a UTC+8 viewer (a stop across its midnight), the alarms report with
// its time to confirm, the workbook export, bad input, and one tenant never seeing another's devices.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addAccount, addDevices } from './monitor-fixtures.js';

const MIN = 60_000;
/** Futian, Shenzhen: the offline geocoder names it. */
const LAT = 22.5347;
const LON = 114.0555;
const M_LON = 111_195 * Math.cos((LAT * Math.PI) / 180);
/** Local (UTC+8) 2026-03-02 08:00. */
const T0 = Date.parse('2026-03-02T00:00:00Z');

type Fix = [number, number, number, number];

/** Parked at `east` metres for `minutes`, a fix a minute wandering by up to 30 m. */
function parked(from: number, minutes: number, east: number): Fix[] {
  const out: Fix[] = [];
  for (let m = 0; m <= minutes; m++) out.push([LAT + ((m % 3) - 1) * 0.0002, LON + (east + ((m % 2) * 2 - 1) * 15) / M_LON, from + m * MIN, 0]);
  return out;
}
/** Driving east at 60 km/h (1 km a minute) from `east` metres for `minutes`. */
function drive(from: number, minutes: number, east: number): Fix[] {
  const out: Fix[] = [];
  for (let m = 1; m < minutes; m++) out.push([LAT, LON + (east + m * 1000) / M_LON, from + m * MIN, 60]);
  return out;
}

async function store(p: TestPlatform, deviceId: number, fixes: Fix[]) {
  await p.deps.database.query(
    `INSERT INTO positions (device_id, time, received_at, lat, lon, valid, speed)
     SELECT $2, t, t, la, lo, true, s FROM json_to_recordset($1::json) AS x(la float8, lo float8, t timestamptz, s real)`,
    [JSON.stringify(fixes.map(([la, lo, t, s]) => ({ la, lo, t: new Date(t).toISOString(), s }))), deviceId],
  );
}

describe.each(databases())('reports (%s)', (kind) => {
  let p: TestPlatform;
  let token: string;
  let dev: { id: number; imei: string };
  let mate: { id: number; imei: string };
  let foreign: { id: number; imei: string };
  let group: number;
  let foreignGroup: number;
  let sibling: number;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    const owner = await addAccount(p, 'admin', 'r_owner');
    sibling = (await addAccount(p, 'admin', 'r_sibling')).id;
    await p.deps.database.query('UPDATE accounts SET time_zone_offset = 480 WHERE id = $1', [owner.id]);
    [dev, mate] = (await addDevices(p, 'r_owner', [{ name: 'Van 1' }, { name: 'Van 2' }])) as unknown as [typeof dev, typeof dev];
    [foreign] = (await addDevices(p, 'r_sibling', [{ name: 'Theirs' }])) as unknown as [typeof dev];
    const q = p.deps.database.query.bind(p.deps.database);
    [{ id: group }] = (await q<{ id: number }>(`INSERT INTO device_groups (account_id, name) VALUES ($1, 'Vans') RETURNING id`, [owner.id])) as [{ id: number }];
    [{ id: foreignGroup }] = (await q<{ id: number }>(`INSERT INTO device_groups (account_id, name) VALUES ($1, 'Theirs') RETURNING id`, [sibling])) as [{ id: number }];
    await q('UPDATE devices SET group_id = $1 WHERE id = ANY($2::int[])', [group, `{${dev.id},${mate.id}}`]);
    await q('UPDATE devices SET group_id = $1 WHERE id = $2', [foreignGroup, foreign.id]);
    // Local 08:00-09:00 parked at home, 10 km east in 10 minutes, parked from 09:10 to 10:00; then at
    // local 23:00 a 10 km drive, parked across midnight from 23:10 until 01:00, and back.
    const night = Date.parse('2026-03-02T15:00:00Z');
    await store(p, dev.id, [
      ...parked(T0, 60, 0),
      ...drive(T0 + 60 * MIN, 10, 0),
      ...parked(T0 + 70 * MIN, 50, 10_000),
      ...drive(night, 10, 10_000),
      ...parked(night + 10 * MIN, 110, 20_000),
      ...drive(night + 120 * MIN, 10, 20_000),
      [LAT, LON + 30_000 / M_LON, night + 130 * MIN, 0],
    ]);
    await store(p, mate.id, parked(T0, 240, 0));
    await store(p, foreign.id, [...parked(T0, 30, 0), ...drive(T0 + 30 * MIN, 10, 0), ...parked(T0 + 40 * MIN, 30, 10_000)]);
    // Alarms: two of ours (one confirmed after 10 minutes, one after 30), one open, one of the sibling's.
    const alarm = (device: number, acc: number, type: number, at: number, confirmAfter: number | null) =>
      q(`INSERT INTO alarms (type, device_id, account_id, status, created_at, last_at, confirmed_at) VALUES ($1, $2, $3, $4, $5, $5, $6)`, [
        type,
        device,
        acc,
        confirmAfter === null ? 0 : 1,
        new Date(at),
        confirmAfter === null ? null : new Date(at + confirmAfter * MIN),
      ]);
    await alarm(dev.id, owner.id, 1, T0 + 5 * MIN, 10);
    await alarm(dev.id, owner.id, 1, T0 + 65 * MIN, 30);
    await alarm(mate.id, owner.id, 5, night + 90 * MIN, null);
    await alarm(foreign.id, sibling, 1, T0 + 5 * MIN, 1);
    await q(
      `INSERT INTO health_readings (device_id, time, received_at, heart_rate, blood_oxygen) VALUES ($1, $2, $2, 72, 97), ($1, $3, $3, 110, 94)`,
      [dev.id, new Date(T0 + 10 * MIN), new Date(T0 + 20 * MIN)],
    );
    token = (await p.login('r_owner', 'admin123')).token;
  }, 300_000);
  afterAll(async () => p?.stop());

  it('answers the trips and stops of a device with their addresses and figures', async () => {
    const r = await p.call('/Report/Trips', { DeviceId: dev.id, From: '2026-03-02', To: '2026-03-03' }, token, { 'x-language': 'en' });
    expect(r.body.State).toBe(200);
    const [d] = r.body.Devices;
    expect(d).toMatchObject({ DeviceId: dev.id, Name: 'Van 1' });
    expect(d.Trips).toHaveLength(3);
    expect(d.Stops).toHaveLength(3);
    const [home] = d.Stops;
    expect(home).toMatchObject({ Start: new Date(T0).toISOString(), End: new Date(T0 + 60 * MIN).toISOString(), Minutes: 60 });
    expect(home.Address).toBe('Futian District, Shenzhen, Guangdong');
    const [first] = d.Trips;
    expect(first.Start).toBe(home.End);
    expect(first.Distance).toBeGreaterThan(9_900);
    expect(first.Distance).toBeLessThan(10_100);
    expect(first.Minutes).toBe(10);
    expect(first.MaxSpeed).toBe(60);
    expect(first.AvgSpeed).toBeGreaterThan(55);
    expect(first.StartPlace.Address).toBe(home.Address);
    // The stop across the viewer's midnight is one stop of 110 minutes.
    expect(d.Stops[2].Minutes).toBe(110);
    const zh = await p.call('/Report/Trips', { Imei: dev.imei, From: '2026-03-02', To: '2026-03-02' }, token, { 'x-language': 'zh-CN' });
    expect(zh.body.Devices[0].Stops[0].Address).toBe('广东省深圳市福田区');
  });

  it('answers a group: its devices in the subtree; a parked device has one stop and no trip', async () => {
    const r = await p.call('/Report/Trips', { GroupId: group, From: '2026-03-02', To: '2026-03-02' }, token);
    expect(r.body.Devices.map((d: { DeviceId: number }) => d.DeviceId)).toEqual([dev.id, mate.id]);
    const m = r.body.Devices[1];
    expect(m.Trips).toEqual([]);
    expect(m.Stops).toHaveLength(1);
    expect(m.Stops[0].Minutes).toBe(240);
  });

  it('summarises per device per day of the viewer, the stop across midnight on both days, with alarms and health extremes', async () => {
    const r = await p.call('/Report/Summary', { DeviceId: dev.id, From: '2026-03-02', To: '2026-03-03' }, token);
    expect(r.body.State).toBe(200);
    expect(r.body.Total).toBe(1);
    const [d02, d03] = r.body.Items;
    // Moving: the morning's 10 minutes, and 9 of the night drive (its first fix at 23:01 follows 13 hours without any).
    expect(d02).toMatchObject({ Day: '2026-03-02', StoppedMinutes: 60 + 50 + 50, MovingMinutes: 10 + 9, MaxSpeed: 60, Alarms: 2 });
    expect(d02.Distance).toBeGreaterThan(18_900);
    expect(d02.Distance).toBeLessThan(19_100);
    expect(d02.HeartRate).toEqual({ Min: 72, Max: 110 });
    expect(d02.BloodOxygen).toEqual({ Min: 94, Max: 97 });
    expect(d02.BodyTemp).toBeNull();
    expect(d02.First.Time).toBe(new Date(T0).toISOString());
    expect(d03).toMatchObject({ Day: '2026-03-03', StoppedMinutes: 60, MovingMinutes: 10, Alarms: 0, HeartRate: null });
    const all = await p.call('/Report/Summary', { From: '2026-03-02', To: '2026-03-02', PageCount: 1, PageNo: 2 }, token);
    expect(all.body.Total).toBe(2);
    expect(all.body.Items.map((x: { DeviceId: number }) => x.DeviceId)).toEqual([mate.id]);
  });

  it('reports the alarms per type, device and day with time to confirm, of the subtree only', async () => {
    const r = await p.call('/Report/Alarms', { From: '2026-03-02', To: '2026-03-03' }, token, { 'x-language': 'en' });
    expect(r.body).toMatchObject({ State: 200, Total: 3, ConfirmedCount: 2, P50Minutes: 20, P90Minutes: 28 });
    expect(r.body.ByType[0]).toMatchObject({ Type: 1, Count: 2, ConfirmedCount: 2, P50Minutes: 20 });
    expect(r.body.ByType[1]).toMatchObject({ Type: 5, Count: 1, ConfirmedCount: 0, P50Minutes: null });
    expect(r.body.ByDevice).toEqual([expect.objectContaining({ DeviceId: dev.id, Count: 2 }), expect.objectContaining({ DeviceId: mate.id, Count: 1 })]);
    // The open alarm was raised at local 00:30 on the 3rd.
    expect(r.body.ByDay).toEqual([{ Day: '2026-03-02', Count: 2 }, { Day: '2026-03-03', Count: 1 }]);
    expect(r.body.ByTypeDay).toEqual([
      { Day: '2026-03-02', Type: 1, Count: 2 },
      { Day: '2026-03-03', Type: 5, Count: 1 },
    ]);
  });

  it("never reads another tenant's device, group or account", async () => {
    const range = { From: '2026-03-02', To: '2026-03-02' };
    expect((await p.call('/Report/Trips', { DeviceId: foreign.id, ...range }, token)).body.State).toBe(404);
    expect((await p.call('/Report/Trips', { Imei: foreign.imei, ...range }, token)).body.State).toBe(404);
    expect((await p.call('/Report/Trips', { GroupId: foreignGroup, ...range }, token)).body.State).toBe(404);
    expect((await p.call('/Report/Summary', { UserId: sibling, ...range }, token)).body.State).toBe(403);
    expect((await p.call('/Report/Alarms', { DeviceId: foreign.id, ...range }, token)).body.State).toBe(404);
    const mine = await p.call('/Report/Summary', range, token);
    expect(mine.body.Items.some((x: { DeviceId: number }) => x.DeviceId === foreign.id)).toBe(false);
  });

  it('refuses bad input with the field and the limit, in the viewer language', async () => {
    const rev = await p.call('/Report/Trips', { DeviceId: dev.id, From: '2026-03-03', To: '2026-03-02' }, token, { 'x-language': 'en' });
    expect(rev.status).toBe(400);
    expect(rev.body.Fields[0]).toMatchObject({ Field: 'To', Message: 'report.rangeReversed' });
    const long = await p.call('/Report/Summary', { From: '2026-01-01', To: '2026-03-02' }, token, { 'x-language': 'en' });
    expect(long.body.Fields[0]).toMatchObject({ Field: 'To', Message: 'report.rangeMax' });
    expect(long.body.Fields[0].Text).toContain('31');
    const none = await p.call('/Report/Trips', { From: '2026-03-02', To: '2026-03-02' }, token, { 'x-language': 'en' });
    expect(none.status).toBe(400);
    expect(none.body.Fields[0]).toMatchObject({ Field: 'DeviceId', Message: 'report.subjectRequired' });
    const radius = await p.call('/Report/Trips', { DeviceId: dev.id, From: '2026-03-02', To: '2026-03-02', StopRadius: 1 }, token);
    expect(radius.body.Fields[0].Field).toBe('StopRadius');
  });

  it('exports trips and the summary as workbooks in the viewer language and zone', async () => {
    const book = async (body: Record<string, unknown>) => {
      const res = await fetch(`${p.url}/api/Report/Export`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-language': 'en' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
      const ws = wb.worksheets[0]!;
      const out: unknown[][] = [];
      ws.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
      return { name: ws.name, rows: out, total: res.headers.get('x-total-rows') };
    };
    const t = await book({ Report: 'trips', GroupId: group, From: '2026-03-02', To: '2026-03-03' });
    expect(t.name).toBe('Trips');
    expect(t.total).toBe('3');
    expect(t.rows[0]!.slice(0, 4)).toEqual(['IMEI', 'Device name', 'Start', 'Start address']);
    // Local 09:00 of the UTC+8 viewer.
    expect(t.rows[1]!.slice(0, 4)).toEqual([dev.imei, 'Van 1', '2026-03-02 09:00:00', 'Futian District, Shenzhen, Guangdong']);
    expect(t.rows[1]![6]).toBe(10);
    const s = await book({ Report: 'summary', From: '2026-03-02', To: '2026-03-02' });
    expect(s.name).toBe('Summary');
    expect(s.rows).toHaveLength(3);
    expect(s.rows[1]!.slice(0, 3)).toEqual([dev.imei, 'Van 1', '2026-03-02']);
    const a = await book({ Report: 'alarms', From: '2026-03-02', To: '2026-03-03' });
    expect(a.rows).toHaveLength(3);
    const empty = await p.call('/Report/Export', { Report: 'stops', DeviceId: dev.id, From: '2025-03-02', To: '2025-03-02' }, token);
    expect(empty.status).toBe(409);
  });
});
