// Indoor scenes (SPEC §3 Scene, Floor, Scene beacon): buildings owned by an account, their floors
// (a PNG plan with its scale and georeference) and the anchors placed on them (BLE beacons, UWB
// anchors, AOA locators). Uploaded files live in the rows themselves, so every process of a
// deployment serves them; each file has a random key that changes with the file, used in its URL
// (answered with a year's cache) and known only to those who may read the scene.
import { sql } from 'drizzle-orm';
import { customType, doublePrecision, index, integer, pgTable, real, smallint, text, timestamp, uniqueIndex, boolean } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

export const scenes = pgTable(
  'scenes',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** The owner account: the scene counts towards its 5 (SPEC §9). */
    ownerId: integer('owner_id').notNull(),
    name: text('name').notNull(),
    lat: doublePrecision('lat').notNull(),
    lon: doublePrecision('lon').notNull(),
    address: text('address').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** 1 Bluetooth, 2 UWB. */
    beaconType: smallint('beacon_type').notNull(),
    /** 1 triangular (trilateration), 2 nearest beacon. */
    method: smallint('method').notNull(),
    /** The sanitized SVG map. */
    mapSvg: text('map_svg').notNull(),
    mapKey: text('map_key').notNull(),
    /** PNG or sanitized SVG. */
    icon: bytea('icon'),
    iconType: text('icon_type'),
    iconKey: text('icon_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('scenes_owner_idx').on(t.ownerId)],
);

export const floors = pgTable(
  'floors',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    sceneId: integer('scene_id').notNull(),
    /** The floor's number as people say it; unique in its scene. */
    floorNo: integer('floor_no').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** 1 office, 2 factory, 3 other. */
    kind: smallint('kind').notNull(),
    plan: bytea('plan').notNull(),
    planKey: text('plan_key').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Null until the scale is set. */
    metresPerPixel: doublePrecision('metres_per_pixel'),
    /** WGS-84 of the plan's top-left corner and the rotation of its +x axis from east (clockwise degrees). */
    originLat: doublePrecision('origin_lat'),
    originLon: doublePrecision('origin_lon'),
    rotation: doublePrecision('rotation'),
    /** Path-loss exponent n of the distance model here. */
    exponent: real('exponent').notNull().default(2),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('floors_scene_no_idx').on(t.sceneId, t.floorNo)],
);

// One row per physical beacon: the registry (SPEC §3 Beacon: UUID or MAC identity, address,
// longitude/latitude, owner) and, when placed on a floor, the scene anchor the positioning engine
// uses. A beacon not placed has no scene, floor or plan coordinates; removeInnerBT clears them.
export const sceneAnchors = pgTable(
  'scene_anchors',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    /** The owning account (a placed anchor's is its scene's owner). */
    ownerId: integer('owner_id').notNull(),
    /** Null when the beacon is not placed indoors. */
    sceneId: integer('scene_id'),
    floorId: integer('floor_id'),
    name: text('name').notNull(),
    /** Normalized: upper case with colons. Unique over the platform: a MAC names one beacon. Null: a UUID-model beacon without one. */
    mac: text('mac'),
    /** UUID model: code, major and minor; null for a MAC-model beacon. */
    code: text('code'),
    major: integer('major'),
    minor: integer('minor'),
    /** 1 UUID model, 2 MAC model. */
    model: smallint('model').notNull().default(1),
    /** 1 BLE beacon, 2 UWB anchor, 3 AOA locator. */
    kind: smallint('kind').notNull(),
    /** 1 valid, 2 invalid (left out of positioning). */
    state: smallint('state').notNull().default(1),
    address: text('address').notNull().default(''),
    /** WGS-84 where the beacon hangs: a device hearing it is placed there when it has no better fix. */
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    /** Plan metres; null when not placed. */
    x: doublePrecision('x'),
    y: doublePrecision('y'),
    height: real('height').notNull().default(2.5),
    /** AOA: degrees clockwise on screen from the plan's +x axis. */
    heading: real('heading').notNull().default(0),
    /** Calibrated RSSI at 1 m, dBm. */
    rssi1m: real('rssi_1m').notNull().default(-59),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('scene_anchors_mac_idx').on(t.mac),
    uniqueIndex('scene_anchors_ibeacon_idx').on(sql`lower(${t.code})`, t.major, t.minor),
    index('scene_anchors_floor_idx').on(t.floorId),
    index('scene_anchors_scene_idx').on(t.sceneId),
    index('scene_anchors_owner_idx').on(t.ownerId),
  ],
);
