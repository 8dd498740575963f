// Latest state per device: merged from each batch's messages, upserted into device_state in the
// batch's transaction, and kept in memory for the map. A fix only replaces an older fix, so a
// buffered (historical) upload never moves a device back in time.
import type { DeviceMessage, IndoorFix } from '@wt/protocols';
import { boundDouble, boundInt, boundMs, boundReal, boundSmallint, boundTime } from './bounds.js';

export type ConnectionMode = 'long' | 'short';

/** How an indoor fix was computed, as the method columns store it. */
export const INDOOR_METHOD_CODES: Record<IndoorFix['method'], number> = { nearest: 1, trilateration: 2, uwb: 3, aoa: 4 };
/** The method column's code of a fix placed at a registered beacon (no scene, floor or plan coordinates). */
export const BEACON_METHOD_CODE = 5;

/** The indoor part of the latest fix: null when that fix was outdoors. */
export type IndoorState = (IndoorFix & { accuracy?: number }) | null;

export interface StateDelta {
  deviceId: number;
  fixTime?: number;
  lat?: number;
  lon?: number;
  valid?: boolean;
  speed?: number;
  course?: number;
  battery?: number;
  signal?: number;
  steps?: number;
  heartRate?: number;
  systolic?: number;
  diastolic?: number;
  bodyTemp?: number;
  wristTemp?: number;
  bloodOxygen?: number;
  healthTime?: number;
  /** With the fix (fixTime): its indoor position, or null for an outdoor fix. */
  indoor?: IndoorState;
  lastSeen: number;
  mode: ConnectionMode;
}

export interface LiveState extends StateDelta {
  online: boolean;
}

/**
 * A delta with every field present (undefined until known): deltas and live states of one shape
 * keep the merges below monomorphic, which shows at tens of thousands of messages a second.
 */
export function newDelta(deviceId: number, lastSeen: number, mode: ConnectionMode): StateDelta {
  return {
    deviceId, fixTime: undefined, lat: undefined, lon: undefined, valid: undefined, speed: undefined, course: undefined,
    battery: undefined, signal: undefined, steps: undefined, heartRate: undefined, systolic: undefined, diastolic: undefined,
    bodyTemp: undefined, wristTemp: undefined, bloodOxygen: undefined, healthTime: undefined, indoor: undefined, lastSeen, mode,
  };
}

/** A live state of the same shape, online or not. */
export function newLive(deviceId: number, lastSeen: number, mode: ConnectionMode, online: boolean): LiveState {
  return { ...newDelta(deviceId, lastSeen, mode), online };
}

function mergeHealth(to: StateDelta, h: Pick<StateDelta, 'heartRate' | 'systolic' | 'diastolic' | 'bodyTemp' | 'wristTemp' | 'bloodOxygen'>): void {
  if (h.heartRate !== undefined) to.heartRate = h.heartRate;
  if (h.systolic !== undefined) to.systolic = h.systolic;
  if (h.diastolic !== undefined) to.diastolic = h.diastolic;
  if (h.bodyTemp !== undefined) to.bodyTemp = h.bodyTemp;
  if (h.wristTemp !== undefined) to.wristTemp = h.wristTemp;
  if (h.bloodOxygen !== undefined) to.bloodOxygen = h.bloodOxygen;
}

/** Folds one message into a delta (or a live state): same rules as the SQL upsert below. */
export function mergeMessage(s: StateDelta, msg: DeviceMessage, receivedAt: number, mode: ConnectionMode): void {
  if (receivedAt >= s.lastSeen) {
    s.lastSeen = receivedAt;
    s.mode = mode;
  }
  const fix = msg.fix;
  if (fix && Number.isFinite(fix.lat) && Number.isFinite(fix.lon)) {
    // The same time the position row gets: the fix's, else the message's, else the receive time.
    const t = boundMs(fix.time?.getTime(), receivedAt) ?? boundMs(msg.time?.getTime(), receivedAt) ?? receivedAt;
    if (s.fixTime === undefined || t >= s.fixTime) {
      s.fixTime = t;
      s.lat = fix.lat;
      s.lon = fix.lon;
      s.valid = fix.valid;
      s.speed = fix.speed;
      s.course = fix.course;
      s.indoor = fix.indoor ? { ...fix.indoor, ...(fix.accuracy !== undefined ? { accuracy: fix.accuracy } : {}) } : null;
    }
  }
  const st = msg.status;
  if (st && !msg.buffered) {
    if (st.battery !== undefined) s.battery = st.battery;
    if (st.signal !== undefined) s.signal = st.signal;
    if (st.steps !== undefined) s.steps = st.steps;
  }
  const h = msg.health;
  if (h) {
    const t = boundMs(msg.time?.getTime(), receivedAt) ?? receivedAt;
    if (s.healthTime === undefined || t >= s.healthTime) {
      mergeHealth(s, h);
      if (h.steps !== undefined) s.steps = h.steps;
      s.healthTime = t;
    }
  }
}

/** Merges a committed batch delta into the live state. */
export function mergeDelta(live: LiveState, d: StateDelta): void {
  if (d.lastSeen >= live.lastSeen) {
    live.lastSeen = d.lastSeen;
    live.mode = d.mode;
  }
  if (d.fixTime !== undefined && (live.fixTime === undefined || d.fixTime >= live.fixTime)) {
    live.fixTime = d.fixTime;
    live.lat = d.lat;
    live.lon = d.lon;
    live.valid = d.valid;
    live.speed = d.speed;
    live.course = d.course;
    live.indoor = d.indoor;
  }
  if (d.battery !== undefined) live.battery = d.battery;
  if (d.signal !== undefined) live.signal = d.signal;
  if (d.steps !== undefined) live.steps = d.steps;
  if (d.healthTime !== undefined && (live.healthTime === undefined || d.healthTime >= live.healthTime)) {
    mergeHealth(live, d);
    live.healthTime = d.healthTime;
  }
}

/** Rows for the upsert, as JSON for json_to_recordset; each value within its column (./bounds.ts). */
export function stateRowsJson(deltas: Iterable<StateDelta>): string {
  const rows = [];
  for (const d of deltas) {
    rows.push({
      d: d.deviceId,
      ft: boundTime(d.fixTime, d.lastSeen),
      la: boundDouble(d.lat),
      lo: boundDouble(d.lon),
      v: d.valid ?? null,
      sp: boundReal(d.speed),
      co: boundReal(d.course),
      // Integer columns: devices send fractions now and then (battery 85.5 %).
      b: boundSmallint(d.battery),
      si: boundSmallint(d.signal),
      st: boundInt(d.steps),
      hr: boundReal(d.heartRate),
      sy: boundReal(d.systolic),
      di: boundReal(d.diastolic),
      bt: boundReal(d.bodyTemp),
      wt: boundReal(d.wristTemp),
      bo: boundReal(d.bloodOxygen),
      ht: boundTime(d.healthTime, d.lastSeen),
      ls: new Date(d.lastSeen).toISOString(),
      m: d.mode,
      is: d.indoor ? boundInt(d.indoor.sceneId) : null,
      if: d.indoor ? boundInt(d.indoor.floorId) : null,
      ix: d.indoor ? boundReal(d.indoor.x) : null,
      iy: d.indoor ? boundReal(d.indoor.y) : null,
      ia: d.indoor ? boundReal(d.indoor.accuracy) : null,
      im: d.indoor ? INDOOR_METHOD_CODES[d.indoor.method] : null,
    });
  }
  return JSON.stringify(rows);
}

const newerFix = 'EXCLUDED.fix_time IS NOT NULL AND (s.fix_time IS NULL OR EXCLUDED.fix_time >= s.fix_time)';
const newerHealth = 'EXCLUDED.health_time IS NOT NULL AND (s.health_time IS NULL OR EXCLUDED.health_time >= s.health_time)';
const fixCol = (c: string) => `${c} = CASE WHEN ${newerFix} THEN EXCLUDED.${c} ELSE s.${c} END`;
// The last indoor fix stays when an outdoor one follows (indoor_time then falls behind fix_time).
const newerIndoor = `${newerFix} AND EXCLUDED.indoor_time IS NOT NULL`;
const indoorCol = (c: string) => `${c} = CASE WHEN ${newerIndoor} THEN EXCLUDED.${c} ELSE s.${c} END`;
const INDOOR_COLUMNS = ['indoor_scene_id', 'indoor_floor_id', 'indoor_x', 'indoor_y', 'indoor_accuracy', 'indoor_method', 'indoor_time'];
const healthCol = (c: string) => `${c} = CASE WHEN ${newerHealth} THEN COALESCE(EXCLUDED.${c}, s.${c}) ELSE s.${c} END`;

// Rows are sorted by device id by the caller, so concurrent batches lock rows in one order.
export const upsertStateSql = (param: number) => `
INSERT INTO device_state AS s (device_id, fix_time, lat, lon, fix_valid, speed, course, battery, signal, steps,
  heart_rate, systolic, diastolic, body_temp, wrist_temp, blood_oxygen, health_time, last_seen, online, connection_mode, updated_at,
  ${INDOOR_COLUMNS.join(', ')})
SELECT d, ft, la, lo, v, sp, co, b, si, st, hr, sy, di, bt, wt, bo, ht, ls, true, m, now(),
  "is", "if", ix, iy, ia, im, CASE WHEN "is" IS NULL THEN NULL ELSE ft END
FROM json_to_recordset($${param}::json) AS x(d int, ft timestamptz, la float8, lo float8, v bool, sp real, co real, b smallint,
  si smallint, st int, hr real, sy real, di real, bt real, wt real, bo real, ht timestamptz, ls timestamptz, m text,
  "is" int, "if" int, ix real, iy real, ia real, im smallint)
ON CONFLICT (device_id) DO UPDATE SET
  ${['fix_time', 'lat', 'lon', 'fix_valid', 'speed', 'course'].map(fixCol).join(',\n  ')},
  ${INDOOR_COLUMNS.map(indoorCol).join(',\n  ')},
  battery = COALESCE(EXCLUDED.battery, s.battery),
  signal = COALESCE(EXCLUDED.signal, s.signal),
  steps = COALESCE(EXCLUDED.steps, s.steps),
  ${['heart_rate', 'systolic', 'diastolic', 'body_temp', 'wrist_temp', 'blood_oxygen'].map(healthCol).join(',\n  ')},
  health_time = CASE WHEN ${newerHealth} THEN EXCLUDED.health_time ELSE s.health_time END,
  last_seen = GREATEST(EXCLUDED.last_seen, s.last_seen),
  online = true,
  connection_mode = EXCLUDED.connection_mode,
  updated_at = now()`;

export const UPSERT_STATE_SQL = upsertStateSql(1);
