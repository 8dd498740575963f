// The batch writer alone, without sockets or decoding: 2000 devices' UD positions pushed straight
// into BatchWriter on PostgreSQL, to tell the database's share of the ingest cost from the event
// loop's. `npx tsx server/bench/writer.ts [maxRows]` (BENCH_DATABASE_URL or the local test server).
import pg from 'pg';
import { pino } from 'pino';
import { decodeWatchFrame, buildWatchFrame, watchContent } from '@wt/protocols';
import { openDatabase } from '../src/db/client.js';
import { Metrics } from '../src/pipeline/metrics.js';
import { BatchWriter } from '../src/pipeline/writer.js';

const base = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const maxRows = Number(process.argv[2] ?? 5000);
const name = `wt_wbench_${Date.now()}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
await admin.end();
const url = new URL(base);
url.pathname = `/${name}`;
const db = await openDatabase({ url: url.toString() });
try {
  await db.query(`INSERT INTO accounts (path, login_name, password_hash) VALUES ('/1/', 'bench', 'x')`);
  await db.query(`INSERT INTO devices (imei, short_id, account_id) SELECT '866' || lpad(g::text, 12, '0'), lpad(g::text, 10, '0'), 1 FROM generate_series(1, 2000) g`);
  const ids = await db.query<{ id: number; imei: string }>('SELECT id, imei FROM devices');
  const metrics = new Metrics();
  const writer = new BatchWriter(db, metrics, pino({ level: 'warn' }), { maxRows, maxWaitMs: 20, maxInflight: 2, onCommitted: () => {} });
  const msg = decodeWatchFrame(buildWatchFrame('3G', ids[0]!.imei, watchContent.ud({ fix: { time: new Date(), valid: true, lat: 22.5, lon: 114, speed: 1 } }))).messages[0]!;
  const ROUNDS = 5;
  const PER = 20_000;
  let total = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const t = performance.now();
    const all = [];
    for (let i = 0; i < PER; i++) {
      const r = ids[i % ids.length]!;
      all.push(writer.write([{ ref: { id: r.id, imei: r.imei, name: '', accountId: 1, accountPath: '/1/', protocol: 'watch' }, msg, receivedAt: Date.now(), mode: 'long' }]));
    }
    await Promise.all(all);
    const ms = performance.now() - t;
    if (round > 0) total += ms; // the first round warms the caches
    console.log(`round ${round + 1}: ${PER} positions in ${ms.toFixed(0)} ms`);
  }
  console.log(`writer alone: ${Math.round((PER * (ROUNDS - 1)) / (total / 1000))} positions/s, batches of up to ${maxRows}, mean batch ${(metrics.batchMs / metrics.batches).toFixed(1)} ms`);
  await writer.close();
} finally {
  await db.close();
  const d = new pg.Client({ connectionString: base });
  await d.connect();
  await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await d.end();
}
