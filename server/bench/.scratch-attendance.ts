// Scratch measurement (not committed): 10 000 devices x 31 days of attendance rows on PostgreSQL.
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { startPlatform } from '../src/platform.js';

const base = 'postgres://postgres@127.0.0.1:5432/';
const name = `att_bench_${Date.now()}`;
const admin = new pg.Client({ connectionString: base + 'postgres' });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const p = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', WATCH_PORT: 'off', GT06_PORT: 'off', OSMAND_PORT: 'off', LOG_LEVEL: 'silent', DATA_DIR: '/tmp/attbench', DEMO: '1', SIMULATE: '0', DATABASE_URL: base + name, ATTENDANCE_INTERVAL_SECONDS: '86400' }));
const q = (t: string, a: unknown[] = []) => p.deps.database.query<any>(t, a);
const [agent] = await q(`SELECT id FROM accounts WHERE login_name = 'agent01'`);
const [clinic] = await q(`SELECT id FROM accounts WHERE login_name = 'clinic01'`);
const N = Number(process.env.N ?? 10000);
await q(`INSERT INTO devices (imei, short_id, name, account_id, model_name) SELECT '86600' || lpad(g::text, 10, '0'), lpad(g::text, 10, '0'), 'W-' || g, $1, 'W1' FROM generate_series(1, ${N}) g`, [clinic.id]);
const [f] = await q(`INSERT INTO account_fences (owner_id, name, alarm_type, kind, lat, lon, radius, schedule, created_at, updated_at) VALUES ($1, 'Bench', 3, 'circle', 22.5, 114, 500, '{"days":[1,2,3,4,5],"windows":[{"start":"08:00","end":"17:00"}]}', now() - interval '60 days', now() - interval '60 days') RETURNING id`, [agent.id]);
await q(`INSERT INTO account_fence_accounts (fence_id, account_id) VALUES ($1, $2)`, [f.id, clinic.id]);
const t0 = Date.now();
await q(`INSERT INTO attendance_daily (fence_id, device_id, day, first_in, last_out, inside_seconds, entries, exits, late_minutes, early_minutes, late, early, absent, scheduled, end_inside, computed_at)
  SELECT $1, d.id, g::date, g + interval '8 hours', g + interval '17 hours', (random()*30000)::int, (random()*3)::int, (random()*3)::int, (random()*30)::int, (random()*30)::int, random() < 0.2, random() < 0.2, random() < 0.05, true, false, now()
    FROM devices d CROSS JOIN generate_series(current_date - 32, current_date - 2, interval '1 day') g WHERE d.account_id = $2`, [f.id, clinic.id]);
await q('ANALYZE');
const [{ n }] = await q('SELECT count(*)::int AS n FROM attendance_daily');
console.log(`rows ${n} inserted in ${Date.now() - t0} ms`);
const login = await fetch(`${p.url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: 'agent01', Password: 'admin123' }) }).then((r) => r.json() as any);
const token = login.AccessToken;
const from = new Date(Date.now() - 32 * 86400_000).toISOString().slice(0, 10);
const to = new Date(Date.now() - 2 * 86400_000).toISOString().slice(0, 10);
const call = async (body: object) => {
  const s = performance.now();
  const r = await fetch(`${p.url}/api/AccountFence/Attendance`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ From: from, To: to, ...body }) }).then((r) => r.json() as any);
  return { ms: Math.round(performance.now() - s), total: r.Total, n: r.Items?.length, err: r.Message };
};
console.log('first call (job catch-up included)', await call({}));
for (const body of [{}, { Sort: 'InsideMinutes', Order: 'desc' }, { Sort: 'AbsentDays', Order: 'desc', PageNo: 50 }, { Sort: 'Imei' }, { Sort: 'DeviceName', Order: 'desc' }, { View: 'daily' }, { View: 'daily', Sort: 'LateMinutes', Order: 'desc' }, { View: 'daily', Sort: 'Imei' }, { Imei: '8660000001' }]) {
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await call(body));
  console.log(JSON.stringify(body), runs.map((r) => r.ms).join(' / '), 'ms', 'Total', runs[0]!.total, runs[0]!.err ?? '');
}
const s = performance.now();
const res = await fetch(`${p.url}/api/AccountFence/AttendanceExport`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ From: from, To: to }) });
const buf = Buffer.from(await res.arrayBuffer());
console.log(`export ${res.status} ${buf.length} bytes rows ${res.headers.get('x-total-rows')} in ${Math.round(performance.now() - s)} ms`);
console.log('DB', name);
await p.close();
if (!process.env.KEEP) { await admin.query(`DROP DATABASE ${name} WITH (FORCE)`); }
await admin.end();
