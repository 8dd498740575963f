// Live monitoring: the reverse-geocoding cache and the record of history exports (their quota).
import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Addresses by rounded coordinates (4 decimals, about 11 m) and language. */
export const geocodeCache = pgTable('geocode_cache', {
  key: text('key').primaryKey(),
  address: text('address').notNull(),
  source: text('source').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per history export: at most 3 per date selection per 24 hours (SPEC §5). */
export const historyExports = pgTable(
  'history_exports',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    rangeStart: timestamp('range_start', { withTimezone: true }).notNull(),
    rangeEnd: timestamp('range_end', { withTimezone: true }).notNull(),
    devices: integer('devices').notNull(),
    rows: integer('rows').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('history_exports_account_idx').on(t.accountId, t.rangeStart, t.rangeEnd, t.createdAt)],
);
