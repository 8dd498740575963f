// The tenant walk over the whole registry: no account reaches outside its subtree, and only the
// platform's administrators change what every tenant shares.
// - Every call the registry marks `admin` (the platform's), made by an administrator (user type 3)
//   inside a branch, is refused 403 before its body is read, and a checksum of every table shows
//   that nothing changed.
// - Every call, made by an administrator inside agent01's branch and by agent01 itself (an
//   authorized agent), with plausible bodies whose ids and IMEIs name other tenants' accounts and
//   devices, leaves every row of the accounts outside the caller's subtree as it was.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CALLS, EXTRA_CALLS, SCHEMAS, schemaLeaves, schemaType } from '@wt/contract';
import { allCalls } from '../src/modules/index.js';
import { rows } from '../src/lib/sql.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { baseBody, setAt } from './sample-bodies.js';

type Q = <T>(s: ReturnType<typeof sql>) => Promise<T[]>;

/** One digest per table of the public schema, over every row's text. */
async function checksums(q: Q): Promise<Record<string, string>> {
  const tables = await q<{ name: string }>(sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [r] = await q<{ n: number; digest: string | null }>(
      sql`SELECT count(*)::int AS n, md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))) AS digest FROM ${sql.identifier(name)} t`,
    );
    out[name] = `${r!.n}:${r!.digest ?? ''}`;
  }
  return out;
}

/** Columns that tie a row to an account or a device, in the order a table is checked by. */
const ACCOUNT_COLUMNS = ['account_id', 'owner_id', 'customer_id', 'by_account_id'];
const DEVICE_COLUMNS = ['device_id', 'master_device_id'];

/** Tables whose rows belong to a row of another table: the column and the owning table. */
const PARENTS: Record<string, [string, string]> = {
  anchor_hearings: ['floor_id', 'floors'],
  floors: ['scene_id', 'scenes'],
  erp_purchase_batches: ['order_id', 'erp_purchases'],
  master_slaves: ['binding_id', 'master_slave_bindings'],
  message_send_commands: ['send_id', 'message_sends'],
  push_attempts: ['company_id', 'push_companies'],
  push_outbox: ['company_id', 'push_companies'],
};

/**
 * Per table, a digest of the rows that belong to accounts outside `path` (directly, through one of
 * their devices, or through the row they belong to). Tables tied to no account (the platform's
 * shared catalogues and settings) are digested whole.
 */
async function outsideDigests(q: Q, path: string): Promise<Record<string, string>> {
  const columns = await q<{ table: string; column: string }>(
    sql`SELECT c.table_name AS "table", c.column_name AS "column" FROM information_schema.columns c
          JOIN pg_tables t ON t.tablename = c.table_name AND t.schemaname = c.table_schema
         WHERE c.table_schema = 'public' ORDER BY c.table_name, c.ordinal_position`,
  );
  const byTable = new Map<string, string[]>();
  for (const c of columns) byTable.set(c.table, [...(byTable.get(c.table) ?? []), c.column]);
  const outside = sql`(SELECT id FROM accounts WHERE path NOT LIKE ${`${path}%`})`;
  const outsideDevices = sql`(SELECT d.id FROM devices d JOIN accounts a ON a.id = d.account_id WHERE a.path NOT LIKE ${`${path}%`})`;
  const whereOf = (table: string, alias: string): ReturnType<typeof sql> => {
    const cols = byTable.get(table) ?? [];
    const a = sql.identifier(alias);
    if (table === 'accounts') return sql`${a}.path NOT LIKE ${`${path}%`}`;
    const parent = PARENTS[table];
    if (parent) {
      const p = `${alias}p`;
      return sql`${a}.${sql.identifier(parent[0])} IN (SELECT ${sql.identifier(p)}.id FROM ${sql.identifier(parent[1])} ${sql.identifier(p)} WHERE ${whereOf(parent[1], p)})`;
    }
    const conds = [
      ...ACCOUNT_COLUMNS.filter((c) => cols.includes(c)).map((c) => sql`${a}.${sql.identifier(c)} IN ${outside}`),
      ...DEVICE_COLUMNS.filter((c) => cols.includes(c)).map((c) => sql`${a}.${sql.identifier(c)} IN ${outsideDevices}`),
    ];
    return conds.length ? sql.join(conds, sql` OR `) : sql`true`;
  };
  const out: Record<string, string> = {};
  for (const table of byTable.keys()) {
    const where = whereOf(table, 't');
    const [r] = await q<{ n: number; digest: string | null }>(
      sql`SELECT count(*)::int AS n, md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))) AS digest FROM ${sql.identifier(table)} t WHERE ${where}`,
    );
    out[table] = `${r!.n}:${r!.digest ?? ''}`;
  }
  return out;
}

/** What may change outside the caller's subtree while it acts: its own log entries and sessions, a cache of addresses. */
const MAY_CHANGE = new Set(['operation_logs', 'login_logs', 'sessions', 'geocode_cache']);

/** Bodies of a call whose ids and IMEIs name another tenant's account, device or the first rows. */
function hostileBodies(request: z.ZodType, imei: string, ids: number[]): Record<string, unknown>[] {
  const base = baseBody(request, imei);
  const idLeaves = schemaLeaves(request).filter((l) => {
    const key = String(l.path.at(-1) === 0 ? l.path.at(-2) : l.path.at(-1));
    return /(^|[a-z])ids?$/i.test(key) && schemaType(l.schema) !== 'string';
  });
  if (idLeaves.length === 0) return [base];
  return ids.map((id) => {
    const body = structuredClone(base);
    for (const leaf of idLeaves) setAt(body, leaf.path, id);
    return body;
  });
}

describe.each(databases())('tenant walk over the registry on %s', (kind) => {
  let p: TestPlatform;
  let q: Q;
  let admin: { token: string; userId: number };
  let agent: { token: string; userId: number };
  let branch: { token: string; userId: number };
  let top: { token: string; userId: number };
  let victim: { accountId: number; deviceId: number; imei: string };

  beforeAll(async () => {
    // The API alone: the background jobs (the daily weather push of the root's devices) would change
    // other tenants' rows while the walk runs, whatever the calls do.
    p = await startTestPlatform(kind, { ROLES: 'api' });
    q = <T,>(s: ReturnType<typeof sql>) => rows<T>(p.deps.database.db, s);
    admin = await p.login();
    agent = await p.login('agent01');
    // An administrator (user type 3) of agent01's branch, made by agent01's administrator above it.
    const made = await p.call('/user/registerNewUser', { LoginName: 'branchadmin', Password: 'abc123', ParentId: agent.userId, UserType: 3 }, admin.token);
    expect(made.body.State).toBe(200);
    branch = await p.login('branchadmin', 'abc123');
    // A tenant's administrator at the top of the tree, of the user kind: a tenant, not the platform's staff.
    const topMade = await p.call('/user/registerNewUser', { LoginName: 'topadmin', Password: 'abc123', UserType: 3, AccountKind: 'user' }, admin.token);
    expect(topMade.body.State).toBe(200);
    top = await p.login('topadmin', 'abc123');
    const [v] = await q<{ account_id: number; id: number; imei: string }>(
      sql`SELECT d.account_id, d.id, d.imei FROM devices d JOIN accounts a ON a.id = d.account_id WHERE a.login_name = 'viewer01' ORDER BY d.id LIMIT 1`,
    );
    victim = { accountId: v!.account_id, deviceId: v!.id, imei: v!.imei };
  }, 120_000);
  afterAll(() => p?.stop());

  it("refuses every call of the platform's to an administrator of a branch or of a tenant, and nothing changes", async () => {
    const platformCalls = [...CALLS, ...EXTRA_CALLS].filter((c) => c.permission === 'admin');
    expect(platformCalls.map((c) => c.path)).toEqual(
      expect.arrayContaining(['/ExceptionMessage/saveExceptionType', '/APPInfo/Save', '/Command/SaveDeviceModelNew', '/user/setAgentAuthorization', '/User/actionSMSData']),
    );
    const schemas = SCHEMAS as Record<string, { request: z.ZodType } | undefined>;
    const before = await checksums(q);
    const failures: string[] = [];
    for (const caller of [branch, top]) {
      for (const entry of platformCalls) {
        const schema = schemas[entry.path];
        const body = schema ? baseBody(schema.request, victim.imei) : {};
        // The attack of the finding: SOS closed for the whole platform.
        if (entry.path === '/ExceptionMessage/saveExceptionType') Object.assign(body, { Id: 1, Code: 5, Enabled: 2 });
        const res = await p.call(entry.path, body, caller.token);
        if (res.status !== 403 || res.body.Message !== 'common.forbidden') failures.push(`${entry.path}: ${res.status} ${JSON.stringify(res.body)}`);
      }
    }
    // The package upload (outside the registry) is the platform's too.
    const upload = await fetch(`${p.url}/api/app-packages?Platform=android&FileName=x.apk`, {
      method: 'POST',
      headers: { authorization: `Bearer ${branch.token}`, 'content-type': 'application/octet-stream' },
      body: Buffer.from('PK\u0003\u0004'),
    });
    if (upload.status !== 403) failures.push(`/api/app-packages: ${upload.status}`);
    expect(failures).toEqual([]);
    await p.app.oplog.flush();
    const unchanged = ({ operation_logs: _log, ...rest }: Record<string, string>) => rest;
    expect(unchanged(await checksums(q))).toEqual(unchanged(before));
    // The platform's own administrator still may.
    const sos = (await q<{ id: number }>(sql`SELECT id FROM alarm_types WHERE code = 5`))[0]!.id;
    const types = await p.call('/ExceptionMessage/ExceptionType', { PageCount: 100 }, admin.token);
    const row = types.body.Items.find((t: { Code: number }) => t.Code === 5);
    const saved = await p.call('/ExceptionMessage/saveExceptionType', { ...row, Id: sos, RingType: 2 }, admin.token);
    expect(saved.body.State).toBe(200);
  }, 300_000);

  it("leaves every row of the accounts outside the caller's subtree as it was, whatever ids and IMEIs the calls name", async () => {
    const implemented = new Set(allCalls().map((c) => c.path.toLowerCase()));
    const schemas = SCHEMAS as Record<string, { request: z.ZodType } | undefined>;
    // The session of each caller is refreshed before its walk: a walk may end its own sessions (logout).
    for (const who of ['branchadmin', 'agent01'] as const) {
      const caller = await p.login(who, who === 'agent01' ? 'admin123' : 'abc123');
      const [me] = await q<{ path: string }>(sql`SELECT path FROM accounts WHERE id = ${caller.userId}`);
      const before = await outsideDigests(q, me!.path);
      const ids = [1, 2, 3, admin.userId, victim.accountId, victim.deviceId];
      const errors: string[] = [];
      for (const entry of [...CALLS, ...EXTRA_CALLS]) {
        if (entry.permission === 'public' || !implemented.has(entry.path.toLowerCase())) continue;
        // Ending its own session or password would stop the walk, not test a tenant's bounds.
        if (/\/(ChangePassword|SaveUserLoginLog|applyPermissionSet)$/i.test(entry.path)) continue;
        for (const body of hostileBodies(schemas[entry.path]!.request, victim.imei, ids)) {
          const res = await p.app.inject({
            method: 'POST',
            url: `/api${entry.path}`,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${caller.token}` },
            payload: JSON.stringify(body),
          });
          if (res.statusCode >= 500) errors.push(`${entry.path} ${JSON.stringify(body).slice(0, 200)}: ${res.statusCode}`);
        }
      }
      expect(errors, who).toEqual([]);
      await p.app.oplog.flush();
      const after = await outsideDigests(q, me!.path);
      const changed = Object.keys(before).filter((t) => !MAY_CHANGE.has(t) && before[t] !== after[t]);
      expect(changed, `${who}: tables whose rows outside its subtree changed`).toEqual([]);
    }
  }, 600_000);
});
