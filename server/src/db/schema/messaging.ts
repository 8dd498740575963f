// Messaging: the SMS service (balances and their change log), the notice outbox that carries alarm
// texts and e-mails to alarm contacts, messages sent to devices by role, and the companion app's
// versions.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, date, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** An account's SMS service: no row means disabled with nothing recharged. */
export const smsBalances = pgTable('sms_balances', {
  accountId: integer('account_id').primaryKey(),
  /** 1 enabled, 2 disabled. */
  enabled: smallint('enabled').notNull().default(1),
  recharged: integer('recharged').notNull().default(0),
  used: integer('used').notNull().default(0),
  remaining: integer('remaining').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every change of a balance: recharge, deduct (a notice charged), refund (a notice that never went
 * out, or one the provider reported undelivered), refuse (nothing left), status, sync.
 */
export const smsChanges = pgTable(
  'sms_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: integer('account_id').notNull(),
    kind: text('kind').notNull(),
    amount: integer('amount').notNull().default(0),
    remaining: integer('remaining').notNull().default(0),
    /** Who made it (an administrator); null for the platform's own changes. */
    byAccountId: integer('by_account_id'),
    byName: text('by_name').notNull().default(''),
    remark: text('remark').notNull().default(''),
    noticeId: bigint('notice_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sms_changes_account_idx').on(t.accountId, t.id)],
);

/**
 * Alarm notices to contacts, one row per contact and channel (sms, email), written in the alarm's
 * transaction and delivered by the outbox worker. Status: pending, sent (accepted by the SMS
 * provider, waiting for its delivery report), delivered, undelivered, failed, refused (no balance).
 */
export const noticeOutbox = pgTable(
  'notice_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    channel: text('channel').notNull(),
    /** The contact's account: its balance pays, its language is the text's. */
    accountId: integer('account_id').notNull(),
    alarmId: bigint('alarm_id', { mode: 'number' }),
    imei: text('imei').notNull().default(''),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull().default(''),
    body: text('body').notNull(),
    /** SMS segments charged (0 for e-mail and refused texts). */
    segments: integer('segments').notNull().default(0),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error').notNull().default(''),
    /** The provider's message id, to match its delivery report. */
    providerRef: text('provider_ref'),
    /** The charge was given back (failed, or reported undelivered and reconciled). */
    refunded: boolean('refunded').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    index('notice_outbox_due_idx').on(t.status, t.nextAt),
    index('notice_outbox_account_idx').on(t.accountId, t.id),
    index('notice_outbox_ref_idx').on(t.providerRef),
  ],
);

/** A message sent to the devices of roles, groups or accounts; its devices' commands carry its id. */
export const messageSends = pgTable(
  'message_sends',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    /** message (the watch message), ip (the server address command), weather (the day's forecast). */
    kind: text('kind').notNull().default('message'),
    senderName: text('sender_name').notNull().default(''),
    name: text('name').notNull(),
    text: text('text').notNull(),
    roleIds: jsonb('role_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    groupIds: jsonb('group_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    accountIds: jsonb('account_ids').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    total: integer('total').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('message_sends_account_idx').on(t.accountId, t.id)],
);

/** The commands of a message send, one per device. */
export const messageSendCommands = pgTable(
  'message_send_commands',
  {
    sendId: integer('send_id').notNull(),
    commandId: integer('command_id').notNull(),
  },
  (t) => [uniqueIndex('message_send_commands_pk').on(t.sendId, t.commandId), index('message_send_commands_command_idx').on(t.commandId)],
);

/** Companion app versions per platform (android, ios). */
export const appVersions = pgTable(
  'app_versions',
  {
    id: serial('id').primaryKey(),
    platform: text('platform').notNull(),
    oldVersion: text('old_version').notNull().default(''),
    newVersion: text('new_version').notNull(),
    versionCode: integer('version_code').notNull(),
    minVersion: text('min_version').notNull().default(''),
    /** 1 forced, 2 optional. */
    forced: smallint('forced').notNull().default(2),
    /** An uploaded package (key under DATA_DIR/app) or an external URL. */
    fileKey: text('file_key'),
    fileName: text('file_name').notNull().default(''),
    fileSize: integer('file_size'),
    sha256: text('sha256'),
    url: text('url').notNull().default(''),
    /** Update content per language: { 'zh-CN': ..., 'zh-TW': ..., en: ... }. */
    content: jsonb('content').$type<Record<string, string>>().notNull().default(sql`'{}'::jsonb`),
    createdBy: integer('created_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('app_versions_platform_code_uq').on(t.platform, t.versionCode)],
);

/** The day (in the account's time zone) each account's devices last got the daily weather. */
export const weatherPushes = pgTable('weather_pushes', {
  accountId: integer('account_id').primaryKey(),
  day: date('day', { mode: 'string' }).notNull(),
});
