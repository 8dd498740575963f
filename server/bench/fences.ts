// Account fences and attendance on PostgreSQL. Printed, from one run:
//
// 1. Ingest with account fences: a real server process (as bench:ingest, same load generator) takes
//    watch UD frames from 1 000 devices at 20/s each (+1 LK/s), moving on loops over north-east
//    Guangzhou, first with no account fence, then (server restarted on the same database) with 10
//    account fences watching every device: 5 county boundaries of more than 1 000 vertices each
//    (Baiyun, Huangpu, Huadu, Conghua, Zengcheng, as the server reads them) and 5 drawn areas
//    (2 circles, 3 polygons of 4 to 200 vertices). Positions committed per second and LK acknowledgement p50/p99 of both runs side by
//    side, and the crossings and alarms the fences produced (so a run where they did nothing shows).
// 2. Attendance: a fresh database with the demo tenant, 10 accounts of 1 000 devices each, one fence
//    per account (Monday to Friday 09:00-18:00), and 31 days of attendance_daily rows for every
//    device (310 000 rows, written directly: the figure is about the read path). Timed over HTTP as
//    the console calls them: /AccountFence/Attendance (total and daily views, first page, sorted;
//    p50/p95 of 20 calls after 3 warm-up calls) and /AccountFence/AttendanceExport to the last byte
//    (both views).
// 3. The machine's COPY ceiling (position rows/s, as bench:ingest measures it).
//
//   npm run bench:fences -- [--devices 1000] [--rate 20] [--seconds 20] [--warmup 5] [--period 60]
//                           [--attendance-devices 10000] [--days 31] [--samples 20]
//                           [--only ingest|attendance] [--districts-as-polygons] [--keep]
//
// --period: seconds (real time) a device takes to go once round its loop; device time runs 20 times
// faster (each 50 ms tick is a second of device time), so the dwell of 60 s is 3 s of real time.
// --districts-as-polygons: the counties' largest outer rings as polygon fences instead (to compare the
// district path with the polygon path). BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): databases
// are created in it and dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { districtName, districtPolygons } from '../src/modules/account-fence/districts.js';
import {
  benchArgs,
  copyCeiling,
  copyLines,
  createPostgresDatabase,
  fdLimit,
  fmt,
  adminPoster,
  imeiOf,
  loadAvg,
  openMany,
  percentile,
  prepareIngestDatabase,
  runWatchLoad,
  startDemoPlatform,
  startServerProcess,
  type LatLon,
  type WatchLoadResult,
} from './common.js';

const args = benchArgs();
const DEVICES = Number(args.get('devices') ?? 1000);
const RATE = Number(args.get('rate') ?? 20);
const SECONDS = Number(args.get('seconds') ?? 20);
const WARMUP_S = Number(args.get('warmup') ?? 5);
const PERIOD_S = Number(args.get('period') ?? 60);
const ATT_DEVICES = Number(args.get('attendance-devices') ?? 10_000);
const DAYS = Number(args.get('days') ?? 31);
const SAMPLES = Number(args.get('samples') ?? 20);
const ONLY = args.get('only');
const DISTRICTS_AS_POLYGONS = args.has('districts-as-polygons');
/** Keep the attendance database (its URL is printed), to look at its plans afterwards. */
const KEEP = args.has('keep');

// ---------------------------------------------------------------- fences

/**
 * Counties of Guangzhou with more than 1 000 vertices in the boundary dataset (as the server reads it:
 * repeated points dropped), next to each other north-east of the city.
 */
const COUNTIES = ['440111', '440112', '440114', '440117', '440118'];

interface FenceRow {
  name: string;
  kind: 'polygon' | 'circle' | 'district';
  lat?: number;
  lon?: number;
  radius?: number;
  /** [[lat, lon], ...] */
  points?: [number, number][];
  districtCode?: string;
  schedule?: { days: number[]; windows: { start: string; end: string }[] } | null;
  /** Vertices, for the printout. */
  vertices: number;
}

/** A star-shaped (so simple) ring of n vertices around a centre, radius jittered, as [[lat, lon], ...]. */
function ring(center: LatLon, radiusDeg: number, n: number, rand: () => number): [number, number][] {
  return Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n;
    const r = radiusDeg * (0.7 + 0.3 * rand());
    return [center.lat + r * 0.9 * Math.sin(a), center.lon + r * Math.cos(a)] as [number, number];
  });
}

function mulberry32(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function benchFences(): Promise<FenceRow[]> {
  const rand = mulberry32(7);
  const allDay = { days: [0, 1, 2, 3, 4, 5, 6], windows: [{ start: '08:00', end: '20:00' }, { start: '20:00', end: '08:00' }] };
  const out: FenceRow[] = [];
  for (const code of COUNTIES) {
    // The boundary as the server reads it (the same loader).
    const polygons = (await districtPolygons(code)) ?? [];
    const vertices = polygons.reduce((s, p) => s + p.reduce((t, r) => t + r.length, 0), 0);
    const name = districtName(code, 'en');
    if (DISTRICTS_AS_POLYGONS) {
      // The largest polygon's outer ring.
      const outer = polygons.map((p) => p[0]!).sort((a, b) => b.length - a.length)[0]!;
      out.push({ name: `${name} (ring)`, kind: 'polygon', points: outer.map(([lon, lat]) => [lat!, lon!]), vertices: outer.length });
    } else {
      out.push({ name, kind: 'district', districtCode: code, vertices });
    }
  }
  out.push({ name: 'Circle 3 km', kind: 'circle', lat: 23.3, lon: 113.4, radius: 3000, vertices: 0 });
  out.push({ name: 'Circle 5 km', kind: 'circle', lat: 23.5, lon: 113.7, radius: 5000, vertices: 0, schedule: allDay });
  out.push({ name: 'Rectangle', kind: 'polygon', points: [[23.2, 113.5], [23.2, 113.6], [23.3, 113.6], [23.3, 113.5]], vertices: 4 });
  out.push({ name: 'Polygon 64', kind: 'polygon', points: ring({ lat: 23.6, lon: 113.3 }, 0.06, 64, rand), vertices: 64, schedule: allDay });
  out.push({ name: 'Polygon 200', kind: 'polygon', points: ring({ lat: 23.25, lon: 113.25 }, 0.05, 200, rand), vertices: 200 });
  return out;
}

async function insertFences(client: pg.Client, ownerId: number, watched: number[], fences: FenceRow[]): Promise<number[]> {
  const ids: number[] = [];
  for (const f of fences) {
    const [row] = (
      await client.query<{ id: number }>(
        `INSERT INTO account_fences (owner_id, name, alarm_type, kind, lat, lon, radius, points, district_code, schedule)
         VALUES ($1, $2, 3, $3, $4, $5, $6, $7::jsonb, $8, $9::jsonb) RETURNING id`,
        [ownerId, f.name, f.kind, f.lat ?? null, f.lon ?? null, f.radius ?? null, JSON.stringify(f.points ?? []), f.districtCode ?? null, f.schedule ? JSON.stringify(f.schedule) : null],
      )
    ).rows;
    ids.push(row!.id);
    for (const a of watched) await client.query('INSERT INTO account_fence_accounts (fence_id, account_id) VALUES ($1, $2)', [row!.id, a]);
  }
  return ids;
}

// ---------------------------------------------------------------- 1. ingest

/** 100 loops over north-east Guangzhou (10 devices each), crossing the counties and the drawn areas. */
function guangzhouLoops(periodTicks: number) {
  const rand = mulberry32(42);
  const loops = Array.from({ length: 100 }, () => ({
    lon: 113.1 + 0.8 * rand(),
    lat: 23.15 + 0.6 * rand(),
    r: 0.03 + 0.09 * rand(),
    phase: 2 * Math.PI * rand(),
    dir: rand() < 0.5 ? -1 : 1,
  }));
  return {
    groups: loops.length,
    at(g: number, tick: number): LatLon {
      const l = loops[g]!;
      const a = l.phase + (l.dir * 2 * Math.PI * tick) / periodTicks;
      return { lat: Number((l.lat + 0.8 * l.r * Math.sin(a)).toFixed(6)), lon: Number((l.lon + l.r * Math.cos(a)).toFixed(6)) };
    },
  };
}

interface IngestFigures {
  label: string;
  run: WatchLoadResult;
  batches: number;
  meanBatch: number;
  batchMs: number;
}

async function ingestRun(label: string, env: Record<string, string>, fixTimeStart: number): Promise<IngestFigures> {
  const server = await startServerProcess(env);
  try {
    const sockets = await openMany(server.watchPort, DEVICES);
    const run = await runWatchLoad({
      sockets,
      imeis: sockets.map((_, i) => imeiOf(i)),
      httpUrl: server.httpUrl,
      rate: RATE,
      seconds: SECONDS,
      warmupSeconds: WARMUP_S,
      pid: server.child.pid,
      route: guangzhouLoops((PERIOD_S * 1000) / 50),
      fixTimeStart,
    });
    for (const s of sockets) s.destroy();
    const nb = Math.max(1, run.m1.batches - run.m0.batches);
    return { label, run, batches: run.m1.batches - run.m0.batches, meanBatch: (run.m1.committed - run.m0.committed) / nb, batchMs: (run.m1.batchMs - run.m0.batchMs) / nb };
  } finally {
    await server.stop();
  }
}

async function benchIngest(): Promise<{ ceiling: number; with: number; without: number }> {
  if (fdLimit() < DEVICES + 200) throw new Error(`ulimit -n is ${fdLimit()}: ${DEVICES} connections need more`);
  const fences = await benchFences();
  console.log(`\n1. ingest with account fences: ${DEVICES} devices x ${RATE} UD/s (+1 LK/s), ${SECONDS} s measured after ${WARMUP_S} s, loops of ${PERIOD_S} s`);
  console.log(`   fences (each watching all ${DEVICES} devices, alarm on entering and leaving):`);
  for (const f of fences) {
    const what = f.kind === 'district' ? `county ${f.districtCode}, ${fmt(f.vertices)} vertices` : f.kind === 'circle' ? `circle ${fmt(f.radius!)} m` : `polygon, ${fmt(f.vertices)} vertices`;
    console.log(`     ${f.name.padEnd(18)} ${what}${f.schedule ? ', with a schedule (two windows covering the day)' : ''}`);
  }
  const prep = await prepareIngestDatabase('postgres', DEVICES);
  const client = new pg.Client({ connectionString: prep.url });
  await client.connect();
  try {
    const hourAgo = Date.now() - 3_600_000;
    console.log(`   load average before: ${loadAvg()}`);
    const without = await ingestRun('without account fences', prep.env, hourAgo - 3_600_000);
    console.log(`   load average after the run without fences: ${loadAvg()}`);
    const fenceIds = await insertFences(client, prep.accountId, [prep.accountId], fences);
    const alarmsBefore = Number((await client.query<{ n: number }>('SELECT count(*)::int AS n FROM alarms')).rows[0]!.n);
    const withF = await ingestRun(`with ${fences.length} account fences`, prep.env, hourAgo);
    console.log(`   load average after the run with fences: ${loadAvg()}`);

    console.log('');
    console.log(`   ${''.padEnd(28)} ${'offered'.padStart(10)} ${'committed/s'.padStart(12)} ${'ack p50'.padStart(10)} ${'ack p99'.padStart(10)} ${'server CPU'.padStart(11)} ${'CPU/1000 pos'.padStart(13)}   batches`);
    for (const f of [without, withF]) {
      const r = f.run;
      const positions = r.m1.positions - r.m0.positions;
      console.log(
        `   ${f.label.padEnd(28)} ${fmt(r.offered).padStart(10)} ${fmt(r.positionsPerSecond).padStart(12)} ${`${fmt(percentile(r.latencies, 50), 1)} ms`.padStart(10)} ${`${fmt(percentile(r.latencies, 99), 1)} ms`.padStart(10)} ` +
          `${`${fmt((r.serverCpuSeconds / r.seconds) * 100)} %`.padStart(11)} ${`${fmt((r.serverCpuSeconds * 1000 * 1000) / positions, 1)} ms`.padStart(13)}   ${fmt(f.batches)}, mean ${fmt(f.meanBatch)} messages, ${fmt(f.batchMs, 1)} ms queue to commit (${fmt(r.latencies.length)} acks, ${r.unanswered} unanswered)`,
      );
    }
    const r = withF.run;
    const p99 = percentile(r.latencies, 99);
    console.log(
      `   targets with fences: >= 20 000 positions/s ${r.positionsPerSecond >= 20_000 ? 'met' : 'MISSED'}, ack p99 < 250 ms ${p99 < 250 ? 'met' : 'MISSED'}; ` +
        `committed ${fmt((r.positionsPerSecond / without.run.positionsPerSecond) * 100, 1)} % of the run without fences`,
    );

    // What the fences did: crossings confirmed (after the dwell), first sightings, alarms raised.
    const byFence = (
      await client.query<{ fence_id: number; crossings: number; initial: number; alarmed: number }>(
        `SELECT fence_id, count(*) FILTER (WHERE NOT initial)::int AS crossings, count(*) FILTER (WHERE initial)::int AS initial,
                count(*) FILTER (WHERE alarmed)::int AS alarmed
           FROM account_fence_transitions GROUP BY fence_id`,
      )
    ).rows;
    const [inside] = (await client.query<{ n: number; states: number }>('SELECT count(*) FILTER (WHERE inside)::int AS n, count(*)::int AS states FROM account_fence_state')).rows;
    const [alarms] = (
      await client.query<{ rows: number; raised: number }>(`SELECT count(*)::int AS rows, coalesce(sum(count), 0)::int AS raised FROM alarms WHERE type IN (22, 23)`)
    ).rows;
    const [attendance] = (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM attendance_daily')).rows;
    const total = byFence.reduce((s, f) => s + f.crossings, 0);
    const deviceSeconds = (SECONDS + WARMUP_S) * 20;
    const newAlarms = Number((await client.query<{ n: number }>('SELECT count(*)::int AS n FROM alarms')).rows[0]!.n) - alarmsBefore;
    console.log(
      `   what the fences did (${fmt(deviceSeconds / 60)} min of device time): ${fmt(total)} crossings confirmed, ${fmt(byFence.reduce((s, f) => s + f.initial, 0))} first sightings, ` +
        `${fmt(inside!.n)} of ${fmt(inside!.states)} device-fence states inside; ${fmt(alarms!.rows)} fence alarm records (raised ${fmt(alarms!.raised)} times; ${fmt(newAlarms)} alarm records in all); ${fmt(attendance!.n)} attendance rows`,
    );
    fences.forEach((f, i) => {
      const s = byFence.find((b) => b.fence_id === fenceIds[i]);
      console.log(`     ${f.name.padEnd(18)} ${fmt(s?.crossings ?? 0).padStart(7)} crossings, ${fmt(s?.alarmed ?? 0).padStart(7)} alarmed, ${fmt(s?.initial ?? 0).padStart(5)} first sightings`);
    });
    if (!byFence.some((b) => fenceIds.slice(0, COUNTIES.length).includes(b.fence_id) && b.crossings > 0)) {
      console.log('   NOTE: the county fences confirmed no crossing: the server has not loaded their boundaries (or the engine did not run)');
    }

    // 3. The ceiling, on this database: 300 000 position rows in one COPY.
    await client.end();
    const ceiling = await copyCeiling(prep.url!, CEILING_ROWS);
    return { ceiling, with: r.positionsPerSecond, without: without.run.positionsPerSecond };
  } finally {
    await client.end().catch(() => {});
    await prep.drop();
  }
}

// ---------------------------------------------------------------- 2. attendance

const SITES = 10;
const CEILING_ROWS = 300_000;

async function benchAttendance(measureCeiling: boolean): Promise<number | null> {
  const perSite = Math.ceil(ATT_DEVICES / SITES);
  const first = '2026-10-01';
  const last = new Date(Date.parse(`${first}T00:00:00Z`) + (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  console.log(`\n2. attendance: ${fmt(perSite * SITES)} devices in ${SITES} accounts, one fence each (Mon-Fri 09:00-18:00), ${DAYS} days (${first} to ${last})`);
  const database = await createPostgresDatabase('wt_bench_fences');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-fences-'));
  // No worker: the attendance job must not recompute the rows written below.
  const platform = await startDemoPlatform(dataDir, database.url);
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const [admin] = (await client.query<{ id: number; path: string; h: string }>(`SELECT id, path, password_hash AS h FROM accounts WHERE login_name = 'admin'`)).rows;
    let id = Number((await client.query<{ m: number }>('SELECT max(id)::int AS m FROM accounts')).rows[0]!.m) + 1000;
    const sites = Array.from({ length: SITES }, () => id++);
    const t0 = performance.now();
    await client.query('BEGIN');
    await copyLines(
      client,
      'COPY accounts (id, parent_id, path, login_name, password_hash, kind, user_type, username) FROM STDIN',
      sites.map((s, i) => `${s}\t${admin!.id}\t${admin!.path}${s}/\tsite${i + 1}\t${admin!.h}\tuser\t1\tSite ${i + 1}\n`),
    );
    await client.query(`SELECT setval(pg_get_serial_sequence('accounts', 'id'), ${id})`);
    await copyLines(
      client,
      'COPY devices (imei, short_id, name, protocol, account_id) FROM STDIN',
      (function* () {
        let imei = 867_000_000_000_000;
        for (const s of sites) for (let k = 0; k < perSite; k++, imei++) yield `${imei}\t${String(imei).slice(-10)}\tWorker ${imei % 1_000_000}\twatch\t${s}\n`;
      })(),
    );
    const schedule = JSON.stringify({ days: [1, 2, 3, 4, 5], windows: [{ start: '09:00', end: '18:00' }] });
    for (const [i, s] of sites.entries()) {
      const [f] = (
        await client.query<{ id: number }>(
          `INSERT INTO account_fences (owner_id, name, alarm_type, kind, lat, lon, radius, schedule) VALUES ($1, $2, 3, 'circle', 22.54, 114.05, 300, $3::jsonb) RETURNING id`,
          [s, `Site ${i + 1} gate`, schedule],
        )
      ).rows;
      await client.query('INSERT INTO account_fence_accounts (fence_id, account_id) VALUES ($1, $2)', [f!.id, s]);
    }
    // A working month: on weekdays 5 % absent, arrival and departure within 45 min of 09:00 and
    // 18:00 (late/early when past them), 1-3 entries; weekends unscheduled, a third of them present.
    await client.query('SELECT setseed(0.42)');
    const inserted = await client.query(
      `INSERT INTO attendance_daily (fence_id, device_id, day, first_in, last_out, inside_seconds, entries, exits, late_minutes, early_minutes, late, early, absent, scheduled, end_inside)
       SELECT fence_id, device_id, day,
              CASE WHEN present THEN (day + time '09:00' + arrive * interval '1 minute') AT TIME ZONE 'Asia/Shanghai' END,
              CASE WHEN present THEN (day + time '18:00' + leave * interval '1 minute') AT TIME ZONE 'Asia/Shanghai' END,
              CASE WHEN present THEN (540 - arrive + leave) * 60 - (entries - 1) * 900 ELSE 0 END,
              CASE WHEN present THEN entries ELSE 0 END, CASE WHEN present THEN entries ELSE 0 END,
              CASE WHEN scheduled AND present THEN greatest(arrive, 0) ELSE 0 END,
              CASE WHEN scheduled AND present THEN greatest(-leave, 0) ELSE 0 END,
              scheduled AND present AND arrive > 0, scheduled AND present AND leave < 0, scheduled AND NOT present, scheduled,
              CASE WHEN present THEN false END
         FROM (SELECT fa.fence_id, d.id AS device_id, g.day::date AS day, extract(isodow FROM g.day) < 6 AS scheduled,
                      CASE WHEN extract(isodow FROM g.day) < 6 THEN random() >= 0.05 ELSE random() < 0.33 END AS present,
                      (random() * 90 - 45)::int AS arrive, (random() * 90 - 45)::int AS leave, 1 + (random() * 2)::int AS entries
                 FROM devices d JOIN account_fence_accounts fa ON fa.account_id = d.account_id
                CROSS JOIN generate_series($1::date, $2::date, interval '1 day') AS g(day)) x`,
      [first, last],
    );
    await client.query('COMMIT');
    const seedS = (performance.now() - t0) / 1000;
    for (const t of ['accounts', 'devices', 'account_fences', 'account_fence_accounts', 'attendance_daily']) await client.query(`VACUUM ANALYZE ${t}`);
    console.log(`   written in ${fmt(seedS, 1)} s: ${fmt(sites.length)} accounts, ${fmt(perSite * SITES)} devices, ${SITES} fences, ${fmt(inserted.rowCount ?? 0)} attendance_daily rows; load average ${loadAvg()}`);

    const post = await adminPoster(platform.url);
    const call = async (p: string, body: unknown) => {
      const s = performance.now();
      const res = await post(p, body);
      const json = (await res.json()) as { State: number; Total?: number; Items?: unknown[] };
      const ms = performance.now() - s;
      if (json.State !== 200) throw new Error(`${p}: ${JSON.stringify(json).slice(0, 400)}`);
      return { ms, json };
    };

    console.log(`   /AccountFence/Attendance, first page of 20 (${SAMPLES} calls after 3 warm-up, HTTP round trip in this process):`);
    const range = { From: first, To: last, PageNo: 1, PageCount: 20 };
    const cases: [string, Record<string, unknown>][] = [
      ['total view, whole tenant, by late minutes desc', { ...range, View: 'total', Sort: 'LateMinutes', Order: 'desc' }],
      ['total view, whole tenant, by device name', { ...range, View: 'total', Sort: 'DeviceName', Order: 'asc' }],
      ['daily view, whole tenant, by inside minutes desc', { ...range, View: 'daily', Sort: 'InsideMinutes', Order: 'desc' }],
      ['daily view, whole tenant, by day', { ...range, View: 'daily', Sort: 'Day', Order: 'asc' }],
      [`total view, one account (${fmt(perSite)} devices), by absent days desc`, { ...range, View: 'total', UserId: sites[0], Sort: 'AbsentDays', Order: 'desc' }],
    ];
    for (const [label, body] of cases) {
      for (let i = 0; i < 3; i++) await call('/AccountFence/Attendance', body);
      const times: number[] = [];
      let total = 0;
      const cpu0 = process.cpuUsage();
      for (let i = 0; i < SAMPLES; i++) {
        const { ms, json } = await call('/AccountFence/Attendance', body);
        times.push(ms);
        total = json.Total ?? 0;
      }
      const cpu = process.cpuUsage(cpu0);
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      console.log(
        `     ${label.padEnd(60)} p50 ${fmt(percentile(times, 50), 1).padStart(7)} ms  p95 ${fmt(p95, 1).padStart(7)} ms  max ${fmt(times.at(-1)!, 1).padStart(7)} ms  ` +
          `(Total ${fmt(total)}; Node CPU ${fmt((cpu.user + cpu.system) / 1000 / SAMPLES, 1)} ms a call)  ${p95 < 300 ? 'ok' : 'OVER 300 ms'}`,
      );
    }

    console.log('   /AccountFence/AttendanceExport, to the last byte:');
    // The workbook is the table as shown: totals, or every device's days.
    for (const [label, body] of [
      ['total view, whole tenant, by late minutes', { From: first, To: last, View: 'total', Sort: 'LateMinutes', Order: 'desc' }],
      ['daily view, whole tenant', { From: first, To: last, View: 'daily' }],
    ] as [string, unknown][]) {
      const s = performance.now();
      const cpu0 = process.cpuUsage();
      const res = await post('/AccountFence/AttendanceExport', body);
      if (!res.ok) throw new Error(`export: ${res.status} ${await res.text()}`);
      let bytes = 0;
      let firstByte = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (!firstByte) firstByte = performance.now() - s;
        bytes += chunk.byteLength;
      }
      const ms = performance.now() - s;
      const cpu = process.cpuUsage(cpu0);
      const rows = res.headers.get('x-total-rows');
      console.log(
        `     ${label.padEnd(42)} ${fmt(ms / 1000, 2).padStart(6)} s (first byte after ${fmt(firstByte, 0)} ms; Node CPU ${fmt((cpu.user + cpu.system) / 1e6, 1)} s), ` +
          `${fmt(bytes / 2 ** 20, 1)} MiB, ${rows === null ? '?' : fmt(Number(rows))} rows, ${res.headers.get('content-type')}  ${ms < 30_000 ? 'ok' : 'OVER 30 s'}`,
      );
    }
    return measureCeiling ? await copyCeiling(database.url, CEILING_ROWS) : null;
  } finally {
    await client.end();
    await platform.close();
    if (KEEP) console.log(`   attendance database kept: ${database.url}`);
    else await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const started = performance.now();
  console.log(`account fences benchmark, PostgreSQL; machine: ${os.cpus().length} cores, load average ${loadAvg()}`);
  const ingest = ONLY !== 'attendance' ? await benchIngest() : null;
  const attendanceCeiling = ONLY !== 'ingest' ? await benchAttendance(!ingest) : null;
  const ceiling = ingest?.ceiling ?? attendanceCeiling!;
  console.log(`\n3. COPY ceiling: ${fmt(ceiling)} position rows/s (${fmt(CEILING_ROWS)} rows in one transaction, as bench:ingest measures it)`);
  if (ingest) console.log(`   ingest committed ${fmt((ingest.without / ceiling) * 100, 1)} % of it without account fences, ${fmt((ingest.with / ceiling) * 100, 1)} % with them`);
  console.log(`\nrun time ${fmt((performance.now() - started) / 1000, 0)} s; load average at the end ${loadAvg()}`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
