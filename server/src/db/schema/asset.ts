// Tagged assets (wheelchairs, pumps, beds, tools): a device marked as an asset with a category and
// the location it belongs in, and the stock-takes of a location (expected against seen, saved with
// who and when).
import { index, integer, jsonb, pgTable, smallint, text, timestamp } from 'drizzle-orm/pg-core';

export const assets = pgTable(
  'assets',
  {
    /** The tag (a device); its account is the asset's owner. */
    deviceId: integer('device_id').primaryKey(),
    /** 1 wheelchair, 2 pump, 3 bed, 4 tool, 5 other. */
    category: smallint('category').notNull(),
    /** The location it belongs in (beacon_locations.id), if any. */
    expectedLocationId: integer('expected_location_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('assets_expected_location_idx').on(t.expectedLocationId), index('assets_category_idx').on(t.category)],
);

/** One asset of a stock-take as it was then. */
export interface StockTakeLine {
  deviceId: number;
  imei: string;
  name: string;
  category: number;
  /** 1 expected and seen, 2 missing (expected, not seen), 3 extra (seen, not expected). */
  result: number;
}

export const assetStockTakes = pgTable(
  'asset_stock_takes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** The location's owner at the time: the stock-take is seen where the location is. */
    ownerId: integer('owner_id').notNull(),
    locationId: integer('location_id').notNull(),
    locationName: text('location_name').notNull(),
    /** Who took it (login name kept: the account may go). */
    userId: integer('user_id').notNull(),
    userName: text('user_name').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull().defaultNow(),
    expected: integer('expected').notNull(),
    seen: integer('seen').notNull(),
    missing: integer('missing').notNull(),
    extra: integer('extra').notNull(),
    lines: jsonb('lines').$type<StockTakeLine[]>().notNull(),
  },
  (t) => [index('asset_stock_takes_owner_idx').on(t.ownerId, t.time), index('asset_stock_takes_location_idx').on(t.locationId, t.time)],
);
