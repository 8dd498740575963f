// Reading attendance: the statistics table (a row per device and fence over a range, or per device,
// fence and day) and one device's day. Scope: the fences owned in the caller's subtree, and the
// devices of the chosen account's subtree (UserId, the caller by default); a fence or device
// outside it answers "not found". The table is one GROUP BY over attendance_daily by its
// (fence_id, day) index, filtered to the devices in scope by a semi-join; the devices, accounts and
// fences are joined only for the page (and for the sort, when it is by a name).
import { sql, type SQL } from 'drizzle-orm';
import type { accountFence } from '@wt/contract';
import type { AuthedContext } from '../../../calls.js';
import type { Db } from '../../../db/client.js';
import { conflict, notFound } from '../../../lib/errors.js';
import { accountInScope } from '../../../lib/scope.js';
import { contains, rows } from '../../../lib/sql.js';
import { computeDay, spanOf, type DayResult } from './compute.js';
import { isWatched, loadFences } from './fences.js';
import { attendanceJob, dwellOf, fixesOf, prevDay } from './job.js';

export interface AttendanceFilter {
  UserId?: number | null;
  FenceId?: number | null;
  Imei?: string;
  From: string;
  To: string;
  View: 'total' | 'daily';
  Sort?: string;
  Order: 'asc' | 'desc';
}

export interface Scope {
  fenceIds: number[];
  /** Condition on devices d. */
  devices: SQL;
  from: string;
  to: string;
}

const intList = (ids: number[]) => sql.raw(`'{${ids.map((i) => Math.trunc(Number(i))).join(',')}}'::int[]`);

/** The fences and devices a filter reads, in the caller's scope (a fence outside it: not found). */
export async function scopeOf(ctx: AuthedContext, f: AttendanceFilter): Promise<Scope> {
  const db = ctx.deps.database.db;
  const account = await accountInScope(db, ctx.user, f.UserId);
  const fences = await rows<{ id: number }>(
    db,
    sql`SELECT f.id FROM account_fences f JOIN accounts o ON o.id = f.owner_id
         WHERE o.path LIKE ${`${ctx.user.path}%`} ${f.FenceId ? sql`AND f.id = ${f.FenceId}` : sql``} ORDER BY f.id`,
  );
  if (f.FenceId && fences.length === 0) throw notFound('accountFence.notFound');
  const conds: SQL[] = [sql`d.account_id IN (SELECT id FROM accounts WHERE path LIKE ${`${account.path}%`})`];
  if (f.Imei) conds.push(sql`d.imei LIKE ${contains(f.Imei)}`);
  return { fenceIds: fences.map((r) => Number(r.id)), devices: sql.join(conds, sql` AND `), from: f.From, to: f.To };
}

/**
 * The figures of a scope: a row per device and fence (total) or per day (daily) of attendance_daily a
 * over the scope's fences and range (`extra` narrows a), aggregated first (the total view reads the
 * (fence_id, day) range once), then joined to the devices in scope and their fences by hash: the
 * device and fence names are there for sorting.
 */
export function scopedQuery(s: Scope, view: 'total' | 'daily', extra: SQL = sql`TRUE`): SQL {
  const where = sql`a.fence_id = ANY(${intList(s.fenceIds)}) AND a.day BETWEEN ${s.from} AND ${s.to} AND ${extra}`;
  const joined = sql`SELECT g.*, d.imei, d.name AS device_name, d.account_id, f.name AS fence_name, f.owner_id
                       FROM g JOIN devices d ON d.id = g.device_id JOIN account_fences f ON f.id = g.fence_id
                      WHERE ${s.devices}`;
  if (view === 'daily') {
    return sql`WITH g AS (SELECT a.fence_id, a.device_id, a.day::text AS day, 1 AS days, a.first_in, a.last_out, a.inside_seconds::bigint AS inside_seconds,
                                 a.entries, a.exits, a.late_minutes, a.early_minutes, a.late::int AS late_days, a.early::int AS early_days, a.absent::int AS absent_days
                            FROM attendance_daily a WHERE ${where})
               ${joined}`;
  }
  return sql`WITH g AS MATERIALIZED (
               SELECT a.fence_id, a.device_id, NULL::text AS day, count(*)::int AS days, NULL::timestamptz AS first_in, NULL::timestamptz AS last_out,
                      sum(a.inside_seconds)::bigint AS inside_seconds, sum(a.entries)::int AS entries, sum(a.exits)::int AS exits,
                      sum(a.late_minutes)::int AS late_minutes, sum(a.early_minutes)::int AS early_minutes,
                      count(*) FILTER (WHERE a.late)::int AS late_days, count(*) FILTER (WHERE a.early)::int AS early_days,
                      count(*) FILTER (WHERE a.absent)::int AS absent_days
                 FROM attendance_daily a WHERE ${where} GROUP BY a.fence_id, a.device_id)
             ${joined}`;
}

export interface RawRow {
  fence_id: number;
  device_id: number;
  day: string | null;
  days: number;
  first_in: Date | string | null;
  last_out: Date | string | null;
  inside_seconds: number | string;
  entries: number;
  exits: number;
  late_minutes: number;
  early_minutes: number;
  late_days: number;
  early_days: number;
  absent_days: number;
  imei: string;
  device_name: string;
  login_name: string;
  fence_name: string;
  tz: number;
}

const iso = (v: Date | string | null) => (v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString());

export function rowOut(r: RawRow): accountFence.AttendanceRow {
  return {
    DeviceId: Number(r.device_id),
    Imei: r.imei,
    DeviceName: r.device_name,
    LoginName: r.login_name,
    FenceId: Number(r.fence_id),
    FenceName: r.fence_name,
    Day: r.day,
    Days: Number(r.days),
    FirstIn: iso(r.first_in),
    LastOut: iso(r.last_out),
    InsideMinutes: Math.round(Number(r.inside_seconds) / 60),
    Entries: Number(r.entries),
    Exits: Number(r.exits),
    LateMinutes: Number(r.late_minutes),
    EarlyMinutes: Number(r.early_minutes),
    LateDays: Number(r.late_days),
    EarlyDays: Number(r.early_days),
    AbsentDays: Number(r.absent_days),
    TimeZoneOffset: Number(r.tz),
  };
}

/** A page of a scoped query (subquery p), with the account names and the owner's zone. */
export function named(page: SQL, order: SQL): SQL {
  return sql`SELECT p.*, ac.login_name, o.time_zone_offset AS tz
               FROM (${page}) p
               JOIN accounts ac ON ac.id = p.account_id
               JOIN accounts o ON o.id = p.owner_id
              ORDER BY ${order}`;
}

const SORTS: Record<string, string> = {
  Imei: 'imei',
  DeviceName: 'device_name',
  FenceName: 'fence_name',
  InsideMinutes: 'inside_seconds',
  Entries: 'entries',
  LateMinutes: 'late_minutes',
  EarlyMinutes: 'early_minutes',
  AbsentDays: 'absent_days',
  LateDays: 'late_days',
  EarlyDays: 'early_days',
};

export async function list(ctx: AuthedContext, body: AttendanceFilter & { PageNo: number; PageCount: number }) {
  const db = ctx.deps.database.db;
  const s = await scopeOf(ctx, body);
  if (s.fenceIds.length === 0) return { State: 200 as const, Total: 0, Items: [] };
  await attendanceJob(ctx.deps).ensureFresh(s.fenceIds, s.to);
  const D = body.Order === 'desc' ? 'DESC' : 'ASC';
  const tie = body.View === 'daily' ? ['fence_id', 'device_id', 'day'] : ['fence_id', 'device_id'];
  const base = scopedQuery(s, body.View);
  const key = body.Sort === 'Day' ? (body.View === 'daily' ? 'day' : undefined) : body.Sort ? SORTS[body.Sort] : undefined;
  const cols = key ? [`${key} ${D}`, ...tie] : tie.map((c) => `${c} ${D}`);
  const page = sql`SELECT b.* FROM (${base}) b ORDER BY ${sql.raw(cols.join(', '))}
                   LIMIT ${body.PageCount} OFFSET ${(body.PageNo - 1) * body.PageCount}`;
  const order = sql.raw(cols.map((c) => `p.${c}`).join(', '));
  // The page (a top-N sort) and the count run side by side on two connections: a count over the
  // window of the page's query would hold every row of the range before the first is answered.
  const [list, [c]] = await Promise.all([rows<RawRow>(db, named(page, order)), rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (${base}) b`)]);
  return { State: 200 as const, Total: Number(c?.n ?? 0), Items: list.map(rowOut) };
}

export async function day(ctx: AuthedContext, body: { DeviceId: number; FenceId: number; Day: string }) {
  const db = ctx.deps.database.db;
  const [fence] = await loadFences(db, sql`f.id = ${body.FenceId} AND a.path LIKE ${`${ctx.user.path}%`}`);
  if (!fence) throw notFound('accountFence.notFound');
  const [device] = await rows<{ id: number; imei: string; name: string; login_name: string }>(
    db,
    sql`SELECT d.id, d.imei, d.name, a.login_name FROM devices d JOIN accounts a ON a.id = d.account_id
         WHERE d.id = ${body.DeviceId} AND a.path LIKE ${`${ctx.user.path}%`}`,
  );
  if (!device) throw notFound('device.notFound');
  if (!(await isWatched(db, fence.id, device.id))) throw conflict('accountFence.deviceNotWatched');
  await attendanceJob(ctx.deps).ensureFresh([fence.id], body.Day);
  const now = Date.now();
  const [prev] = await rows<{ end_inside: boolean | null; end_pending_since: Date | string | null; end_pending_count: number }>(
    db,
    sql`SELECT end_inside, end_pending_since, end_pending_count FROM attendance_daily WHERE fence_id = ${fence.id} AND device_id = ${device.id} AND day = ${prevDay(body.Day)}`,
  );
  const span = spanOf(body.Day, fence.tz, fence.schedule);
  const fixes = (await fixesOf(ctx.deps, fence, [device.id], span.start, Math.min(span.end, now))).get(device.id) ?? [];
  const r: DayResult = computeDay({
    day: body.Day,
    tz: fence.tz,
    schedule: fence.schedule,
    dwell: dwellOf(ctx.deps),
    start: prev ? { inside: prev.end_inside, pendingSince: prev.end_pending_since === null ? null : new Date(prev.end_pending_since).getTime(), pendingCount: Number(prev.end_pending_count) } : null,
    fixes,
    now,
  });
  const out = (t: number) => new Date(t).toISOString();
  return {
    State: 200 as const,
    Row: {
      DeviceId: device.id,
      Imei: device.imei,
      DeviceName: device.name,
      LoginName: device.login_name,
      FenceId: fence.id,
      FenceName: fence.name,
      Day: body.Day,
      Days: 1,
      FirstIn: r.firstIn === null ? null : out(r.firstIn),
      LastOut: r.lastOut === null ? null : out(r.lastOut),
      InsideMinutes: Math.round(r.insideSeconds / 60),
      Entries: r.entries,
      Exits: r.exits,
      LateMinutes: r.lateMinutes,
      EarlyMinutes: r.earlyMinutes,
      LateDays: r.late ? 1 : 0,
      EarlyDays: r.early ? 1 : 0,
      AbsentDays: r.absent ? 1 : 0,
      TimeZoneOffset: fence.tz,
    },
    TimeZoneOffset: fence.tz,
    Intervals: r.intervals.map((i) => ({ Start: out(i.start), End: out(i.end), State: i.state })),
    Windows: r.windows.map((w) => ({ Start: out(w.start), End: out(w.end) })),
  };
}

/** Rows of a scope exist at all (the export's 409). */
export async function anyRow(db: Db, s: Scope): Promise<boolean> {
  if (s.fenceIds.length === 0) return false;
  const r = await rows(db, sql`${scopedQuery(s, 'daily')} LIMIT 1`);
  return r.length > 0;
}
