// Account administration on a big tree: a fresh PostgreSQL database with the demo tenant, below its
// administrator 10 000 accounts 6 levels deep (five branches of 2 000) and 100 000 devices (10 per
// account), written with COPY. Then, as the console makes them, timed over HTTP in this process
// (so an upper bound of the server's time):
//   - opening a tree node (/user/allChildrenUsers) of random accounts,
//   - searching an account (/user/searchAccountByName) by login name, company or contact,
//   - loading the table of children (/user/childrenUsers) of random accounts, the root's included,
//   - moving a branch of 2 000 accounts and 20 000 devices under another one (/user/moveAccount),
// and afterwards checks that the devices' scope is right in the database, in the device list and
// in the gateway's device cache. Also printed: the machine's COPY ceiling (rows/s of a plain COPY
// of position rows, as bench:ingest measures it).
//
//   npm run bench:accounts -- [--samples 300]
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres): a database is created
// in it and dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import os from 'node:os';
import pg from 'pg';
import { copyLines, startDemoPlatform } from './common.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]!;
  if (a.startsWith('--')) args.set(a.slice(2), process.argv[i + 1] && !process.argv[i + 1]!.startsWith('--') ? process.argv[++i]! : '1');
}
const SAMPLES = Number(args.get('samples') ?? 300);
const BRANCHES = 5;
const BRANCH_SIZE = 2000;
const DEVICES_PER_ACCOUNT = 10;
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

interface Acc {
  id: number;
  parent: number;
  path: string;
  level: number;
}

/** One branch of exactly BRANCH_SIZE accounts, 6 levels: 1, 4, 20, 100, 400, then 1 475 leaves. */
function branch(root: Acc, nextId: () => number): Acc[] {
  const out: Acc[] = [root];
  let level = [root];
  for (const fan of [4, 5, 5, 4]) {
    const next: Acc[] = [];
    for (const p of level) for (let i = 0; i < fan; i++) next.push(child(p, nextId()));
    out.push(...next);
    level = next;
  }
  const leaves = BRANCH_SIZE - out.length;
  level.forEach((p, i) => {
    const n = Math.floor(((i + 1) * leaves) / level.length) - Math.floor((i * leaves) / level.length);
    for (let k = 0; k < n; k++) out.push(child(p, nextId()));
  });
  return out;
}
const child = (p: Acc, id: number): Acc => ({ id, parent: p.id, path: `${p.path}${id}/`, level: p.level + 1 });

async function main() {
  const base = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = `wt_bench_accounts_${Date.now()}`;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(base.toString());
  u.pathname = `/${name}`;
  const dbUrl = u.toString();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-accounts-'));
  const platform = await startDemoPlatform(dataDir, dbUrl);
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    console.log(`machine: ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
    // ---- the tree ----
    const [root] = (await client.query<{ id: number; path: string }>(`SELECT id, path FROM accounts WHERE login_name = 'admin'`)).rows;
    let id = Number((await client.query<{ m: number }>('SELECT max(id)::int AS m FROM accounts')).rows[0]!.m) + 1000;
    const nextId = () => id++;
    const all: Acc[] = [];
    for (let b = 0; b < BRANCHES; b++) all.push(...branch(child({ id: root!.id, parent: 0, path: root!.path, level: 0 }, nextId()), nextId));
    const hash = (await client.query<{ h: string }>(`SELECT password_hash AS h FROM accounts WHERE login_name = 'admin'`)).rows[0]!.h;
    const kinds = ['agent', 'operator', 'user', 'user', 'user', 'user', 'user'];
    const t0 = performance.now();
    await client.query('BEGIN');
    await copyLines(
      client,
      'COPY accounts (id, parent_id, path, login_name, password_hash, kind, user_type, username, company_name, contact) FROM STDIN',
      all.map((a) => `${a.id}\t${a.parent}\t${a.path}\tacc${a.id}\t${hash}\t${kinds[a.level]}\t1\tUser ${a.id}\tCompany ${a.id % 997} L${a.level}\tContact ${a.id}\n`),
    );
    await client.query(`SELECT setval(pg_get_serial_sequence('accounts', 'id'), ${id})`);
    let imei = 868_000_000_000_000;
    await copyLines(
      client,
      'COPY devices (imei, short_id, name, protocol, account_id) FROM STDIN',
      (function* () {
        for (const a of all) {
          for (let k = 0; k < DEVICES_PER_ACCOUNT; k++, imei++) yield `${imei}\t${String(imei).slice(-10)}\tDevice ${imei}\twatch\t${a.id}\n`;
        }
      })(),
    );
    await client.query('COMMIT');
    const copyS = (performance.now() - t0) / 1000;
    await client.query('VACUUM ANALYZE accounts');
    await client.query('VACUUM ANALYZE devices');
    const rowsWritten = all.length * (1 + DEVICES_PER_ACCOUNT);
    console.log(`tree: ${fmt(all.length)} accounts, 6 levels below admin, ${fmt(all.length * DEVICES_PER_ACCOUNT)} devices: COPY in ${fmt(copyS, 2)} s (${fmt(rowsWritten / copyS)} rows/s)`);
    const cached = await platform.deps.ingest.directory.preload();
    console.log(`gateway device cache loaded: ${fmt(cached)} devices`);

    // ---- the calls ----
    const call = async (p: string, body: unknown, token: string) => {
      const s = performance.now();
      const r = await fetch(`${platform.url}/api${p}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
      const json = (await r.json()) as Record<string, unknown>;
      const ms = performance.now() - s;
      if (json.State !== 200) throw new Error(`${p}: ${JSON.stringify(json)}`);
      return { ms, json };
    };
    const login = await fetch(`${platform.url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: 'admin', Password: 'admin123' }) });
    const token = ((await login.json()) as { AccessToken: string }).AccessToken;
    const withChildren = all.filter((a) => a.level < 6);
    const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)]!;
    const run = async (label: string, make: (i: number) => [string, unknown]) => {
      for (let i = 0; i < 10; i++) await call(...make(i), token); // warm-up
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) times.push((await call(...make(i), token)).ms);
      times.sort((a, b) => a - b);
      const p95 = percentile(times, 95);
      console.log(`  ${label.padEnd(52)} p50 ${fmt(percentile(times, 50), 1).padStart(6)} ms  p95 ${fmt(p95, 1).padStart(6)} ms  max ${fmt(times.at(-1)!, 1).padStart(6)} ms  ${p95 < 50 ? 'ok' : 'OVER 50 ms'}`);
      return p95;
    };
    console.log(`calls (${SAMPLES} samples each after 10 warm-up, HTTP round trip in this process):`);
    await run('open a node (allChildrenUsers)', (i) => ['/user/allChildrenUsers', { UserId: i % 10 === 0 ? undefined : pick(withChildren).id }]);
    await run('search (searchAccountByName)', (i) => {
      const a = pick(all);
      const kw = [`acc${a.id}`, `Company ${a.id % 997} L`, `Contact ${a.id}`, `acc${String(a.id).slice(0, 3)}`][i % 4]!;
      return ['/user/searchAccountByName', { Keyword: kw }];
    });
    await run('children table (childrenUsers), random nodes', () => ['/user/childrenUsers', { UserId: pick(withChildren).id, PageCount: 20 }]);
    await run('children table of the root (100 000 devices below)', () => ['/user/childrenUsers', { PageCount: 20 }]);
    await run('children table of a branch (20 000 devices below)', (i) => ['/user/childrenUsers', { UserId: all[(i % BRANCHES) * BRANCH_SIZE]!.id }]);

    // ---- the move ----
    const moving = all[0]!;
    const target = all[BRANCH_SIZE]!;
    const { ms, json } = await call('/user/moveAccount', { UserId: moving.id, ParentId: target.id }, token);
    console.log(`move a branch (${fmt(Number(json.Accounts))} accounts, ${fmt(Number(json.Devices))} devices) under another: ${fmt(ms, 0)} ms ${ms < 2000 ? 'ok' : 'OVER 2 s'}`);
    // The scope afterwards: in the database, in the device list, in the gateway's cache.
    const newPrefix = `${target.path}${moving.id}/`;
    const [check] = (
      await client.query<{ wrong: number; under: number }>(
        `SELECT count(*) FILTER (WHERE a.path NOT LIKE $1 || '%')::int AS wrong, count(*) FILTER (WHERE a.path LIKE $2 || '%')::int AS under
           FROM accounts a JOIN devices d ON d.account_id = a.id WHERE a.id = ANY($3::int[])`,
        [newPrefix, target.path, all.slice(0, BRANCH_SIZE).map((a) => a.id)],
      )
    ).rows;
    const list = await call('/Device/devicesByUserId', { UserId: target.id, PageCount: 1 }, token);
    const oldParent = await call('/Device/devicesByUserId', { UserId: root!.id, PageCount: 1 }, token);
    const sample = `${868_000_000_000_000 + 5}`;
    const ref = platform.deps.ingest.directory.cached(sample);
    const ok =
      check!.wrong === 0 &&
      check!.under === BRANCH_SIZE * DEVICES_PER_ACCOUNT &&
      list.json.Total === 2 * BRANCH_SIZE * DEVICES_PER_ACCOUNT &&
      ref?.accountPath.startsWith(newPrefix);
    console.log(
      `scope after the move: ${check!.under} devices under the new parent in the database, ${list.json.Total as number} in its device list, ` +
        `${oldParent.json.Total as number} in the administrator's; gateway cache of ${sample}: ${ref?.accountPath} -> ${ok ? 'right' : 'WRONG'}`,
    );

    // ---- the COPY ceiling ----
    const ids = (await client.query<{ id: number }>('SELECT id FROM devices ORDER BY id LIMIT 2000')).rows.map((r) => r.id);
    const received = new Date().toISOString();
    const ROWS = 300_000;
    const s = performance.now();
    await client.query('BEGIN');
    await copyLines(
      client,
      'COPY positions (device_id, time, received_at, lat, lon, valid, speed, course, altitude, accuracy, satellites, cells, wifi, attributes) FROM STDIN',
      (function* () {
        for (let i = 0; i < ROWS; i++) {
          const t = new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
          yield `${ids[i % ids.length]}\t${t}\t${received}\t22.5${i % 1000}\t114.0${i % 977}\tt\t12.5\t90\t10\t\\N\t7\t\\N\t\\N\t{"type": "UD", "battery": 90}\n`;
        }
      })(),
    );
    await client.query('COMMIT');
    console.log(`COPY ceiling: ${fmt(ROWS / ((performance.now() - s) / 1000))} position rows/s (${fmt(ROWS)} rows, one transaction)`);
    if (!ok) process.exitCode = 1;
  } finally {
    await client.end();
    await platform.close();
    const c = new pg.Client({ connectionString: base.toString() });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await c.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
