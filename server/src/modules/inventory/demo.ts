// Demo stock and books of the administrator: the four stores, two models linked to catalogue models, a
// version, an owner and two stock-in batches, so the inventory pages are not empty on a first start.
import { sql } from 'drizzle-orm';
import { SentTime } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import type { DemoStep } from '../../seed/demo.js';
import { erpMaterials, erpProducts, erpPurchaseBatches, erpPurchases, erpSales, erpStockRecords, invModels, invOwners, invVersions } from '../../db/schema/index.js';
import { applyMoves } from './ledger.js';
import { rows } from '../../lib/sql.js';
import { seedStores } from './dictionaries.js';
import { insertBatch } from './stock.js';

/** 15-digit IMEIs from a 14-digit prefix and a counter (no check digit: the platform does not ask for one). */
const imeis = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(15 - prefix.length, '0')}`);

export const seedInventoryDemo: DemoStep = async (deps, accounts) => {
  const { db } = deps.database;
  const admin = accounts.admin;
  await seedStores(db, admin.id);
  const stores = await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM inv_stores WHERE account_id = ${admin.id} ORDER BY id`);
  const catalogue = await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM device_models ORDER BY id`);
  const byName = (n: string) => catalogue.find((m) => m.name.startsWith(n))?.id ?? null;
  const models = await db
    .insert(invModels)
    .values([
      { accountId: admin.id, name: 'Y6', deviceModelId: byName('Y6'), remark: '4G health watch' },
      { accountId: admin.id, name: 'K9', deviceModelId: byName('K9'), remark: '4G kids watch' },
    ])
    .returning({ id: invModels.id });
  const [version] = await db.insert(invVersions).values({ accountId: admin.id, name: 'V2.1.0', kind: 1 }).returning({ id: invVersions.id });
  const [owner] = await db.insert(invOwners).values({ accountId: admin.id, name: 'WearTrack' }).returning({ id: invOwners.id });
  const ctx = { deps, user: { id: admin.id, path: admin.path, timeZoneOffset: admin.timeZoneOffset }, locale: 'zh-CN' } as unknown as AuthedContext;
  const common = { VersionId: version!.id, OwnerId: owner!.id, Remark: '', Iccids: [], DryRun: false };
  await insertBatch(ctx, { ...common, ModelId: models[0]!.id, StoreId: stores[1]!.id, StockInDate: SentTime.wallClock(Date.UTC(2026, 9, 8)), Imeis: imeis('86912305010', 40) });
  await insertBatch(ctx, { ...common, ModelId: models[1]!.id, StoreId: stores[0]!.id, StockInDate: SentTime.wallClock(Date.UTC(2026, 10, 2)), Imeis: imeis('86912305020', 25) });
};

/** A little of the books: a material and a product in stock, a purchase order with a batch, a shipped sales record (October). */
export const seedErpDemo: DemoStep = async (deps, accounts) => {
  const { db } = deps.database;
  const accountId = accounts.admin.id;
  await db.transaction(async (tx) => {
    const [material] = await tx.insert(erpMaterials).values({ accountId, name: '硅胶表带', supplier: '东莞橡塑' }).returning({ id: erpMaterials.id });
    const [product] = await tx.insert(erpProducts).values({ accountId, modelName: 'Y6', colour: 1 }).returning({ id: erpProducts.id });
    const [inM] = await tx.insert(erpStockRecords).values({ accountId, kind: 1, itemId: material!.id, quantity: 500, balance: 500, recordDate: '2026-10-09' }).returning({ id: erpStockRecords.id });
    const [inP] = await tx.insert(erpStockRecords).values({ accountId, kind: 2, itemId: product!.id, quantity: 50, balance: 50, recordDate: '2026-10-10' }).returning({ id: erpStockRecords.id });
    await applyMoves(tx, [
      { accountId, kind: 'material', itemId: material!.id, docType: 'erp_in', docId: inM!.id, quantity: 500 },
      { accountId, kind: 'product', itemId: product!.id, docType: 'erp_in', docId: inP!.id, quantity: 50 },
    ]);
    const [order] = await tx
      .insert(erpPurchases)
      .values({ accountId, orderNo: 'DD202610001', poNo: 'CG202610001', content: '硅胶表带 500 条', purpose: 1, amountCents: 250_000 })
      .returning({ id: erpPurchases.id });
    await tx.insert(erpPurchaseBatches).values({ orderId: order!.id, batchDate: '2026-10-08', quantity: 500, unitPriceCents: 500, paidCents: 150_000 });
    const [sale] = await tx
      .insert(erpSales)
      .values({
        accountId, salesNo: 'XS202610001', customerCompany: '华南智能穿戴代理有限公司', productId: product!.id, quantity: 10, unitPriceCents: 39_900,
        receivableCents: 399_000, actualCents: 200_000, payMethod: 1, payType: 3, invoicing: 1, salesperson: '王磊', soldAt: new Date('2026-10-12T02:00:00Z'),
        version: 'V2.1.0', shipState: 3, shipDate: '2026-10-13', trackingNo: 'SF1000000001', recipient: '李娜', phone: '13800000001', address: '深圳市南山区科技园', outboundNo: 'O20261013-000001',
      })
      .returning({ id: erpSales.id });
    await tx.insert(erpStockRecords).values({ accountId, kind: 2, itemId: product!.id, quantity: -10, balance: 40, recordDate: '2026-10-13' });
    await applyMoves(tx, [{ accountId, kind: 'product', itemId: product!.id, docType: 'erp_ship', docId: sale!.id, quantity: -10 }]);
  });
};
