// OsmAnd / Traccar Client HTTP protocol: the query-string form (OsmAnd app, Traccar Client before
// v8, many scripts) and the JSON body of Traccar Client 8+. The query form's `speed` is in knots
// (the convention of Traccar's OsmAnd decoder, which clients follow); we convert to km/h.
import type { CellTower, DeviceMessage, Fix, WifiAccessPoint } from '../types.js';
import { boundMessages, validIdentity } from '../bounds.js';
import { num } from '../util.js';

export interface HttpRequestLike {
  method: string;
  url: string;
  headers?: Record<string, string | string[] | undefined>;
  body?: string | Uint8Array | Record<string, unknown>;
}

export type OsmAndResult =
  | { ok: true; messages: DeviceMessage[]; deviceId: string }
  | { ok: false; error: 'noDeviceId' | 'noLocation' | 'badRequest'; message: string };

const KNOT_KMH = 1.852;

function parseTime(v: string | undefined): Date | undefined {
  if (v === undefined || v.trim() === '') return undefined;
  const t = v.trim();
  if (/^-?\d+(\.\d+)?$/.test(t)) {
    let n = Number(t);
    // Seconds below ~2038 in seconds form, milliseconds above.
    if (n < 2_147_483_647) n *= 1000;
    const d = new Date(n);
    return Number.isFinite(d.getTime()) ? d : undefined;
  }
  // "2014-06-04 09:10:11" (no zone) is taken as UTC.
  const iso = /^\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(t) ? `${t.replace(' ', 'T')}Z` : t;
  const d = new Date(iso);
  return Number.isFinite(d.getTime()) ? d : undefined;
}

function bool(v: string | undefined): boolean | undefined {
  if (v === undefined) return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return undefined;
}

function bodyText(body: HttpRequestLike['body']): string | undefined {
  if (body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  return undefined;
}

const KNOWN = new Set([
  'id', 'deviceid', 'lat', 'lon', 'location', 'timestamp', 'speed', 'bearing', 'heading', 'altitude', 'accuracy',
  'hdop', 'batt', 'valid', 'cell', 'wifi', 'charge', 'vacc', 'hacc',
]);

export function decodeOsmAnd(req: HttpRequestLike): OsmAndResult {
  const r = decodeRequest(req);
  if (!r.ok) return r;
  const messages = boundMessages(r.messages);
  return messages.length ? { ...r, messages } : NOT_AN_IDENTITY;
}

const NOT_AN_IDENTITY = { ok: false, error: 'noDeviceId', message: 'id is not a device identity (1 to 64 characters, no control characters)' } as const;

function decodeRequest(req: HttpRequestLike): OsmAndResult {
  try {
    let json: unknown;
    const text = bodyText(req.body);
    if (req.body && typeof req.body === 'object' && !(req.body instanceof Uint8Array)) json = req.body;
    else if (text && /^\s*\{/.test(text)) {
      try {
        json = JSON.parse(text);
      } catch {
        return { ok: false, error: 'badRequest', message: 'body is not valid JSON' };
      }
    }
    if (json !== undefined) return decodeJson(json);

    const q = req.url.indexOf('?');
    let params = new URLSearchParams(q >= 0 ? req.url.slice(q + 1) : '');
    if ([...params.keys()].length === 0 && text) params = new URLSearchParams(text);
    return decodeParams(params);
  } catch {
    return { ok: false, error: 'badRequest', message: 'unreadable request' };
  }
}

function decodeParams(p: URLSearchParams): OsmAndResult {
  const id = p.get('id') ?? p.get('deviceid');
  if (!id || !id.trim()) return { ok: false, error: 'noDeviceId', message: 'id is required' };
  if (!validIdentity(id.trim())) return NOT_AN_IDENTITY;
  let lat = num(p.get('lat') ?? undefined);
  let lon = num(p.get('lon') ?? undefined);
  const location = p.get('location');
  if (location) {
    const [a, b] = location.split(',');
    lat = num(a);
    lon = num(b);
  }
  const cells: CellTower[] = [];
  for (const c of p.getAll('cell')) {
    const v = c.split(',').map((s) => num(s));
    if (v.length >= 4 && v.slice(0, 4).every((x) => x !== undefined)) {
      const cell: CellTower = { mcc: v[0]!, mnc: v[1]!, lac: v[2]!, cid: v[3]! };
      if (v[4] !== undefined) cell.rssi = v[4];
      cells.push(cell);
    }
  }
  const wifi: WifiAccessPoint[] = [];
  for (const w of p.getAll('wifi')) {
    const [mac, rssi] = w.split(',');
    if (mac) wifi.push(num(rssi) !== undefined ? { mac: mac.replace(/-/g, ':').toLowerCase(), rssi: num(rssi) } : { mac: mac.replace(/-/g, ':').toLowerCase() });
  }
  const hasCoords = lat !== undefined && lon !== undefined && Math.abs(lat) <= 90 && Math.abs(lon) <= 180;
  // Towers or Wi-Fi without coordinates still locate the phone (server-side lookup).
  if (!hasCoords && !cells.length && !wifi.length) return { ok: false, error: 'noLocation', message: 'lat and lon are required' };
  const time = parseTime(p.get('timestamp') ?? undefined);
  const msg: DeviceMessage = { deviceId: id.trim(), protocol: 'osmand', kind: 'position', type: 'osmand' };
  if (time) msg.time = time;
  if (hasCoords) {
    const fix: Fix = { time: time ?? new Date(), valid: bool(p.get('valid') ?? undefined) ?? true, lat: lat!, lon: lon! };
    const speed = num(p.get('speed') ?? undefined);
    if (speed !== undefined) fix.speed = speed * KNOT_KMH;
    const course = num(p.get('bearing') ?? p.get('heading') ?? undefined);
    if (course !== undefined) fix.course = course;
    const alt = num(p.get('altitude') ?? undefined);
    if (alt !== undefined) fix.altitude = alt;
    const acc = num(p.get('accuracy') ?? p.get('hacc') ?? undefined);
    if (acc !== undefined) fix.accuracy = acc;
    msg.fix = fix;
  }
  if (cells.length) msg.cells = cells;
  if (wifi.length) msg.wifi = wifi;
  const batt = num(p.get('batt') ?? undefined);
  const charge = bool(p.get('charge') ?? undefined);
  if (batt !== undefined || charge !== undefined) {
    msg.status = {};
    if (batt !== undefined) msg.status.battery = batt;
    if (charge !== undefined) msg.status.charging = charge;
  }
  const ign = bool(p.get('ignition') ?? undefined);
  if (ign !== undefined) (msg.status ??= {}).ignition = ign;
  for (const [k, v] of p.entries()) {
    if (KNOWN.has(k) || k === 'ignition') continue;
    const n = num(v);
    (msg.attributes ??= {})[k] = n !== undefined ? n : v === 'true' ? true : v === 'false' ? false : v;
  }
  return { ok: true, deviceId: msg.deviceId, messages: [msg] };
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

function decodeJson(json: unknown): OsmAndResult {
  const root = obj(json);
  if (!root) return { ok: false, error: 'badRequest', message: 'JSON object expected' };
  const id = root.device_id ?? root.deviceId ?? root.id;
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id).trim() === '') {
    return { ok: false, error: 'noDeviceId', message: 'device_id is required' };
  }
  if (!validIdentity(String(id).trim())) return NOT_AN_IDENTITY;
  // Traccar Client sends one location; some builds batch them in an array.
  const locs = Array.isArray(root.location) ? root.location : [root.location];
  const messages: DeviceMessage[] = [];
  for (const l of locs) {
    const loc = obj(l);
    const coords = obj(loc?.coords);
    const lat = num(coords?.latitude);
    const lon = num(coords?.longitude);
    if (!loc || lat === undefined || lon === undefined || Math.abs(lat) > 90 || Math.abs(lon) > 180) continue;
    const time = parseTime(typeof loc.timestamp === 'number' ? String(loc.timestamp) : (loc.timestamp as string | undefined));
    const fix: Fix = { time: time ?? new Date(), valid: true, lat, lon };
    const speed = num(coords?.speed);
    // The JSON form carries m/s (the platform's geolocation speed).
    if (speed !== undefined && speed >= 0) fix.speed = speed * 3.6;
    const heading = num(coords?.heading);
    if (heading !== undefined && heading >= 0) fix.course = heading;
    const alt = num(coords?.altitude);
    if (alt !== undefined) fix.altitude = alt;
    const acc = num(coords?.accuracy);
    if (acc !== undefined) fix.accuracy = acc;
    const msg: DeviceMessage = { deviceId: String(id).trim(), protocol: 'osmand', kind: 'position', type: 'osmand-json', fix };
    if (time) msg.time = time;
    const battery = obj(loc.battery);
    const level = num(battery?.level);
    if (level !== undefined || typeof battery?.is_charging === 'boolean') {
      msg.status = {};
      // level is 0..1 in the JSON form; -1 means unknown.
      if (level !== undefined && level >= 0) msg.status.battery = Math.round((level <= 1 ? level * 100 : level) * 10) / 10;
      if (typeof battery?.is_charging === 'boolean') msg.status.charging = battery.is_charging;
    }
    if (typeof loc.is_moving === 'boolean') (msg.attributes ??= {}).motion = loc.is_moving;
    if (typeof loc.event === 'string') (msg.attributes ??= {}).event = loc.event;
    messages.push(msg);
  }
  if (!messages.length) return { ok: false, error: 'noLocation', message: 'location.coords is required' };
  return { ok: true, deviceId: String(id).trim(), messages };
}
