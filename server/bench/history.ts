// History benchmark on PostgreSQL (docs/scaling.md): positions partitioned by day.
//   1. loads P positions over D days for K devices with COPY (one COPY per day, each into its
//      day's partition), then ANALYZE;
//   2. one device's day of track, the history call's own query, for 300 random (device, day)
//      pairs: p50 / p95 / p99 ms;
//   3. dropping the oldest day through the retention job (a whole partition) against a DELETE of
//      as many rows from an unpartitioned table of the same shape (the layout before partitioning);
//   4. ingest at saturation: the pipeline's PostgreSQL write (COPY of 5000-row batches, one
//      transaction each) into the partitioned table and into the unpartitioned one, in this run,
//      three runs each in turns (A B B A A B) after a checkpoint each (medians), with the COPY ceiling
//      of the machine (one big COPY); both tables start empty, then again with the unpartitioned one
//      holding 10 days of the history (--history-days), as today's single table holds all of it;
//   5. disk per day: a day's partition with its index, bytes per row;
//   6. the alarm engine's claim of a pending device event with a year of device_events partitions:
//      by id alone against by id and time (the engine's statement).
//
//   npm run bench:history                  # 200 000 000 positions, 60 days, 20 000 devices
//   npm run bench:history -- --small       # 3 000 000 positions, 60 days, 300 devices (same rows per device-day)
//
// Options: --positions P --days D --devices K --history-days H. BENCH_DATABASE_URL (default the local `test` server):
// a fresh database is created and dropped at the end.
import { execSync } from 'node:child_process';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import { applyRetention } from '../src/db/partitions.js';
import { CLAIM_DEVICE_EVENT_SQL, claimParams } from '../src/rules/alarm-engine.js';
import { benchArgs, chunkLines, copyLines, createPostgresDatabase, fmt, percentile } from './common.js';

const args = benchArgs();
const SMALL = args.has('small');
const DEVICES = Number(args.get('devices') ?? (SMALL ? 300 : 20_000));
const DAYS = Number(args.get('days') ?? 60);
const POSITIONS = Number(args.get('positions') ?? (SMALL ? 3_000_000 : 200_000_000));
const INGEST_ROWS = Number(args.get('ingest') ?? (SMALL ? 300_000 : 2_000_000));
const BATCH = 5000;
const INGEST_RUNS = 3;
const HISTORY_DAYS = Number(args.get('history-days') ?? 10);
const DAY = 86_400_000;
const COLUMNS = 'device_id, time, received_at, lat, lon, valid, speed, course, altitude, accuracy, satellites, attributes';

const load = () => execSync('uptime').toString().trim();

/** The rows of one day: every device's share of the day, its fixes spread evenly over it. */
function* dayLines(dayStart: number, perDeviceDay: number, deviceIds: number[]): Generator<string> {
  const step = Math.floor(DAY / perDeviceDay);
  const received = new Date(dayStart).toISOString();
  for (let d = 0; d < deviceIds.length; d++) {
    const id = deviceIds[d]!;
    for (let k = 0; k < perDeviceDay; k++) {
      const t = new Date(dayStart + k * step + (d % step)).toISOString();
      yield `${id}\t${t}\t${received}\t${(22.5 + ((d * 7 + k) % 1000) / 1e4).toFixed(6)}\t${(114 + ((d * 3 + k) % 1000) / 1e4).toFixed(6)}\tt\t12.5\t90\t10\t8\t7\t{"type":"UD","battery":90}\n`;
    }
  }
}

async function main() {
  const perDeviceDay = Math.max(1, Math.round(POSITIONS / DEVICES / DAYS));
  const total = perDeviceDay * DEVICES * DAYS;
  console.log(`history benchmark: ${fmt(total)} positions over ${DAYS} days for ${fmt(DEVICES)} devices (${perDeviceDay} per device and day), PostgreSQL`);
  console.log(`load before: ${load()}`);
  const target = await createPostgresDatabase('wt_bench_history');
  const client = new pg.Client({ connectionString: target.url });
  try {
    // The schema, as the platform makes it (migrations, partitions of the coming days).
    const db = await openDatabase({ url: target.url, poolSize: 2 });
    const [acc] = await db.query<{ id: number }>(`INSERT INTO accounts (path, login_name, password_hash, kind, user_type) VALUES ('/', 'bench', 'x', 'operator', 3) RETURNING id`);
    await db.query(`UPDATE accounts SET path = '/' || id || '/' WHERE id = $1`, [acc!.id]);
    await db.query(
      `INSERT INTO devices (imei, short_id, name, protocol, account_id)
       SELECT '86' || lpad(i::text, 13, '0'), lpad(i::text, 10, '0'), 'bench ' || i, 'watch', $2 FROM generate_series(1, $1::int) AS i`,
      [DEVICES, acc!.id],
    );
    await client.connect();
    const ids = (await client.query<{ id: number }>('SELECT id FROM devices ORDER BY id')).rows.map((r) => r.id);
    const today = Math.floor(Date.now() / DAY) * DAY;
    const firstDay = today - DAYS * DAY;
    await client.query(`SELECT wt_ensure_day_partition('positions', d::date) FROM generate_series($1::date, $2::date, interval '1 day') AS d`, [
      new Date(firstDay).toISOString().slice(0, 10),
      new Date(today).toISOString().slice(0, 10),
    ]);

    // 1. Load.
    let started = performance.now();
    for (let day = 0; day < DAYS; day++) {
      await copyLines(client, `COPY positions (${COLUMNS}) FROM STDIN`, dayLines(firstDay + day * DAY, perDeviceDay, ids));
      if (day % 10 === 9) process.stdout.write(`  loaded ${day + 1} days, ${fmt((perDeviceDay * DEVICES * (day + 1)) / ((performance.now() - started) / 1000))} rows/s\n`);
    }
    const loadSeconds = (performance.now() - started) / 1000;
    await client.query('ANALYZE positions');
    console.log(`load: ${fmt(total)} rows in ${fmt(loadSeconds, 1)} s (${fmt(total / loadSeconds)} rows/s, COPY, one per day)`);

    // 2. One device's day of track.
    const sql = `SELECT lat, lon, time, speed, course FROM positions WHERE device_id = $1 AND time >= $2 AND time <= $3 AND lat IS NOT NULL ORDER BY time`;
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < 300; i++) {
      const id = ids[Math.floor(Math.random() * ids.length)]!;
      const day = firstDay + Math.floor(Math.random() * DAYS) * DAY;
      const t0 = performance.now();
      const r = await client.query(sql, [id, new Date(day).toISOString(), new Date(day + DAY - 1).toISOString()]);
      times.push(performance.now() - t0);
      rows += r.rowCount ?? 0;
    }
    times.sort((a, b) => a - b);
    console.log(`one device's day of track (${fmt(rows / 300)} rows): p50 ${fmt(percentile(times, 50), 2)} ms, p95 ${fmt(percentile(times, 95), 2)} ms, p99 ${fmt(percentile(times, 99), 2)} ms`);

    // 5. Disk per day.
    const dayName = `positions_p${new Date(firstDay + DAY).toISOString().slice(0, 10).replaceAll('-', '')}`;
    const [size] = (await client.query<{ bytes: number }>(`SELECT pg_total_relation_size($1)::int8 AS bytes`, [dayName])).rows;
    const dayRows = perDeviceDay * DEVICES;
    console.log(`disk: one day (${fmt(dayRows)} rows) ${fmt(Number(size!.bytes) / 1048576, 1)} MB with its index, ${fmt(Number(size!.bytes) / dayRows, 1)} bytes per row`);

    // 4. Ingest at saturation: partitioned against unpartitioned, then the ceiling.
    await client.query(`CREATE TABLE positions_flat (LIKE positions INCLUDING DEFAULTS)`);
    await client.query(`CREATE INDEX positions_flat_device_time_idx ON positions_flat (device_id, time)`);
    const now = Date.now();
    const ingestLines = [...dayLines(now - 3600_000, Math.max(1, Math.floor(INGEST_ROWS / ids.length)), ids)];
    const batches = chunkBy(ingestLines, BATCH);
    // A checkpoint before each run, so that no run pays for another's dirty pages. Both tables start
    // empty and grow with each run (a bigger index is slower to insert into), so they take turns in
    // the order A B B A A B, three runs each, and the medians are compared.
    const ingest = async (table: string) => {
      await client.query('CHECKPOINT');
      const t0 = performance.now();
      for (const b of batches) {
        await client.query('BEGIN');
        await copyLines(client, `COPY ${table} (${COLUMNS}) FROM STDIN`, [b.join('')], true);
        await client.query('COMMIT');
      }
      return ingestLines.length / ((performance.now() - t0) / 1000);
    };
    const compare = async () => {
      const flatRuns: number[] = [];
      const partRuns: number[] = [];
      for (let run = 0; run < INGEST_RUNS; run++) {
        if (run % 2 === 0) {
          flatRuns.push(await ingest('positions_flat'));
          partRuns.push(await ingest('positions'));
        } else {
          partRuns.push(await ingest('positions'));
          flatRuns.push(await ingest('positions_flat'));
        }
      }
      const runs = (list: number[]) => list.map((r) => fmt(r)).join(' / ');
      return { part: median(partRuns), flat: median(flatRuns), text: `partitioned ${fmt(median(partRuns))} rows/s (${runs(partRuns)}), unpartitioned ${fmt(median(flatRuns))} rows/s (${runs(flatRuns)}), medians' ratio ${fmt(median(partRuns) / median(flatRuns), 2)}` };
    };
    const empty = await compare();
    const ceilingChunks = chunkLines(ingestLines);
    await client.query('CHECKPOINT');
    started = performance.now();
    await client.query('BEGIN');
    await copyLines(client, `COPY positions (${COLUMNS}) FROM STDIN`, ceilingChunks, true);
    await client.query('COMMIT');
    const ceiling = ingestLines.length / ((performance.now() - started) / 1000);
    console.log(
      `ingest at saturation (${fmt(ingestLines.length)} rows in ${BATCH}-row COPY transactions, ${INGEST_RUNS} runs each in turns A B B A A B, a checkpoint before each), both tables starting empty: ` +
        `${empty.text}; COPY ceiling ${fmt(ceiling)} rows/s (partitioned = ${fmt((100 * empty.part) / ceiling)} % of it)`,
    );
    // Today's layout is one table holding all history: its index grows with it, while a day's
    // partition only holds the day. The unpartitioned table gets the first days of the loaded history.
    const historyDays = Math.min(HISTORY_DAYS, DAYS);
    started = performance.now();
    const copied = await client.query(`INSERT INTO positions_flat (${COLUMNS}) SELECT ${COLUMNS} FROM positions WHERE time >= $1 AND time < $2`, [
      new Date(firstDay).toISOString(),
      new Date(firstDay + historyDays * DAY).toISOString(),
    ]);
    await client.query('ANALYZE positions_flat');
    console.log(`  the unpartitioned table takes ${historyDays} days of history (${fmt(copied.rowCount ?? 0)} rows) in ${fmt((performance.now() - started) / 1000, 1)} s`);
    const history = await compare();
    console.log(`ingest at saturation, the unpartitioned table holding ${historyDays} days of history: ${history.text}`);

    // 3. Dropping the oldest day: the retention job against a DELETE of as many rows.
    await client.query(`INSERT INTO data_retention (account_id, positions_days) VALUES ($1, $2)`, [acc!.id, DAYS - 1]);
    started = performance.now();
    const r = await applyRetention(db, now);
    const dropMs = performance.now() - started;
    const flatCount = Number((await client.query<{ n: number }>('SELECT count(*)::int8 AS n FROM positions_flat')).rows[0]!.n);
    const deleteRows = Math.min(dayRows, flatCount);
    started = performance.now();
    await client.query(`DELETE FROM positions_flat WHERE ctid IN (SELECT ctid FROM positions_flat ORDER BY device_id, time LIMIT $1)`, [deleteRows]);
    const deleteMs = performance.now() - started;
    console.log(
      `drop a day: retention job dropped ${r.dropped.join(', ') || 'nothing'} (${fmt(dayRows)} rows) in ${fmt(dropMs, 1)} ms; DELETE of ${fmt(deleteRows)} rows from the unpartitioned table ${fmt(deleteMs, 1)} ms`,
    );
    // 6. The alarm engine's claim of a pending device event with a year of event partitions (the
    //    default retention of device events): by id alone, every partition is opened and probed;
    //    with the event's time, one.
    const yearAgo = today - 365 * DAY;
    await client.query(`SELECT wt_ensure_day_partition('device_events', d::date) FROM generate_series($1::date, $2::date, interval '1 day') AS d`, [
      new Date(yearAgo).toISOString().slice(0, 10),
      new Date(today).toISOString().slice(0, 10),
    ]);
    const partitions = Number((await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'device_events'::regclass`)).rows[0]!.n);
    const events = (
      await client.query<{ id: string; time: Date }>(
        `INSERT INTO device_events (device_id, time, received_at, kind, payload, pending)
         SELECT $1, $2::timestamptz + (i * interval '1 day') / 2, now(), 'sos', '{}', true FROM generate_series(0, 699) AS i RETURNING id, time`,
        [ids[0], new Date(yearAgo + 3600_000).toISOString()],
      )
    ).rows;
    const claim = async (statement: string, list: typeof events, withTime: boolean) => {
      const t: number[] = [];
      for (const e of list) {
        const t0 = performance.now();
        const rows = await db.query(statement, withTime ? claimParams(e.id, e.time) : [e.id]);
        t.push(performance.now() - t0);
        if (rows.length !== 1) throw new Error(`event ${e.id} not claimed`);
      }
      return t.sort((a, b) => a - b);
    };
    const byId = await claim(`UPDATE device_events SET pending = false WHERE id = $1 AND pending RETURNING id`, events.slice(0, 350), false);
    const byTime = await claim(CLAIM_DEVICE_EVENT_SQL, events.slice(350), true);
    const pct = (t: number[]) => `p50 ${fmt(percentile(t, 50), 2)} ms, p95 ${fmt(percentile(t, 95), 2)} ms`;
    console.log(`claim of a pending device event, ${partitions} partitions of device_events: by id alone ${pct(byId)}; by id and time ${pct(byTime)}`);

    await db.close();
    console.log(`load after: ${load()}`);
  } finally {
    await client.end().catch(() => {});
    await target.drop();
  }
}

function median(list: number[]): number {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function chunkBy<T>(list: T[], n: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += n) out.push(list.slice(i, i + n));
  return out;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
