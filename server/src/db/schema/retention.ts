// How long the time series are kept (docs/scaling.md "Retention"): the root account's row is the
// platform's default, a top-level account's row overrides it for its whole subtree. A null column
// follows the level above (the platform default, or the built-in default of `db/partitions.ts`).
import { integer, pgTable, timestamp } from 'drizzle-orm/pg-core';

export const dataRetention = pgTable('data_retention', {
  accountId: integer('account_id').primaryKey(),
  positionsDays: integer('positions_days'),
  healthDays: integer('health_days'),
  eventsDays: integer('events_days'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
