// The day's weather on the watches: forecasts from an Open-Meteo compatible HTTP API (WEATHER_URL,
// WEATHER_API_KEY), cached per area (0.1° of latitude and longitude, about 11 km) and hour; the
// WEATHER command to every device with a known position, its area's forecast and a text in its
// owner's language; and a daily push at WEATHER_PUSH_AT (each account's local time) to the devices
// of accounts whose weather switch is on.
import { State, formatDateInZone, translate, resolveLocale } from '@wt/contract';
import { defineCall, type AuthedContext } from '../../calls.js';
import type { AppDeps } from '../../deps.js';
import type { Service } from '../../services.js';
import { accountInScope, subtreePattern } from '../../lib/scope.js';
import { badRequest } from '../../lib/errors.js';
import { dispatchInBackground, insertBulkCommands, keywordsFor, requireService } from './routes.js';

type Row = Record<string, unknown>;

export interface Forecast {
  date: string;
  code: number;
  min: number;
  max: number;
}

/** WMO weather codes grouped into what a watch face shows. */
export function weatherKind(code: number): string {
  if (code === 0) return 'clear';
  if (code <= 3) return 'cloudy';
  if (code === 45 || code === 48) return 'fog';
  if (code >= 51 && code <= 57) return 'drizzle';
  if ((code >= 71 && code <= 77) || code === 85 || code === 86) return 'snow';
  if (code >= 95) return 'thunder';
  return 'rain';
}

const cache = new WeakMap<AppDeps, Map<string, Promise<Forecast | null>>>();

/** The area a position falls in: 0.1° cells. */
export const areaOf = (lat: number, lon: number) => `${(Math.round(lat * 10) / 10).toFixed(1)},${(Math.round(lon * 10) / 10).toFixed(1)}`;

/** Today's forecast of an area, asked once per area and hour (a failure is not kept). */
export function forecastFor(deps: AppDeps, area: string, now = new Date()): Promise<Forecast | null> {
  let m = cache.get(deps);
  if (!m) cache.set(deps, (m = new Map()));
  const hour = now.toISOString().slice(0, 13);
  for (const k of m.keys()) if (!k.endsWith(hour)) m.delete(k);
  const key = `${area}@${hour}`;
  const hit = m.get(key);
  if (hit) return hit;
  const [lat, lon] = area.split(',');
  const url = new URL(deps.config.WEATHER_URL);
  url.searchParams.set('latitude', lat!);
  url.searchParams.set('longitude', lon!);
  url.searchParams.set('daily', 'weather_code,temperature_2m_max,temperature_2m_min');
  url.searchParams.set('timezone', 'auto');
  url.searchParams.set('forecast_days', '1');
  if (deps.config.WEATHER_API_KEY) url.searchParams.set('apikey', deps.config.WEATHER_API_KEY);
  const p = (async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
    if (!res.ok) throw new Error(`forecast API answered ${res.status}`);
    const body = (await res.json()) as { daily?: { time?: string[]; weather_code?: number[]; temperature_2m_max?: number[]; temperature_2m_min?: number[] } };
    const d = body.daily;
    const f = { date: String(d?.time?.[0] ?? ''), code: Number(d?.weather_code?.[0]), max: Number(d?.temperature_2m_max?.[0]), min: Number(d?.temperature_2m_min?.[0]) };
    if (!/^\d{4}-\d{2}-\d{2}$/.test(f.date) || ![f.code, f.max, f.min].every(Number.isFinite)) throw new Error('forecast API answered no daily forecast');
    return { ...f, code: Math.min(99, Math.max(0, Math.round(f.code))), min: Math.max(-90, Math.min(60, f.min)), max: Math.max(-90, Math.min(60, f.max)) };
  })().catch((err: Error) => {
    deps.log.warn({ area, err: err.message }, 'weather forecast not available');
    m.delete(key);
    return null;
  });
  m.set(key, p);
  return p;
}

/**
 * Sends the weather to the devices owned by the accounts matching `owners` (an SQL condition on
 * `a`, the owner, with `$1`), as one send of `senderId`. Devices without a position or a forecast
 * are counted and left out; when that leaves none, nothing is recorded and the refusal says why.
 */
export async function pushWeather(deps: AppDeps, sender: { id: number; loginName: string; timeZoneOffset: number }, owners: { sql: string; param: unknown }) {
  const supported = [...keywordsFor('WEATHER', { date: '2026-01-01', code: 0, min: 0, max: 0, text: '' }).keys()];
  const devices = await deps.database.query<Row>(
    `SELECT d.id, d.protocol, s.lat, s.lon, a.language FROM devices d JOIN accounts a ON a.id = d.account_id
       LEFT JOIN device_state s ON s.device_id = d.id WHERE ${owners.sql}`,
    [owners.param],
  );
  const unsupported = devices.filter((d) => !supported.includes(String(d.protocol))).length;
  const placed = devices.filter((d) => supported.includes(String(d.protocol)) && d.lat !== null && d.lon !== null);
  const byArea = new Map<string, Row[]>();
  for (const d of placed) {
    const k = areaOf(Number(d.lat), Number(d.lon));
    const list = byArea.get(k);
    if (list) list.push(d);
    else byArea.set(k, [d]);
  }
  const forecasts = new Map<string, Forecast | null>();
  const areas = [...byArea.keys()];
  for (let i = 0; i < areas.length; i += 8) {
    await Promise.all(areas.slice(i, i + 8).map(async (a) => forecasts.set(a, await forecastFor(deps, a))));
  }
  // A send that would reach no device is refused with its reason, and no send is recorded.
  const noPosition = devices.length - unsupported - placed.length;
  if (!placed.length) throw badRequest('weather.noDevices', { total: devices.length, noPosition, unsupported });
  const reached = placed.filter((d) => forecasts.get(areaOf(Number(d.lat), Number(d.lon)))).length;
  if (!reached) throw badRequest('weather.noForecast', { count: placed.length });
  let noForecast = 0;
  const result = await deps.database.transaction(async (q) => {
    const [s] = await q<Row>(
      `INSERT INTO message_sends (account_id, kind, sender_name, name, text) VALUES ($1, 'weather', $2, $3, '') RETURNING id`,
      [sender.id, sender.loginName, formatDateInZone(new Date(), sender.timeZoneOffset)],
    );
    const sendId = Number(s!.id);
    const rows: { id: number; deviceId: number; params: Record<string, unknown> }[] = [];
    for (const [area, list] of byArea) {
      const f = forecasts.get(area);
      if (!f) {
        noForecast += list.length;
        continue;
      }
      // One command set per language of the owners in this area.
      const byLang = new Map<string, number[]>();
      for (const d of list) {
        const l = resolveLocale(String(d.language ?? ''));
        byLang.set(l, [...(byLang.get(l) ?? []), Number(d.id)]);
      }
      for (const [lang, ids] of byLang) {
        const params = { date: f.date, code: f.code, min: Math.round(f.min), max: Math.round(f.max), text: translate(resolveLocale(lang), `weather.kinds.${weatherKind(f.code)}`) };
        const r = await insertBulkCommands(
          q,
          { id: sender.id } as AuthedContext['user'],
          'WEATHER',
          params,
          { sql: `FROM devices d WHERE d.id = ANY($1::int[])`, params: [ids] },
          { table: 'message_send_commands', column: 'send_id', id: sendId },
        );
        rows.push(...r.rows.map((x) => ({ ...x, params })));
      }
    }
    await q(`UPDATE message_sends SET total = $2, text = $3 WHERE id = $1`, [sendId, rows.length, `${rows.length}`]);
    return { sendId, rows };
  });
  const byParams = new Map<string, { rows: { id: number; deviceId: number }[]; params: Record<string, unknown> }>();
  for (const r of result.rows) {
    const k = JSON.stringify(r.params);
    const g = byParams.get(k) ?? { rows: [], params: r.params };
    g.rows.push(r);
    byParams.set(k, g);
  }
  for (const g of byParams.values()) dispatchInBackground(deps, g.rows, 'WEATHER', g.params);
  return { SendId: result.sendId, Total: result.rows.length, NoPosition: noPosition, NoForecast: noForecast, Unsupported: unsupported };
}

export const weatherCalls = [
  defineCall('/Command/sendWeatherAllDevice', async (ctx, b) => {
    await requireService(ctx, 'is_weather_config');
    const account = await accountInScope(ctx.deps.database.db, ctx.user, b.UserId);
    const r = await pushWeather(ctx.deps, ctx.user, { sql: `a.path LIKE $1`, param: subtreePattern(account) });
    return { State: State.OK, ...r } as const;
  }),
];

/**
 * The daily push: accounts with the weather switch on whose local time has passed WEATHER_PUSH_AT
 * and whose devices have not had today's weather get it (their own devices; each account below with
 * the switch on gets its own). Returns how many accounts were served.
 */
export async function dailyWeather(deps: AppDeps, now = new Date()): Promise<number> {
  const [h, m] = deps.config.WEATHER_PUSH_AT.split(':').map(Number);
  const due = await deps.database.query<Row>(
    `SELECT a.id, a.login_name AS "loginName", a.time_zone_offset AS "tz", to_char(($1::timestamptz AT TIME ZONE 'UTC') + make_interval(mins => a.time_zone_offset), 'YYYY-MM-DD') AS day
       FROM accounts a LEFT JOIN weather_pushes w ON w.account_id = a.id
      WHERE a.is_weather_config = 1
        AND (($1::timestamptz AT TIME ZONE 'UTC') + make_interval(mins => a.time_zone_offset))::time >= make_time($2, $3, 0)
        AND (w.day IS NULL OR w.day < (($1::timestamptz AT TIME ZONE 'UTC') + make_interval(mins => a.time_zone_offset))::date)`,
    [now.toISOString(), h, m],
  );
  let served = 0;
  for (const a of due) {
    // Claimed first: two workers never push one account twice a day.
    const claimed = await deps.database.query(
      `INSERT INTO weather_pushes (account_id, day) VALUES ($1, $2::date)
       ON CONFLICT (account_id) DO UPDATE SET day = EXCLUDED.day WHERE weather_pushes.day < EXCLUDED.day RETURNING account_id`,
      [a.id, a.day],
    );
    if (!claimed.length) continue;
    try {
      await pushWeather(deps, { id: Number(a.id), loginName: String(a.loginName), timeZoneOffset: Number(a.tz) }, { sql: `a.id = $1`, param: a.id });
      served++;
    } catch (err) {
      deps.log.error({ err, accountId: a.id }, 'daily weather push failed');
    }
  }
  return served;
}

export const weatherService: Service = {
  name: 'weather-daily',
  roles: ['worker'],
  async start(deps) {
    const timer = setInterval(() => void dailyWeather(deps).catch((err) => deps.log.error({ err }, 'daily weather check failed')), 60_000);
    timer.unref();
    return async () => clearInterval(timer);
  },
  async stop() {},
};
