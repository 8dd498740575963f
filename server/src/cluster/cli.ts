// `npm run cluster -- --gateways 2 --api 1 --workers 1`: HAProxy and the processes of a cluster on
// this machine, on DATABASE_URL and REDIS_URL (docs/scaling.md "Several processes"). Ctrl-C stops all.
import { parseArgs } from 'node:util';
import { startCluster } from './launch.js';

const { values } = parseArgs({
  options: {
    gateways: { type: 'string', default: '2' },
    api: { type: 'string', default: '1' },
    workers: { type: 'string', default: '1' },
    'http-port': { type: 'string', default: '8080' },
    'watch-port': { type: 'string', default: '5093' },
    'gt06-port': { type: 'string', default: '5023' },
  },
});
const count = (name: string, v: string, min: number) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > 32) {
    console.error(`--${name} must be a whole number from ${min} to 32`);
    process.exit(2);
  }
  return n;
};
const port = (name: string, v: string) => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    console.error(`--${name} must be a port number (0: a free one)`);
    process.exit(2);
  }
  return n || undefined;
};
const databaseUrl = process.env.DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
if (!databaseUrl || !redisUrl) {
  console.error('A cluster needs a PostgreSQL and a Redis: set DATABASE_URL and REDIS_URL.');
  process.exit(2);
}
const cluster = await startCluster({
  gateways: count('gateways', values.gateways, 1),
  api: count('api', values.api, 1),
  workers: count('workers', values.workers, 0),
  databaseUrl,
  redisUrl,
  httpPort: port('http-port', values['http-port']),
  watchPort: port('watch-port', values['watch-port']),
  gt06Port: port('gt06-port', values['gt06-port']),
  output: 'inherit',
});
console.log(`\ncluster up: console ${cluster.http}, watch port ${cluster.watchPort}, GT06 port ${cluster.gt06Port}`);
for (const p of cluster.processes) console.log(`  ${p.name.padEnd(10)} pid ${p.child?.pid}  http 127.0.0.1:${p.port}${p.watchPort ? `  watch ${p.watchPort}  gt06 ${p.gt06Port}` : ''}`);
let stopping = false;
for (const s of ['SIGINT', 'SIGTERM'] as const)
  process.on(s, () => {
    if (stopping) return;
    stopping = true;
    console.log('stopping the cluster');
    void cluster.stop().then(() => process.exit(0));
  });
