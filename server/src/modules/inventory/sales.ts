// Sales: IMEIs (picked or scanned, or the oldest of a model in stock) leave the stock for a customer
// account, where they appear unbound in its device list, ready to bind: devices unknown to the
// platform are created, unbound ones of the seller's subtree are moved. A model without stock
// cannot be sold (SPEC §5). Voiding a sale reverses exactly that: created devices go, moved ones go
// back, the items return to stock with compensating moves; refused while any of its devices has
// since been bound, moved or has sent data.
import { and, desc, eq, sql } from 'drizzle-orm';
import { State, inventory as schemas, type FieldError } from '@wt/contract';
const { ITEM_STATES } = schemas;
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accounts, invItems, invModels, invSales } from '../../db/schema/index.js';
import { scopedCrud, type Tx } from '../../lib/crud.js';
import { AppError, notFound } from '../../lib/errors.js';
import { accountInScope, isInSubtree, ownedBySubtree } from '../../lib/scope.js';
import { contains, intArray, rows, textArray } from '../../lib/sql.js';
import { sentInstant, shownTime, shownTimeOrNull, viewerDay } from '../../lib/time.js';
import { announce, modelRef, purgeDevices } from '../device/service.js';
import { checkRefs, models } from './dictionaries.js';
import { applyMoves, balanceOf, groupMoves } from './ledger.js';

type Req<K extends keyof typeof schemas> = (typeof schemas)[K] extends z.ZodType ? z.output<(typeof schemas)[K]> : never;
/** Refusals listed per IMEI in a refused sale or void, at most this many. */
const MAX_LISTED = 100;

interface Picked {
  id: number;
  imei: string;
  iccid: string;
  model_id: number;
  store_id: number;
  state: number;
  account_id: number;
}

function refuseImeis(key: string, failures: { index: number; imei: string; message: string }[]): never {
  const fields: FieldError[] = failures.slice(0, MAX_LISTED).map((f) => ({ Field: `Imeis.${f.index}`, Message: f.message, Params: { imei: f.imei } }));
  throw new AppError(State.CONFLICT, key, { count: failures.length, imei: failures[0]!.imei }, fields);
}


/** What a hand-over of items to a customer account needs (an inventory sale, or an ERP delivery's). */
export interface HandOver {
  /** The account keeping the stock (the model's). */
  accountId: number;
  modelId: number;
  storeId?: number;
  /** The IMEIs asked for, or (none) the oldest `quantity` items of the model in stock. */
  imeis: string[];
  quantity?: number;
  customerId: number;
  soldAt: Date;
  expiresAt: Date | null;
  expiries?: (Date | undefined)[];
  remark: string;
  /** The document the ledger moves name (default: the inventory sale itself). */
  doc?: { docType: string; docId: number };
}

/**
 * Hands items over to a customer account in the caller's transaction: locks and checks them (one
 * IMEI is sold once), writes the inventory sale, moves or creates the devices, marks the items sold
 * and posts the ledger moves. The caller announces `handed` after its commit.
 */
export async function handOverItems(tx: Tx | Db, ctx: AuthedContext, h: HandOver) {
  const t = tx as Db;
  const model = await models.get(t, ctx.user, h.modelId);
  const catalogue = model.deviceModelId ? await modelRef(t, model.deviceModelId) : undefined;
  let items: Picked[];
  if (h.imeis.length) {
    const found = new Map(
      (await rows<Picked>(t, sql`SELECT id, imei, iccid, model_id, store_id, state, account_id FROM inv_items
          WHERE imei = ANY(${textArray(h.imeis)}) AND ${ownedBySubtree(invItems.accountId, ctx.user)} ORDER BY id FOR UPDATE`)).map((r) => [r.imei, r]),
    );
    const failures: { index: number; imei: string; message: string }[] = [];
    const seen = new Set<string>();
    items = [];
    h.imeis.forEach((imei, index) => {
      const it = found.get(imei);
      if (seen.has(imei)) failures.push({ index, imei, message: 'device.imeiDuplicate' });
      else if (!it || it.state !== ITEM_STATES.inStock) failures.push({ index, imei, message: 'inventory.imeiNotInStock' });
      else if (it.model_id !== h.modelId) failures.push({ index, imei, message: 'inventory.imeiOtherModel' });
      else if (h.storeId && it.store_id !== h.storeId) failures.push({ index, imei, message: 'inventory.imeiOtherStore' });
      else items.push(it);
      seen.add(imei);
    });
    if (failures.length) refuseImeis('inventory.saleImeisRefused', failures);
  } else {
    const n = h.quantity!;
    items = await rows<Picked>(t, sql`SELECT id, imei, iccid, model_id, store_id, state, account_id FROM inv_items
        WHERE account_id = ${h.accountId} AND model_id = ${h.modelId} AND state = ${ITEM_STATES.inStock}
        ${h.storeId ? sql`AND store_id = ${h.storeId}` : sql``} ORDER BY id LIMIT ${n} FOR UPDATE SKIP LOCKED`);
    if (items.length < n) throw new AppError(State.CONFLICT, 'inventory.notEnoughStock', { available: items.length, quantity: n });
  }
  const imeis = items.map((i) => i.imei);

  // The devices the platform already knows: unbound ones of the seller's subtree move to the customer.
  const known = await rows<{ id: number; imei: string; account_id: number; bound: boolean; path: string }>(
    t,
    sql`SELECT d.id, d.imei, d.account_id, d.bound, a.path FROM devices d JOIN accounts a ON a.id = d.account_id WHERE d.imei = ANY(${textArray(imeis)}) FOR UPDATE OF d`,
  );
  const knownBy = new Map(known.map((d) => [d.imei, d]));
  const failures: { index: number; imei: string; message: string }[] = [];
  items.forEach((it, index) => {
    const d = knownBy.get(it.imei);
    if (!d) return;
    if (!isInSubtree(ctx.user, d.path)) failures.push({ index, imei: it.imei, message: 'device.imeiExists' });
    else if (d.bound && d.account_id !== h.customerId) failures.push({ index, imei: it.imei, message: 'inventory.deviceBound' });
  });
  if (failures.length) refuseImeis('inventory.saleImeisRefused', failures);

  const [sale] = await t
    .insert(invSales)
    .values({ accountId: h.accountId, saleNo: `pending-${process.pid}-${Date.now()}-${Math.random()}`, customerId: h.customerId, modelId: h.modelId, quantity: items.length, soldAt: h.soldAt, expiresAt: h.expiresAt, remark: h.remark })
    .returning({ id: invSales.id });
  const saleId = sale!.id;
  const saleNo = `S${viewerDay(ctx.user, h.soldAt).replace(/-/g, '')}-${String(saleId).padStart(6, '0')}`;
  await t.update(invSales).set({ saleNo }).where(eq(invSales.id, saleId));

  const toMove = items.filter((it) => knownBy.get(it.imei) && knownBy.get(it.imei)!.account_id !== h.customerId).map((it) => knownBy.get(it.imei)!.id);
  if (toMove.length) await t.execute(sql`UPDATE devices SET account_id = ${h.customerId}, group_id = NULL, role_id = NULL WHERE id = ANY(${intArray(toMove)})`);
  const fresh = items.filter((it) => !knownBy.has(it.imei));
  const created = fresh.length
    ? await rows<{ id: number; imei: string }>(
        t,
        sql`INSERT INTO devices (imei, short_id, name, model_id, model_name, protocol, account_id, bound, iccid, stock_in_at)
            SELECT x.imei, right(x.imei, 10), x.imei, ${catalogue?.id ?? null}, ${catalogue?.name ?? model.name}, ${catalogue?.protocol ?? 'watch'}, ${h.customerId}, false, x.iccid, ${h.soldAt}
            FROM unnest(${textArray(fresh.map((f) => f.imei))}, ${textArray(fresh.map((f) => f.iccid || '""'))}) AS x(imei, iccid)
            RETURNING id, imei`,
      )
    : [];
  const deviceOf = new Map([...known.map((d) => [d.imei, d.id] as const), ...created.map((d) => [d.imei, d.id] as const)]);
  // Each item remembers its device and where that device came from (none: made by the sale).
  const expiry = (i: number) => (h.expiries?.[i] ?? h.expiresAt)?.toISOString();
  await t.execute(sql`UPDATE inv_items i SET state = ${ITEM_STATES.sold}, sale_id = ${saleId}, device_id = x.dev, prev_account_id = x.prev,
      expires_at = x.exp::timestamptz
    FROM unnest(${intArray(items.map((it) => it.id))}, ${intArray(items.map((it) => deviceOf.get(it.imei)!))},
                ${`{${items.map((it) => knownBy.get(it.imei)?.account_id ?? 'NULL').join(',')}}`}::int[],
                ${`{${items.map((_it, i) => expiry(i) ?? 'NULL').join(',')}}`}::text[]) AS x(id, dev, prev, exp)
    WHERE i.id = x.id`);
  await applyMoves(t, groupMoves({ accountId: h.accountId, kind: 'item', ...(h.doc ?? { docType: 'sale', docId: saleId }) }, items.map((i) => ({ modelId: i.model_id, storeId: i.store_id })), -1));
  return { saleId, saleNo, imeis, handed: [...deviceOf.entries()].map(([imei, id]) => ({ imei, id })) };
}

export async function insertSale(ctx: AuthedContext, b: Req<'saleInsertRequest'>) {
  const { db } = ctx.deps.database;
  const customer = await accountInScope(db, ctx.user, b.CustomerId);
  await checkRefs(db, ctx, { ModelId: b.ModelId, StoreId: b.StoreId });
  const model = await models.get(db, ctx.user, b.ModelId);
  const accountId = (await db.select({ a: invModels.accountId }).from(invModels).where(eq(invModels.id, b.ModelId)))[0]!.a;
  if ((await balanceOf(db, accountId, 'item', b.ModelId)) <= 0) throw new AppError(State.CONFLICT, 'inventory.modelNoStock', { model: model.name });
  const soldAt = sentInstant(ctx.user, b.SoldAt) ?? new Date();
  const { saleId, saleNo, handed } = await db.transaction((tx) =>
    handOverItems(tx, ctx, {
      accountId,
      modelId: b.ModelId,
      storeId: b.StoreId,
      imeis: b.Imeis,
      quantity: b.Quantity,
      customerId: customer.id,
      soldAt,
      expiresAt: sentInstant(ctx.user, b.ExpiresAt) ?? null,
      expiries: b.Expiries?.map((e) => sentInstant(ctx.user, e)),
      remark: b.Remark,
    }),
  );
  announce(ctx, handed);
  return { State: State.OK, Id: saleId, SaleNo: saleNo, Quantity: handed.length } as const;
}

async function saleInScope(db: Db, ctx: AuthedContext, id: number) {
  const [s] = await db.select().from(invSales).where(and(eq(invSales.id, id), ownedBySubtree(invSales.accountId, ctx.user)));
  if (!s) throw notFound('inventory.saleNotFound');
  return s;
}

/**
 * Takes sold items back from the customer in the caller's transaction: devices the sale made go,
 * moved ones go back to the account they came from, the items return to stock with compensating
 * moves. Refused, naming the devices, while any has since been bound or moved (and, with
 * `refuseSeen`, has sent data since `since`). The caller announces the answer after its commit.
 */
export async function takeBackItems(
  tx: Tx | Db,
  o: { accountId: number; customerId: number; invSaleId: number; imeis?: string[]; since: Date; refuseSeen: boolean; doc: { docType: string; docId: number }; refusal: string },
) {
  const t = tx as Db;
  const items = await rows<{ id: number; imei: string; model_id: number; store_id: number; device_id: number | null; prev_account_id: number | null }>(
    t,
    sql`SELECT id, imei, model_id, store_id, device_id, prev_account_id FROM inv_items WHERE sale_id = ${o.invSaleId}
        ${o.imeis ? sql`AND imei = ANY(${textArray(o.imeis)})` : sql``} ORDER BY id FOR UPDATE`,
  );
  const devs = new Map(
    (await rows<{ id: number; account_id: number; bound: boolean; seen: boolean }>(
      t,
      sql`SELECT d.id, d.account_id, d.bound,
            (s.last_seen IS NOT NULL AND s.last_seen >= ${o.since}) AS seen
          FROM devices d LEFT JOIN device_state s ON s.device_id = d.id
          WHERE d.id = ANY(${intArray(items.map((i) => i.device_id ?? 0))}) FOR UPDATE OF d`,
    )).map((d) => [d.id, d]),
  );
  const failures: { index: number; imei: string; message: string }[] = [];
  items.forEach((it, index) => {
    const d = it.device_id ? devs.get(it.device_id) : undefined;
    if (!d) return; // deleted by the customer since: the item simply returns to stock
    if (d.bound) failures.push({ index, imei: it.imei, message: 'inventory.voidBound' });
    else if (d.account_id !== o.customerId) failures.push({ index, imei: it.imei, message: 'inventory.voidMoved' });
    else if (o.refuseSeen && d.seen) failures.push({ index, imei: it.imei, message: 'inventory.voidSeen' });
  });
  if (failures.length) refuseImeis(o.refusal, failures);

  const made = items.filter((i) => i.device_id && devs.has(i.device_id) && i.prev_account_id === null).map((i) => i.device_id!);
  const moved = items.filter((i) => i.device_id && devs.has(i.device_id) && i.prev_account_id !== null && i.prev_account_id !== o.customerId);
  if (made.length) {
    // Devices the sale made go like any deleted device, with everything that hangs on them.
    await purgeDevices(t, made);
  }
  if (moved.length)
    await t.execute(sql`UPDATE devices d SET account_id = x.acc, group_id = NULL, role_id = NULL
      FROM unnest(${intArray(moved.map((m) => m.device_id!))}, ${intArray(moved.map((m) => m.prev_account_id!))}) AS x(id, acc) WHERE d.id = x.id`);
  await t.execute(sql`UPDATE inv_items SET state = ${ITEM_STATES.inStock}, sale_id = NULL, expires_at = NULL, device_id = NULL, prev_account_id = NULL
    WHERE id = ANY(${intArray(items.map((i) => i.id))})`);
  await applyMoves(t, groupMoves({ accountId: o.accountId, kind: 'item', ...o.doc }, items.map((i) => ({ modelId: i.model_id, storeId: i.store_id })), 1));
  return { items, handed: items.filter((i) => i.device_id).map((i) => ({ id: i.device_id!, imei: i.imei })) };
}

export async function voidSale(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  const sale = await saleInScope(db, ctx, id);
  const handed = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const [locked] = await t.select({ voidedAt: invSales.voidedAt }).from(invSales).where(eq(invSales.id, sale.id)).for('update');
    if (locked?.voidedAt) throw new AppError(State.CONFLICT, 'inventory.saleVoided');
    // A delivery's hand-over is reversed by a sales return of the ERP, not here.
    if ((await rows(t, sql`SELECT 1 FROM erp_deliveries WHERE inv_sale_id = ${sale.id} LIMIT 1`)).length) throw new AppError(State.CONFLICT, 'inventory.saleOfDelivery');
    const r = await takeBackItems(t, { accountId: sale.accountId, customerId: sale.customerId, invSaleId: sale.id, since: sale.createdAt, refuseSeen: true, doc: { docType: 'sale_void', docId: sale.id }, refusal: 'inventory.voidRefused' });
    await tx.update(invSales).set({ voidedAt: new Date() }).where(eq(invSales.id, sale.id));
    return r.handed;
  });
  announce(ctx, handed);
  return { State: State.OK } as const;
}

export async function updateSale(ctx: AuthedContext, b: Req<'saleUpdateRequest'>) {
  const { db } = ctx.deps.database;
  const sale = await saleInScope(db, ctx, b.Id);
  await db.transaction(async (tx) => {
    await tx
      .update(invSales)
      .set({
        ...(b.ExpiresAt !== undefined ? { expiresAt: sentInstant(ctx.user, b.ExpiresAt) } : {}),
        ...(b.SoldAt !== undefined ? { soldAt: sentInstant(ctx.user, b.SoldAt) } : {}),
        ...(b.Remark !== undefined ? { remark: b.Remark } : {}),
      })
      .where(eq(invSales.id, sale.id));
    if (b.ExpiresAt !== undefined) await tx.update(invItems).set({ expiresAt: sentInstant(ctx.user, b.ExpiresAt) }).where(eq(invItems.saleId, sale.id));
  });
  return { State: State.OK } as const;
}

const saleRows = scopedCrud({
  table: invSales,
  id: invSales.id,
  owner: invSales.accountId,
  select: (db: Db) =>
    db
      .select({ s: invSales, modelName: invModels.name, customerName: sql<string>`coalesce(nullif(${accounts.username}, ''), ${accounts.loginName})` })
      .from(invSales)
      .innerJoin(invModels, eq(invModels.id, invSales.modelId))
      .innerJoin(accounts, eq(accounts.id, invSales.customerId))
      .$dynamic(),
  notFound: 'inventory.saleNotFound',
});

export async function listSales(ctx: AuthedContext, q: Req<'saleListRequest'>) {
  const { db } = ctx.deps.database;
  const { total, items: list } = await saleRows.list(db, ctx.user, {
    filters: [
      q.CustomerId ? eq(invSales.customerId, q.CustomerId) : undefined,
      q.ModelId ? eq(invSales.modelId, q.ModelId) : undefined,
      q.State === 1 ? sql`${invSales.voidedAt} IS NULL` : q.State === 2 ? sql`${invSales.voidedAt} IS NOT NULL` : undefined,
      q.Keyword ? sql`(${invSales.saleNo} ILIKE ${contains(q.Keyword)} OR ${invSales.remark} ILIKE ${contains(q.Keyword)})` : undefined,
    ],
    orderBy: [desc(invSales.id)],
    page: q,
  });
  return {
    State: State.OK,
    Total: total,
    Items: list.map(({ s, modelName, customerName }) => ({
      Id: s.id,
      SaleNo: s.saleNo,
      CustomerId: s.customerId,
      CustomerName: customerName,
      ModelId: s.modelId,
      ModelName: modelName,
      Quantity: s.quantity,
      SoldAt: shownTime(ctx.user, s.soldAt),
      ExpiresAt: shownTimeOrNull(ctx.user, s.expiresAt),
      Remark: s.remark,
      State: s.voidedAt ? 2 : 1,
      VoidedAt: shownTimeOrNull(ctx.user, s.voidedAt),
      Created: shownTime(ctx.user, s.createdAt),
    })),
  };
}
