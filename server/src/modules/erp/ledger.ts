// The ERP's master data and the documents that post to the one stock ledger (SPEC §3 ERP, §5):
// suppliers and customers (delete refused while a document names them), goods receipts against an
// audited purchase order's lines into a warehouse (partial receipts, never above a line: the order
// row is locked while received quantities are counted, so concurrent receipts queue), transfers
// between warehouses (an outbound and an inbound move in one transaction, the out refused past the
// source's stock by the balance CHECK), and the stock on hand at the end of a day, read from the
// ledger's moves (the balance after the last move of each thing and warehouse before that instant).
import { and, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { State, translate, erp as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accounts, erpCustomers, erpMaterials, erpProducts, erpPurchaseLines, erpPurchases, erpReceiptLines, erpReceipts, erpSuppliers, erpTransfers, invStores } from '../../db/schema/index.js';
import { scopedCrud, type Tx } from '../../lib/crud.js';
import { AppError, fieldError, notFound } from '../../lib/errors.js';
import { accountInSubtree, ownedBySubtree } from '../../lib/scope.js';
import { contains, rows } from '../../lib/sql.js';
import { sentDay, shownTime } from '../../lib/time.js';
import { applyMoves } from '../inventory/ledger.js';
import { storeName } from '../inventory/dictionaries.js';

type Req<K extends keyof typeof schemas> = (typeof schemas)[K] extends z.ZodType ? z.output<(typeof schemas)[K]> : never;
const OK = { State: State.OK } as const;
const KIND = { 1: 'material', 2: 'product' } as const;
const page = (q: { PageNo: number; PageCount: number }) => ({ PageNo: q.PageNo, PageCount: q.PageCount });

// ---- suppliers and customers ---------------------------------------------------------------------

export const suppliers = scopedCrud({
  table: erpSuppliers,
  id: erpSuppliers.id,
  owner: erpSuppliers.accountId,
  select: (db: Db) => db.select().from(erpSuppliers).$dynamic(),
  notFound: 'erp.supplierNotFound',
  unique: 'erp.supplierExists',
});
export const customers = scopedCrud({
  table: erpCustomers,
  id: erpCustomers.id,
  owner: erpCustomers.accountId,
  select: (db: Db) =>
    db
      .select({ c: erpCustomers, login: accounts.loginName })
      .from(erpCustomers)
      .leftJoin(accounts, eq(accounts.id, erpCustomers.platformAccountId))
      .$dynamic(),
  notFound: 'erp.customerNotFound',
  unique: 'erp.customerExists',
});

const party = (ctx: AuthedContext, r: typeof erpSuppliers.$inferSelect) => ({
  Id: r.id,
  Name: r.name,
  Contact: r.contact,
  Phone: r.phone,
  Address: r.address,
  TaxNo: r.taxNo,
  PaymentDays: r.paymentDays,
  Remark: r.remark,
  Created: shownTime(ctx.user, r.createdAt),
});
const partyValues = (b: Req<'supplierSave'>) => ({ name: b.Name, contact: b.Contact, phone: b.Phone, address: b.Address, taxNo: b.TaxNo, paymentDays: b.PaymentDays, remark: b.Remark });
const keyword = (cols: typeof erpSuppliers | typeof erpCustomers, k?: string) =>
  k ? or(ilike(cols.name, contains(k)), ilike(cols.contact, contains(k)), ilike(cols.phone, contains(k))) : undefined;

export async function listSuppliers(ctx: AuthedContext, q: { PageNo: number; PageCount: number; Keyword?: string }) {
  const r = await suppliers.list(ctx.deps.database.db, ctx.user, { filters: [keyword(erpSuppliers, q.Keyword)], orderBy: [desc(erpSuppliers.id)], page: page(q) });
  return { ...OK, Total: r.total, Items: r.items.map((s) => party(ctx, s)) };
}
export async function saveSupplier(ctx: AuthedContext, b: Req<'supplierSave'>) {
  const { db } = ctx.deps.database;
  if (b.Id) {
    await suppliers.update(db, ctx.user, b.Id, partyValues(b));
    return { ...OK, Id: b.Id };
  }
  return { ...OK, Id: await suppliers.insert(db, { ...partyValues(b), accountId: ctx.user.id }) };
}
export async function deleteSupplier(ctx: AuthedContext, id: number) {
  await suppliers.remove(ctx.deps.database.db, ctx.user, [id], {
    atomic: true,
    refuse: async (tx, ids) => {
      const used = await tx.select({ id: erpPurchases.supplierId }).from(erpPurchases).where(inArray(erpPurchases.supplierId, ids)).limit(1);
      return new Map(used.length ? ids.map((x) => [x, { key: 'erp.supplierInUse' }]) : []);
    },
  });
  return OK;
}

export async function listCustomers(ctx: AuthedContext, q: { PageNo: number; PageCount: number; Keyword?: string }) {
  const r = await customers.list(ctx.deps.database.db, ctx.user, { filters: [keyword(erpCustomers, q.Keyword)], orderBy: [desc(erpCustomers.id)], page: page(q) });
  return { ...OK, Total: r.total, Items: r.items.map(({ c, login }) => ({ ...party(ctx, c), PlatformAccountId: c.platformAccountId, PlatformAccountName: login ?? '' })) };
}
export async function saveCustomer(ctx: AuthedContext, b: Req<'customerSave'>) {
  const { db } = ctx.deps.database;
  // The platform account must lie in the caller's subtree (another tenant's id reads as missing).
  if (b.PlatformAccountId) {
    const [a] = await db.select({ id: accounts.id }).from(accounts).where(and(eq(accounts.id, b.PlatformAccountId), accountInSubtree(ctx.user)));
    if (!a) throw fieldError('PlatformAccountId', 'account.notInScope');
  }
  const values = { ...partyValues(b), platformAccountId: b.PlatformAccountId ?? null };
  if (b.Id) {
    await customers.update(db, ctx.user, b.Id, values);
    return { ...OK, Id: b.Id };
  }
  return { ...OK, Id: await customers.insert(db, { ...values, accountId: ctx.user.id }) };
}
export async function deleteCustomer(ctx: AuthedContext, id: number) {
  await customers.remove(ctx.deps.database.db, ctx.user, [id], {
    atomic: true,
    refuse: async (tx, ids) => {
      const used = await rows<{ n: number }>(tx as unknown as Db, sql`SELECT 1 AS n FROM erp_sales WHERE customer_id IN ${sql`(${sql.join(ids.map((x) => sql`${x}`), sql`, `)})`} LIMIT 1`);
      return new Map(used.length ? ids.map((x) => [x, { key: 'erp.customerInUse' }]) : []);
    },
  });
  return OK;
}

/** The supplier or customer id of a document, in the caller's scope (else the field's "not found"). */
export async function partyInScope(db: Db | Tx, ctx: AuthedContext, which: 'supplier' | 'customer', id: number | null | undefined): Promise<number | null> {
  if (!id) return null;
  const crud = which === 'supplier' ? suppliers : customers;
  const [ok] = await crud.idsInScope(db, ctx.user, [id]);
  if (ok === undefined) throw fieldError(which === 'supplier' ? 'SupplierId' : 'CustomerId', `erp.${which}NotFound`);
  return ok;
}

// ---- things and warehouses -----------------------------------------------------------------------

const thingTable = (kind: number) => (kind === 1 ? erpMaterials : erpProducts);

/** Owner and name of each material/product asked for, in the caller's scope. */
export async function thingsInScope(db: Db | Tx, ctx: AuthedContext, kind: number, ids: number[]): Promise<Map<number, { accountId: number; name: string }>> {
  if (!ids.length) return new Map();
  const t = thingTable(kind);
  const name = kind === 1 ? erpMaterials.name : erpProducts.modelName;
  const found = await (db as Db)
    .select({ id: t.id, accountId: t.accountId, name })
    .from(t)
    .where(and(inArray(t.id, [...new Set(ids)]), ownedBySubtree(t.accountId, ctx.user)));
  return new Map(found.map((r) => [r.id, { accountId: r.accountId, name: r.name }]));
}

async function warehouseInScope(db: Db | Tx, ctx: AuthedContext, id: number, field: string) {
  const [w] = await (db as Db).select({ id: invStores.id }).from(invStores).where(and(eq(invStores.id, id), ownedBySubtree(invStores.accountId, ctx.user)));
  if (!w) throw fieldError(field, 'inventory.storeNotFound');
}

// ---- purchase lines and goods receipts -----------------------------------------------------------

/** Replaces the lines of an order still open (its items in the caller's scope). */
export async function replaceLines(tx: Tx, ctx: AuthedContext, orderId: number, lines: NonNullable<Req<'purchaseSave'>['Lines']>) {
  for (const kind of [1, 2]) {
    const want = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.Kind === kind);
    const found = await thingsInScope(tx, ctx, kind, want.map(({ l }) => l.ItemId));
    const missing = want.find(({ l }) => !found.has(l.ItemId));
    if (missing) throw fieldError(`Lines.${missing.i}.ItemId`, kind === 1 ? 'erp.materialNotFound' : 'erp.productNotFound');
  }
  await tx.delete(erpPurchaseLines).where(eq(erpPurchaseLines.orderId, orderId));
  if (lines.length)
    await tx.insert(erpPurchaseLines).values(lines.map((l) => ({ orderId, kind: l.Kind, itemId: l.ItemId, quantity: l.Quantity, unitPriceCents: schemas.toCents(l.UnitPrice) })));
}

/** The lines of orders with their item names and the quantity received against each. */
export async function linesOf(db: Db, orderIds: number[]) {
  if (!orderIds.length) return [];
  return db
    .select({
      l: erpPurchaseLines,
      // The outer table named in full (a one-table select leaves its columns unqualified).
      name: sql<string>`CASE erp_purchase_lines.kind WHEN 1 THEN (SELECT m.name FROM erp_materials m WHERE m.id = erp_purchase_lines.item_id)
        ELSE (SELECT p.model_name FROM erp_products p WHERE p.id = erp_purchase_lines.item_id) END`,
      received: sql<number>`(SELECT coalesce(sum(r.quantity), 0)::int FROM erp_receipt_lines r WHERE r.line_id = erp_purchase_lines.id)`,
    })
    .from(erpPurchaseLines)
    .where(inArray(erpPurchaseLines.orderId, orderIds))
    .orderBy(erpPurchaseLines.id);
}

export async function saveReceipt(ctx: AuthedContext, b: Req<'receiptSave'>) {
  const { db } = ctx.deps.database;
  await warehouseInScope(db, ctx, b.WarehouseId, 'WarehouseId');
  return db.transaction(async (tx) => {
    // The order row locked: receipts of one order are counted one after the other.
    const [o] = await tx.select().from(erpPurchases).where(and(eq(erpPurchases.id, b.OrderId), ownedBySubtree(erpPurchases.accountId, ctx.user))).for('update');
    if (!o) throw notFound('erp.purchaseNotFound');
    if (o.audit !== 2) throw new AppError(State.CONFLICT, 'erp.receiptNotAudited');
    const lines = await linesOf(tx as unknown as Db, [o.id]);
    const asked = new Map<number, number>();
    for (const [i, r] of b.Lines.entries()) {
      const pos = lines.findIndex((x) => x.l.id === r.LineId);
      if (pos < 0) throw fieldError(`Lines.${i}.LineId`, 'erp.lineNotFound');
      const line = lines[pos]!;
      const total = (asked.get(r.LineId) ?? 0) + r.Quantity;
      const remaining = line.l.quantity - Number(line.received) - (asked.get(r.LineId) ?? 0);
      if (total > line.l.quantity - Number(line.received)) throw fieldError(`Lines.${i}.Quantity`, 'erp.overReceipt', { line: pos + 1, item: line.name ?? '', remaining: Math.max(remaining, 0) });
      asked.set(r.LineId, total);
    }
    const [rec] = await tx
      .insert(erpReceipts)
      .values({ accountId: o.accountId, orderId: o.id, warehouseId: b.WarehouseId, receivedOn: sentDay(ctx.user, b.ReceivedOn), remark: b.Remark })
      .returning({ id: erpReceipts.id });
    await tx.insert(erpReceiptLines).values(b.Lines.map((r) => ({ receiptId: rec!.id, lineId: r.LineId, quantity: r.Quantity })));
    // Each received line is an inbound move of its thing into the warehouse (owner: the thing's account).
    const moves = [];
    for (const [lineId, quantity] of asked) {
      const line = lines.find((x) => x.l.id === lineId)!.l;
      const owner = await thingsInScope(tx, ctx, line.kind, [line.itemId]);
      const accountId = owner.get(line.itemId)?.accountId;
      if (accountId === undefined) throw fieldError('Lines', line.kind === 1 ? 'erp.materialNotFound' : 'erp.productNotFound');
      moves.push({ accountId, kind: KIND[line.kind as 1 | 2], itemId: line.itemId, storeId: b.WarehouseId, docType: 'erp_receipt', docId: rec!.id, quantity });
    }
    await applyMoves(tx, moves);
    return { ...OK, Id: rec!.id };
  });
}

// ---- transfers -----------------------------------------------------------------------------------

export async function saveTransfer(ctx: AuthedContext, b: Req<'transferSave'>) {
  const { db } = ctx.deps.database;
  const thing = (await thingsInScope(db, ctx, b.Kind, [b.ItemId])).get(b.ItemId);
  if (!thing) throw fieldError('ItemId', b.Kind === 1 ? 'erp.materialNotFound' : 'erp.productNotFound');
  await warehouseInScope(db, ctx, b.FromWarehouseId, 'FromWarehouseId');
  await warehouseInScope(db, ctx, b.ToWarehouseId, 'ToWarehouseId');
  return db.transaction(async (tx) => {
    const [t] = await tx
      .insert(erpTransfers)
      .values({ accountId: thing.accountId, kind: b.Kind, itemId: b.ItemId, fromWarehouseId: b.FromWarehouseId, toWarehouseId: b.ToWarehouseId, quantity: b.Quantity, remark: b.Remark })
      .returning({ id: erpTransfers.id });
    const base = { accountId: thing.accountId, kind: KIND[b.Kind as 1 | 2], itemId: b.ItemId, docType: 'erp_transfer', docId: t!.id };
    await applyMoves(tx, [{ ...base, storeId: b.FromWarehouseId, quantity: -b.Quantity }, { ...base, storeId: b.ToWarehouseId, quantity: b.Quantity }], 'erp.transferAboveStock');
    return { ...OK, Id: t!.id };
  });
}

// ---- stock at a date -----------------------------------------------------------------------------

/** The instant the viewer's day `YYYY-MM-DD` ends (the next day's start in the viewer's zone). */
export function dayEnd(offsetMinutes: number, day: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1) - offsetMinutes * 60_000);
}

/**
 * Per thing and warehouse of the caller's subtree: the balance after its last move before the end
 * of the day. Each balance row names one thing and warehouse; its last move before the instant is
 * one backward step in stock_moves_at_idx. Things at 0 then are left out.
 */
export async function stockAtQuery(db: Db, path: string, kind: 'material' | 'product', end: Date, warehouseId?: number) {
  return rows<{ item_id: number; store_id: number; quantity: number }>(
    db,
    sql`SELECT b.item_id, b.store_id, m.balance AS quantity
        FROM stock_balances b
        CROSS JOIN LATERAL (
          SELECT s.balance FROM stock_moves s
          WHERE s.account_id = b.account_id AND s.kind = b.kind AND s.item_id = b.item_id AND s.store_id = b.store_id AND s.created_at < ${end.toISOString()}::timestamptz
          ORDER BY s.created_at DESC, s.id DESC LIMIT 1) m
        WHERE b.kind = ${kind} AND b.account_id IN (SELECT id FROM accounts WHERE path LIKE ${`${path}%`})
          ${warehouseId === undefined ? sql`` : sql`AND b.store_id = ${warehouseId}`}
          AND m.balance <> 0
        ORDER BY b.item_id, b.store_id`,
  );
}

export async function stockAt(ctx: AuthedContext, q: Req<'stockAtRequest'>) {
  const { db } = ctx.deps.database;
  const end = dayEnd(ctx.user.timeZoneOffset, sentDay(ctx.user, q.Date));
  const found = await stockAtQuery(db, ctx.user.path, KIND[q.Kind as 1 | 2], end, q.WarehouseId);
  const names = await thingsInScope(db, ctx, q.Kind, found.map((r) => Number(r.item_id)));
  const storeIds = [...new Set(found.map((r) => Number(r.store_id)).filter((x) => x > 0))];
  const stores = storeIds.length ? await db.select({ id: invStores.id, name: invStores.name, seeded: invStores.seeded }).from(invStores).where(inArray(invStores.id, storeIds)) : [];
  const storeOf = new Map(stores.map((s) => [s.id, storeName(ctx.locale, s)]));
  return {
    ...OK,
    Items: found.map((r) => ({
      ItemId: Number(r.item_id),
      ItemName: names.get(Number(r.item_id))?.name ?? '',
      WarehouseId: Number(r.store_id),
      // Stock kept before warehouses (records without one) shows under its own name.
      WarehouseName: Number(r.store_id) === 0 ? translate(ctx.locale, 'erp.noWarehouse') : (storeOf.get(Number(r.store_id)) ?? ''),
      Quantity: Number(r.quantity),
    })),
  };
}

// ---- receipts and transfers listed ---------------------------------------------------------------

/** Names of warehouses by id (seeded ones in the reader's language). */
async function warehouseNames(db: Db, ctx: AuthedContext, ids: number[]) {
  const want = [...new Set(ids.filter((x) => x > 0))];
  const found = want.length ? await db.select({ id: invStores.id, name: invStores.name, seeded: invStores.seeded }).from(invStores).where(inArray(invStores.id, want)) : [];
  return new Map(found.map((s) => [s.id, storeName(ctx.locale, s)]));
}

/** Receipts with their order and supplier, kept to the subtree (the list of /Erp/ReceiptList and its export). */
const receipts = scopedCrud({
  table: erpReceipts,
  id: erpReceipts.id,
  owner: erpReceipts.accountId,
  select: (db: Db) =>
    db
      .select({ r: erpReceipts, orderNo: erpPurchases.orderNo, supplierId: erpPurchases.supplierId, supplierName: erpSuppliers.name })
      .from(erpReceipts)
      .innerJoin(erpPurchases, eq(erpPurchases.id, erpReceipts.orderId))
      .leftJoin(erpSuppliers, eq(erpSuppliers.id, erpPurchases.supplierId))
      .$dynamic(),
  notFound: 'erp.receiptNotFound',
});

export async function listReceipts(ctx: AuthedContext, q: Req<'receiptList'>) {
  const { db } = ctx.deps.database;
  const { total, items: list } = await receipts.list(db, ctx.user, {
    filters: [
      q.OrderId ? eq(erpReceipts.orderId, q.OrderId) : undefined,
      q.WarehouseId ? eq(erpReceipts.warehouseId, q.WarehouseId) : undefined,
      q.SupplierId ? eq(erpPurchases.supplierId, q.SupplierId) : undefined,
      q.From ? sql`${erpReceipts.receivedOn} >= ${sentDay(ctx.user, q.From)}` : undefined,
      q.To ? sql`${erpReceipts.receivedOn} <= ${sentDay(ctx.user, q.To)}` : undefined,
    ],
    orderBy: [desc(erpReceipts.id)],
    page: page(q),
  });
  const ids = list.map((x) => x.r.id);
  const lines = ids.length
    ? await rows<{ receipt_id: number; line_id: number; kind: number; item_id: number; name: string | null; quantity: number }>(
        db,
        sql`SELECT rl.receipt_id, rl.line_id, pl.kind, pl.item_id, rl.quantity,
                   CASE pl.kind WHEN 1 THEN (SELECT m.name FROM erp_materials m WHERE m.id = pl.item_id) ELSE (SELECT p.model_name FROM erp_products p WHERE p.id = pl.item_id) END AS name
            FROM erp_receipt_lines rl JOIN erp_purchase_lines pl ON pl.id = rl.line_id
            WHERE rl.receipt_id IN ${sql`(${sql.join(ids.map((x) => sql`${x}`), sql`, `)})`} ORDER BY rl.id`,
      )
    : [];
  const stores = await warehouseNames(db, ctx, list.map((x) => x.r.warehouseId));
  return {
    ...OK,
    Total: total,
    Items: list.map(({ r, orderNo, supplierId, supplierName }) => {
      const mine = lines.filter((l) => Number(l.receipt_id) === r.id);
      return {
        Id: r.id,
        OrderId: r.orderId,
        OrderNo: orderNo,
        SupplierId: supplierId,
        SupplierName: supplierName ?? '',
        WarehouseId: r.warehouseId,
        WarehouseName: stores.get(r.warehouseId) ?? '',
        ReceivedOn: r.receivedOn,
        Quantity: mine.reduce((s, l) => s + Number(l.quantity), 0),
        Lines: mine.map((l) => ({ LineId: Number(l.line_id), Kind: Number(l.kind), ItemId: Number(l.item_id), ItemName: l.name ?? '', Quantity: Number(l.quantity) })),
        Remark: r.remark,
        Created: shownTime(ctx.user, r.createdAt),
      };
    }),
  };
}

/** Transfers with their item's name, kept to the subtree. */
const transferName = sql<string>`CASE erp_transfers.kind WHEN 1 THEN (SELECT m.name FROM erp_materials m WHERE m.id = erp_transfers.item_id)
    ELSE (SELECT p.model_name FROM erp_products p WHERE p.id = erp_transfers.item_id) END`;
const transfers = scopedCrud({
  table: erpTransfers,
  id: erpTransfers.id,
  owner: erpTransfers.accountId,
  select: (db: Db) => db.select({ t: erpTransfers, name: transferName }).from(erpTransfers).$dynamic(),
  notFound: 'erp.transferNotFound',
});

export async function listTransfers(ctx: AuthedContext, q: Req<'transferList'>) {
  const { db } = ctx.deps.database;
  const { total, items: list } = await transfers.list(db, ctx.user, {
    filters: [
      q.Kind ? eq(erpTransfers.kind, q.Kind) : undefined,
      q.ItemId ? eq(erpTransfers.itemId, q.ItemId) : undefined,
      q.WarehouseId ? or(eq(erpTransfers.fromWarehouseId, q.WarehouseId), eq(erpTransfers.toWarehouseId, q.WarehouseId)) : undefined,
    ],
    orderBy: [desc(erpTransfers.id)],
    page: page(q),
  });
  const stores = await warehouseNames(db, ctx, list.flatMap(({ t }) => [t.fromWarehouseId, t.toWarehouseId]));
  return {
    ...OK,
    Total: total,
    Items: list.map(({ t, name: n }) => ({
      Id: t.id,
      Kind: t.kind,
      ItemId: t.itemId,
      ItemName: n ?? '',
      FromWarehouseId: t.fromWarehouseId,
      FromWarehouseName: stores.get(t.fromWarehouseId) ?? '',
      ToWarehouseId: t.toWarehouseId,
      ToWarehouseName: stores.get(t.toWarehouseId) ?? '',
      Quantity: t.quantity,
      Remark: t.remark,
      Created: shownTime(ctx.user, t.createdAt),
    })),
  };
}
