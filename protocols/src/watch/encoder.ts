// Watch command encoder (console -> device) and device-side content builders (simulator, tests).
import { COMMAND_CODES, isCommandCode, type CommandCode } from '@wt/contract';
import type { AlarmKind, CellTower, DeviceCommand, Fix, HealthReading, WifiAccessPoint } from '../types.js';
import { escapeWatch } from './frame.js';

type Params = DeviceCommand['params'];

export class WatchCommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'WatchCommandError';
  }
}

function str(p: Params, key: string): string {
  const v = p[key];
  if (v === undefined || v === null || Array.isArray(v) || typeof v === 'object') return '';
  return String(v).trim();
}
function required(code: string, p: Params, key: string): string {
  const v = str(p, key);
  if (v === '') throw new WatchCommandError(code, `missing parameter ${key}`);
  return v;
}
function isOn(v: unknown): boolean {
  if (typeof v === 'string') v = v.trim().toLowerCase();
  return v === true || v === 1 || v === '1' || v === 'true' || v === 'on';
}
function onOff(p: Params, key: string): '1' | '0' {
  return isOn(p[key]) ? '1' : '0';
}
/** A period as the contract validates it ({ start, end }) or already as text ("08:00-12:00"). */
function periodText(v: unknown): string {
  if (v && typeof v === 'object' && 'start' in v && 'end' in v) {
    const o = v as { start: unknown; end: unknown };
    return `${hhmm(String(o.start))}-${hhmm(String(o.end))}`;
  }
  const t = String(v ?? '').trim();
  const m = /^(\d{1,2}:\d{2})-(\d{1,2}:\d{2})$/.exec(t);
  return m ? `${hhmm(m[1])}-${hhmm(m[2])}` : t;
}
/** A reminder as validated ({ time, enabled, kind }) -> "HH:MM-<on>-<kind>", or already as text. */
function reminderText(v: unknown): string {
  if (v && typeof v === 'object' && 'time' in v) {
    const o = v as { time: unknown; enabled?: unknown; kind?: unknown };
    return `${hhmm(String(o.time))}-${o.enabled === undefined || isOn(o.enabled) ? 1 : 0}-${Number(o.kind ?? 1)}`;
  }
  return String(v ?? '').trim();
}
/** Phone numbers go out as digits (and a leading +) only: the watch dials them verbatim. */
function phone(v: unknown): string {
  if (v === undefined || v === null) return '';
  return String(v).replace(/[^0-9+]/g, '');
}
function minutesToSeconds(code: string, p: Params): string {
  const seconds = p.seconds !== undefined ? Number(p.seconds) : Number(p.interval) * 60;
  if (!Number.isFinite(seconds) || seconds <= 0) throw new WatchCommandError(code, 'interval must be positive');
  return String(Math.round(seconds));
}
/** MESSAGE text is UTF-16BE in hex so that any script survives the ASCII frame. */
export function utf16beHex(text: string): string {
  const b = Buffer.from(text, 'utf16le');
  b.swap16();
  return b.toString('hex').toUpperCase();
}
function hhmm(v: string): string {
  return /^\d{1,2}:\d{2}$/.test(v) ? v.padStart(5, '0') : v;
}

/**
 * Command code -> content builder, one per code of the contract's COMMAND_CODES (the type makes a
 * new contract code a compile error here until it has a builder). The keywords are those of the
 * common 3G/Setracker watch firmware (the ones Traccar's WatchProtocolEncoder uses where it has
 * them). Health measurement keywords vary most between vendors; ours: `hrtstart,<s>` heart rate
 * interval (0 stops, 1 once), `bphrtstart,<s>` blood pressure, `bodytempstart,<s>` temperature,
 * `oxstart,<s>` SpO2, and `<x>threshold,<min>,<max>` for alarm thresholds (blood pressure:
 * `bpthreshold,<systolic min>,<systolic max>,<diastolic min>,<diastolic max>`). A vendor that differs,
 * and any keyword without a catalogue code (CR for "locate now", FACTORY, VERNO ...), is reached
 * with CUSTOM.
 */
export const WATCH_COMMANDS: { readonly [K in CommandCode]: (p: Params, code: string) => string } = {
  UPLOAD: (p, c) => `UPLOAD,${minutesToSeconds(c, p)}`,
  SOS: (p, c) => {
    const list = Array.isArray(p.numbers) ? p.numbers : [p.sos1, p.sos2, p.sos3];
    const nums = [0, 1, 2].map((i) => phone(list[i]));
    if (p.slot !== undefined) {
      const slot = Number(p.slot);
      if (![1, 2, 3].includes(slot)) throw new WatchCommandError(c, 'slot must be 1, 2 or 3');
      return `SOS${slot},${phone(p.number)}`;
    }
    return `SOS,${nums.join(',')}`;
  },
  CENTER: (p, c) => `CENTER,${phone(required(c, p, 'number'))}`,
  RESET: () => 'RESET',
  POWEROFF: () => 'POWEROFF',
  FIND: () => 'FIND',
  REMOVE: (p) => `REMOVE,${onOff(p, 'enabled')}`,
  LOWBAT: (p) => `LOWBAT,${onOff(p, 'enabled')}`,
  MESSAGE: (p, c) => `MESSAGE,${utf16beHex(required(c, p, 'text'))}`,
  LZ: (p) => {
    const lang = str(p, 'language') || '1';
    const tz = str(p, 'timezone') || '8';
    return `LZ,${lang},${tz}`;
  },
  HEART_RATE: (p, c) => `hrtstart,${minutesToSeconds(c, p)}`,
  BLOOD_PRESSURE: (p, c) => `bphrtstart,${minutesToSeconds(c, p)}`,
  TEMPERATURE: (p, c) => `bodytempstart,${minutesToSeconds(c, p)}`,
  BLOOD_OXYGEN: (p, c) => `oxstart,${minutesToSeconds(c, p)}`,
  HEART_RATE_THRESHOLD: (p) => `hrtthreshold,${str(p, 'min')},${str(p, 'max')}`,
  /** Systolic then diastolic bounds; an empty pair turns that alarm off. */
  BLOOD_PRESSURE_THRESHOLD: (p) => `bpthreshold,${str(p, 'systolicMin')},${str(p, 'systolicMax')},${str(p, 'diastolicMin')},${str(p, 'diastolicMax')}`,
  TEMPERATURE_THRESHOLD: (p) => `tempthreshold,${str(p, 'min')},${str(p, 'max')}`,
  BLOOD_OXYGEN_THRESHOLD: (p) => `oxthreshold,${str(p, 'min')},${str(p, 'max')}`,
  FALL_HEIGHT: (p, c) => {
    const h = Number(p.height);
    if (!Number.isFinite(h) || h <= 0) throw new WatchCommandError(c, 'height must be positive');
    // The firmware takes decimetres so the value stays an integer.
    return `FALLHEIGHT,${Math.round(h * 10)}`;
  },
  /** WEATHER,<yyyymmdd>,<WMO code>,<min °C>,<max °C>,<text as UTF-16BE hex>. */
  WEATHER: (p, c) => {
    const date = required(c, p, 'date').replace(/-/g, '');
    return `WEATHER,${date},${str(p, 'code') || '0'},${Math.round(Number(p.min))},${Math.round(Number(p.max))},${utf16beHex(str(p, 'text'))}`;
  },
  IP: (p, c) => `IP,${required(c, p, 'host')},${required(c, p, 'port')}`,
  SILENCETIME: (p) => {
    const slots = Array.isArray(p.periods) ? p.periods.map(periodText) : [];
    return `SILENCETIME,${slots.join(',')}`;
  },
  REMIND: (p) => {
    const items = Array.isArray(p.reminders) ? p.reminders.map(reminderText) : [];
    return `REMIND,${items.join(',')}`;
  },
  /** Working windows (school-mode style AM and PM), as SILENCETIME writes its periods. */
  WORK_TIME: (p, c) => {
    if (p.am === undefined || p.pm === undefined) throw new WatchCommandError(c, 'missing parameter am or pm');
    return `WORKTIME,${periodText(p.am)},${periodText(p.pm)}`;
  },
  /** Vibration length of reminders and calls, in seconds. */
  VIBRATION: (p, c) => {
    const s = Number(p.seconds);
    if (!Number.isFinite(s) || s <= 0) throw new WatchCommandError(c, 'seconds must be positive');
    return `VIBRATION,${Math.round(s)}`;
  },
  CUSTOM: (p, c) => required(c, p, 'text'),
};

/** The watch protocol carries every code of the catalogue. */
export const WATCH_COMMAND_CODES: readonly CommandCode[] = COMMAND_CODES;

/** Builds the content (keyword and parameters) of a console command. Throws WatchCommandError. */
export function watchCommandContent(command: DeviceCommand): string {
  const code = command.code.toUpperCase();
  if (!isCommandCode(code)) throw new WatchCommandError(command.code, `unknown command ${command.code}`);
  const builder = WATCH_COMMANDS[code];
  return builder(command.params ?? {}, command.code);
}

/** Encodes a console command into a frame for the watch, escaping brackets in the content. */
export function encodeWatchCommand(vendor: string, deviceId: string, command: DeviceCommand, index?: string): Buffer {
  const plain = Buffer.from(watchCommandContent(command), 'utf8');
  const content = escapeWatch(plain);
  // LEN counts the content before escaping, as the device counts it after resolving escapes.
  const len = plain.length;
  const lenHex = len.toString(16).toUpperCase().padStart(4, '0');
  const head = index !== undefined ? `[${vendor}*${deviceId}*${index}*${lenHex}*` : `[${vendor}*${deviceId}*${lenHex}*`;
  return Buffer.concat([Buffer.from(head, 'latin1'), content, Buffer.from(']', 'latin1')]);
}

// ---- device side: contents a watch would send -------------------------------------------------

function two(n: number): string {
  return String(n).padStart(2, '0');
}

const ALARM_BITS: Partial<Record<AlarmKind, number>> = {
  sos: 16,
  lowBattery: 17,
  fenceOut: 18,
  fenceIn: 19,
  removal: 20,
  fall: 21,
  powerCut: 14,
};

export function watchStatusWord(alarms: AlarmKind[] = []): string {
  let s = 0;
  for (const a of alarms) {
    const b = ALARM_BITS[a];
    if (b !== undefined) s += 2 ** b;
  }
  return s.toString(16).toUpperCase().padStart(8, '0');
}

export interface WatchLocationInput {
  fix: Fix;
  battery?: number;
  signal?: number;
  steps?: number;
  tumbles?: number;
  alarms?: AlarmKind[];
  cells?: CellTower[];
  wifi?: WifiAccessPoint[];
}

/** The location block of UD/UD2/AL frames, from a normalized fix. */
export function watchLocationBody(i: WatchLocationInput): string {
  const t = i.fix.time;
  const date = `${two(t.getUTCDate())}${two(t.getUTCMonth() + 1)}${two(t.getUTCFullYear() % 100)}`;
  const time = `${two(t.getUTCHours())}${two(t.getUTCMinutes())}${two(t.getUTCSeconds())}`;
  const parts: (string | number)[] = [
    date,
    time,
    i.fix.valid ? 'A' : 'V',
    Math.abs(i.fix.lat).toFixed(6),
    i.fix.lat < 0 ? 'S' : 'N',
    Math.abs(i.fix.lon).toFixed(6),
    i.fix.lon < 0 ? 'W' : 'E',
    (i.fix.speed ?? 0).toFixed(2),
    (i.fix.course ?? 0).toFixed(1),
    (i.fix.altitude ?? 0).toFixed(1),
    i.fix.satellites ?? 0,
    i.signal ?? 100,
    i.battery ?? 100,
    i.steps ?? 0,
    i.tumbles ?? 0,
    watchStatusWord(i.alarms),
  ];
  const cells = i.cells ?? [];
  parts.push(cells.length, 1);
  if (cells.length) {
    parts.push(cells[0].mcc, cells[0].mnc);
    for (const c of cells) parts.push(c.lac, c.cid, c.rssi ?? '');
  }
  const wifi = i.wifi ?? [];
  if (wifi.length) {
    parts.push(wifi.length);
    for (const w of wifi) parts.push(w.ssid ?? '', w.mac, w.rssi ?? '');
  }
  return parts.join(',');
}

export const watchContent = {
  ud: (i: WatchLocationInput) => `UD,${watchLocationBody(i)}`,
  ud2: (i: WatchLocationInput) => `UD2,${watchLocationBody(i)}`,
  al: (i: WatchLocationInput) => `AL,${watchLocationBody(i)}`,
  lk: (s: { steps?: number; tumbles?: number; battery?: number } = {}) =>
    `LK,${s.steps ?? 0},${s.tumbles ?? 0},${s.battery ?? 100}`,
  heart: (h: Pick<HealthReading, 'heartRate'>) => `heart,${h.heartRate ?? 0}`,
  bphrt: (h: Pick<HealthReading, 'systolic' | 'diastolic' | 'heartRate'>) =>
    `bphrt,${h.systolic ?? 0},${h.diastolic ?? 0},${h.heartRate ?? ''},,,,`,
  temp: (h: Pick<HealthReading, 'bodyTemp'>) => `TEMP,${(h.bodyTemp ?? 0).toFixed(1)}`,
  oxygen: (h: Pick<HealthReading, 'bloodOxygen' | 'heartRate'>) => `oxygen,${h.heartRate ?? 0},${h.bloodOxygen ?? 0}`,
  init: (phone = '', mode = 1) => `INIT,${phone},${mode},1,1`,
  tkq: () => 'TKQ',
  /** A device's echo of a console command keyword. */
  commandReply: (keyword: string) => keyword,
};
