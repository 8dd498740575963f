// Queries of the command area. Devices are reached only through the caller's account subtree.
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AuthUser } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accounts, commands, devices } from '../../db/schema/index.js';
import { ownedBySubtree } from '../../lib/scope.js';
import { jsonParam } from '../../lib/sql.js';

export type DeviceRow = typeof devices.$inferSelect;

/** A device by IMEI, when it belongs to the caller's subtree. */
export async function deviceInScope(db: Db, user: AuthUser, imei: string): Promise<DeviceRow | undefined> {
  const [row] = await db.select().from(devices).where(and(eq(devices.imei, imei), ownedBySubtree(devices.accountId, user))).limit(1);
  return row;
}

/**
 * The devices a caller may command (SPEC §6, docs/decisions.md): those of its account and its
 * sub-accounts, the same rule as a single command; optionally restricted to IMEIs.
 */
export async function devicesInScope(db: Db, user: AuthUser, imeis?: string[]): Promise<DeviceRow[]> {
  const conds: SQL[] = [ownedBySubtree(devices.accountId, user)];
  if (imeis) conds.push(inArray(devices.imei, imeis.length ? imeis : ['']));
  return db.select().from(devices).where(and(...conds)).orderBy(devices.imei);
}

export async function insertCommands(db: Db, rows: (typeof commands.$inferInsert)[]) {
  if (!rows.length) return [];
  // Params hold texts of the caller's (a message): written as JSON PostgreSQL always takes.
  return db
    .insert(commands)
    .values(rows.map((r) => ({ ...r, params: sql`${jsonParam(r.params ?? {})}::jsonb` })))
    .returning({ id: commands.id, deviceId: commands.deviceId });
}

const itemColumns = {
  id: commands.id,
  imei: devices.imei,
  deviceName: devices.name,
  code: commands.code,
  params: commands.params,
  status: commands.status,
  encoded: commands.encoded,
  reply: commands.reply,
  error: commands.error,
  senderId: commands.accountId,
  senderName: sql<string>`coalesce(${accounts.loginName}, '')`,
  createdAt: commands.createdAt,
  sentAt: commands.sentAt,
  answeredAt: commands.answeredAt,
};

export async function listCommands(
  db: Db,
  user: AuthUser,
  q: { imei?: string; status?: string; code?: string; offset: number; limit: number; ids?: number[] },
) {
  const conds: SQL[] = [ownedBySubtree(devices.accountId, user)];
  if (q.imei) conds.push(eq(devices.imei, q.imei));
  if (q.status) conds.push(eq(commands.status, q.status));
  if (q.code) conds.push(sql`upper(${commands.code}) = upper(${q.code})`);
  if (q.ids) conds.push(inArray(commands.id, q.ids.length ? q.ids : [0]));
  const where = and(...conds);
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(commands)
    .innerJoin(devices, eq(devices.id, commands.deviceId))
    .where(where)) as [{ total: number }];
  const items = await db
    .select(itemColumns)
    .from(commands)
    .innerJoin(devices, eq(devices.id, commands.deviceId))
    .leftJoin(accounts, eq(accounts.id, commands.accountId))
    .where(where)
    .orderBy(desc(commands.id))
    .offset(q.offset)
    .limit(q.limit);
  return { total: Number(total), items };
}
