// Keeps attendance_daily up to date (service role worker, every ATTENDANCE_INTERVAL_SECONDS and at
// the moments days open and close), and brings it up to date on demand before the attendance calls
// answer. One run, bounded in work and restartable (rows are upserted, marks deleted only once
// processed):
// 1. Marks: takes the oldest attendance_dirty rows (devices whose positions arrived, late or live,
//    with the earliest position time) and, for every fence watching each device, recomputes from
//    the first day whose span holds that time (the day before when a night window of the day before
//    runs past it) to today. The days up to the mark's own day are always recomputed; later days only
//    when their start state came out different, their row is missing or provisional (computed before
//    the day's span ended), the fence changed since, or positions in their span were received after
//    the row was computed (less a margin for the commit lag): unchanged days stop costing anything.
//    A processed mark is deleted only if it was not marked again meanwhile (same since and marked_at).
// 2. Fence edits: a fence whose updated_at moved gets its rows from the edit's local day on that were
//    computed before the edit recomputed (older days keep the figures of the shape they were
//    measured against).
// 3. Closing: a day is open once its last schedule window has ended (a day without windows: once its
//    span has ended) and final once its span has ended (closingDays). For every fence and watched
//    device, the open days (at most CLOSE_BACK_DAYS back, not before the fence's creation day) without
//    a row get one (a device silent on a scheduled day is absent as soon as the day's last window is
//    over), and rows computed before their day opened, or before it became final, are recomputed.
//    Checked again when a day opens or becomes final, and at least hourly (devices join watched
//    accounts). The service wakes at the next such moment of any fence (wakeAt).
// Seeding: when a fence is saved, and when devices join the accounts fences watch, every watched
// device gets its rows at once, today's included as far as today's windows go (seed, seedDevices).
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { attendanceDaily } from '../../../db/schema/account-fence.js';
import type { AppDeps } from '../../../deps.js';
import { subtreePattern } from '../../../lib/scope.js';
import { rows } from '../../../lib/sql.js';
import { TOPICS, type DeviceChangedEvent } from '../../../pipeline/events.js';
import { REALTIME_TOPICS, type AccountsMovedEvent } from '../../../realtime/topics.js';
import type { DwellConfig } from '../../../rules/dwell.js';
import { dayStart, daysBetween, localDay, windowsOn } from '../../../rules/schedule.js';
import type { Service } from '../../../services.js';
import { computeDay, sameCarried, spanOf, type CarriedState, type DayResult, type Fix } from './compute.js';
import { loadFences, watchedSql, type AttendanceFence } from './fences.js';

const DAY_MS = 86_400_000;
/** Devices whose positions are read in one query. */
const DEVICE_BATCH = 200;
/** Marks taken per run. */
const DIRTY_BATCH = 500;
/** Device-fence recomputations per run, beyond which the rest waits for the next run. */
const RUN_BUDGET = 5_000;
/** Days back the closing looks for missing rows. */
export const CLOSE_BACK_DAYS = 7;
/** Days back any recomputation reaches (the longest range the calls read). */
const MAX_BACK_DAYS = 93;
/** A position received this long before a row was computed may still have been committed after it. */
const RECEIPT_MARGIN_MS = 5 * 60_000;
const CLOSE_RECHECK_MS = 3_600_000;

export const prevDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10);
const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
const intList = (ids: number[]) => sql.raw(`'{${ids.map((i) => Math.trunc(Number(i))).join(',')}}'::int[]`);
const ms = (v: Date | string | null): number | null => (v === null ? null : (v instanceof Date ? v : new Date(v)).getTime());

export interface TimedFix extends Fix {
  received: number;
}

/** The fixes of [from, to) in a time-ordered array, by binary search. */
export function sliceFixes<T extends Fix>(fixes: T[], from: number, to: number): T[] {
  const lower = (t: number) => {
    let lo = 0;
    let hi = fixes.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (fixes[mid]!.time < t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  return fixes.slice(lower(from), lower(to));
}

export function dwellOf(deps: AppDeps): DwellConfig {
  return { fixes: deps.config.FENCE_DWELL_FIXES, ms: deps.config.FENCE_DWELL_SECONDS * 1000 };
}

interface RawFix {
  device_id: number;
  time: Date | string;
  lat: number;
  lon: number;
  received_at: Date | string;
}

/**
 * Positions read in one run, by device list and range: the fences watching the same devices (in the
 * same time zone) test the same positions, read once.
 */
export type FixCache = Map<string, Promise<RawFix[]>>;

/** The usable fixes of some devices over [from, to), tested against the fence, per device. */
export async function fixesOf(deps: AppDeps, fence: AttendanceFence, deviceIds: number[], from: number, to: number, cache?: FixCache): Promise<Map<number, TimedFix[]>> {
  const key = `${deviceIds.join(',')}|${from}|${to}`;
  let read = cache?.get(key);
  if (!read) {
    read = rows<RawFix>(
      deps.database.db,
      sql`SELECT device_id, time, lat, lon, received_at FROM positions
           WHERE device_id = ANY(${intList(deviceIds)}) AND time >= ${new Date(from).toISOString()} AND time < ${new Date(to).toISOString()}
             AND valid AND lat IS NOT NULL AND lon IS NOT NULL
             AND (accuracy IS NULL OR accuracy <= ${deps.config.FENCE_MAX_ACCURACY_M})
           ORDER BY device_id, time`,
    );
    cache?.set(key, read);
  }
  const out = new Map<number, TimedFix[]>();
  for (const r of await read) {
    const id = Number(r.device_id);
    let arr = out.get(id);
    if (!arr) out.set(id, (arr = []));
    arr.push({ time: ms(r.time)!, received: ms(r.received_at)!, inside: fence.area.contains({ lat: Number(r.lat), lon: Number(r.lon) }) });
  }
  return out;
}

interface StoredRow {
  end: CarriedState;
  computedAt: number;
}

/** The carried state stored for some devices' days at a fence: device -> day -> row. */
async function storedRows(db: Db, fenceId: number, deviceIds: number[], from: string, to: string): Promise<Map<number, Map<string, StoredRow>>> {
  const list = await rows<{ device_id: number; day: string; end_inside: boolean | null; end_pending_since: Date | string | null; end_pending_count: number; computed_at: Date | string }>(
    db,
    sql`SELECT device_id, day::text AS day, end_inside, end_pending_since, end_pending_count, computed_at FROM attendance_daily
         WHERE fence_id = ${fenceId} AND device_id = ANY(${intList(deviceIds)}) AND day BETWEEN ${from} AND ${to}`,
  );
  const out = new Map<number, Map<string, StoredRow>>();
  for (const r of list) {
    const id = Number(r.device_id);
    let m = out.get(id);
    if (!m) out.set(id, (m = new Map()));
    m.set(r.day, {
      end: { inside: r.end_inside, pendingSince: ms(r.end_pending_since), pendingCount: Number(r.end_pending_count) },
      computedAt: ms(r.computed_at)!,
    });
  }
  return out;
}

/** The row of a computed day. */
export function rowOf(fenceId: number, deviceId: number, r: DayResult, now: number): typeof attendanceDaily.$inferInsert {
  return {
    fenceId,
    deviceId,
    day: r.day,
    firstIn: r.firstIn === null ? null : new Date(r.firstIn),
    lastOut: r.lastOut === null ? null : new Date(r.lastOut),
    insideSeconds: r.insideSeconds,
    entries: r.entries,
    exits: r.exits,
    lateMinutes: r.lateMinutes,
    earlyMinutes: r.earlyMinutes,
    late: r.late,
    early: r.early,
    absent: r.absent,
    scheduled: r.scheduled,
    endInside: r.end.inside,
    endPendingSince: r.end.pendingSince === null ? null : new Date(r.end.pendingSince),
    endPendingCount: Math.min(r.end.pendingCount, 32_767),
    computedAt: new Date(now),
  };
}

const UPSERT_ROWS = 500;
async function upsert(db: Db, list: (typeof attendanceDaily.$inferInsert)[]) {
  const set = Object.fromEntries(
    ['first_in', 'last_out', 'inside_seconds', 'entries', 'exits', 'late_minutes', 'early_minutes', 'late', 'early', 'absent', 'scheduled', 'end_inside', 'end_pending_since', 'end_pending_count', 'computed_at'].map(
      (c) => [c.replace(/_(\w)/g, (_, x: string) => x.toUpperCase()), sql.raw(`excluded.${c}`)],
    ),
  );
  for (let i = 0; i < list.length; i += UPSERT_ROWS) {
    await db
      .insert(attendanceDaily)
      .values(list.slice(i, i + UPSERT_ROWS))
      .onConflictDoUpdate({ target: [attendanceDaily.fenceId, attendanceDaily.deviceId, attendanceDaily.day], set });
  }
}

export interface Unit {
  deviceId: number;
  /** First day to look at. */
  from: string;
  /** Days up to this one are recomputed whatever is stored. */
  forceThrough?: string;
}

/** The first day whose span holds an instant (the day before when one of its windows runs past it). */
export function firstDayHolding(fence: AttendanceFence, time: number): string {
  const day = localDay(time, fence.tz);
  const before = prevDay(day);
  return spanOf(before, fence.tz, fence.schedule).end > time ? before : day;
}

/** What the closing needs of a fence. */
type Closable = Pick<AttendanceFence, 'tz' | 'schedule' | 'createdAt'>;

/**
 * When a day's rows are due: `open` once its last schedule window has ended (a day without windows:
 * once its span has ended), from when every watched device has a row, absent ones included; `final`
 * once its span has ended, when the rows are computed for good.
 */
function dueOf(f: Closable, day: string): { open: number; final: number } {
  const final = spanOf(day, f.tz, f.schedule).end;
  const windows = windowsOn(f.schedule, day, f.tz);
  return { open: windows.length ? Math.max(...windows.map((w) => w.end)) : final, final };
}

interface ClosingDay {
  day: string;
  /** Rows computed before this instant are recomputed (0: any row will do). */
  due: number;
}

/**
 * The days the closing looks at, at `now`: from CLOSE_BACK_DAYS before today (not before the fence's
 * creation day) to today, those open, each due from its final moment when that has passed, else from
 * its opening; with `seed`, the days not open yet too (due 0). Days open in order of their dates, so
 * the list of open days is a run from the first.
 */
function closingDays(f: Closable, now: number, seed = false): ClosingDay[] {
  const today = localDay(now, f.tz);
  const first = [localDay(f.createdAt, f.tz), addDays(today, -CLOSE_BACK_DAYS)].sort().at(-1)!;
  const out: ClosingDay[] = [];
  for (const day of daysBetween(first, today)) {
    const d = dueOf(f, day);
    if (d.final <= now) out.push({ day, due: d.final });
    else if (d.open <= now) out.push({ day, due: d.open });
    else if (seed) out.push({ day, due: 0 });
  }
  return out;
}

/** What the closing of a fence has done is still all there is to do while this stays the same. */
const closingKey = (days: ClosingDay[]) => (days.length ? `${days[days.length - 1]!.day}@${days[days.length - 1]!.due}` : '');

/** The next moment after `now` a day of the fence opens or becomes final. */
function nextDue(f: Closable, now: number): number {
  const today = localDay(now, f.tz);
  let next = Infinity;
  for (const day of [prevDay(today), today, addDays(today, 1)]) {
    for (const t of Object.values(dueOf(f, day))) if (t > now && t < next) next = t;
  }
  return next;
}

/**
 * Recomputes the days of some devices at one fence from each unit's first day to `to`, where
 * needed (see the top of this file); answers how many device-days were written.
 */
export async function refresh(deps: AppDeps, fence: AttendanceFence, units: Unit[], to: string, now: number, cache?: FixCache): Promise<number> {
  const db = deps.database.db;
  const dwell = dwellOf(deps);
  const floor = [localDay(fence.createdAt, fence.tz), addDays(localDay(now, fence.tz), -(MAX_BACK_DAYS - 1))].sort().at(-1)!;
  const todo = units
    .map((u) => ({ ...u, from: u.from < floor ? floor : u.from }))
    .filter((u) => u.from <= to)
    .sort((a, b) => a.deviceId - b.deviceId);
  let written = 0;
  for (let i = 0; i < todo.length; i += DEVICE_BATCH) {
    const batch = todo.slice(i, i + DEVICE_BATCH);
    const ids = batch.map((u) => u.deviceId);
    const from = batch.map((u) => u.from).sort()[0]!;
    const stored = await storedRows(db, fence.id, ids, prevDay(from), to);
    const fixes = await fixesOf(deps, fence, ids, dayStart(from, fence.tz), Math.min(spanOf(to, fence.tz, fence.schedule).end, now), cache);
    const out: (typeof attendanceDaily.$inferInsert)[] = [];
    for (const u of batch) {
      const mine = stored.get(u.deviceId) ?? new Map<string, StoredRow>();
      const all = fixes.get(u.deviceId) ?? [];
      let carried: CarriedState | null = mine.get(prevDay(u.from))?.end ?? null;
      let changed = false;
      for (const day of daysBetween(u.from, to)) {
        const s = mine.get(day);
        const span = spanOf(day, fence.tz, fence.schedule);
        const dayFixes = sliceFixes(all, span.start, span.end);
        const needs =
          !s ||
          changed ||
          (u.forceThrough !== undefined && day <= u.forceThrough) ||
          s.computedAt < fence.updatedAt ||
          s.computedAt < span.end ||
          dayFixes.some((f) => f.received > s.computedAt - RECEIPT_MARGIN_MS);
        if (!needs) {
          carried = s.end;
          continue;
        }
        const r = computeDay({ day, tz: fence.tz, schedule: fence.schedule, dwell, start: carried, fixes: dayFixes, now });
        out.push(rowOf(fence.id, u.deviceId, r, now));
        changed = !s || !sameCarried(r.end, s.end);
        carried = r.end;
      }
    }
    await upsert(db, out);
    written += out.length;
  }
  return written;
}

/** A narrower run: these fences, and the marks of their devices for positions before `before`. */
export interface RunScope {
  fenceIds: number[];
  before: number;
}

/** Condition on attendance_dirty x: a mark of a run's scope. */
function marksIn(only: RunScope): SQL {
  return sql`x.since < ${new Date(only.before).toISOString()} AND x.device_id IN (SELECT w.device_id FROM (${watchedSql(sql`f.id = ANY(${intList(only.fenceIds)})`)}) w)`;
}

export interface RunReport {
  marks: number;
  written: number;
  /** Work was left for the next run. */
  more: boolean;
}

/** One process's attendance runner: runs are serialized, and remember what they have checked. */
export class AttendanceJob {
  private chain: Promise<unknown> = Promise.resolve();
  /** Fence id -> the updated_at whose recomputation is done. */
  private editsDone = new Map<number, number>();
  /** Fence id -> the closing done (closingKey), and when. */
  private closed = new Map<number, { key: string; at: number }>();
  /** The next moment a day of any fence opens or becomes final, as of the last full run. */
  wakeAt = Infinity;

  /** Set when the process stops: a run in progress ends at its next group or fence (marks kept). */
  private stopping = false;

  constructor(private readonly deps: AppDeps) {}

  /** Ends the run in progress early (what it did not finish stays marked) and waits for it. */
  stop(): Promise<unknown> {
    this.stopping = true;
    return this.chain;
  }

  /** Runs `work` after every run of this process queued before it. */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.chain.then(work);
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** One bounded run (serialized with any other of this process); `only` narrows it (the calls' catch-up). */
  runOnce(now = Date.now(), only?: RunScope): Promise<RunReport> {
    return this.serialized(() => this.run(now, only));
  }

  /**
   * Brings the rows of these fences up to date for a range ending on day `to` before a call reads
   * them: the marks of their devices for positions before the range's end and before today (late
   * data for finished days: today's live marks are the job's, so a call never replays a whole day of
   * live positions), their edits and their closing. Cheap when all is settled: one look-up of marks
   * and the fences' update times.
   */
  async ensureFresh(fenceIds: number[], to: string, now = Date.now()): Promise<void> {
    if (fenceIds.length === 0) return;
    const db = this.deps.database.db;
    const fences = await rows<{ id: number; updated_at: Date | string; created_at: Date | string; tz: number; schedule: AttendanceFence['schedule'] }>(
      db,
      sql`SELECT f.id, f.updated_at, f.created_at, f.schedule, a.time_zone_offset AS tz FROM account_fences f JOIN accounts a ON a.id = f.owner_id WHERE f.id = ANY(${intList(fenceIds)})`,
    );
    if (fences.length === 0) return;
    const before = Math.max(...fences.map((f) => Math.min(dayStart(addDays(to, 1), Number(f.tz)), dayStart(localDay(now, Number(f.tz)), Number(f.tz)))));
    const only: RunScope = { fenceIds: fences.map((f) => Number(f.id)), before };
    const [dirty] = await rows(db, sql`SELECT 1 AS x FROM attendance_dirty x WHERE ${marksIn(only)} LIMIT 1`);
    const settled = fences.every((f) => {
      const c = this.closed.get(Number(f.id));
      const key = closingKey(closingDays({ tz: Number(f.tz), schedule: f.schedule, createdAt: ms(f.created_at)! }, now));
      return this.editsDone.get(Number(f.id)) === ms(f.updated_at) && c && c.key === key && now - c.at < CLOSE_RECHECK_MS;
    });
    if (!dirty && settled) return;
    await this.runOnce(now, only);
  }

  /**
   * Every device these fences watch gets its rows, today's included as far as today's windows go
   * (a fence was saved: created, edited, given more accounts). Resolves once the first bounded pass
   * is done; what is left follows in further passes.
   */
  seed(fenceIds: number[]): Promise<void> {
    if (fenceIds.length === 0) return Promise.resolve();
    return this.seedWhere(sql`f.id = ANY(${intList(fenceIds)})`, sql`TRUE`);
  }

  /** The same for some devices (they joined accounts fences watch), at every fence watching them. */
  seedDevices(devices: SQL): Promise<void> {
    return this.seedWhere(sql`f.id IN (SELECT w.fence_id FROM (${watchedSql(sql`TRUE`, devices)}) w)`, devices);
  }

  private async seedWhere(fenceWhere: SQL, devices: SQL): Promise<void> {
    const pass = () => this.serialized(() => this.seedPass(Date.now(), fenceWhere, devices));
    let r = await pass();
    if (!r.more) return;
    void (async () => {
      while (r.more && !this.stopping) r = await pass();
    })().catch((err: unknown) => this.deps.log.error({ err }, 'attendance rows of watched devices failed'));
  }

  private async seedPass(now: number, fenceWhere: SQL, devices: SQL): Promise<RunReport> {
    let budget = RUN_BUDGET;
    const report: RunReport = { marks: 0, written: 0, more: false };
    for (const fence of await loadFences(this.deps.database.db, fenceWhere)) {
      if (budget <= 0 || this.stopping) {
        report.more = true;
        break;
      }
      const r = await this.close(fence, closingDays(fence, now, true), now, budget, devices);
      report.written += r.written;
      budget -= r.units;
      if (r.more) report.more = true;
    }
    return report;
  }

  /**
   * The closing of one fence over some days: the watched devices (of `devices`, a condition on d)
   * whose row of one of the days is missing or computed before the day's due moment are brought up
   * to date from that day on, at most `budget` of them.
   */
  private async close(fence: AttendanceFence, days: ClosingDay[], now: number, budget: number, devices: SQL = sql`TRUE`) {
    if (days.length === 0) return { written: 0, units: 0, more: false };
    const open = await rows<{ device_id: number; day: string }>(
      this.deps.database.db,
      sql`SELECT w.device_id, min(g.day)::text AS day
            FROM (${watchedSql(sql`f.id = ${fence.id}`, devices)}) w
            CROSS JOIN jsonb_to_recordset(${JSON.stringify(days)}::jsonb) AS g(day date, due bigint)
            LEFT JOIN attendance_daily a ON a.fence_id = ${fence.id} AND a.device_id = w.device_id AND a.day = g.day
           WHERE a.device_id IS NULL OR a.computed_at < to_timestamp(g.due / 1000.0)
           GROUP BY w.device_id ORDER BY w.device_id LIMIT ${budget + 1}`,
    );
    const units = open.slice(0, budget).map((r) => ({ deviceId: Number(r.device_id), from: r.day }));
    const written = await refresh(this.deps, fence, units, days[days.length - 1]!.day, now);
    return { written, units: units.length, more: open.length > units.length };
  }

  private async run(now: number, only?: RunScope): Promise<RunReport> {
    let budget = RUN_BUDGET;
    const report: RunReport = { marks: 0, written: 0, more: false };
    const db = this.deps.database.db;

    // 1. Marks.
    const marks = await rows<{ device_id: number; since: Date | string; since_text: string; marked_text: string }>(
      db,
      sql`SELECT device_id, since, since::text AS since_text, marked_at::text AS marked_text FROM attendance_dirty x WHERE ${only ? marksIn(only) : sql`TRUE`} ORDER BY marked_at LIMIT ${DIRTY_BATCH}`,
    );
    if (marks.length) {
      const sinceOf = new Map(marks.map((m) => [Number(m.device_id), ms(m.since)!]));
      const pairs = await rows<{ fence_id: number; device_id: number }>(db, watchedSql(sql`TRUE`, sql`d.id = ANY(${intList([...sinceOf.keys()])})`));
      const fences = await loadFences(db, sql`f.id = ANY(${intList([...new Set(pairs.map((p) => Number(p.fence_id)))])})`);
      // A group of devices at a time, every fence watching them: the fences share the group's
      // positions (read once per zone and range), and memory holds one group's.
      const devices = [...sinceOf.keys()].sort((a, b) => a - b);
      for (let i = 0; i < devices.length; i += DEVICE_BATCH) {
        const group = new Set(devices.slice(i, i + DEVICE_BATCH));
        const cache: FixCache = new Map();
        for (const fence of fences) {
          // Stopping: the marks stay for the next start (none of them is deleted below).
          if (this.stopping) return { ...report, more: true };
          const today = localDay(now, fence.tz);
          const units = pairs
            .filter((p) => Number(p.fence_id) === fence.id && group.has(Number(p.device_id)))
            .map((p) => {
              const since = sinceOf.get(Number(p.device_id))!;
              return { deviceId: Number(p.device_id), from: firstDayHolding(fence, since), forceThrough: localDay(since, fence.tz) };
            });
          if (units.length === 0) continue;
          report.written += await refresh(this.deps, fence, units, today, now, cache);
          budget -= units.length;
        }
      }
      await db.execute(
        sql`DELETE FROM attendance_dirty d USING jsonb_to_recordset(${JSON.stringify(marks.map((m) => ({ id: Number(m.device_id), s: m.since_text, m: m.marked_text })))}::jsonb) AS x(id int, s timestamptz, m timestamptz)
             WHERE d.device_id = x.id AND d.since = x.s AND d.marked_at = x.m`,
      );
      report.marks = marks.length;
      if (marks.length === DIRTY_BATCH) report.more = true;
    }

    // 2 and 3, fence by fence while the budget lasts.
    const fences = await loadFences(db, only ? sql`f.id = ANY(${intList(only.fenceIds)})` : sql`TRUE`);
    const live = new Set(fences.map((f) => f.id));
    for (const id of [...this.editsDone.keys(), ...this.closed.keys()]) {
      if (!only && !live.has(id)) {
        this.editsDone.delete(id);
        this.closed.delete(id);
      }
    }
    if (!only) this.wakeAt = Math.min(...fences.map((f) => nextDue(f, now)));
    for (const fence of fences) {
      if (budget <= 0 || this.stopping) {
        report.more = true;
        break;
      }
      const today = localDay(now, fence.tz);
      if (this.editsDone.get(fence.id) !== fence.updatedAt) {
        const from = localDay(fence.updatedAt, fence.tz);
        const stale = await rows<{ device_id: number; day: string }>(
          db,
          sql`SELECT device_id, min(day)::text AS day FROM attendance_daily
               WHERE fence_id = ${fence.id} AND day >= ${from} AND computed_at < ${new Date(fence.updatedAt).toISOString()}
               GROUP BY device_id ORDER BY device_id LIMIT ${budget}`,
        );
        const units = stale.map((r) => ({ deviceId: Number(r.device_id), from: r.day, forceThrough: today }));
        const cap = budget;
        report.written += await refresh(this.deps, fence, units, today, now);
        budget -= units.length;
        if (stale.length < cap) this.editsDone.set(fence.id, fence.updatedAt);
        else report.more = true;
      }
      const days = closingDays(fence, now);
      const key = closingKey(days);
      const c = this.closed.get(fence.id);
      if (budget > 0 && !(c && c.key === key && now - c.at < CLOSE_RECHECK_MS)) {
        const r = await this.close(fence, days, now, budget);
        report.written += r.written;
        budget -= r.units;
        if (r.more) report.more = true;
        else this.closed.set(fence.id, { key, at: now });
      }
    }
    return report;
  }
}

const jobs = new WeakMap<AppDeps, AttendanceJob>();

/** The attendance runner of a platform (one per process, shared by the job and the calls). */
export function attendanceJob(deps: AppDeps): AttendanceJob {
  let j = jobs.get(deps);
  if (!j) jobs.set(deps, (j = new AttendanceJob(deps)));
  return j;
}

/** The shortest wait between runs when a day opens or closes (a run at that moment finds it so). */
const MIN_WAKE_MS = 50;

/**
 * Runs the attendance job every ATTENDANCE_INTERVAL_SECONDS, at the next moment a day of a fence
 * opens or becomes final when that comes sooner, and again at once while work is left; seeds the
 * rows of devices that join accounts fences watch (added, handed over, their account moved).
 */
export const attendanceService: Service = {
  name: 'attendance',
  roles: ['worker'],
  async start(deps: AppDeps) {
    const job = attendanceJob(deps);
    const interval = deps.config.ATTENDANCE_INTERVAL_SECONDS * 1000;
    let stopped = false;
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<unknown> = Promise.resolve();
    const schedule = (delay: number) => {
      if (stopped) return;
      timer = setTimeout(tick, delay);
      timer.unref();
    };
    const next = () => Math.min(interval, Math.max(MIN_WAKE_MS, job.wakeAt - Date.now()));
    const tick = () => {
      running = job.runOnce().then(
        (r) => schedule(r.more ? 1000 : next()),
        (err: unknown) => {
          deps.log.error({ err }, 'attendance run failed');
          schedule(interval);
        },
      );
    };
    schedule(interval);

    // Devices that joined watched accounts, gathered while a seeding runs.
    const devices = new Set<number>();
    const paths = new Set<string>();
    let joining: Promise<void> | null = null;
    const join = () => {
      if (joining || stopped) return;
      joining = (async () => {
        while ((devices.size || paths.size) && !stopped) {
          const ids = [...devices];
          const moved = [...paths];
          devices.clear();
          paths.clear();
          const conds = [...(ids.length ? [sql`d.id = ANY(${intList(ids)})`] : []), ...moved.map((p) => sql`d.account_id IN (SELECT id FROM accounts WHERE path LIKE ${subtreePattern({ path: p })})`)];
          await job.seedDevices(sql`(${sql.join(conds, sql` OR `)})`);
        }
      })()
        .catch((err: unknown) => deps.log.error({ err }, 'attendance rows of joining devices failed'))
        .finally(() => {
          joining = null;
        });
    };
    const off = [
      deps.bus.subscribe<DeviceChangedEvent>(
        TOPICS.changed,
        (e) => {
          if (!e.deviceId) return;
          devices.add(e.deviceId);
          join();
        },
        { cluster: true },
      ),
      deps.bus.subscribe<AccountsMovedEvent>(
        REALTIME_TOPICS.accountsMoved,
        (e) => {
          paths.add(e.to);
          join();
        },
        { cluster: true },
      ),
    ];
    return async () => {
      stopped = true;
      for (const o of off) o();
      clearTimeout(timer);
      await job.stop();
      await running;
      await joining;
    };
  },
  async stop() {},
};
