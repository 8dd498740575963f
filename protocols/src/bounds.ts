// What a device may say, field by field. Every decoder passes its messages through boundMessages
// before returning them: a value no wearable or tracker can report (a battery of 70 000 %, a step
// count past 2^31, a fix in the year 5000, a NUL inside a text) is left out or cut to size, and the
// rest of the message is kept. A message whose identity itself is unusable is dropped. The limits
// are physical ones, never tighter than a real device; they also keep every value inside the
// column it is stored in (real, smallint, int, timestamptz, text and jsonb without NUL).
import type {
  AlarmKind,
  BeaconScan,
  CellTower,
  DeviceMessage,
  DeviceStatus,
  Fix,
  HealthReading,
  WifiAccessPoint,
} from './types.js';

const INT4_MAX = 2_147_483_647;
const DAY_MS = 86_400_000;

/** The range of every bounded field: [min, max], integers where `int` is set. */
export const DEVICE_LIMITS = {
  /** Device times before this are a clock that was never set (GPS week roll-over, RTC reset). */
  timeMin: Date.UTC(2000, 0, 1),
  /** How far ahead of our clock a device time may be (time-zone mistakes included); beyond it is not a time. */
  futureMs: DAY_MS,
  lat: [-90, 90],
  lon: [-180, 180],
  /** km/h */
  speed: [0, 2000],
  course: [0, 360],
  /** metres */
  altitude: [-12_000, 60_000],
  accuracy: [0, 1_000_000],
  satellites: [0, 255],
  battery: [0, 100],
  /** volts */
  power: [0, 1000],
  signal: [0, 100],
  steps: [0, INT4_MAX],
  tumbles: [0, INT4_MAX],
  heartRate: [1, 300],
  systolic: [1, 300],
  diastolic: [1, 300],
  bodyTemp: [20, 50],
  wristTemp: [-40, 80],
  bloodOxygen: [1, 100],
  hrv: [0, 1000],
  /** metres */
  distance: [0, 10_000_000],
  calories: [0, 1_000_000],
  uv: [0, 50],
  /** PHO (PPG signal) and IR (infrared wear sensor) levels, percent (SPEC §5 "other values 0-100"). */
  pho: [0, 100],
  ir: [0, 100],
  sleepMinutes: [0, 1440],
  /** MCC and MNC have three digits, but protocols carry 16 bits and some devices fill them. */
  mcc: [0, 65_535],
  mnc: [0, 65_535],
  lac: [0, 4_294_967_295],
  cid: [0, Number.MAX_SAFE_INTEGER],
  rssi: [-200, 200],
  beaconRssi: [-200, 50],
  major: [0, 65_535],
  /** metres, UWB scene coordinates */
  coordinate: [-1_000_000, 1_000_000],
  /** UWB quality, percent. */
  quality: [0, 100],
  /** AOA angles, degrees. */
  azimuth: [-360, 360],
  elevation: [-90, 90],
  angles: 16,
  serverFlag: [0, 4_294_967_295],
  /** List lengths. */
  cells: 64,
  wifi: 64,
  beacons: 64,
  sleep: 96,
  attributes: 64,
  /** Text lengths (characters). */
  identity: 64,
  type: 32,
  key: 64,
  attribute: 512,
  ssid: 64,
  mac: 32,
  uuid: 64,
  keyword: 64,
  reply: 4096,
} as const;

type Range = readonly [number, number];
const L = DEVICE_LIMITS;

/** The number when it is finite and within [min, max]; otherwise undefined ("absent"). */
export function inRange(v: unknown, [min, max]: Range): number | undefined {
  return typeof v === 'number' && v >= min && v <= max ? v : undefined; // NaN fails both tests
}

function intIn(v: unknown, range: Range): number | undefined {
  const n = inRange(v, range);
  return n === undefined ? undefined : Math.round(n);
}

// NUL (refused by PostgreSQL in text and jsonb) and lone UTF-16 surrogates (refused in jsonb).
// Control characters are what these expressions are about.
/* eslint-disable no-control-regex */
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const CONTROLS = /[\u0000-\u001f\u007f]/g;
const NEEDS_WORK = /[\u0000-\u001f\u007f\uD800-\uDFFF]/;
/* eslint-enable no-control-regex */

/**
 * Text that any text or jsonb column takes: no NUL, no lone surrogate, at most `max` characters.
 * `controls: false` also removes the other control characters (identities, keys, names).
 */
export function cleanText(s: string, max: number, opts: { controls?: boolean } = {}): string {
  let out = s;
  if (NEEDS_WORK.test(out)) {
    out = out.replace(UNSTORABLE, (c) => (c === '\u0000' ? '' : '\uFFFD'));
    if (opts.controls === false) out = out.replace(CONTROLS, '');
  }
  if (out.length > max) {
    out = out.slice(0, max);
    // Do not leave half of a surrogate pair at the cut.
    if (/[\uD800-\uDBFF]$/.test(out)) out = out.slice(0, -1);
  }
  return out;
}

/** An identity as it can be looked up: 1 to 64 characters, no control characters, well formed. */
export function validIdentity(id: unknown): id is string {
  return typeof id === 'string' && id.length > 0 && id.length <= L.identity && !NEEDS_WORK.test(id);
}

/** A device time we can store and believe, or undefined. */
export function boundTime(d: unknown, now: number): Date | undefined {
  if (!(d instanceof Date)) return undefined;
  const t = d.getTime();
  return t >= L.timeMin && t <= now + L.futureMs ? d : undefined;
}

const ALARM_KINDS = new Set<AlarmKind>([
  'sos',
  'lowBattery',
  'fenceIn',
  'fenceOut',
  'fall',
  'removal',
  'powerCut',
  'powerOff',
  'vibration',
  'overspeed',
  'tamper',
]);
const SLEEP_STAGES = new Set(['awake', 'light', 'deep']);
const MAC = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;

/** Sets o[k] to v, or removes k when v is undefined; writes nothing when it is already so. */
function put<T extends object, K extends keyof T>(o: T, k: K, v: T[K] | undefined): void {
  if (v === undefined) delete o[k];
  else if (o[k] !== v) o[k] = v;
}

/** Keeps o[k] when it is a number in range (an integer when `integer`), else rounds it or drops it. */
function keep<T extends object>(o: T, k: keyof T, range: Range, integer = false): void {
  const v = o[k] as unknown;
  if (v === undefined) return;
  if (typeof v === 'number' && v >= range[0] && v <= range[1] && (!integer || Number.isInteger(v))) return;
  put(o, k, (integer ? intIn(v, range) : inRange(v, range)) as T[keyof T] | undefined);
}

function boundFix(f: Fix, now: number, msg: DeviceMessage): Fix | undefined {
  const lat = inRange(f.lat, L.lat);
  const lon = inRange(f.lon, L.lon);
  if (lat === undefined || lon === undefined) return undefined;
  const time = boundTime(f.time, now);
  if (!time) {
    noteDeviceTime(msg, f.time);
    // Where the device was is still true; when is our receive time.
    f.time = msg.time && boundTime(msg.time, now) ? msg.time : new Date(now);
  }
  if (f.valid !== true && f.valid !== false) f.valid = false;
  keep(f, 'speed', L.speed);
  keep(f, 'course', L.course);
  keep(f, 'altitude', L.altitude);
  keep(f, 'accuracy', L.accuracy);
  keep(f, 'satellites', L.satellites, true);
  return f;
}

/** Keeps the device's own (unbelievable) time as an attribute, for whoever looks at its clock. */
function noteDeviceTime(msg: DeviceMessage, d: unknown): void {
  if (d instanceof Date && Number.isFinite(d.getTime())) (msg.attributes ??= {}).deviceTime = d.toISOString();
}

const cellOk = (c: CellTower) =>
  !!c &&
  inRange(c.mcc, L.mcc) !== undefined &&
  inRange(c.mnc, L.mnc) !== undefined &&
  inRange(c.lac, L.lac) !== undefined &&
  inRange(c.cid, L.cid) !== undefined &&
  Number.isInteger(c.mcc) &&
  Number.isInteger(c.mnc) &&
  Number.isInteger(c.lac) &&
  Number.isInteger(c.cid) &&
  (c.rssi === undefined || (Number.isInteger(c.rssi) && inRange(c.rssi, L.rssi) !== undefined));

function boundCells(cells: CellTower[]): CellTower[] | undefined {
  // The common case, every tower already in range, keeps the list as it is.
  if (cells.length && cells.length <= L.cells && cells.every(cellOk)) return cells;
  const out: CellTower[] = [];
  for (const c of cells.slice(0, L.cells)) {
    if (!c || typeof c !== 'object') continue;
    const mcc = intIn(c.mcc, L.mcc);
    const mnc = intIn(c.mnc, L.mnc);
    const lac = intIn(c.lac, L.lac);
    const cid = intIn(c.cid, L.cid);
    if (mcc === undefined || mnc === undefined || lac === undefined || cid === undefined) continue;
    const cell: CellTower = { mcc, mnc, lac, cid };
    const rssi = intIn(c.rssi, L.rssi);
    if (rssi !== undefined) cell.rssi = rssi;
    out.push(cell);
  }
  return out.length ? out : undefined;
}

const wifiOk = (w: WifiAccessPoint) =>
  !!w &&
  typeof w.mac === 'string' &&
  MAC.test(w.mac) &&
  (w.rssi === undefined || (Number.isInteger(w.rssi) && inRange(w.rssi, L.rssi) !== undefined)) &&
  (w.ssid === undefined ||
    (typeof w.ssid === 'string' && w.ssid !== '' && w.ssid.length <= L.ssid && !NEEDS_WORK.test(w.ssid)));

function boundWifi(list: WifiAccessPoint[]): WifiAccessPoint[] | undefined {
  if (list.length && list.length <= L.wifi && list.every(wifiOk)) return list;
  const out: WifiAccessPoint[] = [];
  for (const w of list.slice(0, L.wifi)) {
    if (!w || typeof w.mac !== 'string') continue;
    const mac = w.mac.trim().toLowerCase().replace(/-/g, ':');
    if (!MAC.test(mac)) continue;
    const ap: WifiAccessPoint = { mac };
    const rssi = intIn(w.rssi, L.rssi);
    if (rssi !== undefined) ap.rssi = rssi;
    if (typeof w.ssid === 'string') {
      const ssid = cleanText(w.ssid, L.ssid);
      if (ssid) ap.ssid = ssid;
    }
    out.push(ap);
  }
  return out.length ? out : undefined;
}

function boundStatus(s: DeviceStatus): DeviceStatus | undefined {
  keep(s, 'battery', L.battery);
  keep(s, 'power', L.power);
  keep(s, 'signal', L.signal);
  keep(s, 'steps', L.steps, true);
  keep(s, 'tumbles', L.tumbles, true);
  if (s.charging !== undefined && typeof s.charging !== 'boolean') delete s.charging;
  if (s.ignition !== undefined && typeof s.ignition !== 'boolean') delete s.ignition;
  return s;
}

const HEALTH_RANGES: [Exclude<keyof HealthReading, 'sleep'>, Range, boolean][] = [
  ['heartRate', L.heartRate, false],
  ['systolic', L.systolic, false],
  ['diastolic', L.diastolic, false],
  ['bodyTemp', L.bodyTemp, false],
  ['wristTemp', L.wristTemp, false],
  ['bloodOxygen', L.bloodOxygen, false],
  ['hrv', L.hrv, false],
  ['steps', L.steps, true],
  ['distance', L.distance, false],
  ['calories', L.calories, false],
  ['uv', L.uv, false],
  ['pho', L.pho, false],
  ['ir', L.ir, false],
];

function boundHealth(h: HealthReading): HealthReading | undefined {
  for (const [k, range, integer] of HEALTH_RANGES) keep(h, k, range, integer);
  if (h.sleep !== undefined) {
    const sleep = Array.isArray(h.sleep)
      ? h.sleep
          .slice(0, L.sleep)
          .filter((s) => s && SLEEP_STAGES.has(s.stage) && inRange(s.minutes, L.sleepMinutes) !== undefined)
          .map((s) => ({ stage: s.stage, minutes: s.minutes }))
      : [];
    put(h, 'sleep', sleep.length ? sleep : undefined);
  }
  for (const _ in h) return h;
  return undefined;
}

function boundBeacon(b: BeaconScan): BeaconScan | undefined {
  if (b.kind !== 'ble' && b.kind !== 'uwb' && b.kind !== 'aoa') return undefined;
  if (b.beacons !== undefined) {
    const list = Array.isArray(b.beacons) ? b.beacons.slice(0, L.beacons) : [];
    const out: NonNullable<BeaconScan['beacons']> = [];
    for (const x of list) {
      const rssi = inRange(x?.rssi, L.beaconRssi);
      if (rssi === undefined) continue;
      const beacon: (typeof out)[number] = { rssi };
      if (typeof x.mac === 'string' && x.mac) beacon.mac = cleanText(x.mac, L.mac, { controls: false });
      if (typeof x.uuid === 'string' && x.uuid) beacon.uuid = cleanText(x.uuid, L.uuid, { controls: false });
      const major = intIn(x.major, L.major);
      const minor = intIn(x.minor, L.major);
      if (major !== undefined) beacon.major = major;
      if (minor !== undefined) beacon.minor = minor;
      out.push(beacon);
    }
    put(b, 'beacons', out.length ? out : undefined);
  }
  for (const k of ['x', 'y', 'z'] as const) keep(b, k, L.coordinate);
  keep(b, 'quality', L.quality);
  if (b.angles !== undefined) {
    const list = Array.isArray(b.angles) ? b.angles.slice(0, L.angles) : [];
    const out: NonNullable<BeaconScan['angles']> = [];
    for (const a of list) {
      const azimuth = inRange(a?.azimuth, L.azimuth);
      const locator = typeof a?.locator === 'string' ? cleanText(a.locator, L.identity, { controls: false }) : '';
      if (azimuth === undefined || !locator) continue;
      const elevation = inRange(a.elevation, L.elevation);
      out.push(elevation === undefined ? { locator, azimuth } : { locator, azimuth, elevation });
    }
    put(b, 'angles', out.length ? out : undefined);
  }
  if (b.gatewayId !== undefined)
    put(
      b,
      'gatewayId',
      typeof b.gatewayId === 'string'
        ? cleanText(b.gatewayId, L.identity, { controls: false }) || undefined
        : undefined,
    );
  return b;
}

function attributesOk(a: Record<string, unknown>): boolean {
  let n = 0;
  for (const k in a) {
    if (++n > L.attributes || k === '' || k.length > L.key || NEEDS_WORK.test(k)) return false;
    const v = a[k];
    if (typeof v === 'string') {
      if (v.length > L.attribute || (NEEDS_WORK.test(v) && cleanText(v, L.attribute) !== v)) return false;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return false;
    } else if (typeof v !== 'boolean') return false;
  }
  return n > 0;
}

function boundAttributes(a: Record<string, unknown>): DeviceMessage['attributes'] {
  // The common case (a few numbers and short words) keeps the object as it is.
  if (attributesOk(a)) return a as DeviceMessage['attributes'];
  const out: NonNullable<DeviceMessage['attributes']> = {};
  let n = 0;
  for (const [rawKey, v] of Object.entries(a)) {
    if (n >= L.attributes) break;
    const key = cleanText(rawKey, L.key, { controls: false });
    if (!key) continue;
    if (typeof v === 'string') out[key] = cleanText(v, L.attribute);
    else if (typeof v === 'boolean') out[key] = v;
    else if (typeof v === 'number' && Number.isFinite(v)) out[key] = v;
    else continue;
    n++;
  }
  return n ? out : undefined;
}

/**
 * Bounds one message in place. Returns false when the message cannot be attributed to a device
 * (no usable identity) and must be dropped; every other problem costs only the field at fault.
 */
export function boundMessage(msg: DeviceMessage, now = Date.now()): boolean {
  if (!validIdentity(msg.deviceId)) return false;
  msg.type = typeof msg.type === 'string' ? cleanText(msg.type, L.type, { controls: false }) : '';
  if (msg.time !== undefined) {
    const t = boundTime(msg.time, now);
    if (!t) noteDeviceTime(msg, msg.time);
    put(msg, 'time', t);
  }
  if (msg.fix) put(msg, 'fix', boundFix(msg.fix, now, msg));
  if (msg.cells) put(msg, 'cells', Array.isArray(msg.cells) ? boundCells(msg.cells) : undefined);
  if (msg.wifi) put(msg, 'wifi', Array.isArray(msg.wifi) ? boundWifi(msg.wifi) : undefined);
  if (msg.status) put(msg, 'status', boundStatus(msg.status));
  if (msg.health) put(msg, 'health', boundHealth(msg.health));
  if (msg.alarms) {
    const alarms = Array.isArray(msg.alarms)
      ? [...new Set(msg.alarms.filter((a) => ALARM_KINDS.has(a)))]
      : [];
    put(msg, 'alarms', alarms.length ? alarms : undefined);
  }
  if (msg.beacon) put(msg, 'beacon', boundBeacon(msg.beacon));
  if (msg.commandResult) {
    const cr = msg.commandResult;
    const keyword =
      typeof cr.keyword === 'string' ? cleanText(cr.keyword, L.keyword, { controls: false }) : '';
    if (!keyword) delete msg.commandResult;
    else {
      cr.keyword = keyword;
      if (cr.text !== undefined)
        put(cr, 'text', typeof cr.text === 'string' ? cleanText(cr.text, L.reply) : undefined);
      if (cr.serverFlag !== undefined) put(cr, 'serverFlag', intIn(cr.serverFlag, L.serverFlag));
    }
  }
  if (msg.buffered !== undefined && msg.buffered !== true) delete msg.buffered;
  if (msg.attributes) put(msg, 'attributes', boundAttributes(msg.attributes));
  return true;
}

/** Bounds every message of a decoder's result; drops those without a usable identity. */
export function boundMessages(messages: DeviceMessage[], now = Date.now()): DeviceMessage[] {
  let drop = false;
  for (const m of messages) if (!boundMessage(m, now)) drop = true;
  return drop ? messages.filter((m) => validIdentity(m.deviceId)) : messages;
}
