// Reports from the stored history: trips and stops (a device or a group), a summary per device per
// day of the viewer's zone, and the alarms of a period. The devices are those of the caller's subtree
// only: a device or group outside it answers "not found", as a missing one would. Positions are read
// by (device_id, time) from the partitioned positions table, only the columns the detection needs;
// trips and stops are found by the pure functions of trips.ts. Addresses come from the offline
// geocoder (boundaries shipped with the platform), never from an online one: a report names hundreds
// of places and must not wait on, or be billed by, a remote service.
import { sql, type SQL } from 'drizzle-orm';
import { alarmTypes } from '../../db/schema/index.js';
import type { AuthedContext } from '../../calls.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { accountInScope } from '../../lib/scope.js';
import { intArray, rows } from '../../lib/sql.js';
import { coordinatesText } from '../monitor/geocoder.js';
import { offlineAddress } from '../monitor/offline-geocoder.js';
import { alarmTypeName } from '../alarm/format.js';
import type { ReportThresholds } from '@wt/contract';
import { tripOptionsOf } from './settings.js';
import { daySummaries, dayStart, tripsAndStops, type Fix } from './trips.js';

const DAY_MS = 86_400_000;
/** Most trips report devices (a group). */
export const MAX_TRIP_DEVICES = 100;

export interface Subject {
  UserId?: number;
  GroupId?: number;
  DeviceId?: number;
  Imei?: string;
  From: string;
  To: string;
}
/** A request's thresholds of trips and stops; those it leaves out are the caller's account's (settings.ts). */
export type Thresholds = Partial<ReportThresholds>;

export interface ReportDevice {
  id: number;
  imei: string;
  name: string;
}

/** The period [from, to) of a subject's days in the viewer's zone. */
export function periodOf(ctx: AuthedContext, s: Pick<Subject, 'From' | 'To'>): { from: number; to: number } {
  const tz = ctx.user.timeZoneOffset;
  return { from: dayStart(s.From, tz), to: dayStart(s.To, tz) + DAY_MS };
}

/** Condition on devices d: the subject's devices in the caller's subtree (a device or group outside it: not found). */
export async function subjectDevices(ctx: AuthedContext, s: Subject, requireOne: boolean): Promise<SQL> {
  const db = ctx.deps.database.db;
  const inTree = sql`d.account_id IN (SELECT id FROM accounts WHERE path LIKE ${`${ctx.user.path}%`})`;
  if (s.DeviceId || s.Imei) {
    const found = await rows<{ id: number }>(
      db,
      sql`SELECT d.id FROM devices d WHERE ${inTree} AND ${s.DeviceId ? sql`d.id = ${s.DeviceId}` : sql`d.imei = ${s.Imei}`} LIMIT 1`,
    );
    if (!found.length) throw notFound('monitor.deviceNotFound');
    return sql`d.id = ${Number(found[0]!.id)}`;
  }
  if (s.GroupId) {
    const g = await rows<{ id: number }>(
      db,
      sql`SELECT g.id FROM device_groups g WHERE g.id = ${s.GroupId} AND g.account_id IN (SELECT id FROM accounts WHERE path LIKE ${`${ctx.user.path}%`})`,
    );
    if (!g.length) throw notFound('device.groupNotFound');
    return sql`${inTree} AND d.group_id = ${s.GroupId}`;
  }
  if (requireOne) throw badRequest('report.subjectRequired', undefined, [{ Field: 'DeviceId', Message: 'report.subjectRequired' }]);
  const account = await accountInScope(db, ctx.user, s.UserId);
  return sql`d.account_id IN (SELECT id FROM accounts WHERE path LIKE ${`${account.path}%`})`;
}

async function devicesOf(ctx: AuthedContext, where: SQL, limit?: number, offset = 0): Promise<ReportDevice[]> {
  const r = await rows<{ id: number; imei: string; name: string }>(
    ctx.deps.database.db,
    sql`SELECT d.id, d.imei, d.name FROM devices d WHERE ${where} ORDER BY d.id ${limit ? sql`LIMIT ${limit} OFFSET ${offset}` : sql``}`,
  );
  return r.map((d) => ({ id: Number(d.id), imei: d.imei, name: d.name ?? '' }));
}

/** The fixes of devices over [from, to), by device. */
export async function fixesOf(ctx: AuthedContext, ids: number[], from: number, to: number): Promise<Map<number, Fix[]>> {
  const out = new Map<number, Fix[]>(ids.map((id) => [id, []]));
  if (!ids.length) return out;
  const r = await ctx.deps.database.query<{ device_id: number; lat: number; lon: number; t: number | string; speed: number | null }>(
    `SELECT device_id, lat, lon, (extract(epoch FROM time) * 1000)::float8 AS t, speed FROM positions
      WHERE device_id = ANY($1::int[]) AND time >= $2 AND time < $3 AND lat IS NOT NULL AND lon IS NOT NULL ORDER BY device_id, time`,
    [`{${ids.join(',')}}`, new Date(from), new Date(to)],
  );
  for (const p of r) out.get(Number(p.device_id))?.push({ lat: Number(p.lat), lon: Number(p.lon), time: Number(p.t), speed: p.speed === null ? null : Number(p.speed) });
  return out;
}

/** Names places by the offline geocoder (coordinates at sea or with GEOCODER=none), remembering each ~10 m cell. */
export function placeNamer(ctx: AuthedContext): (lat: number, lon: number) => string {
  const seen = new Map<string, string>();
  const none = ctx.deps.config.GEOCODER === 'none';
  return (lat, lon) => {
    const key = `${lat.toFixed(4)},${lon.toFixed(4)}`;
    let a = seen.get(key);
    if (a === undefined) {
      a = (none ? null : offlineAddress(lat, lon, ctx.locale)) ?? coordinatesText(lat, lon);
      seen.set(key, a);
    }
    return a;
  };
}

const iso = (t: number) => new Date(t).toISOString();
const round1 = (x: number) => Math.round(x * 10) / 10;

export async function trips(ctx: AuthedContext, body: Subject & Thresholds) {
  const where = await subjectDevices(ctx, body, true);
  const devices = await devicesOf(ctx, where, MAX_TRIP_DEVICES + 1);
  if (devices.length > MAX_TRIP_DEVICES) {
    const [{ n }] = (await rows<{ n: number }>(ctx.deps.database.db, sql`SELECT count(*)::int AS n FROM devices d WHERE ${where}`)) as [{ n: number }];
    throw badRequest('report.tooManyDevices', { count: Number(n), max: MAX_TRIP_DEVICES });
  }
  const { from, to } = periodOf(ctx, body);
  const options = await tripOptionsOf(ctx, body);
  const fixes = await fixesOf(ctx, devices.map((d) => d.id), from, to);
  const name = placeNamer(ctx);
  return {
    State: 200 as const,
    Devices: devices.map((d) => {
      const r = tripsAndStops(fixes.get(d.id)!, options);
      return {
        DeviceId: d.id,
        Imei: d.imei,
        Name: d.name,
        Trips: r.trips.map((t) => ({
          Start: iso(t.start),
          End: iso(t.end),
          StartPlace: { Lat: t.startLat, Lon: t.startLon, Address: name(t.startLat, t.startLon) },
          EndPlace: { Lat: t.endLat, Lon: t.endLon, Address: name(t.endLat, t.endLon) },
          Distance: Math.round(t.distance),
          Minutes: round1((t.end - t.start) / 60_000),
          MaxSpeed: round1(t.maxSpeed),
          AvgSpeed: round1(t.avgSpeed),
        })),
        Stops: r.stops.map((s) => ({ Start: iso(s.start), End: iso(s.end), Minutes: round1((s.end - s.start) / 60_000), Lat: s.lat, Lon: s.lon, Address: name(s.lat, s.lon) })),
      };
    }),
  };
}

/** The viewer's day of a timestamptz column, as SQL. */
const viewerDaySql = (ctx: AuthedContext, column: SQL) => sql`to_char((${column} AT TIME ZONE 'UTC') + ${ctx.user.timeZoneOffset}::int * interval '1 minute', 'YYYY-MM-DD')`;

interface HealthDay {
  device_id: number;
  day: string;
  hr_min: number | null;
  hr_max: number | null;
  ox_min: number | null;
  ox_max: number | null;
  bt_min: number | null;
  bt_max: number | null;
  sys_min: number | null;
  sys_max: number | null;
}

const extreme = (min: number | null, max: number | null) => (min === null || max === null ? null : { Min: Number(min), Max: Number(max) });

/** The summary rows of some devices, a row per device and day of the period. */
export async function summaryRows(ctx: AuthedContext, devices: ReportDevice[], body: Subject & Thresholds) {
  const db = ctx.deps.database.db;
  const { from, to } = periodOf(ctx, body);
  const ids = devices.map((d) => d.id);
  const options = await tripOptionsOf(ctx, body);
  const fixes = await fixesOf(ctx, ids, from, to);
  const f = new Date(from);
  const t = new Date(to);
  const alarmRows = ids.length
    ? await rows<{ device_id: number; day: string; n: number }>(
        db,
        sql`SELECT a.device_id, ${viewerDaySql(ctx, sql`a.created_at`)} AS day, count(*)::int AS n FROM alarms a
             WHERE a.device_id = ANY(${intArray(ids)}) AND a.created_at >= ${f} AND a.created_at < ${t}
               AND a.account_id IN (SELECT id FROM accounts WHERE path LIKE ${`${ctx.user.path}%`})
             GROUP BY 1, 2`,
      )
    : [];
  const healthRows = ids.length
    ? await rows<HealthDay>(
        db,
        sql`SELECT h.device_id, ${viewerDaySql(ctx, sql`h.time`)} AS day,
                   min(h.heart_rate) AS hr_min, max(h.heart_rate) AS hr_max, min(h.blood_oxygen) AS ox_min, max(h.blood_oxygen) AS ox_max,
                   min(h.body_temp) AS bt_min, max(h.body_temp) AS bt_max, min(h.systolic) AS sys_min, max(h.systolic) AS sys_max
              FROM health_readings h WHERE h.device_id = ANY(${intArray(ids)}) AND h.time >= ${f} AND h.time < ${t}
             GROUP BY 1, 2`,
      )
    : [];
  const alarmsBy = new Map(alarmRows.map((r) => [`${r.device_id}|${r.day}`, Number(r.n)]));
  const healthBy = new Map(healthRows.map((r) => [`${r.device_id}|${r.day}`, r]));
  const fixOut = (x: Fix | null) => (x ? { Time: iso(x.time), Lat: x.lat, Lon: x.lon } : null);
  return devices.flatMap((d) => {
    const p = fixes.get(d.id)!;
    const days = daySummaries(p, tripsAndStops(p, options), ctx.user.timeZoneOffset, from, to);
    return days.map((s) => {
      const h = healthBy.get(`${d.id}|${s.day}`);
      return {
        DeviceId: d.id,
        Imei: d.imei,
        Name: d.name,
        Day: s.day,
        Distance: Math.round(s.distance),
        MovingMinutes: round1(s.movingMs / 60_000),
        StoppedMinutes: round1(s.stoppedMs / 60_000),
        MaxSpeed: round1(s.maxSpeed),
        First: fixOut(s.first),
        Last: fixOut(s.last),
        Alarms: alarmsBy.get(`${d.id}|${s.day}`) ?? 0,
        HeartRate: h ? extreme(h.hr_min, h.hr_max) : null,
        BloodOxygen: h ? extreme(h.ox_min, h.ox_max) : null,
        BodyTemp: h ? extreme(h.bt_min, h.bt_max) : null,
        Systolic: h ? extreme(h.sys_min, h.sys_max) : null,
      };
    });
  });
}

export async function summary(ctx: AuthedContext, body: Subject & Thresholds & { PageNo: number; PageCount: number }) {
  const where = await subjectDevices(ctx, body, false);
  const [{ n }] = (await rows<{ n: number }>(ctx.deps.database.db, sql`SELECT count(*)::int AS n FROM devices d WHERE ${where}`)) as [{ n: number }];
  const devices = await devicesOf(ctx, where, body.PageCount, (body.PageNo - 1) * body.PageCount);
  return { State: 200 as const, Total: Number(n), Items: await summaryRows(ctx, devices, body) };
}

const minutes = (s: number | string | null) => (s === null ? null : round1(Number(s) / 60));

export async function alarms(ctx: AuthedContext, body: Subject) {
  const db = ctx.deps.database.db;
  const where = await subjectDevices(ctx, body, false);
  const { from, to } = periodOf(ctx, body);
  // Alarms are scoped by the account that owned the device when raised (as the alarm records are).
  const base = sql`FROM alarms a JOIN devices d ON d.id = a.device_id
                  WHERE a.created_at >= ${new Date(from)} AND a.created_at < ${new Date(to)}
                    AND a.account_id IN (SELECT id FROM accounts WHERE path LIKE ${`${ctx.user.path}%`}) AND ${where}`;
  const confirm = sql`extract(epoch FROM a.confirmed_at - a.created_at)`;
  const figures = sql`count(*)::int AS n, count(a.confirmed_at)::int AS confirmed,
                      percentile_cont(0.5) WITHIN GROUP (ORDER BY ${confirm}) AS p50,
                      percentile_cont(0.9) WITHIN GROUP (ORDER BY ${confirm}) AS p90`;
  type Figures = { n: number; confirmed: number; p50: number | null; p90: number | null };
  const [all] = await rows<Figures>(db, sql`SELECT ${figures} ${base}`);
  const byType = await rows<Figures & { type: number }>(db, sql`SELECT a.type, ${figures} ${base} GROUP BY a.type ORDER BY n DESC, a.type`);
  const byDevice = await rows<{ id: number; imei: string; name: string; n: number }>(
    db,
    sql`SELECT d.id, d.imei, d.name, count(*)::int AS n ${base} GROUP BY d.id, d.imei, d.name ORDER BY n DESC, d.id LIMIT 1000`,
  );
  const byDay = await rows<{ day: string; n: number }>(db, sql`SELECT ${viewerDaySql(ctx, sql`a.created_at`)} AS day, count(*)::int AS n ${base} GROUP BY 1 ORDER BY 1`);
  const byTypeDay = await rows<{ day: string; type: number; n: number }>(
    db,
    sql`SELECT ${viewerDaySql(ctx, sql`a.created_at`)} AS day, a.type, count(*)::int AS n ${base} GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  const types = new Map((await db.select().from(alarmTypes)).map((r) => [r.code, r]));
  const out = (r: Figures) => ({ ConfirmedCount: Number(r.confirmed), P50Minutes: minutes(r.p50), P90Minutes: minutes(r.p90) });
  return {
    State: 200 as const,
    Total: Number(all?.n ?? 0),
    ...out(all ?? { n: 0, confirmed: 0, p50: null, p90: null }),
    ByType: byType.map((r) => ({ Type: Number(r.type), Name: alarmTypeName(ctx.locale, Number(r.type), types.get(Number(r.type))), Count: Number(r.n), ...out(r) })),
    ByDevice: byDevice.map((r) => ({ DeviceId: Number(r.id), Imei: r.imei, Name: r.name ?? '', Count: Number(r.n) })),
    ByDay: byDay.map((r) => ({ Day: r.day, Count: Number(r.n) })),
    ByTypeDay: byTypeDay.map((r) => ({ Day: r.day, Type: Number(r.type), Count: Number(r.n) })),
  };
}
