// Location history: simplification of long ranges, exact short ranges, stops, and the export quota.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addAccount, addDevices, addPositions } from './monitor-fixtures.js';
import { findStops, haversine, simplify } from '../src/modules/history/path.js';

const T0 = Date.parse('2026-03-02T00:00:00Z');
const MIN = 60_000;

/** The rows of the first sheet of an xlsx, as text. */
async function sheetRows(data: string): Promise<{ name: string; rows: string[][] }> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(data, 'base64') as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: string[][] = [];
  ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return { name: ws.name, rows };
}

describe('path geometry', () => {
  it('keeps the corners of a path when simplifying to a budget', () => {
    // An L: 1 000 points east, then 1 000 north; the corner must survive a budget of 3.
    const pts = [];
    for (let i = 0; i < 1000; i++) pts.push({ lat: 30, lon: 120 + i * 1e-4, time: i, speed: null, course: null });
    for (let i = 0; i < 1000; i++) pts.push({ lat: 30 + i * 1e-4, lon: 120.1, time: 1000 + i, speed: null, course: null });
    const s = simplify(pts, 3);
    expect(s).toHaveLength(3);
    expect(s[1]!.lon).toBeCloseTo(120.1, 4);
    expect(s[1]!.lat).toBeCloseTo(30, 4);
  });

  it('finds a dwell as a stop and not a slow pass', () => {
    const pts = [];
    let t = 0;
    for (let i = 0; i < 10; i++) pts.push({ lat: 30 + i * 0.001, lon: 120, time: (t += MIN), speed: null, course: null });
    // 12 minutes within a few metres.
    for (let i = 0; i < 13; i++) pts.push({ lat: 30.01 + (i % 2) * 0.00002, lon: 120, time: (t += MIN), speed: null, course: null });
    for (let i = 1; i < 10; i++) pts.push({ lat: 30.01 + i * 0.001, lon: 120, time: (t += MIN), speed: null, course: null });
    const stops = findStops(pts, 10 * MIN, 30);
    expect(stops).toHaveLength(1);
    expect(haversine(stops[0]!, { lat: 30.01, lon: 120 })).toBeLessThan(10);
    expect((stops[0]!.end - stops[0]!.start) / MIN).toBeGreaterThanOrEqual(12);
  });
});

describe.each(databases())('history calls (%s)', (kind) => {
  let p: TestPlatform;
  let token: string;
  let dev: { id: number; imei: string };
  let other: { id: number; imei: string };
  let foreign: { id: number; imei: string };

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    await addAccount(p, 'admin', 'h_owner');
    await addAccount(p, 'admin', 'h_sibling');
    [dev, other] = (await addDevices(p, 'h_owner', [{ lat: 30, lon: 120 }, { lat: 31, lon: 121 }])) as unknown as [typeof dev, typeof dev];
    [foreign] = (await addDevices(p, 'h_sibling', [{ lat: 30, lon: 120 }])) as unknown as [typeof dev];
    token = (await p.login('h_owner', 'admin123')).token;
    // One day at one point every 10 s (8 640 points): a zigzag drive with a 30-minute stop at 06:00.
    const pts: [number, number, number][] = [];
    for (let i = 0; i < 8640; i++) {
      const t = T0 + i * 10_000;
      const minute = i / 6;
      if (minute >= 360 && minute < 390) pts.push([30.2, 120.2, t]);
      else pts.push([30 + (i % 200) * 1e-4 + Math.floor(i / 200) * 1e-3, 120 + Math.floor(i / 100) * 5e-4, t]);
    }
    await addPositions(p, dev.id, pts);
    await addPositions(p, other.id, [[31, 121, T0 + 1000], [31.001, 121.001, T0 + 61_000]]);
  });
  afterAll(async () => p?.stop());

  it('simplifies a long range to the point budget, and answers a short range exactly', async () => {
    const day = await p.call('/device/devicesHistory', { DeviceId: dev.id, Start: T0, End: T0 + 86_400_000, MaxPoints: 2000 }, token);
    expect(day.body.State).toBe(200);
    expect(day.body.Total).toBe(8640);
    expect(day.body.Exact).toBe(false);
    expect(day.body.Points.length).toBe(2000);
    expect(day.body.Points[0].Time).toBe(new Date(T0).toISOString());
    expect(day.body.Points.at(-1).Time).toBe(new Date(T0 + 8639 * 10_000).toISOString());
    const times = day.body.Points.map((x: { Time: string }) => Date.parse(x.Time));
    expect([...times].sort((a, b) => a - b)).toEqual(times);

    // Ten minutes: 60 points, all of them.
    const start = new Date(T0 + 3600_000).toISOString();
    const short = await p.call('/device/devicesHistory', { Imei: dev.imei, Start: start, End: new Date(T0 + 3600_000 + 599_000).toISOString() }, token);
    expect(short.body.Exact).toBe(true);
    expect(short.body.Total).toBe(60);
    expect(short.body.Points).toHaveLength(60);
  });

  it('finds the stop and answers an empty path for a range without data', async () => {
    const r = await p.call('/device/devicesHistory', { DeviceId: dev.id, Start: T0, End: T0 + 86_400_000, StopMinutes: 10, StopRadius: 30 }, token);
    expect(r.body.Stops).toHaveLength(1);
    expect(r.body.Stops[0].Lat).toBeCloseTo(30.2, 6);
    expect(r.body.Stops[0].Lon).toBeCloseTo(120.2, 6);
    expect(r.body.Stops[0].Minutes).toBeGreaterThanOrEqual(29);
    const empty = await p.call('/device/devicesHistory', { DeviceId: dev.id, Start: T0 - 86_400_000, End: T0 - 1000 }, token);
    expect(empty.body).toMatchObject({ State: 200, Total: 0, Points: [], Stops: [] });
  });

  it('refuses a reversed range and a sibling device', async () => {
    const rev = await p.call('/device/devicesHistory', { DeviceId: dev.id, Start: T0 + 1000, End: T0 }, token);
    expect(rev.body.State).toBe(400);
    expect(rev.body.Fields[0]).toMatchObject({ Field: 'End', Message: 'monitor.rangeInvalid' });
    const sib = await p.call('/device/devicesHistory', { DeviceId: foreign.id, Start: T0, End: T0 + 86_400_000 }, token);
    expect(sib.body.State).toBe(404);
  });

  it('exports an xlsx, three times per date selection in 24 hours; the fourth is refused', async () => {
    const sel = { Start: T0, End: T0 + 3600_000 };
    for (let i = 0; i < 3; i++) {
      const r = await p.call('/device/BatchExportHistoryDataByUserId', { Imeis: [dev.imei, other.imei, foreign.imei], ...sel, Language: 'en' }, token);
      expect(r.body.State).toBe(200);
      expect(r.body.Remaining).toBe(2 - i);
      // The sibling's device is not exported: 361 points (both ends included) + 2.
      expect(r.body.Rows).toBe(363);
      const sheet = await sheetRows(r.body.Data);
      expect(sheet.rows).toHaveLength(364);
      expect(sheet.rows[0]).toContain('Latitude');
      expect(sheet.rows.some((row) => row.includes(foreign.imei))).toBe(false);
      expect(sheet.rows.filter((row) => row[0] === dev.imei)).toHaveLength(361);
      expect(sheet.name).toBe('Track');
    }
    const fourth = await p.call('/device/BatchExportHistoryDataByUserId', { Imeis: [dev.imei], ...sel }, token);
    expect(fourth.status).toBe(429);
    expect(fourth.body).toMatchObject({ State: 429, Message: 'monitor.exportLimit' });
    // Another date selection has its own quota.
    const next = await p.call('/device/BatchExportHistoryDataByUserId', { Imeis: [dev.imei], Start: T0, End: T0 + 7200_000 }, token);
    expect(next.body.State).toBe(200);
    expect(next.body.FileName).toBe(`track_${dev.imei}_2026-03-02_2026-03-02.xlsx`);
  });

  it('holds the limit under concurrent requests: of 10 at once, exactly 3 are accepted; a failed export gives its slot back', async () => {
    const sel = { Start: T0, End: T0 + 1800_000 };
    // An export that fails (no device) uses none of the three.
    expect((await p.call('/device/BatchExportHistoryDataByUserId', { Imeis: [foreign.imei], ...sel }, token)).status).toBe(404);
    const all = await Promise.all(Array.from({ length: 10 }, () => p.call('/device/BatchExportHistoryDataByUserId', { Imeis: [dev.imei], ...sel }, token)));
    const statuses = all.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    expect(all.filter((r) => r.status === 200).map((r) => r.body.Remaining).sort()).toEqual([0, 1, 2]);
  });
});
