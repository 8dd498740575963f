// Device roles (SPEC §3, §5): how devices are drawn on the map, at most 30 per account.
import { getTableColumns, inArray, sql } from 'drizzle-orm';
import { LIMITS, State, type role as roleSchemas } from '@wt/contract';
import type { z } from 'zod';
import { defineCall } from '../../calls.js';
import { deviceRoles, devices } from '../../db/schema/index.js';
import { scopedCrud } from '../../lib/crud.js';
import { accountInScope } from '../../lib/scope.js';
import { contains, iso } from '../../lib/sql.js';
import { devicesByImeis } from '../device/repo.js';

type RoleItem = z.infer<typeof roleSchemas.roleSchema>;

/** Device roles of a subtree, each with the number of devices given it. */
export const roles = scopedCrud({
  table: deviceRoles,
  id: deviceRoles.id,
  owner: deviceRoles.accountId,
  select: (db) =>
    db
      .select({
        ...getTableColumns(deviceRoles),
        // The outer table by its name: a column interpolated here is rendered unqualified, and
        // inside the subquery "id" would be the device's.
        deviceCount: sql<number>`(SELECT count(*)::int FROM devices d WHERE d.role_id = device_roles.id)`,
      })
      .from(deviceRoles)
      .$dynamic(),
  notFound: 'device.roleNotFound',
  unique: 'device.roleNameExists',
});
type RoleRow = Awaited<ReturnType<typeof roles.get>>;

const toRole = (r: RoleRow): RoleItem => ({
  RoleId: r.id,
  Name: r.name,
  Description: r.description,
  Color: r.color as RoleItem['Color'],
  Shape: r.shape as RoleItem['Shape'],
  Icon: r.icon,
  AccountId: r.accountId,
  DeviceCount: Number(r.deviceCount),
  CreatedAt: iso(r.createdAt)!,
});

export const roleCalls = [
  defineCall('/DeviceRole/List', async (ctx, q) => {
    const { db } = ctx.deps.database;
    // The roles of the account asked for (the caller by default) and of the accounts below it.
    const account = await accountInScope(db, ctx.user, q.UserId);
    const list = await roles.list(db, account, { filters: [q.Name ? sql`${deviceRoles.name} ILIKE ${contains(q.Name)}` : undefined] });
    return { State: State.OK, Total: list.total, Items: list.items.map(toRole) };
  }),
  defineCall('/DeviceRole/Save', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const values = { name: b.Name, description: b.Description, color: b.Color, shape: b.Shape, icon: b.Icon };
    if (b.RoleId) {
      await roles.update(db, ctx.user, b.RoleId, values);
      return { State: State.OK, Item: toRole(await roles.get(db, ctx.user, b.RoleId)) } as const;
    }
    const account = await accountInScope(db, ctx.user, b.UserId);
    const id = await roles.insert(db, { ...values, accountId: account.id }, { account: account.id, max: LIMITS.deviceRoles, message: 'device.roleLimit' });
    return { State: State.OK, Item: toRole(await roles.get(db, ctx.user, id)) } as const;
  }),
  defineCall('/DeviceRole/Delete', async (ctx, b) => {
    const { db } = ctx.deps.database;
    // The devices of a deleted role keep no role.
    const done = await roles.remove(db, ctx.user, b.RoleIds, {
      before: async (tx, ids) => {
        await tx.update(devices).set({ roleId: null }).where(inArray(devices.roleId, ids));
      },
    });
    const failed = done.refused.map((r) => ({ Imei: String(r.id), Message: r.key }));
    return { State: State.OK, Succeeded: done.deleted.length, Failed: failed } as const;
  }),
  defineCall('/DeviceRole/AssignDevices', async (ctx, b) => {
    const { db } = ctx.deps.database;
    if (b.RoleId) await roles.get(db, ctx.user, b.RoleId);
    const found = await devicesByImeis(db, ctx.user, b.Imeis);
    const ids = [...found.values()].map((d) => d.id);
    if (ids.length) await db.update(devices).set({ roleId: b.RoleId }).where(inArray(devices.id, ids));
    const failed = [...new Set(b.Imeis)].filter((i) => !found.has(i)).map((Imei) => ({ Imei, Message: 'device.missing' }));
    return { State: State.OK, Succeeded: ids.length, Failed: failed } as const;
  }),
];
