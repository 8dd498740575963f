// The permission walk over the whole registry: for every action, an account whose set holds every
// action but that one calls every call needing it, with a plausible body. Each answers 403
// permission.denied naming that action, before its body is read, and a checksum of every table
// taken before and after shows that nothing changed. The spreadsheet exports (file routes outside
// the registry) are walked the same way.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ACTIONS, CALLS, EXTRA_CALLS, SCHEMAS, actionOfCall, isAction, type Action } from '@wt/contract';
import { accounts, permissionSets } from '../src/db/schema/index.js';
import { hashPassword } from '../src/lib/passwords.js';
import { insertAccount } from '../src/modules/user/repo.js';
import { rows } from '../src/lib/sql.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { baseBody } from './sample-bodies.js';

const EXPORTS: [string, Action][] = [
  ['/api/export/alarm-records', 'alarm.export'],
  ['/api/export/health-readings', 'health.export'],
  ['/api/export/devices', 'device.export'],
];

/** One digest per table of the public schema, over every row's text. */
async function checksums(p: TestPlatform): Promise<Record<string, string>> {
  const { db } = p.deps.database;
  const tables = await rows<{ name: string }>(db, sql`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [r] = await rows<{ n: number; digest: string | null }>(
      db,
      sql`SELECT count(*)::int AS n, md5(string_agg(md5(t::text), '' ORDER BY md5(t::text))) AS digest FROM ${sql.identifier(name)} t`,
    );
    out[name] = `${r!.n}:${r!.digest ?? ''}`;
  }
  return out;
}

describe.each(databases())('permission walk over the registry on %s', (kind) => {
  let p: TestPlatform;
  /** Per action, the token of an account whose set holds every action but it. */
  const lacking = new Map<Action, string>();
  let imei: string;

  beforeAll(async () => {
    // The API alone: a background job (the daily weather push) writing while the walk runs is not a call's doing.
    p = await startTestPlatform(kind, { ROLES: 'api' });
    const { db } = p.deps.database;
    const admin = await p.login();
    imei = (await p.call('/Device/devicesByUserId', { PageCount: 1 }, admin.token)).body.Items[0].Imei;
    const [root] = await db.select().from(accounts).where(eq(accounts.id, admin.userId));
    const hash = await hashPassword('admin123');
    for (const action of ACTIONS) {
      const [set] = await db
        .insert(permissionSets)
        .values({ ownerId: admin.userId, key: `without-${action}`, name: action, actions: ACTIONS.filter((a) => a !== action).join(',') })
        .returning();
      const name = `walk-${action.replace('.', '-').toLowerCase()}`;
      await insertAccount(db, { parentId: root!.id, parentPath: root!.path, loginName: name, passwordHash: hash, kind: 'user', userType: 1, permissionSetId: set!.id });
      lacking.set(action, (await p.login(name)).token);
    }
  }, 120_000);
  afterAll(() => p?.stop());

  it('answers 403 permission.denied for every call whose action the set lacks, and nothing changes', async () => {
    const before = await checksums(p);
    const schemas = SCHEMAS as Record<string, { request: z.ZodType } | undefined>;
    const failures: string[] = [];
    let walked = 0;
    for (const entry of [...CALLS, ...EXTRA_CALLS]) {
      const need = actionOfCall(entry.path);
      if (!need || !isAction(need)) continue;
      const schema = schemas[entry.path];
      const body = schema ? baseBody(schema.request, imei) : { Imei: imei, Id: 1 };
      const res = await p.call(entry.path, body, lacking.get(need), { 'x-language': 'en' });
      walked += 1;
      const b = res.body as { State?: number; Message?: string; Params?: { code?: string; action?: string }; Text?: string };
      if (res.status !== 403 || b.State !== 403 || b.Message !== 'permission.denied' || b.Params?.code !== need || !b.Text?.includes(b.Params.action ?? '\u0000')) {
        failures.push(`${entry.path} (${need}): ${res.status} ${JSON.stringify(b)}`);
      }
    }
    for (const [url, need] of EXPORTS) {
      const res = await fetch(`${p.url}${url}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${lacking.get(need)}` },
        body: '{}',
      });
      const b = (await res.json()) as { Message?: string; Params?: { code?: string } };
      if (res.status !== 403 || b.Message !== 'permission.denied' || b.Params?.code !== need) failures.push(`${url} (${need}): ${res.status} ${JSON.stringify(b)}`);
    }
    expect(failures).toEqual([]);
    expect(walked).toBeGreaterThan(100);
    // The operation log records each refusal (its only change); nothing else changed.
    await p.app.oplog.flush();
    const refused = await rows<{ n: number }>(
      p.deps.database.db,
      sql`SELECT count(*)::int AS n FROM operation_logs WHERE state = 403 AND error_key = 'permission.denied'`,
    );
    expect(refused[0]!.n).toBe(walked);
    const unchanged = ({ operation_logs: _log, ...rest }: Record<string, string>) => rest;
    expect(unchanged(await checksums(p))).toEqual(unchanged(before));
  }, 300_000);

  it('lets the same accounts make the calls whose action their set holds', async () => {
    // Reads pass, and a changing call passes the check when the set holds its action (it then
    // answers on its own terms: here a device that is not the caller's).
    const token = lacking.get('device.add')!;
    expect((await p.call('/Device/devicesByUserId', {}, token)).status).toBe(200);
    const del = await p.call('/Device/BatchDelDevices', { Imeis: ['865000000009999'] }, token);
    expect(del.body.Message).not.toBe('permission.denied');
  });
});
