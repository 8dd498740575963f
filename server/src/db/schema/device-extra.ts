// What the console attaches to devices: wearer profiles, groups, device roles and device fences
// with each device's inside/outside state per fence.
import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, real, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

/** One wearer profile per device (SPEC §3 person info). */
export const devicePersons = pgTable('device_persons', {
  deviceId: integer('device_id').primaryKey(),
  name: text('name').notNull().default(''),
  gender: text('gender'),
  age: smallint('age'),
  phone: text('phone').notNull().default(''),
  email: text('email').notNull().default(''),
  address: text('address').notNull().default(''),
  remark: text('remark').notNull().default(''),
  bloodType: text('blood_type'),
  height: real('height'),
  weight: real('weight'),
  /** File name under DATA_DIR/uploads/avatars. */
  avatar: text('avatar').notNull().default(''),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const deviceGroups = pgTable(
  'device_groups',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('device_groups_account_name_uq').on(t.accountId, sql`lower(${t.name})`)],
);

export const deviceRoles = pgTable(
  'device_roles',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    color: text('color').notNull(),
    shape: text('shape').notNull().default('circle'),
    icon: text('icon').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('device_roles_account_name_uq').on(t.accountId, sql`lower(${t.name})`)],
);

export const deviceFences = pgTable(
  'device_fences',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** circle | polygon */
    kind: text('kind').notNull(),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    radius: doublePrecision('radius'),
    /** Polygon vertices [[lat, lon], ...]. */
    points: jsonb('points').$type<[number, number][]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('device_fences_device_idx').on(t.deviceId)],
);

/** Where each device was, for each of its fences, at its last evaluated position. */
export const deviceFenceState = pgTable(
  'device_fence_state',
  {
    deviceId: integer('device_id').notNull(),
    fenceId: integer('fence_id').notNull(),
    inside: boolean('inside').notNull(),
    /** Device time of the position that set it, so an older buffered position cannot flip it back. */
    time: timestamp('time', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.fenceId] }), index('device_fence_state_fence_idx').on(t.fenceId)],
);
