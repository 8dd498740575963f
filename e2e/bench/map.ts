// Map benchmark (`npm run bench:map`; `npm run bench:map -- land` for the base map's first paint): the built console in headless Chromium with 50 000 devices on the monitor map,
// 5 000 of them moving every second (position events injected into the realtime hub's bus, the
// same path the pipeline publishes on). Prints the time to the first full render and the
// main-thread work per update batch (Chrome trace of the renderer's main thread), and appends
// the figures to docs/benchmarks.md.
import { appendFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { tmpdir, cpus } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../server/src/config.js';
import { startPlatform } from '../../server/src/platform.js';
import { TOPICS, type PositionEvent } from '../../server/src/pipeline/events.js';
import type { RealtimeHub } from '../../server/src/realtime/hub.js';
import { chromium } from 'playwright-core';
import { newContext, root } from '../harness.js';
import { login } from '../console.js';

// `npm run bench:map -- land`: the base map's first paint after the shell (map-land.ts).
if (process.argv[2] === 'land') {
  await import('./map-land.js');
  process.exit(0);
}

const DEVICES = Number(process.env.BENCH_DEVICES ?? 50_000);
const MOVING_PER_SECOND = Number(process.env.BENCH_MOVING ?? 5_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);

if (!existsSync(path.join(root, 'web/dist/index.html'))) execSync('npm run build -w @wt/web', { cwd: root, stdio: 'inherit' });

const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-map-'));
const platform = await startPlatform(
  loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', SIMULATE: '0', WATCH_PORT: '0', GT06_PORT: '0', OSMAND_PORT: '0', LOG_LEVEL: 'warn' }),
);
const db = platform.deps.database;

// Devices spread around six cities, under the administrator (the demo's own devices count too).
const [{ n: existing }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM devices');
const add = Math.max(0, DEVICES - existing);
const [{ id: admin, path: adminPath }] = await db.query<{ id: number; path: string }>(`SELECT id, path FROM accounts WHERE login_name = 'admin'`);
await db.query(
  `INSERT INTO devices (imei, short_id, name, account_id, protocol)
   SELECT lpad((866000000000000 + g)::text, 15, '0'), right(lpad((866000000000000 + g)::text, 15, '0'), 10), 'Bench ' || g, $2, 'watch'
   FROM generate_series(1, $1::int) g`,
  [add, admin],
);
const cities = [[22.54, 114.06], [39.9, 116.4], [31.23, 121.47], [30.57, 104.07], [23.13, 113.26], [34.26, 108.94]];
await db.query(
  `INSERT INTO device_state (device_id, lat, lon, fix_time, last_seen, online, connection_mode)
   SELECT d.id, c.lat + (random() - 0.5) * 0.8, c.lon + (random() - 0.5) * 0.8, now(), now(), random() < 0.7, 'long'
   FROM devices d CROSS JOIN LATERAL (SELECT (($1::json)->(d.id % 6)->>0)::float8 AS lat, (($1::json)->(d.id % 6)->>1)::float8 AS lon) c
   ON CONFLICT (device_id) DO UPDATE SET lat = EXCLUDED.lat, lon = EXCLUDED.lon, online = EXCLUDED.online, last_seen = now()`,
  [JSON.stringify(cities)],
);
const rows = await db.query<{ id: number; imei: string; name: string; lat: number; lon: number }>(
  'SELECT d.id, d.imei, d.name, s.lat, s.lon FROM devices d JOIN device_state s ON s.device_id = d.id ORDER BY d.id',
);
console.log(`${rows.length} devices with a position`);

// WebGL through the GPU process (SwiftShader) as on a desktop, instead of --disable-gpu's in-renderer
// readback, which would charge every frame's compositing to the page's main thread.
// BENCH_WARM=0 leaves the server cold (as in a plain run) while still printing the page's breakdown.
if (process.env.BENCH_DEBUG && process.env.BENCH_WARM !== '0') {
  const login = await (await fetch(`${platform.url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: 'admin', Password: 'admin123' }) })).json();
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const r = await fetch(`${platform.url}/api/device/devicesByUserIdPageColorBigData`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${login.AccessToken}` }, body: '{}' });
    const text = await r.text();
    console.log(`BigData: ${(performance.now() - t0).toFixed(0)} ms, ${(text.length / 1e6).toFixed(1)} MB`);
  }
  for (const [call, body] of [['/device/devicesByUserIdPageColor', { PageNo: 1, PageCount: 1 }], ['/Device/monitorDevices', { Status: 'sos' }]] as const) {
    const t0 = performance.now();
    await (await fetch(`${platform.url}/api${call}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${login.AccessToken}` }, body: JSON.stringify(body) })).text();
    console.log(`${call}: ${(performance.now() - t0).toFixed(0)} ms`);
  }
  const { compactDevices } = await import('../../server/src/modules/monitor/repo.js');
  const { bigDataResponse } = await import('../../contract/src/schemas/monitor.js');
  const t1 = performance.now();
  const rowsC = await compactDevices(db, { path: adminPath });
  const t2 = performance.now();
  bigDataResponse.parse({ State: 200, Total: rowsC.length, Fields: [], Rows: rowsC });
  const t3 = performance.now();
  JSON.stringify(rowsC);
  console.log(`query: ${(t2 - t1).toFixed(0)} ms, zod: ${(t3 - t2).toFixed(0)} ms, stringify: ${(performance.now() - t3).toFixed(0)} ms`);
}
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-first-run', '--disable-background-networking', '--disable-dev-shm-usage'],
});
const ctx = await newContext(browser, { locale: 'zh-CN', width: 1600, height: 900 });
const page = await ctx.newPage();
if (process.env.BENCH_DEBUG) {
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && console.log(`console: ${m.text()}`));
}
type TraceEvent = { name: string; ph: string; dur?: number; ts: number; tid: number; pid: number; args?: { name?: string; data?: { functionName?: string; url?: string; lineNumber?: number } } };
/** Debug breakdown of a trace: busy time per thread of the page, and the page's top events and functions. */
function breakdown(events: TraceEvent[]) {
  const threads = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') threads.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const perThread = new Map<string, number>();
  const byName = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || !e.dur) continue;
    const t = threads.get(`${e.pid}:${e.tid}`) ?? '?';
    if (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') perThread.set(t, (perThread.get(t) ?? 0) + e.dur / 1000);
    if (t !== 'CrRendererMain') continue;
    byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
    const d = e.args?.data;
    if (e.name === 'FunctionCall' && d) {
      const k = `${d.functionName || '(anonymous)'} ${String(d.url ?? '').split('/').pop()}:${d.lineNumber ?? ''}`;
      byFn.set(k, (byFn.get(k) ?? 0) + e.dur / 1000);
    }
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((x, y) => y[1] - x[1]).slice(0, n).map(([k, ms]) => `    ${k}: ${ms.toFixed(0)} ms`).join('\n');
  console.log(`  threads:\n${top(perThread, 8)}\n  main-thread events:\n${top(byName, 30)}\n  main-thread functions:\n${top(byFn, 12)}`);
}
let loadTrace: (() => Promise<void>) | undefined;
if (process.env.BENCH_DEBUG) {
  const cdp0 = await ctx.newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp0.on('Tracing.dataCollected', (e: { value: unknown }) => void events.push(...(e.value as TraceEvent[])));
  await cdp0.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline,blink.user_timing', transferMode: 'ReportEvents' });
  loadTrace = async () => {
    const done = new Promise((r) => cdp0.once('Tracing.tracingComplete', r));
    await cdp0.send('Tracing.end');
    await done;
    console.log('first render, login included:');
    breakdown(events);
    // The same between the benchmark's marks: data (requested to received) and drawing (received to rendered).
    const at = (n: string) => events.find((e) => e.name === n)?.ts;
    const [req, rec, ren] = [at('wt-devices-requested'), at('wt-devices-received'), at('wt-devices-rendered')];
    if (req !== undefined && rec !== undefined && ren !== undefined) {
      console.log('data phase:');
      breakdown(events.filter((e) => e.ph === 'M' || (e.ts >= req && e.ts < rec)));
      console.log('drawing phase:');
      breakdown(events.filter((e) => e.ph === 'M' || (e.ts >= rec && e.ts < ren)));
    }
    await cdp0.detach();
  };
}
await login(page, platform.url);
await page.locator('[data-testid="monitor"][data-loaded="1"]').waitFor({ timeout: 120_000 });
// A string, not a function: tsx would wrap named helpers in a function the page lacks.
const render = (await page.evaluate(`(async () => {
  const mark = (n) => performance.getEntriesByName(n)[0]?.startTime;
  for (let i = 0; i < 600 && mark('wt-devices-rendered') === undefined; i++) await new Promise((r) => setTimeout(r, 100));
  return { requested: mark('wt-devices-requested'), received: mark('wt-devices-received'), rendered: mark('wt-devices-rendered') };
})()`)) as { requested: number; received: number; rendered: number };
const firstRender = render.rendered - render.requested;
console.log(`first full render: ${firstRender.toFixed(0)} ms (data ${(render.received - render.requested).toFixed(0)} ms, drawing ${(render.rendered - render.received).toFixed(0)} ms)`);
await loadTrace?.();
if (process.env.BENCH_DEBUG)
  console.log(await page.evaluate(`performance.getEntriesByType('mark').filter((m) => m.name.startsWith('wt-')).map((m) => m.name + ' ' + Math.round(m.startTime)).join('\\n')`));

// 5 000 moves a second, in ten bursts, from a rotating window of devices.
let cursor = 0;
let published = 0;
const perTick = Math.round(MOVING_PER_SECOND / 10);
const injector = setInterval(() => {
  const now = new Date().toISOString();
  for (let i = 0; i < perTick; i++) {
    const d = rows[cursor++ % rows.length]!;
    d.lat += (Math.random() - 0.5) * 0.002;
    d.lon += (Math.random() - 0.5) * 0.002;
    const e: PositionEvent = {
      deviceId: d.id, imei: d.imei, name: d.name, accountId: admin, accountPath: adminPath, protocol: 'watch',
      time: now, receivedAt: now, lat: d.lat, lon: d.lon, valid: true, speed: 4,
    };
    platform.deps.bus.publish(TOPICS.position, e);
    published++;
  }
}, 100);
await new Promise((r) => setTimeout(r, 2000));

// Trace the renderer's main thread while updates stream in.
const cdp = await ctx.newCDPSession(page);
const hub = (platform.app as unknown as { realtime: RealtimeHub }).realtime;

async function traceUpdates(view: string) {
  const events: TraceEvent[] = [];
  const collect = (e: { value: unknown }) => void events.push(...(e.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  const sentBefore = hub.sent;
  const movesBefore = published;
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', collect);
  const batches = hub.sent - sentBefore;
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const onMain = (e: TraceEvent) => !!main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X' && !!e.dur;
  const tasks = events
    .filter((e) => onMain(e) && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'))
    .map((e) => e.dur! / 1000)
    .sort((x, y) => x - y);
  const busy = tasks.reduce((sum, d) => sum + d, 0);
  if (process.env.BENCH_DEBUG) breakdown(events);
  const pct = (p: number) => tasks[Math.min(tasks.length - 1, Math.floor(tasks.length * p))] ?? 0;
  return {
    view,
    batches,
    batchesPerSecond: +(batches / SECONDS).toFixed(1),
    moves: published - movesBefore,
    mainThreadBusyPct: +((busy / (SECONDS * 1000)) * 100).toFixed(1),
    mainThreadMsPerBatch: +(busy / Math.max(1, batches)).toFixed(1),
    taskP50Ms: +pct(0.5).toFixed(2),
    taskP95Ms: +pct(0.95).toFixed(2),
    taskMaxMs: +(tasks[tasks.length - 1] ?? 0).toFixed(1),
    tasksOver16ms: tasks.filter((d) => d > 16).length,
    tasks: tasks.length,
  };
}

const overview = await traceUpdates('whole country, clustered');
console.log(overview);
await page.screenshot({ path: path.join(root, 'e2e/screenshots/bench-map-50k-clusters.png') });
// Zoomed in on one device: single devices drawn, every batch patches the map.
await page.locator('[data-testid="device-list"] .wt-device-row').nth(5).click();
await page.waitForTimeout(3000);
const street = await traceUpdates('street level, single devices');
console.log(street);
clearInterval(injector);
const figures = { devices: rows.length, movingPerSecond: MOVING_PER_SECOND, firstRenderMs: Math.round(firstRender), dataMs: Math.round(render.received - render.requested), drawMs: Math.round(render.rendered - render.received) };
console.log(figures);

await page.screenshot({ path: path.join(root, 'e2e/screenshots/bench-map-50k.png') });
await browser.close();
await platform.close();
rmSync(dataDir, { recursive: true, force: true });

const doc = path.join(root, 'docs/benchmarks.md');
if (process.env.BENCH_DEBUG) process.exit(0);
if (!existsSync(doc)) writeFileSync(doc, '# Benchmarks\n');
const row = (f: Awaited<ReturnType<typeof traceUpdates>>) =>
  `| ${f.view} | ${f.batches} (${f.batchesPerSecond}/s) | ${f.moves} | ${f.mainThreadMsPerBatch} ms | ${f.mainThreadBusyPct} % | ${f.taskP50Ms} / ${f.taskP95Ms} / ${f.taskMaxMs} ms | ${f.tasksOver16ms} of ${f.tasks} |`;
appendFileSync(
  doc,
  `
## Monitor map: ${figures.devices.toLocaleString('en')} devices, ${figures.movingPerSecond.toLocaleString('en')} moving per second (\`npm run bench:map\`)

${new Date().toISOString().slice(0, 10)}, headless Chromium (WebGL on SwiftShader), ${cpus().length} cores shared with the server process.
Targets: first render under 2 s, each update's main-thread work under 16 ms.

First full render (list requested to map idle): **${figures.firstRenderMs} ms** (data ${figures.dataMs} ms, drawing ${figures.drawMs} ms).

Updates, ${SECONDS} s traced per view (main thread of the page):

| view | batches received | moves injected | main-thread ms per batch | busy | task p50 / p95 / max | tasks over 16 ms |
|---|---|---|---|---|---|---|
${row(overview)}
${row(street)}
`,
);
console.log(`appended to ${path.relative(root, doc)}`);
