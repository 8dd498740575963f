// Base-map benchmark (`npm run bench:map -- land`): opens the monitor in a fresh headless Chromium
// (empty cache each run) and prints the time from the shell's first paint (`wt-shell`) to the first
// frame of the map with the land drawn (`wt-map-land`), per run and as p50/p95, with what the page
// fetched before the land was there. Against a running platform (BENCH_URL, logging in as
// BENCH_USER / BENCH_PASSWORD, by default the demo administrator), or a demo platform of its own.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { root } from '../harness.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const USER = process.env.BENCH_USER ?? 'admin';
const PASSWORD = process.env.BENCH_PASSWORD ?? 'admin123';

let url = process.env.BENCH_URL?.replace(/\/$/, '');
let stop: (() => Promise<void>) | null = null;
if (!url) {
  if (!existsSync(path.join(root, 'web/dist/index.html'))) execSync('npm run build -w @wt/web', { cwd: root, stdio: 'inherit' });
  const { loadConfig } = await import('../../server/src/config.js');
  const { startPlatform } = await import('../../server/src/platform.js');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-land-'));
  const platform = await startPlatform(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DEMO: '1', SIMULATE: '0', WATCH_PORT: '0', GT06_PORT: '0', OSMAND_PORT: '0', LOG_LEVEL: 'warn' }),
  );
  url = platform.url;
  stop = async () => {
    await platform.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

async function loginTokens() {
  const r = await fetch(`${url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: USER, Password: PASSWORD }) });
  const body = (await r.json()) as { State: number; AccessToken: string; refreshToken: string; Item: { UserId: number; LoginName: string } };
  if (body.State !== 0) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return body;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
};

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist', '--no-first-run', '--disable-background-networking', '--disable-dev-shm-usage'],
});

const gaps: number[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const tokens = await loginTokens();
    // A new context is a fresh profile: nothing cached from the run before.
    const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'zh-CN' });
    await ctx.addInitScript((t) => {
      if (sessionStorage.getItem('wt.token')) return;
      sessionStorage.setItem('wt.token', t.AccessToken);
      sessionStorage.setItem('wt.refreshToken', t.refreshToken);
      sessionStorage.setItem('wt.userId', String(t.Item.UserId));
      sessionStorage.setItem('wt.loginName', t.Item.LoginName);
    }, tokens);
    const page = await ctx.newPage();
    await page.goto(`${url}/`);
    await page.waitForFunction(() => performance.getEntriesByName('wt-map-land').length > 0 && performance.getEntriesByName('wt-shell').length > 0, null, {
      timeout: 60_000,
    });
    // A string, not a function: tsx would wrap the named helpers in a function the page does not have.
    const m = (await page.evaluate(`(() => {
      const at = (n) => performance.getEntriesByName(n)[0].startTime;
      const land = at('wt-map-land');
      const before = performance.getEntriesByType('resource')
        .filter((r) => r.startTime < land)
        .map((r) => ({ name: new URL(r.name).pathname, kb: Math.round(r.encodedBodySize / 1024), start: Math.round(r.startTime), end: Math.round(r.responseEnd) }))
        .sort((a, b) => b.kb - a.kb);
      const marks = performance.getEntriesByType('mark').filter((e) => e.name.startsWith('wt-')).map((e) => e.name + ' ' + Math.round(e.startTime));
      return { shell: at('wt-shell'), land, before, marks };
    })()`)) as { marks: string[]; shell: number; land: number; before: { name: string; kb: number; start: number; end: number }[] };
    const gap = m.land - m.shell;
    gaps.push(gap);
    console.log(`run ${run}: shell ${m.shell.toFixed(0)} ms, land ${m.land.toFixed(0)} ms after navigation: ${gap.toFixed(0)} ms from shell to land`);
    if (run === 1 || process.env.BENCH_DEBUG) {
      const total = m.before.reduce((s, r) => s + r.kb, 0);
      console.log(`  fetched before the land: ${m.before.length} files, ${total} KB; the largest:`);
      for (const r of m.before.slice(0, 8)) console.log(`    ${String(r.kb).padStart(5)} KB  ${r.start}-${r.end} ms  ${r.name}`);
      console.log(`  marks: ${m.marks.join(', ')}`);
    }
    await ctx.close();
  }
  console.log(`shell to first land paint over ${RUNS} runs: p50 ${quantile(gaps, 0.5).toFixed(0)} ms, p95 ${quantile(gaps, 0.95).toFixed(0)} ms, max ${Math.max(...gaps).toFixed(0)} ms`);
} finally {
  await browser.close();
  await stop?.();
}
