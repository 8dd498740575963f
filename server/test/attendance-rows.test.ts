// Which attendance rows exist when: a watched device that sent nothing has its row of a scheduled
// day (absent) as soon as the day's last window has ended, in the table, the totals and the
// workbook, whether the job or a call gets there first; and every device a fence watches has its
// rows as soon as the fence is saved (created, edited, given more accounts), or as soon as the
// device joins a watched account. The owner's zone is set so that it is 20:00 there now: the
// 08:00-17:00 window of today is over, today itself is not.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { attendanceJob } from '../src/modules/account-fence/attendance/job.js';
import { eventually } from './gateway-helpers.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addAccount, addDevices, type Account } from './monitor-fixtures.js';

const MIN = 60_000;
const DAY_MS = 86_400_000;
const ALL_DAYS = [0, 1, 2, 3, 4, 5, 6];
const CENTRE = { Lat: 22.5, Lon: 114.0 };

describe.each(databases())('attendance rows on %s', (kind) => {
  let p: TestPlatform;
  let agent: string;
  let agentId: number;
  /** The owner's zone, minutes east of UTC: 20:00 there at the start of the file. */
  let tz: number;
  /** Today in the owner's zone. */
  let today: string;
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => p.deps.database.query<T>(text, params);
  /** An instant of today in the owner's zone. */
  const at = (hhmm: string) => Date.parse(`${today}T${hhmm}:00Z`) - tz * MIN;
  const rowsOf = async (fenceId: number) =>
    (await q<{ device_id: number; absent: boolean }>('SELECT device_id, absent FROM attendance_daily WHERE fence_id = $1 AND day = $2 ORDER BY device_id', [fenceId, today])).map((r) => ({
      id: Number(r.device_id),
      absent: r.absent,
    }));

  /** A fence stored as it was three days ago, without the calls (nothing seeded). */
  async function storedFence(name: string, watched: Account, windows: { start: string; end: string }[]) {
    const created = new Date(Date.now() - 3 * DAY_MS).toISOString();
    const [f] = await q<{ id: number }>(
      `INSERT INTO account_fences (owner_id, name, alarm_type, kind, lat, lon, radius, schedule, created_at, updated_at)
       VALUES ($1, $2, 3, 'circle', $3, $4, 500, $5, $6, $6) RETURNING id`,
      [agentId, name, CENTRE.Lat, CENTRE.Lon, JSON.stringify({ days: ALL_DAYS, windows }), created],
    );
    await q('INSERT INTO account_fence_accounts (fence_id, account_id) VALUES ($1, $2)', [f!.id, watched.id]);
    return Number(f!.id);
  }

  beforeAll(async () => {
    p = await startTestPlatform(kind, { ATTENDANCE_INTERVAL_SECONDS: '86400' });
    const login = await p.login('agent01');
    agent = login.token;
    agentId = login.userId;
    const now = Date.now();
    const utcMinutes = Math.floor((now % DAY_MS) / MIN);
    tz = 20 * 60 - utcMinutes;
    if (tz > 840) tz -= 1440;
    await q('UPDATE accounts SET time_zone_offset = $1 WHERE id = $2', [tz, agentId]);
    today = new Date(now + tz * MIN).toISOString().slice(0, 10);
  }, 60_000);
  afterAll(() => p?.stop());

  it('has an absent row of today for every silent device once the last window is over: page, totals and export', async () => {
    const silent = await addAccount(p, 'agent01', 'silent01');
    const devices = await addDevices(p, 'silent01', [{}, {}, {}]);
    const ids = devices.map((d) => d.id).sort((a, b) => a - b);
    const fenceId = await storedFence('Day shift', silent, [{ start: '08:00', end: '17:00' }]);
    const body = { FenceId: fenceId, UserId: silent.id, From: today, To: today };

    const daily = await p.call('/AccountFence/Attendance', { ...body, View: 'daily' }, agent);
    expect(daily.status).toBe(200);
    expect(daily.body.Total).toBe(3);
    expect(daily.body.Items.map((i: { DeviceId: number }) => i.DeviceId).sort((a: number, b: number) => a - b)).toEqual(ids);
    for (const item of daily.body.Items) expect(item).toMatchObject({ Day: today, Days: 1, AbsentDays: 1, InsideMinutes: 0, FirstIn: null, LateDays: 0 });
    // The day's own call says the same.
    const one = await p.call('/AccountFence/AttendanceDay', { DeviceId: ids[0], FenceId: fenceId, Day: today }, agent);
    expect(one.body.Row).toEqual(daily.body.Items.find((i: { DeviceId: number }) => i.DeviceId === ids[0]));

    const totals = await p.call('/AccountFence/Attendance', { ...body, View: 'total' }, agent);
    expect(totals.body.Total).toBe(3);
    for (const item of totals.body.Items) expect(item).toMatchObject({ Day: null, Days: 1, AbsentDays: 1 });

    for (const View of ['daily', 'total'] as const) {
      const res = await fetch(`${p.url}/api/AccountFence/AttendanceExport`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${agent}`, 'x-language': 'en' },
        body: JSON.stringify({ ...body, View }),
      });
      expect(res.status).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
      const sheet = wb.worksheets[0]!;
      expect(sheet.rowCount).toBe(1 + 3);
      const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
      const column = (h: string) => [2, 3, 4].map((r) => sheet.getRow(r).getCell(header.indexOf(h) + 1).value);
      expect(column('IMEI').sort()).toEqual(devices.map((d) => d.imei).sort());
      if (View === 'daily') expect(column('Status')).toEqual(['Absent', 'Absent', 'Absent']);
      else expect(column('Days absent')).toEqual([1, 1, 1]);
    }
  });

  it('writes them when the last window ends, not at midnight, and wakes then', async () => {
    const quiet = await addAccount(p, 'agent01', 'quiet01');
    const devices = await addDevices(p, 'quiet01', [{}, {}]);
    const fenceId = await storedFence('Early shift', quiet, [
      { start: '06:00', end: '09:00' },
      { start: '13:00', end: '17:00' },
    ]);
    const job = attendanceJob(p.deps);
    // Between the windows: the day is not over for anyone yet.
    await job.runOnce(at('12:00'));
    expect(await rowsOf(fenceId)).toEqual([]);
    expect(job.wakeAt).toBeLessThanOrEqual(at('17:00'));
    await job.runOnce(at('16:59'));
    expect(await rowsOf(fenceId)).toEqual([]);
    expect(job.wakeAt).toBe(at('17:00'));
    // The moment the last window ends, every watched device has its row: absent.
    await job.runOnce(at('17:00'));
    expect(await rowsOf(fenceId)).toEqual(devices.map((d) => ({ id: d.id, absent: true })).sort((a, b) => a.id - b.id));
  });

  it('gives every watched device its row of today as soon as the fence is saved, and as soon as devices or accounts join', async () => {
    const staff = await addAccount(p, 'agent01', 'staff01');
    const twenty = await addDevices(p, 'staff01', Array.from({ length: 20 }, () => ({})));
    // The evening window is still to come: rows of today, not absent yet.
    const created = await p.call(
      '/Geofence/CreateGeofence',
      { Name: 'Ward', UserIds: [staff.id], AlarmType: 3, Type: 'circle', Lat: CENTRE.Lat, Lon: CENTRE.Lon, Radius: 300, Schedule: { Days: ALL_DAYS, Windows: [{ Start: '22:00', End: '23:00' }] } },
      agent,
    );
    expect(created.status).toBe(200);
    const fenceId = Number(created.body.Item.FenceId);
    expect(await rowsOf(fenceId)).toEqual(twenty.map((d) => ({ id: d.id, absent: false })).sort((a, b) => a.id - b.id));
    const page = await p.call('/AccountFence/Attendance', { FenceId: fenceId, From: today, To: today, View: 'daily', PageCount: 50 }, agent);
    expect(page.body.Total).toBe(20);
    expect(page.body.Items.every((i: { Day: string; AbsentDays: number }) => i.Day === today && i.AbsentDays === 0)).toBe(true);

    // An edit that watches one more account.
    const night = await addAccount(p, 'agent01', 'night01');
    const five = await addDevices(p, 'night01', Array.from({ length: 5 }, () => ({})));
    const edited = await p.call(
      '/Geofence/updateMonitorGeofence',
      { FenceId: fenceId, Name: 'Ward', UserIds: [staff.id, night.id], IncludeChildren: true, AlarmType: 3, Schedule: { Days: ALL_DAYS, Windows: [{ Start: '22:00', End: '23:00' }] } },
      agent,
    );
    expect(edited.status).toBe(200);
    expect((await rowsOf(fenceId)).map((r) => r.id)).toEqual([...twenty, ...five].map((d) => d.id).sort((a, b) => a - b));

    // More accounts watched through the batch call.
    const visitors = await addAccount(p, 'agent01', 'visitors01');
    const three = await addDevices(p, 'visitors01', [{}, {}, {}]);
    const added = await p.call('/Geofence/addMonitorFences', { FenceIds: [fenceId], UserIds: [visitors.id] }, agent);
    expect(added.body.Succeeded).toBe(1);
    expect(await rowsOf(fenceId)).toHaveLength(28);
    for (const d of three) expect((await rowsOf(fenceId)).map((r) => r.id)).toContain(d.id);

    // A device moved into a watched account gets its row too (the move is announced on the bus).
    await addAccount(p, 'agent01', 'spare01');
    const [spare] = await addDevices(p, 'spare01', [{}]);
    const moved = await p.call('/Device/batchMoveDeviceToAccount', { Imeis: [spare!.imei], TargetUserId: staff.id }, agent);
    expect(moved.body.Succeeded).toBe(1);
    await eventually(async () => (await rowsOf(fenceId)).some((r) => r.id === spare!.id), 10_000);
    expect(await rowsOf(fenceId)).toHaveLength(29);

    // So does an account with its devices moved below a watched one (the fence includes sub-accounts).
    const team = await addAccount(p, 'agent01', 'team01');
    const pair = await addDevices(p, 'team01', [{}, {}]);
    const under = await p.call('/user/moveAccount', { UserId: team.id, ParentId: night.id }, agent);
    expect(under.status).toBe(200);
    await eventually(async () => (await rowsOf(fenceId)).filter((r) => pair.some((d) => d.id === r.id)).length === 2, 10_000);
    expect(await rowsOf(fenceId)).toHaveLength(31);
  });
});
