// `npm test`: every workspace's tests and the browser tests, after type-checking and linting. Installs what
// is missing (dependencies; Debian's chromium when running as root) and builds the console first.
import { checkNode, ensureChromium, ensureDependencies, ensurePrometheus, ensureWebBuild, log, run } from './lib.mjs';

checkNode();
ensureDependencies();
const chromium = ensureChromium();
const prometheus = ensurePrometheus();
ensureWebBuild();
log('type-checking every workspace');
run('npm', ['run', '-s', 'typecheck']);
log('linting');
run('npx', ['eslint', '.']);
log('running the tests (unit, integration, browser)');
run('npx', ['vitest', 'run', ...process.argv.slice(2)], { env: { ...process.env, CHROMIUM_PATH: chromium, ...(prometheus ? { PROMETHEUS_PATH: prometheus } : {}) } });
