// What the benchmarks share: arguments, figures, a fresh database, a server process, COPY, the
// machine's COPY ceiling, and the watch-protocol load generator of bench:ingest.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { openDatabase } from '../src/db/client.js';
import { loadConfig } from '../src/config.js';
import { startPlatform } from '../src/platform.js';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** `--name value` and bare `--flag` (value '1'). */
export function benchArgs(argv = process.argv): Map<string, string> {
  const args = new Map<string, string>();
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i]!;
    if (a.startsWith('--')) args.set(a.slice(2), argv[i + 1] && !argv[i + 1]!.startsWith('--') ? argv[++i]! : '1');
  }
  return args;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The 1, 5 and 15 minute load averages, printed beside figures. */
export const loadAvg = () => os.loadavg().map((l) => l.toFixed(1)).join(' ');
export const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** CPU time (user + system) a process has used so far, seconds (from /proc, in clock ticks of 1/100 s). */
export function cpuSecondsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) in parentheses: utime and stime are the 12th and 13th.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

export function fdLimit(): number {
  try {
    const m = /Max open files\s+(\d+)/.exec(readFileSync('/proc/self/limits', 'utf8'));
    return m ? Number(m[1]) : Infinity;
  } catch {
    return Infinity;
  }
}

/** A fresh PostgreSQL database in BENCH_DATABASE_URL's server (default the local `test`), dropped by `drop`. */
export async function createPostgresDatabase(prefix = 'wt_bench'): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  const name = `${prefix}_${Date.now()}`;
  const c = new pg.Client({ connectionString: base.toString() });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(base.toString());
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const d = new pg.Client({ connectionString: base.toString() });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}

export const imeiOf = (i: number) => `866${String(i + 1).padStart(12, '0')}`;

export interface IngestDatabase {
  env: Record<string, string>;
  url?: string;
  dataDir: string;
  /** The account owning the devices. */
  accountId: number;
  drop(): Promise<void>;
}

/** A fresh database holding one account ('bench') that owns K watch devices (imeiOf(0..K-1)); the server then seeds nothing. */
export async function prepareIngestDatabase(kind: 'pglite' | 'postgres', devices: number): Promise<IngestDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-'));
  const pgDb = kind === 'postgres' ? await createPostgresDatabase() : undefined;
  const url = pgDb?.url;
  const db = await openDatabase(url ? { url } : { dataDir });
  const [acc] = await db.query<{ id: number }>(`INSERT INTO accounts (path, login_name, password_hash, kind, user_type) VALUES ('/', 'bench', 'x', 'operator', 3) RETURNING id`);
  await db.query(`UPDATE accounts SET path = '/' || id || '/' WHERE id = $1`, [acc!.id]);
  const rows = Array.from({ length: devices }, (_, i) => ({ imei: imeiOf(i), short: imeiOf(i).slice(-10) }));
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
    accountId: acc!.id,
    drop: async () => {
      await pgDb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface ServerChild {
  child: ChildProcess;
  watchPort: number;
  httpUrl: string;
  stop(): Promise<void>;
}

/** A real server process (tsx server/src/main.ts) on free ports; resolves once the watch listener and the console are up. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerChild> {
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
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
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
        if (watchPort && httpUrl) resolve({ child, watchPort, httpUrl, stop });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
}

export interface ServerMetrics {
  positions: number;
  committed: number;
  batches: number;
  batchMs: number;
}

export async function serverMetrics(url: string): Promise<ServerMetrics> {
  return (await fetch(`${url}/api/metrics`)).json() as never;
}

function connect(port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ port, host: '127.0.0.1' }, () => resolve(s));
    s.once('error', reject);
  });
}

export async function openMany(port: number, n: number, parallel = 500): Promise<net.Socket[]> {
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

/** Lines joined into chunks of about 1 MiB, for COPY. */
export function chunkLines(lines: Iterable<string>): string[] {
  const chunks: string[] = [];
  let buf = '';
  for (const l of lines) {
    buf += l;
    if (buf.length > 1 << 20) {
      chunks.push(buf);
      buf = '';
    }
  }
  if (buf) chunks.push(buf);
  return chunks;
}

/** Writes lines (or ready chunks) through COPY ... FROM STDIN. */
export async function copyLines(client: pg.Client, statement: string, lines: Iterable<string>, chunked = false): Promise<void> {
  const chunks = chunked ? lines : chunkLines(lines);
  await pipeline(Readable.from(chunks), client.query(copyFrom(statement)));
}

/**
 * Device times of generated rows start six hours ago, 100 ms apart: recent days have their own
 * partitions (positions are partitioned by day; older or future days land in the default one).
 */
function recentStart(): number {
  return Date.now() - 6 * 3_600_000;
}

const POSITION_COLUMNS = 'device_id, time, received_at, lat, lon, valid, speed, course, altitude, accuracy, satellites, cells, wifi, attributes';

/** Position rows as the pipeline writes them, for the ceiling. */
function* positionLines(rows: number, deviceIds: number[]): Generator<string> {
  const received = new Date().toISOString();
  const start = recentStart();
  for (let i = 0; i < rows; i++) {
    const t = new Date(start + i * 100).toISOString();
    const attrs = `{"type": "UD", "battery": 90, "signal": 80, "steps": ${i % 5000}, "tumbles": 0, "status": 0}`;
    yield `${deviceIds[i % deviceIds.length]}\t${t}\t${received}\t22.5${i % 1000}\t114.0${i % 977}\tt\t12.5\t90\t10\t\\N\t7\t\\N\t\\N\t${attrs}\n`;
  }
}

/**
 * The machine's ceiling: `rows` position rows of the database's devices written by the plainest bulk
 * path, COPY FROM STDIN in one transaction (rows are built before the clock starts). Rows/s.
 */
export async function copyCeiling(url: string, rows: number): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ids = (await client.query<{ id: number }>('SELECT id FROM devices ORDER BY id LIMIT 2000')).rows.map((r) => r.id);
    const chunks = chunkLines(positionLines(rows, ids));
    const started = performance.now();
    await client.query('BEGIN');
    await copyLines(client, `COPY positions (${POSITION_COLUMNS}) FROM STDIN`, chunks, true);
    await client.query('COMMIT');
    return rows / ((performance.now() - started) / 1000);
  } finally {
    await client.end();
  }
}

/** The same with 1000-row multi-row INSERTs, for the embedded database (PGlite has no COPY from a client). */
export async function insertCeilingPglite(dataDir: string, rows: number): Promise<number> {
  const db = await openDatabase({ dataDir });
  const ids = (await db.query<{ id: number }>('SELECT id FROM devices ORDER BY id')).map((r) => r.id);
  const received = new Date().toISOString();
  const start = recentStart();
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
      params.push(ids[j % ids.length], new Date(start + j * 100).toISOString(), received, 22.5 + (j % 1000) / 1e4, 114 + (j % 977) / 1e4,
        `{"type": "UD", "battery": 90, "signal": 80, "steps": ${j % 5000}, "tumbles": 0, "status": 0}`);
    }
    await db.query(`INSERT INTO positions (${POSITION_COLUMNS}) VALUES ${values.join(',')}`, params);
  }
  const s = (performance.now() - started) / 1000;
  await db.close();
  return rows / s;
}

export interface LatLon {
  lat: number;
  lon: number;
}

export interface WatchLoadOptions {
  /** Connected sockets, one per device, and their IMEIs. */
  sockets: net.Socket[];
  imeis: string[];
  httpUrl: string;
  /** UD frames per device per second (each device also sends one LK a second). */
  rate: number;
  seconds: number;
  warmupSeconds: number;
  /** When given, started after the warm-up: the window lasts until it settles instead of `seconds`. */
  during?: () => Promise<unknown>;
  /** The server's pid, to sample its RSS over the window. */
  pid?: number;
  /**
   * Where the devices are: device i belongs to group `i % groups`, and a group's position at a
   * tick (device time moves 1 s per 50 ms tick) is `at(group, tick)`. Devices of a group share their
   * frame's content, so the generator builds `groups` frames a tick, not one per device.
   * Default: every device at one point.
   */
  route?: { groups: number; at(group: number, tick: number): LatLon };
  /** Device time of the first tick's fixes, ms (default an hour ago). */
  fixTimeStart?: number;
}

export interface WatchLoadResult {
  /** The measured window. */
  seconds: number;
  offered: number;
  positionsPerSecond: number;
  m0: ServerMetrics;
  m1: ServerMetrics;
  /** LK round trips inside the window, sorted, ms. */
  latencies: number[];
  /** LKs still unanswered when the load stopped. */
  unanswered: number;
  /** Peak RSS of the server over the window (0 without pid). */
  rssPeak: number;
  /** Device time of the last fixes sent, ms. */
  lastFixTime: number;
  /** CPU seconds the server used over the window (NaN without pid). */
  serverCpuSeconds: number;
}

/**
 * The load of bench:ingest: every 50 ms, rate/20 watch UD frames per device on average and an LK
 * once a second per device; the watch protocol acknowledges LK after the batch holding it commits,
 * so the LK round trip is the acknowledgement latency. Positions committed per second come from the
 * server's own counter over the window after the warm-up. The sockets are left open.
 */
export async function runWatchLoad(o: WatchLoadOptions): Promise<WatchLoadResult> {
  const { sockets: active, imeis } = o;
  const route = o.route ?? { groups: 1, at: () => ({ lat: 22.543096, lon: 114.057865 }) };
  const lkSentAt: number[][] = active.map(() => []);
  const latencies: number[] = [];
  let measuring = false;
  const listeners = active.map((s, i) => {
    const ack = `[3G*${imeis[i]}*0002*LK]`;
    let pending = '';
    s.setEncoding('latin1');
    const onData = (d: string) => {
      pending += d;
      let k: number;
      while ((k = pending.indexOf(ack)) >= 0) {
        pending = pending.slice(k + ack.length);
        const sent = lkSentAt[i]!.shift();
        if (sent !== undefined && measuring) latencies.push(performance.now() - sent);
      }
      if (pending.length > 4096) pending = pending.slice(-64);
    };
    s.on('data', onData);
    return onData;
  });

  // Each 50 ms tick: RATE/20 UD frames per device on average, and an LK once a second per device.
  const TICK = 50;
  const perTick = (o.rate * TICK) / 1000;
  const acc = active.map((_, i) => (i / active.length) * perTick);
  const lkPhase = active.map((_, i) => i % (1000 / TICK));
  const tails: string[] = new Array(route.groups);
  let tick = 0;
  let fixTime = o.fixTimeStart ?? Date.now() - 3_600_000;
  const timer = setInterval(() => {
    tick++;
    fixTime += 1000;
    // The frame as buildWatchFrame makes it, by string concatenation: the generator shares the
    // machine with the server and should cost it as little CPU as possible.
    for (let g = 0; g < route.groups; g++) {
      const { lat, lon } = route.at(g, tick);
      const ud = watchContent.ud({ fix: { time: new Date(fixTime), valid: true, lat, lon, speed: 12.5, course: 90, altitude: 10, satellites: 7 }, battery: 90, signal: 80, steps: tick });
      tails[g] = `*${ud.length.toString(16).toUpperCase().padStart(4, '0')}*${ud}]`;
    }
    for (let i = 0; i < active.length; i++) {
      const s = active[i]!;
      if (s.destroyed) continue;
      acc[i]! += perTick;
      let out = '';
      const udTail = tails[i % route.groups]!;
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

  await sleep(o.warmupSeconds * 1000);
  measuring = true;
  const m0 = await serverMetrics(o.httpUrl);
  const cpu0 = o.pid ? cpuSecondsOf(o.pid) : NaN;
  const t0 = performance.now();
  let rssPeak = o.pid ? rssOf(o.pid) : 0;
  const rssTimer = setInterval(() => (rssPeak = o.pid ? Math.max(rssPeak, rssOf(o.pid)) : 0), 500);
  await (o.during ? o.during().catch(() => undefined) : sleep(o.seconds * 1000));
  const m1 = await serverMetrics(o.httpUrl);
  const t1 = performance.now();
  const cpu1 = o.pid ? cpuSecondsOf(o.pid) : NaN;
  measuring = false;
  clearInterval(timer);
  clearInterval(rssTimer);
  active.forEach((s, i) => s.off('data', listeners[i]!));

  const seconds = (t1 - t0) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    seconds,
    offered: active.length * o.rate,
    positionsPerSecond: (m1.positions - m0.positions) / seconds,
    m0,
    m1,
    latencies,
    unanswered: lkSentAt.reduce((n, l) => n + l.length, 0),
    rssPeak,
    lastFixTime: fixTime,
    serverCpuSeconds: cpu1 - cpu0,
  };
}

/**
 * The platform in this process on the demo data, without listeners for devices and without a worker
 * (roles api and gateway by default); the embedded database when no URL is given.
 */
export function startDemoPlatform(dataDir: string, databaseUrl?: string, roles = 'api,gateway') {
  return startPlatform(
    loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      WATCH_PORT: 'off',
      GT06_PORT: 'off',
      OSMAND_PORT: 'off',
      LOG_LEVEL: 'warn',
      DATA_DIR: dataDir,
      DEMO: '1',
      SIMULATE: '0',
      ROLES: roles,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
  );
}

/** Logs in as the demo admin and answers a function posting a call's body (Chinese replies). */
export async function adminPoster(url: string) {
  const login = await fetch(`${url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: 'admin', Password: 'admin123' }) });
  const token = ((await login.json()) as { AccessToken: string }).AccessToken;
  return (p: string, body: unknown) =>
    fetch(`${url}/api${p}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-language': 'zh-CN' }, body: JSON.stringify(body) });
}
