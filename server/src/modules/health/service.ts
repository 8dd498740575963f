// The Health area's calls: the readings list, a device's series for the detail charts (with its
// thresholds, sleep per night and health alarms), and which devices and days have data.
import { sql, type SQL } from 'drizzle-orm';
import { ALARM_TYPES, type SentTime } from '@wt/contract';
import type { AuthedContext, AuthUser } from '../../calls.js';
import { accounts, deviceState, devices, healthReadings } from '../../db/schema/index.js';
import { accountInScope, ownedBySubtree } from '../../lib/scope.js';
import { allOf, contains, rows } from '../../lib/sql.js';
import { sentInstant, shownTime, shownTimeOrNull } from '../../lib/time.js';
import { loadThresholds } from '../../rules/alarm-engine.js';
import { deviceInScope, queryRecords, recordOut } from '../alarm/service.js';

type Row = Record<string, unknown>;
const n = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export const HEALTH_ALARM_CODES = ALARM_TYPES.filter((a) => a.category === 'health').map((a) => a.code);

export interface HealthFilter {
  StartTime?: SentTime;
  EndTime?: SentTime;
  DeviceId?: number;
  Imei?: string;
  AccountId?: number;
  Kind?: 'heartRate' | 'bloodPressure' | 'temperature' | 'bloodOxygen' | 'steps' | 'sleep';
}

/**
 * Which reports carry a measure. A condition on the report (after grouping), not on a stored row: a
 * report whose heart rate and blood oxygen came as two rows still shows both when one is asked for.
 */
const KIND_CONDITION: Record<NonNullable<HealthFilter['Kind']>, SQL> = {
  heartRate: sql`count(h.heart_rate) > 0`,
  bloodPressure: sql`count(h.systolic) > 0`,
  temperature: sql`(count(h.body_temp) > 0 OR count(h.wrist_temp) > 0)`,
  bloodOxygen: sql`count(h.blood_oxygen) > 0`,
  steps: sql`count(h.steps) > 0`,
  sleep: sql`count(h.sleep) > 0`,
};

interface Conditions {
  /** On the stored rows (WHERE). */
  where: SQL;
  /** On the reports (HAVING). */
  having: SQL;
}

async function conditions(ctx: AuthedContext, f: HealthFilter): Promise<Conditions> {
  const owner = f.AccountId ? await accountInScope(ctx.deps.database.db, ctx.user, f.AccountId) : ctx.user;
  const conds: SQL[] = [ownedBySubtree(devices.accountId, owner)];
  const start = sentInstant(ctx.user, f.StartTime);
  const end = sentInstant(ctx.user, f.EndTime);
  if (start) conds.push(sql`h.time >= ${start}`);
  if (end) conds.push(sql`h.time <= ${end}`);
  if (f.DeviceId) conds.push(sql`h.device_id = ${f.DeviceId}`);
  if (f.Imei) conds.push(/^\d{15}$/.test(f.Imei) ? sql`${devices.imei} = ${f.Imei}` : sql`(${devices.imei} LIKE ${contains(f.Imei)} OR ${devices.name} ILIKE ${contains(f.Imei)})`);
  return { where: allOf(conds), having: f.Kind ? KIND_CONDITION[f.Kind] : sql`TRUE` };
}

/**
 * One report of a device: its stored rows of the same device and time, merged. Decoders may send
 * the heart rate, blood oxygen and steps of one report as separate readings; each measure takes
 * the value its rows carry (the largest, should two rows carry one), sleep the last received.
 */
const MERGED = sql`h.device_id, h.time, max(h.heart_rate) AS heart_rate, max(h.systolic) AS systolic, max(h.diastolic) AS diastolic,
  max(h.body_temp) AS body_temp, max(h.wrist_temp) AS wrist_temp, max(h.blood_oxygen) AS blood_oxygen, max(h.hrv) AS hrv,
  max(h.steps) AS steps, max(h.distance) AS distance, max(h.calories) AS calories, max(h.uv) AS uv,
  max(h.pho) AS pho, max(h.ir) AS ir,
  (array_agg(h.sleep ORDER BY h.received_at DESC) FILTER (WHERE h.sleep IS NOT NULL))[1] AS sleep`;

const COLUMNS = sql`r.device_id AS "deviceId", devices.imei, devices.name AS "deviceName",
  coalesce(nullif(a.username, ''), a.login_name) AS "accountName", r.time, r.heart_rate AS "heartRate", r.systolic, r.diastolic,
  r.body_temp AS "bodyTemp", r.wrist_temp AS "wristTemp", r.blood_oxygen AS "bloodOxygen", r.hrv, r.steps, r.distance, r.calories, r.uv, r.pho, r.ir, r.sleep`;

/** A report as the viewer reads it (its time in the viewer's zone). */
export function readingOut(viewer: Pick<AuthUser, 'timeZoneOffset'>, r: Row) {
  return {
    DeviceId: Number(r.deviceId),
    Imei: String(r.imei ?? ''),
    DeviceName: String(r.deviceName ?? ''),
    AccountName: String(r.accountName ?? ''),
    Time: shownTime(viewer, r.time as Date),
    HeartRate: n(r.heartRate),
    Systolic: n(r.systolic),
    Diastolic: n(r.diastolic),
    BodyTemp: n(r.bodyTemp),
    WristTemp: n(r.wristTemp),
    BloodOxygen: n(r.bloodOxygen),
    Hrv: n(r.hrv),
    Steps: n(r.steps),
    Distance: n(r.distance),
    Calories: n(r.calories),
    Uv: n(r.uv),
    Pho: n(r.pho),
    Ir: n(r.ir),
    Sleep: Array.isArray(r.sleep) ? (r.sleep as { stage: 'awake' | 'light' | 'deep'; minutes: number }[]) : null,
  };
}

/** Where a page of reports ended: its last report's time (as text, exact to the microsecond) and device. */
export interface ReportCursor {
  time: string;
  deviceId: number;
}

async function selectReports(ctx: AuthedContext, f: HealthFilter, limit: number, offset: number, after?: ReportCursor) {
  const c = await conditions(ctx, f);
  // Reports are ordered by time (newest first), then device: the next page starts after the cursor.
  const cursor = after ? sql`(h.time < ${after.time} OR (h.time = ${after.time} AND h.device_id > ${after.deviceId}))` : sql`TRUE`;
  return rows<Row>(
    ctx.deps.database.db,
    sql`SELECT ${COLUMNS}, r.time::text AS "cursorTime" FROM (
          SELECT ${MERGED} FROM ${healthReadings} h JOIN ${devices} ON devices.id = h.device_id
           WHERE ${c.where} AND ${cursor} GROUP BY h.device_id, h.time HAVING ${c.having}
           ORDER BY h.time DESC, h.device_id LIMIT ${limit} OFFSET ${offset}
        ) r JOIN ${devices} ON devices.id = r.device_id JOIN ${accounts} a ON a.id = devices.account_id
        ORDER BY r.time DESC, r.device_id`,
  );
}

/**
 * Reports newest first, one row per device and report time. The page of reports is grouped and
 * cut first, then joined to its devices and accounts: the joins read only the page's rows.
 */
export async function queryReadings(ctx: AuthedContext, f: HealthFilter, limit: number, offset: number) {
  return selectReports(ctx, f, limit, offset);
}

/** Every matching report, page by page (keyset, never OFFSET), in the list's order: for exports. */
export async function* readingPages(ctx: AuthedContext, f: HealthFilter, pageSize: number): AsyncGenerator<Row[]> {
  let after: ReportCursor | undefined;
  for (;;) {
    const page = await selectReports(ctx, f, pageSize, 0, after);
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { time: String(last.cursorTime), deviceId: Number(last.deviceId) };
  }
}

/** How many reports (device and time) match: the list's Total, counted as the list groups them. */
export async function countReadings(ctx: AuthedContext, f: HealthFilter): Promise<number> {
  const c = await conditions(ctx, f);
  const [{ total }] = (await rows<{ total: number }>(
    ctx.deps.database.db,
    sql`SELECT count(*)::int AS total FROM (
          SELECT 1 FROM ${healthReadings} h JOIN ${devices} ON devices.id = h.device_id
           WHERE ${c.where} GROUP BY h.device_id, h.time HAVING ${c.having}
        ) r`,
  )) as [{ total: number }];
  return Number(total);
}

export async function listReadings(ctx: AuthedContext, q: HealthFilter & { PageNo: number; PageCount: number }) {
  const total = await countReadings(ctx, q);
  const items = await queryReadings(ctx, q, q.PageCount, (q.PageNo - 1) * q.PageCount);
  return { State: 200 as const, Total: total, Items: items.map((r) => readingOut(ctx.user, r)) };
}

const AVG = (col: string, as: string) => sql.raw(`avg(h.${col}) AS "${as}"`);

/** The device's readings for the charts: raw, or averaged per hour or day (steps and calories as the day's maximum, they are running totals). */
export async function series(ctx: AuthedContext, b: { DeviceId?: number; Imei?: string; StartTime: SentTime; EndTime: SentTime; Bucket: 'raw' | 'hour' | 'day' }) {
  const d = await deviceInScope(ctx, b.DeviceId, b.Imei);
  const start = sentInstant(ctx.user, b.StartTime);
  const end = sentInstant(ctx.user, b.EndTime);
  // Hours and days of the viewer's zone.
  const offset = ctx.user.timeZoneOffset;
  const db = ctx.deps.database.db;
  const base = sql`FROM ${healthReadings} h WHERE h.device_id = ${d.id} AND h.time >= ${start} AND h.time <= ${end}`;
  const found =
    b.Bucket === 'raw'
      ? await rows<Row>(
          db,
          // One point per report: the rows of one time are merged as in the list.
          sql`SELECT r.device_id AS "deviceId", r.time, r.heart_rate AS "heartRate", r.systolic, r.diastolic, r.body_temp AS "bodyTemp",
                r.wrist_temp AS "wristTemp", r.blood_oxygen AS "bloodOxygen", r.hrv, r.steps, r.distance, r.calories, r.uv, r.pho, r.ir, r.sleep
              FROM (SELECT ${MERGED} ${base} GROUP BY h.device_id, h.time ORDER BY h.time LIMIT 20000) r ORDER BY r.time`,
        )
      : await rows<Row>(
          db,
          sql`SELECT (date_trunc(${b.Bucket}, (h.time AT TIME ZONE 'UTC') + make_interval(mins => ${offset})) - make_interval(mins => ${offset})) AT TIME ZONE 'UTC' AS time, ${AVG('heart_rate', 'heartRate')}, ${AVG('systolic', 'systolic')}, ${AVG('diastolic', 'diastolic')},
                ${AVG('body_temp', 'bodyTemp')}, ${AVG('wrist_temp', 'wristTemp')}, ${AVG('blood_oxygen', 'bloodOxygen')}, ${AVG('hrv', 'hrv')},
                max(h.steps) AS steps, max(h.distance) AS distance, max(h.calories) AS calories, max(h.uv) AS uv, max(h.pho) AS pho, max(h.ir) AS ir, NULL AS sleep ${base}
              GROUP BY 1 ORDER BY 1`,
        );
  const round = (v: number | null, digits = 1) => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);
  const items = found.map((r) => {
    const o = readingOut(ctx.user, { ...r, deviceId: d.id, imei: d.imei, deviceName: d.name, accountName: d.accountName });
    return { ...o, HeartRate: round(o.HeartRate), Systolic: round(o.Systolic), Diastolic: round(o.Diastolic), BloodOxygen: round(o.BloodOxygen), Hrv: round(o.Hrv) };
  });
  const sleepRows = await rows<Row>(db, sql`SELECT h.time, h.sleep ${base} AND h.sleep IS NOT NULL ORDER BY h.time LIMIT 5000`);
  const th = await loadThresholds(ctx.deps, d.id, d.accountPath);
  const alarmRows = await queryRecords(ctx, { DeviceId: d.id, Type: HEALTH_ALARM_CODES, StartTime: b.StartTime, EndTime: b.EndTime }, 500, 0);
  return {
    State: 200 as const,
    Device: { DeviceId: d.id, Imei: d.imei, DeviceName: d.name, Model: d.modelName, AccountName: d.accountName },
    Items: items,
    Sleep: sleepByNight(sleepRows.map((r) => ({ time: new Date(r.time as string), sleep: r.sleep as { stage: string; minutes: number }[] })), offset),
    Thresholds: th.thresholds,
    Alarms: alarmRows.map((r) => recordOut(ctx.locale, ctx.user, r)),
  };
}

/**
 * Sleep minutes per stage and night. A night is named by the date it ends on: a report before
 * noon belongs to the night that ended that morning, one after noon to the night that follows.
 */
export function sleepByNight(readings: { time: Date; sleep: { stage: string; minutes: number }[] }[], offsetMinutes: number) {
  const nights = new Map<string, { Awake: number; Light: number; Deep: number }>();
  for (const r of readings) {
    if (!Array.isArray(r.sleep)) continue;
    const local = new Date(r.time.getTime() + offsetMinutes * 60_000 + 12 * 3600_000);
    const key = local.toISOString().slice(0, 10);
    const night = nights.get(key) ?? { Awake: 0, Light: 0, Deep: 0 };
    for (const s of r.sleep) {
      const m = Number(s.minutes) || 0;
      if (s.stage === 'awake') night.Awake += m;
      else if (s.stage === 'light') night.Light += m;
      else if (s.stage === 'deep') night.Deep += m;
    }
    nights.set(key, night);
  }
  return [...nights.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([Night, v]) => ({ Night, ...v }));
}

export async function hasDataForDevice(ctx: AuthedContext, b: { DeviceId?: number; Imei?: string; StartTime?: SentTime; EndTime?: SentTime }) {
  const d = await deviceInScope(ctx, b.DeviceId, b.Imei);
  const end = sentInstant(ctx.user, b.EndTime) ?? new Date();
  const start = sentInstant(ctx.user, b.StartTime) ?? new Date(end.getTime() - 92 * 86400_000);
  const offset = ctx.user.timeZoneOffset;
  const days = await rows<{ day: string }>(
    ctx.deps.database.db,
    sql`SELECT DISTINCT to_char((h.time AT TIME ZONE 'UTC') + make_interval(mins => ${offset}), 'YYYY-MM-DD') AS day
          FROM ${healthReadings} h WHERE h.device_id = ${d.id} AND h.time >= ${start} AND h.time <= ${end} ORDER BY 1`,
  );
  const [last] = await rows<{ t: Date | null }>(ctx.deps.database.db, sql`SELECT max(h.time) AS t FROM ${healthReadings} h WHERE h.device_id = ${d.id}`);
  return { State: 200 as const, HasData: days.length > 0, Days: days.map((r) => r.day), LastTime: shownTimeOrNull(ctx.user, last?.t) };
}

/** Devices of the subtree that have reported health data (the latest state says when). */
export async function hasDataForUsers(ctx: AuthedContext, b: { AccountId?: number; Keyword?: string }) {
  const owner = b.AccountId ? await accountInScope(ctx.deps.database.db, ctx.user, b.AccountId) : ctx.user;
  const conds: SQL[] = [ownedBySubtree(devices.accountId, owner), sql`${deviceState.healthTime} IS NOT NULL`];
  if (b.Keyword) conds.push(sql`(${devices.imei} LIKE ${contains(b.Keyword)} OR ${devices.name} ILIKE ${contains(b.Keyword)})`);
  const found = await rows<Row>(
    ctx.deps.database.db,
    sql`SELECT devices.id, devices.imei, devices.name, coalesce(nullif(a.username, ''), a.login_name) AS "accountName", ${deviceState.healthTime} AS "healthTime"
          FROM ${devices} JOIN ${deviceState} ON ${deviceState.deviceId} = devices.id JOIN ${accounts} a ON a.id = devices.account_id
         WHERE ${allOf(conds)} ORDER BY devices.imei LIMIT 5000`,
  );
  return {
    State: 200 as const,
    Items: found.map((r) => ({
      DeviceId: Number(r.id),
      Imei: String(r.imei),
      DeviceName: String(r.name ?? ''),
      AccountName: String(r.accountName ?? ''),
      LastTime: shownTimeOrNull(ctx.user, r.healthTime as Date | null),
    })),
  };
}
