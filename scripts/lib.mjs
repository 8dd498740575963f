// Shared by `npm start` and `npm test`: make a fresh clone runnable with nothing but Node.js and
// npm: install dependencies when missing or stale, build the console when its sources changed.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export function log(msg) {
  console.log(`\x1b[36m▸ ${msg}\x1b[0m`);
}

export function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...opts });
  if (r.status !== 0) {
    console.error(`\n${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
    process.exit(r.status || 1);
  }
}

export function checkNode() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major < 20 || (major === 20 && minor < 19)) {
    console.error(`Node.js 20.19 or newer is needed (this is ${process.versions.node}).`);
    process.exit(1);
  }
}

function newest(dir, skip = new Set(['node_modules', 'dist', 'test'])) {
  let t = 0;
  if (!existsSync(dir)) return t;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (skip.has(e.name)) continue;
    const p = path.join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p, skip) : statSync(p).mtimeMs);
  }
  return t;
}

export function ensureDependencies() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (!existsSync(marker) || statSync(lock).mtimeMs > statSync(marker).mtimeMs) {
    log('installing dependencies (npm ci)');
    run(npm, ['ci', '--no-audit', '--no-fund']);
  }
}

export function ensureWebBuild({ force = false } = {}) {
  const index = path.join(root, 'web', 'dist', 'index.html');
  const sources = Math.max(newest(path.join(root, 'web')), newest(path.join(root, 'contract', 'src')));
  if (force || !existsSync(index) || statSync(index).mtimeMs < sources) {
    log('building the console (vite build)');
    run(npm, ['run', 'build', '-w', '@wt/web']);
  }
}

/** Debian's chromium for the browser tests; installed when missing and we are root. */
export function ensureChromium() {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean);
  const found = candidates.find((c) => existsSync(c));
  // Without a CJK font the Chinese console renders as empty boxes in screenshots.
  const missing = [...(found ? [] : ['chromium']), ...(hasFonts() ? [] : ['fonts-wqy-microhei'])];
  if (missing.length === 0) return found;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`The browser tests need: ${missing.join(', ')}. Install them, e.g. \`sudo apt-get install -y ${missing.join(' ')}\`.`);
    process.exit(1);
  }
  log(`installing Debian ${missing.join(' and ')} for the browser tests`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  return found ?? '/usr/bin/chromium';
}

/**
 * Debian's Prometheus for the test that scrapes a running platform with it. Installed when running as
 * root; otherwise, or when the install fails, that test is skipped and says why.
 */
export function ensurePrometheus() {
  const binary = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
  if (existsSync(binary)) return binary;
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error('Prometheus is not installed (Debian package prometheus): its scrape test will be skipped.');
    return undefined;
  }
  log('installing Debian prometheus for the metrics scrape test');
  try {
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'prometheus'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  } catch {
    console.error('Installing prometheus failed: its scrape test will be skipped.');
  }
  return existsSync(binary) ? binary : undefined;
}

export function hasFonts() {
  try {
    return execFileSync('fc-list', [':lang=zh'], { encoding: 'utf8' }).trim().length > 0;
  } catch {
    return false;
  }
}
