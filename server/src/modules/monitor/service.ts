// The live map's calls, the device card and the dashboard figures.
import { BIG_DATA_FIELDS, type MonitorDevice } from '@wt/contract';
import type { AuthedContext, AuthUser } from '../../calls.js';
import { AppError } from '../../lib/errors.js';
import { accountInScope, subtreePattern } from '../../lib/scope.js';
import { viewerDay, viewerDayStart } from '../../lib/time.js';
import { compactDevices, countDevices, listDevices, SOS_TYPE, SOS_WINDOW, type DeviceFilter } from './repo.js';
import { BEACON_METHOD_CODE, INDOOR_METHOD_CODES } from '../../pipeline/state.js';

/** The account whose subtree a call lists: the caller, or a sub-account it names. */
export async function scopeOf(ctx: AuthedContext, userId?: number): Promise<Pick<AuthUser, 'path'>> {
  if (!userId || userId === ctx.user.id) return ctx.user;
  return accountInScope(ctx.deps.database.db, ctx.user, userId);
}

export async function monitorDevices(ctx: AuthedContext, body: { UserId?: number } & DeviceFilter) {
  const scope = await scopeOf(ctx, body.UserId);
  const [items, counts] = await Promise.all([listDevices(ctx.deps.database, scope, body), countDevices(ctx.deps.database, scope, body.search)]);
  return { State: 200 as const, Total: items.length, Items: items, Counts: counts };
}

export async function pageColor(ctx: AuthedContext, body: { UserId?: number; PageNo: number; PageCount: number } & DeviceFilter) {
  const scope = await scopeOf(ctx, body.UserId);
  const [items, counts] = await Promise.all([
    listDevices(ctx.deps.database, scope, body, { offset: (body.PageNo - 1) * body.PageCount, limit: body.PageCount }),
    countDevices(ctx.deps.database, scope, body.search),
  ]);
  const total = body.status === 'online' ? counts.Online : body.status === 'offline' ? counts.Offline : body.status === 'sos' ? counts.Sos : counts.All;
  return { State: 200 as const, Total: total, Items: items, Counts: counts };
}

export async function bigData(ctx: AuthedContext, body: { UserId?: number }) {
  const scope = await scopeOf(ctx, body.UserId);
  const rows = await compactDevices(ctx.deps.database, scope);
  return { State: 200 as const, Total: rows.length, Fields: [...BIG_DATA_FIELDS], Rows: rows };
}

/** One device of the caller's subtree, by id or IMEI; another tenant's answers "not found". */
export async function deviceInScope(ctx: AuthedContext, deviceId?: number, imei?: string): Promise<MonitorDevice> {
  if (!deviceId && !imei) throw new AppError(400, 'monitor.deviceNotFound');
  const [d] = await listDevices(ctx.deps.database, ctx.user, { deviceId, imei });
  if (!d) throw new AppError(404, 'monitor.deviceNotFound');
  return d;
}

/** The name of a position's fix (FIX_METHODS) from its method column (1-4 indoor, 5 beacon) and validity. */
function fixMethod(code: number | null, valid: boolean): string {
  if (code === BEACON_METHOD_CODE) return 'beacon';
  const indoor = Object.entries(INDOOR_METHOD_CODES).find(([, c]) => c === code)?.[0];
  return indoor ?? (valid ? 'gnss' : 'lbs');
}

export async function deviceTracking(ctx: AuthedContext, body: { DeviceId?: number; Imei?: string; Minutes: number }) {
  const device = await deviceInScope(ctx, body.DeviceId, body.Imei);
  const q = ctx.deps.database.query.bind(ctx.deps.database);
  const [persons, health, trail] = await Promise.all([
    q<{ name: string; gender: string | null; age: number | null; phone: string; address: string }>(
      'SELECT name, gender, age, phone, address FROM device_persons WHERE device_id = $1',
      [device.DeviceId],
    ),
    q<{ heart_rate: number | null; systolic: number | null; diastolic: number | null; body_temp: number | null; blood_oxygen: number | null; health_time: Date | null }>(
      'SELECT heart_rate, systolic, diastolic, body_temp, blood_oxygen, health_time FROM device_state WHERE device_id = $1',
      [device.DeviceId],
    ),
    // The newest points of the window, oldest first.
    q<{ lat: number; lon: number; time: Date; speed: number | null; course: number | null; valid: boolean; method: number | null; accuracy: number | null }>(
      `SELECT * FROM (SELECT lat, lon, time, speed, course, valid, method, accuracy FROM positions
         WHERE device_id = $1 AND time > now() - make_interval(mins => $2::int) AND lat IS NOT NULL
         ORDER BY time DESC LIMIT 5000) p ORDER BY time`,
      [device.DeviceId, body.Minutes],
    ),
  ]);
  const p = persons[0];
  const h = health[0];
  const last = trail.at(-1);
  return {
    State: 200 as const,
    Device: device,
    Person: p ? { Name: p.name, Gender: p.gender ?? '', Age: p.age, Phone: p.phone, Address: p.address } : null,
    Health:
      h && h.health_time
        ? {
            HeartRate: h.heart_rate,
            Systolic: h.systolic,
            Diastolic: h.diastolic,
            BodyTemp: h.body_temp,
            BloodOxygen: h.blood_oxygen,
            Time: new Date(h.health_time).toISOString(),
          }
        : null,
    Trail: trail.map((t) => ({ Lat: t.lat, Lon: t.lon, Time: new Date(t.time).toISOString(), Speed: t.speed, Course: t.course })),
    Fix: last ? { Method: fixMethod(last.method === null ? null : Number(last.method), last.valid), Accuracy: last.accuracy === null ? null : Number(last.accuracy) } : null,
  };
}

export async function adminCount(ctx: AuthedContext, body: { UserId?: number }) {
  const scope = await scopeOf(ctx, body.UserId);
  const q = ctx.deps.database.query.bind(ctx.deps.database);
  const pattern = subtreePattern(scope);
  const [counts, [acc], [alarms]] = await Promise.all([
    countDevices(ctx.deps.database, scope),
    q<{ n: number }>('SELECT count(*)::int AS n FROM accounts WHERE path LIKE $1', [pattern]),
    q<{ n: number }>(
      `SELECT count(*)::int AS n FROM alarms al JOIN accounts a ON a.id = al.account_id
       WHERE a.path LIKE $1 AND al.created_at >= $2`,
      [pattern, viewerDayStart(ctx.user, 0)],
    ),
  ]);
  return { State: 200 as const, Total: counts.All, Online: counts.Online, Offline: counts.Offline, Sos: counts.Sos, Accounts: acc?.n ?? 0, AlarmsToday: alarms?.n ?? 0 };
}

export async function pageAnalysis(ctx: AuthedContext, body: { UserId?: number; Days: number }) {
  const scope = await scopeOf(ctx, body.UserId);
  const q = ctx.deps.database.query.bind(ctx.deps.database);
  const pattern = subtreePattern(scope);
  const devicesOf = `SELECT d.id FROM devices d JOIN accounts a ON a.id = d.account_id WHERE a.path LIKE $1`;
  // Days of the viewer's zone: from the start of its day Days - 1 days ago; $3 is its offset in minutes.
  const since = `$2::timestamptz`;
  const dayOf = (col: string) => `to_char((${col} AT TIME ZONE 'UTC') + make_interval(mins => $3::int), 'YYYY-MM-DD')`;
  const start = viewerDayStart(ctx.user, body.Days - 1);
  const off = ctx.user.timeZoneOffset;
  const [byType, [health], positions, alarmDays, locations] = await Promise.all([
    q<{ type: number; n: number }>(
      `SELECT al.type, count(*)::int AS n FROM alarms al JOIN accounts a ON a.id = al.account_id
       WHERE a.path LIKE $1 AND al.created_at >= ${since} GROUP BY al.type ORDER BY n DESC`,
      [pattern, start],
    ),
    // The figures are what the devices report now (their latest reading, as the device card shows
    // it) when reported within the period; the readings and abnormal ones are counted over it.
    q<{ n: number; hr: number | null; sy: number | null; di: number | null; bt: number | null; bo: number | null; abnormal: number }>(
      `SELECT r.n, r.abnormal, s.hr, s.sy, s.di, s.bt, s.bo
       FROM (SELECT count(*)::int AS n,
               count(*) FILTER (WHERE heart_rate > 120 OR heart_rate < 50 OR blood_oxygen < 90 OR body_temp > 37.5 OR systolic > 140)::int AS abnormal
             FROM health_readings WHERE device_id IN (${devicesOf}) AND time >= ${since}) r,
            (SELECT avg(heart_rate) AS hr, avg(systolic) AS sy, avg(diastolic) AS di, avg(body_temp) AS bt, avg(blood_oxygen) AS bo
             FROM device_state WHERE device_id IN (${devicesOf}) AND health_time >= ${since}) s`,
      [pattern, start],
    ),
    q<{ day: string; n: number; active: number }>(
      `SELECT ${dayOf('time')} AS day, count(*)::int AS n, count(DISTINCT device_id)::int AS active
       FROM positions WHERE device_id IN (${devicesOf}) AND time >= ${since} GROUP BY 1`,
      [pattern, start, off],
    ),
    q<{ day: string; n: number }>(
      `SELECT ${dayOf('al.created_at')} AS day, count(*)::int AS n
       FROM alarms al JOIN accounts a ON a.id = al.account_id WHERE a.path LIKE $1 AND al.created_at >= ${since} GROUP BY 1`,
      [pattern, start, off],
    ),
    q<{ lon: number; lat: number; n: number }>(
      `SELECT round(s.lon * 2) / 2 AS lon, round(s.lat * 2) / 2 AS lat, count(*)::int AS n
       FROM device_state s WHERE s.device_id IN (${devicesOf}) AND s.lat IS NOT NULL GROUP BY 1, 2`,
      [pattern],
    ),
  ]);
  const days: string[] = [];
  const today = viewerDay(ctx.user);
  for (let i = body.Days - 1; i >= 0; i--) days.push(new Date(Date.parse(`${today}T00:00:00Z`) - i * 86_400_000).toISOString().slice(0, 10));
  const pos = new Map(positions.map((p) => [p.day, p]));
  const al = new Map(alarmDays.map((a) => [a.day, a.n]));
  const num = (v: number | string | null) => (v === null ? null : Math.round(Number(v) * 10) / 10);
  const h = health!;
  return {
    State: 200 as const,
    AlarmsByType: byType.map((r) => ({ Type: String(r.type), Count: r.n })),
    Health: { Readings: h.n, HeartRate: num(h.hr), Systolic: num(h.sy), Diastolic: num(h.di), BodyTemp: num(h.bt), BloodOxygen: num(h.bo), Abnormal: h.abnormal },
    Activity: days.map((d) => ({ Day: d, Positions: pos.get(d)?.n ?? 0, ActiveDevices: pos.get(d)?.active ?? 0, Alarms: al.get(d) ?? 0 })),
    Locations: locations.map((l) => [Number(l.lon), Number(l.lat), l.n] as [number, number, number]),
  };
}

export { SOS_TYPE, SOS_WINDOW };
