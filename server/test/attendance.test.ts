// Attendance at account fences end to end: positions stored for devices at known times, the job
// computing the daily rows, and the three calls reading them (scope, figures, the workbook).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { attendanceJob } from '../src/modules/account-fence/attendance/job.js';
import { addDevice, type TestDevice } from './alarm-fixtures.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

const MIN = 60_000;
const DAY_MS = 86_400_000;
const IN = { lat: 22.5, lon: 114.0 };
const OUT = { lat: 22.6, lon: 114.0 };
const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];
/** The IMEIs of this file's devices (clinic01 has demo devices too). */
const OURS = '8650000000770';

describe.each(databases())('attendance on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let operator: string;
  const ids: Record<string, number> = {};
  let dA: TestDevice;
  let dB: TestDevice;
  let dC: TestDevice;
  let dX: TestDevice;
  let own: TestDevice;
  const fences: Record<string, number> = {};
  /** A past local day at UTC+8, three days ago. */
  let D: string;
  let D1: string;
  let Dm1: string;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => p.deps.database.query<T>(text, params);
  /** An instant of day D (+ n days) at a time of a zone `tz` minutes east of UTC. */
  const at = (hhmm: string, plusDays = 0, tz = 480) => Date.parse(`${D}T00:00:00Z`) - tz * MIN + plusDays * DAY_MS + (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))) * MIN;
  const iso = (t: number) => new Date(t).toISOString();

  async function positions(d: TestDevice, list: [number, boolean][]) {
    for (const [t, inside] of list) {
      const c = inside ? IN : OUT;
      await q('INSERT INTO positions (device_id, time, received_at, lat, lon, valid, accuracy) VALUES ($1, $2, now(), $3, $4, true, 10)', [d.id, iso(t), c.lat, c.lon]);
    }
    // As the fence engine marks a device whose positions it evaluated.
    const since = iso(Math.min(...list.map(([t]) => t)));
    await q(
      `INSERT INTO attendance_dirty (device_id, since) VALUES ($1, $2)
       ON CONFLICT (device_id) DO UPDATE SET since = least(attendance_dirty.since, excluded.since), marked_at = now()`,
      [d.id, since],
    );
  }

  async function fence(name: string, owner: number, watched: number, schedule: { days: number[]; windows: { start: string; end: string }[] } | null) {
    const created = iso(Date.parse(`${D}T00:00:00Z`) - 10 * DAY_MS);
    const [f] = await q<{ id: number }>(
      `INSERT INTO account_fences (owner_id, name, alarm_type, kind, lat, lon, radius, schedule, created_at, updated_at)
       VALUES ($1, $2, 3, 'circle', $3, $4, 500, $5, $6, $6) RETURNING id`,
      [owner, name, IN.lat, IN.lon, schedule ? JSON.stringify(schedule) : null, created],
    );
    await q('INSERT INTO account_fence_accounts (fence_id, account_id) VALUES ($1, $2)', [f!.id, watched]);
    return Number(f!.id);
  }

  const attendance = (token: string, body: Record<string, unknown>, lang = 'en') => p.call('/AccountFence/Attendance', body, token, { 'x-language': lang });
  const dailyOf = async (fenceId: number, d: TestDevice, day: string) => {
    const r = await attendance(agent, { FenceId: fenceId, From: day, To: day, View: 'daily', Imei: d.imei });
    expect(r.status).toBe(200);
    return r.body.Items[0];
  };

  beforeAll(async () => {
    p = await startTestPlatform(kind, { ATTENDANCE_INTERVAL_SECONDS: '86400' });
    agent = (await p.login('agent01')).token;
    operator = (await p.login('operator01')).token;
    for (const login of ['agent01', 'clinic01', 'operator01']) {
      ids[login] = Number((await q<{ id: number }>('SELECT id FROM accounts WHERE login_name = $1', [login]))[0]!.id);
    }
    await q('UPDATE accounts SET time_zone_offset = 480 WHERE id = $1', [ids.agent01]);
    await q('UPDATE accounts SET time_zone_offset = -300 WHERE id = $1', [ids.clinic01]);
    D = new Date(Date.now() + 480 * MIN - 3 * DAY_MS).toISOString().slice(0, 10);
    D1 = new Date(Date.parse(`${D}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
    Dm1 = new Date(Date.parse(`${D}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
    dA = await addDevice(p, 'clinic01', '865000000077001', 'Worker A');
    dB = await addDevice(p, 'clinic01', '865000000077002', 'Worker B');
    dC = await addDevice(p, 'clinic01', '865000000077003', 'Night C');
    dX = await addDevice(p, 'operator01', '865000000077009', 'Other X');
    own = await addDevice(p, 'agent01', '865000000077010', 'Agent own');
    fences.office = await fence('Office', ids.agent01!, ids.clinic01!, { days: ALL_DAYS, windows: [{ start: '08:00', end: '17:00' }] });
    fences.night = await fence('Night', ids.agent01!, ids.clinic01!, { days: ALL_DAYS, windows: [{ start: '22:00', end: '06:00' }] });
    // Owned by clinic01, whose zone is UTC-5: the same positions fall on other days.
    fences.west = await fence('West', ids.clinic01!, ids.clinic01!, null);
    fences.sibling = await fence('Sibling', ids.operator01!, ids.operator01!, null);
    await positions(dA, [
      [at('07:30'), false],
      [at('07:45'), false],
      [at('08:12'), true],
      [at('08:13'), true],
      [at('12:00'), false],
      [at('12:00') + 30_000, true],
      [at('16:30'), false],
      [at('16:31'), false],
      [at('18:00'), false],
    ]);
    await positions(dC, [
      [at('21:00'), false],
      [at('22:05'), true],
      [at('22:06'), true],
      [at('03:00', 1), true],
      [at('05:50', 1), false],
      [at('05:51', 1), false],
    ]);
    await positions(dX, [
      [at('09:00'), true],
      [at('09:01'), true],
    ]);
    const job = attendanceJob(p.deps);
    for (let i = 0; i < 10 && (await job.runOnce()).more; i++);
  }, 120_000);
  afterAll(() => p?.stop());

  it('measures a scripted day to the minute against the 08:00-17:00 schedule at UTC+8', async () => {
    expect(await q('SELECT * FROM attendance_dirty')).toEqual([]);
    const row = await dailyOf(fences.office!, dA, D);
    expect(row).toMatchObject({
      DeviceId: dA.id,
      Imei: dA.imei,
      DeviceName: 'Worker A',
      LoginName: 'clinic01',
      FenceName: 'Office',
      Day: D,
      Days: 1,
      FirstIn: iso(at('08:12')),
      LastOut: iso(at('16:30')),
      InsideMinutes: 8 * 60 + 18,
      Entries: 1,
      Exits: 1,
      LateMinutes: 12,
      EarlyMinutes: 30,
      LateDays: 1,
      EarlyDays: 1,
      AbsentDays: 0,
    });
    const day = await p.call('/AccountFence/AttendanceDay', { DeviceId: dA.id, FenceId: fences.office, Day: D }, agent);
    expect(day.status).toBe(200);
    expect(day.body.Row).toEqual(row);
    expect(day.body.TimeZoneOffset).toBe(480);
    expect(day.body.Windows).toEqual([{ Start: iso(at('08:00')), End: iso(at('17:00')) }]);
    // Nothing was known of the device before its first fix ever, at 07:30.
    expect(day.body.Intervals).toEqual([
      { Start: iso(at('00:00')), End: iso(at('07:30')), State: 'unknown' },
      { Start: iso(at('07:30')), End: iso(at('08:12')), State: 'outside' },
      { Start: iso(at('08:12')), End: iso(at('16:30')), State: 'inside' },
      { Start: iso(at('16:30')), End: iso(at('00:00', 1)), State: 'outside' },
    ]);
  });

  it('measures a night window 22:00-06:00 on the day it starts', async () => {
    expect(await dailyOf(fences.night!, dC, D)).toMatchObject({ LateMinutes: 5, EarlyMinutes: 10, Entries: 1, Exits: 0, AbsentDays: 0, InsideMinutes: 115 });
    expect(await dailyOf(fences.night!, dC, D1)).toMatchObject({ Exits: 1, InsideMinutes: 350 });
  });

  it('counts a device that sent nothing on a scheduled day absent', async () => {
    expect(await dailyOf(fences.office!, dB, D)).toMatchObject({ AbsentDays: 1, InsideMinutes: 0, Entries: 0, FirstIn: null });
    const total = await attendance(agent, { FenceId: fences.office, From: D, To: D, Imei: dB.imei });
    expect(total.body.Items).toEqual([expect.objectContaining({ Day: null, Days: 1, AbsentDays: 1 })]);
  });

  it("cuts days at the owner's zone: UTC-5 puts the morning entry on the day before", async () => {
    expect(await dailyOf(fences.west!, dA, Dm1)).toMatchObject({ Entries: 1, Exits: 0, LateDays: 0, AbsentDays: 0 });
    expect(await dailyOf(fences.west!, dA, D)).toMatchObject({ Entries: 0, Exits: 1, LastOut: iso(at('16:30')) });
    const day = await p.call('/AccountFence/AttendanceDay', { DeviceId: dA.id, FenceId: fences.west, Day: Dm1 }, agent);
    expect(day.body).toMatchObject({ TimeZoneOffset: -300, Windows: [] });
    expect(day.body.Intervals.at(-1)).toEqual({ Start: iso(at('08:12')), End: iso(at('00:00', 0, -300)), State: 'inside' });
  });

  it('takes in a late position after the day was computed once the job runs', async () => {
    const before = (await q<{ early_minutes: number }>('SELECT early_minutes FROM attendance_daily WHERE fence_id = $1 AND device_id = $2 AND day = $3', [fences.office, dA.id, D]))[0];
    expect(before?.early_minutes).toBe(30);
    // Buffered fixes uploaded late: the wearer came back at 16:45 and left at 17:10.
    await positions(dA, [
      [at('16:45'), true],
      [at('16:46'), true],
      [at('17:10'), false],
      [at('17:11'), false],
    ]);
    const stale = (await q<{ early_minutes: number }>('SELECT early_minutes FROM attendance_daily WHERE fence_id = $1 AND device_id = $2 AND day = $3', [fences.office, dA.id, D]))[0];
    expect(stale?.early_minutes).toBe(30);
    const run = await attendanceJob(p.deps).runOnce();
    expect(run.marks).toBe(1);
    expect(await q('SELECT * FROM attendance_dirty')).toEqual([]);
    expect(await dailyOf(fences.office!, dA, D)).toMatchObject({ EarlyMinutes: 0, LateMinutes: 12, Entries: 2, Exits: 2, EarlyDays: 0, InsideMinutes: 8 * 60 + 18 + 25, LastOut: iso(at('17:10')) });
  });

  it('catches up before answering when late positions of a past day wait for the job', async () => {
    expect(await dailyOf(fences.office!, dC, D1)).toMatchObject({ AbsentDays: 1 });
    await positions(dC, [
      [at('09:00', 1), true],
      [at('09:01', 1), true],
      [at('16:00', 1), false],
      [at('16:01', 1), false],
    ]);
    // No job run: the call brings the rows up to date itself (the fences share one area: inside from the night too).
    expect(await dailyOf(fences.office!, dC, D1)).toMatchObject({ AbsentDays: 0, LateMinutes: 60, EarlyMinutes: 60, InsideMinutes: 350 + 7 * 60 });
    expect(await q('SELECT * FROM attendance_dirty')).toEqual([]);
  });

  it('pages and sorts the totals, and answers only in scope', async () => {
    const all = await attendance(agent, { Imei: OURS, From: D, To: D, Sort: 'InsideMinutes', Order: 'desc', PageCount: 2 });
    expect(all.status).toBe(200);
    // Office, Night and West over the three clinic01 devices; never the sibling's fence.
    expect(all.body.Total).toBe(9);
    expect(all.body.Items).toHaveLength(2);
    const every = (await attendance(agent, { Imei: OURS, From: D, To: D, Sort: 'InsideMinutes', Order: 'desc', PageCount: 100 })).body.Items as { InsideMinutes: number }[];
    expect(every.map((i) => i.InsideMinutes)).toEqual(every.map((i) => i.InsideMinutes).sort((a, b) => b - a));
    expect(every[0]!.InsideMinutes).toBeGreaterThan(every[8]!.InsideMinutes);
    expect(all.body.Items).toEqual(every.slice(0, 2));
    const names = await attendance(agent, { Imei: OURS, From: D, To: D, Sort: 'DeviceName', PageNo: 3, PageCount: 4 });
    expect(names.body.Total).toBe(9);
    expect(names.body.Items.map((i: { DeviceName: string }) => i.DeviceName)).toEqual(['Worker B']);
    const narrowed = await attendance(agent, { Imei: OURS, From: Dm1, To: D1, UserId: ids.clinic01, FenceId: fences.office, Sort: 'AbsentDays', Order: 'desc' });
    expect(narrowed.body.Items[0]).toMatchObject({ Imei: dB.imei, Days: 3, AbsentDays: 3 });
    // The sibling sees none of it and cannot name it; nor can it read the agent's subtree.
    const sib = await attendance(operator, { From: D, To: D });
    expect(sib.body.Total).toBeGreaterThan(0);
    expect([...new Set(sib.body.Items.map((i: { FenceName: string }) => i.FenceName))]).toEqual(['Sibling']);
    expect((await attendance(operator, { From: D, To: D, Imei: dX.imei })).body.Items).toEqual([expect.objectContaining({ Imei: dX.imei, Entries: 0, InsideMinutes: 15 * 60 })]);
    expect((await attendance(operator, { From: D, To: D, FenceId: fences.office })).status).toBe(404);
    expect((await attendance(operator, { From: D, To: D, UserId: ids.agent01 })).status).toBe(403);
    expect((await p.call('/AccountFence/AttendanceDay', { DeviceId: dA.id, FenceId: fences.office, Day: D }, operator)).status).toBe(404);
    expect((await p.call('/AccountFence/AttendanceDay', { DeviceId: dX.id, FenceId: fences.office, Day: D }, agent)).status).toBe(404);
    expect((await attendance(agent, { From: D, To: D, FenceId: fences.sibling })).status).toBe(404);
    const unwatched = await p.call('/AccountFence/AttendanceDay', { DeviceId: own.id, FenceId: fences.office, Day: D }, agent, { 'x-language': 'en' });
    expect(unwatched.status).toBe(409);
    expect(unwatched.body).toMatchObject({ Message: 'accountFence.deviceNotWatched', Text: 'The device is not watched by this fence' });
  });

  it('exports the table as it is shown, totals or daily details, as a workbook, and 409 when there is nothing', async () => {
    const book = async (View: 'total' | 'daily') => {
      const res = await fetch(`${p.url}/api/AccountFence/AttendanceExport`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${agent}`, 'x-language': 'en' },
        body: JSON.stringify({ From: D, To: D1, FenceId: fences.office, Imei: OURS, View }),
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('spreadsheetml');
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
      return { wb, rows: res.headers.get('x-total-rows') };
    };
    const totals = await book('total');
    expect(totals.rows).toBe('3');
    expect(totals.wb.worksheets.map((w) => w.name)).toEqual(['Totals']);
    const total = totals.wb.worksheets[0]!;
    expect((total.getRow(1).values as unknown[]).slice(1, 5)).toEqual(['Fence', 'IMEI', 'Device name', 'Account']);
    expect(total.rowCount).toBe(1 + 3);
    const details = await book('daily');
    expect(details.rows).toBe('6');
    expect(details.wb.worksheets.map((w) => w.name)).toEqual(['Daily details']);
    const daily = details.wb.worksheets[0]!;
    expect(daily.rowCount).toBe(1 + 6);
    const header = (daily.getRow(1).values as unknown[]).slice(1) as string[];
    const cell = (r: number, h: string) => daily.getRow(r).getCell(header.indexOf(h) + 1).value;
    const rowA = [2, 3, 4, 5, 6, 7].find((r) => cell(r, 'IMEI') === dA.imei && cell(r, 'Day') === D)!;
    expect(cell(rowA, 'First entry')).toBe(`${D} 08:12:00`);
    expect(cell(rowA, 'Late (min)')).toBe(12);
    expect(cell(rowA, 'Status')).toMatch(/^Late(, Left early)?$/);
    const rowB = [2, 3, 4, 5, 6, 7].find((r) => cell(r, 'IMEI') === dB.imei && cell(r, 'Day') === D)!;
    expect(cell(rowB, 'Status')).toBe('Absent');

    const empty = await p.call('/AccountFence/AttendanceExport', { From: '2020-01-01', To: '2020-01-31' }, agent, { 'x-language': 'zh-CN' });
    expect(empty.status).toBe(409);
    expect(empty.body).toMatchObject({ Message: 'accountFence.noAttendance', Text: '暂无考勤数据可导出' });
    const bad = await p.call('/AccountFence/Attendance', { From: D, To: Dm1 }, agent, { 'x-language': 'en' });
    expect(bad.status).toBe(400);
    expect(bad.body.Fields).toEqual([expect.objectContaining({ Field: 'To', Message: 'accountFence.rangeReversed' })]);
  });

  // Last: it moves the Office fence.
  it('recomputes the rows of an edited fence from the edit day on, and keeps the older days', async () => {
    const now = Date.now();
    const todayStart = Date.parse(`${new Date(now + 480 * MIN).toISOString().slice(0, 10)}T00:00:00Z`) - 480 * MIN;
    const t1 = Math.max(now - 20_000, todayStart);
    await positions(dA, [
      [t1, true],
      [t1 + 1, true],
    ]);
    await attendanceJob(p.deps).runOnce();
    const today = new Date(now + 480 * MIN).toISOString().slice(0, 10);
    const inside = async (day: string) =>
      (await q<{ inside_seconds: number; late_minutes: number }>('SELECT inside_seconds, late_minutes FROM attendance_daily WHERE fence_id = $1 AND device_id = $2 AND day = $3', [fences.office, dA.id, day]))[0];
    expect((await inside(today))?.inside_seconds).toBeGreaterThan(0);
    await q('UPDATE account_fences SET lat = 30, updated_at = now() WHERE id = $1', [fences.office]);
    await attendanceJob(p.deps).runOnce();
    expect((await inside(today))?.inside_seconds).toBe(0);
    expect(await inside(D)).toMatchObject({ late_minutes: 12 });
  });
});
