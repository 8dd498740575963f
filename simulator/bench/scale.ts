// Load check: N watches (default 5000) against a bare gateway in another process, printing the
// simulator's own CPU use and the stats. `npx tsx simulator/bench/scale.ts [devices] [seconds]`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSimulator } from '../src/index.js';

const devices = Number(process.argv[2] ?? 5000);
const seconds = Number(process.argv[3] ?? 30);
const child = spawn(
  process.execPath,
  ['--import', 'tsx', fileURLToPath(new URL('./watch-server.ts', import.meta.url))],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
const port = await new Promise<number>((resolve) =>
  child.stdout.once('data', (d: Buffer) => resolve(Number(d.toString().trim()))),
);

const sim = await startSimulator({
  devices,
  protocol: 'watch',
  ports: { watch: port },
  interval: 10,
  seed: 1,
});
const cpu0 = process.cpuUsage();
const t0 = Date.now();
let lastCpu = process.cpuUsage();
let lastAt = Date.now();
const timer = setInterval(() => {
  const c = process.cpuUsage(lastCpu);
  const now = Date.now();
  const pct = ((c.user + c.system) / 1000 / (now - lastAt)) * 100;
  lastCpu = process.cpuUsage();
  lastAt = now;
  const s = sim.stats();
  console.log(
    `t+${Math.round((now - t0) / 1000)}s online ${s.online}/${s.devices} sent ${s.sent} acked ${s.acked} timeouts ${s.ackTimeouts}` +
      ` p95 ${s.ackLatencyMs.p95} ms cpu ${pct.toFixed(0)}% rss ${Math.round(process.memoryUsage().rss / 1e6)} MB`,
  );
}, 5000);
await new Promise((r) => setTimeout(r, seconds * 1000));
clearInterval(timer);
const total = process.cpuUsage(cpu0);
console.log(
  `simulator CPU over the run: ${(((total.user + total.system) / 1000 / (Date.now() - t0)) * 100).toFixed(1)}% of one core`,
);
await sim.stop();
child.kill();
