// Alarms (SPEC §3 "Alarm type", "Alarm setting", "Alarm record"): the installation's alarm types,
// the alarms raised, per-user pop-up settings, alarm contacts and health thresholds.
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, real, serial, smallint, text, timestamp, uniqueIndex, doublePrecision } from 'drizzle-orm/pg-core';

export const alarmTypes = pgTable(
  'alarm_types',
  {
    id: serial('id').primaryKey(),
    code: integer('code').notNull(),
    nameZh: text('name_zh').notNull(),
    nameEn: text('name_en').notNull(),
    descriptionZh: text('description_zh').notNull().default(''),
    descriptionEn: text('description_en').notNull().default(''),
    category: text('category').notNull().default('device'),
    level: smallint('level').notNull().default(1),
    minValue: real('min_value'),
    maxValue: real('max_value'),
    ringType: smallint('ring_type').notNull().default(2),
    pagePush: smallint('page_push').notNull().default(1),
    /** 1 enabled, 2 invalid. */
    enabled: smallint('enabled').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alarm_types_code_uq').on(t.code)],
);

/**
 * Status 0 unconfirmed, 1 confirmed (acknowledged). The alarm's life (docs/decisions.md "Alarms"):
 * open, acknowledged (status 1), resolved (resolved_at), and cleared by the platform when the
 * condition ends (cleared_at), acknowledged or not.
 */
export const alarms = pgTable(
  'alarms',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Alarm type code (contract/src/alarm-types.ts). */
    type: integer('type').notNull(),
    deviceId: integer('device_id').notNull(),
    /** The device's owner when raised: the subtree scope applies to it. */
    accountId: integer('account_id').notNull(),
    status: smallint('status').notNull().default(0),
    /** Times raised while unconfirmed. */
    count: integer('count').notNull().default(1),
    /** i18n key and parameters of the description, rendered in the reader's language. */
    messageKey: text('message_key').notNull().default(''),
    messageParams: jsonb('message_params').notNull().default(sql`'{}'::jsonb`),
    value: real('value'),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    remark: text('remark').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastAt: timestamp('last_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    confirmedBy: integer('confirmed_by'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    resolvedBy: integer('resolved_by'),
    /** A key of ALARM_RESOLVE_CAUSES (contract). */
    resolveCause: text('resolve_cause'),
    resolveNote: text('resolve_note').notNull().default(''),
    /** When the platform saw the condition end (back online, charged, back in range, back inside). */
    clearedAt: timestamp('cleared_at', { withTimezone: true }),
    /** The account handling it: the alarm's account or one above it. */
    assigneeId: integer('assignee_id'),
    /**
     * Repeats of the device's same type are counted into this row: true while unacknowledged, not
     * resolved, not cleared, and last raised within ALARM_REPEAT_WINDOW_SECONDS of the repeat.
     */
    takesRepeats: boolean('takes_repeats').notNull().default(true),
  },
  (t) => [
    // One alarm per device and type takes repeats: they update it (INSERT ... ON CONFLICT DO UPDATE). An
    // acknowledged row never does, however it was stored (status 1 with the column left at its default).
    uniqueIndex('alarms_open_uq').on(t.deviceId, t.type).where(sql`takes_repeats AND status = 0`),
    // Alarms whose condition may still end: what the clearing rules look at.
    index('alarms_live_idx').on(t.type, t.deviceId).where(sql`cleared_at IS NULL AND resolved_at IS NULL`),
    // Lists are ordered by (created_at, id): the id keeps pages stable and lets one index give the order.
    index('alarms_account_created_idx').on(t.accountId, t.createdAt, t.id),
    index('alarms_device_created_idx').on(t.deviceId, t.createdAt, t.id),
    index('alarms_created_idx').on(t.createdAt, t.id),
  ],
);

/**
 * What happened to an alarm, in order: raised, repeated, acknowledged, assigned, comment, resolved,
 * cleared (and the notices sent for it). `kind` is a key rendered in the reader's language with `params`.
 */
export const alarmEvents = pgTable(
  'alarm_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alarmId: bigint('alarm_id', { mode: 'number' }).notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    actorId: integer('actor_id'),
    params: jsonb('params').$type<Record<string, unknown>>().notNull().default(sql`'{}'::jsonb`),
  },
  (t) => [index('alarm_events_alarm_idx').on(t.alarmId, t.at, t.id)],
);

/** A user's pop-up setting for one alarm type. */
export const alarmSettings = pgTable(
  'alarm_settings',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    alarmTypeId: integer('alarm_type_id').notNull(),
    /** 1 pop-up on, 2 off. */
    newState: smallint('new_state').notNull().default(1),
    /** 1 no auto-close, 2 auto-close, 3 ring. */
    ringType: smallint('ring_type').notNull().default(2),
    state: smallint('state').notNull().default(1),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('alarm_settings_account_type_uq').on(t.accountId, t.alarmTypeId)],
);

/** People told of an account's alarms (and its subtree's) by SMS or e-mail. */
export const alarmContacts = pgTable(
  'alarm_contacts',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    name: text('name').notNull(),
    phone: text('phone').notNull().default(''),
    email: text('email').notNull().default(''),
    notifySms: smallint('notify_sms').notNull().default(1),
    notifyEmail: smallint('notify_email').notNull().default(1),
    /** Alarm type codes; empty means all. */
    types: jsonb('types').$type<number[]>().notNull().default(sql`'[]'::jsonb`),
    /** Quiet hours in the contact's account zone, minutes after midnight (from > to spans midnight); null: none. Escalation skips the contact then, except for SOS and falls. */
    quietFrom: smallint('quiet_from'),
    quietTo: smallint('quiet_to'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('alarm_contacts_account_idx').on(t.accountId)],
);

/** Own thresholds of an account (device_id null) or of one device; null bounds are not checked. */
export const healthThresholds = pgTable(
  'health_thresholds',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id'),
    deviceId: integer('device_id'),
    heartRateMin: real('heart_rate_min'),
    heartRateMax: real('heart_rate_max'),
    systolicMin: real('systolic_min'),
    systolicMax: real('systolic_max'),
    diastolicMin: real('diastolic_min'),
    diastolicMax: real('diastolic_max'),
    bodyTempMax: real('body_temp_max'),
    wristTempMax: real('wrist_temp_max'),
    bloodOxygenMin: real('blood_oxygen_min'),
    /** km/h; overspeed alarms (rules/overspeed.ts). */
    speedLimit: real('speed_limit'),
    /** No motion for this many minutes raises noMotion (rules/no-motion.ts). */
    noMotionMinutes: integer('no_motion_minutes'),
    /** Wire form ({ Days, Windows }), in the account's zone; null: always watched. */
    noMotionSchedule: jsonb('no_motion_schedule').$type<{ Days: number[]; Windows: { Start: string; End: string }[] } | null>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('health_thresholds_device_uq').on(t.deviceId).where(sql`device_id IS NOT NULL`),
    uniqueIndex('health_thresholds_account_uq').on(t.accountId).where(sql`device_id IS NULL`),
  ],
);
