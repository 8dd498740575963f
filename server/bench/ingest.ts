// Ingest benchmark: a real server process (tsx server/src/main.ts) takes watch UD position frames
// from K devices over TCP for N seconds. Printed, from one run:
//   - positions committed per second (the server's own counter, over the steady window)
//   - acknowledgement latency p50/p99 (LK heartbeats interleaved with the UD frames: the watch
//     protocol acknowledges LK, not UD, and an LK is acked after the batch holding it commits)
//   - server RSS per idle connection (10 000 idle connections opened first) and per active one
//   - the ceiling: the same number of position rows written into the same database by plain COPY
//     (PostgreSQL) or multi-row INSERTs (PGlite) from this process, and the ratio to it.
//
//   npm run bench:ingest -- --db postgres --devices 2000 --rate 12 --seconds 20 --idle 10000
//
// Options: --db pglite|postgres (postgres: BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test,
// a fresh database is created and dropped), --devices K, --rate UD frames per device per second,
// --seconds N, --idle idle connections (needs `ulimit -n` above idle + devices + 100 for both
// processes; the script says so when it is not).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { openDatabase } from '../src/db/client.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]!;
  if (a.startsWith('--')) args.set(a.slice(2), process.argv[i + 1] && !process.argv[i + 1]!.startsWith('--') ? process.argv[++i]! : '1');
}
const DB = (args.get('db') ?? 'pglite') as 'pglite' | 'postgres';
const DEVICES = Number(args.get('devices') ?? 2000);
const RATE = Number(args.get('rate') ?? 12);
const SECONDS = Number(args.get('seconds') ?? 20);
const IDLE = Number(args.get('idle') ?? 10_000);
const WARMUP_S = Number(args.get('warmup') ?? 3);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

function fdLimit(): number {
  try {
    const m = /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : Infinity;
  } catch {
    return Infinity;
  }
}

const imeiOf = (i: number) => `866${String(i + 1).padStart(12, '0')}`;

async function prepareDatabase(): Promise<{ env: Record<string, string>; url?: string; dataDir: string; drop(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-'));
  let url: string | undefined;
  let dropDb = async () => {};
  if (DB === 'postgres') {
    const base = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
    const name = `wt_bench_${Date.now()}`;
    const c = new pg.Client({ connectionString: base.toString() });
    await c.connect();
    await c.query(`CREATE DATABASE ${name}`);
    await c.end();
    const u = new URL(base.toString());
    u.pathname = `/${name}`;
    url = u.toString();
    dropDb = async () => {
      const d = new pg.Client({ connectionString: base.toString() });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    };
  }
  // One account owning K devices; the server then finds a non-empty database and seeds nothing.
  const db = await openDatabase(url ? { url } : { dataDir });
  const [acc] = await db.query<{ id: number }>(`INSERT INTO accounts (path, login_name, password_hash, kind, user_type) VALUES ('/', 'bench', 'x', 'operator', 3) RETURNING id`);
  await db.query(`UPDATE accounts SET path = '/' || id || '/' WHERE id = $1`, [acc!.id]);
  const rows = Array.from({ length: DEVICES }, (_, i) => ({ imei: imeiOf(i), short: imeiOf(i).slice(-10) }));
  await db.query(
    `INSERT INTO devices (imei, short_id, name, protocol, account_id)
     SELECT imei, short, imei, 'watch', $2 FROM json_to_recordset($1::json) AS x(imei text, short text)`,
    [JSON.stringify(rows), acc!.id],
  );
  await db.close();
  return {
    env: { DATA_DIR: dataDir, ...(url ? { DATABASE_URL: url } : {}) },
    url,
    dataDir,
    drop: async () => {
      await dropDb();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; watchPort: number; httpUrl: string }> {
  // BENCH_SERVER_FLAGS passes node flags to the server (e.g. --cpu-prof to profile it).
  const flags = (process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...flags, '--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      WATCH_PORT: '0',
      GT06_PORT: 'off',
      OSMAND_PORT: 'off',
      DEMO: '0',
      SIMULATE: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let watchPort = 0;
    let httpUrl = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        let j: { msg?: string; port?: number; protocol?: string; level?: number };
        try {
          j = JSON.parse(line);
        } catch {
          continue;
        }
        if (j.msg === 'device listener started' && j.protocol === 'watch') watchPort = j.port!;
        const m = /console at (\S+)/.exec(j.msg ?? '');
        if (m) httpUrl = m[1]!;
        if ((j.level ?? 0) >= 50) console.error('server:', line);
        if (watchPort && httpUrl) resolve({ child, watchPort, httpUrl });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function metrics(url: string): Promise<{ positions: number; committed: number; batches: number; batchMs: number }> {
  return (await fetch(`${url}/api/metrics`)).json() as never;
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
}

async function openMany(port: number, n: number, parallel = 500): Promise<net.Socket[]> {
  const out: net.Socket[] = [];
  for (let i = 0; i < n; i += parallel) {
    const batch = await Promise.all(Array.from({ length: Math.min(parallel, n - i) }, () => connect(port)));
    for (const s of batch) {
      s.on('error', () => {});
      out.push(s);
    }
  }
  return out;
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Position rows as the pipeline writes them, for the ceiling. */
function copyText(rows: number, deviceIds: number[]): string[] {
  const chunks: string[] = [];
  const received = new Date().toISOString();
  let buf = '';
  for (let i = 0; i < rows; i++) {
    const t = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
    const attrs = `{"type": "UD", "battery": 90, "signal": 80, "steps": ${i % 5000}, "tumbles": 0, "status": 0}`;
    buf += `${deviceIds[i % deviceIds.length]}\t${t}\t${received}\t22.5${i % 1000}\t114.0${i % 977}\tt\t12.5\t90\t10\t\\N\t7\t\\N\t\\N\t${attrs}\n`;
    if (buf.length > 1 << 20) {
      chunks.push(buf);
      buf = '';
    }
  }
  if (buf) chunks.push(buf);
  return chunks;
}

async function ceilingPostgres(url: string, rows: number): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const ids = (await client.query<{ id: number }>('SELECT id FROM devices ORDER BY id')).rows.map((r) => r.id);
  const chunks = copyText(rows, ids);
  const started = performance.now();
  await client.query('BEGIN');
  await pipeline(Readable.from(chunks), client.query(copyFrom('COPY positions (device_id, time, received_at, lat, lon, valid, speed, course, altitude, accuracy, satellites, cells, wifi, attributes) FROM STDIN')));
  await client.query('COMMIT');
  const s = (performance.now() - started) / 1000;
  await client.end();
  return rows / s;
}

async function ceilingPglite(dataDir: string, rows: number): Promise<number> {
  const db = await openDatabase({ dataDir });
  const ids = (await db.query<{ id: number }>('SELECT id FROM devices ORDER BY id')).map((r) => r.id);
  const received = new Date().toISOString();
  const PER = 1000;
  const started = performance.now();
  for (let i = 0; i < rows; i += PER) {
    const n = Math.min(PER, rows - i);
    const values: string[] = [];
    const params: unknown[] = [];
    for (let k = 0; k < n; k++) {
      const j = i + k;
      const b = params.length;
      values.push(`($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, true, 12.5, 90, 10, NULL, 7, NULL, NULL, $${b + 6}::jsonb)`);
      params.push(ids[j % ids.length], new Date(Date.UTC(2026, 0, 1) + j * 1000).toISOString(), received, 22.5 + (j % 1000) / 1e4, 114 + (j % 977) / 1e4,
        `{"type": "UD", "battery": 90, "signal": 80, "steps": ${j % 5000}, "tumbles": 0, "status": 0}`);
    }
    await db.query(
      `INSERT INTO positions (device_id, time, received_at, lat, lon, valid, speed, course, altitude, accuracy, satellites, cells, wifi, attributes) VALUES ${values.join(',')}`,
      params,
    );
  }
  const s = (performance.now() - started) / 1000;
  await db.close();
  return rows / s;
}

async function main() {
  const limit = fdLimit();
  if (limit < IDLE + DEVICES + 200) {
    console.error(`ulimit -n is ${limit}: ${IDLE} idle + ${DEVICES} active connections need more. Run \`ulimit -n ${IDLE + DEVICES + 1000}\` first, or pass --idle ${Math.max(0, limit - DEVICES - 200)}.`);
    process.exit(2);
  }
  console.log(`ingest benchmark: ${DB}, ${DEVICES} devices x ${RATE} UD/s (+1 LK/s) for ${SECONDS} s, ${IDLE} idle connections`);
  const prep = await prepareDatabase();
  const { child, watchPort, httpUrl } = await startServer(prep.env);
  const pid = child.pid!;
  try {
    await sleep(1000);
    const rssBase = rssOf(pid);

    // Idle connections: what a connected but silent device costs the server.
    const idle = await openMany(watchPort, IDLE);
    await sleep(2000);
    const rssIdle = rssOf(pid);
    const perIdle = IDLE ? (rssIdle - rssBase) / IDLE : NaN;

    const active = await openMany(watchPort, DEVICES);
    const imeis = active.map((_, i) => imeiOf(i));
    const lkSentAt: number[][] = active.map(() => []);
    const latencies: number[] = [];
    let measuring = false;
    active.forEach((s, i) => {
      const ack = `[3G*${imeis[i]}*0002*LK]`;
      let pending = '';
      s.setEncoding('latin1');
      s.on('data', (d: string) => {
        pending += d;
        let k: number;
        while ((k = pending.indexOf(ack)) >= 0) {
          pending = pending.slice(k + ack.length);
          const sent = lkSentAt[i]!.shift();
          if (sent !== undefined && measuring) latencies.push(performance.now() - sent);
        }
        if (pending.length > 4096) pending = pending.slice(-64);
      });
    });

    // Each 50 ms tick: RATE/20 UD frames per device on average, and an LK once a second per device.
    const TICK = 50;
    const perTick = (RATE * TICK) / 1000;
    const acc = active.map((_, i) => (i / active.length) * perTick);
    const lkPhase = active.map((_, i) => i % (1000 / TICK));
    let tick = 0;
    let fixTime = Date.UTC(2026, 0, 1);
    const timer = setInterval(() => {
      tick++;
      fixTime += 1000;
      const ud = watchContent.ud({ fix: { time: new Date(fixTime), valid: true, lat: 22.543096, lon: 114.057865, speed: 12.5, course: 90, altitude: 10, satellites: 7 }, battery: 90, signal: 80, steps: tick });
      // The frame as buildWatchFrame makes it, by string concatenation: the generator shares the
      // machine with the server and should cost it as little CPU as possible.
      const udTail = `*${ud.length.toString(16).toUpperCase().padStart(4, '0')}*${ud}]`;
      for (let i = 0; i < active.length; i++) {
        const s = active[i]!;
        if (s.destroyed) continue;
        acc[i]! += perTick;
        let out = '';
        while (acc[i]! >= 1) {
          acc[i]! -= 1;
          out += `[3G*${imeis[i]}${udTail}`;
        }
        if (tick % (1000 / TICK) === lkPhase[i]) {
          out += buildWatchFrame('3G', imeis[i]!, watchContent.lk({ steps: tick, battery: 90 })).toString('latin1');
          lkSentAt[i]!.push(performance.now());
        }
        if (out) s.write(out, 'latin1');
      }
    }, TICK);

    await sleep(WARMUP_S * 1000);
    measuring = true;
    const m0 = await metrics(httpUrl);
    const t0 = performance.now();
    let rssPeak = rssOf(pid);
    const rssTimer = setInterval(() => (rssPeak = Math.max(rssPeak, rssOf(pid))), 500);
    await sleep(SECONDS * 1000);
    const m1 = await metrics(httpUrl);
    const t1 = performance.now();
    measuring = false;
    clearInterval(timer);
    clearInterval(rssTimer);
    const rssLoad = rssOf(pid);

    const seconds = (t1 - t0) / 1000;
    const positionsPerSecond = (m1.positions - m0.positions) / seconds;
    const offered = DEVICES * RATE;
    latencies.sort((a, b) => a - b);
    const unanswered = lkSentAt.reduce((n, l) => n + l.length, 0);

    for (const s of [...idle, ...active]) s.destroy();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));

    // The ceiling: as many rows as the server wrote in the window, by the plainest bulk path.
    const rows = Math.max(50_000, m1.positions - m0.positions);
    const ceiling = DB === 'postgres' ? await ceilingPostgres(prep.url!, rows) : await ceilingPglite(prep.dataDir, rows);

    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log('');
    console.log(`database                  ${DB}`);
    console.log(`offered                   ${fmt(offered)} positions/s (${DEVICES} devices x ${RATE}/s)`);
    console.log(`committed                 ${fmt(positionsPerSecond)} positions/s over ${fmt(seconds, 1)} s`);
    const nb = Math.max(1, m1.batches - m0.batches);
    console.log(`batches                   ${fmt(m1.batches - m0.batches)} (mean ${fmt((m1.committed - m0.committed) / nb)} messages, ${fmt((m1.batchMs - m0.batchMs) / nb, 1)} ms from queue to commit)`);
    console.log(`ack latency (LK)          p50 ${fmt(p50, 1)} ms, p99 ${fmt(p99, 1)} ms (${fmt(latencies.length)} acks, ${unanswered} unanswered at the end)`);
    console.log(`server RSS                base ${fmt(rssBase / 2 ** 20, 1)} MiB, +${fmt(IDLE)} idle ${fmt(rssIdle / 2 ** 20, 1)} MiB, under load ${fmt(rssLoad / 2 ** 20, 1)} MiB (peak ${fmt(rssPeak / 2 ** 20, 1)})`);
    console.log(`RSS per idle connection   ${fmt(perIdle / 1024, 2)} KiB`);
    console.log(`RSS per active connection ${fmt((rssLoad - rssIdle) / DEVICES / 1024, 2)} KiB (queues and batches included)`);
    console.log(`ceiling (${DB === 'postgres' ? 'COPY' : 'multi-row INSERT'})     ${fmt(ceiling)} rows/s for ${fmt(rows)} rows`);
    console.log(`ratio to ceiling          ${fmt((positionsPerSecond / ceiling) * 100, 1)} %`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await prep.drop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
