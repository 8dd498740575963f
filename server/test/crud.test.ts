// Scoped CRUD (server/src/lib/crud.ts) on device roles of the demo tenant: admin above agent01
// above clinic01, and operator01, a sibling of agent01. What a caller lists, loads, changes and
// deletes stays in its subtree; the per-account limit holds under concurrent inserts; a refusal
// changes nothing.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, inArray, sql } from 'drizzle-orm';
import { State } from '@wt/contract';
import { deviceRoles, devices } from '../src/db/schema/index.js';
// The device roles' own scoped rows, each with its device count.
import { roles } from '../src/modules/role/routes.js';
import { AppError } from '../src/lib/errors.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

/** The error a promise fails with (and fails the test when it does not). */
async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected a refusal');
}

describe.each(databases())('scoped CRUD on %s', (kind) => {
  let p: TestPlatform;
  const acc: Record<string, { id: number; path: string }> = {};
  const db = () => p.deps.database.db;
  const add = (account: string, name: string) =>
    roles.insert(db(), { accountId: acc[account]!.id, name, color: 'blue' });
  const namesOf = (rows: { name: string }[]) => rows.map((r) => r.name).sort();

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    const all = await p.deps.database.query<{ id: number; path: string; login_name: string }>(
      'SELECT id, path, login_name FROM accounts',
    );
    for (const r of all) acc[r.login_name] = { id: r.id, path: r.path };
  });
  afterAll(async () => {
    await p?.stop();
  });
  beforeEach(async () => {
    await db().update(devices).set({ roleId: null });
    await db().delete(deviceRoles);
  });

  it('lists the rows of the subtree only, with filters, order and paging', async () => {
    for (const n of ['a1', 'a2', 'a3']) await add('agent01', n);
    await add('clinic01', 'c1');
    await add('operator01', 'o1');
    const agent = await roles.list(db(), acc.agent01!);
    expect(agent.total).toBe(4);
    expect(namesOf(agent.items)).toEqual(['a1', 'a2', 'a3', 'c1']);
    // clinic01 is below agent01 and sees only its own; admin sees everything.
    expect(namesOf((await roles.list(db(), acc.clinic01!)).items)).toEqual(['c1']);
    expect((await roles.list(db(), acc.admin!)).total).toBe(5);

    const filtered = await roles.list(db(), acc.agent01!, {
      filters: [sql`${deviceRoles.name} LIKE 'a%'`, undefined],
    });
    expect(namesOf(filtered.items)).toEqual(['a1', 'a2', 'a3']);

    // The total counts every match; the page holds PageCount of them, in the order asked for.
    const page2 = await roles.list(db(), acc.agent01!, {
      orderBy: [sql`${deviceRoles.name} DESC`],
      page: { PageNo: 2, PageCount: 3 },
    });
    expect(page2.total).toBe(4);
    expect(page2.items.map((r) => r.name)).toEqual(['a1']);
    // Columns of the select (a subquery here) come with the rows.
    expect(page2.items[0]).toMatchObject({ name: 'a1', accountId: acc.agent01!.id, deviceCount: 0 });
  });

  it('loads a row in scope; a missing id and another tenant’s answer the same not found', async () => {
    const mine = await add('clinic01', 'mine');
    const theirs = await add('operator01', 'theirs');
    expect(await roles.get(db(), acc.agent01!, mine)).toMatchObject({ id: mine, name: 'mine' });
    const foreign = await failure(roles.get(db(), acc.agent01!, theirs));
    const missing = await failure(roles.get(db(), acc.agent01!, theirs + 1000));
    for (const e of [foreign, missing]) {
      expect(e.state).toBe(State.NOT_FOUND);
      expect(e.key).toBe('device.roleNotFound');
    }
    // A sub-account does not see its parent's rows either.
    const above = await add('agent01', 'above');
    expect(await roles.find(db(), acc.clinic01!, above)).toBeUndefined();
    expect(await roles.idsInScope(db(), acc.clinic01!, [mine, above, theirs, mine])).toEqual([mine]);
  });

  it('updates in scope only; a taken name answers its message; a refusal changes nothing', async () => {
    const mine = await add('agent01', 'first');
    await add('agent01', 'second');
    const theirs = await add('operator01', 'theirs');
    await roles.update(db(), acc.agent01!, mine, { name: 'renamed' });
    expect((await roles.get(db(), acc.agent01!, mine)).name).toBe('renamed');

    const foreign = await failure(roles.update(db(), acc.agent01!, theirs, { name: 'stolen' }));
    expect(foreign.key).toBe('device.roleNotFound');
    expect((await roles.get(db(), acc.operator01!, theirs)).name).toBe('theirs');

    const taken = await failure(roles.update(db(), acc.agent01!, mine, { name: 'SECOND' }));
    expect(taken).toMatchObject({ state: State.CONFLICT, key: 'device.roleNameExists' });
    expect((await roles.get(db(), acc.agent01!, mine)).name).toBe('renamed');
    const dup = await failure(add('agent01', 'Second'));
    expect(dup.key).toBe('device.roleNameExists');
  });

  it('refuses an insert past the account limit, naming the limit', async () => {
    const limit = { account: acc.clinic01!.id, max: 3, message: 'device.roleLimit' };
    // Another account's rows do not count towards clinic01's limit.
    await add('agent01', 'other');
    for (const n of ['r1', 'r2', 'r3'])
      await roles.insert(db(), { accountId: acc.clinic01!.id, name: n, color: 'red' }, limit);
    const refused = await failure(
      roles.insert(db(), { accountId: acc.clinic01!.id, name: 'r4', color: 'red' }, limit),
    );
    expect(refused).toMatchObject({ state: State.CONFLICT, key: 'device.roleLimit', params: { max: 3 } });
    expect((await roles.list(db(), acc.clinic01!)).total).toBe(3);
  });

  it('lets exactly the rows under the limit in when inserts for one account race', async () => {
    const limit = { account: acc.clinic01!.id, max: 5, message: 'device.roleLimit' };
    await roles.insert(db(), { accountId: acc.clinic01!.id, name: 'existing', color: 'red' }, limit);
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        roles.insert(db(), { accountId: acc.clinic01!.id, name: `race-${i}`, color: 'green' }, limit),
      ),
    );
    const done = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(done).toHaveLength(4);
    expect(refused).toHaveLength(8);
    for (const r of refused) expect((r.reason as AppError).key).toBe('device.roleLimit');
    const [{ n }] = (await p.deps.database.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_roles WHERE account_id = $1',
      [acc.clinic01!.id],
    )) as [{ n: number }];
    expect(n).toBe(5);
  });

  it('deletes in scope and reports each id: deleted, not found, or refused with its reason', async () => {
    const [a, b, inUse] = [
      await add('clinic01', 'a'),
      await add('clinic01', 'b'),
      await add('clinic01', 'used'),
    ];
    const theirs = await add('operator01', 'theirs');
    const [device] = await db()
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.accountId, acc.clinic01!.id))
      .limit(1);
    await db().update(devices).set({ roleId: b }).where(eq(devices.id, device!.id));
    // The select's own columns come with the row (here the devices given the role).
    expect(await roles.get(db(), acc.agent01!, b)).toMatchObject({ name: 'b', deviceCount: 1 });
    const detached: number[][] = [];

    const outcome = await roles.remove(db(), acc.agent01!, [a, b, inUse, theirs, 999_999, a], {
      refuse: async (_tx, ids) =>
        new Map(
          ids.filter((id) => id === inUse).map((id) => [id, { key: 'device.roleInUse', params: { id } }]),
        ),
      before: async (tx, ids) => {
        detached.push(ids);
        await tx.update(devices).set({ roleId: null }).where(inArray(devices.roleId, ids));
      },
    });
    expect(outcome.deleted.sort()).toEqual([a, b].sort());
    expect(outcome.refused).toEqual([
      { id: inUse, key: 'device.roleInUse', params: { id: inUse } },
      { id: theirs, key: 'device.roleNotFound' },
      { id: 999_999, key: 'device.roleNotFound' },
    ]);
    expect(detached).toEqual([outcome.deleted]);
    const left = await p.deps.database.query<{ id: number }>('SELECT id FROM device_roles ORDER BY id');
    expect(left.map((r) => r.id)).toEqual([inUse, theirs].sort((x, y) => x - y));
    const [d] = await db().select({ roleId: devices.roleId }).from(devices).where(eq(devices.id, device!.id));
    expect(d!.roleId).toBeNull();
  });

  it('deletes all or nothing when atomic', async () => {
    const mine = await add('agent01', 'mine');
    const theirs = await add('operator01', 'theirs');
    const e = await failure(roles.remove(db(), acc.agent01!, [mine, theirs], { atomic: true }));
    expect(e).toMatchObject({ state: State.NOT_FOUND, key: 'device.roleNotFound' });
    expect(await roles.find(db(), acc.agent01!, mine)).toBeDefined();
    // A refusal inside the transaction rolls back what `before` did.
    const [device] = await db()
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.accountId, acc.clinic01!.id))
      .limit(1);
    await db().update(devices).set({ roleId: mine }).where(eq(devices.id, device!.id));
    const inUse = await failure(
      roles.remove(db(), acc.agent01!, [mine], {
        atomic: true,
        refuse: async () => new Map([[mine, { key: 'device.roleInUse' }]]),
        before: async (tx) => {
          await tx.update(devices).set({ roleId: null });
        },
      }),
    );
    expect(inUse).toMatchObject({ state: State.CONFLICT, key: 'device.roleInUse' });
    const [d] = await db().select({ roleId: devices.roleId }).from(devices).where(eq(devices.id, device!.id));
    expect(d!.roleId).toBe(mine);
    expect((await roles.remove(db(), acc.agent01!, [mine], { atomic: true })).deleted).toEqual([mine]);
  });
});
