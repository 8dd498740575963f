// The vendor's stock: dictionaries (owners, versions, models, stores), stock-in batches, one item
// per IMEI, sales handing items over to customer accounts, and the stock ledger shared with the
// ERP (SPEC §3 inventory items, ERP). Every row belongs to the account that keeps the stock; the
// subtree scope applies to it.
import { sql } from 'drizzle-orm';
import { bigserial, boolean, check, date, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const created = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const invOwners = pgTable(
  'inv_owners',
  { id: serial('id').primaryKey(), accountId: integer('account_id').notNull(), name: text('name').notNull(), remark: text('remark').notNull().default(''), createdAt: created() },
  (t) => [uniqueIndex('inv_owners_name_uq').on(t.accountId, t.name)],
);

export const invVersions = pgTable(
  'inv_versions',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    name: text('name').notNull(),
    /** 1 firmware, 2 hardware. */
    kind: smallint('kind').notNull().default(1),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [uniqueIndex('inv_versions_name_uq').on(t.accountId, t.kind, t.name)],
);

export const invModels = pgTable(
  'inv_models',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    name: text('name').notNull(),
    /** Catalogue model (device_models) sold devices are created with. */
    deviceModelId: integer('device_model_id'),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [uniqueIndex('inv_models_name_uq').on(t.accountId, t.name)],
);

export const invStores = pgTable(
  'inv_stores',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    /** The name, or with `seeded` a message key rendered in the reader's language. */
    name: text('name').notNull(),
    seeded: boolean('seeded').notNull().default(false),
    address: text('address').notNull().default(''),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [uniqueIndex('inv_stores_name_uq').on(t.accountId, t.name)],
);

export const invBatches = pgTable(
  'inv_batches',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    batchNo: text('batch_no').notNull(),
    modelId: integer('model_id').notNull(),
    versionId: integer('version_id'),
    storeId: integer('store_id').notNull(),
    ownerId: integer('owner_id'),
    stockInDate: date('stock_in_date', { mode: 'string' }).notNull(),
    quantity: integer('quantity').notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [uniqueIndex('inv_batches_no_uq').on(t.batchNo), index('inv_batches_account_idx').on(t.accountId, t.id)],
);

export const invSales = pgTable(
  'inv_sales',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    saleNo: text('sale_no').notNull(),
    customerId: integer('customer_id').notNull(),
    modelId: integer('model_id').notNull(),
    quantity: integer('quantity').notNull(),
    soldAt: timestamp('sold_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    remark: text('remark').notNull().default(''),
    voidedAt: timestamp('voided_at', { withTimezone: true }),
    createdAt: created(),
  },
  (t) => [uniqueIndex('inv_sales_no_uq').on(t.saleNo), index('inv_sales_account_idx').on(t.accountId, t.id), index('inv_sales_customer_idx').on(t.customerId)],
);

/** One row per IMEI. State 1 in stock, 2 sold, 3 returned, 4 scrapped. */
export const invItems = pgTable(
  'inv_items',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    imei: text('imei').notNull(),
    iccid: text('iccid').notNull().default(''),
    modelId: integer('model_id').notNull(),
    versionId: integer('version_id'),
    storeId: integer('store_id').notNull(),
    ownerId: integer('owner_id'),
    state: smallint('state').notNull().default(1),
    batchId: integer('batch_id'),
    saleId: integer('sale_id'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /** The device row the sale made or moved for the customer, and the account it came from (none: made). */
    deviceId: integer('device_id'),
    prevAccountId: integer('prev_account_id'),
    createdAt: created(),
  },
  (t) => [
    uniqueIndex('inv_items_imei_uq').on(t.imei),
    // The stock list filters by model and store (and state), newest first: read in index order and
    // stopped at the page (a model belongs to one account, so the scope filters nothing out here).
    index('inv_items_model_store_idx').on(t.modelId, t.storeId, t.state, t.id),
    index('inv_items_account_idx').on(t.accountId, t.id),
    index('inv_items_batch_idx').on(t.batchId),
    index('inv_items_sale_idx').on(t.saleId),
    // "In use" of the dictionaries.
    index('inv_items_store_idx').on(t.storeId),
    index('inv_items_owner_idx').on(t.ownerId),
    index('inv_items_version_idx').on(t.versionId),
  ],
);

/**
 * What is in stock now, per account, kind ('item': inventory items of a model; 'material',
 * 'product': ERP), thing and store. Changed only together with a move, in the same transaction;
 * the CHECK makes an outbound move past the stock fail whatever races with it.
 */
export const stockBalances = pgTable(
  'stock_balances',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    kind: text('kind').notNull(),
    itemId: integer('item_id').notNull(),
    storeId: integer('store_id').notNull().default(0),
    quantity: integer('quantity').notNull().default(0),
  },
  (t) => [uniqueIndex('stock_balances_uq').on(t.accountId, t.kind, t.itemId, t.storeId), check('stock_balances_not_negative', sql`${t.quantity} >= 0`)],
);

/** The append-only stock ledger: each move with its document, signed quantity and the balance after it. */
export const stockMoves = pgTable(
  'stock_moves',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: integer('account_id').notNull(),
    kind: text('kind').notNull(),
    itemId: integer('item_id').notNull(),
    storeId: integer('store_id').notNull().default(0),
    /** batch, batch_delete, batch_store, item, item_state, item_store, sale, sale_void, material_in ... */
    docType: text('doc_type').notNull(),
    docId: integer('doc_id').notNull(),
    quantity: integer('quantity').notNull(),
    balance: integer('balance').notNull(),
    createdAt: created(),
  },
  (t) => [
    index('stock_moves_item_idx').on(t.accountId, t.kind, t.itemId, t.storeId, t.id),
    // Stock at a date: the last move of each thing and store before the date's end, read backwards.
    index('stock_moves_at_idx').on(t.accountId, t.kind, t.itemId, t.storeId, t.createdAt, t.id),
    index('stock_moves_doc_idx').on(t.docType, t.docId)],
);
