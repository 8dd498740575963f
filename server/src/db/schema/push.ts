// Partner push: companies alarms are POSTed to, the outbox that makes delivery survive restarts,
// and the log of every attempt.
import { bigint, bigserial, boolean, index, integer, pgTable, serial, smallint, text, timestamp } from 'drizzle-orm/pg-core';

export const pushCompanies = pgTable(
  'push_companies',
  {
    id: serial('id').primaryKey(),
    /** Alarms of this account's subtree are pushed. */
    accountId: integer('account_id').notNull(),
    name: text('name').notNull(),
    pushModel: smallint('push_model').notNull().default(1),
    defaultFormat: smallint('default_format').notNull().default(1),
    pushUrl: text('push_url').notNull(),
    /** 1 effective, 2 not. */
    effective: smallint('effective').notNull().default(1),
    verificationCode: text('verification_code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_companies_account_idx').on(t.accountId)],
);

/** One row per alarm and company until delivered or given up; status pending, delivered, failed. */
export const pushOutbox = pgTable(
  'push_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    alarmId: bigint('alarm_id', { mode: 'number' }),
    imei: text('imei').notNull().default(''),
    url: text('url').notNull(),
    body: text('body').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    /** A worker holds the row until then; a crashed worker's claim simply expires. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_outbox_due_idx').on(t.status, t.nextAt)],
);

export const pushAttempts = pgTable(
  'push_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    outboxId: bigint('outbox_id', { mode: 'number' }).notNull(),
    companyId: integer('company_id').notNull(),
    alarmId: bigint('alarm_id', { mode: 'number' }),
    imei: text('imei').notNull().default(''),
    url: text('url').notNull(),
    attempt: integer('attempt').notNull(),
    statusCode: integer('status_code'),
    success: boolean('success').notNull(),
    error: text('error').notNull().default(''),
    durationMs: integer('duration_ms').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('push_attempts_company_created_idx').on(t.companyId, t.createdAt), index('push_attempts_created_idx').on(t.createdAt)],
);
