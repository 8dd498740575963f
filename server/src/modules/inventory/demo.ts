// Demo stock of the administrator: the four stores, two models linked to catalogue models, a
// version, an owner and two stock-in batches, so the inventory pages are not empty on a first start.
import { sql } from 'drizzle-orm';
import type { AuthedContext } from '../../calls.js';
import type { DemoStep } from '../../seed/demo.js';
import { invModels, invOwners, invVersions } from '../../db/schema/index.js';
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
  const ctx = { deps, user: { id: admin.id, path: admin.path }, locale: 'zh-CN' } as unknown as AuthedContext;
  const common = { VersionId: version!.id, OwnerId: owner!.id, Remark: '', Iccids: [], DryRun: false };
  await insertBatch(ctx, { ...common, ModelId: models[0]!.id, StoreId: stores[1]!.id, StockInDate: '2026-10-08T00:00:00.000Z', Imeis: imeis('86912305010', 40) });
  await insertBatch(ctx, { ...common, ModelId: models[1]!.id, StoreId: stores[0]!.id, StockInDate: '2026-11-02T00:00:00.000Z', Imeis: imeis('86912305020', 25) });
};
