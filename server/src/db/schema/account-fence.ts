// Account fences (SPEC §3 Account fence): areas owned by an account that watch the devices of the
// accounts they name, each device's debounced inside/outside state per fence, the log of its
// crossings, and the daily attendance summaries computed from the stored positions.
import { sql } from 'drizzle-orm';
import { bigserial, boolean, date, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp } from 'drizzle-orm/pg-core';

export interface StoredSchedule {
  /** 0 Sunday ... 6 Saturday: the days a window may start on, in the owner's time zone. */
  days: number[];
  /** "HH:mm"; an end not after its start runs past midnight. */
  windows: { start: string; end: string }[];
}

export const accountFences = pgTable(
  'account_fences',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** The owner account: the fence counts towards its 10 (SPEC §9). */
    ownerId: integer('owner_id').notNull(),
    name: text('name').notNull(),
    /** 1 entering, 2 leaving, 3 both. */
    alarmType: smallint('alarm_type').notNull(),
    /** polygon | circle | district */
    kind: text('kind').notNull(),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    radius: doublePrecision('radius'),
    /** Polygon vertices [[lat, lon], ...]. */
    points: jsonb('points').$type<[number, number][]>().notNull().default(sql`'[]'::jsonb`),
    /** 6-digit division code of a district fence. */
    districtCode: text('district_code'),
    /** Also the devices of the watched accounts' sub-accounts. */
    includeChildren: boolean('include_children').notNull().default(false),
    /** Null: always active. */
    schedule: jsonb('schedule').$type<StoredSchedule | null>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moves on every change of shape or schedule: state and summaries older than it are recomputed. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('account_fences_owner_idx').on(t.ownerId)],
);

/** The accounts a fence watches. */
export const accountFenceAccounts = pgTable(
  'account_fence_accounts',
  {
    fenceId: integer('fence_id').notNull(),
    accountId: integer('account_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.fenceId, t.accountId] }), index('account_fence_accounts_account_idx').on(t.accountId)],
);

/** Each watched device's debounced side of each fence, and the candidate side while it dwells. */
export const accountFenceState = pgTable(
  'account_fence_state',
  {
    deviceId: integer('device_id').notNull(),
    fenceId: integer('fence_id').notNull(),
    inside: boolean('inside').notNull(),
    /** Device time of the first fix on the current side (the crossing). */
    since: timestamp('since', { withTimezone: true }).notNull(),
    /** Device time of the last fix evaluated: an older one cannot change the state. */
    time: timestamp('time', { withTimezone: true }).notNull(),
    /** The other side, seen but not yet held for the dwell: first fix time and number of fixes. */
    pendingSince: timestamp('pending_since', { withTimezone: true }),
    pendingCount: smallint('pending_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.fenceId] }), index('account_fence_state_fence_idx').on(t.fenceId)],
);

/** Confirmed crossings (and first sightings, `initial`), in device time. */
export const accountFenceTransitions = pgTable(
  'account_fence_transitions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    fenceId: integer('fence_id').notNull(),
    deviceId: integer('device_id').notNull(),
    /** The side entered. */
    inside: boolean('inside').notNull(),
    /** Device time of the first fix on the new side. */
    time: timestamp('time', { withTimezone: true }).notNull(),
    /** Device time of the fix that confirmed it (after the dwell). */
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull(),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    /** The first position seen for this fence: a state, not a crossing (no alarm). */
    initial: boolean('initial').notNull().default(false),
    /** An alarm was raised for it (the fence's alarm type and schedule allowed one). */
    alarmed: boolean('alarmed').notNull().default(false),
  },
  (t) => [index('account_fence_transitions_fence_device_time_idx').on(t.fenceId, t.deviceId, t.time)],
);

/** One device's day at one fence, in the owner's time zone, computed from the stored positions. */
export const attendanceDaily = pgTable(
  'attendance_daily',
  {
    fenceId: integer('fence_id').notNull(),
    deviceId: integer('device_id').notNull(),
    day: date('day').notNull(),
    firstIn: timestamp('first_in', { withTimezone: true }),
    lastOut: timestamp('last_out', { withTimezone: true }),
    insideSeconds: integer('inside_seconds').notNull().default(0),
    entries: integer('entries').notNull().default(0),
    exits: integer('exits').notNull().default(0),
    lateMinutes: integer('late_minutes').notNull().default(0),
    earlyMinutes: integer('early_minutes').notNull().default(0),
    late: boolean('late').notNull().default(false),
    early: boolean('early').notNull().default(false),
    absent: boolean('absent').notNull().default(false),
    /** The day had schedule windows (late, early and absent are measured only then). */
    scheduled: boolean('scheduled').notNull().default(false),
    /** The side at the day's end (null: unknown, no position yet), which the next day starts from. */
    endInside: boolean('end_inside'),
    /** The pending side at the day's end, carried into the next day: first fix time and count. */
    endPendingSince: timestamp('end_pending_since', { withTimezone: true }),
    endPendingCount: smallint('end_pending_count').notNull().default(0),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.fenceId, t.deviceId, t.day] }), index('attendance_daily_fence_day_idx').on(t.fenceId, t.day)],
);

/**
 * Devices whose summaries must be computed again from a time on (positions arrived for them, late or
 * live): the job recomputes every day from `since` (in each fence owner's time zone) to today.
 */
export const attendanceDirty = pgTable('attendance_dirty', {
  deviceId: integer('device_id').primaryKey(),
  since: timestamp('since', { withTimezone: true }).notNull(),
  markedAt: timestamp('marked_at', { withTimezone: true }).notNull().defaultNow(),
});
