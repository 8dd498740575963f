// A message to 10 000 watches by role: a fresh PostgreSQL database with the demo tenant and N
// devices of one role (COPY), some of them connected as watches over TCP. Timed over HTTP in this
// process: the send call's answer (/Command/sendMessageByRoles: checks, the send row and one
// command per device written in one statement), then how long until every connected watch has
// its message on the wire, with the event loop's delay meanwhile (what the gateway's devices feel).
// Also printed: the load average and the machine's COPY ceiling.
//
//   npm run bench:messages -- [--devices 10000] [--online 1000] [--sends 3]
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): a database is created in
// it and dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import pg from 'pg';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { loadConfig } from '../src/config.js';
import { startPlatform } from '../src/platform.js';
import { benchArgs, copyCeiling, copyLines, createPostgresDatabase, fmt, openMany, percentile, sleep } from './common.js';

const args = benchArgs();
const DEVICES = Number(args.get('devices') ?? 10_000);
const ONLINE = Math.min(DEVICES, Number(args.get('online') ?? 1000));
const SENDS = Number(args.get('sends') ?? 3);

async function main() {
  const db = await createPostgresDatabase('wt_bench_messages');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-messages-'));
  const platform = await startPlatform(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', WATCH_PORT: '0', GT06_PORT: 'off', OSMAND_PORT: 'off', LOG_LEVEL: 'warn', DATA_DIR: dataDir, DEMO: '1', SIMULATE: '0', DATABASE_URL: db.url }),
  );
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const sockets: import('node:net').Socket[] = [];
  try {
    console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    const [admin] = (await client.query<{ id: number }>(`SELECT id FROM accounts WHERE login_name = 'admin'`)).rows;
    const [role] = (await client.query<{ id: number }>(`INSERT INTO device_roles (account_id, name, color) VALUES ($1, 'Bench ward', 'blue') RETURNING id`, [admin!.id])).rows;
    const imeis = Array.from({ length: DEVICES }, (_, i) => `867${String(i + 1).padStart(12, '0')}`);
    const t0 = performance.now();
    await copyLines(client, 'COPY devices (imei, short_id, name, protocol, account_id, role_id) FROM STDIN', imeis.map((m) => `${m}\t${m.slice(-10)}\tWatch ${m.slice(-5)}\twatch\t${admin!.id}\t${role!.id}\n`));
    await client.query('VACUUM ANALYZE devices');
    console.log(`devices: ${fmt(DEVICES)} of one role written with COPY in ${fmt((performance.now() - t0) / 1000, 2)} s`);

    // Connected watches: an LK each, answered once the gateway knows them.
    const port = platform.deps.ingest.ports.watch!;
    sockets.push(...(await openMany(port, ONLINE)));
    const got = new Map<import('node:net').Socket, string>();
    let delivered = 0;
    for (const [i, s] of sockets.entries()) {
      got.set(s, '');
      s.on('data', (d) => {
        const text = got.get(s)! + d.toString('latin1');
        const hits = text.split('*MESSAGE,').length - 1;
        delivered += hits;
        got.set(s, hits ? text.slice(text.lastIndexOf('*MESSAGE,') + 9) : text.slice(-64));
      });
      s.write(buildWatchFrame('3G', imeis[i]!, watchContent.lk()));
    }
    for (const end = Date.now() + 120_000; platform.deps.ingest.sessions.size < ONLINE; await sleep(100)) {
      if (Date.now() > end) throw new Error(`only ${platform.deps.ingest.sessions.size} watches identified`);
    }
    console.log(`connected: ${fmt(ONLINE)} watches`);

    const login = await fetch(`${platform.url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: 'admin', Password: 'admin123' }) });
    const token = ((await login.json()) as { AccessToken: string }).AccessToken;
    const accepted: number[] = [];
    const onWire: number[] = [];
    const lags: number[] = [];
    for (let n = 0; n < SENDS; n++) {
      const before = delivered;
      const lag = monitorEventLoopDelay({ resolution: 10 });
      lag.enable();
      const s = performance.now();
      const r = await fetch(`${platform.url}/api/Command/sendMessageByRoles`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ Name: `Bench ${n + 1}`, Content: `Bench message ${n + 1}`, RoleIds: [role!.id] }),
      });
      const body = (await r.json()) as { State: number; Total: number };
      const ms = performance.now() - s;
      if (body.State !== 200 || body.Total !== DEVICES) throw new Error(`send: ${JSON.stringify(body)}`);
      accepted.push(ms);
      for (const end = Date.now() + 300_000; delivered - before < ONLINE; await sleep(20)) {
        if (Date.now() > end) throw new Error(`only ${delivered - before} of ${ONLINE} messages reached the watches`);
      }
      onWire.push(performance.now() - s);
      lag.disable();
      lags.push(lag.max / 1e6);
      console.log(`send ${n + 1}: accepted in ${fmt(ms)} ms (${fmt(DEVICES)} commands written), ${fmt(ONLINE)} connected watches had it after ${fmt(onWire.at(-1)!)} ms; event loop delay p99 ${fmt(lag.percentile(99) / 1e6, 1)} ms, max ${fmt(lag.max / 1e6, 1)} ms`);
    }
    const sorted = [...accepted].sort((a, b) => a - b);
    console.log(`send accepted: median ${fmt(percentile(sorted, 50))} ms, worst ${fmt(sorted.at(-1)!)} ms for ${fmt(DEVICES)} devices; queued for the ${fmt(DEVICES - ONLINE)} offline ones`);
    const ceiling = await copyCeiling(db.url, 200_000);
    console.log(`COPY ceiling: ${fmt(ceiling)} rows/s; load average now ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    for (const s of sockets) s.destroy();
    await client.end();
    await platform.close();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
