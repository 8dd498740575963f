// Stock-in batches and stock items (one per IMEI). A batch takes up to 100 000 IMEIs (pasted or in
// a workbook read off the event loop); each refused row is reported with its reason and the others
// are stored. They are stored IMPORT_CHUNK_ROWS at a time, each slice in a transaction of its own
// with its ledger move and the batch's quantity, so other calls and the devices' writes get the
// database between slices; a slice that fails undoes the slices before it (the batch goes with its
// items and a compensating move), so a stock-in is stored whole or not at all. Items change state
// and store with their moves.
import { and, desc, eq, gte, ilike, inArray, lte, sql, type SQL } from 'drizzle-orm';
import { State, inventory as schemas } from '@wt/contract';
const { ITEM_STATES } = schemas;
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accounts, invBatches, invItems, invModels, invOwners, invSales, invStores, invVersions, stockBalances } from '../../db/schema/index.js';
import { scopedCrud } from '../../lib/crud.js';
import { AppError, fieldError, notFound } from '../../lib/errors.js';
import { ownedBySubtree } from '../../lib/scope.js';
import { contains, importPace, inSlices, rows, textArray, type ImportPace } from '../../lib/sql.js';
import { sentDay, shownTime, shownTimeOrNull } from '../../lib/time.js';
import { readSheetRows } from '../device/excel.js';
import { checkRefs, storeName } from './dictionaries.js';
import { applyMoves, groupMoves } from './ledger.js';

type Req<K extends keyof typeof schemas> = (typeof schemas)[K] extends z.ZodType ? z.output<(typeof schemas)[K]> : never;
type RowFailure = { Row: number; Imei: string; Message: string; Params?: Record<string, unknown> };

const IMEI = /^\d{15}$/;
const ICCID = /^[0-9A-Za-z]{0,32}$/;

/** The IMEI and ICCID rows of a workbook: columns titled IMEI and ICCID, or A and B without a header. */
async function sheetPairs(content: string): Promise<{ row: number; imei: string; iccid: string }[]> {
  const sheet = await readSheetRows(content, schemas.BATCH_MAX_ROWS);
  const norm = (s: string) => s.replace(/\s+/g, '').toLowerCase();
  const first = sheet[0]?.row === 1 ? sheet[0].cells.map(norm) : [];
  const imeiCol = first.indexOf('imei');
  const hasHeader = imeiCol >= 0;
  const iccidCol = hasHeader ? first.indexOf('iccid') : 1;
  const out: { row: number; imei: string; iccid: string }[] = [];
  for (const r of sheet) {
    if (hasHeader && r.row === 1) continue;
    out.push({ row: r.row, imei: (r.cells[hasHeader ? imeiCol : 0] ?? '').trim(), iccid: iccidCol >= 0 ? (r.cells[iccidCol] ?? '').trim() : '' });
  }
  if (!out.length) throw new AppError(State.BAD_REQUEST, 'device.importEmpty');
  return out;
}

/** Rows checked one by one: format, repeated in the list, already in stock anywhere (looked up a slice at a time). */
async function checkRows(db: Db, input: { row: number; imei: string; iccid: string }[], pace: ImportPace) {
  const failed: RowFailure[] = [];
  const seen = new Set<string>();
  const candidates: { row: number; imei: string; iccid: string }[] = [];
  for (const r of input) {
    if (!IMEI.test(r.imei)) failed.push({ Row: r.row, Imei: r.imei, Message: r.imei ? 'validation.imeiInvalid' : 'validation.imeiRequired' });
    else if (!ICCID.test(r.iccid)) failed.push({ Row: r.row, Imei: r.imei, Message: 'device.iccidInvalid' });
    else if (seen.has(r.imei)) failed.push({ Row: r.row, Imei: r.imei, Message: 'device.imeiDuplicate', Params: { imei: r.imei } });
    else {
      seen.add(r.imei);
      candidates.push(r);
    }
  }
  const taken = new Set<string>();
  await inSlices(candidates, pace, async (part) => {
    for (const r of await rows<{ imei: string }>(db, sql`SELECT imei FROM inv_items WHERE imei = ANY(${textArray(part.map((c) => c.imei))})`)) taken.add(r.imei);
  });
  const ok = candidates.filter((c) => {
    if (!taken.has(c.imei)) return true;
    failed.push({ Row: c.row, Imei: c.imei, Message: 'inventory.imeiInStock', Params: { imei: c.imei } });
    return false;
  });
  return { ok, failed };
}


export async function insertBatch(ctx: AuthedContext, b: Req<'batchInsertRequest'>) {
  const { db } = ctx.deps.database;
  const pace = importPace(ctx.deps);
  await checkRefs(db, ctx, b);
  const input = b.Content
    ? await sheetPairs(b.Content)
    : b.Imeis.map((imei, i) => ({ row: i + 1, imei, iccid: b.Iccids[i] ?? '' }));
  const { ok, failed } = await checkRows(db, input, pace);
  const sortFailures = () => failed.sort((x, y) => x.Row - y.Row);
  if (b.DryRun || !ok.length) return { State: State.OK, Id: 0, Rows: input.length, Succeeded: b.DryRun ? ok.length : 0, Failed: sortFailures() } as const;

  const accountId = ctx.user.id;
  const stockInDate = sentDay(ctx.user, b.StockInDate);
  const day = stockInDate.replace(/-/g, '');
  const batch = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(invBatches)
      .values({ accountId, batchNo: `pending-${process.pid}-${Date.now()}-${Math.random()}`, modelId: b.ModelId, versionId: b.VersionId ?? null, storeId: b.StoreId, ownerId: b.OwnerId ?? null, stockInDate, quantity: 0, remark: b.Remark })
      .returning({ id: invBatches.id });
    const batchNo = `B${day}-${String(row!.id).padStart(6, '0')}`;
    await tx.update(invBatches).set({ batchNo }).where(eq(invBatches.id, row!.id));
    return { id: row!.id, accountId, batchNo };
  });
  const move = { accountId, kind: 'item' as const, itemId: b.ModelId, storeId: b.StoreId, docType: 'batch', docId: batch.id };
  let stored = 0;
  let at = 0;
  try {
    await inSlices(ok, pace, async (part, start) => {
      at = start;
      // The slice in one statement: two arrays unnested (a taken IMEI, added meanwhile, is skipped and reported).
      const inserted = await db.transaction(async (tx) => {
        const got = await rows<{ imei: string }>(
          tx as unknown as Db,
          sql`INSERT INTO inv_items (account_id, imei, iccid, model_id, version_id, store_id, owner_id, state, batch_id)
              SELECT ${accountId}, t.imei, t.iccid, ${b.ModelId}, ${b.VersionId ?? null}, ${b.StoreId}, ${b.OwnerId ?? null}, ${ITEM_STATES.inStock}, ${batch.id}
              FROM unnest(${textArray(part.map((r) => r.imei))}, ${textArray(part.map((r) => r.iccid || '""'))}) AS t(imei, iccid)
              ON CONFLICT (imei) DO NOTHING RETURNING imei`,
        );
        if (got.length) {
          await tx.update(invBatches).set({ quantity: sql`${invBatches.quantity} + ${got.length}` }).where(eq(invBatches.id, batch.id));
          await applyMoves(tx, [{ ...move, quantity: got.length }]);
        }
        return new Set(got.map((r) => r.imei));
      });
      stored += inserted.size;
      for (const r of part) if (!inserted.has(r.imei)) failed.push({ Row: r.row, Imei: r.imei, Message: 'inventory.imeiInStock', Params: { imei: r.imei } });
    });
  } catch (err) {
    const row = ok[at]!.row;
    try {
      await db.transaction((tx) => removeBatch(tx as unknown as Db, batch, 'batch_delete', 'keepSold'));
    } catch (undoErr) {
      ctx.deps.log.error({ err, undoErr, batchId: batch.id, row }, 'stock-in failed and could not be undone');
      throw new AppError(State.INTERNAL, 'inventory.batchPartial', { row, batchNo: batch.batchNo });
    }
    ctx.deps.log.error({ err, batchId: batch.id, row }, 'stock-in failed, undone');
    throw new AppError(State.INTERNAL, 'inventory.batchFailed', { row });
  }
  return { State: State.OK, Id: batch.id, Rows: input.length, Succeeded: stored, Failed: sortFailures() } as const;
}

/**
 * Deletes a batch's items that were not sold, with a compensating move per model and store for
 * those in stock, and the batch with them. Sold items stay: `refuseSold` refuses the whole
 * deletion (the caller's transaction rolls back), `keepSold` leaves the batch holding only them.
 */
async function removeBatch(t: Db, batch: { id: number; accountId: number }, docType: string, sold: 'refuseSold' | 'keepSold') {
  // One statement however large the batch: a row a sale is selling waits for it, then counts as sold.
  const gone = await rows<{ model_id: number; store_id: number; n: number }>(
    t,
    sql`WITH d AS (DELETE FROM inv_items WHERE batch_id = ${batch.id} AND state <> ${ITEM_STATES.sold} RETURNING model_id, store_id, state)
        SELECT model_id, store_id, count(*)::int AS n FROM d WHERE state = ${ITEM_STATES.inStock} GROUP BY model_id, store_id`,
  );
  await applyMoves(t, gone.map((g) => ({ accountId: batch.accountId, kind: 'item' as const, itemId: g.model_id, storeId: g.store_id, docType, docId: batch.id, quantity: -Number(g.n) })));
  const [left] = await rows<{ n: number }>(t, sql`SELECT count(*)::int AS n FROM inv_items WHERE batch_id = ${batch.id}`);
  const kept = Number(left?.n ?? 0);
  if (kept && sold === 'refuseSold') throw new AppError(State.CONFLICT, 'inventory.batchHasSold', { count: kept });
  if (kept) await t.update(invBatches).set({ quantity: kept }).where(eq(invBatches.id, batch.id));
  else await t.delete(invBatches).where(eq(invBatches.id, batch.id));
}

const batches = scopedCrud({
  table: invBatches,
  id: invBatches.id,
  owner: invBatches.accountId,
  select: (db: Db) =>
    db
      .select({
        b: invBatches,
        modelName: invModels.name,
        versionName: sql<string>`coalesce(${invVersions.name}, '')`,
        storeName: invStores.name,
        storeSeeded: invStores.seeded,
        ownerName: sql<string>`coalesce(${invOwners.name}, '')`,
        inStock: sql<number>`(SELECT count(*)::int FROM inv_items i WHERE i.batch_id = ${invBatches.id} AND i.state = ${ITEM_STATES.inStock})`,
      })
      .from(invBatches)
      .innerJoin(invModels, eq(invModels.id, invBatches.modelId))
      .innerJoin(invStores, eq(invStores.id, invBatches.storeId))
      .leftJoin(invVersions, eq(invVersions.id, invBatches.versionId))
      .leftJoin(invOwners, eq(invOwners.id, invBatches.ownerId))
      .$dynamic(),
  notFound: 'inventory.batchNotFound',
});

export async function listBatches(ctx: AuthedContext, q: Req<'batchListRequest'>) {
  const { db } = ctx.deps.database;
  const { total, items: list } = await batches.list(db, ctx.user, {
    filters: [
      q.ModelId ? eq(invBatches.modelId, q.ModelId) : undefined,
      q.StoreId ? eq(invBatches.storeId, q.StoreId) : undefined,
      q.Keyword ? sql`(${invBatches.batchNo} ILIKE ${contains(q.Keyword)} OR ${invBatches.remark} ILIKE ${contains(q.Keyword)})` : undefined,
    ],
    orderBy: [desc(invBatches.id)],
    page: q,
  });
  return {
    State: State.OK,
    Total: total,
    Items: list.map((r) => ({
      Id: r.b.id,
      BatchNo: r.b.batchNo,
      ModelId: r.b.modelId,
      ModelName: r.modelName,
      VersionId: r.b.versionId,
      VersionName: r.versionName,
      StoreId: r.b.storeId,
      StoreName: storeName(ctx.locale, { name: r.storeName, seeded: r.storeSeeded }),
      OwnerId: r.b.ownerId,
      OwnerName: r.ownerName,
      StockInDate: r.b.stockInDate,
      Quantity: r.b.quantity,
      InStock: Number(r.inStock),
      Remark: r.b.remark,
      Created: shownTime(ctx.user, r.b.createdAt),
    })),
  };
}

async function batchInScope(db: Db, ctx: AuthedContext, id: number) {
  const [b] = await db.select().from(invBatches).where(and(eq(invBatches.id, id), ownedBySubtree(invBatches.accountId, ctx.user)));
  if (!b) throw notFound('inventory.batchNotFound');
  return b;
}

/** Moves in-stock items to another store: out of each (model, old store), into (model, new store). */
async function moveStore(tx: Db, accountId: number, items: { modelId: number; storeId: number }[], to: number, docType: string, docId: number) {
  const moving = items.filter((it) => it.storeId !== to);
  const base = { accountId, kind: 'item' as const, docType, docId };
  await applyMoves(tx, [...groupMoves(base, moving, -1), ...groupMoves(base, moving.map((it) => ({ ...it, storeId: to })), 1)]);
}

export async function updateBatch(ctx: AuthedContext, b: Req<'batchUpdateRequest'>) {
  const { db } = ctx.deps.database;
  const batch = await batchInScope(db, ctx, b.Id);
  await checkRefs(db, ctx, b);
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await tx
      .update(invBatches)
      .set({
        ...(b.VersionId !== undefined ? { versionId: b.VersionId } : {}),
        ...(b.StoreId !== undefined ? { storeId: b.StoreId } : {}),
        ...(b.OwnerId !== undefined ? { ownerId: b.OwnerId } : {}),
        ...(b.StockInDate !== undefined ? { stockInDate: sentDay(ctx.user, b.StockInDate) } : {}),
        ...(b.Remark !== undefined ? { remark: b.Remark } : {}),
      })
      .where(eq(invBatches.id, batch.id));
    // Items still in stock follow the batch's version, owner and store; sold ones keep theirs.
    const moved = b.StoreId && b.StoreId !== batch.storeId
      ? await rows<{ model_id: number; store_id: number }>(t, sql`SELECT model_id, store_id FROM inv_items WHERE batch_id = ${batch.id} AND state = ${ITEM_STATES.inStock} FOR UPDATE`)
      : [];
    const follow = {
      ...(b.VersionId !== undefined ? { versionId: b.VersionId } : {}),
      ...(b.StoreId !== undefined ? { storeId: b.StoreId } : {}),
      ...(b.OwnerId !== undefined ? { ownerId: b.OwnerId } : {}),
    };
    // (A change of the date or remark alone leaves the items as they are.)
    if (Object.keys(follow).length)
      await tx
        .update(invItems)
        .set(follow)
        .where(and(eq(invItems.batchId, batch.id), eq(invItems.state, ITEM_STATES.inStock)));
    if (moved.length) await moveStore(t, batch.accountId, moved.map((m) => ({ modelId: m.model_id, storeId: m.store_id })), b.StoreId!, 'batch_store', batch.id);
  });
  return { State: State.OK } as const;
}

/** A batch goes with its items only while none of them was sold; its stock leaves with a compensating move. */
export async function deleteBatch(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  const batch = await batchInScope(db, ctx, id);
  await db.transaction((tx) => removeBatch(tx as unknown as Db, batch, 'batch_delete', 'refuseSold'));
  return { State: State.OK } as const;
}

/**
 * How many items match. Items in stock of a model (and store) are the ledger's balance, exact and
 * read from one row per store; any other search counts the items.
 */
async function countItems(db: Db, ctx: AuthedContext, q: Req<'itemListRequest'>, where: SQL): Promise<number> {
  const onlyStock =
    q.State === ITEM_STATES.inStock &&
    q.ModelId !== undefined &&
    [q.VersionId, q.OwnerId, q.BatchId, q.SaleId, q.Imei, q.ImeiFrom, q.ImeiTo].every((v) => v === undefined || v === '') &&
    !q.Imeis?.length;
  if (onlyStock) {
    const [b] = await rows<{ n: number }>(
      db,
      sql`SELECT coalesce(sum(quantity), 0)::int AS n FROM stock_balances
          WHERE kind = 'item' AND item_id = ${q.ModelId} ${q.StoreId ? sql`AND store_id = ${q.StoreId}` : sql``} AND ${ownedBySubtree(stockBalances.accountId, ctx.user)}`,
    );
    return Number(b?.n ?? 0);
  }
  const [c] = await db.select({ n: sql<number>`count(*)::int` }).from(invItems).where(where);
  return Number(c?.n ?? 0);
}

export async function listItems(ctx: AuthedContext, q: Req<'itemListRequest'>) {
  const { db } = ctx.deps.database;
  const conds: (SQL | undefined)[] = [
    ownedBySubtree(invItems.accountId, ctx.user),
    q.ModelId ? eq(invItems.modelId, q.ModelId) : undefined,
    q.VersionId ? eq(invItems.versionId, q.VersionId) : undefined,
    q.StoreId ? eq(invItems.storeId, q.StoreId) : undefined,
    q.OwnerId ? eq(invItems.ownerId, q.OwnerId) : undefined,
    q.BatchId ? eq(invItems.batchId, q.BatchId) : undefined,
    q.SaleId ? eq(invItems.saleId, q.SaleId) : undefined,
    q.State ? eq(invItems.state, q.State) : undefined,
    q.Imei ? ilike(invItems.imei, contains(q.Imei)) : undefined,
    q.ImeiFrom ? gte(invItems.imei, q.ImeiFrom) : undefined,
    q.ImeiTo ? lte(invItems.imei, q.ImeiTo) : undefined,
    q.Imeis?.length ? inArray(invItems.imei, q.Imeis) : undefined,
  ];
  const where = and(...conds);
  const total = await countItems(db, ctx, q, where!);
  const list = await db
    .select({
      i: invItems,
      modelName: invModels.name,
      versionName: sql<string>`coalesce(${invVersions.name}, '')`,
      storeName: invStores.name,
      storeSeeded: invStores.seeded,
      ownerName: sql<string>`coalesce(${invOwners.name}, '')`,
      batchNo: sql<string>`coalesce(${invBatches.batchNo}, '')`,
      saleNo: sql<string>`coalesce(${invSales.saleNo}, '')`,
      customerName: sql<string>`coalesce(nullif(${accounts.username}, ''), ${accounts.loginName}, '')`,
    })
    .from(invItems)
    .innerJoin(invModels, eq(invModels.id, invItems.modelId))
    .innerJoin(invStores, eq(invStores.id, invItems.storeId))
    .leftJoin(invVersions, eq(invVersions.id, invItems.versionId))
    .leftJoin(invOwners, eq(invOwners.id, invItems.ownerId))
    .leftJoin(invBatches, eq(invBatches.id, invItems.batchId))
    .leftJoin(invSales, eq(invSales.id, invItems.saleId))
    .leftJoin(accounts, eq(accounts.id, invSales.customerId))
    .where(where)
    .orderBy(desc(invItems.id))
    .limit(q.PageCount)
    .offset((q.PageNo - 1) * q.PageCount);
  return {
    State: State.OK,
    Total: total,
    Items: list.map((r) => ({
      Id: r.i.id,
      Imei: r.i.imei,
      Iccid: r.i.iccid,
      ModelId: r.i.modelId,
      ModelName: r.modelName,
      VersionId: r.i.versionId,
      VersionName: r.versionName,
      StoreId: r.i.storeId,
      StoreName: storeName(ctx.locale, { name: r.storeName, seeded: r.storeSeeded }),
      OwnerId: r.i.ownerId,
      OwnerName: r.ownerName,
      State: r.i.state,
      BatchId: r.i.batchId,
      BatchNo: r.batchNo,
      SaleId: r.i.saleId,
      SaleNo: r.saleNo,
      CustomerName: r.i.saleId ? r.customerName : '',
      ExpiresAt: shownTimeOrNull(ctx.user, r.i.expiresAt),
      Created: shownTime(ctx.user, r.i.createdAt),
    })),
  };
}

export async function insertItem(ctx: AuthedContext, b: Req<'itemInsertRequest'>) {
  const { db } = ctx.deps.database;
  await checkRefs(db, ctx, b);
  const accountId = ctx.user.id;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(invItems)
      .values({ accountId, imei: b.Imei, iccid: b.Iccid, modelId: b.ModelId, versionId: b.VersionId ?? null, storeId: b.StoreId, ownerId: b.OwnerId ?? null, state: ITEM_STATES.inStock })
      .onConflictDoNothing()
      .returning({ id: invItems.id });
    if (!row) throw fieldError('Imei', 'inventory.imeiInStock', { imei: b.Imei });
    await applyMoves(tx, [{ accountId, kind: 'item', itemId: b.ModelId, storeId: b.StoreId, docType: 'item', docId: row.id, quantity: 1 }]);
    return { State: State.OK, Id: row.id } as const;
  });
}

async function lockItem(tx: Db, ctx: AuthedContext, id: number) {
  const [it] = await tx.select().from(invItems).where(and(eq(invItems.id, id), ownedBySubtree(invItems.accountId, ctx.user))).for('update');
  if (!it) throw notFound('inventory.itemNotFound');
  return it;
}

export async function updateItem(ctx: AuthedContext, b: Req<'itemUpdateRequest'>) {
  const { db } = ctx.deps.database;
  await checkRefs(db, ctx, b);
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const it = await lockItem(t, ctx, b.Id);
    const sold = it.state === ITEM_STATES.sold;
    if (sold && (b.State !== undefined || (b.StoreId !== undefined && b.StoreId !== it.storeId)))
      throw new AppError(State.CONFLICT, 'inventory.itemSold', { imei: it.imei });
    const state = b.State ?? it.state;
    const store = b.StoreId ?? it.storeId;
    await tx
      .update(invItems)
      .set({ iccid: b.Iccid ?? it.iccid, versionId: b.VersionId ?? it.versionId, ownerId: b.OwnerId ?? it.ownerId, storeId: store, state })
      .where(eq(invItems.id, it.id));
    // In stock counts: leaving or entering the state, or changing store while in it, moves stock.
    const was = it.state === ITEM_STATES.inStock;
    const is = state === ITEM_STATES.inStock;
    const moves = [];
    if (was && (!is || store !== it.storeId)) moves.push({ accountId: it.accountId, kind: 'item' as const, itemId: it.modelId, storeId: it.storeId, docType: is ? 'item_store' : 'item_state', docId: it.id, quantity: -1 });
    if (is && (!was || store !== it.storeId)) moves.push({ accountId: it.accountId, kind: 'item' as const, itemId: it.modelId, storeId: store, docType: was ? 'item_store' : 'item_state', docId: it.id, quantity: 1 });
    await applyMoves(t, moves);
  });
  return { State: State.OK } as const;
}

export async function deleteItem(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const it = await lockItem(t, ctx, id);
    if (it.state === ITEM_STATES.sold) throw new AppError(State.CONFLICT, 'inventory.itemSold', { imei: it.imei });
    if (it.state === ITEM_STATES.inStock)
      await applyMoves(t, [{ accountId: it.accountId, kind: 'item', itemId: it.modelId, storeId: it.storeId, docType: 'item_delete', docId: it.id, quantity: -1 }]);
    await tx.delete(invItems).where(eq(invItems.id, it.id));
    if (it.batchId) await tx.update(invBatches).set({ quantity: sql`${invBatches.quantity} - 1` }).where(eq(invBatches.id, it.batchId));
  });
  return { State: State.OK } as const;
}
