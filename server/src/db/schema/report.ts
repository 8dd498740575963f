// Thresholds of the trips and stops reports per account (docs/configuration.md "Reports"): an
// account's row holds what it set; a null column follows the nearest account above it that set one,
// then the platform's built-in defaults (modules/report/trips.ts TRIP_DEFAULTS).
import { doublePrecision, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';

export const reportSettings = pgTable('report_settings', {
  accountId: integer('account_id').primaryKey(),
  stopMinutes: doublePrecision('stop_minutes'),
  stopRadius: doublePrecision('stop_radius'),
  stopSpeed: doublePrecision('stop_speed'),
  gapMinutes: doublePrecision('gap_minutes'),
  minTripMeters: doublePrecision('min_trip_meters'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
