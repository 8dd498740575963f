// Thresholds of the trips and stops reports per account (docs/configuration.md "Reports"): an
// account's row holds what it set; a null column follows the nearest account above it that set one,
// then the platform's built-in defaults (modules/report/trips.ts TRIP_DEFAULTS).
import { boolean, doublePrecision, index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

export const reportSettings = pgTable('report_settings', {
  accountId: integer('account_id').primaryKey(),
  stopMinutes: doublePrecision('stop_minutes'),
  stopRadius: doublePrecision('stop_radius'),
  stopSpeed: doublePrecision('stop_speed'),
  gapMinutes: doublePrecision('gap_minutes'),
  minTripMeters: doublePrecision('min_trip_meters'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// Scheduled reports (modules/report/schedule.ts): each row is a subscription and, at once, its entry
// in the durable outbox (status, attempts, next_at, locked_until, last_error): due at next_at, mailed
// by the worker, then due again at the next period's end.
export const reportSubscriptions = pgTable(
  'report_subscriptions',
  {
    id: serial('id').primaryKey(),
    /** The subscriber: the report is computed as this account sees it, in its language and zone. */
    accountId: integer('account_id').notNull(),
    report: text('report').notNull(),
    frequency: text('frequency').notNull(),
    email: text('email').notNull(),
    subjectUserId: integer('subject_user_id'),
    groupId: integer('group_id'),
    deviceId: integer('device_id'),
    enabled: boolean('enabled').notNull().default(true),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error').notNull().default(''),
    lastSentAt: timestamp('last_sent_at', { withTimezone: true }),
    lastPeriod: text('last_period').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('report_subscriptions_account_idx').on(t.accountId), index('report_subscriptions_due_idx').on(t.status, t.nextAt)],
);
