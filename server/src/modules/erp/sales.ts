// The sales chain on the stock ledger (SPEC §3 ERP, §5): deliveries against a sales record (partial,
// each out of one warehouse, never above what is still to deliver: the sales record's row is locked
// while deliveries and returns are counted), invoices (never above the delivered value) and payments
// with the payment state, sales returns (never above a delivery) and purchase returns (never above a
// purchase line's receipts into that warehouse), and stock-takes (a count sheet per warehouse,
// differences posted as adjustment moves when confirmed).
//
// A product linked to an inventory model is IMEI-tracked: its stock is that model's items in stock,
// so its deliveries hand the items over exactly as an inventory sale does (`handOverItems`: the
// items locked, one IMEI sold once, the devices moved or created in the customer's platform account)
// and its returns take them back (`takeBackItems`). Its ledger moves are the model's ('item'), so
// the ledger's balance and the items in stock stay equal whatever document moved them.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { State, erp, erpSales as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import {
  erpCustomers,
  erpDeliveries,
  erpProducts,
  erpPurchaseLines,
  erpPurchases,
  erpReturns,
  erpSaleInvoices,
  erpSalePayments,
  erpSales,
  erpStockTakeLines,
  erpStockTakes,
  invModels,
  invSales,
  invStores,
} from '../../db/schema/index.js';
import { scopedCrud, type Tx } from '../../lib/crud.js';
import { AppError, conflict, fieldError, notFound } from '../../lib/errors.js';
import { accountInScope, ownedBySubtree } from '../../lib/scope.js';
import { intArray, isUniqueViolation, rows, textArray } from '../../lib/sql.js';
import { sentDay, shownTime, shownTimeOrNull } from '../../lib/time.js';
import { announce } from '../device/service.js';
import { storeName } from '../inventory/dictionaries.js';
import { applyMoves } from '../inventory/ledger.js';
import { handOverItems, takeBackItems } from '../inventory/sales.js';
import { thingsInScope } from './ledger.js';

type Req<K extends keyof typeof schemas> = (typeof schemas)[K] extends z.ZodType ? z.output<(typeof schemas)[K]> : never;
const { toCents, fromCents } = erp;
const { PAY_STATES } = schemas;
const OK = { State: State.OK } as const;
const KIND = { 1: 'material', 2: 'product' } as const;

async function warehouseInScope(db: Db | Tx, ctx: AuthedContext, id: number, field = 'WarehouseId') {
  const [w] = await (db as Db).select({ id: invStores.id }).from(invStores).where(and(eq(invStores.id, id), ownedBySubtree(invStores.accountId, ctx.user)));
  if (!w) throw fieldError(field, 'inventory.storeNotFound');
}

/** The sales record in the caller's scope, its row locked: its deliveries and returns are counted one after the other. */
async function lockedSale(tx: Tx, ctx: AuthedContext, id: number, field = 'SaleId') {
  const [s] = await tx.select().from(erpSales).where(and(eq(erpSales.id, id), ownedBySubtree(erpSales.accountId, ctx.user))).for('update');
  if (!s) throw fieldError(field, 'erp.saleNotFound');
  return s;
}

/** Delivered, returned, and the delivered value (net of returns, at the record's unit price). */
async function totalsOf(db: Db | Tx, sale: { id: number; unitPriceCents: number }) {
  const [t] = await rows<{ delivered: number; returned: number; invoiced: string; paid: string }>(
    db as Db,
    sql`SELECT (SELECT coalesce(sum(quantity), 0)::int FROM erp_deliveries WHERE sale_id = ${sale.id}) AS delivered,
               (SELECT coalesce(sum(r.quantity), 0)::int FROM erp_returns r JOIN erp_deliveries d ON d.id = r.delivery_id WHERE d.sale_id = ${sale.id} AND r.direction = 1) AS returned,
               (SELECT coalesce(sum(amount_cents), 0)::text FROM erp_sale_invoices WHERE sale_id = ${sale.id}) AS invoiced,
               (SELECT coalesce(sum(amount_cents), 0)::text FROM erp_sale_payments WHERE sale_id = ${sale.id}) AS paid`,
  );
  const delivered = Number(t!.delivered);
  const returned = Number(t!.returned);
  const value = BigInt(delivered - returned) * BigInt(sale.unitPriceCents);
  return { delivered, returned, value, invoiced: BigInt(t!.invoiced), paid: BigInt(t!.paid) };
}

/** Unpaid (nothing paid), paid (the delivered value exactly), advance (beyond it), partly paid (below it). */
export function payState(paid: bigint, value: bigint): number {
  if (paid === 0n) return PAY_STATES.unpaid;
  if (paid > value) return PAY_STATES.advance;
  if (paid === value) return PAY_STATES.paid;
  return PAY_STATES.partly;
}

async function productOf(db: Db | Tx, id: number) {
  const [p] = await (db as Db)
    .select({ id: erpProducts.id, accountId: erpProducts.accountId, invModelId: erpProducts.invModelId, modelAccountId: invModels.accountId })
    .from(erpProducts)
    .leftJoin(invModels, eq(invModels.id, erpProducts.invModelId))
    .where(eq(erpProducts.id, id));
  if (!p) throw fieldError('ProductId', 'erp.productNotFound');
  return p;
}

// ---- deliveries ----------------------------------------------------------------------------------

export async function saveDelivery(ctx: AuthedContext, b: Req<'deliverySave'>) {
  const { db } = ctx.deps.database;
  await warehouseInScope(db, ctx, b.WarehouseId);
  const asked = b.Imeis.length || b.Quantity!;
  const field = b.Imeis.length ? 'Imeis' : 'Quantity';
  const { id, imeis, handed } = await db.transaction(async (tx) => {
    const s = await lockedSale(tx, ctx, b.SaleId);
    if (s.discarded) throw conflict('erp.saleDiscarded');
    if (s.shipState === 3) throw conflict('erp.saleShipped');
    const t = await totalsOf(tx, s);
    const remaining = s.quantity - (t.delivered - t.returned);
    if (asked > remaining) throw fieldError(field, 'erp.deliveryAboveOrder', { remaining: Math.max(remaining, 0) });
    const p = await productOf(tx, s.productId);
    const [d] = await tx
      .insert(erpDeliveries)
      .values({ accountId: s.accountId, saleId: s.id, warehouseId: b.WarehouseId, quantity: asked, deliveredOn: sentDay(ctx.user, b.DeliveredOn), remark: b.Remark })
      .returning({ id: erpDeliveries.id });
    const doc = { docType: 'erp_delivery', docId: d!.id };
    if (p.invModelId === null) {
      if (b.Imeis.length) throw fieldError('Imeis', 'erp.productNotTracked');
      await applyMoves(tx, [{ accountId: p.accountId, kind: 'product', itemId: p.id, storeId: b.WarehouseId, quantity: -asked, ...doc }], 'erp.deliveryAboveStock');
      return { id: d!.id, imeis: [] as string[], handed: [] as { id: number; imei: string }[] };
    }
    // IMEI-tracked: the devices go to the customer's platform account, as an inventory sale hands them.
    const [c] = s.customerId === null ? [] : await tx.select({ account: erpCustomers.platformAccountId }).from(erpCustomers).where(eq(erpCustomers.id, s.customerId));
    if (!c?.account) throw fieldError('SaleId', 'erp.customerNoAccount');
    const customer = await accountInScope(tx as unknown as Db, ctx.user, c.account);
    const r = await handOverItems(tx, ctx, {
      accountId: p.modelAccountId!,
      modelId: p.invModelId,
      storeId: b.WarehouseId,
      imeis: b.Imeis,
      quantity: b.Imeis.length ? undefined : asked,
      customerId: customer.id,
      soldAt: new Date(),
      expiresAt: null,
      remark: s.salesNo,
      doc,
    });
    await tx.update(erpDeliveries).set({ invSaleId: r.saleId }).where(eq(erpDeliveries.id, d!.id));
    return { id: d!.id, imeis: r.imeis, handed: r.handed };
  });
  announce(ctx, handed);
  return { ...OK, Id: id, Quantity: asked, Imeis: imeis };
}

export async function saleDocuments(ctx: AuthedContext, b: { Id: number }) {
  const { db } = ctx.deps.database;
  const [s] = await db.select().from(erpSales).where(and(eq(erpSales.id, b.Id), ownedBySubtree(erpSales.accountId, ctx.user)));
  if (!s) throw notFound('erp.saleNotFound');
  const p = await productOf(db, s.productId);
  const t = await totalsOf(db, s);
  const deliveries = await db
    .select({ d: erpDeliveries, store: invStores.name, seeded: invStores.seeded, saleNo: invSales.saleNo })
    .from(erpDeliveries)
    .leftJoin(invStores, eq(invStores.id, erpDeliveries.warehouseId))
    .leftJoin(invSales, eq(invSales.id, erpDeliveries.invSaleId))
    .where(eq(erpDeliveries.saleId, s.id))
    .orderBy(erpDeliveries.id);
  const ids = deliveries.map((x) => x.d.id);
  const returned = new Map(
    (ids.length
      ? await rows<{ id: number; n: number }>(db, sql`SELECT delivery_id AS id, sum(quantity)::int AS n FROM erp_returns WHERE direction = 1 AND delivery_id = ANY(${intArray(ids)}) GROUP BY delivery_id`)
      : []
    ).map((r) => [Number(r.id), Number(r.n)]),
  );
  const invSaleIds = deliveries.map((x) => x.d.invSaleId).filter((x): x is number => x !== null);
  const items = invSaleIds.length ? await rows<{ sale_id: number; imei: string }>(db, sql`SELECT sale_id, imei FROM inv_items WHERE sale_id = ANY(${intArray(invSaleIds)}) ORDER BY id`) : [];
  const invoices = await db.select().from(erpSaleInvoices).where(eq(erpSaleInvoices.saleId, s.id)).orderBy(erpSaleInvoices.id);
  const payments = await db.select().from(erpSalePayments).where(eq(erpSalePayments.saleId, s.id)).orderBy(erpSalePayments.id);
  return {
    ...OK,
    SaleId: s.id,
    Tracked: p.invModelId !== null,
    Ordered: s.quantity,
    Delivered: t.delivered,
    Returned: t.returned,
    DeliveredValue: fromCents(t.value),
    Invoiced: fromCents(t.invoiced),
    Paid: fromCents(t.paid),
    PayState: payState(t.paid, t.value),
    Deliveries: deliveries.map(({ d, store, seeded, saleNo }) => ({
      Id: d.id,
      WarehouseId: d.warehouseId,
      WarehouseName: storeName(ctx.locale, { name: store, seeded }),
      Quantity: d.quantity,
      Returned: returned.get(d.id) ?? 0,
      DeliveredOn: d.deliveredOn,
      SaleNo: saleNo ?? '',
      Imeis: items.filter((i) => Number(i.sale_id) === d.invSaleId).map((i) => i.imei),
      Remark: d.remark,
      Created: shownTime(ctx.user, d.createdAt),
    })),
    Invoices: invoices.map((i) => ({ Id: i.id, Number: i.number, InvoiceDate: i.invoiceDate, Amount: fromCents(i.amountCents) })),
    Payments: payments.map((x) => ({ Id: x.id, PaidOn: x.paidOn, Amount: fromCents(x.amountCents), Remark: x.remark })),
  };
}

// ---- invoices and payments -----------------------------------------------------------------------

export async function saveSaleInvoice(ctx: AuthedContext, b: Req<'saleInvoiceSave'>) {
  const { db } = ctx.deps.database;
  try {
    return await db.transaction(async (tx) => {
      const s = await lockedSale(tx, ctx, b.SaleId);
      const t = await totalsOf(tx, s);
      const amount = BigInt(toCents(b.Amount));
      if (t.invoiced + amount > t.value) throw fieldError('Amount', 'erp.invoiceAboveDelivered', { delivered: fromCents(t.value), invoiced: fromCents(t.invoiced) });
      const [row] = await tx
        .insert(erpSaleInvoices)
        .values({ accountId: s.accountId, saleId: s.id, number: b.Number, invoiceDate: sentDay(ctx.user, b.InvoiceDate), amountCents: Number(amount) })
        .returning({ id: erpSaleInvoices.id });
      return { ...OK, Id: row!.id };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError('Number', 'erp.invoiceNoExists');
    throw err;
  }
}

export async function saveSalePayment(ctx: AuthedContext, b: Req<'salePaymentSave'>) {
  const { db } = ctx.deps.database;
  return db.transaction(async (tx) => {
    const s = await lockedSale(tx, ctx, b.SaleId);
    const amount = toCents(b.Amount);
    if (amount <= 0) throw fieldError('Amount', 'erp.amountRequired');
    const [row] = await tx
      .insert(erpSalePayments)
      .values({ accountId: s.accountId, saleId: s.id, paidOn: sentDay(ctx.user, b.PaidOn), amountCents: amount, remark: b.Remark })
      .returning({ id: erpSalePayments.id });
    const t = await totalsOf(tx, s);
    return { ...OK, Id: row!.id, PayState: payState(t.paid, t.value) };
  });
}

// ---- returns -------------------------------------------------------------------------------------

export async function saveSalesReturn(ctx: AuthedContext, b: Req<'salesReturnSave'>) {
  const { db } = ctx.deps.database;
  const [found] = await db.select({ saleId: erpDeliveries.saleId }).from(erpDeliveries).where(and(eq(erpDeliveries.id, b.DeliveryId), ownedBySubtree(erpDeliveries.accountId, ctx.user)));
  if (!found) throw fieldError('DeliveryId', 'erp.deliveryNotFound');
  const asked = b.Imeis.length || b.Quantity!;
  const field = b.Imeis.length ? 'Imeis' : 'Quantity';
  const { id, handed } = await db.transaction(async (tx) => {
    const s = await lockedSale(tx, ctx, found.saleId, 'DeliveryId');
    const [d] = await tx.select().from(erpDeliveries).where(eq(erpDeliveries.id, b.DeliveryId));
    const [r] = await rows<{ n: number }>(tx as unknown as Db, sql`SELECT coalesce(sum(quantity), 0)::int AS n FROM erp_returns WHERE direction = 1 AND delivery_id = ${d!.id}`);
    const remaining = d!.quantity - Number(r!.n);
    if (asked > remaining) throw fieldError(field, 'erp.returnAboveDelivered', { remaining });
    const [ret] = await tx
      .insert(erpReturns)
      .values({ accountId: s.accountId, direction: 1, deliveryId: d!.id, warehouseId: d!.warehouseId, quantity: asked, returnedOn: sentDay(ctx.user, b.ReturnedOn), remark: b.Remark })
      .returning({ id: erpReturns.id });
    const doc = { docType: 'erp_sales_return', docId: ret!.id };
    if (d!.invSaleId === null) {
      if (b.Imeis.length) throw fieldError('Imeis', 'erp.productNotTracked');
      const p = await productOf(tx, s.productId);
      await applyMoves(tx, [{ accountId: p.accountId, kind: 'product', itemId: p.id, storeId: d!.warehouseId, quantity: asked, ...doc }]);
      return { id: ret!.id, handed: [] as { id: number; imei: string }[] };
    }
    // The devices of the delivery still with the customer: the ones named, or the last delivered.
    const out = await rows<{ imei: string }>(
      tx as unknown as Db,
      b.Imeis.length
        ? sql`SELECT imei FROM inv_items WHERE sale_id = ${d!.invSaleId} AND imei = ANY(${textArray(b.Imeis)})`
        : sql`SELECT imei FROM inv_items WHERE sale_id = ${d!.invSaleId} ORDER BY id DESC LIMIT ${asked}`,
    );
    const have = new Set(out.map((x) => x.imei));
    const missing = b.Imeis.findIndex((imei) => !have.has(imei));
    if (missing >= 0) throw fieldError(`Imeis.${missing}`, 'erp.imeiNotDelivered', { imei: b.Imeis[missing] });
    const [inv] = await tx.select().from(invSales).where(eq(invSales.id, d!.invSaleId)).for('update');
    const back = await takeBackItems(tx, {
      accountId: inv!.accountId,
      customerId: inv!.customerId,
      invSaleId: inv!.id,
      imeis: out.map((x) => x.imei),
      since: inv!.createdAt,
      refuseSeen: false,
      doc,
      refusal: 'erp.returnImeisRefused',
    });
    if (back.items.length !== asked) throw fieldError(field, 'erp.returnAboveDelivered', { remaining: back.items.length });
    await tx.update(invSales).set({ quantity: sql`${invSales.quantity} - ${asked}` }).where(eq(invSales.id, inv!.id));
    await tx.update(erpReturns).set({ imeis: back.items.map((i) => i.imei) }).where(eq(erpReturns.id, ret!.id));
    return { id: ret!.id, handed: back.handed };
  });
  announce(ctx, handed);
  return { ...OK, Id: id };
}

export async function savePurchaseReturn(ctx: AuthedContext, b: Req<'purchaseReturnSave'>) {
  const { db } = ctx.deps.database;
  await warehouseInScope(db, ctx, b.WarehouseId);
  return db.transaction(async (tx) => {
    const [line] = await tx.select().from(erpPurchaseLines).where(eq(erpPurchaseLines.id, b.LineId));
    // The order row locked: receipts and returns of its lines are counted one after the other.
    const [o] = line ? await tx.select().from(erpPurchases).where(and(eq(erpPurchases.id, line.orderId), ownedBySubtree(erpPurchases.accountId, ctx.user))).for('update') : [];
    if (!line || !o) throw fieldError('LineId', 'erp.lineNotFound');
    const [t] = await rows<{ received: number; returned: number }>(
      tx as unknown as Db,
      sql`SELECT (SELECT coalesce(sum(l.quantity), 0)::int FROM erp_receipt_lines l JOIN erp_receipts r ON r.id = l.receipt_id WHERE l.line_id = ${line.id} AND r.warehouse_id = ${b.WarehouseId}) AS received,
                 (SELECT coalesce(sum(quantity), 0)::int FROM erp_returns WHERE direction = 2 AND line_id = ${line.id} AND warehouse_id = ${b.WarehouseId}) AS returned`,
    );
    const remaining = Number(t!.received) - Number(t!.returned);
    if (b.Quantity > remaining) throw fieldError('Quantity', 'erp.returnAboveReceived', { remaining });
    const owner = (await thingsInScope(tx, ctx, line.kind, [line.itemId])).get(line.itemId);
    if (!owner) throw fieldError('LineId', line.kind === 1 ? 'erp.materialNotFound' : 'erp.productNotFound');
    const [ret] = await tx
      .insert(erpReturns)
      .values({ accountId: o.accountId, direction: 2, lineId: line.id, warehouseId: b.WarehouseId, quantity: b.Quantity, returnedOn: sentDay(ctx.user, b.ReturnedOn), remark: b.Remark })
      .returning({ id: erpReturns.id });
    await applyMoves(
      tx,
      [{ accountId: owner.accountId, kind: KIND[line.kind as 1 | 2], itemId: line.itemId, storeId: b.WarehouseId, docType: 'erp_purchase_return', docId: ret!.id, quantity: -b.Quantity }],
      'erp.returnAboveStock',
    );
    return { ...OK, Id: ret!.id };
  });
}

/** Returns (sales and purchase) with their item's and warehouse's names, kept to the subtree. */
const returns = scopedCrud({
  table: erpReturns,
  id: erpReturns.id,
  owner: erpReturns.accountId,
  select: (db: Db) =>
    db
      .select({
        r: erpReturns,
        store: invStores.name,
        seeded: invStores.seeded,
        item: sql<string>`CASE WHEN erp_returns.direction = 1
          THEN (SELECT p.model_name FROM erp_deliveries d JOIN erp_sales s ON s.id = d.sale_id JOIN erp_products p ON p.id = s.product_id WHERE d.id = erp_returns.delivery_id)
          ELSE (SELECT CASE l.kind WHEN 1 THEN (SELECT m.name FROM erp_materials m WHERE m.id = l.item_id) ELSE (SELECT p.model_name FROM erp_products p WHERE p.id = l.item_id) END
                FROM erp_purchase_lines l WHERE l.id = erp_returns.line_id) END`,
      })
      .from(erpReturns)
      .leftJoin(invStores, eq(invStores.id, erpReturns.warehouseId))
      .$dynamic(),
  notFound: 'erp.returnNotFound',
});

export async function listReturns(ctx: AuthedContext, q: Req<'returnList'>) {
  const { total, items: list } = await returns.list(ctx.deps.database.db, ctx.user, {
    filters: [q.Direction ? eq(erpReturns.direction, q.Direction) : undefined],
    orderBy: [desc(erpReturns.id)],
    page: { PageNo: q.PageNo, PageCount: q.PageCount },
  });
  return {
    ...OK,
    Total: total,
    Items: list.map(({ r, store, seeded, item }) => ({
      Id: r.id,
      Direction: r.direction,
      DeliveryId: r.deliveryId,
      LineId: r.lineId,
      ItemName: item ?? '',
      WarehouseName: storeName(ctx.locale, { name: store, seeded }),
      Quantity: r.quantity,
      Imeis: r.imeis,
      ReturnedOn: r.returnedOn,
      Remark: r.remark,
      Created: shownTime(ctx.user, r.createdAt),
    })),
  };
}

// ---- stock-takes ---------------------------------------------------------------------------------

/** A count sheet of every material and product with stock kept in the warehouse (IMEI-tracked stock is counted by its items). */
export async function startStockTake(ctx: AuthedContext, b: Req<'stockTakeStart'>) {
  const { db } = ctx.deps.database;
  await warehouseInScope(db, ctx, b.WarehouseId);
  return db.transaction(async (tx) => {
    const [take] = await tx.insert(erpStockTakes).values({ accountId: ctx.user.id, warehouseId: b.WarehouseId, remark: b.Remark }).returning({ id: erpStockTakes.id });
    await tx.execute(sql`INSERT INTO erp_stock_take_lines (take_id, kind, item_id, expected)
      SELECT ${take!.id}, CASE b.kind WHEN 'material' THEN 1 ELSE 2 END, b.item_id, b.quantity FROM stock_balances b
      WHERE b.store_id = ${b.WarehouseId} AND b.kind IN ('material', 'product')
        AND b.account_id IN (SELECT id FROM accounts WHERE path LIKE ${`${ctx.user.path}%`})
      ORDER BY b.kind, b.item_id`);
    return { ...OK, Id: take!.id };
  });
}

async function lockedTake(tx: Tx, ctx: AuthedContext, id: number) {
  const [t] = await tx.select().from(erpStockTakes).where(and(eq(erpStockTakes.id, id), ownedBySubtree(erpStockTakes.accountId, ctx.user))).for('update');
  if (!t) throw notFound('erp.stockTakeNotFound');
  if (t.state !== 1) throw conflict('erp.stockTakeConfirmed');
  return t;
}

export async function countStockTake(ctx: AuthedContext, b: Req<'stockTakeCount'>) {
  const { db } = ctx.deps.database;
  await db.transaction(async (tx) => {
    const t = await lockedTake(tx, ctx, b.Id);
    const lines = new Set((await tx.select({ id: erpStockTakeLines.id }).from(erpStockTakeLines).where(eq(erpStockTakeLines.takeId, t.id))).map((l) => l.id));
    const bad = b.Lines.findIndex((l) => !lines.has(l.Id));
    if (bad >= 0) throw fieldError(`Lines.${bad}.Id`, 'erp.lineNotFound');
    for (const l of b.Lines) await tx.update(erpStockTakeLines).set({ counted: l.Counted }).where(eq(erpStockTakeLines.id, l.Id));
  });
  return OK;
}

/** Posts counted − expected of every counted line as an adjustment move (doc 'erp_stocktake'). */
export async function confirmStockTake(ctx: AuthedContext, b: { Id: number }) {
  const { db } = ctx.deps.database;
  return db.transaction(async (tx) => {
    const t = await lockedTake(tx, ctx, b.Id);
    const lines = await tx.select().from(erpStockTakeLines).where(eq(erpStockTakeLines.takeId, t.id));
    const moves = [];
    for (const kind of [1, 2] as const) {
      const of = lines.filter((l) => l.kind === kind && l.counted !== null && l.counted !== l.expected);
      const owners = await thingsInScope(tx, ctx, kind, of.map((l) => l.itemId));
      for (const l of of) {
        const owner = owners.get(l.itemId);
        if (owner) moves.push({ accountId: owner.accountId, kind: KIND[kind], itemId: l.itemId, storeId: t.warehouseId, docType: 'erp_stocktake', docId: t.id, quantity: l.counted! - l.expected });
      }
    }
    await applyMoves(tx, moves, 'erp.stockTakeBelowStock');
    await tx.update(erpStockTakes).set({ state: 2, confirmedAt: new Date() }).where(eq(erpStockTakes.id, t.id));
    return { ...OK, Adjusted: moves.length };
  });
}

/** Stock-takes with their warehouse's name, kept to the subtree. */
const stockTakes = scopedCrud({
  table: erpStockTakes,
  id: erpStockTakes.id,
  owner: erpStockTakes.accountId,
  select: (db: Db) =>
    db.select({ t: erpStockTakes, store: invStores.name, seeded: invStores.seeded }).from(erpStockTakes).leftJoin(invStores, eq(invStores.id, erpStockTakes.warehouseId)).$dynamic(),
  notFound: 'erp.stockTakeNotFound',
});

export async function listStockTakes(ctx: AuthedContext, q: { PageNo: number; PageCount: number }) {
  const { db } = ctx.deps.database;
  const { total, items: takes } = await stockTakes.list(db, ctx.user, { orderBy: [desc(erpStockTakes.id)], page: { PageNo: q.PageNo, PageCount: q.PageCount } });
  const ids = takes.map((x) => x.t.id);
  const lines = ids.length
    ? await db
        .select({
          l: erpStockTakeLines,
          name: sql<string>`CASE erp_stock_take_lines.kind WHEN 1 THEN (SELECT m.name FROM erp_materials m WHERE m.id = erp_stock_take_lines.item_id)
            ELSE (SELECT p.model_name FROM erp_products p WHERE p.id = erp_stock_take_lines.item_id) END`,
        })
        .from(erpStockTakeLines)
        .where(inArray(erpStockTakeLines.takeId, ids))
        .orderBy(erpStockTakeLines.id)
    : [];
  return {
    ...OK,
    Total: total,
    Items: takes.map(({ t, store, seeded }) => ({
      Id: t.id,
      WarehouseId: t.warehouseId,
      WarehouseName: storeName(ctx.locale, { name: store, seeded }),
      State: t.state,
      Lines: lines.filter((x) => x.l.takeId === t.id).map(({ l, name }) => ({ Id: l.id, Kind: l.kind, ItemId: l.itemId, ItemName: name ?? '', Expected: l.expected, Counted: l.counted })),
      Remark: t.remark,
      ConfirmedAt: shownTimeOrNull(ctx.user, t.confirmedAt),
      Created: shownTime(ctx.user, t.createdAt),
    })),
  };
}

/** An IMEI-tracked sales record's deliveries and returns stand for its stock: shipping or discarding it whole is refused once it has any. */
export async function refuseWithDeliveries(tx: Tx, saleId: number) {
  const [d] = await tx.select({ id: erpDeliveries.id }).from(erpDeliveries).where(eq(erpDeliveries.saleId, saleId)).limit(1);
  if (d) throw new AppError(State.CONFLICT, 'erp.saleHasDeliveries');
}
