// Ingest benchmark: a real server process (tsx server/src/main.ts) takes watch UD position frames
// from K devices over TCP for N seconds. Printed, from one run:
//   - positions committed per second (the server's own counter, over the steady window)
//   - acknowledgement latency p50/p99 (LK heartbeats interleaved with the UD frames: the watch
//     protocol acknowledges LK, not UD, and an LK is acked after the batch holding it commits)
//   - server RSS per idle connection (10 000 idle connections opened first) and per active one
//   - the ceiling: the same number of position rows written into the same database by plain COPY
//     (PostgreSQL) or multi-row INSERTs (PGlite) from this process, and the ratio to it.
//
//   npm run bench:ingest -- --db postgres --devices 2000 --rate 12 --seconds 20 --idle 10000
//
// Options: --db pglite|postgres (postgres: BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/test,
// a fresh database is created and dropped), --devices K, --rate UD frames per device per second,
// --seconds N, --idle idle connections (needs `ulimit -n` above idle + devices + 100 for both
// processes; the script says so when it is not).
import { benchArgs, copyCeiling, fdLimit, fmt, insertCeilingPglite, imeiOf, openMany, percentile, prepareIngestDatabase, rssOf, runWatchLoad, sleep, startServerProcess } from './common.js';

const args = benchArgs();
const DB = (args.get('db') ?? 'pglite') as 'pglite' | 'postgres';
const DEVICES = Number(args.get('devices') ?? 2000);
const RATE = Number(args.get('rate') ?? 12);
const SECONDS = Number(args.get('seconds') ?? 20);
const IDLE = Number(args.get('idle') ?? 10_000);
const WARMUP_S = Number(args.get('warmup') ?? 3);

async function main() {
  const limit = fdLimit();
  if (limit < IDLE + DEVICES + 200) {
    console.error(`ulimit -n is ${limit}: ${IDLE} idle + ${DEVICES} active connections need more. Run \`ulimit -n ${IDLE + DEVICES + 1000}\` first, or pass --idle ${Math.max(0, limit - DEVICES - 200)}.`);
    process.exit(2);
  }
  console.log(`ingest benchmark: ${DB}, ${DEVICES} devices x ${RATE} UD/s (+1 LK/s) for ${SECONDS} s, ${IDLE} idle connections`);
  const prep = await prepareIngestDatabase(DB, DEVICES);
  const { child, watchPort, httpUrl, stop } = await startServerProcess(prep.env);
  const pid = child.pid!;
  try {
    await sleep(1000);
    const rssBase = rssOf(pid);

    // Idle connections: what a connected but silent device costs the server.
    const idle = await openMany(watchPort, IDLE);
    await sleep(2000);
    const rssIdle = rssOf(pid);
    const perIdle = IDLE ? (rssIdle - rssBase) / IDLE : NaN;

    const active = await openMany(watchPort, DEVICES);
    const run = await runWatchLoad({ sockets: active, imeis: active.map((_, i) => imeiOf(i)), httpUrl, rate: RATE, seconds: SECONDS, warmupSeconds: WARMUP_S, pid });
    const rssLoad = rssOf(pid);
    const { m0, m1, latencies, seconds, positionsPerSecond, offered, unanswered, rssPeak } = run;

    for (const s of [...idle, ...active]) s.destroy();
    await stop();

    // The ceiling: as many rows as the server wrote in the window, by the plainest bulk path.
    const rows = Math.max(50_000, m1.positions - m0.positions);
    const ceiling = DB === 'postgres' ? await copyCeiling(prep.url!, rows) : await insertCeilingPglite(prep.dataDir, rows);

    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    console.log('');
    console.log(`database                  ${DB}`);
    console.log(`offered                   ${fmt(offered)} positions/s (${DEVICES} devices x ${RATE}/s)`);
    console.log(`committed                 ${fmt(positionsPerSecond)} positions/s over ${fmt(seconds, 1)} s`);
    const nb = Math.max(1, m1.batches - m0.batches);
    console.log(`batches                   ${fmt(m1.batches - m0.batches)} (mean ${fmt((m1.committed - m0.committed) / nb)} messages, ${fmt((m1.batchMs - m0.batchMs) / nb, 1)} ms from queue to commit)`);
    console.log(`ack latency (LK)          p50 ${fmt(p50, 1)} ms, p99 ${fmt(p99, 1)} ms (${fmt(latencies.length)} acks, ${unanswered} unanswered at the end)`);
    console.log(`server RSS                base ${fmt(rssBase / 2 ** 20, 1)} MiB, +${fmt(IDLE)} idle ${fmt(rssIdle / 2 ** 20, 1)} MiB, under load ${fmt(rssLoad / 2 ** 20, 1)} MiB (peak ${fmt(rssPeak / 2 ** 20, 1)})`);
    console.log(`RSS per idle connection   ${fmt(perIdle / 1024, 2)} KiB`);
    console.log(`RSS per active connection ${fmt((rssLoad - rssIdle) / DEVICES / 1024, 2)} KiB (queues and batches included)`);
    console.log(`ceiling (${DB === 'postgres' ? 'COPY' : 'multi-row INSERT'})     ${fmt(ceiling)} rows/s for ${fmt(rows)} rows`);
    console.log(`ratio to ceiling          ${fmt((positionsPerSecond / ceiling) * 100, 1)} %`);
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await prep.drop();
  }
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
