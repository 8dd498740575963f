// Alarm records with a million rows: fills the alarms table of a fresh platform (demo tenant)
// with 1 000 000 records spread over the demo devices and a year, then times the record calls
// as the console makes them. Printed: the median and worst of 5 runs per call.
//
//   npm run bench:alarms -- [--db pglite|postgres] [--rows 1000000]
//   npm run bench:alarms -- --escalation [--db postgres|pglite] [--devices 2000]   (server/bench/escalation.ts)
//
// postgres: BENCH_DATABASE_URL (a fresh database is created in it and dropped afterwards).
//
// One run on the 2-core development machine (median of 5, 1 000 000 records, 50 demo devices):
//                                     PGlite    PostgreSQL 15+
//   first page, whole tenant          430 ms    165 ms
//   first page, a sub-account subtree 287 ms     97 ms
//   page 500, whole tenant           1036 ms    466 ms
//   SOS of the last 30 days            67 ms     65 ms
//   one device by IMEI                249 ms    270 ms
// Most of a whole-tenant answer is the exact Total (count over the subtree).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ALARM_TYPES } from '@wt/contract';
import { startDemoPlatform } from './common.js';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i++) {
  const a = process.argv[i]!;
  if (a.startsWith('--')) args.set(a.slice(2), process.argv[i + 1] && !process.argv[i + 1]!.startsWith('--') ? process.argv[++i]! : '1');
}
const DB = (args.get('db') ?? 'pglite') as 'pglite' | 'postgres';
const ROWS = Number(args.get('rows') ?? 1_000_000);
const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function main() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-alarms-'));
  let dbUrl: string | undefined;
  let drop: (() => Promise<void>) | undefined;
  if (DB === 'postgres') {
    const base = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
    const name = `wt_bench_alarms_${Date.now()}`;
    const admin = new pg.Client({ connectionString: base.toString() });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const u = new URL(base.toString());
    u.pathname = `/${name}`;
    dbUrl = u.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    };
  }
  const platform = await startDemoPlatform(dataDir, dbUrl, 'api');
  try {
    const q = platform.deps.database.query.bind(platform.deps.database);
    const devices = await q<{ n: number }>(`SELECT count(*)::int AS n FROM devices`);
    if (!devices[0]!.n) throw new Error('the demo tenant has no devices');
    const codes = ALARM_TYPES.map((a) => a.code);
    const t0 = Date.now();
    // Generated in the database: confirmed records (the open ones are unique per device and type).
    for (let done = 0; done < ROWS; done += 200_000) {
      const n = Math.min(200_000, ROWS - done);
      await q(
        `WITH d AS (SELECT id, account_id, row_number() OVER (ORDER BY id) - 1 AS k, count(*) OVER () AS c FROM devices)
         INSERT INTO alarms (type, device_id, account_id, status, count, message_key, message_params, created_at, last_at, confirmed_at, remark)
         SELECT ($1::int[])[1 + (g % array_length($1::int[], 1))], d.id, d.account_id, 1, 1, 'alarm.msg.sos', '{}'::jsonb,
                now() - make_interval(secs => (g * 31.536)::double precision), now() - make_interval(secs => (g * 31.536)::double precision), now(), 'bench'
           FROM generate_series($2::int, $3::int) g JOIN d ON d.k = g % d.c`,
        [codes, done, done + n - 1],
      );
    }
    await q(`ANALYZE alarms`);
    const fillS = (Date.now() - t0) / 1000;
    const [{ total }] = (await q<{ total: number }>(`SELECT count(*)::int AS total FROM alarms`)) as [{ total: number }];
    console.log(`${DB}: ${fmt(total)} alarm records written in ${fmt(fillS, 1)} s`);

    const login = async (name: string) => {
      const r = await fetch(`${platform.url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: name, Password: 'admin123' }) });
      return ((await r.json()) as { AccessToken: string }).AccessToken;
    };
    const admin = await login('admin');
    const clinic = await login('clinic01');
    const [someImei] = await q<{ imei: string }>(`SELECT imei FROM devices ORDER BY id LIMIT 1`);
    const monthAgo = new Date(Date.now() - 30 * 86400_000).toISOString();
    const cases: [string, string, Record<string, unknown>][] = [
      ['first page, whole tenant (admin)', admin, { PageNo: 1, PageCount: 20 }],
      ['first page, a sub-account subtree', clinic, { PageNo: 1, PageCount: 20 }],
      ['page 500, whole tenant', admin, { PageNo: 500, PageCount: 20 }],
      ['SOS of the last 30 days', admin, { PageNo: 1, PageCount: 20, Type: 5, StartTime: monthAgo }],
      ['one device by IMEI', admin, { PageNo: 1, PageCount: 20, Imei: someImei!.imei }],
      ['unconfirmed only', admin, { PageNo: 1, PageCount: 20, Status: 0 }],
    ];
    for (const [label, token, body] of cases) {
      const times: number[] = [];
      let answer: { State: number; Total: number; Items: unknown[] } | undefined;
      for (let i = 0; i < 5; i++) {
        const s = performance.now();
        const r = await fetch(`${platform.url}/api/ExceptionMessage/allExceptionMsgPage`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify(body),
        });
        answer = (await r.json()) as typeof answer;
        times.push(performance.now() - s);
      }
      if (answer?.State !== 200) throw new Error(`${label}: ${JSON.stringify(answer)}`);
      times.sort((a, b) => a - b);
      console.log(`  ${label.padEnd(36)} total ${fmt(answer.Total).padStart(9)}  median ${fmt(times[2]!).padStart(5)} ms  worst ${fmt(times[4]!).padStart(5)} ms`);
    }
  } finally {
    await platform.close();
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

(args.has('escalation') ? import('./escalation.js').then((m) => m.benchEscalation(args)) : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
