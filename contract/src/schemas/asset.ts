// Asset inventory (SPEC §3): tagged assets (a device marked as an asset with a category and the
// location it belongs in), where each is now (the location it is inside, floor, last seen, moving
// or still, missing when not seen for ASSET_MISSING_MINUTES), counts per location, and stock-takes
// of a location (expected against seen now, missing and extra), saved with who and when.
//
// Calls (ours):
// - /Asset/List          the subtree's assets, paged and filtered, with the counts per location.
// - /Asset/Save          mark devices as assets (category, expected location), or change them.
// - /Asset/Delete        devices are no longer assets.
// - /Asset/StockTake     take stock of a location now; saved and answered.
// - /Asset/StockTakes    past stock-takes, newest first, with their lines.
// - /Asset/StockTakeExport  one stock-take as an .xlsx.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { id, optionalId, text } from './common.js';
import { batchResultResponse } from './device.js';
import { choice } from './scene.js';

/** 1 wheelchair, 2 pump, 3 bed, 4 tool, 5 other; names are message keys `asset.category.<n>`. */
export const ASSET_CATEGORIES = [1, 2, 3, 4, 5] as const;
/** 1 present (seen within ASSET_MISSING_MINUTES), 2 missing. */
export const ASSET_STATES = [1, 2] as const;
/** Stock-take lines: 1 expected and seen, 2 missing, 3 extra. */
export const STOCK_TAKE_RESULTS = [1, 2, 3] as const;
export const MAX_ASSET_BATCH = 1000;

export const assetSchema = z.object({
  DeviceId: z.number(),
  Imei: z.string(),
  Name: z.string(),
  AccountName: z.string(),
  Category: z.number(),
  ExpectedLocationId: z.number().nullable(),
  ExpectedLocationName: z.string().nullable(),
  /** The location it is inside now (the latest entered when several). */
  LocationId: z.number().nullable(),
  LocationName: z.string().nullable(),
  FloorName: z.string().nullable(),
  LastSeen: z.string().nullable(),
  /** Moved more than ASSET_MOVING_METRES over its fixes of the last ASSET_MOVING_SECONDS. */
  Moving: z.boolean(),
  Missing: z.boolean(),
});
export type Asset = z.infer<typeof assetSchema>;

const ids = z.array(id).min(1, { error: 'validation.required' }).max(MAX_ASSET_BATCH, { error: 'validation.tooMany' });

export const assetListRequest = z.object({
  ...pageRequest,
  /** IMEI or name, contained. */
  Keyword: text(64).optional(),
  Category: choice(ASSET_CATEGORIES, 'validation.required', 'asset.categoryInvalid').optional(),
  /** Inside this location now. */
  LocationId: optionalId,
  State: choice(ASSET_STATES, 'validation.required', 'asset.stateInvalid').optional(),
});
export const assetListResponse = ok({
  Total: z.number().int(),
  Items: z.array(assetSchema),
  /** Assets inside each location now (of those in the subtree), locations with none left out. */
  PerLocation: z.array(z.object({ LocationId: z.number(), Name: z.string(), Count: z.number() })),
  Missing: z.number(),
  MissingMinutes: z.number(),
});

export const saveAssetsRequest = z.object({
  DeviceIds: ids,
  Category: choice(ASSET_CATEGORIES, 'asset.categoryRequired', 'asset.categoryInvalid'),
  ExpectedLocationId: id.nullable().default(null),
});
export const deleteAssetsRequest = z.object({ DeviceIds: ids });

export const stockTakeLineSchema = z.object({ DeviceId: z.number(), Imei: z.string(), Name: z.string(), Category: z.number(), Result: z.number() });
export const stockTakeSchema = z.object({
  StockTakeId: z.number(),
  LocationId: z.number(),
  LocationName: z.string(),
  UserName: z.string(),
  Time: z.string(),
  Expected: z.number(),
  Seen: z.number(),
  Missing: z.number(),
  Extra: z.number(),
  Lines: z.array(stockTakeLineSchema),
});
export type StockTake = z.infer<typeof stockTakeSchema>;

export const stockTakeRequest = z.object({ LocationId: id });
export const stockTakeResponse = ok({ Item: stockTakeSchema });
export const stockTakeListRequest = z.object({ ...pageRequest, LocationId: optionalId });
export const stockTakeListResponse = pageOf(stockTakeSchema);
export const stockTakeExportRequest = z.object({ StockTakeId: id });
export const stockTakeExportResponse = ok({ FileName: z.string(), Content: z.string(), Rows: z.number() });

export const assetSchemas = {
  '/Asset/List': { request: assetListRequest, response: assetListResponse },
  '/Asset/Save': { request: saveAssetsRequest, response: batchResultResponse },
  '/Asset/Delete': { request: deleteAssetsRequest, response: batchResultResponse },
  '/Asset/StockTake': { request: stockTakeRequest, response: stockTakeResponse },
  '/Asset/StockTakes': { request: stockTakeListRequest, response: stockTakeListResponse },
  '/Asset/StockTakeExport': { request: stockTakeExportRequest, response: stockTakeExportResponse },
};
