// Escalation of unacknowledged alarms: a policy per account and alarm type (inherited down the account
// tree unless a sub-account has its own), the durable schedule of due steps (a channel of the outbox
// in lib/outbox.ts), and every notification a step sent, for the alarm's timeline.
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** One step of a policy: after `wait` minutes unacknowledged, notify these recipients on these channels. */
export interface EscalationStepSpec {
  wait: number;
  /** Alarm contacts of the device's account, by their position (1 = first) in the contacts' order. */
  contacts: number[];
  /** Accounts of the subtree on duty: their own phone and e-mail, and their console. */
  dutyUsers: number[];
  /** The parent account of the device's account: its alarm contacts and its console. */
  parent: boolean;
  channels: ('sms' | 'email' | 'push' | 'console')[];
}

export const escalationPolicies = pgTable(
  'escalation_policies',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    /** Alarm type code (contract ALARM_CODES). */
    alarmType: integer('alarm_type').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    steps: jsonb('steps').$type<EscalationStepSpec[]>().notNull(),
    /** The last step is repeated every `repeat_minutes` (0: not repeated), at most `repeat_cap` times. */
    repeatMinutes: integer('repeat_minutes').notNull().default(0),
    repeatCap: smallint('repeat_cap').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('escalation_policies_account_type_idx').on(t.accountId, t.alarmType)],
);

/** Due steps of alarms (the outbox's columns): `step` is 0-based, repeats of the last step count on. */
export const escalationOutbox = pgTable(
  'escalation_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alarmId: bigint('alarm_id', { mode: 'number' }).notNull(),
    policyId: integer('policy_id').notNull(),
    step: integer('step').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('escalation_outbox_due_idx').on(t.status, t.nextAt),
    // One row per alarm and step: a step is scheduled once, whoever schedules it.
    uniqueIndex('escalation_outbox_alarm_step_idx').on(t.alarmId, t.step),
  ],
);

/** Each notification a step sent: channel, recipient, and whether it went out. */
export const escalationSends = pgTable(
  'escalation_sends',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    alarmId: bigint('alarm_id', { mode: 'number' }).notNull(),
    step: integer('step').notNull(),
    channel: text('channel').notNull(),
    recipient: text('recipient').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ok: boolean('ok').notNull(),
    error: text('error').notNull().default(''),
  },
  (t) => [index('escalation_sends_alarm_idx').on(t.alarmId, t.id)],
);
