// Browser test harness: a real server process (the same entry point as `npm start`) on free ports
// with a fresh embedded database and the demo tenant, and headless Chromium driven by Playwright.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { copySnapshot } from '../server/test/db-snapshot.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '..');
export const SHOTS = path.join(here, 'screenshots');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  ports: Record<string, number>;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

/** Starts `server/src/main.ts` as its own process and waits until the console answers. */
export async function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-e2e-'));
  // An embedded database starts as a copy of the one the run migrated once (global-setup.ts).
  const snapshot = inject('pgliteSnapshot');
  if (snapshot && !env.DATABASE_URL) copySnapshot(snapshot, dataDir);
  const ports = { PORT: await freePort(), WATCH_PORT: await freePort(), GT06_PORT: await freePort(), OSMAND_PORT: await freePort() };
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: '1',
      SIMULATE: '0',
      LOG_LEVEL: 'warn',
      ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${ports.PORT}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${out}`);
    try {
      const r = await fetch(`${url}/api/docs/json`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start in time:\n${out}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    ports,
    dataDir,
    child,
    output: () => out,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => {
          const t = setTimeout(() => {
            child.kill('SIGKILL');
            r(null);
          }, 15_000);
          child.once('exit', () => {
            clearTimeout(t);
            r(null);
          });
        });
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

export async function newContext(browser: Browser, opts: { locale?: string; width?: number; height?: number; timezoneId?: string } = {}): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: opts.width ?? 1440, height: opts.height ?? 900 },
    locale: opts.locale ?? 'zh-CN',
    ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
  });
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
}

/** Collects page errors so a test can assert the console threw none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // What the server's Content Security Policy blocks breaks a page quietly: it counts as an error.
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) errors.push(m.text());
  });
  return errors;
}

/**
 * The colours of a PNG (a screenshot of a map canvas, say), decoded by the page itself: how many
 * distinct colours it holds (one means a flat fill: nothing drawn) and, per named colour, how many
 * pixels are within `tolerance` of it (sum of the channel differences).
 */
export async function pngColours(
  page: Page,
  png: Buffer,
  wanted: Record<string, readonly [number, number, number]> = {},
  tolerance = 40,
): Promise<{ distinct: number; counts: Record<string, number> }> {
  return page.evaluate(
    async ([b64, near, tol]) => {
      const img = new Image();
      img.src = `data:image/png;base64,${b64}`;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.width;
      c.height = img.height;
      const g = c.getContext('2d')!;
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, c.width, c.height).data;
      const distinct = new Set<number>();
      const counts: Record<string, number> = Object.fromEntries(Object.keys(near).map((k) => [k, 0]));
      for (let i = 0; i < d.length; i += 4) {
        distinct.add((d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!);
        for (const [k, [r, gr, b]] of Object.entries(near))
          if (Math.abs(d[i]! - r) + Math.abs(d[i + 1]! - gr) + Math.abs(d[i + 2]! - b) < tol) counts[k]!++;
      }
      return { distinct: distinct.size, counts };
    },
    [png.toString('base64'), wanted, tolerance] as const,
  );
}
