// Locations (SPEC §3 Location: a floor zone or a set of beacons, supervised devices, the event that
// raises alarms) with each device's debounced presence and the confirmed entries and exits, and the
// master-slave bindings (a watch and the tag MACs it should keep near).
import { sql } from 'drizzle-orm';
import { bigserial, boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { StoredSchedule } from './account-fence.js';

export const beaconLocations = pgTable(
  'beacon_locations',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    ownerId: integer('owner_id').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** 1 alarm on entering; 2 alarm on entering and leaving. */
    event: smallint('event').notNull(),
    /** 1 a zone drawn on a floor plan; 2 the places where its beacons are heard. */
    kind: smallint('kind').notNull(),
    floorId: integer('floor_id'),
    /** Zone: [x, y] plan metres, at least 3. */
    points: jsonb('points').$type<[number, number][] | null>(),
    /** Beacons (registry ids) of a beacon-defined location. */
    beaconIds: integer('beacon_ids').array().notNull().default([]),
    /** Devices supervised; with `accountIds` empty too: every device of the owner's subtree. */
    deviceIds: integer('device_ids').array().notNull().default([]),
    /** Accounts whose own devices are supervised. */
    accountIds: integer('account_ids').array().notNull().default([]),
    schedule: jsonb('schedule').$type<StoredSchedule | null>(),
    /** Longest stay allowed inside (minutes); a device staying longer raises stayedTooLong. Null: no limit. */
    maxStayMinutes: integer('max_stay_minutes'),
    /** 1 on, 2 off (updateBeaconLocationStatus). */
    status: smallint('status').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('beacon_locations_owner_idx').on(t.ownerId), uniqueIndex('beacon_locations_owner_name_idx').on(t.ownerId, t.name)],
);

/** A device's debounced side of a location (rules/dwell.ts), written when the side or the candidate changes. */
export const beaconLocationPresence = pgTable(
  'beacon_location_presence',
  {
    locationId: integer('location_id').notNull(),
    deviceId: integer('device_id').notNull(),
    inside: boolean('inside').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    pendingSince: timestamp('pending_since', { withTimezone: true }),
    pendingCount: smallint('pending_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.locationId, t.deviceId] }), index('beacon_location_presence_device_idx').on(t.deviceId)],
);

/** Confirmed entries and exits; `pending` until the alarm engine has raised its alarm. */
export const beaconLocationEvents = pgTable(
  'beacon_location_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    locationId: integer('location_id').notNull(),
    deviceId: integer('device_id').notNull(),
    /** The side entered. */
    inside: boolean('inside').notNull(),
    /** First position on the new side. */
    time: timestamp('time', { withTimezone: true }).notNull(),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    /** An alarm is owed for it and not yet raised. */
    pending: boolean('pending').notNull().default(false),
  },
  (t) => [index('beacon_location_events_loc_idx').on(t.locationId, t.time), index('beacon_location_events_pending_idx').on(t.pending).where(sql`pending`)],
);

/** A master device and the slave tags it should keep near (a slave belongs to one master). */
export const masterSlaveBindings = pgTable(
  'master_slave_bindings',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    ownerId: integer('owner_id').notNull(),
    masterDeviceId: integer('master_device_id').notNull(),
    /** Seconds without hearing a slave before it is separated. */
    timeoutSeconds: integer('timeout_seconds').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('master_slave_master_idx').on(t.masterDeviceId), index('master_slave_owner_idx').on(t.ownerId)],
);

export const masterSlaves = pgTable(
  'master_slaves',
  {
    bindingId: integer('binding_id').notNull(),
    /** Normalized MAC; unique: one master at a time. */
    mac: text('mac').notNull(),
    name: text('name').notNull().default(''),
    /** Last time the master reported hearing it, and how loud. */
    lastHeard: timestamp('last_heard', { withTimezone: true }),
    rssi: smallint('rssi'),
    separated: boolean('separated').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.bindingId, t.mac] }), uniqueIndex('master_slaves_mac_idx').on(t.mac)],
);
