// Device roles (SPEC §3, §5): how devices are drawn on the map, at most 30 per account.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { LIMITS, State, type role as roleSchemas } from '@wt/contract';
import type { z } from 'zod';
import { defineCall, type AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { deviceRoles, devices } from '../../db/schema/index.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { accountInScope, ownedBySubtree } from '../../lib/scope.js';
import { iso, isUniqueViolation, rows } from '../../lib/sql.js';
import { devicesByImeis } from '../device/repo.js';

type RoleItem = z.infer<typeof roleSchemas.roleSchema>;
interface RoleRow {
  id: number;
  account_id: number;
  name: string;
  description: string;
  color: RoleItem['Color'];
  shape: RoleItem['Shape'];
  icon: string;
  created_at: Date;
  device_count: number;
}
const toRole = (r: RoleRow): RoleItem => ({
  RoleId: r.id,
  Name: r.name,
  Description: r.description,
  Color: r.color,
  Shape: r.shape,
  Icon: r.icon,
  AccountId: r.account_id,
  DeviceCount: Number(r.device_count),
  CreatedAt: iso(r.created_at)!,
});
const SELECT = sql`SELECT device_roles.*, (SELECT count(*)::int FROM devices d WHERE d.role_id = device_roles.id) AS device_count FROM device_roles`;

async function roleById(db: Db, id: number) {
  const [r] = await rows<RoleRow>(db, sql`${SELECT} WHERE device_roles.id = ${id}`);
  return toRole(r!);
}

async function roleInScope(ctx: AuthedContext, id: number) {
  const [r] = await ctx.deps.database.db.select().from(deviceRoles).where(and(eq(deviceRoles.id, id), ownedBySubtree(deviceRoles.accountId, ctx.user)));
  if (!r) throw notFound('device.roleNotFound');
  return r;
}

export const roleCalls = [
  defineCall('/DeviceRole/List', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const account = await accountInScope(db, ctx.user, q.UserId);
    const name = q.Name ? sql` AND device_roles.name ILIKE ${`%${q.Name}%`}` : sql``;
    const list = await rows<RoleRow>(db, sql`${SELECT} WHERE ${ownedBySubtree(deviceRoles.accountId, account)}${name} ORDER BY device_roles.id`);
    return { State: State.OK, Total: list.length, Items: list.map(toRole) };
  }),
  defineCall('/DeviceRole/Save', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const values = { name: b.Name, description: b.Description, color: b.Color, shape: b.Shape, icon: b.Icon };
    try {
      if (b.RoleId) {
        await roleInScope(ctx, b.RoleId);
        await db.update(deviceRoles).set(values).where(eq(deviceRoles.id, b.RoleId));
        return { State: State.OK, Item: await roleById(db, b.RoleId) } as const;
      }
      const account = await accountInScope(db, ctx.user, b.UserId);
      const id = await db.transaction(async (tx) => {
        // The count and the insert in one transaction, the account row locked, so two saves cannot both pass at 29.
        await tx.execute(sql`SELECT id FROM accounts WHERE id = ${account.id} FOR UPDATE`);
        const [{ n }] = (await rows<{ n: number }>(tx as unknown as Db, sql`SELECT count(*)::int AS n FROM device_roles WHERE account_id = ${account.id}`)) as [{ n: number }];
        if (n >= LIMITS.deviceRoles) throw new AppError(State.CONFLICT, 'device.roleLimit', { max: LIMITS.deviceRoles });
        const [r] = await tx.insert(deviceRoles).values({ ...values, accountId: account.id }).returning({ id: deviceRoles.id });
        return r!.id;
      });
      return { State: State.OK, Item: await roleById(db, id) } as const;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('device.roleNameExists');
      throw err;
    }
  }),
  defineCall('/DeviceRole/Delete', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const mine = await db.select({ id: deviceRoles.id }).from(deviceRoles).where(and(inArray(deviceRoles.id, b.RoleIds), ownedBySubtree(deviceRoles.accountId, ctx.user)));
    const ids = mine.map((r) => r.id);
    if (ids.length) {
      await db.transaction(async (tx) => {
        await tx.update(devices).set({ roleId: null }).where(inArray(devices.roleId, ids));
        await tx.delete(deviceRoles).where(inArray(deviceRoles.id, ids));
      });
    }
    const failed = [...new Set(b.RoleIds)].filter((id) => !ids.includes(id)).map((id) => ({ Imei: String(id), Message: 'device.roleNotFound' }));
    return { State: State.OK, Succeeded: ids.length, Failed: failed } as const;
  }),
  defineCall('/DeviceRole/AssignDevices', async (ctx, b) => {
    const { db } = ctx.deps.database;
    if (b.RoleId) await roleInScope(ctx, b.RoleId);
    const found = await devicesByImeis(db, ctx.user, b.Imeis);
    const ids = [...found.values()].map((d) => d.id);
    if (ids.length) await db.update(devices).set({ roleId: b.RoleId }).where(inArray(devices.id, ids));
    const failed = [...new Set(b.Imeis)].filter((i) => !found.has(i)).map((Imei) => ({ Imei, Message: 'device.missing' }));
    return { State: State.OK, Succeeded: ids.length, Failed: failed } as const;
  }),
];
