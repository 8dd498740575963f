// JSON uplinks: ChirpStack v4 uplink events (NB-IoT/LoRa network servers), the simple device JSON
// published on MQTT `devices/<imei>/up` (a wearable may add the beacons it hears: `beacons: [{ mac
// | uuid, major, minor, rssi }]`), and indoor reports: BLE gateways (`{ gatewayId, tags: [{ id | mac,
// rssi }] }`), UWB engines (`{ tagId, gatewayId, x, y, z?, quality? }`) and AOA locators (`{ tagId,
// angles: [{ locator, azimuth, elevation? }] }`). Shapes are checked with zod; a wrong shape is an
// error value, never an exception.
import { z } from 'zod';
import { boundMessages } from '../bounds.js';
import type { AlarmKind, DeviceMessage, Fix, HealthReading } from '../types.js';

export type UplinkResult = { ok: true; messages: DeviceMessage[] } | { ok: false; error: string; issues?: string[] };

const numLike = z.union([z.number(), z.string().regex(/^-?\d+(\.\d+)?$/).transform(Number)]);
const timeLike = z.union([z.number(), z.string()]).optional();

const readings = {
  latitude: numLike.optional(),
  longitude: numLike.optional(),
  lat: numLike.optional(),
  lon: numLike.optional(),
  lng: numLike.optional(),
  altitude: numLike.optional(),
  speed: numLike.optional(),
  course: numLike.optional(),
  accuracy: numLike.optional(),
  valid: z.boolean().optional(),
  battery: numLike.optional(),
  power: numLike.optional(),
  heartRate: numLike.optional(),
  systolic: numLike.optional(),
  diastolic: numLike.optional(),
  bodyTemp: numLike.optional(),
  temperature: numLike.optional(),
  wristTemp: numLike.optional(),
  spo2: numLike.optional(),
  bloodOxygen: numLike.optional(),
  hrv: numLike.optional(),
  steps: numLike.optional(),
  distance: numLike.optional(),
  calories: numLike.optional(),
  uv: numLike.optional(),
  pho: numLike.optional(),
  ir: numLike.optional(),
  alarm: z.union([z.string(), z.array(z.string())]).optional(),
  /** Beacons a wearable heard. */
  beacons: z
    .array(z.object({ mac: z.string().optional(), uuid: z.string().optional(), major: z.number().int().optional(), minor: z.number().int().optional(), rssi: z.number() }).loose())
    .optional(),
};

const chirpstack = z.object({
  deviceInfo: z.object({ devEui: z.string().min(1), deviceName: z.string().optional() }).loose(),
  time: timeLike,
  fCnt: z.number().optional(),
  object: z.object(readings).loose().optional(),
  rxInfo: z.array(z.object({ gatewayId: z.string().optional(), rssi: z.number().optional(), snr: z.number().optional() }).loose()).optional(),
}).loose();

const simple = z.object({
  imei: z.union([z.string().min(1), z.number()]).transform(String),
  time: timeLike,
  ...readings,
}).loose();

const bleReport = z.object({
  gatewayId: z.string().min(1),
  time: timeLike,
  tags: z.array(
    z.object({
      id: z.string().optional(),
      rssi: z.number(),
      mac: z.string().optional(),
      uuid: z.string().optional(),
      major: z.number().int().optional(),
      minor: z.number().int().optional(),
    }).loose(),
  ),
}).loose();

const uwbReport = z.object({
  tagId: z.string().min(1),
  gatewayId: z.string().optional(),
  time: timeLike,
  x: z.number(),
  y: z.number(),
  z: z.number().optional(),
  quality: z.number().optional(),
}).loose();

const aoaReport = z.object({
  tagId: z.string().min(1),
  time: timeLike,
  angles: z.array(z.object({ locator: z.string().min(1), azimuth: z.number(), elevation: z.number().optional() }).loose()).min(1),
}).loose();

const ALARMS: Record<string, AlarmKind> = {
  sos: 'sos', lowbattery: 'lowBattery', fencein: 'fenceIn', fenceout: 'fenceOut', fall: 'fall', falldown: 'fall',
  removal: 'removal', removing: 'removal', powercut: 'powerCut', poweroff: 'powerOff', vibration: 'vibration',
  overspeed: 'overspeed', tamper: 'tamper', tampering: 'tamper',
};

function time(v: string | number | undefined): Date | undefined {
  if (v === undefined) return undefined;
  const d = typeof v === 'number' ? new Date(v < 2_147_483_647 ? v * 1000 : v) : new Date(v);
  return Number.isFinite(d.getTime()) ? d : undefined;
}

type Readings = z.infer<z.ZodObject<typeof readings>>;

function fromReadings(deviceId: string, type: string, r: Readings, at: Date | undefined): DeviceMessage[] {
  const base = { deviceId, protocol: 'uplink' as const, type, ...(at ? { time: at } : {}) };
  const out: DeviceMessage[] = [];
  const lat = r.latitude ?? r.lat;
  const lon = r.longitude ?? r.lon ?? r.lng;
  let fix: Fix | undefined;
  if (lat !== undefined && lon !== undefined && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 && !(lat === 0 && lon === 0)) {
    fix = { time: at ?? new Date(), valid: r.valid ?? true, lat, lon };
    if (r.altitude !== undefined) fix.altitude = r.altitude;
    if (r.speed !== undefined) fix.speed = r.speed;
    if (r.course !== undefined) fix.course = r.course;
    if (r.accuracy !== undefined) fix.accuracy = r.accuracy;
  }
  const status: DeviceMessage['status'] = {};
  if (r.battery !== undefined) status.battery = r.battery;
  if (r.power !== undefined) status.power = r.power;
  const health: HealthReading = {};
  const set = <K extends keyof HealthReading>(k: K, v: HealthReading[K] | undefined) => {
    if (v !== undefined) health[k] = v;
  };
  set('heartRate', r.heartRate);
  set('systolic', r.systolic);
  set('diastolic', r.diastolic);
  set('bodyTemp', r.bodyTemp ?? r.temperature);
  set('wristTemp', r.wristTemp);
  set('bloodOxygen', r.spo2 ?? r.bloodOxygen);
  set('hrv', r.hrv);
  set('steps', r.steps);
  set('distance', r.distance);
  set('calories', r.calories);
  set('uv', r.uv);
  set('pho', r.pho);
  set('ir', r.ir);
  const alarmNames = r.alarm === undefined ? [] : Array.isArray(r.alarm) ? r.alarm : [r.alarm];
  const alarms = [...new Set(alarmNames.map((a) => ALARMS[a.toLowerCase().replace(/[^a-z]/g, '')]).filter((a): a is AlarmKind => !!a))];
  const hasStatus = Object.keys(status).length > 0;
  if (fix || alarms.length) {
    out.push({ ...base, kind: alarms.length ? 'alarm' : 'position', ...(fix ? { fix } : {}), ...(alarms.length ? { alarms } : {}), ...(hasStatus ? { status } : {}) });
  }
  if (Object.keys(health).length) out.push({ ...base, kind: 'health', health });
  if (!out.length) out.push({ ...base, kind: 'heartbeat', ...(hasStatus ? { status } : {}) });
  if (r.beacons?.length) {
    const beacons = r.beacons.map((b) => ({ rssi: b.rssi, ...(b.mac ? { mac: b.mac } : {}), ...(b.uuid ? { uuid: b.uuid } : {}), ...(b.major !== undefined ? { major: b.major } : {}), ...(b.minor !== undefined ? { minor: b.minor } : {}) }));
    out.push({ ...base, kind: 'beacon', beacon: { kind: 'ble', beacons } });
  }
  return out;
}

function issues(e: z.ZodError): string[] {
  return e.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
}

/** Decodes one JSON uplink (an object or its text); every message comes out bounded. */
export function decodeUplink(input: unknown): UplinkResult {
  const r = decodeShape(input);
  if (!r.ok || !r.messages.length) return r;
  const messages = boundMessages(r.messages);
  return messages.length ? { ok: true, messages } : { ok: false, error: 'invalidShape', issues: ['identity: not a device identity (1 to 64 characters, no control characters)'] };
}

function decodeShape(input: unknown): UplinkResult {
  let json = input;
  if (typeof input === 'string' || input instanceof Uint8Array) {
    try {
      json = JSON.parse(typeof input === 'string' ? input : Buffer.from(input).toString('utf8'));
    } catch {
      return { ok: false, error: 'invalidJson' };
    }
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { ok: false, error: 'invalidShape', issues: ['(root): object expected'] };
  const o = json as Record<string, unknown>;
  try {
    if ('deviceInfo' in o) {
      const p = chirpstack.safeParse(o);
      if (!p.success) return { ok: false, error: 'invalidShape', issues: issues(p.error) };
      const v = p.data;
      const messages = fromReadings(v.deviceInfo.devEui.toLowerCase(), 'chirpstack', v.object ?? {}, time(v.time));
      const rssi = v.rxInfo?.reduce<number | undefined>((m, x) => (x.rssi !== undefined && (m === undefined || x.rssi > m) ? x.rssi : m), undefined);
      if (rssi !== undefined) for (const m of messages) (m.attributes ??= {}).rssi = rssi;
      return { ok: true, messages };
    }
    if ('tags' in o) {
      const p = bleReport.safeParse(o);
      if (!p.success) return { ok: false, error: 'invalidShape', issues: issues(p.error) };
      const at = time(p.data.time);
      const messages: DeviceMessage[] = p.data.tags.map((t) => ({
        deviceId: t.id ?? t.mac ?? `${t.uuid ?? ''}:${t.major ?? ''}:${t.minor ?? ''}`,
        protocol: 'uplink',
        kind: 'beacon',
        type: 'ble',
        ...(at ? { time: at } : {}),
        beacon: {
          kind: 'ble',
          gatewayId: p.data.gatewayId,
          beacons: [{ rssi: t.rssi, ...(t.mac ? { mac: t.mac } : {}), ...(t.uuid ? { uuid: t.uuid } : {}), ...(t.major !== undefined ? { major: t.major } : {}), ...(t.minor !== undefined ? { minor: t.minor } : {}) }],
        },
      }));
      return { ok: true, messages };
    }
    if ('tagId' in o && 'angles' in o) {
      const p = aoaReport.safeParse(o);
      if (!p.success) return { ok: false, error: 'invalidShape', issues: issues(p.error) };
      const at = time(p.data.time);
      const angles = p.data.angles.map((a) => ({ locator: a.locator, azimuth: a.azimuth, ...(a.elevation !== undefined ? { elevation: a.elevation } : {}) }));
      return { ok: true, messages: [{ deviceId: p.data.tagId, protocol: 'uplink', kind: 'beacon', type: 'aoa', ...(at ? { time: at } : {}), beacon: { kind: 'aoa', angles } }] };
    }
    if ('tagId' in o) {
      const p = uwbReport.safeParse(o);
      if (!p.success) return { ok: false, error: 'invalidShape', issues: issues(p.error) };
      const at = time(p.data.time);
      return {
        ok: true,
        messages: [{
          deviceId: p.data.tagId,
          protocol: 'uplink',
          kind: 'beacon',
          type: 'uwb',
          ...(at ? { time: at } : {}),
          beacon: {
            kind: 'uwb',
            x: p.data.x,
            y: p.data.y,
            ...(p.data.z !== undefined ? { z: p.data.z } : {}),
            ...(p.data.quality !== undefined ? { quality: p.data.quality } : {}),
            ...(p.data.gatewayId ? { gatewayId: p.data.gatewayId } : {}),
          },
        }],
      };
    }
    const p = simple.safeParse(o);
    if (!p.success) return { ok: false, error: 'invalidShape', issues: issues(p.error) };
    return { ok: true, messages: fromReadings(p.data.imei, 'json', p.data, time(p.data.time)) };
  } catch {
    return { ok: false, error: 'invalidShape' };
  }
}
