// Inner map benchmark: the built console in headless Chromium on the live inner map with 2 000 tags
// indoors on the floor shown, all of them moving every second. The scene calls are answered by the
// benchmark (a scene, its floors, a plan image and the 2 000 tags' snapshot) and the realtime socket
// is served by it too (Playwright's WebSocket routing), so the page receives device batches shaped
// as the hub sends them (merged every 300 ms) without depending on the positioning engine.
// Prints, per update batch: the main-thread time of handling the message (parse, the monitor's and
// the indoor store's apply), the time of each animation frame's callbacks (the tag canvas drawing
// the glides), and from a Chrome trace the page's main-thread busy time per batch and its task
// durations (p50 / p95 / max).
import { execSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type WebSocketRoute } from 'playwright-core';
import type { LiveDevice, RealtimeMessage } from '../../contract/src/realtime.js';
import { loadConfig } from '../../server/src/config.js';
import { startPlatform } from '../../server/src/platform.js';
import { newContext, root } from '../harness.js';
import { login } from '../console.js';

const TAGS = Number(process.env.BENCH_TAGS ?? 2_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** The hub merges changes and flushes every 300 ms (server/src/realtime/hub.ts FLUSH_MS). */
const FLUSH_MS = 300;
/** Plan: 1000 × 800 px at 5 cm a pixel, i.e. 50 m × 40 m. */
const PLAN = { width: 1000, height: 800, mpp: 0.05 };
const SCENE_ID = 900;
const FLOORS = [901, 902];

// The console is built once; a build without the inner map (an older one) is built again.
const dist = path.join(root, 'web/dist');
const built = () => {
  const assets = path.join(dist, 'assets');
  return existsSync(assets) && readdirSync(assets).some((f) => f.endsWith('.js') && readFileSync(path.join(assets, f), 'utf8').includes('inner-plan'));
};
if (!built()) execSync('npm run build -w @wt/web', { cwd: root, stdio: 'inherit' });

const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-inner-'));
const platform = await startPlatform(
  loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', SIMULATE: '0', WATCH_PORT: '0', GT06_PORT: '0', OSMAND_PORT: '0', LOG_LEVEL: 'warn' }),
);

// The tags: a random walk inside the plan, 1.2 m a second at most.
const tags = Array.from({ length: TAGS }, (_, k) => ({
  id: 1_000_000 + k,
  imei: String(868000000000000 + k),
  name: `Tag ${k + 1}`,
  x: 2 + Math.random() * 46,
  y: 2 + Math.random() * 36,
}));
const now = () => new Date().toISOString();
const scene = {
  SceneId: SCENE_ID, UserId: 1, OwnerLoginName: 'admin', Name: 'Bench care home', Lat: 22.54, Lon: 114.06, Address: 'Shenzhen',
  Enabled: true, BeaconType: 2, Method: 1, MapUrl: null, IconUrl: null, FloorCount: FLOORS.length, AnchorCount: 40, CreatedAt: now(),
};
const floors = FLOORS.map((FloorId, k) => ({
  FloorId, SceneId: SCENE_ID, FloorNo: k + 1, Name: `${k + 1}F`, Description: '', Type: 1, PlanUrl: '/bench/plan.svg',
  Width: PLAN.width, Height: PLAN.height, MetresPerPixel: PLAN.mpp, Geo: null, Exponent: 2, AnchorCount: 20,
}));
const anchors = Array.from({ length: 40 }, (_, k) => ({
  BeaconId: 5000 + k, SceneId: SCENE_ID, FloorId: FLOORS[k % 2]!, Name: `Anchor ${k + 1}`, Mac: 'AA:BB:CC:DD:EE:FF', Code: '12345678901234',
  Major: 1, Minor: k, Type: (k % 3) + 1, State: 1, X: 5 + (k % 5) * 10, Y: 5 + Math.floor(k / 10) * 10, Height: 2.5, Heading: k * 30, Rssi1m: -59, CreatedAt: now(),
}));
const rooms = Array.from({ length: 20 }, (_, k) => `<rect x="${(k % 5) * 200 + 10}" y="${Math.floor(k / 5) * 200 + 10}" width="180" height="180" fill="#fafafa" stroke="#888" stroke-width="3"/>`).join('');
const planSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="${PLAN.width}" height="${PLAN.height}"><rect width="100%" height="100%" fill="#fff"/>${rooms}</svg>`;
const answers: Record<string, () => unknown> = {
  '/api/Scene/SceneInfoListByMonitor': () => ({ State: 200, Items: [{ ...scene, Floors: floors }] }),
  '/api/Scene/sceneInfoByMonitor': () => ({ State: 200, Item: { ...scene, Floors: floors, Anchors: anchors } }),
  '/api/Scene/sceneInfoByMonitorForServer': () => ({
    State: 200,
    Items: tags.map((t) => ({
      DeviceId: t.id, Imei: t.imei, Name: t.name, FloorId: FLOORS[0], X: t.x, Y: t.y, Accuracy: 1.5, Method: 'uwb',
      Lat: null, Lon: null, Time: now(), Online: true, Battery: 80, Sos: false,
    })),
  }),
};

// The tags are a 2D canvas: Chromium's default headless compositing. (Forcing WebGL through
// SwiftShader, as the monitor map's benchmark does, leaves animation frames at a few a second on a
// busy two-core machine, so the glides would not be measured.)
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--no-first-run', '--disable-background-networking', '--disable-dev-shm-usage'],
});
const ctx = await newContext(browser, { locale: 'zh-CN', width: 1600, height: 900 });
const page = await ctx.newPage();
if (process.env.BENCH_DEBUG) {
  page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && console.log(`console: ${m.text()}`));
}
await page.route('**/bench/plan.svg', (r) => r.fulfill({ contentType: 'image/svg+xml', body: planSvg }));
await page.route('**/api/Scene/*', (r) => {
  const answer = answers[new URL(r.request().url()).pathname];
  return answer ? r.fulfill({ contentType: 'application/json', body: JSON.stringify(answer()) }) : r.continue();
});
// The realtime socket: the registration is answered, then the benchmark sends the batches.
let socket: WebSocketRoute | null = null;
await page.routeWebSocket('**/api/realtime*', (ws) => {
  ws.onMessage(() => {
    socket = ws;
    ws.send(JSON.stringify({ type: 'registered', userId: 1 } satisfies RealtimeMessage));
  });
});
// Timing in the page, around the socket's message handler and each animation frame's callbacks.
await page.addInitScript(() => {
  const stats = { batch: [] as number[], frame: [] as number[] };
  (window as unknown as { __benchInner: typeof stats }).__benchInner = stats;
  // Playwright's socket routing puts its own WebSocket class in the page: the property is found
  // wherever it is defined along the prototype chain.
  let proto: object | null = WebSocket.prototype;
  while (proto && !Object.getOwnPropertyDescriptor(proto, 'onmessage')) proto = Object.getPrototypeOf(proto) as object | null;
  const desc = Object.getOwnPropertyDescriptor(proto!, 'onmessage')!;
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    configurable: true,
    get() {
      return desc.get!.call(this);
    },
    set(fn: ((ev: MessageEvent) => unknown) | null) {
      desc.set!.call(
        this,
        fn &&
          function (this: WebSocket, ev: MessageEvent) {
            const t0 = performance.now();
            const r = fn.call(this, ev);
            if (typeof ev.data === 'string' && ev.data.startsWith('{"type":"devices"')) stats.batch.push(performance.now() - t0);
            return r;
          },
      );
    },
  });
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) =>
    raf((ts) => {
      const t0 = performance.now();
      cb(ts);
      stats.frame.push(performance.now() - t0);
    });
});

await login(page, platform.url);
// Loaded on its own (the session survives): the monitor map the login lands on is not kept alive
// behind it, so only the inner map's work is measured.
await page.goto(`${platform.url}/position/innerMap`);
await page.locator('[data-testid="inner-map"][data-seeded="1"]').waitFor({ timeout: 60_000 });
for (let i = 0; i < 100 && !socket; i++) await page.waitForTimeout(100);
if (!socket) throw new Error('the console did not open the realtime socket');
console.log(`${TAGS} tags indoors on the floor shown`);
if (process.env.BENCH_DEBUG) {
  const rafs = await page.evaluate(`new Promise((r) => { let n = 0; const t0 = performance.now(); const f = () => (performance.now() - t0 < 1000 ? (n++, requestAnimationFrame(f)) : r(n)); requestAnimationFrame(f); })`);
  console.log(`animation frames in a second, idle: ${rafs}; visibility ${await page.evaluate('document.visibilityState')}`);
}

/** One batch: `count` tags (rotating) moved, as the hub merges them. */
let cursor = 0;
let sent = 0;
function batch(count: number): string {
  const devices: LiveDevice[] = [];
  const t = Date.now();
  for (let k = 0; k < count; k++) {
    const tag = tags[cursor++ % tags.length]!;
    tag.x = Math.min(49, Math.max(1, tag.x + (Math.random() - 0.5) * 2.4));
    tag.y = Math.min(39, Math.max(1, tag.y + (Math.random() - 0.5) * 2.4));
    devices.push({ i: tag.id, t, ls: t, on: true, in: { sc: SCENE_ID, f: FLOORS[0]!, x: +tag.x.toFixed(2), y: +tag.y.toFixed(2), a: 1.5, mt: 'uwb' } });
  }
  sent++;
  return JSON.stringify({ type: 'devices', devices } satisfies RealtimeMessage);
}

type TraceEvent = { name: string; ph: string; dur?: number; ts: number; tid: number; pid: number; args?: { name?: string; data?: { functionName?: string; url?: string; lineNumber?: number } } };
/** Debug: the page's main-thread events and functions taking the most time. */
function breakdown(events: TraceEvent[], main: TraceEvent | undefined) {
  const byName = new Map<string, number>();
  const byFn = new Map<string, number>();
  for (const e of events) {
    if (!main || e.tid !== main.tid || e.pid !== main.pid || e.ph !== 'X' || !e.dur) continue;
    byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur / 1000);
    const d = e.args?.data;
    if (e.name === 'FunctionCall' && d) {
      const k = `${d.functionName || '(anonymous)'} ${String(d.url ?? '').split('/').pop()}:${d.lineNumber ?? ''}`;
      byFn.set(k, (byFn.get(k) ?? 0) + e.dur / 1000);
    }
  }
  const top = (m: Map<string, number>, n: number) => [...m].sort((x, y) => y[1] - x[1]).slice(0, n).map(([k, ms]) => `    ${k}: ${ms.toFixed(0)} ms`).join('\n');
  console.log(`  main-thread events:\n${top(byName, 15)}\n  main-thread functions:\n${top(byFn, 12)}`);
}
const cdp = await ctx.newCDPSession(page);
const pct = (v: number[], p: number) => {
  const s = [...v].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))]! : 0;
};
const stats = (v: number[]) => ({ n: v.length, p50: +pct(v, 0.5).toFixed(2), p95: +pct(v, 0.95).toFixed(2), max: +Math.max(0, ...v).toFixed(2) });

/** Streams batches of `perBatch` tags every FLUSH_MS for SECONDS while tracing the page's main thread. */
async function run(view: string, perBatch: number) {
  await page.evaluate(`(() => { const s = window.__benchInner; s.batch.length = 0; s.frame.length = 0; })()`);
  const events: TraceEvent[] = [];
  const collect = (e: { value: unknown }) => void events.push(...(e.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', { categories: 'devtools.timeline,disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  const before = sent;
  const timer = setInterval(() => socket!.send(batch(perBatch)), FLUSH_MS);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  clearInterval(timer);
  // The last glides end.
  await page.waitForTimeout(1200);
  const done = new Promise((r) => cdp.once('Tracing.tracingComplete', r));
  await cdp.send('Tracing.end');
  await done;
  cdp.off('Tracing.dataCollected', collect);
  const inPage = (await page.evaluate(`(() => ({ batch: [...window.__benchInner.batch], frame: [...window.__benchInner.frame] }))()`)) as { batch: number[]; frame: number[] };
  const main = events.find((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const tasks = events
    .filter((e) => !!main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X' && !!e.dur && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask'))
    .map((e) => e.dur! / 1000);
  const busy = tasks.reduce((s, d) => s + d, 0);
  // Commit: the main thread blocked until the compositor thread takes the frame. On a loaded
  // machine that wait is most of the busy time, and it is not the page's work: shown apart.
  const commit = events
    .filter((e) => !!main && e.tid === main.tid && e.pid === main.pid && e.ph === 'X' && !!e.dur && e.name === 'Commit')
    .reduce((s, e) => s + e.dur! / 1000, 0);
  if (process.env.BENCH_DEBUG) breakdown(events, main);
  const batches = sent - before;
  return {
    view,
    batches,
    tagsPerBatch: perBatch,
    handleMs: stats(inPage.batch),
    frameMs: stats(inPage.frame),
    mainThreadMsPerBatch: +(busy / Math.max(1, batches)).toFixed(1),
    commitWaitMsPerBatch: +(commit / Math.max(1, batches)).toFixed(1),
    mainThreadBusyPct: +((busy / ((SECONDS + 1.2) * 1000)) * 100).toFixed(1),
    taskMs: stats(tasks),
    tasksOver16ms: tasks.filter((d) => d > 16).length,
  };
}

const perSecond = Math.round((TAGS * FLUSH_MS) / 1000);
const results = [await run(`every tag moving once a second (${perSecond} per batch)`, perSecond)];
results.push(await run(`every tag in every batch (${TAGS} per batch)`, TAGS));
await page.locator('[data-testid="toggle-labels"]').click();
await page.locator('[data-testid="toggle-accuracy"]').click();
results.push(await run(`names and accuracy circles shown, ${perSecond} per batch`, perSecond));
for (const r of results) console.log(JSON.stringify(r));
await page.screenshot({ path: path.join(root, 'e2e/screenshots/bench-inner-map.png') });

console.log(`\n${new Date().toISOString().slice(0, 10)}, headless Chromium, ${cpus().length} cores shared with the server process; ${TAGS} tags, one batch every ${FLUSH_MS} ms for ${SECONDS} s per row.`);
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log('| view | batches | handling a batch p50 / p95 / max | frame callbacks p50 / p95 / max | main thread per batch (of which waiting for the compositor) | tasks p50 / p95 / max | tasks over 16 ms |');
console.log('|---|---|---|---|---|---|---|');
for (const r of results)
  console.log(`| ${r.view} | ${r.batches} | ${r.handleMs.p50} / ${r.handleMs.p95} / ${r.handleMs.max} ms | ${r.frameMs.p50} / ${r.frameMs.p95} / ${r.frameMs.max} ms | ${r.mainThreadMsPerBatch} ms (${r.commitWaitMsPerBatch} ms) | ${r.taskMs.p50} / ${r.taskMs.p95} / ${r.taskMs.max} ms | ${r.tasksOver16ms} of ${r.taskMs.n} |`);

await browser.close();
await platform.close();
rmSync(dataDir, { recursive: true, force: true });
