// Reports benchmark on PostgreSQL with the partitioned position history (docs/benchmarks.md):
//   1. loads one device's 31 days at ≈5 000 positions a day, and 1 000 devices' one day (288
//      positions each by default, a fix every 5 minutes), with COPY into the day partitions, then ANALYZE; the tracks
//      alternate half-hour stays (fixes wandering by 20 m) and half-hour drives at 40 km/h;
//   2. the trips and stops of the one device over its 31 days, the call's own code (positions read,
//      trips and stops found, places named by the offline geocoder): p50 / p95;
//   3. the summary per device per day of the 1 000 devices for one day (one page of 1 000): p50 / p95;
//   4. the machine's COPY ceiling (positions written by one plain COPY).
//
//   npm run bench:reports                              # defaults, well under 2 minutes
//   npm run bench:reports -- --per-day 1440 --runs 10  # options: --trip-days --trip-per-day --devices --per-day --runs --summary-runs
//
// BENCH_DATABASE_URL (default the local `test` server): a fresh database is created and dropped at the end.
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import type { AuthedContext } from '../src/calls.js';
import { summary, trips } from '../src/modules/report/service.js';
import { benchArgs, copyCeiling, copyLines, createPostgresDatabase, fmt, loadAvg, percentile } from './common.js';

const args = benchArgs();
const TRIP_DAYS = Number(args.get('trip-days') ?? 31);
const TRIP_PER_DAY = Number(args.get('trip-per-day') ?? 5000);
const DEVICES = Number(args.get('devices') ?? 1000);
const PER_DAY = Number(args.get('per-day') ?? 288);
const RUNS = Number(args.get('runs') ?? 10);
const SUMMARY_RUNS = Number(args.get('summary-runs') ?? 3);
const DAY = 86_400_000;
const COLUMNS = 'device_id, time, received_at, lat, lon, valid, speed';

/** A day of a device's track: half an hour parked (20 m of jitter), half an hour driving at 40 km/h, and so on. */
function* track(id: number, dayStart: number, perDay: number, seed: number): Generator<string> {
  const step = DAY / perDay;
  let lat = 22.5 + (seed % 100) * 0.002;
  let lon = 114 + Math.floor(seed / 100) * 0.002;
  const heading = (seed * 37) % 360;
  const dLat = (Math.cos((heading * Math.PI) / 180) * 40) / 3.6 / 111_195;
  const dLon = (Math.sin((heading * Math.PI) / 180) * 40) / 3.6 / 102_000;
  let last = dayStart;
  for (let k = 0; k < perDay; k++) {
    const t = dayStart + Math.floor(k * step);
    const moving = Math.floor((t - dayStart) / 1_800_000) % 2 === 1;
    const dt = (t - last) / 1000;
    last = t;
    let la = lat;
    let lo = lon;
    if (moving) {
      lat += dLat * dt;
      lon += dLon * dt;
      la = lat;
      lo = lon;
    } else {
      la += (((k * 7919) % 41) - 20) / 111_195;
      lo += (((k * 104_729) % 41) - 20) / 102_000;
    }
    const time = new Date(t).toISOString();
    yield `${id}\t${time}\t${time}\t${la.toFixed(6)}\t${lo.toFixed(6)}\tt\t${moving ? 40 : 0}\n`;
  }
}

function* many(ids: number[], dayStart: number, perDay: number): Generator<string> {
  for (let i = 0; i < ids.length; i++) yield* track(ids[i]!, dayStart, perDay, i);
}

async function timed(runs: number, f: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await f();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b);
}

async function main() {
  console.log(
    `reports benchmark, PostgreSQL: trips of 1 device over ${TRIP_DAYS} days (${fmt(TRIP_PER_DAY)} positions a day); summary of ${fmt(DEVICES)} devices for one day (${fmt(PER_DAY)} positions each)`,
  );
  console.log(`load average before: ${loadAvg()}`);
  const target = await createPostgresDatabase('wt_bench_reports');
  const client = new pg.Client({ connectionString: target.url });
  const db = await openDatabase({ url: target.url, poolSize: 2 });
  try {
    const [acc] = await db.query<{ id: number }>(`INSERT INTO accounts (path, login_name, password_hash, kind, user_type) VALUES ('/', 'bench', 'x', 'operator', 3) RETURNING id`);
    const path = `/${acc!.id}/`;
    await db.query(`UPDATE accounts SET path = $2 WHERE id = $1`, [acc!.id, path]);
    await db.query(
      `INSERT INTO devices (imei, short_id, name, protocol, account_id)
       SELECT '86' || lpad(i::text, 13, '0'), lpad(i::text, 10, '0'), 'bench ' || i, 'watch', $2 FROM generate_series(1, $1::int) AS i`,
      [DEVICES + 1, acc!.id],
    );
    await client.connect();
    const ids = (await client.query<{ id: number }>('SELECT id FROM devices ORDER BY id')).rows.map((r) => r.id);
    const tripDevice = ids[0]!;
    const fleet = ids.slice(1);
    const today = Math.floor(Date.now() / DAY) * DAY;
    const firstDay = today - TRIP_DAYS * DAY;
    const summaryDay = today - DAY;
    await client.query(`SELECT wt_ensure_day_partition('positions', d::date) FROM generate_series($1::date, $2::date, interval '1 day') AS d`, [
      new Date(firstDay).toISOString().slice(0, 10),
      new Date(today).toISOString().slice(0, 10),
    ]);
    let t0 = performance.now();
    for (let d = 0; d < TRIP_DAYS; d++) await copyLines(client, `COPY positions (${COLUMNS}) FROM STDIN`, track(tripDevice, firstDay + d * DAY, TRIP_PER_DAY, 4242));
    await copyLines(client, `COPY positions (${COLUMNS}) FROM STDIN`, many(fleet, summaryDay, PER_DAY));
    await client.query('ANALYZE positions');
    const loaded = TRIP_DAYS * TRIP_PER_DAY + fleet.length * PER_DAY;
    console.log(`load: ${fmt(loaded)} positions in ${fmt((performance.now() - t0) / 1000, 1)} s`);

    const ctx = {
      deps: { database: db, config: { GEOCODER: 'offline' } },
      user: { id: acc!.id, path, timeZoneOffset: 0 },
      locale: 'en',
    } as unknown as AuthedContext;
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    const tripBody = { DeviceId: tripDevice, From: day(firstDay), To: day(today - DAY), StopMinutes: 5, StopRadius: 100, StopSpeed: 5 };
    const probe = await trips(ctx, tripBody);
    const d = probe.Devices[0]!;
    const tripTimes = await timed(RUNS, () => trips(ctx, tripBody));
    console.log(
      `trips and stops, 1 device, ${TRIP_DAYS} days (${fmt(TRIP_DAYS * TRIP_PER_DAY)} positions; ${d.Trips.length} trips, ${d.Stops.length} stops): ` +
        `p50 ${fmt(percentile(tripTimes, 50), 1)} ms, p95 ${fmt(percentile(tripTimes, 95), 1)} ms (${RUNS} runs)`,
    );
    const summaryBody = { From: day(summaryDay), To: day(summaryDay), StopMinutes: 5, StopRadius: 100, StopSpeed: 5, PageNo: 1, PageCount: 1000 };
    const first = await summary(ctx, summaryBody);
    t0 = performance.now();
    const summaryTimes = await timed(SUMMARY_RUNS, () => summary(ctx, summaryBody));
    console.log(
      `summary, ${fmt(first.Items.length)} devices for one day (${fmt(fleet.length * PER_DAY + TRIP_PER_DAY)} positions): ` +
        `p50 ${fmt(percentile(summaryTimes, 50), 1)} ms, p95 ${fmt(percentile(summaryTimes, 95), 1)} ms (${SUMMARY_RUNS} runs)`,
    );
    console.log(`COPY ceiling of this machine: ${fmt(await copyCeiling(target.url, 200_000))} positions/s; load average after: ${loadAvg()}`);
  } finally {
    await client.end().catch(() => undefined);
    await db.close();
    await target.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
