// The Devices area's rules: list and detail, add, bind and unbind, delete, move between accounts
// and create an account with devices (SPEC §3, §4, §5, §8). IMEIs outside the caller's subtree are
// treated exactly like unknown ones.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { State, type device as deviceSchemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext, AuthUser } from '../../calls.js';
import type { Db } from '../../db/client.js';
import {
  accounts,
  alarms,
  commandDictionary,
  commands,
  deviceEvents,
  deviceFenceState,
  deviceFences,
  deviceGroups,
  deviceModels,
  devicePersons,
  deviceProtocols,
  deviceRoles,
  deviceState,
  devices,
  healthReadings,
  healthThresholds,
  positions,
  pushOutbox,
} from '../../db/schema/index.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { hashPassword } from '../../lib/passwords.js';
import { accountInScope, isInSubtree, ownedBySubtree, type AccountRow } from '../../lib/scope.js';
import { importPace, inSlices, intArray, rows, type ImportPace } from '../../lib/sql.js';
import { TOPICS, type DeviceChangedEvent } from '../../pipeline/events.js';
import { REALTIME_TOPICS, type SessionsEndedEvent } from '../../realtime/topics.js';
import { insertAccounts } from '../user/repo.js';
import { OWNED_TABLES, TREE_LOCK } from '../account/repo.js';
import { invalidateAccounts } from '../account/access.js';
import { removeDeviceFenceData } from '../account-fence/cleanup.js';
import { deletionBlocks } from './blockers.js';
import { BINDINGS_CHANGED_TOPIC } from '../master-slave/service.js';
import { deviceRowsWhere, devicesByIds, devicesByImeis, existingImeis, listDevices, toItem, type ScopedDevice } from './repo.js';

type Req<K extends keyof typeof deviceSchemas> = (typeof deviceSchemas)[K] extends z.ZodType ? z.output<(typeof deviceSchemas)[K]> : never;
export interface Failure {
  Imei: string;
  Message: string;
  Params?: Record<string, unknown>;
}

const unique = <T,>(xs: T[]) => [...new Set(xs)];

export function announce(ctx: Pick<AuthedContext, 'deps'>, list: { id?: number; imei?: string }[]) {
  for (const d of list) ctx.deps.bus.publish(TOPICS.changed, { imei: d.imei, deviceId: d.id } satisfies DeviceChangedEvent);
}

export async function list(ctx: AuthedContext, q: Req<'deviceListRequest'>) {
  const account = await accountInScope(ctx.deps.database.db, ctx.user, q.UserId);
  const r = await listDevices(ctx.deps.database.db, account.path, q.IncludeSubAccounts, account.id, q);
  return { State: State.OK, Total: r.total, Items: r.items };
}

export async function detail(ctx: AuthedContext, q: Req<'deviceDetailRequest'>) {
  const cond = q.DeviceId ? sql`devices.id = ${q.DeviceId}` : sql`devices.imei = ${q.Imei!}`;
  const [row] = await deviceRowsWhere(ctx.deps.database.db, ctx.user, cond);
  if (!row) throw notFound('device.notFound');
  return {
    State: State.OK,
    Item: { ...toItem(row), Battery: row.battery, Signal: row.signal, Steps: row.steps, ModelFunctions: row.functions ?? {} },
  } as const;
}

/** An administrator's settings of one device: the networks it may connect from. */
export async function edit(ctx: AuthedContext, b: Req<'editDeviceRequest'>) {
  const { db } = ctx.deps.database;
  const [row] = await db
    .update(devices)
    .set({ allowedNetworks: b.AllowedNetworks })
    .where(and(eq(devices.id, b.DeviceId), ownedBySubtree(devices.accountId, ctx.user)))
    .returning({ id: devices.id, imei: devices.imei });
  if (!row) throw notFound('device.notFound');
  // The gateways read the device again: its connections from elsewhere lose it at once.
  announce(ctx, [row]);
  const [item] = await deviceRowsWhere(db, ctx.user, sql`devices.id = ${row.id}`);
  return { State: State.OK, Item: toItem(item!) } as const;
}

export interface ModelRef {
  id: number;
  name: string;
  protocol: string;
}

export async function modelRef(db: Db, modelId: number): Promise<ModelRef | undefined> {
  const [m] = await db
    .select({ id: deviceModels.id, name: deviceModels.name, protocol: deviceProtocols.code })
    .from(deviceModels)
    .innerJoin(deviceProtocols, eq(deviceProtocols.id, deviceModels.protocolId))
    .where(eq(deviceModels.id, modelId));
  return m ? { ...m, protocol: m.protocol.toLowerCase() } : undefined;
}

/** A group or role id given with a device must belong to the caller's subtree. */
async function checkAttachments(db: Db, user: AuthUser, groupId?: number, roleId?: number) {
  if (groupId) {
    const [g] = await db.select({ id: deviceGroups.id }).from(deviceGroups).where(and(eq(deviceGroups.id, groupId), ownedBySubtree(deviceGroups.accountId, user)));
    if (!g) throw notFound('device.groupNotFound');
  }
  if (roleId) {
    const [r] = await db.select({ id: deviceRoles.id }).from(deviceRoles).where(and(eq(deviceRoles.id, roleId), ownedBySubtree(deviceRoles.accountId, user)));
    if (!r) throw notFound('device.roleNotFound');
  }
}

export function newDeviceValues(imei: string, name: string, model: ModelRef, accountId: number, bound: boolean, iccid = '', now = new Date()) {
  return {
    imei,
    shortId: imei.slice(-10),
    name,
    modelId: model.id,
    modelName: model.name,
    protocol: model.protocol,
    accountId,
    bound,
    iccid,
    stockInAt: now,
    activatedAt: bound ? now : null,
  } satisfies typeof devices.$inferInsert;
}

export async function add(ctx: AuthedContext, b: Req<'addDeviceRequest'>) {
  const { db } = ctx.deps.database;
  const account = await accountInScope(db, ctx.user, b.UserId);
  const model = await modelRef(db, b.ModelId);
  if (!model) throw new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: 'ModelId', Message: 'device.modelNotFound' }]);
  await checkAttachments(db, ctx.user, b.GroupId, b.RoleId);
  if ((await existingImeis(db, [b.Imei])).size) throw conflict('device.imeiExists', { imei: b.Imei });
  const [row] = await db
    .insert(devices)
    .values({ ...newDeviceValues(b.Imei, b.Name, model, account.id, b.Bound, b.Iccid ?? ''), softwareVersion: b.SoftwareVersion ?? '', groupId: b.GroupId, roleId: b.RoleId })
    .onConflictDoNothing()
    .returning({ id: devices.id });
  if (!row) throw conflict('device.imeiExists', { imei: b.Imei });
  announce(ctx, [{ id: row.id, imei: b.Imei }]);
  const [item] = await deviceRowsWhere(db, ctx.user, sql`devices.id = ${row.id}`);
  return { State: State.OK, Item: toItem(item!) } as const;
}

export async function batchAdd(ctx: AuthedContext, b: Req<'batchAddRequest'>) {
  const { db } = ctx.deps.database;
  const account = await accountInScope(db, ctx.user, b.UserId);
  const model = await modelRef(db, b.ModelId);
  if (!model) throw new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: 'ModelId', Message: 'device.modelNotFound' }]);
  const failed: Failure[] = [];
  const seen = new Set<string>();
  const taken = await existingImeis(db, b.Imeis);
  const now = new Date();
  const values: (typeof devices.$inferInsert)[] = [];
  b.Imeis.forEach((imei, i) => {
    if (seen.has(imei)) return failed.push({ Imei: imei, Message: 'device.imeiDuplicate', Params: { imei } });
    seen.add(imei);
    if (taken.has(imei)) return failed.push({ Imei: imei, Message: 'device.imeiExists', Params: { imei } });
    const name = b.NamePrefix ? `${b.NamePrefix}${imei.slice(-6)}` : imei;
    values.push(newDeviceValues(imei, name, model, account.id, b.Bound, b.Iccids[i] ?? '', now));
  });
  const inserted = values.length ? await db.insert(devices).values(values).onConflictDoNothing().returning({ id: devices.id, imei: devices.imei }) : [];
  // Added meanwhile by someone else: reported like the others.
  const got = new Set(inserted.map((r) => r.imei));
  for (const v of values) if (!got.has(v.imei)) failed.push({ Imei: v.imei, Message: 'device.imeiExists', Params: { imei: v.imei } });
  announce(ctx, inserted);
  return { State: State.OK, Succeeded: inserted.length, Failed: failed } as const;
}

export async function bind(ctx: AuthedContext, b: Req<'batchBindRequest'>) {
  const { db } = ctx.deps.database;
  const target = b.UserId ? await accountInScope(db, ctx.user, b.UserId) : undefined;
  const found = await devicesByImeis(db, ctx.user, b.Imeis);
  const failed: Failure[] = [];
  const ok: ScopedDevice[] = [];
  for (const imei of unique(b.Imeis)) {
    const d = found.get(imei);
    if (!d) failed.push({ Imei: imei, Message: 'device.missing' });
    else if (d.bound) failed.push({ Imei: imei, Message: 'device.alreadyBound' });
    else ok.push(d);
  }
  if (ok.length) {
    const ids = ok.map((d) => d.id);
    await db.transaction(async (tx) => {
      await tx
        .update(devices)
        .set({ bound: true, activatedAt: sql`coalesce(${devices.activatedAt}, now())`, ...(target ? { accountId: target.id } : {}) })
        .where(inArray(devices.id, ids));
      if (target) await dropForeignAttachments(tx as unknown as Db, ids);
    });
    announce(ctx, ok);
  }
  return { State: State.OK, Succeeded: ok.length, Failed: failed } as const;
}

async function unbindDevices(ctx: AuthedContext, wanted: { imei: string; d: ScopedDevice | undefined }[], switchedTo?: number) {
  const { db } = ctx.deps.database;
  if (switchedTo) await accountInScope(db, ctx.user, switchedTo);
  const failed: Failure[] = [];
  const ok: ScopedDevice[] = [];
  for (const { imei, d } of wanted) {
    if (!d) failed.push({ Imei: imei, Message: 'device.missing' });
    else if (!d.bound) failed.push({ Imei: imei, Message: 'device.alreadyUnbound' });
    else if (switchedTo && d.account_id !== switchedTo) failed.push({ Imei: imei, Message: 'device.accountNotSwitched' });
    else ok.push(d);
  }
  if (ok.length) {
    await db.update(devices).set({ bound: false }).where(inArray(devices.id, ok.map((d) => d.id)));
    announce(ctx, ok);
  }
  return { State: State.OK, Succeeded: ok.length, Failed: failed } as const;
}

export async function unbindOne(ctx: AuthedContext, b: Req<'unbindRequest'>) {
  const db = ctx.deps.database.db;
  const d = b.DeviceId ? (await devicesByIds(db, ctx.user, [b.DeviceId]))[0] : (await devicesByImeis(db, ctx.user, [b.Imei!])).get(b.Imei!);
  if (b.DeviceId && b.Imei && d && d.imei !== b.Imei) throw notFound('device.notFound');
  const r = await unbindDevices(ctx, [{ imei: d?.imei ?? b.Imei ?? String(b.DeviceId), d }], b.UserId);
  // A single unbind is refused as a whole, with the §8 reason.
  if (r.Failed.length) throw new AppError(r.Failed[0]!.Message === 'device.missing' ? State.NOT_FOUND : State.CONFLICT, r.Failed[0]!.Message);
  return r;
}

export async function unbindMany(ctx: AuthedContext, b: Req<'batchUnbindRequest'>) {
  const found = await devicesByImeis(ctx.deps.database.db, ctx.user, b.Imeis);
  return unbindDevices(ctx, unique(b.Imeis).map((imei) => ({ imei, d: found.get(imei) })), b.UserId);
}

/**
 * Deletes devices with everything recorded about them (alarms included), unless something still
 * depends on them. The checks and the deletion run in one transaction with the devices locked, so
 * nothing placed on a device between the check and the deletion is left pointing at nothing.
 */
async function deleteDevices(ctx: AuthedContext, wanted: { imei: string; d: ScopedDevice | undefined }[]) {
  const { db } = ctx.deps.database;
  const present = wanted.filter((w) => w.d).map((w) => w.d!);
  const { failed, ok } = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const failed: Failure[] = [];
    const ok: ScopedDevice[] = [];
    if (present.length) await rows(t, sql`SELECT id FROM devices WHERE id = ANY(${intArray(present.map((d) => d.id))}) ORDER BY id FOR UPDATE`);
    const blocks = await deletionBlocks(t, present.map((d) => d.id));
    for (const { imei, d } of wanted) {
      if (!d) failed.push({ Imei: imei, Message: 'device.missing' });
      else if (blocks.has(d.id)) failed.push({ Imei: imei, Message: blocks.get(d.id)! });
      else ok.push(d);
    }
    if (ok.length) await purgeDevices(t, ok.map((d) => d.id));
    return { failed, ok };
  });
  if (ok.length) {
    announce(ctx, ok);
    // The master-slave evaluator forgets the bindings of deleted masters.
    ctx.deps.bus.publish(BINDINGS_CHANGED_TOPIC, {});
  }
  return { State: State.OK, Succeeded: ok.length, Failed: failed } as const;
}

/**
 * Deletes devices with everything recorded about them, in the caller's transaction. Every table
 * that refers to a device (a `device_id`-like column) is either cleaned here or refuses the
 * deletion (blockers.ts); the deletion test walks the schema so a new table is not forgotten.
 */
export async function purgeDevices(tx: Db, ids: number[]) {
  // The devices first: the alarm engine locks a device before it raises an alarm for it, so an
  // alarm being raised now has either committed (and goes below) or finds no device.
  // One array parameter, however many devices (a list of one parameter per id is slow to build).
  const list = intArray(ids);
  await tx.delete(devices).where(sql`${devices.id} = ANY(${list})`);
  // Their alarms go with them, so that every count of alarms (dashboard, lists, "type in use")
  // agrees with the lists; so do the partner pushes not yet delivered. Delivered and failed
  // pushes stay as the record of what partners were sent.
  await tx.delete(pushOutbox).where(
    and(eq(pushOutbox.status, 'pending'), inArray(pushOutbox.alarmId, tx.select({ id: alarms.id }).from(alarms).where(sql`${alarms.deviceId} = ANY(${list})`))),
  );
  // Their alarms' timelines go with the alarms.
  await tx.execute(sql`DELETE FROM alarm_events WHERE alarm_id IN (SELECT id FROM alarms WHERE device_id = ANY(${list}))`);
  for (const [table, col] of [
    [alarms, alarms.deviceId],
    [healthThresholds, healthThresholds.deviceId],
    [deviceFenceState, deviceFenceState.deviceId],
    [deviceFences, deviceFences.deviceId],
    [devicePersons, devicePersons.deviceId],
    [deviceState, deviceState.deviceId],
    [positions, positions.deviceId],
    [healthReadings, healthReadings.deviceId],
    [deviceEvents, deviceEvents.deviceId],
  ] as const) {
    await tx.delete(table).where(sql`${col} = ANY(${list})`);
  }
  // The commands, and their place in the message sends that sent them.
  await tx.execute(sql`DELETE FROM message_send_commands WHERE command_id IN (SELECT id FROM commands WHERE device_id = ANY(${list}))`);
  await tx.delete(commands).where(sql`${commands.deviceId} = ANY(${list})`);
  // A deleted master's binding goes with its slaves, so their MACs can be bound again.
  await tx.execute(sql`DELETE FROM master_slaves WHERE binding_id IN (SELECT id FROM master_slave_bindings WHERE master_device_id = ANY(${list}))`);
  await tx.execute(sql`DELETE FROM master_slave_bindings WHERE master_device_id = ANY(${list})`);
  // The asset the tag was, its sides of locations and their crossings.
  for (const table of ['assets', 'beacon_location_presence', 'beacon_location_events'])
    await tx.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE device_id = ANY(${list})`);
  // A stock item keeps its record of the sale; the device it became is gone.
  await tx.execute(sql`UPDATE inv_items SET device_id = NULL WHERE device_id = ANY(${list})`);
  await removeDeviceFenceData(tx, ids);
}

export async function deleteByIds(ctx: AuthedContext, b: Req<'deleteByIdsRequest'>) {
  const ids = unique(b.DeviceIds);
  const found = new Map((await devicesByIds(ctx.deps.database.db, ctx.user, ids)).map((d) => [d.id, d]));
  return deleteDevices(ctx, ids.map((id) => ({ imei: found.get(id)?.imei ?? String(id), d: found.get(id) })));
}

export async function deleteByImeis(ctx: AuthedContext, b: Req<'deleteByImeisRequest'>) {
  const found = await devicesByImeis(ctx.deps.database.db, ctx.user, b.Imeis);
  return deleteDevices(ctx, unique(b.Imeis).map((imei) => ({ imei, d: found.get(imei) })));
}

/**
 * Groups and roles of accounts that are not a moved device's new account or above it do not follow
 * the device (called after the move, in its transaction).
 */
async function dropForeignAttachments(tx: Db, ids: number[]) {
  await tx.execute(sql`UPDATE devices SET group_id = NULL FROM accounts t WHERE t.id = devices.account_id AND devices.id = ANY(${intArray(ids)}) AND group_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM device_groups g JOIN accounts a ON a.id = g.account_id WHERE g.id = devices.group_id AND t.path LIKE a.path || '%')`);
  await tx.execute(sql`UPDATE devices SET role_id = NULL FROM accounts t WHERE t.id = devices.account_id AND devices.id = ANY(${intArray(ids)}) AND role_id IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM device_roles r JOIN accounts a ON a.id = r.account_id WHERE r.id = devices.role_id AND t.path LIKE a.path || '%')`);
}

/** Moves the caller's devices to an account of its subtree (SPEC §8 move failures). */
export async function move(ctx: AuthedContext, b: Req<'moveRequest'>) {
  const { db } = ctx.deps.database;
  const [target] = await db.select().from(accounts).where(and(eq(accounts.id, b.TargetUserId), ownedBySubtree(accounts.id, ctx.user)));
  if (!target) throw new AppError(State.FORBIDDEN, 'device.moveNotSubAccount');
  const found = await devicesByImeis(db, ctx.user, b.Imeis);
  const failed: Failure[] = [];
  const ok: ScopedDevice[] = [];
  for (const imei of unique(b.Imeis)) {
    const d = found.get(imei);
    if (!d) failed.push({ Imei: imei, Message: 'device.moveNotRegistered' });
    else if (d.account_id === target.id) failed.push({ Imei: imei, Message: 'device.moveSameAccount' });
    else ok.push(d);
  }
  if (ok.length) {
    const ids = ok.map((d) => d.id);
    await db.transaction(async (tx) => {
      await tx.update(devices).set({ accountId: target.id }).where(inArray(devices.id, ids));
      await dropForeignAttachments(tx as unknown as Db, ids);
    });
    announce(ctx, ok);
  }
  return { State: State.OK, Succeeded: ok.length, Failed: failed } as const;
}

export interface NewAccountRows {
  loginName: string;
  password: string;
  username?: string;
  email?: string;
  devices: { imei: string; iccid?: string; modelId?: number; name?: string; row?: number }[];
}

/**
 * Checks an account-with-devices request against the database: the login name must be free, each
 * IMEI either the caller's (moved) or unknown (created with a model). Looked up a slice of names or
 * IMEIs at a time. Answers the refusals.
 */
export async function planAccountDevices(db: Db, user: AuthUser, req: NewAccountRows[], pace: ImportPace) {
  const failures: (Failure & { row?: number; column?: string })[] = [];
  const allImeis = req.flatMap((r) => r.devices.map((d) => d.imei));
  const mine = new Map<string, ScopedDevice>();
  const anywhere = new Set<string>();
  await inSlices(allImeis, pace, async (part) => {
    for (const [imei, d] of await devicesByImeis(db, user, part)) mine.set(imei, d);
    for (const imei of await existingImeis(db, part)) anywhere.add(imei);
  });
  const taken = new Set<string>();
  await inSlices(req.map((r) => r.loginName.trim().toLowerCase()), pace, async (part) => {
    const found = await rows<{ l: string }>(db, sql`SELECT lower(login_name) AS l FROM accounts WHERE lower(login_name) IN (SELECT json_array_elements_text(${JSON.stringify(part)}::json))`);
    for (const r of found) taken.add(r.l);
  });
  const modelIds = unique(req.flatMap((r) => r.devices.map((d) => d.modelId)).filter((x): x is number => !!x));
  const models = new Map<number, ModelRef>();
  for (const id of modelIds) {
    const m = await modelRef(db, id);
    if (m) models.set(id, m);
  }
  const seen = new Set<string>();
  for (const r of req) {
    if (taken.has(r.loginName.trim().toLowerCase())) failures.push({ Imei: '', Message: 'device.accountExists', Params: { loginName: r.loginName }, row: r.devices[0]?.row, column: 'LoginName' });
    for (const d of r.devices) {
      const fail = (Message: string, column: string, Params?: Record<string, unknown>) => failures.push({ Imei: d.imei, Message, Params, row: d.row, column });
      if (seen.has(d.imei)) fail('device.imeiDuplicate', 'IMEI', { imei: d.imei });
      seen.add(d.imei);
      if (mine.has(d.imei)) continue;
      if (anywhere.has(d.imei)) fail('device.imeiExists', 'IMEI', { imei: d.imei });
      else if (!d.modelId) fail('device.modelRequiredForNew', 'Model', { imei: d.imei });
      else if (!models.has(d.modelId)) fail('device.modelNotFound', 'Model');
    }
  }
  return { failures, mine, models };
}

type Plan = Awaited<ReturnType<typeof planAccountDevices>>;
/** One row an import writes: an account, or one of its devices. */
type ImportRow = { account: NewAccountRows; device?: NewAccountRows['devices'][number] };

/** What the committed slices of an import did, as it was before: undone if a later slice fails. */
interface Written {
  accounts: number[];
  created: number[];
  moved: ScopedDevice[];
}

/**
 * Creates the accounts below `parent` and gives them their devices (the caller's are moved, the
 * others created). Passwords are hashed first, outside any transaction; then the rows (an account
 * or a device each) are written IMPORT_CHUNK_ROWS at a time, each slice in a transaction of its
 * own, so that device acknowledgements and other calls get the database between slices. A slice
 * that fails undoes the slices before it: the request is applied whole or not at all.
 */
export async function applyAccountDevices(ctx: AuthedContext, parent: AccountRow, req: NewAccountRows[], plan: Plan) {
  const { db } = ctx.deps.database;
  const pace = importPace(ctx.deps);
  const hashes = new Map<NewAccountRows, string>();
  for (const r of req) hashes.set(r, await hashPassword(r.password));
  const now = new Date();
  const accountIds = new Map<NewAccountRows, number>();
  const written: Written = { accounts: [], created: [], moved: [] };
  const touched: { id?: number; imei: string }[] = [];
  const list: ImportRow[] = req.flatMap((r) => [{ account: r }, ...r.devices.map((device) => ({ account: r, device }))]);
  let at: ImportRow | undefined;
  try {
    await inSlices(list, pace, async (part) => {
      at = part[0];
      const done = await db.transaction(async (tx) => {
        const t = tx as unknown as Db;
        // A move of the parent's subtree waits for this slice, or this slice for the move.
        await t.execute(sql`SELECT pg_advisory_xact_lock_shared(${TREE_LOCK})`);
        const [p] = await rows<{ path: string }>(t, sql`SELECT path FROM accounts WHERE id = ${parent.id} FOR SHARE`);
        if (!p || !isInSubtree(ctx.user, p.path)) throw new AppError(State.FORBIDDEN, 'account.notInScope');
        const fresh = part.filter((w) => !w.device).map((w) => w.account);
        const made = await insertAccounts(
          t,
          { id: parent.id, path: p.path },
          fresh.map((r) => ({ loginName: r.loginName, passwordHash: hashes.get(r)!, kind: 'user', userType: 1, username: r.username ?? r.loginName, email: r.email ?? '' })),
        );
        const madeIds = new Map(made.map((m) => [m.login_name.toLowerCase(), Number(m.id)]));
        const ids = new Map(accountIds);
        for (const r of fresh) ids.set(r, madeIds.get(r.loginName.toLowerCase())!);
        const rowsOf = (mine: boolean) => part.filter((w) => w.device && plan.mine.has(w.device.imei) === mine) as Required<ImportRow>[];
        const moving = rowsOf(true);
        if (moving.length) {
          const json = JSON.stringify(moving.map((w) => ({ id: plan.mine.get(w.device.imei)!.id, acc: ids.get(w.account), iccid: w.device.iccid ?? '' })));
          await t.execute(sql`UPDATE devices d SET account_id = x.acc, iccid = CASE WHEN x.iccid = '' THEN d.iccid ELSE x.iccid END
            FROM json_to_recordset(${json}::json) AS x(id int, acc int, iccid text) WHERE d.id = x.id`);
          await dropForeignAttachments(t, moving.map((w) => plan.mine.get(w.device.imei)!.id));
        }
        const creating = rowsOf(false).map((w) =>
          newDeviceValues(w.device.imei, w.device.name || w.device.imei, plan.models.get(w.device.modelId!)!, ids.get(w.account)!, true, w.device.iccid ?? '', now),
        );
        const created = await insertDevices(t, creating);
        return { ids, made: [...madeIds.values()], created, moved: moving.map((w) => plan.mine.get(w.device.imei)!) };
      });
      // Committed: what to undo should a later slice fail.
      for (const [r, id] of done.ids) accountIds.set(r, id);
      written.accounts.push(...done.made);
      written.created.push(...done.created.map((c) => Number(c.id)));
      written.moved.push(...done.moved);
      touched.push(...done.created.map((c) => ({ id: Number(c.id), imei: c.imei })), ...done.moved.map((d) => ({ id: d.id, imei: d.imei })));
    });
  } catch (err) {
    const row = at?.device?.row ?? at?.account.devices[0]?.row ?? 0;
    try {
      await undoAccountDevices(ctx, written);
    } catch (undoErr) {
      ctx.deps.log.error({ err, undoErr, row }, 'account and device import failed and could not be undone');
      throw new AppError(State.INTERNAL, 'device.importPartial', { row });
    } finally {
      announce(ctx, touched);
    }
    // A refusal (the parent account left the caller's reach meanwhile) is answered as it is.
    if (err instanceof AppError) throw err;
    ctx.deps.log.error({ err, row }, 'account and device import failed, undone');
    throw new AppError(State.INTERNAL, 'device.importFailed', { row });
  }
  announce(ctx, touched);
  return req.map((r) => {
    const moved = r.devices.filter((d) => plan.mine.has(d.imei)).length;
    return { loginName: r.loginName, userId: accountIds.get(r)!, moved, created: r.devices.length - moved };
  });
}

/** New devices in one statement, however many (one JSON parameter). */
async function insertDevices(t: Db, values: ReturnType<typeof newDeviceValues>[]) {
  if (!values.length) return [];
  const json = JSON.stringify(
    values.map((v) => ({ imei: v.imei, short_id: v.shortId, name: v.name, model_id: v.modelId, model_name: v.modelName, protocol: v.protocol, account_id: v.accountId, bound: v.bound, iccid: v.iccid, stock_in_at: v.stockInAt, activated_at: v.activatedAt })),
  );
  return rows<{ id: number; imei: string }>(
    t,
    sql`INSERT INTO devices (imei, short_id, name, model_id, model_name, protocol, account_id, bound, iccid, stock_in_at, activated_at)
        SELECT imei, short_id, name, model_id, model_name, protocol, account_id, bound, iccid, stock_in_at, activated_at
        FROM json_populate_recordset(NULL::devices, ${json}::json)
        RETURNING id, imei`,
  );
}

/** Undoes the committed slices of an import: created devices and accounts go, moved devices return. */
async function undoAccountDevices(ctx: AuthedContext, written: Written) {
  const { db } = ctx.deps.database;
  const pace = importPace(ctx.deps);
  // With anything recorded about the created devices meanwhile.
  await inSlices(written.created, pace, (ids) => db.transaction((tx) => purgeDevices(tx as unknown as Db, ids)));
  await inSlices(written.moved, pace, async (part) => {
    const json = JSON.stringify(part.map((d) => ({ id: d.id, acc: d.account_id, iccid: d.iccid, g: d.group_id, r: d.role_id })));
    await db.execute(sql`UPDATE devices d SET account_id = x.acc, iccid = x.iccid, group_id = x.g, role_id = x.r
      FROM json_to_recordset(${json}::json) AS x(id int, acc int, iccid text, g int, r int) WHERE d.id = x.id`);
  });
  // With what they hold (the sessions of a login meanwhile).
  await inSlices(written.accounts, pace, (ids) =>
    db.transaction(async (tx) => {
      for (const table of OWNED_TABLES) await tx.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE account_id = ANY(${intArray(ids)})`);
      await tx.execute(sql`DELETE FROM accounts WHERE id = ANY(${intArray(ids)})`);
    }),
  );
  invalidateAccounts(ctx, written.accounts);
  for (const accountId of written.accounts) ctx.deps.bus.publish(REALTIME_TOPICS.sessionsEnded, { accountId } satisfies SessionsEndedEvent);
}

export async function createUserWithDevices(ctx: AuthedContext, b: Req<'createUserWithDevicesRequest'>) {
  const { db } = ctx.deps.database;
  const parent = await accountInScope(db, ctx.user, b.ParentUserId);
  const req: NewAccountRows[] = [
    {
      loginName: b.LoginName,
      password: b.Password,
      username: b.Username,
      email: b.Email,
      devices: b.Imeis.map((imei, i) => ({ imei, iccid: b.Iccids[i], modelId: b.ModelId, row: i + 1 })),
    },
  ];
  const refuse = (plan: Plan) => {
    if (!plan.failures.length) return;
    throw new AppError(
      plan.failures[0]!.Message === 'device.accountExists' ? State.CONFLICT : State.BAD_REQUEST,
      plan.failures[0]!.Message,
      plan.failures[0]!.Params,
      plan.failures.map((f) => ({ Field: f.Imei ? `Imeis.${b.Imeis.indexOf(f.Imei)}` : 'LoginName', Message: f.Message, Params: f.Params })),
    );
  };
  const pace = importPace(ctx.deps);
  const plan = await planAccountDevices(db, ctx.user, req, pace);
  refuse(plan);
  const [r] = await applyAccountDevices(ctx, parent, req, plan).catch(async (err: unknown) => {
    // Undone. A login name or IMEI taken meanwhile is refused as the checks refuse it.
    refuse(await planAccountDevices(db, ctx.user, req, pace));
    throw err;
  });
  return { State: State.OK, UserId: r!.userId, LoginName: r!.loginName, Moved: r!.moved, Created: r!.created } as const;
}

export async function dictionary(ctx: AuthedContext, b: Req<'dictionaryRequest'>) {
  const { db } = ctx.deps.database;
  const account = await accountInScope(db, ctx.user, b.UserId);
  const scope = { path: account.path };
  const models = await db
    .select({ id: deviceModels.id, name: deviceModels.name, type: deviceModels.type, protocol: deviceProtocols.code, commands: deviceModels.commands })
    .from(deviceModels)
    .innerJoin(deviceProtocols, eq(deviceProtocols.id, deviceModels.protocolId))
    .orderBy(deviceModels.name);
  const groups = await db.select().from(deviceGroups).where(ownedBySubtree(deviceGroups.accountId, scope)).orderBy(deviceGroups.name);
  const roles = await db.select().from(deviceRoles).where(ownedBySubtree(deviceRoles.accountId, scope)).orderBy(deviceRoles.name);
  const versions = await rows<{ v: string }>(
    db,
    sql`SELECT DISTINCT software_version AS v FROM devices WHERE ${ownedBySubtree(devices.accountId, scope)} AND software_version <> '' ORDER BY 1 LIMIT 200`,
  );
  const { ROLE_COLORS, ROLE_SHAPES } = await import('@wt/contract').then((c) => c.device);
  return {
    State: State.OK as typeof State.OK,
    Models: models.map((m) => ({ ModelId: m.id, Name: m.name, Type: m.type, Protocol: m.protocol, Commands: m.commands })),
    Groups: groups.map((g) => ({ GroupId: g.id, Name: g.name, AccountId: g.accountId })),
    Roles: roles.map((r) => ({ RoleId: r.id, Name: r.name, Color: r.color as (typeof ROLE_COLORS)[number], Shape: r.shape as (typeof ROLE_SHAPES)[number] })),
    Colors: [...ROLE_COLORS],
    Shapes: [...ROLE_SHAPES],
    SoftwareVersions: versions.map((v) => v.v),
  };
}

export { commandDictionary };
