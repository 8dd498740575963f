// Event-loop stall benchmark: how long a small call waits while the same server process takes a
// large request. API and device gateway share one event loop, so whatever a large body costs the
// loop (reading, JSON parsing, validating, unzipping a workbook) every device and console waits for.
// A real server process (tsx server/src/main.ts, embedded database, demo tenant) is started; a probe
// sends /User/UserInfo every 20 ms and its latency is recorded while each of these is in flight:
//   - login-19mb:   an unauthenticated 19 MB JSON body to /User/Login
//   - call-19mb:    the same body to an authenticated call without a token
//   - excel-<n>:    a device import workbook of about 4 MB (n rows, base64) as a dry run
//   - excel-cap:    a workbook at the import's row cap, as a dry run
// Printed per scenario: the large request's HTTP status and duration, and the probe's median and
// worst latency while it was in flight (baseline: the probe alone).
//
//   npm run bench:stall
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startServer(dataDir: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', WATCH_PORT: 'off', GT06_PORT: 'off', OSMAND_PORT: 'off', DEMO: '1', SIMULATE: '0', LOG_LEVEL: 'info', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /console at (\S+)/.exec(out);
      if (m) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({ child, url: m[1]! });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it listened`)));
  });
}

// Keep-alive, as browsers are: a server may then drain a refused body instead of cutting it off.
const agent = new http.Agent({ keepAlive: true });

/**
 * POST with node:http, which hands over the answer as soon as it comes, even while the body is
 * still being sent (a server refuses a body too large before reading it, then closes).
 */
function post(url: string, body: string, token?: string): Promise<{ status: number; ms: number; text: string }> {
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

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]! : 0;
};

/** Runs the probe while `big` is in flight; answers the probe's latencies and the big request's result. */
async function measure(base: string, token: string, big: () => Promise<{ status: number; ms: number; text: string }>) {
  const latencies: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const r = await post(`${base}/api/User/UserInfo`, '{}', token);
      latencies.push(r.ms);
      await sleep(20);
    }
  })();
  await sleep(100);
  const result = await big();
  await sleep(100);
  running = false;
  await probe;
  return { result, p50: pct(latencies, 50), max: Math.max(...latencies), n: latencies.length };
}

async function workbook(rows: number, targetBytes?: number): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Devices');
  ws.addRow(['LoginName', 'Password', 'Username', 'Email', 'IMEI', 'ICCID', 'Model', 'DeviceName']);
  const rnd = () => Math.random().toString(36).slice(2, 10);
  let n = 0;
  for (; n < rows; n++) {
    const imei = `86${String(n).padStart(13, '0')}`;
    ws.addRow([`bench${n % 50}`, 'abc123', `User ${rnd()}`, `${rnd()}@example.com`, imei, `8986${rnd()}${rnd()}`, 'K9 4G 定位手表', `Watch ${rnd()}`]);
  }
  let buf = Buffer.from(await wb.xlsx.writeBuffer());
  if (targetBytes) {
    // Grow until the file reaches the target size.
    while (buf.length < targetBytes) {
      const more = Math.ceil(((targetBytes - buf.length) / buf.length) * n) + 1000;
      for (let i = 0; i < more; i++, n++) {
        ws.addRow([`bench${n % 50}`, 'abc123', `User ${rnd()}`, `${rnd()}@example.com`, `86${String(n).padStart(13, '0')}`, `8986${rnd()}${rnd()}`, 'K9 4G 定位手表', `Watch ${rnd()}`]);
      }
      buf = Buffer.from(await wb.xlsx.writeBuffer());
    }
  }
  console.log(`  workbook: ${n} rows, ${(buf.length / 1024 / 1024).toFixed(1)} MB`);
  return buf.toString('base64');
}

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-stall-'));
  const { child, url } = await startServer(dataDir);
  try {
    const login = JSON.parse((await post(`${url}/api/User/Login`, JSON.stringify({ LoginName: 'admin', Password: 'admin123' }))).text);
    const token = login.AccessToken as string;
    // 19 MB of distinct keys in one object: the shape that costs JSON.parse the most per byte.
    const fields: Record<string, number> = { LoginName: 0, Password: 0 };
    for (let i = 0; i < 1_450_000; i++) fields[`k${i}`] = i % 10;
    const body19 = JSON.stringify({ ...fields, LoginName: 'admin', Password: 'abc123' });
    console.log(`  large JSON body: ${(body19.length / 1024 / 1024).toFixed(1)} MB`);
    const big4mb = await workbook(0, 4 * 1024 * 1024);
    const cap = await workbook(10_000);

    const scenarios: [string, () => Promise<{ status: number; ms: number; text: string }>][] = [
      ['baseline', async () => (await sleep(1000), { status: 0, ms: 1000, text: '' })],
      ['login-19mb', () => post(`${url}/api/User/Login`, body19)],
      ['call-19mb', () => post(`${url}/api/Device/devicesByUserId`, body19)],
      ['excel-4mb', () => post(`${url}/api/Device/batchDevicesCreateUserByExcel`, JSON.stringify({ Content: big4mb, DryRun: true }), token)],
      ['excel-cap', () => post(`${url}/api/Device/batchDevicesCreateUserByExcel`, JSON.stringify({ Content: cap, DryRun: true }), token)],
    ];
    console.log('scenario      status  request ms  probe p50 ms  probe max ms  probes');
    for (const [name, big] of scenarios) {
      const m = await measure(url, token, big);
      const msg = m.result.text.startsWith('{') ? (JSON.parse(m.result.text) as { Message?: string }).Message ?? '' : m.result.text.slice(0, 40);
      console.log(
        `${name.padEnd(13)} ${String(m.result.status).padStart(6)}  ${m.result.ms.toFixed(0).padStart(10)}  ${m.p50.toFixed(1).padStart(12)}  ${m.max.toFixed(1).padStart(12)}  ${String(m.n).padStart(6)}  ${msg}`,
      );
    }
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
