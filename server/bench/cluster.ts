// Cluster benchmark (docs/scaling.md): the same watch load (bench:ingest's generator: UD frames and
// one LK a second per device) sent through HAProxy to one, then two gateway processes (plus one API
// process for the console), on one PostgreSQL and one Redis, in one run; then the COPY ceiling of
// the same database. Printed: positions committed per second (summed over the gateways' own
// counters, over the window after the warm-up), LK acknowledgement p50/p99, RSS per gateway, the
// ratio of two gateways to one, and the machine's load: every process shares this machine's cores.
//
//   npm run bench:cluster                      # 9 000 devices x 10 UD/s for 30 s (past saturation here)
//   npm run bench:cluster -- --small           # 1 000 devices x 20 UD/s for 15 s
//
// Options: --devices K --rate R --seconds N. BENCH_DATABASE_URL (a fresh database is created and
// dropped) and BENCH_REDIS_URL (default redis://127.0.0.1:6379). Needs HAProxy (installed from
// Debian when missing and run as root) and `ulimit -n` above 2 x devices + 1000 (HAProxy holds two
// descriptors per device; the default fits a hard limit of 20 000 open files).
import { execSync } from 'node:child_process';
import { startCluster } from '../src/cluster/launch.js';
import { benchArgs, copyCeiling, fdLimit, fmt, imeiOf, openMany, percentile, prepareIngestDatabase, rssOf, runWatchLoad, serverMetrics, sleep } from './common.js';

const args = benchArgs();
const SMALL = args.has('small');
const DEVICES = Number(args.get('devices') ?? (SMALL ? 1000 : 9000));
const RATE = Number(args.get('rate') ?? (SMALL ? 20 : 10));
const SECONDS = Number(args.get('seconds') ?? (SMALL ? 15 : 30));
const WARMUP_S = 3;
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';

const load = () => execSync('uptime').toString().trim();

async function main() {
  if (fdLimit() < 2 * DEVICES + 1000) {
    console.error(`ulimit -n is ${fdLimit()}: ${DEVICES} devices through HAProxy need ${2 * DEVICES + 1000}. Run \`ulimit -n ${2 * DEVICES + 1000}\` first.`);
    process.exit(2);
  }
  console.log(`cluster benchmark: ${fmt(DEVICES)} devices x ${RATE} UD/s (+1 LK/s) for ${SECONDS} s through HAProxy, PostgreSQL + Redis`);
  const prep = await prepareIngestDatabase('postgres', DEVICES);
  const results: { gateways: number; rate: number; p50: number; p99: number; rss: number[] }[] = [];
  try {
    for (const gateways of [1, 2]) {
      console.log(`load before ${gateways} gateway(s): ${load()}`);
      const cluster = await startCluster({ gateways, api: 1, workers: 0, databaseUrl: prep.url!, redisUrl: REDIS, maxconn: DEVICES + 200, env: { DEMO: '0', LOG_LEVEL: 'warn' } });
      try {
        const gws = cluster.byRole('gateway');
        const committed = async () => (await Promise.all(gws.map((g) => serverMetrics(`http://127.0.0.1:${g.port}`)))).reduce((n, m) => n + m.positions, 0);
        const sockets = await openMany(cluster.watchPort, DEVICES);
        await sleep(1000);
        // The window: from the end of the warm-up to the end of the load, summed over the gateways.
        let c0 = 0;
        let t0 = 0;
        const mark = setTimeout(() => void committed().then((n) => ((c0 = n), (t0 = performance.now()))), WARMUP_S * 1000);
        const run = await runWatchLoad({
          sockets,
          imeis: sockets.map((_, i) => imeiOf(i)),
          httpUrl: `http://127.0.0.1:${gws[0]!.port}`,
          rate: RATE,
          seconds: SECONDS,
          warmupSeconds: WARMUP_S,
          fixTimeStart: Date.now(),
        });
        clearTimeout(mark);
        const c1 = await committed();
        const rate = (c1 - c0) / ((performance.now() - t0) / 1000);
        const rss = gws.map((g) => rssOf(g.child!.pid!));
        for (const s of sockets) s.destroy();
        const lat = run.latencies;
        results.push({ gateways, rate, p50: percentile(lat, 50), p99: percentile(lat, 99), rss });
        console.log(
          `${gateways} gateway(s): ${fmt(rate)} positions/s committed (offered ${fmt(run.offered)}/s), LK ack p50 ${fmt(percentile(lat, 50), 1)} ms p99 ${fmt(percentile(lat, 99), 1)} ms, gateway RSS ${rss.map((r) => `${fmt(r / 1048576)} MB`).join(' + ')}`,
        );
      } finally {
        await cluster.stop();
      }
    }
    const ceiling = await copyCeiling(prep.url!, 200_000);
    const [one, two] = results;
    console.log(`COPY ceiling ${fmt(ceiling)} rows/s; two gateways / one: ${fmt(two!.rate / one!.rate, 2)} (one = ${fmt((100 * one!.rate) / ceiling)} % of the ceiling, two = ${fmt((100 * two!.rate) / ceiling)} %)`);
    console.log(`load after: ${load()}`);
  } finally {
    await prep.drop();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
