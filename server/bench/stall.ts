// Event-loop and database stall benchmark: how long devices and a small call wait while the same
// server process takes a large request. API and device gateway share one event loop, and with the
// embedded database (PGlite, one connection, in the same thread) they share the database too: a
// long statement or transaction holds every other query back, device acknowledgements included.
//
// A real server process (tsx server/src/main.ts, demo tenant) is started on each database asked
// for, with D watch devices connected over TCP, each sending one position and one LK heartbeat a
// second (the LK is acknowledged after the batch holding it commits: its round trip is the ack
// latency), and /User/UserInfo sent every 50 ms without waiting for the previous answer (a cheap
// API call that reads the database). Both are recorded while each large request is in flight:
//   - baseline:   nothing (3 s)
//   - stock-in:   /Inventory/BatchInsert of 100 000 pasted IMEI/ICCID rows
//   - device-imp: /Device/batchDevicesCreateUserByExcel of a 10 000-row workbook (50 accounts,
//                 200 new devices each), imported for real
//   and with --bodies (PGlite): a 19 MB JSON body to /User/Login and to an authenticated call
//   without a token, a 4 MB device workbook and one at the import's cap, both as dry runs.
// Printed per scenario: the request's status, duration and answer, and p50/p99/max of the ack
// latency and of the small call meanwhile; then the machine's write ceiling (PostgreSQL: COPY;
// PGlite: 1000-row INSERTs) and the load average.
//
//   npm run bench:stall -- [--db pglite,postgres] [--items 100000] [--rows 10000] [--devices 50] [--bodies]
//
// PostgreSQL: a database is created in BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test)
// and dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import {
  benchArgs,
  copyCeiling,
  createPostgresDatabase,
  fmt,
  insertCeilingPglite,
  loadAvg,
  openMany,
  percentile,
  runWatchLoad,
  sleep,
  startServerProcess,
} from './common.js';

const args = benchArgs();
const DBS = (args.get('db') ?? 'pglite,postgres').split(',') as ('pglite' | 'postgres')[];
const ITEMS = Number(args.get('items') ?? 100_000);
const ROWS = Number(args.get('rows') ?? 10_000);
const DEVICES = Number(args.get('devices') ?? 50);
const BODIES = args.has('bodies');

type Answer = { status: number; ms: number; text: string };

// Keep-alive, as browsers are: a server may then drain a refused body instead of cutting it off.
const agent = new http.Agent({ keepAlive: true });

/**
 * POST with node:http, which hands over the answer as soon as it comes, even while the body is
 * still being sent (a server refuses a body too large before reading it, then closes).
 */
function post(url: string, body: string, token?: string): Promise<Answer> {
  const t = performance.now();
  return new Promise((resolve) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t, text: Buffer.concat(chunks).toString() }));
        res.on('error', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t, text: Buffer.concat(chunks).toString() }));
      },
    );
    // Only when no answer came: the write of a refused body fails once the server closes.
    req.on('error', (err) => resolve({ status: 0, ms: performance.now() - t, text: String(err) }));
    req.end(body);
  });
}

/** The small call every 50 ms, open loop (a stalled answer does not hold the next call back). */
function apiProbe(base: string, token: string) {
  const latencies: number[] = [];
  const pending = new Set<Promise<void>>();
  const timer = setInterval(() => {
    const p: Promise<void> = post(`${base}/api/User/UserInfo`, '{}', token).then((r) => {
      if (r.status === 200) latencies.push(r.ms);
      pending.delete(p);
    });
    pending.add(p);
  }, 50);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
      return latencies.sort((a, b) => a - b);
    },
  };
}

async function workbook(rows: number, targetBytes?: number): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Devices');
  ws.addRow(['LoginName', 'Password', 'Username', 'Email', 'IMEI', 'ICCID', 'Model', 'DeviceName']);
  const rnd = () => Math.random().toString(36).slice(2, 10);
  let n = 0;
  const add = () => {
    ws.addRow([`bench${n % 50}`, 'abc123', `User ${rnd()}`, `${rnd()}@example.com`, `86${String(n).padStart(13, '0')}`, `8986${rnd()}${rnd()}`, 'K9 4G 定位手表', `Watch ${rnd()}`]);
    n++;
  };
  while (n < rows) add();
  let buf = Buffer.from(await wb.xlsx.writeBuffer());
  // Grow until the file reaches the target size.
  while (targetBytes && buf.length < targetBytes) {
    const more = Math.ceil(((targetBytes - buf.length) / buf.length) * n) + 1000;
    for (let i = 0; i < more; i++) add();
    buf = Buffer.from(await wb.xlsx.writeBuffer());
  }
  console.log(`  workbook: ${fmt(n)} rows, ${fmt(buf.length / 1024 / 1024, 1)} MB`);
  return buf.toString('base64');
}

const ms = (sorted: number[]) =>
  sorted.length ? `${fmt(percentile(sorted, 50))} / ${fmt(percentile(sorted, 99))} / ${fmt(sorted[sorted.length - 1]!)}` : '-';

/** What the answer says, short. */
function summary(a: Answer): string {
  if (!a.text.startsWith('{')) return a.text.slice(0, 40);
  const j = JSON.parse(a.text) as { State?: number; Message?: string; Succeeded?: number; Failed?: unknown[]; Imported?: boolean; Created?: number };
  if (j.Imported !== undefined) return `imported ${j.Imported}, created ${j.Created}, refused rows ${j.Failed?.length}`;
  if (j.Succeeded !== undefined) return `stored ${fmt(j.Succeeded)}, refused ${fmt(j.Failed?.length ?? 0)}`;
  return j.Message ?? `State ${j.State}`;
}

async function run(kind: 'pglite' | 'postgres') {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-stall-'));
  const pgDb = kind === 'postgres' ? await createPostgresDatabase('wt_bench_stall') : undefined;
  const server = await startServerProcess({ DATA_DIR: dataDir, DEMO: '1', ...(pgDb ? { DATABASE_URL: pgDb.url } : {}) });
  const url = server.httpUrl;
  console.log(`\n== ${kind} (load average ${loadAvg()}) ==`);
  try {
    const call = async (p: string, body: unknown, token?: string) => JSON.parse((await post(`${url}/api${p}`, JSON.stringify(body), token)).text);
    const token = (await call('/User/Login', { LoginName: 'admin', Password: 'admin123' })).AccessToken as string;
    // The devices whose acknowledgements are timed: watches of the demo administrator.
    const models = (await call('/Device/allDictionary', {}, token)).Models as { ModelId: number; Protocol: string }[];
    const watch = models.find((m) => m.Protocol.toLowerCase() === 'watch')!;
    const imeis = Array.from({ length: DEVICES }, (_, i) => `869${String(i).padStart(12, '0')}`);
    await call('/Device/batchDevices', { ModelId: watch.ModelId, Imeis: imeis }, token);
    const sockets = await openMany(server.watchPort, DEVICES);
    const modelId = (await call('/Inventory/ModelInsert', { Name: 'BENCH-STALL' }, token)).Id as number;
    const storeId = (await call('/Inventory/StoreList', { PageCount: 10 }, token)).Items[0].Id as number;

    const pasted = Array.from({ length: ITEMS }, (_, i) => `35${String(i).padStart(13, '0')}`);
    const stockIn = JSON.stringify({ ModelId: modelId, StoreId: storeId, StockInDate: '2026-11-26', Imeis: pasted, Iccids: pasted.map((x) => `8986${x}`) });
    const sheet = JSON.stringify({ Content: await workbook(ROWS) });
    const scenarios: [string, () => Promise<Answer>][] = [
      ['baseline', async () => (await sleep(3000), { status: 0, ms: 3000, text: '' })],
      [`stock-in ${fmt(ITEMS)}`, () => post(`${url}/api/Inventory/BatchInsert`, stockIn, token)],
      [`device import ${fmt(ROWS)}`, () => post(`${url}/api/Device/batchDevicesCreateUserByExcel`, sheet, token)],
    ];
    if (BODIES && kind === 'pglite') {
      // 19 MB of distinct keys in one object: the shape that costs JSON.parse the most per byte.
      const fields: Record<string, number> = { LoginName: 0, Password: 0 };
      for (let i = 0; i < 1_450_000; i++) fields[`k${i}`] = i % 10;
      const body19 = JSON.stringify({ ...fields, LoginName: 'admin', Password: 'abc123' });
      console.log(`  large JSON body: ${fmt(body19.length / 1024 / 1024, 1)} MB`);
      const big4mb = JSON.stringify({ Content: await workbook(0, 4 * 1024 * 1024), DryRun: true });
      const cap = JSON.stringify({ Content: await workbook(10_000), DryRun: true });
      scenarios.push(
        ['login-19mb', () => post(`${url}/api/User/Login`, body19)],
        ['call-19mb', () => post(`${url}/api/Device/devicesByUserId`, body19)],
        ['excel-4mb dry', () => post(`${url}/api/Device/batchDevicesCreateUserByExcel`, big4mb, token)],
        ['excel-cap dry', () => post(`${url}/api/Device/batchDevicesCreateUserByExcel`, cap, token)],
      );
    }

    console.log('scenario              status  request ms  ack p50 / p99 / max ms (n)       call p50 / p99 / max ms (n)       answer');
    for (const [name, big] of scenarios) {
      let answer: Answer = { status: 0, ms: 0, text: '' };
      let calls: number[] = [];
      const load = await runWatchLoad({
        sockets,
        imeis,
        httpUrl: url,
        rate: 1,
        seconds: 0,
        warmupSeconds: 2,
        during: async () => {
          const probe = apiProbe(url, token);
          answer = await big();
          // Acknowledgements and calls sent near the end are still counted.
          await sleep(1500);
          calls = await probe.stop();
        },
      });
      const acks = `${ms(load.latencies)} (${load.latencies.length}${load.unanswered ? `, ${load.unanswered} unanswered` : ''})`;
      console.log(
        `${name.padEnd(21)} ${String(answer.status).padStart(6)}  ${fmt(answer.ms).padStart(10)}  ${acks.padEnd(32)} ${`${ms(calls)} (${calls.length})`.padEnd(33)} ${summary(answer)}`,
      );
    }
    sockets.forEach((s) => s.destroy());
  } finally {
    await server.stop();
  }
  const ceiling = pgDb ? `COPY ${fmt(await copyCeiling(pgDb.url, 300_000))} rows/s` : `INSERT ${fmt(await insertCeilingPglite(dataDir, 100_000))} rows/s`;
  console.log(`write ceiling (position rows): ${ceiling}; load average ${loadAvg()}`);
  await pgDb?.drop();
  rmSync(dataDir, { recursive: true, force: true });
}

try {
  for (const kind of DBS) await run(kind);
} finally {
  agent.destroy();
}
