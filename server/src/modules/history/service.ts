// Location history of one device (/device/devicesHistory) and the xlsx export of many
// (/device/BatchExportHistoryDataByUserId, at most 3 per date selection per 24 hours).
import { and, count, eq, gt, sql } from 'drizzle-orm';
import { LIMITS, resolveLocale, translate, type SentTime } from '@wt/contract';
import type { AuthedContext, AuthUser } from '../../calls.js';
import { historyExports } from '../../db/schema/index.js';
import { AppError, fieldError } from '../../lib/errors.js';
import { subtreePattern } from '../../lib/scope.js';
import { jsonParam } from '../../lib/sql.js';
import { sentInstant, shownTime, viewerDay } from '../../lib/time.js';
import { deviceInScope } from '../monitor/service.js';
import { findStops, pathLength, simplify, type PathPoint } from './path.js';
import { writeXlsx } from '../../lib/xlsx.js';

/** Points read for one answer; longer ranges are thinned in SQL to one point per time bucket first. */
const MAX_LOAD = 200_000;
/** Rows of one export workbook. */
const MAX_EXPORT_ROWS = 1_000_000;

/** The range a viewer sent, a time without a zone read in its own. */
function range(viewer: Pick<AuthUser, 'timeZoneOffset'>, start: SentTime, end: SentTime): { from: Date; to: Date } {
  const from = sentInstant(viewer, start);
  const to = sentInstant(viewer, end);
  if (to.getTime() <= from.getTime()) throw fieldError('End', 'monitor.rangeInvalid');
  return { from, to };
}

interface Row {
  lat: number;
  lon: number;
  time: Date | string;
  speed: number | null;
  course: number | null;
}

async function loadPath(ctx: AuthedContext, deviceId: number, from: Date, to: Date): Promise<{ total: number; points: PathPoint[] }> {
  const q = ctx.deps.database.query.bind(ctx.deps.database);
  const [{ n }] = (await q<{ n: number }>(
    'SELECT count(*)::int AS n FROM positions WHERE device_id = $1 AND time >= $2 AND time <= $3 AND lat IS NOT NULL',
    [deviceId, from, to],
  )) as [{ n: number }];
  let rows: Row[];
  if (n <= MAX_LOAD) {
    rows = await q<Row>(
      'SELECT lat, lon, time, speed, course FROM positions WHERE device_id = $1 AND time >= $2 AND time <= $3 AND lat IS NOT NULL ORDER BY time',
      [deviceId, from, to],
    );
  } else {
    const bucketMs = Math.ceil((to.getTime() - from.getTime()) / MAX_LOAD);
    rows = await q<Row>(
      `SELECT DISTINCT ON (floor(extract(epoch FROM time) * 1000 / $4)) lat, lon, time, speed, course
       FROM positions WHERE device_id = $1 AND time >= $2 AND time <= $3 AND lat IS NOT NULL
       ORDER BY floor(extract(epoch FROM time) * 1000 / $4), time`,
      [deviceId, from, to, bucketMs],
    );
  }
  const points = rows.map((r) => ({ lat: r.lat, lon: r.lon, time: new Date(r.time).getTime(), speed: r.speed, course: r.course }));
  return { total: n, points };
}

export async function deviceHistory(
  ctx: AuthedContext,
  body: { DeviceId?: number; Imei?: string; Start: SentTime; End: SentTime; MaxPoints: number; StopMinutes: number; StopRadius: number },
) {
  const device = await deviceInScope(ctx, body.DeviceId, body.Imei);
  const { from, to } = range(ctx.user, body.Start, body.End);
  const { total, points } = await loadPath(ctx, device.DeviceId, from, to);
  const kept = simplify(points, body.MaxPoints);
  const stops = findStops(points, body.StopMinutes * 60_000, body.StopRadius);
  return {
    State: 200 as const,
    Device: { DeviceId: device.DeviceId, Imei: device.Imei, Nickname: device.Nickname },
    Total: total,
    Exact: kept.length === total,
    Points: kept.map((p) => ({ Lat: p.lat, Lon: p.lon, Time: new Date(p.time).toISOString(), Speed: p.speed, Course: p.course })),
    Stops: stops.map((s) => ({ Lat: s.lat, Lon: s.lon, Start: new Date(s.start).toISOString(), End: new Date(s.end).toISOString(), Minutes: Math.round((s.end - s.start) / 6000) / 10 })),
    Distance: Math.round(pathLength(points)),
  };
}

const HEADERS = ['imei', 'deviceName', 'time', 'lat', 'lon', 'speed', 'course'] as const;

export async function exportHistory(ctx: AuthedContext, body: { Imeis: string[]; Start: SentTime; End: SentTime; Language?: string }) {
  const { from, to } = range(ctx.user, body.Start, body.End);
  const db = ctx.deps.database.db;
  const windowStart = new Date(Date.now() - LIMITS.exportWindowMs);
  const sameSelection = and(
    eq(historyExports.accountId, ctx.user.id),
    eq(historyExports.rangeStart, from),
    eq(historyExports.rangeEnd, to),
    gt(historyExports.createdAt, windowStart),
  );
  // The count and the export's record in one transaction under a lock of the account's exports, so
  // concurrent requests cannot all see room for one more: the record reserves the slot, and is
  // given back when the export then fails.
  const { used, slot } = await db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${EXPORT_LOCK_CLASS}, ${ctx.user.id})`);
    const [{ used }] = (await tx.select({ used: count() }).from(historyExports).where(sameSelection)) as [{ used: number }];
    if (used >= LIMITS.exportsPerSelection) throw new AppError(429, 'monitor.exportLimit', { limit: LIMITS.exportsPerSelection });
    const [slot] = await tx.insert(historyExports).values({ accountId: ctx.user.id, rangeStart: from, rangeEnd: to, devices: 0, rows: 0 }).returning({ id: historyExports.id });
    return { used, slot: slot!.id };
  });
  try {
    return await writeExport(ctx, body, from, to, slot, used);
  } catch (err) {
    await db.delete(historyExports).where(eq(historyExports.id, slot));
    throw err;
  }
}

/** Lock class of an account's history exports (pg_advisory_xact_lock(class, account)). */
const EXPORT_LOCK_CLASS = 7301;

async function writeExport(
  ctx: AuthedContext,
  body: { Imeis: string[]; Language?: string },
  from: Date,
  to: Date,
  slot: number,
  used: number,
) {
  const db = ctx.deps.database.db;

  const q = ctx.deps.database.query.bind(ctx.deps.database);
  const devices = await q<{ id: number; imei: string; name: string }>(
    `SELECT d.id, d.imei, d.name FROM devices d JOIN accounts a ON a.id = d.account_id
     WHERE a.path LIKE $1 AND d.imei IN (SELECT json_array_elements_text($2::json)) ORDER BY d.imei`,
    [subtreePattern(ctx.user), jsonParam([...new Set(body.Imeis)])],
  );
  if (!devices.length) throw new AppError(404, 'monitor.deviceNotFound');
  const [{ n }] = (await q<{ n: number }>(
    'SELECT count(*)::int AS n FROM positions WHERE device_id IN (SELECT json_array_elements_text($1::json)::int) AND time >= $2 AND time <= $3',
    [JSON.stringify(devices.map((d) => d.id)), from, to],
  )) as [{ n: number }];
  if (n > MAX_EXPORT_ROWS) throw new AppError(400, 'monitor.exportTooMany', { max: MAX_EXPORT_ROWS });

  const locale = body.Language ? resolveLocale(body.Language) : ctx.locale;
  const byId = new Map(devices.map((d) => [d.id, d]));
  const rows = await q<Row & { device_id: number }>(
    `SELECT device_id, lat, lon, time, speed, course FROM positions
     WHERE device_id IN (SELECT json_array_elements_text($1::json)::int) AND time >= $2 AND time <= $3 ORDER BY device_id, time`,
    [JSON.stringify(devices.map((d) => d.id)), from, to],
  );
  const sheetRows: (string | number | null)[][] = [HEADERS.map((h) => translate(locale, `historyExport.${h}`))];
  for (const r of rows) {
    const d = byId.get(r.device_id)!;
    sheetRows.push([d.imei, d.name, shownTime(ctx.user, r.time), r.lat, r.lon, r.speed, r.course]);
  }
  const xlsx = await writeXlsx([{ name: translate(locale, 'historyExport.sheet'), rows: sheetRows, widths: [18, 18, 21, 12, 12, 12, 8] }]);
  await db.update(historyExports).set({ devices: devices.length, rows: rows.length }).where(eq(historyExports.id, slot));
  const stamp = (d: Date) => viewerDay(ctx.user, d);
  const name = devices.length === 1 ? devices[0]!.imei : `${devices.length}`;
  return {
    State: 200 as const,
    FileName: `track_${name}_${stamp(from)}_${stamp(to)}.xlsx`,
    Data: xlsx.toString('base64'),
    Rows: rows.length,
    Remaining: LIMITS.exportsPerSelection - used - 1,
  };
}
