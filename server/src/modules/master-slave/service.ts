// Master-slave bindings (SPEC §3): the master is a device of the caller's subtree (the binding is
// its owner's), its slaves tag MACs bound to no other master. A change is announced so the
// evaluator reloads the bindings.
import { eq, inArray, sql } from 'drizzle-orm';
import { State, masterSlave as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accounts, devices, masterSlaveBindings, masterSlaves } from '../../db/schema/index.js';
import { scopedCrud, type Tx } from '../../lib/crud.js';
import { conflict, fieldError, notFound } from '../../lib/errors.js';
import { accountInScope, subtreePattern } from '../../lib/scope.js';
import { contains, iso, isUniqueViolation, rows } from '../../lib/sql.js';
import { normalizeMac } from '../../indoor/keys.js';

export const BINDINGS_CHANGED_TOPIC = 'master-slave.changed';

type Body = z.output<typeof schemas.addBindingRequest>;

export const bindingCrud = scopedCrud({
  table: masterSlaveBindings,
  id: masterSlaveBindings.id,
  owner: masterSlaveBindings.ownerId,
  select: (db: Db) =>
    db
      .select({
        id: masterSlaveBindings.id,
        ownerId: masterSlaveBindings.ownerId,
        ownerName: accounts.loginName,
        deviceId: devices.id,
        imei: devices.imei,
        name: devices.name,
        timeout: masterSlaveBindings.timeoutSeconds,
        updatedAt: masterSlaveBindings.updatedAt,
      })
      .from(masterSlaveBindings)
      .innerJoin(accounts, eq(accounts.id, masterSlaveBindings.ownerId))
      .innerJoin(devices, eq(devices.id, masterSlaveBindings.masterDeviceId))
      .$dynamic(),
  notFound: 'bind.notFound',
  unique: 'bind.masterBound',
});
type Row = Awaited<ReturnType<typeof bindingCrud.get>>;

const changed = (ctx: AuthedContext) => ctx.deps.bus.publish(BINDINGS_CHANGED_TOPIC, {});

/** The bindings as answered: their slaves (with the devices they are) and the master's last position. */
async function withSlaves(db: Db, list: Row[]): Promise<schemas.Binding[]> {
  if (!list.length) return [];
  const ids = sql.join(list.map((r) => sql`${r.id}`), sql`, `);
  const slaves = await rows<{ binding_id: number; mac: string; name: string; last_heard: Date | null; rssi: number | null; separated: boolean; device_id: number | null }>(
    db,
    sql`SELECT s.binding_id, s.mac, s.name, s.last_heard, s.rssi, s.separated,
          (SELECT d.id FROM devices d WHERE d.ext_id IN (lower(s.mac), lower(replace(s.mac, ':', ''))) LIMIT 1) AS device_id
        FROM master_slaves s WHERE s.binding_id IN (${ids}) ORDER BY s.mac`,
  );
  const masters = sql.join(list.map((r) => sql`${r.deviceId}`), sql`, `);
  const states = await rows<{ device_id: number; lat: number | null; lon: number | null; accuracy: number | null }>(
    db,
    sql`SELECT device_id, lat, lon, CASE WHEN indoor_time >= fix_time THEN indoor_accuracy END AS accuracy FROM device_state WHERE device_id IN (${masters})`,
  );
  const stateOf = new Map(states.map((s) => [Number(s.device_id), s]));
  return list.map((r) => {
    const st = stateOf.get(Number(r.deviceId));
    return {
      BindingId: r.id,
      AccountId: r.ownerId,
      AccountName: r.ownerName,
      DeviceId: r.deviceId,
      Imei: r.imei,
      MasterName: r.name,
      TimeoutSeconds: r.timeout,
      Slaves: slaves
        .filter((s) => Number(s.binding_id) === r.id)
        .map((s) => ({ Mac: s.mac, Name: s.name, LastHeard: iso(s.last_heard), Rssi: s.rssi === null ? null : Number(s.rssi), Separated: s.separated, DeviceId: s.device_id === null ? null : Number(s.device_id) })),
      Lat: st?.lat === null || st?.lat === undefined ? null : Number(st.lat),
      Lon: st?.lon === null || st?.lon === undefined ? null : Number(st.lon),
      Accuracy: st?.accuracy === null || st?.accuracy === undefined ? null : Number(st.accuracy),
      UpdatedAt: iso(r.updatedAt)!,
    };
  });
}

/** The master device (in the caller's subtree) and the slaves' normalized MACs, each checked. */
async function check(ctx: AuthedContext, b: Body, bindingId?: number) {
  const { db } = ctx.deps.database;
  const [master] = await rows<{ id: number; account_id: number }>(
    db,
    sql`SELECT d.id, d.account_id FROM devices d JOIN accounts a ON a.id = d.account_id WHERE d.imei = ${b.Imei} AND a.path LIKE ${subtreePattern(ctx.user)}`,
  );
  if (!master) throw fieldError('Imei', 'bind.masterNotFound');
  const slaves = b.Slaves.map((s) => ({ mac: normalizeMac(s.Mac)!, name: s.Name }));
  const seen = new Set<string>();
  for (const [i, s] of slaves.entries()) {
    if (seen.has(s.mac)) throw fieldError(`Slaves.${i}.Mac`, 'bind.slaveTwice', { mac: s.mac });
    seen.add(s.mac);
  }
  const taken = await rows<{ mac: string }>(
    db,
    sql`SELECT mac FROM master_slaves WHERE mac IN (${sql.join(slaves.map((s) => sql`${s.mac}`), sql`, `)}) AND binding_id <> ${bindingId ?? 0}`,
  );
  if (taken.length) {
    const i = slaves.findIndex((s) => s.mac === taken[0]!.mac);
    throw fieldError(`Slaves.${i}.Mac`, 'bind.slaveTaken', { mac: taken[0]!.mac });
  }
  return { master: { id: Number(master.id), accountId: Number(master.account_id) }, slaves, timeout: b.TimeoutSeconds ?? ctx.deps.config.SLAVE_TIMEOUT_SECONDS };
}

/** Writes the slaves of a binding, keeping what is known of those that stay. */
async function writeSlaves(tx: Tx, bindingId: number, slaves: { mac: string; name: string }[]) {
  const keep = slaves.map((s) => s.mac);
  await tx.delete(masterSlaves).where(sql`${masterSlaves.bindingId} = ${bindingId} AND ${masterSlaves.mac} NOT IN (${sql.join(keep.map((m) => sql`${m}`), sql`, `)})`);
  for (const s of slaves)
    await tx
      .insert(masterSlaves)
      .values({ bindingId, mac: s.mac, name: s.name })
      .onConflictDoUpdate({ target: [masterSlaves.bindingId, masterSlaves.mac], set: { name: s.name } });
}

/** A slave bound meanwhile to another master (the unique MAC index) answers the same message. */
async function uniqueSlaves<R>(write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err) && /master_slaves/.test(String((err as { constraint?: string; cause?: { constraint?: string } }).constraint ?? (err as { cause?: { constraint?: string } }).cause?.constraint ?? '')))
      throw conflict('bind.slaveTaken', { mac: '' });
    if (isUniqueViolation(err)) throw conflict('bind.masterBound');
    throw err;
  }
}

export async function add(ctx: AuthedContext, b: Body) {
  const { db } = ctx.deps.database;
  const v = await check(ctx, b);
  const id = await uniqueSlaves(() =>
    db.transaction(async (tx) => {
      const [r] = await tx
        .insert(masterSlaveBindings)
        .values({ ownerId: v.master.accountId, masterDeviceId: v.master.id, timeoutSeconds: v.timeout })
        .returning({ id: masterSlaveBindings.id });
      await writeSlaves(tx, r!.id, v.slaves);
      return r!.id;
    }),
  );
  changed(ctx);
  return { State: State.OK, BindingId: id } as const;
}

export async function update(ctx: AuthedContext, b: Body & { BindingId: number }) {
  const { db } = ctx.deps.database;
  await bindingCrud.get(db, ctx.user, b.BindingId);
  const v = await check(ctx, b, b.BindingId);
  await uniqueSlaves(() =>
    db.transaction(async (tx) => {
      await tx
        .update(masterSlaveBindings)
        .set({ ownerId: v.master.accountId, masterDeviceId: v.master.id, timeoutSeconds: v.timeout, updatedAt: new Date() })
        .where(eq(masterSlaveBindings.id, b.BindingId));
      await writeSlaves(tx, b.BindingId, v.slaves);
    }),
  );
  changed(ctx);
  return { State: State.OK, BindingId: b.BindingId } as const;
}

export async function remove(ctx: AuthedContext, ids: number[]) {
  const out = await bindingCrud.remove(ctx.deps.database.db, ctx.user, ids, {
    before: async (tx, gone) => {
      await tx.delete(masterSlaves).where(inArray(masterSlaves.bindingId, gone));
    },
  });
  changed(ctx);
  return { State: State.OK, Succeeded: out.deleted.length, Failed: out.refused.map((r) => ({ Imei: String(r.id), Message: r.key })) } as const;
}

export async function list(ctx: AuthedContext, q: z.output<typeof schemas.bindingListRequest>) {
  const { db } = ctx.deps.database;
  const root = q.UserId !== undefined ? await accountInScope(db, ctx.user, q.UserId) : undefined;
  const kw = q.Keyword ? contains(q.Keyword) : undefined;
  const mac = q.Keyword ? normalizeMac(q.Keyword) : null;
  const { total, items } = await bindingCrud.list(db, ctx.user, {
    filters: [
      kw
        ? sql`(${devices.imei} ILIKE ${kw} OR ${devices.name} ILIKE ${kw} OR EXISTS (SELECT 1 FROM master_slaves s WHERE s.binding_id = ${masterSlaveBindings.id} AND (s.mac ILIKE ${kw} OR s.mac = ${mac ?? ''} OR s.name ILIKE ${kw})))`
        : undefined,
      root ? sql`${masterSlaveBindings.ownerId} IN (SELECT a.id FROM accounts a WHERE a.path LIKE ${`${root.path}%`})` : undefined,
    ],
    page: q,
  });
  return { State: State.OK, Total: total, Items: await withSlaves(db, items) } as const;
}

export async function search(ctx: AuthedContext, q: z.output<typeof schemas.bindingSearchRequest>) {
  const { db } = ctx.deps.database;
  const { items } = await bindingCrud.list(db, ctx.user, {
    filters: [q.BindingId !== undefined ? eq(masterSlaveBindings.id, q.BindingId) : undefined, q.Imei !== undefined ? eq(devices.imei, q.Imei) : undefined],
    page: { PageNo: 1, PageCount: 1 },
  });
  if (!items.length) throw notFound('bind.notFound');
  const [item] = await withSlaves(db, items);
  return { State: State.OK, Item: item! } as const;
}

/** Devices of the subtree (of `UserId` when given) that may be made masters, the bound ones marked. */
export async function candidates(ctx: AuthedContext, q: z.output<typeof schemas.masterCandidatesRequest>) {
  const { db } = ctx.deps.database;
  const root = await accountInScope(db, ctx.user, q.UserId);
  const kw = q.Keyword ? contains(q.Keyword) : '%';
  const found = await rows<{ id: number; imei: string; name: string; bound: boolean }>(
    db,
    sql`SELECT d.id, d.imei, d.name, EXISTS (SELECT 1 FROM master_slave_bindings b WHERE b.master_device_id = d.id) AS bound
        FROM devices d JOIN accounts a ON a.id = d.account_id
        WHERE a.path LIKE ${`${root.path}%`} AND (d.imei ILIKE ${kw} OR d.name ILIKE ${kw}) ORDER BY d.imei LIMIT 200`,
  );
  return { State: State.OK, Items: found.map((d) => ({ DeviceId: Number(d.id), Imei: d.imei, Name: d.name, Bound: d.bound })) } as const;
}
