// Health calls on each database: the readings list with its filters, a device's series with
// thresholds, sleep and health alarms, which devices and days have data, and the subtree scope.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C } from '@wt/contract';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, healthReading, type TestDevice } from './alarm-fixtures.js';

describe.each(databases())('health data on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let operator: string;
  let watch: TestDevice;
  const hour = 3600_000;
  const t0 = Date.now() - 30 * hour;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    agent = (await p.login('agent01')).token;
    // The sibling branch reads health pages (an editor) but none of the clinic's devices.
    await p.deps.database.query(`UPDATE accounts SET user_type = 1 WHERE login_name = 'operator01'`);
    operator = (await p.login('operator01')).token;
    watch = await addDevice(p, 'clinic01', '865000000009301', 'Mr Wang');
    const q = p.deps.database.query.bind(p.deps.database);
    for (let i = 0; i < 24; i++) {
      await q(
        `INSERT INTO health_readings (device_id, time, received_at, heart_rate, systolic, diastolic, blood_oxygen, body_temp, steps, sleep)
         VALUES ($1, $2, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
        [watch.id, new Date(t0 + i * hour), 60 + i, 110 + i, 70, 97, 36.5, i * 100, i === 6 ? JSON.stringify([{ stage: 'deep', minutes: 120 }, { stage: 'light', minutes: 200 }, { stage: 'awake', minutes: 15 }]) : null],
      );
    }
    await q(`INSERT INTO device_state (device_id, health_time, heart_rate) VALUES ($1, $2, 83) ON CONFLICT (device_id) DO UPDATE SET health_time = EXCLUDED.health_time`, [watch.id, new Date(t0 + 23 * hour)]);
    // A 25th reading, stored and then evaluated as the pipeline does it: it raises the alarm.
    await healthReading(p, watch, { heartRate: 130 }, new Date(t0 + 10.5 * hour));
  });
  afterAll(() => p?.stop());

  it('lists readings newest first with filters', async () => {
    const r = await p.call('/Device/allHealthDataPage', { PageNo: 1, PageCount: 5, Imei: watch.imei }, agent);
    expect(r.body.Total).toBe(25);
    expect(r.body.Items[0]).toMatchObject({ Imei: watch.imei, DeviceName: 'Mr Wang', HeartRate: 83, Systolic: 133, BloodOxygen: 97 });
    const ranged = await p.call('/Device/allHealthDataPage', { StartTime: new Date(t0 + 20 * hour).toISOString(), Kind: 'sleep' }, agent);
    expect(ranged.body.Total).toBe(0);
    const sleep = await p.call('/Device/allHealthDataPage', { Kind: 'sleep' }, agent);
    expect(sleep.body.Items[0].Sleep).toHaveLength(3);
    expect((await p.call('/Device/allHealthDataPage', {}, operator)).body.Total).toBe(0);
  });

  it('shows one row per device and report time when a report came as several readings', async () => {
    // A watch reports heart rate, blood oxygen and steps together; the decoder stored three rows.
    const a = await addDevice(p, 'clinic01', '865000000009302', 'Mrs Li');
    const b = await addDevice(p, 'clinic01', '865000000009303', 'Mr Zhao');
    const q = p.deps.database.query.bind(p.deps.database);
    const at = (i: number) => new Date(t0 + (5 + i) * 60_000);
    for (let i = 0; i < 3; i++) {
      for (const [col, value] of [['heart_rate', 70 + i], ['blood_oxygen', 95], ['steps', 1000 * (i + 1)]] as const) {
        await q(`INSERT INTO health_readings (device_id, time, received_at, ${col}) VALUES ($1, $2, now(), $3)`, [a.id, at(i), value]);
      }
    }
    // Another device at the same second is another row.
    await q(`INSERT INTO health_readings (device_id, time, received_at, heart_rate) VALUES ($1, $2, now(), 88)`, [b.id, at(0)]);
    const list = (body: object) => p.call('/Device/allHealthDataPage', { PageNo: 1, PageCount: 10, ...body }, agent);

    const one = await list({ Imei: a.imei });
    expect(one.body.Total).toBe(3);
    expect(one.body.Items).toHaveLength(3);
    expect(one.body.Items.map((r: { HeartRate: number; BloodOxygen: number; Steps: number }) => [r.HeartRate, r.BloodOxygen, r.Steps])).toEqual([
      [72, 95, 3000],
      [71, 95, 2000],
      [70, 95, 1000],
    ]);
    // A measure filter keeps the whole report, not only the row that carried the measure.
    const spo2 = await list({ Imei: a.imei, Kind: 'bloodOxygen' });
    expect(spo2.body.Total).toBe(3);
    expect(spo2.body.Items[0]).toMatchObject({ HeartRate: 72, BloodOxygen: 95, Steps: 3000 });

    // Pages and Total count reports the same way: two pages of two hold each report once.
    const range = { StartTime: at(0).toISOString(), EndTime: at(2).toISOString() };
    const p1 = await p.call('/Device/allHealthDataPage', { PageNo: 1, PageCount: 2, ...range }, agent);
    const p2 = await p.call('/Device/allHealthDataPage', { PageNo: 2, PageCount: 2, ...range }, agent);
    expect(p1.body.Total).toBe(4);
    expect(p2.body.Total).toBe(4);
    const keys = [...p1.body.Items, ...p2.body.Items].map((r: { Imei: string; Time: string }) => `${r.Imei} ${r.Time}`);
    expect(new Set(keys).size).toBe(4);
    expect(keys).toHaveLength(4);

    // The detail charts get one point per report too.
    const series = await p.call('/health/GetHealth2', { DeviceId: a.id, ...range }, agent);
    expect(series.body.Items).toHaveLength(3);
    expect(series.body.Items[0]).toMatchObject({ HeartRate: 70, BloodOxygen: 95, Steps: 1000 });

    // The export has the rows the list shows.
    const res = await fetch(`${p.url}/api/export/health-readings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-language': 'en', authorization: `Bearer ${agent}` },
      body: JSON.stringify({ Imei: a.imei }),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const sheet = wb.worksheets[0]!;
    expect(sheet.rowCount).toBe(4);
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    const col = (name: string) => header.indexOf(name);
    expect(sheet.getRow(2).getCell(col('IMEI')).value).toBe(a.imei);
    expect(sheet.getRow(2).getCell(col('Heart rate')).value).toBe(72);
    expect(sheet.getRow(2).getCell(col('Blood oxygen')).value).toBe(95);
    expect(sheet.getRow(2).getCell(col('Steps')).value).toBe(3000);
  });

  it('answers a device series with thresholds, sleep per night and the health alarms on the same range', async () => {
    const r = await p.call('/health/GetHealth2', { DeviceId: watch.id, StartTime: new Date(t0 - hour).toISOString(), EndTime: new Date().toISOString() }, agent);
    expect(r.body.State).toBe(200);
    expect(r.body.Items).toHaveLength(25);
    expect(r.body.Items[0].HeartRate).toBe(60);
    expect(r.body.Thresholds).toMatchObject({ heartRateMax: 120, bloodOxygenMin: 90 });
    expect(r.body.Sleep).toEqual([expect.objectContaining({ Deep: 120, Light: 200, Awake: 15 })]);
    expect(r.body.Alarms.map((a: { Type: number }) => a.Type)).toEqual([C.heartRateHigh]);
    const daily = await p.call('/health/GetHealth2', { Imei: watch.imei, StartTime: new Date(t0 - hour).toISOString(), EndTime: new Date().toISOString(), Bucket: 'day' }, agent);
    expect(daily.body.Items.length).toBeGreaterThanOrEqual(1);
    expect(daily.body.Items.length).toBeLessThanOrEqual(3);
    expect((await p.call('/health/GetHealth2', { DeviceId: watch.id, StartTime: t0, EndTime: Date.now() }, operator)).body.State).toBe(404);
  });

  it('tells which devices and days have data', async () => {
    const users = await p.call('/health/HealthHasDataForUsers', {}, agent);
    expect(users.body.Items).toEqual([expect.objectContaining({ DeviceId: watch.id, Imei: watch.imei })]);
    expect((await p.call('/health/HealthHasDataForUsers', {}, operator)).body.Items).toEqual([]);
    const days = await p.call('/health/HealthHasDataForDevice', { DeviceId: watch.id }, agent);
    expect(days.body.HasData).toBe(true);
    // The calendar days of the readings in the viewer's zone: one or two, as the 23 hours fall.
    const [{ offset }] = await p.deps.database.query<{ offset: number }>(`SELECT time_zone_offset AS offset FROM accounts WHERE login_name = 'agent01'`);
    const dayOf = (ms: number) => new Date(ms + Number(offset) * 60_000).toISOString().slice(0, 10);
    const expected = [...new Set(Array.from({ length: 24 }, (_, i) => dayOf(t0 + i * hour)))];
    expect(days.body.Days).toEqual(expected);
    const none = await p.call('/health/HealthHasDataForDevice', { DeviceId: watch.id, EndTime: new Date(t0 - 2 * hour).toISOString() }, agent);
    expect(none.body).toMatchObject({ HasData: false, Days: [] });
  });

  it('exports readings, and says there is no health data when none match', async () => {
    const post = (body: unknown) =>
      fetch(`${p.url}/api/export/health-readings`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${agent}` }, body: JSON.stringify(body) });
    const ok = await post({ Imei: watch.imei });
    expect(ok.headers.get('content-type')).toContain('spreadsheetml');
    expect(ok.headers.get('x-total-rows')).toBe('25');
    expect((await ok.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const empty = await post({ Imei: '000000000000000' });
    expect(await empty.json()).toMatchObject({ Message: 'health.noData' });
  });
});
