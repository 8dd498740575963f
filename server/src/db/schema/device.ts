// Devices, their latest state, the time series they produce (positions, health readings, events),
// the commands sent to them and the HTTP uplink integrations (SPEC §3, ARCHITECTURE "Data").
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const devices = pgTable(
  'devices',
  {
    id: serial('id').primaryKey(),
    /** 15 digits. */
    imei: text('imei').notNull(),
    /** Last 10 digits of the IMEI: many watches identify themselves with these only. */
    shortId: text('short_id').notNull(),
    /** Identity on a network server or gateway when it is not the IMEI (LoRa DevEUI, tag MAC). */
    extId: text('ext_id'),
    name: text('name').notNull().default(''),
    modelId: integer('model_id'),
    modelName: text('model_name').notNull().default(''),
    /** Codec the device speaks: watch, gt06, osmand, uplink. Commands are encoded with it. */
    protocol: text('protocol').notNull().default('watch'),
    /** Owner account; the subtree scope applies to it. */
    accountId: integer('account_id').notNull(),
    bound: boolean('bound').notNull().default(true),
    iccid: text('iccid').notNull().default(''),
    softwareVersion: text('software_version').notNull().default(''),
    stockInAt: timestamp('stock_in_at', { withTimezone: true }),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    groupId: integer('group_id'),
    roleId: integer('role_id'),
    /**
     * Addresses and CIDR ranges the device may connect from (canonical, set by an administrator);
     * empty: anywhere. The gateway refuses its frames from elsewhere.
     */
    allowedNetworks: text('allowed_networks').array().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('devices_imei_uq').on(t.imei),
    index('devices_short_id_idx').on(t.shortId),
    uniqueIndex('devices_ext_id_uq').on(t.extId),
    index('devices_account_idx').on(t.accountId),
    // The device list pages an account's devices newest first (and filters by model).
    index('devices_account_id_idx').on(t.accountId, t.id),
    index('devices_model_idx').on(t.modelId),
  ],
);

/** One row per device: what the map and the lists show without reading the time series. */
export const deviceState = pgTable('device_state', {
  deviceId: integer('device_id').primaryKey(),
  fixTime: timestamp('fix_time', { withTimezone: true }),
  lat: doublePrecision('lat'),
  lon: doublePrecision('lon'),
  fixValid: boolean('fix_valid'),
  speed: real('speed'),
  course: real('course'),
  battery: smallint('battery'),
  signal: smallint('signal'),
  steps: integer('steps'),
  heartRate: real('heart_rate'),
  systolic: real('systolic'),
  diastolic: real('diastolic'),
  bodyTemp: real('body_temp'),
  wristTemp: real('wrist_temp'),
  bloodOxygen: real('blood_oxygen'),
  healthTime: timestamp('health_time', { withTimezone: true }),
  lastSeen: timestamp('last_seen', { withTimezone: true }),
  online: boolean('online').notNull().default(false),
  /** 'long' (keeps a TCP connection) or 'short' (reports over HTTP/MQTT and goes away). */
  connectionMode: text('connection_mode'),
  /**
   * The latest indoor fix (scene, floor, plan metres, accuracy, method 1 nearest, 2 trilateration,
   * 3 UWB, 4 AOA). The device is indoors now while indoor_time is not before fix_time.
   */
  indoorSceneId: integer('indoor_scene_id'),
  indoorFloorId: integer('indoor_floor_id'),
  indoorX: real('indoor_x'),
  indoorY: real('indoor_y'),
  indoorAccuracy: real('indoor_accuracy'),
  indoorMethod: smallint('indoor_method'),
  indoorTime: timestamp('indoor_time', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

// positions, health_readings and device_events are partitioned by day on `time` (PARTITION BY RANGE,
// a default partition for times outside the daily ones): the partitioning is hand-written SQL in
// their migration, and `db/partitions.ts` creates days ahead and drops them past retention.

/** Append-only; no primary key so the insert path maintains a single index. */
export const positions = pgTable(
  'positions',
  {
    deviceId: integer('device_id').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** Null for LBS/Wi-Fi only reports, located later from the towers. */
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    valid: boolean('valid').notNull().default(false),
    speed: real('speed'),
    course: real('course'),
    altitude: real('altitude'),
    accuracy: real('accuracy'),
    satellites: smallint('satellites'),
    cells: jsonb('cells'),
    wifi: jsonb('wifi'),
    attributes: jsonb('attributes'),
    /** Indoor fixes: scene, floor, plan metres (x right, y down) and method (as device_state's). */
    sceneId: integer('scene_id'),
    floorId: integer('floor_id'),
    x: real('x'),
    y: real('y'),
    method: smallint('method'),
  },
  (t) => [index('positions_device_time_idx').on(t.deviceId, t.time)],
);

export const healthReadings = pgTable(
  'health_readings',
  {
    deviceId: integer('device_id').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    heartRate: real('heart_rate'),
    systolic: real('systolic'),
    diastolic: real('diastolic'),
    bodyTemp: real('body_temp'),
    wristTemp: real('wrist_temp'),
    bloodOxygen: real('blood_oxygen'),
    hrv: real('hrv'),
    steps: integer('steps'),
    distance: real('distance'),
    calories: real('calories'),
    uv: real('uv'),
    pho: real('pho'),
    ir: real('ir'),
    sleep: jsonb('sleep'),
    /**
     * A reading with a measure the health thresholds check, written in the ingest transaction and
     * not yet evaluated by the alarm engine (which clears it in the transaction of its alarms).
     */
    pending: boolean('pending').notNull().default(false),
  },
  (t) => [
    index('health_device_time_idx').on(t.deviceId, t.time),
    // Only the few readings still to evaluate: the alarm engine's replay after a restart reads it.
    index('health_readings_pending_idx').on(t.deviceId, t.time).where(sql`pending`),
  ],
);

/** Alarms and other events as the device reported them (login, beacon scans ...). */
export const deviceEvents = pgTable(
  'device_events',
  {
    id: bigserial('id', { mode: 'number' }).notNull(),
    deviceId: integer('device_id').notNull(),
    time: timestamp('time', { withTimezone: true }).notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    kind: text('kind').notNull(),
    payload: jsonb('payload'),
    /**
     * An alarm the device reported that the alarm engine has not yet turned into an alarm record:
     * set in the ingest transaction, cleared in the transaction that writes the alarm and its pushes.
     */
    pending: boolean('pending').notNull().default(false),
  },
  (t) => [
    // A partitioned table's unique keys include its partition key.
    primaryKey({ name: 'device_events_pkey', columns: [t.id, t.time] }),
    index('device_events_device_time_idx').on(t.deviceId, t.time),
    // Only the few events still to handle: the alarm engine's replay after a restart reads it.
    index('device_events_pending_idx').on(t.id).where(sql`pending`),
  ],
);

export const commands = pgTable(
  'commands',
  {
    id: serial('id').primaryKey(),
    deviceId: integer('device_id').notNull(),
    /** Who sent it. */
    accountId: integer('account_id').notNull(),
    code: text('code').notNull(),
    params: jsonb('params').notNull().default(sql`'{}'::jsonb`),
    /** The keyword the device echoes in its reply (UPLOAD, CR, TIMER ...), upper case. */
    keyword: text('keyword').notNull().default(''),
    /** The bytes as sent (text for text protocols, hex for binary ones). */
    encoded: text('encoded').notNull().default(''),
    status: text('status').notNull().default('queued'),
    error: text('error').notNull().default(''),
    reply: text('reply'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    answeredAt: timestamp('answered_at', { withTimezone: true }),
  },
  (t) => [
    index('commands_device_status_idx').on(t.deviceId, t.status, t.id),
    index('commands_created_idx').on(t.createdAt),
    // The reply timeout's sweep: only commands on the wire.
    index('commands_sent_idx').on(t.sentAt).where(sql`status = 'sent'`),
  ],
);

/** A network server or partner system allowed to POST uplinks for the devices of its owner's subtree. */
export const integrations = pgTable('integrations', {
  id: serial('id').primaryKey(),
  /** The `:integration` of POST /api/ingest/:integration. */
  name: text('name').notNull().unique(),
  accountId: integer('account_id').notNull(),
  /** SHA-256 of the bearer token; the token itself is shown once, when created. */
  tokenHash: text('token_hash').notNull(),
  enabled: boolean('enabled').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** Last accepted uplink, written at most once a minute per process. */
  lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
});
