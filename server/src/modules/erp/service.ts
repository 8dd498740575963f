// The ERP's rules (SPEC §5): inbound/outbound quantity not 0 and outbound not above stock (the
// stock ledger's CHECK, whatever runs alongside); a purchase batch repeating another's unit price
// and quantity asks for confirmation; audit from unaudited to audited only (else the approval
// failure), and an audited order is no longer changed; the invoices of an order never total more
// than its payments (the order row locked while counting); duplicates answer their §8 messages.
// Shipping a sales record writes its outbound order and takes its products out of stock;
// discarding a shipped record puts them back with a compensating move.
import { and, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { State, erp as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { erpInvoices, erpMaterials, erpProducts, erpPurchaseBatches, erpPurchaseLines, erpPurchases, erpSuppliers, erpSaleDevices, erpSales, erpStockRecords, invModels, invStores } from '../../db/schema/index.js';
import { scopedCrud, type Tx } from '../../lib/crud.js';
import { AppError, conflict, fieldError, notFound } from '../../lib/errors.js';
import { ownedBySubtree } from '../../lib/scope.js';
import { contains, isUniqueViolation, rows } from '../../lib/sql.js';
import { sentDay, sentInstant, shownTime, shownTimeOrNull, viewerDay } from '../../lib/time.js';
import { applyMoves } from '../inventory/ledger.js';
import { storeName } from '../inventory/dictionaries.js';
import { linesOf, partyInScope, replaceLines } from './ledger.js';
import { refuseWithDeliveries } from './sales.js';

type Req<K extends keyof typeof schemas> = (typeof schemas)[K] extends z.ZodType ? z.output<(typeof schemas)[K]> : never;
const { toCents, fromCents } = schemas;
const OK = { State: State.OK } as const;
const KIND = { 1: 'material', 2: 'product' } as const;
// The outer table is named in full inside the subqueries (a select of one table leaves its column
// names unqualified, and they would resolve to the subquery's own table).
const stockOf = (kind: 'material' | 'product', table: 'erp_materials' | 'erp_products') =>
  sql<number>`(SELECT coalesce(sum(b.quantity), 0)::int FROM stock_balances b WHERE b.account_id = ${sql.raw(table)}.account_id AND b.kind = ${kind} AND b.item_id = ${sql.raw(table)}.id)`;
const inUse = (kind: number, table: 'erp_materials' | 'erp_products') =>
  sql<boolean>`EXISTS (SELECT 1 FROM erp_stock_records r WHERE r.kind = ${kind} AND r.item_id = ${sql.raw(table)}.id)`;

export const materials = scopedCrud({
  table: erpMaterials,
  id: erpMaterials.id,
  owner: erpMaterials.accountId,
  select: (db: Db) => db.select({ m: erpMaterials, stock: stockOf('material', 'erp_materials'), used: inUse(1, 'erp_materials') }).from(erpMaterials).$dynamic(),
  notFound: 'erp.materialNotFound',
  unique: 'erp.materialExists',
});
export const products = scopedCrud({
  table: erpProducts,
  id: erpProducts.id,
  owner: erpProducts.accountId,
  select: (db: Db) =>
    db
      .select({
        p: erpProducts,
        // An IMEI-tracked product's stock is its inventory model's items in stock.
        stock: sql<number>`CASE WHEN erp_products.inv_model_id IS NULL THEN ${stockOf('product', 'erp_products')}
          ELSE (SELECT coalesce(sum(b.quantity), 0)::int FROM stock_balances b JOIN inv_models m ON m.id = b.item_id AND m.account_id = b.account_id WHERE b.kind = 'item' AND b.item_id = erp_products.inv_model_id) END`,
        used: sql<boolean>`(${inUse(2, 'erp_products')} OR EXISTS (SELECT 1 FROM erp_sales s WHERE s.product_id = erp_products.id))`,
      })
      .from(erpProducts)
      .$dynamic(),
  notFound: 'erp.productNotFound',
  unique: 'erp.productExists',
});
const page = (q: { PageNo: number; PageCount: number }) => ({ PageNo: q.PageNo, PageCount: q.PageCount });

export async function listMaterials(ctx: AuthedContext, q: { PageNo: number; PageCount: number; Keyword?: string }) {
  const r = await materials.list(ctx.deps.database.db, ctx.user, {
    filters: [q.Keyword ? or(ilike(erpMaterials.name, contains(q.Keyword)), ilike(erpMaterials.supplier, contains(q.Keyword))) : undefined],
    orderBy: [desc(erpMaterials.id)],
    page: page(q),
  });
  return { ...OK, Total: r.total, Items: r.items.map(({ m, stock }) => ({ Id: m.id, Name: m.name, Supplier: m.supplier, Remark: m.remark, Stock: Number(stock), Created: shownTime(ctx.user, m.createdAt) })) };
}
export async function saveMaterial(ctx: AuthedContext, b: Req<'materialSave'>) {
  const { db } = ctx.deps.database;
  const values = { name: b.Name, supplier: b.Supplier, remark: b.Remark };
  if (b.Id) {
    await materials.update(db, ctx.user, b.Id, values);
    return { ...OK, Id: b.Id };
  }
  return { ...OK, Id: await materials.insert(db, { ...values, accountId: ctx.user.id }) };
}
export async function listProducts(ctx: AuthedContext, q: { PageNo: number; PageCount: number; Keyword?: string }) {
  const r = await products.list(ctx.deps.database.db, ctx.user, {
    filters: [q.Keyword ? ilike(erpProducts.modelName, contains(q.Keyword)) : undefined],
    orderBy: [desc(erpProducts.id)],
    page: page(q),
  });
  return { ...OK, Total: r.total, Items: r.items.map(({ p, stock }) => ({ Id: p.id, ModelName: p.modelName, Colour: p.colour, InvModelId: p.invModelId, Remark: p.remark, Stock: Number(stock), Created: shownTime(ctx.user, p.createdAt) })) };
}
export async function saveProduct(ctx: AuthedContext, b: Req<'productSave'>) {
  const { db } = ctx.deps.database;
  // The inventory model whose IMEIs the product is: one of the caller's subtree.
  if (b.InvModelId) {
    const [m] = await db.select({ id: invModels.id }).from(invModels).where(and(eq(invModels.id, b.InvModelId), ownedBySubtree(invModels.accountId, ctx.user)));
    if (!m) throw fieldError('InvModelId', 'erp.invModelNotFound');
  }
  const values = { modelName: b.ModelName, colour: b.Colour, remark: b.Remark, ...(b.InvModelId !== undefined ? { invModelId: b.InvModelId } : {}) };
  if (b.Id) {
    await products.update(db, ctx.user, b.Id, values);
    return { ...OK, Id: b.Id };
  }
  return { ...OK, Id: await products.insert(db, { ...values, accountId: ctx.user.id }) };
}
/** A material or product with records (or sales) stays: its history is the ledger's. */
export async function deleteThing(ctx: AuthedContext, crud: typeof materials | typeof products, id: number, key: string) {
  await crud.remove(ctx.deps.database.db, ctx.user, [id], {
    atomic: true,
    refuse: async (tx, ids) => {
      const row = (await crud.find(tx as unknown as Db, ctx.user, id)) as { used: boolean } | undefined;
      return new Map(row?.used ? ids.map((x) => [x, { key }]) : []);
    },
  });
  return OK;
}

export async function insertStockRecord(ctx: AuthedContext, b: Req<'stockRecordInsert'>) {
  const { db } = ctx.deps.database;
  const crud = b.Kind === 1 ? materials : products;
  const [ok] = await crud.idsInScope(db, ctx.user, [b.ItemId]);
  if (ok === undefined) throw fieldError('ItemId', b.Kind === 1 ? 'erp.materialNotFound' : 'erp.productNotFound');
  const table = b.Kind === 1 ? erpMaterials : erpProducts;
  const [{ accountId }] = (await db.select({ accountId: table.accountId }).from(table).where(eq(table.id, b.ItemId))) as [{ accountId: number }];
  const quantity = b.Direction === 1 ? b.Quantity : -b.Quantity;
  return db.transaction(async (tx) => {
    const [rec] = await tx
      .insert(erpStockRecords)
      .values({ accountId, kind: b.Kind, itemId: b.ItemId, quantity, balance: 0, recordDate: sentDay(ctx.user, b.RecordDate), remark: b.Remark })
      .returning({ id: erpStockRecords.id });
    const [balance] = await applyMoves(tx, [{ accountId, kind: KIND[b.Kind as 1 | 2], itemId: b.ItemId, docType: b.Direction === 1 ? 'erp_in' : 'erp_out', docId: rec!.id, quantity }], 'erp.outboundAboveStock');
    await tx.update(erpStockRecords).set({ balance: balance! }).where(eq(erpStockRecords.id, rec!.id));
    return { ...OK, Id: rec!.id, Balance: balance! };
  });
}

export async function listStockRecords(ctx: AuthedContext, q: Req<'stockRecordList'>) {
  const { db } = ctx.deps.database;
  const name = q.Kind === 1 ? sql<string>`(SELECT name FROM erp_materials WHERE id = ${erpStockRecords.itemId})` : sql<string>`(SELECT model_name FROM erp_products WHERE id = ${erpStockRecords.itemId})`;
  const where = and(
    ownedBySubtree(erpStockRecords.accountId, ctx.user),
    eq(erpStockRecords.kind, q.Kind),
    q.ItemId ? eq(erpStockRecords.itemId, q.ItemId) : undefined,
    q.Direction === 1 ? sql`${erpStockRecords.quantity} > 0` : q.Direction === 2 ? sql`${erpStockRecords.quantity} < 0` : undefined,
  );
  const [c] = await db.select({ n: sql<number>`count(*)::int` }).from(erpStockRecords).where(where);
  const list = await db.select({ r: erpStockRecords, name }).from(erpStockRecords).where(where).orderBy(desc(erpStockRecords.id)).limit(q.PageCount).offset((q.PageNo - 1) * q.PageCount);
  return {
    ...OK,
    Total: Number(c?.n ?? 0),
    Items: list.map(({ r, name: n }) => ({ Id: r.id, Kind: r.kind, ItemId: r.itemId, ItemName: n ?? '', Quantity: r.quantity, Balance: r.balance, RecordDate: r.recordDate, Remark: r.remark, Created: shownTime(ctx.user, r.createdAt) })),
  };
}

// ---- purchasing ----------------------------------------------------------------------------------

/** Unique violations of an order: which number was taken. */
async function orderUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const c = String((err as { constraint?: string; cause?: { constraint?: string } }).constraint ?? (err as { cause?: { constraint?: string } }).cause?.constraint ?? '');
    throw c.includes('po') ? fieldError('PoNo', 'erp.poNoExists') : fieldError('OrderNo', 'erp.orderNoExists');
  }
}

async function orderInScope(db: Db | Tx, ctx: AuthedContext, id: number, lock = false) {
  const q = (db as Db).select().from(erpPurchases).where(and(eq(erpPurchases.id, id), ownedBySubtree(erpPurchases.accountId, ctx.user)));
  const [o] = lock ? await q.for('update') : await q;
  if (!o) throw notFound('erp.purchaseNotFound');
  return o;
}
const editable = (o: { audit: number }) => {
  if (o.audit === 2) throw conflict('erp.purchaseAudited');
};

const purchases = scopedCrud({
  table: erpPurchases,
  id: erpPurchases.id,
  owner: erpPurchases.accountId,
  select: (db: Db) => db.select().from(erpPurchases).$dynamic(),
  notFound: 'erp.purchaseNotFound',
});

export async function listPurchases(ctx: AuthedContext, q: Req<'purchaseList'>) {
  const { db } = ctx.deps.database;
  const { total, items: orders } = await purchases.list(db, ctx.user, {
    filters: [
      q.Id ? eq(erpPurchases.id, q.Id) : undefined,
      q.Audit ? eq(erpPurchases.audit, q.Audit) : undefined,
      q.Keyword ? sql`(${erpPurchases.orderNo} ILIKE ${contains(q.Keyword)} OR ${erpPurchases.poNo} ILIKE ${contains(q.Keyword)} OR ${erpPurchases.content} ILIKE ${contains(q.Keyword)})` : undefined,
    ],
    orderBy: [desc(erpPurchases.id)],
    page: q,
  });
  const ids = orders.map((o) => o.id);
  const batches = ids.length ? await db.select().from(erpPurchaseBatches).where(inArray(erpPurchaseBatches.orderId, ids)).orderBy(erpPurchaseBatches.id) : [];
  const invoices = ids.length ? await db.select().from(erpInvoices).where(inArray(erpInvoices.orderId, ids)).orderBy(erpInvoices.id) : [];
  const lines = await linesOf(db, ids);
  const supplierIds = [...new Set(orders.map((o) => o.supplierId).filter((x): x is number => x !== null))];
  const names = new Map((supplierIds.length ? await db.select({ id: erpSuppliers.id, name: erpSuppliers.name }).from(erpSuppliers).where(inArray(erpSuppliers.id, supplierIds)) : []).map((x) => [x.id, x.name]));
  return {
    ...OK,
    Total: total,
    Items: orders.map((o) => {
      const bs = batches.filter((b) => b.orderId === o.id);
      const is = invoices.filter((i) => i.orderId === o.id);
      return {
        Id: o.id,
        OrderNo: o.orderNo,
        PoNo: o.poNo,
        Content: o.content,
        Purpose: o.purpose,
        Amount: fromCents(o.amountCents),
        Audit: o.audit,
        AuditedAt: shownTimeOrNull(ctx.user, o.auditedAt),
        Paid: fromCents(bs.reduce((s, b) => s + b.paidCents, 0)),
        Invoiced: fromCents(is.reduce((s, i) => s + i.amountCents, 0)),
        Batches: bs.map((b) => ({ Id: b.id, BatchDate: b.batchDate, Quantity: b.quantity, UnitPrice: fromCents(b.unitPriceCents), AmountPaid: fromCents(b.paidCents), Created: shownTime(ctx.user, b.createdAt) })),
        Invoices: is.map((i) => ({ Id: i.id, OrderId: i.orderId, Company: i.company, InvoiceDate: i.invoiceDate, Amount: fromCents(i.amountCents), Number: i.number })),
        SupplierId: o.supplierId,
        SupplierName: o.supplierId === null ? '' : (names.get(o.supplierId) ?? ''),
        Lines: lines
          .filter((x) => x.l.orderId === o.id)
          .map(({ l, name, received }) => ({ Id: l.id, Kind: l.kind, ItemId: l.itemId, ItemName: name ?? '', Quantity: l.quantity, UnitPrice: fromCents(l.unitPriceCents), Received: Number(received) })),
        Created: shownTime(ctx.user, o.createdAt),
      };
    }),
  };
}

export async function savePurchase(ctx: AuthedContext, b: Req<'purchaseSave'>) {
  const { db } = ctx.deps.database;
  const values = { orderNo: b.OrderNo, poNo: b.PoNo, content: b.Content, purpose: b.Purpose, amountCents: toCents(b.Amount), supplierId: await partyInScope(db, ctx, 'supplier', b.SupplierId) };
  return orderUnique(() =>
    db.transaction(async (tx) => {
      let id = b.Id;
      if (id) {
        editable(await orderInScope(tx, ctx, id, true));
        await tx.update(erpPurchases).set(values).where(eq(erpPurchases.id, id));
      } else {
        const [row] = await tx.insert(erpPurchases).values({ ...values, accountId: ctx.user.id }).returning({ id: erpPurchases.id });
        id = row!.id;
      }
      if (b.Lines) await replaceLines(tx, ctx, id, b.Lines);
      return { ...OK, Id: id };
    }),
  );
}

export async function deletePurchase(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  await db.transaction(async (tx) => {
    editable(await orderInScope(tx, ctx, id, true));
    await tx.delete(erpInvoices).where(eq(erpInvoices.orderId, id));
    await tx.delete(erpPurchaseBatches).where(eq(erpPurchaseBatches.orderId, id));
    await tx.delete(erpPurchaseLines).where(eq(erpPurchaseLines.orderId, id));
    await tx.delete(erpPurchases).where(eq(erpPurchases.id, id));
  });
  return OK;
}

export async function savePurchaseBatch(ctx: AuthedContext, b: Req<'purchaseBatchSave'>) {
  const { db } = ctx.deps.database;
  const unit = toCents(b.UnitPrice);
  const paid = toCents(b.AmountPaid);
  return db.transaction(async (tx) => {
    editable(await orderInScope(tx, ctx, b.OrderId, true));
    const same = await tx
      .select({ id: erpPurchaseBatches.id })
      .from(erpPurchaseBatches)
      .where(and(eq(erpPurchaseBatches.orderId, b.OrderId), eq(erpPurchaseBatches.unitPriceCents, unit), eq(erpPurchaseBatches.quantity, b.Quantity), b.Id ? sql`${erpPurchaseBatches.id} <> ${b.Id}` : undefined));
    // SPEC §5: the same unit price and quantity again is asked about before it is kept.
    if (same.length && !b.Confirm) throw new AppError(State.CONFLICT, 'erp.batchRepeatConfirm', { quantity: b.Quantity, unitPrice: b.UnitPrice });
    const values = { batchDate: sentDay(ctx.user, b.BatchDate), quantity: b.Quantity, unitPriceCents: unit, paidCents: paid };
    if (b.Id) {
      const done = await tx.update(erpPurchaseBatches).set(values).where(and(eq(erpPurchaseBatches.id, b.Id), eq(erpPurchaseBatches.orderId, b.OrderId))).returning({ id: erpPurchaseBatches.id });
      if (!done.length) throw notFound('erp.batchNotFound');
      await checkInvoicesCovered(tx, b.OrderId);
      return { ...OK, Id: b.Id };
    }
    const [row] = await tx.insert(erpPurchaseBatches).values({ ...values, orderId: b.OrderId }).returning({ id: erpPurchaseBatches.id });
    return { ...OK, Id: row!.id };
  });
}

/** Payments may not drop below what was invoiced. */
async function checkInvoicesCovered(tx: Tx, orderId: number) {
  const [t] = await rows<{ paid: string; invoiced: string }>(
    tx as unknown as Db,
    sql`SELECT (SELECT coalesce(sum(paid_cents), 0) FROM erp_purchase_batches WHERE order_id = ${orderId})::text AS paid,
               (SELECT coalesce(sum(amount_cents), 0) FROM erp_invoices WHERE order_id = ${orderId})::text AS invoiced`,
  );
  if (BigInt(t!.invoiced) > BigInt(t!.paid)) throw new AppError(State.CONFLICT, 'erp.invoiceAbovePaid', { paid: fromCents(t!.paid), invoiced: fromCents(t!.invoiced) });
}

export async function deletePurchaseBatch(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  const [b] = await db.select().from(erpPurchaseBatches).where(eq(erpPurchaseBatches.id, id));
  if (!b) throw notFound('erp.batchNotFound');
  await db.transaction(async (tx) => {
    editable(await orderInScope(tx, ctx, b.orderId, true).catch(() => Promise.reject(notFound('erp.batchNotFound'))));
    await tx.delete(erpPurchaseBatches).where(eq(erpPurchaseBatches.id, id));
    await checkInvoicesCovered(tx, b.orderId);
  });
  return OK;
}

export async function auditPurchase(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  await db.transaction(async (tx) => {
    const o = await orderInScope(tx, ctx, id, true);
    const [n] = await tx.select({ n: sql<number>`count(*)::int` }).from(erpPurchaseBatches).where(eq(erpPurchaseBatches.orderId, id));
    // SPEC §8 "purchase approval failure": only an unaudited order with batches can be approved.
    if (o.audit !== 1) throw new AppError(State.CONFLICT, 'erp.auditFailed', { reason: 'audited' });
    if (!Number(n?.n)) throw new AppError(State.CONFLICT, 'erp.auditFailedNoBatch');
    await tx.update(erpPurchases).set({ audit: 2, auditedAt: new Date() }).where(eq(erpPurchases.id, id));
  });
  return OK;
}

export async function saveInvoice(ctx: AuthedContext, b: Req<'invoiceSave'>) {
  const { db } = ctx.deps.database;
  try {
    return await db.transaction(async (tx) => {
      // The order row locked: two invoices saved at once are counted one after the other.
      const o = await orderInScope(tx, ctx, b.OrderId, true);
      const values = { company: b.Company, invoiceDate: sentDay(ctx.user, b.InvoiceDate), amountCents: toCents(b.Amount), number: b.Number };
      let id = b.Id;
      if (id) {
        const done = await tx.update(erpInvoices).set(values).where(and(eq(erpInvoices.id, id), eq(erpInvoices.orderId, o.id))).returning({ id: erpInvoices.id });
        if (!done.length) throw notFound('erp.invoiceNotFound');
      } else {
        const [row] = await tx.insert(erpInvoices).values({ ...values, orderId: o.id, accountId: o.accountId }).returning({ id: erpInvoices.id });
        id = row!.id;
      }
      await checkInvoicesCovered(tx, o.id);
      return { ...OK, Id: id };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError('Number', 'erp.invoiceNoExists');
    throw err;
  }
}

export async function deleteInvoice(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  const done = await db.delete(erpInvoices).where(and(eq(erpInvoices.id, id), ownedBySubtree(erpInvoices.accountId, ctx.user))).returning({ id: erpInvoices.id });
  if (!done.length) throw notFound('erp.invoiceNotFound');
  return OK;
}

// ---- sales records -------------------------------------------------------------------------------

async function saleInScope(db: Db | Tx, ctx: AuthedContext, id: number, lock = false) {
  const q = (db as Db).select().from(erpSales).where(and(eq(erpSales.id, id), ownedBySubtree(erpSales.accountId, ctx.user)));
  const [s] = lock ? await q.for('update') : await q;
  if (!s) throw notFound('erp.saleNotFound');
  return s;
}

const sales = scopedCrud({
  table: erpSales,
  id: erpSales.id,
  owner: erpSales.accountId,
  select: (db: Db) =>
    db
      .select({ s: erpSales, product: erpProducts.modelName, store: invStores.name, seeded: invStores.seeded })
      .from(erpSales)
      .innerJoin(erpProducts, eq(erpProducts.id, erpSales.productId))
      .leftJoin(invStores, eq(invStores.id, erpSales.warehouseId))
      .$dynamic(),
  notFound: 'erp.saleNotFound',
});

export async function listSales(ctx: AuthedContext, q: Req<'erpSaleList'>) {
  const { db } = ctx.deps.database;
  const { total, items: list } = await sales.list(db, ctx.user, {
    filters: [
      q.ShipState ? eq(erpSales.shipState, q.ShipState) : undefined,
      q.Discarded ? eq(erpSales.discarded, q.Discarded === 1) : undefined,
      q.Keyword ? sql`(${erpSales.salesNo} ILIKE ${contains(q.Keyword)} OR ${erpSales.customerCompany} ILIKE ${contains(q.Keyword)} OR ${erpSales.salesperson} ILIKE ${contains(q.Keyword)})` : undefined,
    ],
    orderBy: [desc(erpSales.id)],
    page: q,
  });
  const ids = list.map((r) => r.s.id);
  const devices = ids.length ? await db.select().from(erpSaleDevices).where(inArray(erpSaleDevices.saleId, ids)).orderBy(erpSaleDevices.id) : [];
  return {
    ...OK,
    Total: total,
    Items: list.map(({ s, product, store, seeded }) => ({
      Id: s.id,
      SalesNo: s.salesNo,
      CustomerCompany: s.customerCompany,
      CustomerId: s.customerId,
      ProductId: s.productId,
      ProductName: product,
      Quantity: s.quantity,
      UnitPrice: fromCents(s.unitPriceCents),
      Receivable: fromCents(s.receivableCents),
      Actual: fromCents(s.actualCents),
      PayMethod: s.payMethod,
      PayType: s.payType,
      Invoicing: s.invoicing,
      ShipDate: s.shipDate,
      Salesperson: s.salesperson,
      SoldAt: shownTime(ctx.user, s.soldAt),
      Version: s.version,
      Discarded: s.discarded,
      ShipState: s.shipState,
      TrackingNo: s.trackingNo,
      WarehouseId: s.warehouseId,
      WarehouseName: store === null ? '' : storeName(ctx.locale, { name: store, seeded }),
      Recipient: s.recipient,
      Phone: s.phone,
      Address: s.address,
      OutboundNo: s.outboundNo,
      Devices: devices.filter((d) => d.saleId === s.id).map((d) => ({ Imei: d.imei, Iccid: d.iccid, ExpiresAt: shownTimeOrNull(ctx.user, d.expiresAt) })),
      Created: shownTime(ctx.user, s.createdAt),
    })),
  };
}

export async function saveSale(ctx: AuthedContext, b: Req<'erpSaleSave'>) {
  const { db } = ctx.deps.database;
  const [p] = await products.idsInScope(db, ctx.user, [b.ProductId]);
  if (p === undefined) throw fieldError('ProductId', 'erp.productNotFound');
  const customerId = await partyInScope(db, ctx, 'customer', b.CustomerId);
  const seen = new Set<string>();
  b.Devices.forEach((d, i) => {
    if (seen.has(d.Imei)) throw fieldError(`Devices.${i}.Imei`, 'erp.deviceExists', { imei: d.Imei });
    seen.add(d.Imei);
  });
  const values = {
    salesNo: b.SalesNo,
    customerCompany: b.CustomerCompany,
    customerId,
    productId: b.ProductId,
    quantity: b.Quantity,
    unitPriceCents: toCents(b.UnitPrice),
    receivableCents: toCents(b.Receivable),
    actualCents: toCents(b.Actual),
    payMethod: b.PayMethod,
    payType: b.PayType,
    invoicing: b.Invoicing,
    salesperson: b.Salesperson,
    soldAt: sentInstant(ctx.user, b.SoldAt),
    version: b.Version,
  };
  try {
    return await db.transaction(async (tx) => {
      let id = b.Id;
      let accountId = ctx.user.id;
      let shipped = false;
      if (id) {
        const s = await saleInScope(tx, ctx, id, true);
        if (s.discarded) throw conflict('erp.saleDiscarded');
        if (s.shipState === 3 && s.quantity !== b.Quantity) throw conflict('erp.saleShipped');
        accountId = s.accountId;
        shipped = s.shipState === 3;
      }
      // SPEC §5: a model without stock cannot be sold, refused when the record is saved (a shipped
      // record's products already left the stock). The product row is locked so a stock-out racing
      // with the save is seen.
      if (!shipped) {
        const [locked] = await tx.select({ id: erpProducts.id, invModelId: erpProducts.invModelId }).from(erpProducts).where(eq(erpProducts.id, b.ProductId)).for('update');
        // An IMEI-tracked product's stock is its inventory model's items in stock.
        const [r] = await rows<{ n: number }>(
          tx as unknown as Db,
          locked?.invModelId
            ? sql`SELECT coalesce(sum(quantity), 0)::int AS n FROM stock_balances b JOIN inv_models m ON m.id = b.item_id AND m.account_id = b.account_id
                WHERE b.kind = 'item' AND b.item_id = ${locked.invModelId}`
            : sql`SELECT coalesce(sum(quantity), 0)::int AS n FROM stock_balances b JOIN erp_products p ON p.id = b.item_id AND p.account_id = b.account_id
                WHERE b.kind = 'product' AND b.item_id = ${b.ProductId}`,
        );
        if (Number(r?.n ?? 0) <= 0) throw fieldError('ProductId', 'erp.productNoStock');
      }
      if (id) {
        await tx.update(erpSales).set(values).where(eq(erpSales.id, id));
        await tx.delete(erpSaleDevices).where(eq(erpSaleDevices.saleId, id));
      } else {
        const [row] = await tx.insert(erpSales).values({ ...values, accountId }).returning({ id: erpSales.id });
        id = row!.id;
      }
      if (b.Devices.length) {
        const taken = await tx
          .select({ imei: erpSaleDevices.imei })
          .from(erpSaleDevices)
          .where(and(eq(erpSaleDevices.accountId, accountId), inArray(erpSaleDevices.imei, b.Devices.map((d) => d.Imei))));
        if (taken.length) {
          const i = b.Devices.findIndex((d) => d.Imei === taken[0]!.imei);
          throw fieldError(`Devices.${i}.Imei`, 'erp.deviceExists', { imei: taken[0]!.imei });
        }
        await tx.insert(erpSaleDevices).values(b.Devices.map((d) => ({ accountId, saleId: id!, imei: d.Imei, iccid: d.Iccid, expiresAt: sentInstant(ctx.user, d.ExpiresAt) ?? null })));
      }
      return { ...OK, Id: id! };
    });
  } catch (err) {
    if (isUniqueViolation(err)) {
      const c = String((err as { constraint?: string; cause?: { constraint?: string } }).constraint ?? (err as { cause?: { constraint?: string } }).cause?.constraint ?? '');
      throw c.includes('imei') ? fieldError('Devices', 'erp.deviceExists', { imei: '' }) : fieldError('SalesNo', 'erp.salesNoExists');
    }
    throw err;
  }
}

export async function shipSale(ctx: AuthedContext, b: Req<'erpSaleShip'>) {
  const { db } = ctx.deps.database;
  if (b.WarehouseId) {
    const [w] = await db.select({ id: invStores.id }).from(invStores).where(and(eq(invStores.id, b.WarehouseId), ownedBySubtree(invStores.accountId, ctx.user)));
    if (!w) throw fieldError('WarehouseId', 'inventory.storeNotFound');
  }
  return db.transaction(async (tx) => {
    const s = await saleInScope(tx, ctx, b.Id, true);
    if (s.discarded) throw conflict('erp.saleDiscarded');
    if (s.shipState === 3) throw conflict('erp.saleShipped');
    // A record delivered in parts has its stock moved by its deliveries.
    await refuseWithDeliveries(tx, s.id);
    if (b.ShipState === 2) {
      await tx.update(erpSales).set({ shipState: 2 }).where(eq(erpSales.id, s.id));
      return { ...OK, OutboundNo: '' };
    }
    const outboundNo = `O${viewerDay(ctx.user).replace(/-/g, '')}-${String(s.id).padStart(6, '0')}`;
    // The outbound order takes the products out of stock (never below 0).
    await applyMoves(tx, [{ accountId: s.accountId, kind: 'product', itemId: s.productId, docType: 'erp_ship', docId: s.id, quantity: -s.quantity }], 'erp.outboundAboveStock');
    await tx
      .update(erpSales)
      .set({ shipState: 3, trackingNo: b.TrackingNo, warehouseId: b.WarehouseId ?? null, recipient: b.Recipient, phone: b.Phone, address: b.Address, shipDate: b.ShipDate ? sentDay(ctx.user, b.ShipDate) : viewerDay(ctx.user), outboundNo })
      .where(eq(erpSales.id, s.id));
    return { ...OK, OutboundNo: outboundNo };
  });
}

export async function discardSale(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  await db.transaction(async (tx) => {
    const s = await saleInScope(tx, ctx, id, true);
    if (s.discarded) throw conflict('erp.saleDiscarded');
    await refuseWithDeliveries(tx, s.id);
    // A shipped record's products come back with a compensating move.
    if (s.shipState === 3) await applyMoves(tx, [{ accountId: s.accountId, kind: 'product', itemId: s.productId, docType: 'erp_discard', docId: s.id, quantity: s.quantity }]);
    await tx.update(erpSales).set({ discarded: true }).where(eq(erpSales.id, s.id));
  });
  return OK;
}

