// Watch protocol decoder: one unescaped frame in, normalized messages and the reply out.
import type { AlarmKind, CellTower, DecodeResult, DeviceMessage, Fix, WifiAccessPoint } from '../types.js';
import { boundMessages } from '../bounds.js';
import { asBuffer, int, num } from '../util.js';
import { parseWatchHeader } from './frame.js';

export interface WatchFrame {
  vendor: string;
  id: string;
  index?: string;
  /** Message keyword (UD, LK, AL_LTE ...), the content up to its first comma. */
  type: string;
  /** The content after the keyword and its comma (latin1, so binary survives a round trip). */
  body: string;
  /** Raw content bytes (keyword included). */
  content: Buffer;
}

/** Splits a frame (brackets included, escapes resolved) into its parts; null when it is not one. */
export function parseWatchFrame(input: Uint8Array | string): WatchFrame | null {
  const buf = asBuffer(input);
  if (buf.length < 2 || buf[0] !== 0x5b) return null;
  const h = parseWatchHeader(buf, 0);
  if (h === null || h === 'more') return null;
  const end = buf[buf.length - 1] === 0x5d ? buf.length - 1 : buf.length;
  if (h.contentStart > end) return null;
  const content = buf.subarray(h.contentStart, end);
  const comma = content.indexOf(0x2c);
  const type = content.subarray(0, comma < 0 ? content.length : comma).toString('latin1');
  const body = comma < 0 ? '' : content.subarray(comma + 1).toString('latin1');
  return { vendor: h.vendor, id: h.id, index: h.index, type, body, content };
}

/** Builds a frame as sent on the wire (escaping left to the caller for binary contents). */
export function buildWatchFrame(vendor: string, id: string, content: string | Uint8Array, index?: string): Buffer {
  const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
  const len = body.length.toString(16).toUpperCase().padStart(4, '0');
  const head = index !== undefined ? `[${vendor}*${id}*${index}*${len}*` : `[${vendor}*${id}*${len}*`;
  return Buffer.concat([Buffer.from(head, 'latin1'), body, Buffer.from(']', 'latin1')]);
}

/** Keywords a device echoes when it answers a console command. */
export const WATCH_COMMAND_REPLIES = new Set(
  [
    'UPLOAD', 'SOS', 'SOS1', 'SOS2', 'SOS3', 'CENTER', 'SLAVE', 'CR', 'FIND', 'RESET', 'POWEROFF', 'REMOVE',
    'REMOVESMS', 'LOWBAT', 'SOSSMS', 'MESSAGE', 'WEATHER', 'LZ', 'HRTSTART', 'BPHRTSTART', 'BODYTEMPSTART', 'OXSTART',
    'BTEMP2START', 'FALLDOWN', 'LSSET', 'IP', 'SILENCETIME', 'SILENCETIME2', 'REMIND', 'PEDO', 'WALKTIME',
    'SLEEPTIME', 'PHB', 'PHB2', 'WHITELIST1', 'WHITELIST2', 'MONITOR', 'VERNO', 'TS', 'FACTORY', 'PW',
    'FLOWER', 'PROFILE', 'BT', 'HRTTHRESHOLD', 'BPTHRESHOLD', 'TEMPTHRESHOLD', 'OXTHRESHOLD', 'APN', 'GPS',
    'FALLHEIGHT', 'WORKTIME', 'VIBRATION',
  ].map((k) => k.toUpperCase()),
);

/**
 * Status word bits (the 8 hex digits after tumbles). Low word: states the watch reports; high word:
 * alarm events. Bit meanings agree with Traccar's WatchProtocolDecoder (0 low battery, 1 fence out,
 * 2 fence in, 14 power cut, 16 SOS, 17 low battery, 18 fence out, 19 fence in, 20 removal,
 * 21/22 fall).
 */
export function watchAlarms(status: number): AlarmKind[] {
  const out = new Set<AlarmKind>();
  const bit = (n: number) => Math.floor(status / 2 ** n) % 2 === 1;
  if (bit(16)) out.add('sos');
  if (bit(0) || bit(17)) out.add('lowBattery');
  if (bit(1) || bit(18)) out.add('fenceOut');
  if (bit(2) || bit(19)) out.add('fenceIn');
  if (bit(14)) out.add('powerCut');
  if (bit(20)) out.add('removal');
  if (bit(21) || bit(22)) out.add('fall');
  return [...out];
}

const MAC = /^[0-9a-fA-F]{2}([:-][0-9a-fA-F]{2}){5}$/;

export interface WatchLocation {
  fix?: Fix;
  cells?: CellTower[];
  wifi?: WifiAccessPoint[];
  battery?: number;
  signal?: number;
  steps?: number;
  tumbles?: number;
  status: number;
  time: Date;
}

function dmyTime(d: string, t: string): Date | undefined {
  if (!/^\d{6}$/.test(d) || !/^\d{6}$/.test(t)) return undefined;
  const date = new Date(
    Date.UTC(2000 + +d.slice(4, 6), +d.slice(2, 4) - 1, +d.slice(0, 2), +t.slice(0, 2), +t.slice(2, 4), +t.slice(4, 6)),
  );
  return Number.isFinite(date.getTime()) ? date : undefined;
}

function coord(value: string, hem: string): number | undefined {
  const v = num(value);
  if (v === undefined) return undefined;
  const h = hem.trim().toUpperCase();
  return h === 'S' || h === 'W' ? -Math.abs(v) : v;
}

/** Parses the location block shared by UD, UD2, UD3, UD_LTE, UD_WCDMA, WT, AL, AL_LTE, ALCUSTOMER1. */
export function parseWatchLocation(body: string): WatchLocation | null {
  const v = body.split(',');
  if (v.length < 16) return null;
  const time = dmyTime(v[0].trim(), v[1].trim());
  if (!time) return null;
  const validity = v[2].trim();
  if (validity !== 'A' && validity !== 'V') return null;
  const lat = coord(v[3], v[4]);
  const lon = coord(v[5], v[6]);
  if (lat === undefined || lon === undefined || Math.abs(lat) > 90 || Math.abs(lon) > 180) return null;
  const statusText = v[15].trim();
  if (!/^[0-9a-fA-F]{1,8}$/.test(statusText)) return null;
  const status = parseInt(statusText, 16);
  const out: WatchLocation = { status, time };
  // A 'V' fix at exactly 0,0 is "no position" on these watches, not a point in the Gulf of Guinea:
  // the towers and Wi-Fi carried alongside are what locates the message.
  if (!(validity === 'V' && lat === 0 && lon === 0)) {
    const fix: Fix = { time, valid: validity === 'A', lat, lon };
    const speed = num(v[7]);
    const course = num(v[8]);
    const altitude = num(v[9]);
    const sats = int(v[10]);
    if (speed !== undefined && speed >= 0) fix.speed = speed; // km/h already
    if (course !== undefined) fix.course = course;
    if (altitude !== undefined) fix.altitude = altitude;
    if (sats !== undefined) fix.satellites = sats;
    out.fix = fix;
  }
  out.signal = int(v[11]);
  out.battery = int(v[12]);
  out.steps = int(v[13]);
  out.tumbles = int(v[14]);

  // Cell block: count, timing advance (or a second count), MCC, MNC, then LAC, CID, RSSI each.
  let i = 16;
  const cellCount = int(v[i]) ?? 0;
  i++;
  if (cellCount > 0 && cellCount < 64) {
    i++; // timing advance
    const mcc = int(v[i++]) ?? 0;
    const mnc = int(v[i++]) ?? 0;
    const cells: CellTower[] = [];
    for (let k = 0; k < cellCount && i + 2 < v.length + 1; k++) {
      const lac = int(v[i++]);
      const cid = int(v[i++]);
      const rssi = int(v[i++]);
      if (lac === undefined || cid === undefined) continue;
      const cell: CellTower = { mcc, mnc, lac, cid };
      if (rssi !== undefined) cell.rssi = rssi;
      cells.push(cell);
    }
    if (cells.length) out.cells = cells;
  }
  // Wi-Fi: firmware differs in the counts it writes before the list, so the list is found by its
  // shape instead: SSID, MAC, RSSI triples.
  const wifi: WifiAccessPoint[] = [];
  let listEnd = i; // just past the last field of the cell and Wi-Fi lists
  for (let k = Math.max(i, 17); k < v.length; k++) {
    const mac = v[k].trim();
    if (!MAC.test(mac)) continue;
    listEnd = k + 2;
    const ap: WifiAccessPoint = { mac: mac.toLowerCase().replace(/-/g, ':') };
    const rssi = int(v[k + 1]);
    if (rssi !== undefined) ap.rssi = rssi;
    const ssid = v[k - 1];
    if (ssid !== undefined && ssid !== '' && !MAC.test(ssid) && !/^-?\d+$/.test(ssid)) ap.ssid = ssid;
    wifi.push(ap);
  }
  if (wifi.length) out.wifi = wifi;
  // 4G/3G layouts (UD_LTE, UD_WCDMA, AL_LTE ...) close the lists with the positioning accuracy in
  // metres. Speed is not repeated there: it is the fixed field after the longitude (km/h), the
  // same place Traccar reads it from. The accuracy is taken only when it is the one field left
  // after the Wi-Fi list (or after an empty Wi-Fi count), so other layouts are not misread.
  const tailAt = wifi.length ? listEnd : v.length === i + 2 && int(v[i]) === 0 ? i + 1 : -1;
  if (out.fix && tailAt === v.length - 1 && /^\d+(\.\d+)?$/.test(v[tailAt].trim())) {
    const accuracy = Number(v[tailAt]);
    if (accuracy > 0) out.fix.accuracy = accuracy;
  }
  return out;
}

function reply(f: WatchFrame, content: string): Buffer {
  return buildWatchFrame(f.vendor, f.id, content, f.index);
}

function base(f: WatchFrame, kind: DeviceMessage['kind']): DeviceMessage {
  return { deviceId: f.id, protocol: 'watch', kind, type: f.type };
}

/** Numbers of a health body; empty fields stay undefined so positions are kept. */
function values(body: string): (number | undefined)[] {
  return body.split(',').map((s) => num(s));
}

function healthMessage(f: WatchFrame, health: DeviceMessage['health']): DeviceMessage[] {
  if (!health || Object.keys(health).length === 0) return [];
  return [{ ...base(f, 'health'), health }];
}

function positive(n: number | undefined): number | undefined {
  // Zero means "measurement failed" on these watches; it is not a reading.
  return n !== undefined && n > 0 ? n : undefined;
}

/** Decodes one frame. Never throws: anything unreadable gives an empty result. */
export function decodeWatchFrame(input: Uint8Array | string): DecodeResult {
  let f: WatchFrame | null;
  try {
    f = parseWatchFrame(input);
  } catch {
    return { messages: [] };
  }
  if (!f) return { messages: [] };
  try {
    const res = decodeParsed(f);
    if (res.messages.length) res.messages = boundMessages(res.messages);
    return res;
  } catch {
    // A malformed body must not take the connection down; the gateway logs the raw bytes.
    return { messages: [], deviceId: f.id };
  }
}

function decodeParsed(f: WatchFrame): DecodeResult {
  const type = f.type;
  const upper = type.toUpperCase();
  const res: DecodeResult = { messages: [], deviceId: f.id };

  if (upper === 'INIT') {
    res.reply = reply(f, 'INIT,1');
    res.messages.push({ ...base(f, 'login') });
    return res;
  }
  if (upper === 'LK') {
    res.reply = reply(f, 'LK');
    const msg = base(f, 'heartbeat');
    const v = f.body === '' ? [] : f.body.split(',');
    // LK,steps,tumbles,battery: shorter forms are ambiguous between firmware, so carry nothing.
    if (v.length >= 3) {
      const steps = int(v[0]);
      const tumbles = int(v[1]);
      const battery = int(v[2]);
      msg.status = {};
      if (steps !== undefined) msg.status.steps = steps;
      if (tumbles !== undefined) msg.status.tumbles = tumbles;
      if (battery !== undefined) msg.status.battery = battery;
      if (steps !== undefined) msg.health = { steps };
    }
    res.messages.push(msg);
    return res;
  }
  if (upper.startsWith('UD') || upper.startsWith('AL') || upper.startsWith('WT')) {
    const isAlarm = upper.startsWith('AL');
    if (isAlarm) res.reply = reply(f, 'AL');
    const loc = parseWatchLocation(f.body);
    if (!loc) return res;
    const alarms = watchAlarms(loc.status);
    // The most frequent message of all: one literal, no spread.
    const status: NonNullable<DeviceMessage['status']> = {};
    if (loc.battery !== undefined) status.battery = loc.battery;
    if (loc.signal !== undefined) status.signal = loc.signal;
    if (loc.steps !== undefined) status.steps = loc.steps;
    if (loc.tumbles !== undefined) status.tumbles = loc.tumbles;
    const msg: DeviceMessage = { deviceId: f.id, protocol: 'watch', kind: alarms.length ? 'alarm' : 'position', type: f.type, time: loc.time, status, attributes: { status: loc.status } };
    if (loc.fix) msg.fix = loc.fix;
    if (loc.cells) msg.cells = loc.cells;
    if (loc.wifi) msg.wifi = loc.wifi;
    if (alarms.length) msg.alarms = alarms;
    if (upper === 'UD2') msg.buffered = true;
    res.messages.push(msg);
    return res;
  }
  if (upper === 'TKQ' || upper === 'TKQ2') {
    res.reply = reply(f, type);
    return res;
  }
  if (upper === 'PULSE' || upper === 'HEART' || upper === 'HRT') {
    const v = values(f.body);
    const hr = positive(v[v.length - 1]);
    res.messages = healthMessage(f, hr !== undefined ? { heartRate: hr } : undefined);
    return res;
  }
  if (upper === 'BPHRT' || upper === 'BLOOD') {
    const v = values(f.body);
    const h: NonNullable<DeviceMessage['health']> = {};
    const sys = positive(v[0]);
    const dia = positive(v[1]);
    const hr = positive(v[2]);
    if (sys !== undefined) h.systolic = sys;
    if (dia !== undefined) h.diastolic = dia;
    if (hr !== undefined) h.heartRate = hr;
    res.messages = healthMessage(f, h);
    return res;
  }
  if (upper === 'TEMP' || upper === 'BODYTEMP' || upper === 'BTEMP') {
    const v = values(f.body);
    const t = positive(v[v.length - 1]);
    res.messages = healthMessage(f, t !== undefined ? { bodyTemp: t } : undefined);
    return res;
  }
  if (upper === 'BTEMP2') {
    // btemp2,<mode>,<temperature>: a mode of 0 means no measurement was taken.
    const v = values(f.body);
    const t = (v[0] ?? 0) > 0 ? positive(v[1]) : undefined;
    res.messages = healthMessage(f, t !== undefined ? { bodyTemp: t } : undefined);
    return res;
  }
  if (upper === 'OXYGEN' || upper === 'SPO2') {
    // oxygen,<heart rate or 0>,<SpO2>
    const v = values(f.body);
    const o = positive(v[v.length - 1]);
    const h: NonNullable<DeviceMessage['health']> = {};
    if (o !== undefined) h.bloodOxygen = o;
    if (v.length >= 2 && positive(v[0]) !== undefined) h.heartRate = v[0];
    res.messages = healthMessage(f, h);
    return res;
  }
  if (upper === 'JXTK') {
    res.reply = reply(f, 'JXTKR,1');
    return res;
  }
  if (WATCH_COMMAND_REPLIES.has(upper)) {
    const text = f.content.indexOf(0x2c) < 0 ? undefined : Buffer.from(f.body, 'latin1').toString('utf8');
    const msg = base(f, 'commandResult');
    msg.commandResult = text !== undefined ? { keyword: type, text } : { keyword: type };
    res.messages.push(msg);
    return res;
  }
  return res;
}
