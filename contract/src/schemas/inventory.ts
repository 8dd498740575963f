// Schemas of the inventory: the dictionaries (owners, versions, models, stores), stock-in batches
// of IMEIs, the stock items (one per IMEI) and the sales that hand devices over to customer
// accounts (SPEC §3 inventory items, §5 "a model without stock cannot be sold").
//
// - /Inventory/<Dict>List|Insert|Update|DelById   the four dictionaries; an entry in use cannot go.
// - /Inventory/InventoryBatchList|BatchInsert|UpdateInfo|DelById   stock-in batches: the IMEIs (and
//   as many ICCIDs) pasted or as an .xlsx workbook; each refused row is reported with its reason.
// - /Inventory/DevicesList|Insert|Update|DelById   the stock items, searched by IMEI range or list.
// - /Inventory/SalesList|Insert|Update|DelById   sales; DelById voids the sale (reversing the hand-over).
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { INT4_MAX, STORABLE, changingOneOf, dateInput, id, int, optionalDate, optionalId, requiredText, text } from './common.js';

/** States of a stock item. */
export const ITEM_STATES = { inStock: 1, sold: 2, returned: 3, scrapped: 4 } as const;
export type ItemState = (typeof ITEM_STATES)[keyof typeof ITEM_STATES];
/** Version kinds. */
export const VERSION_KINDS = { firmware: 1, hardware: 2 } as const;
/** Most IMEIs one stock-in batch takes (pasted or in a workbook). */
export const BATCH_MAX_ROWS = 100_000;
/** Most IMEIs one sale takes. */
export const SALE_MAX_DEVICES = 10_000;
/** Most IMEIs a list search takes. */
export const SEARCH_MAX_IMEIS = 1000;

const optionalInt = (min: number, max: number) => z.preprocess((v) => (v === '' || v === null ? undefined : v), int(min, max).optional());
const optionalRef = z.preprocess((v) => (v === '' || v === null || v === 0 ? undefined : v), optionalId);
const remark = text(500).optional().default('');
const dictName = requiredText('inventory.nameRequired', 64);

const dictItem = {
  Id: z.number(),
  Name: z.string(),
  Remark: z.string(),
  /** Stock items, batches or sales use the entry: it cannot be deleted. */
  InUse: z.boolean(),
  Created: z.string(),
};
const dictList = z.object({ ...pageRequest, Keyword: text(64).optional() });
const delById = z.object({ Id: id });

export const ownerSchema = z.object(dictItem);
export const versionSchema = z.object({ ...dictItem, Kind: z.number() });
export const modelSchema = z.object({
  ...dictItem,
  /** The catalogue model sold devices are created with (its protocol); none: the name only. */
  DeviceModelId: z.number().nullable(),
  DeviceModelName: z.string(),
  /** Items of the model in stock. */
  InStock: z.number(),
});
/** Seeded stores have names in every language (rendered in the reader's). */
export const storeSchema = z.object({ ...dictItem, Address: z.string(), Seeded: z.boolean() });
export type InventoryOwner = z.infer<typeof ownerSchema>;
export type InventoryVersion = z.infer<typeof versionSchema>;
export type InventoryModel = z.infer<typeof modelSchema>;
export type InventoryStore = z.infer<typeof storeSchema>;

export const ownerSave = z.object({ Name: dictName, Remark: remark });
export const versionSave = z.object({ Name: dictName, Kind: int(1, 2).default(1), Remark: remark });
export const modelSave = z.object({ Name: dictName, DeviceModelId: optionalRef, Remark: remark });
export const storeSave = z.object({ Name: dictName, Address: text(200).optional().default(''), Remark: remark });
const withId = <T extends z.ZodRawShape>(s: z.ZodObject<T>) => s.extend({ Id: id });

/** A pasted IMEI: its format is checked row by row (the report), not by the call. */
const rawImei = text(32);
const rawIccid = text(32);

export const batchSchema = z.object({
  Id: z.number(),
  BatchNo: z.string(),
  ModelId: z.number(),
  ModelName: z.string(),
  VersionId: z.number().nullable(),
  VersionName: z.string(),
  StoreId: z.number(),
  StoreName: z.string(),
  OwnerId: z.number().nullable(),
  OwnerName: z.string(),
  StockInDate: z.string(),
  Quantity: z.number(),
  InStock: z.number(),
  Remark: z.string(),
  Created: z.string(),
});
export type InventoryBatch = z.infer<typeof batchSchema>;

export const batchListRequest = z.object({
  ...pageRequest,
  ModelId: optionalRef,
  StoreId: optionalRef,
  Keyword: text(64).optional(),
});

export const batchInsertRequest = z
  .object({
    ModelId: int(1, INT4_MAX, 'inventory.modelRequired'),
    VersionId: optionalRef,
    StoreId: int(1, INT4_MAX, 'inventory.storeRequired'),
    OwnerId: optionalRef,
    StockInDate: dateInput,
    Remark: remark,
    /** Pasted IMEIs, one per row (15 digits each; a bad one is reported, the others kept). */
    Imeis: z.array(rawImei).max(BATCH_MAX_ROWS, { error: 'inventory.batchTooMany' }).default([]),
    /** ICCIDs of the same rows, when given: as many as IMEIs. */
    Iccids: z.array(rawIccid).max(BATCH_MAX_ROWS, { error: 'inventory.batchTooMany' }).default([]),
    /** Or an .xlsx workbook, base64: column IMEI (and ICCID) under a header row. */
    Content: z
      .string()
      .trim()
      .max(14 * 1024 * 1024, { error: 'device.importTooLarge' })
      .check(...STORABLE)
      .optional(),
    /** Check every row and report, without storing anything. */
    DryRun: z.boolean().default(false),
  })
  .superRefine((b, ctx) => {
    if (!b.Content && b.Imeis.length === 0) ctx.addIssue({ code: 'custom', path: ['Imeis'], message: 'validation.imeiRequired' });
    if (!b.Content && b.Iccids.length > 0 && b.Iccids.length !== b.Imeis.length)
      ctx.addIssue({ code: 'custom', path: ['Iccids'], message: 'validation.imeiIccidCount' });
  });

/** One refused row of a batch and why. */
export const rowFailureSchema = z.object({
  Row: z.number(),
  Imei: z.string(),
  Message: z.string(),
  Params: z.record(z.string(), z.unknown()).optional(),
});
export const batchInsertResponse = ok({
  /** The new batch; 0 when nothing was stored (a dry run, or every row refused). */
  Id: z.number(),
  Rows: z.number(),
  Succeeded: z.number(),
  Failed: z.array(rowFailureSchema),
});

/** What is absent (a date given as '' too) stays as it is; at least one field must change. */
export const batchUpdateRequest = changingOneOf(
  z.object({
    Id: id,
    VersionId: optionalRef,
    /** A new store moves the batch's items in stock there (ledger moves out and in). */
    StoreId: optionalRef,
    OwnerId: optionalRef,
    StockInDate: optionalDate,
    Remark: text(500).optional(),
  }),
  ['VersionId', 'StoreId', 'OwnerId', 'StockInDate', 'Remark'],
);

export const itemSchema = z.object({
  Id: z.number(),
  Imei: z.string(),
  Iccid: z.string(),
  ModelId: z.number(),
  ModelName: z.string(),
  VersionId: z.number().nullable(),
  VersionName: z.string(),
  StoreId: z.number(),
  StoreName: z.string(),
  OwnerId: z.number().nullable(),
  OwnerName: z.string(),
  /** ITEM_STATES. */
  State: z.number(),
  BatchId: z.number().nullable(),
  BatchNo: z.string(),
  SaleId: z.number().nullable(),
  SaleNo: z.string(),
  CustomerName: z.string(),
  ExpiresAt: z.string().nullable(),
  Created: z.string(),
});
export type InventoryItem = z.infer<typeof itemSchema>;

const imeiText = text(15).regex(/^\d*$/, { error: 'validation.imeiInvalid' });
export const itemListRequest = z
  .object({
    ...pageRequest,
    ModelId: optionalRef,
    VersionId: optionalRef,
    StoreId: optionalRef,
    OwnerId: optionalRef,
    BatchId: optionalRef,
    SaleId: optionalRef,
    State: optionalInt(1, 4),
    /** Substring of the IMEI. */
    Imei: imeiText.optional(),
    /** IMEI range, inclusive (15 digits each). */
    ImeiFrom: imeiText.optional(),
    ImeiTo: imeiText.optional(),
    /** These IMEIs only. */
    Imeis: z.array(imeiText).max(SEARCH_MAX_IMEIS, { error: 'validation.max' }).optional(),
  })
  .superRefine((q, ctx) => {
    for (const k of ['ImeiFrom', 'ImeiTo'] as const)
      if (q[k] && q[k]!.length !== 15) ctx.addIssue({ code: 'custom', path: [k], message: 'validation.imeiInvalid' });
    if (q.ImeiFrom && q.ImeiTo && q.ImeiFrom > q.ImeiTo) ctx.addIssue({ code: 'custom', path: ['ImeiTo'], message: 'inventory.imeiRangeOrder' });
  });

const iccidField = text(32).regex(/^[0-9A-Za-z]*$/, { error: 'device.iccidInvalid' });
export const itemInsertRequest = z.object({
  Imei: text(32).regex(/^\d{15}$/, { error: 'validation.imeiInvalid' }),
  Iccid: iccidField.optional().default(''),
  ModelId: int(1, INT4_MAX, 'inventory.modelRequired'),
  VersionId: optionalRef,
  StoreId: int(1, INT4_MAX, 'inventory.storeRequired'),
  OwnerId: optionalRef,
});
export const itemUpdateRequest = z.object({
  Id: id,
  Iccid: iccidField.optional(),
  VersionId: optionalRef,
  StoreId: optionalRef,
  OwnerId: optionalRef,
  /** In stock, returned or scrapped; "sold" is set by a sale only. */
  State: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.union([z.literal(1), z.literal(3), z.literal(4)], { error: 'inventory.stateInvalid' }).optional()),
});

export const saleSchema = z.object({
  Id: z.number(),
  SaleNo: z.string(),
  CustomerId: z.number(),
  CustomerName: z.string(),
  ModelId: z.number(),
  ModelName: z.string(),
  Quantity: z.number(),
  SoldAt: z.string(),
  ExpiresAt: z.string().nullable(),
  Remark: z.string(),
  /** 1 valid, 2 voided. */
  State: z.number(),
  VoidedAt: z.string().nullable(),
  Created: z.string(),
});
export type InventorySale = z.infer<typeof saleSchema>;

export const saleListRequest = z.object({
  ...pageRequest,
  CustomerId: optionalRef,
  ModelId: optionalRef,
  State: optionalInt(1, 2),
  Keyword: text(64).optional(),
});

export const saleInsertRequest = z
  .object({
    /** The customer account the devices go to (of the caller's subtree). */
    CustomerId: int(1, INT4_MAX, 'inventory.customerRequired'),
    ModelId: int(1, INT4_MAX, 'inventory.modelRequired'),
    /** How many; with no IMEIs the oldest items of the model in stock (of StoreId when given) are taken. */
    Quantity: optionalInt(1, SALE_MAX_DEVICES),
    StoreId: optionalRef,
    /** The IMEIs sold, picked or scanned. */
    Imeis: z.array(imeiText).max(SALE_MAX_DEVICES, { error: 'inventory.saleTooMany' }).default([]),
    /** Service expiry of the devices (each device's own in Expiries, same order as Imeis). */
    ExpiresAt: optionalDate,
    Expiries: z.array(optionalDate).max(SALE_MAX_DEVICES).optional(),
    SoldAt: optionalDate,
    Remark: remark,
  })
  .superRefine((b, ctx) => {
    if (!b.Imeis.length && !b.Quantity) ctx.addIssue({ code: 'custom', path: ['Imeis'], message: 'inventory.saleImeisRequired' });
    if (b.Imeis.length && b.Quantity !== undefined && b.Quantity !== b.Imeis.length)
      ctx.addIssue({ code: 'custom', path: ['Quantity'], message: 'inventory.saleQuantityMismatch', params: { count: b.Imeis.length } });
    if (b.Expiries && b.Expiries.length !== b.Imeis.length) ctx.addIssue({ code: 'custom', path: ['Expiries'], message: 'inventory.expiriesCount' });
  });
export const saleInsertResponse = ok({ Id: z.number(), SaleNo: z.string(), Quantity: z.number() });
/** What is absent (a date given as '' too) stays as it is; at least one field must change. */
export const saleUpdateRequest = changingOneOf(z.object({ Id: id, ExpiresAt: optionalDate, SoldAt: optionalDate, Remark: text(500).optional() }), ['ExpiresAt', 'SoldAt', 'Remark']);

export const okId = ok({ Id: z.number() });
const okNothing = ok({});

export const inventorySchemas = {
  '/Inventory/OwnerList': { request: dictList, response: pageOf(ownerSchema) },
  '/Inventory/OwnerInsert': { request: ownerSave, response: okId },
  '/Inventory/OwnerUpdate': { request: withId(ownerSave), response: okNothing },
  '/Inventory/OwnerDelById': { request: delById, response: okNothing },
  '/Inventory/VersionList': { request: dictList, response: pageOf(versionSchema) },
  '/Inventory/VersionInsert': { request: versionSave, response: okId },
  '/Inventory/VersionUpdate': { request: withId(versionSave), response: okNothing },
  '/Inventory/VersionDelById': { request: delById, response: okNothing },
  '/Inventory/ModelList': { request: dictList, response: pageOf(modelSchema) },
  '/Inventory/ModelInsert': { request: modelSave, response: okId },
  '/Inventory/ModelUpdate': { request: withId(modelSave), response: okNothing },
  '/Inventory/ModelDelById': { request: delById, response: okNothing },
  '/Inventory/StoreList': { request: dictList, response: pageOf(storeSchema) },
  '/Inventory/StoreInsert': { request: storeSave, response: okId },
  '/Inventory/StoreUpdate': { request: withId(storeSave), response: okNothing },
  '/Inventory/StoreDelById': { request: delById, response: okNothing },
  '/Inventory/InventoryBatchList': { request: batchListRequest, response: pageOf(batchSchema) },
  '/Inventory/BatchInsert': { request: batchInsertRequest, response: batchInsertResponse },
  '/Inventory/UpdateInfo': { request: batchUpdateRequest, response: okNothing },
  '/Inventory/DelById': { request: delById, response: okNothing },
  '/Inventory/DevicesList': { request: itemListRequest, response: pageOf(itemSchema) },
  '/Inventory/DevicesInsert': { request: itemInsertRequest, response: okId },
  '/Inventory/DevicesUpdate': { request: itemUpdateRequest, response: okNothing },
  '/Inventory/DevicesDelById': { request: delById, response: okNothing },
  '/Inventory/SalesList': { request: saleListRequest, response: pageOf(saleSchema) },
  '/Inventory/SalesInsert': { request: saleInsertRequest, response: saleInsertResponse },
  '/Inventory/SalesUpdate': { request: saleUpdateRequest, response: okNothing },
  '/Inventory/SalesDelById': { request: delById, response: okNothing },
} as const;
