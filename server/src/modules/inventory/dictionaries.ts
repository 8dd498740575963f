// The inventory's dictionaries: owners, versions, models and stores of the caller's subtree. An
// entry used by a stock item, a batch or a sale cannot be deleted (SPEC §3); a taken name answers
// its own message (subqueries name the outer table's columns in full: a select of one table leaves
// its own column names unqualified). Seeded stores have message keys for names, shown in the reader's language.
import { and, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import { State, translate, type Locale } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { deviceModels, invModels, invOwners, invStores, invVersions } from '../../db/schema/index.js';
import { scopedCrud } from '../../lib/crud.js';
import { fieldError } from '../../lib/errors.js';
import { contains } from '../../lib/sql.js';
import { shownTime } from '../../lib/time.js';

const used = (checks: SQL[]) => sql<boolean>`(${sql.join(checks.map((c) => sql`EXISTS (${c})`), sql` OR `)})`;

export const owners = scopedCrud({
  table: invOwners,
  id: invOwners.id,
  owner: invOwners.accountId,
  select: (db: Db) =>
    db
      .select({
        id: invOwners.id,
        name: invOwners.name,
        remark: invOwners.remark,
        createdAt: invOwners.createdAt,
        inUse: used([sql`SELECT 1 FROM inv_items i WHERE i.owner_id = inv_owners.id`, sql`SELECT 1 FROM inv_batches b WHERE b.owner_id = inv_owners.id`]),
      })
      .from(invOwners)
      .$dynamic(),
  notFound: 'inventory.ownerNotFound',
  unique: 'inventory.ownerExists',
});

export const versions = scopedCrud({
  table: invVersions,
  id: invVersions.id,
  owner: invVersions.accountId,
  select: (db: Db) =>
    db
      .select({
        id: invVersions.id,
        name: invVersions.name,
        kind: invVersions.kind,
        remark: invVersions.remark,
        createdAt: invVersions.createdAt,
        inUse: used([sql`SELECT 1 FROM inv_items i WHERE i.version_id = inv_versions.id`, sql`SELECT 1 FROM inv_batches b WHERE b.version_id = inv_versions.id`]),
      })
      .from(invVersions)
      .$dynamic(),
  notFound: 'inventory.versionNotFound',
  unique: 'inventory.versionExists',
});

export const models = scopedCrud({
  table: invModels,
  id: invModels.id,
  owner: invModels.accountId,
  select: (db: Db) =>
    db
      .select({
        id: invModels.id,
        name: invModels.name,
        deviceModelId: invModels.deviceModelId,
        deviceModelName: sql<string>`coalesce(${deviceModels.name}, '')`,
        remark: invModels.remark,
        createdAt: invModels.createdAt,
        inUse: used([
          sql`SELECT 1 FROM inv_items i WHERE i.account_id = inv_models.account_id AND i.model_id = inv_models.id`,
          sql`SELECT 1 FROM inv_batches b WHERE b.model_id = inv_models.id`,
          sql`SELECT 1 FROM inv_sales s WHERE s.model_id = inv_models.id`,
        ]),
        inStock: sql<number>`(SELECT coalesce(sum(b.quantity), 0)::int FROM stock_balances b WHERE b.account_id = inv_models.account_id AND b.kind = 'item' AND b.item_id = inv_models.id)`,
      })
      .from(invModels)
      .leftJoin(deviceModels, eq(deviceModels.id, invModels.deviceModelId))
      .$dynamic(),
  notFound: 'inventory.modelNotFound',
  unique: 'inventory.modelExists',
});

export const stores = scopedCrud({
  table: invStores,
  id: invStores.id,
  owner: invStores.accountId,
  select: (db: Db) =>
    db
      .select({
        id: invStores.id,
        name: invStores.name,
        seeded: invStores.seeded,
        address: invStores.address,
        remark: invStores.remark,
        createdAt: invStores.createdAt,
        inUse: used([sql`SELECT 1 FROM inv_items i WHERE i.store_id = inv_stores.id`, sql`SELECT 1 FROM inv_batches b WHERE b.store_id = inv_stores.id`]),
      })
      .from(invStores)
      .$dynamic(),
  notFound: 'inventory.storeNotFound',
  unique: 'inventory.storeExists',
});

/** A store's name as the reader reads it. */
export const storeName = (locale: Locale, s: { name: string | null; seeded: boolean | null }) =>
  s.name === null ? '' : s.seeded ? translate(locale, s.name) : s.name;

const page = (q: { PageNo: number; PageCount: number }) => ({ PageNo: q.PageNo, PageCount: q.PageCount });
const base = (ctx: AuthedContext, r: { id: number; name: string; remark: string; inUse: boolean; createdAt: Date }) => ({
  Id: r.id,
  Name: r.name,
  Remark: r.remark,
  InUse: Boolean(r.inUse),
  Created: shownTime(ctx.user, r.createdAt),
});

type Q = { PageNo: number; PageCount: number; Keyword?: string };

export async function listOwners(ctx: AuthedContext, q: Q) {
  const r = await owners.list(ctx.deps.database.db, ctx.user, { filters: [q.Keyword ? ilike(invOwners.name, contains(q.Keyword)) : undefined], page: page(q) });
  return { State: State.OK, Total: r.total, Items: r.items.map((r) => base(ctx, r)) };
}
export async function listVersions(ctx: AuthedContext, q: Q) {
  const r = await versions.list(ctx.deps.database.db, ctx.user, { filters: [q.Keyword ? ilike(invVersions.name, contains(q.Keyword)) : undefined], page: page(q) });
  return { State: State.OK, Total: r.total, Items: r.items.map((v) => ({ ...base(ctx, v), Kind: v.kind })) };
}
export async function listModels(ctx: AuthedContext, q: Q) {
  const r = await models.list(ctx.deps.database.db, ctx.user, { filters: [q.Keyword ? ilike(invModels.name, contains(q.Keyword)) : undefined], page: page(q) });
  return {
    State: State.OK,
    Total: r.total,
    Items: r.items.map((m) => ({ ...base(ctx, m), DeviceModelId: m.deviceModelId, DeviceModelName: m.deviceModelName, InStock: Number(m.inStock) })),
  };
}
export async function listStores(ctx: AuthedContext, q: Q) {
  const { db } = ctx.deps.database;
  // A seeded store matches the keyword in any of its languages' names.
  const keyword = q.Keyword?.toLowerCase();
  let filter: SQL | undefined;
  if (keyword) {
    const keys = SEEDED_STORES.map((s) => s.key).filter((k) => (['zh-CN', 'zh-TW', 'en'] as const).some((l) => translate(l, k).toLowerCase().includes(keyword)));
    filter = or(and(eq(invStores.seeded, false), ilike(invStores.name, contains(q.Keyword!))), ...keys.map((k) => and(eq(invStores.seeded, true), eq(invStores.name, k))));
  }
  let r = await stores.list(db, ctx.user, { filters: [filter], page: page(q) });
  // An administrator without stores starts with the four of the catalogue.
  if (r.total === 0 && !keyword) {
    await seedStores(db, ctx.user.id);
    r = await stores.list(db, ctx.user, { page: page(q) });
  }
  return {
    State: State.OK,
    Total: r.total,
    Items: r.items.map((s) => ({ ...base(ctx, s), Name: storeName(ctx.locale, s), Address: s.address, Seeded: s.seeded })),
  };
}

/** The stores every stock keeper starts with (SPEC §3 shipping info warehouses). */
export const SEEDED_STORES = [
  { key: 'inventory.stores.shanghai' },
  { key: 'inventory.stores.shenzhen' },
  { key: 'inventory.stores.chengdu' },
  { key: 'inventory.stores.suzhou' },
] as const;

/** Seeds the four stores for an account that has none. */
export async function seedStores(db: Db, accountId: number): Promise<void> {
  await db
    .insert(invStores)
    .values(SEEDED_STORES.map((s) => ({ accountId, name: s.key, seeded: true })))
    .onConflictDoNothing();
}

/** A catalogue model id given with an inventory model must exist. */
async function checkDeviceModel(db: Db, id?: number) {
  if (!id) return;
  const [m] = await db.select({ id: deviceModels.id }).from(deviceModels).where(eq(deviceModels.id, id));
  if (!m) throw fieldError('DeviceModelId', 'device.modelNotFound');
}

/** Deletes one entry; in use (checked in the delete's transaction) it stays and the call is refused. */
async function removeOne(ctx: AuthedContext, crud: typeof owners | typeof versions | typeof models | typeof stores, id: number, inUseKey: string) {
  const { db } = ctx.deps.database;
  await crud.remove(db, ctx.user, [id], {
    atomic: true,
    refuse: async (tx, ids) => {
      const row = (await crud.find(tx as unknown as Db, ctx.user, id)) as { inUse: boolean } | undefined;
      return new Map(row?.inUse ? ids.map((x) => [x, { key: inUseKey }]) : []);
    },
  });
  return { State: State.OK } as const;
}

export const dictionaryCalls = {
  async ownerInsert(ctx: AuthedContext, b: { Name: string; Remark: string }) {
    const id = await owners.insert(ctx.deps.database.db, { accountId: ctx.user.id, name: b.Name, remark: b.Remark });
    return { State: State.OK, Id: id } as const;
  },
  async ownerUpdate(ctx: AuthedContext, b: { Id: number; Name: string; Remark: string }) {
    await owners.update(ctx.deps.database.db, ctx.user, b.Id, { name: b.Name, remark: b.Remark });
    return { State: State.OK } as const;
  },
  ownerDelete: (ctx: AuthedContext, id: number) => removeOne(ctx, owners, id, 'inventory.ownerInUse'),

  async versionInsert(ctx: AuthedContext, b: { Name: string; Kind: number; Remark: string }) {
    const id = await versions.insert(ctx.deps.database.db, { accountId: ctx.user.id, name: b.Name, kind: b.Kind, remark: b.Remark });
    return { State: State.OK, Id: id } as const;
  },
  async versionUpdate(ctx: AuthedContext, b: { Id: number; Name: string; Kind: number; Remark: string }) {
    await versions.update(ctx.deps.database.db, ctx.user, b.Id, { name: b.Name, kind: b.Kind, remark: b.Remark });
    return { State: State.OK } as const;
  },
  versionDelete: (ctx: AuthedContext, id: number) => removeOne(ctx, versions, id, 'inventory.versionInUse'),

  async modelInsert(ctx: AuthedContext, b: { Name: string; DeviceModelId?: number; Remark: string }) {
    await checkDeviceModel(ctx.deps.database.db, b.DeviceModelId);
    const id = await models.insert(ctx.deps.database.db, { accountId: ctx.user.id, name: b.Name, deviceModelId: b.DeviceModelId ?? null, remark: b.Remark });
    return { State: State.OK, Id: id } as const;
  },
  async modelUpdate(ctx: AuthedContext, b: { Id: number; Name: string; DeviceModelId?: number; Remark: string }) {
    await checkDeviceModel(ctx.deps.database.db, b.DeviceModelId);
    await models.update(ctx.deps.database.db, ctx.user, b.Id, { name: b.Name, deviceModelId: b.DeviceModelId ?? null, remark: b.Remark });
    return { State: State.OK } as const;
  },
  modelDelete: (ctx: AuthedContext, id: number) => removeOne(ctx, models, id, 'inventory.modelInUse'),

  async storeInsert(ctx: AuthedContext, b: { Name: string; Address: string; Remark: string }) {
    const id = await stores.insert(ctx.deps.database.db, { accountId: ctx.user.id, name: b.Name, address: b.Address, remark: b.Remark });
    return { State: State.OK, Id: id } as const;
  },
  async storeUpdate(ctx: AuthedContext, b: { Id: number; Name: string; Address: string; Remark: string }) {
    const { db } = ctx.deps.database;
    const cur = await stores.get(db, ctx.user, b.Id);
    // A seeded store keeps its translated name unless the name was really changed.
    const sameName = cur.seeded && storeName(ctx.locale, cur) === b.Name;
    await stores.update(db, ctx.user, b.Id, { ...(sameName ? {} : { name: b.Name, seeded: false }), address: b.Address, remark: b.Remark });
    return { State: State.OK } as const;
  },
  storeDelete: (ctx: AuthedContext, id: number) => removeOne(ctx, stores, id, 'inventory.storeInUse'),
};

/** The dictionary entries a stock document names, each in the caller's subtree (else its field's "not found"). */
export async function checkRefs(db: Db, ctx: AuthedContext, r: { ModelId?: number; VersionId?: number; StoreId?: number; OwnerId?: number }) {
  const checks: [number | undefined, typeof owners | typeof versions | typeof models | typeof stores, string, string][] = [
    [r.ModelId, models, 'ModelId', 'inventory.modelNotFound'],
    [r.VersionId, versions, 'VersionId', 'inventory.versionNotFound'],
    [r.StoreId, stores, 'StoreId', 'inventory.storeNotFound'],
    [r.OwnerId, owners, 'OwnerId', 'inventory.ownerNotFound'],
  ];
  for (const [id, crud, field, key] of checks) {
    if (id === undefined) continue;
    const [ok] = await crud.idsInScope(db, ctx.user, [id]);
    if (ok === undefined) throw fieldError(field, key);
  }
}

