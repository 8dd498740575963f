// Device groups: named sets of an account's devices. Groups and devices are both reached through
// the caller's subtree only.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { State } from '@wt/contract';
import { defineCall, type AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { deviceGroups, devices } from '../../db/schema/index.js';
import { conflict, notFound } from '../../lib/errors.js';
import { accountInScope, ownedBySubtree } from '../../lib/scope.js';
import { allOf, contains, iso, isUniqueViolation, rows } from '../../lib/sql.js';
import { devicesByImeis } from '../device/repo.js';

interface GroupRow {
  id: number;
  name: string;
  account_id: number;
  login_name: string;
  device_count: number;
  created_at: Date;
}
const toGroup = (g: GroupRow) => ({
  GroupId: g.id,
  Name: g.name,
  AccountId: g.account_id,
  AccountName: g.login_name,
  DeviceCount: Number(g.device_count),
  CreatedAt: iso(g.created_at)!,
});
const SELECT = sql`SELECT g.id, g.name, g.account_id, a.login_name, g.created_at,
  (SELECT count(*)::int FROM devices d WHERE d.group_id = g.id) AS device_count
  FROM device_groups g JOIN accounts a ON a.id = g.account_id`;

async function groupById(db: Db, id: number) {
  const [g] = await rows<GroupRow>(db, sql`${SELECT} WHERE g.id = ${id}`);
  return toGroup(g!);
}

async function groupInScope(ctx: AuthedContext, id: number) {
  const [g] = await ctx.deps.database.db.select().from(deviceGroups).where(and(eq(deviceGroups.id, id), ownedBySubtree(deviceGroups.accountId, ctx.user)));
  if (!g) throw notFound('device.groupNotFound');
  return g;
}

export const groupCalls = [
  defineCall('/group/GroupList', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const account = await accountInScope(db, ctx.user, q.UserId);
    const conds = [ownedBySubtree(deviceGroups.accountId, account)];
    if (q.Name) conds.push(sql`device_groups.name ILIKE ${contains(q.Name)}`);
    const where = allOf(conds);
    const list = await rows<GroupRow>(
      db,
      sql`${SELECT} WHERE g.id IN (SELECT id FROM device_groups WHERE ${where})
        ORDER BY g.name LIMIT ${q.PageCount} OFFSET ${(q.PageNo - 1) * q.PageCount}`,
    );
    const [{ n }] = (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM device_groups WHERE ${where}`)) as [{ n: number }];
    return { State: State.OK, Total: Number(n), Items: list.map(toGroup) };
  }),
  defineCall('/group/AddGroup', async (ctx, b) => {
    const { db } = ctx.deps.database;
    try {
      if (b.GroupId) {
        await groupInScope(ctx, b.GroupId);
        await db.update(deviceGroups).set({ name: b.Name }).where(eq(deviceGroups.id, b.GroupId));
        return { State: State.OK, Item: await groupById(db, b.GroupId) } as const;
      }
      const account = await accountInScope(db, ctx.user, b.UserId);
      const [g] = await db.insert(deviceGroups).values({ accountId: account.id, name: b.Name }).returning({ id: deviceGroups.id });
      return { State: State.OK, Item: await groupById(db, g!.id) } as const;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('device.groupNameExists');
      throw err;
    }
  }),
  defineCall('/group/groupsDelete', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const mine = await db.select({ id: deviceGroups.id }).from(deviceGroups).where(and(inArray(deviceGroups.id, b.GroupIds), ownedBySubtree(deviceGroups.accountId, ctx.user)));
    const ids = mine.map((g) => g.id);
    if (ids.length) {
      await db.transaction(async (tx) => {
        await tx.update(devices).set({ groupId: null }).where(inArray(devices.groupId, ids));
        await tx.delete(deviceGroups).where(inArray(deviceGroups.id, ids));
      });
    }
    const failed = [...new Set(b.GroupIds)].filter((id) => !ids.includes(id)).map((id) => ({ Imei: String(id), Message: 'device.groupNotFound' }));
    return { State: State.OK, Succeeded: ids.length, Failed: failed } as const;
  }),
  defineCall('/group/UpdateDeviceGroupIDByImeis', async (ctx, b) => {
    const { db } = ctx.deps.database;
    if (b.GroupId) await groupInScope(ctx, b.GroupId);
    const found = await devicesByImeis(db, ctx.user, b.Imeis);
    const ids = [...found.values()].map((d) => d.id);
    if (ids.length) await db.update(devices).set({ groupId: b.GroupId }).where(inArray(devices.id, ids));
    const failed = [...new Set(b.Imeis)].filter((i) => !found.has(i)).map((Imei) => ({ Imei, Message: 'device.missing' }));
    return { State: State.OK, Succeeded: ids.length, Failed: failed } as const;
  }),
];
