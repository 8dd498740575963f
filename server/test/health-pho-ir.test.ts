// PHO (PPG signal level) and IR (infrared wear sensor level) readings beside UV: received in a JSON
// uplink, bounded before they reach a column (0-100; UV 0-50), stored, and answered by the health
// list, the device series and the export, for the device's own subtree only.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegration } from '../src/gateway/http.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, type TestDevice } from './alarm-fixtures.js';

describe.each(databases())('PHO and IR health readings on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let operator: string;
  let token: string;
  let watch: TestDevice;
  const t0 = Date.now() - 3600_000;
  const at = (i: number) => new Date(t0 + i * 60_000).toISOString();
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => p.deps.database.query<T>(text, params);

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    agent = (await p.login('agent01')).token;
    await q(`UPDATE accounts SET user_type = 1 WHERE login_name = 'operator01'`);
    operator = (await p.login('operator01')).token;
    watch = await addDevice(p, 'clinic01', '865000000009401', 'Mrs Sun');
    const clinic = (await q<{ id: number }>(`SELECT id FROM accounts WHERE login_name = 'clinic01'`))[0]!;
    token = await createIntegration(p.deps, `pho-ir-${kind}`, clinic.id);
    // A fresh PGlite platform takes long to start on a busy machine.
  }, 180_000);
  afterAll(() => p?.stop());

  const post = async (body: unknown) => {
    const res = await fetch(`${p.url}/api/ingest/pho-ir-${kind}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    return res.json() as Promise<{ Stored: number }>;
  };
  const stored = () =>
    q<{ uv: number | null; pho: number | null; ir: number | null }>(`SELECT uv, pho, ir FROM health_readings WHERE device_id = $1 ORDER BY time`, [watch.id]);

  it('stores PHO and IR beside UV, and drops a value out of its range before it reaches the column', async () => {
    expect(await post({ imei: watch.imei, time: at(0), uv: 3, pho: 62.5, ir: 88 })).toMatchObject({ Stored: 1 });
    // As numeric strings, and at the ends of the ranges.
    expect(await post({ imei: watch.imei, time: at(1), uv: '50', pho: '0', ir: '100' })).toMatchObject({ Stored: 1 });
    // Out of range: PHO above 100, IR below 0, UV above 50 are dropped; the heart rate stays.
    expect(await post({ imei: watch.imei, time: at(2), heartRate: 71, uv: 51, pho: 100.5, ir: -1 })).toMatchObject({ Stored: 1 });
    // A report with nothing believable left stores no reading.
    await post({ imei: watch.imei, time: at(3), pho: 1e9, ir: 1e9 });
    expect((await stored()).map((r) => [r.uv, r.pho, r.ir].map((v) => (v === null ? null : Number(v))))).toEqual([
      [3, 62.5, 88],
      [50, 0, 100],
      [null, null, null],
    ]);
  });

  it('answers them in the list, the device series and the export, in the subtree only', async () => {
    const list = await p.call('/Device/allHealthDataPage', { PageNo: 1, PageCount: 10, Imei: watch.imei }, agent);
    expect(list.body.Total).toBe(3);
    expect(list.body.Items.map((r: { Uv: number | null; Pho: number | null; Ir: number | null }) => [r.Uv, r.Pho, r.Ir])).toEqual([
      [null, null, null],
      [50, 0, 100],
      [3, 62.5, 88],
    ]);
    const series = await p.call('/health/GetHealth2', { DeviceId: watch.id, StartTime: new Date(t0 - 60_000).toISOString(), EndTime: new Date().toISOString() }, agent);
    expect(series.body.Items.map((r: { Pho: number | null; Ir: number | null }) => [r.Pho, r.Ir])).toEqual([
      [62.5, 88],
      [0, 100],
      [null, null],
    ]);
    const hourly = await p.call('/health/GetHealth2', { DeviceId: watch.id, StartTime: new Date(t0 - 60_000).toISOString(), EndTime: new Date().toISOString(), Bucket: 'day' }, agent);
    expect(hourly.body.Items.some((r: { Pho: number | null; Ir: number | null }) => r.Pho === 62.5 && r.Ir === 100)).toBe(true);

    const res = await fetch(`${p.url}/api/export/health-readings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-language': 'en', authorization: `Bearer ${agent}` },
      body: JSON.stringify({ Imei: watch.imei }),
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const sheet = wb.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).map(String);
    expect(header).toEqual(expect.arrayContaining(['UV', 'PHO', 'IR']));
    const last = sheet.getRow(sheet.rowCount);
    expect([last.getCell(header.indexOf('UV')).value, last.getCell(header.indexOf('PHO')).value, last.getCell(header.indexOf('IR')).value]).toEqual([3, 62.5, 88]);

    // Another branch sees none of them.
    expect((await p.call('/Device/allHealthDataPage', { Imei: watch.imei }, operator)).body.Total).toBe(0);
  });
});
