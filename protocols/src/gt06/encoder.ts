// GT06 server commands (0x80) and device-side packet builders for the simulator and tests.
import { isCommandCode, type CommandCode } from '@wt/contract';
import type { AlarmKind, CellTower, DeviceCommand, Fix } from '../types.js';
import { buildGt06Packet } from './decoder.js';

type Params = DeviceCommand['params'];

/** Why a command cannot be encoded: not a catalogue code, a code GT06 cannot carry, or bad parameters. */
export type Gt06CommandErrorKind = 'unknown' | 'unsupported' | 'invalidParams';

export class Gt06CommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly kind: Gt06CommandErrorKind = 'invalidParams',
  ) {
    super(message);
    this.name = 'Gt06CommandError';
  }
}

function str(p: Params, k: string): string {
  const v = p[k];
  return v === undefined || v === null || Array.isArray(v) || typeof v === 'object' ? '' : String(v).trim();
}
function req(code: string, p: Params, k: string): string {
  const v = str(p, k);
  if (!v) throw new Gt06CommandError(code, `missing parameter ${k}`);
  return v;
}
const digits = (v: unknown) => String(v ?? '').replace(/[^0-9+]/g, '');

type Builder = (p: Params, code: string) => string;
/** A catalogue code this protocol has no command for, with the reason given to the console. */
interface Unsupported {
  unsupported: string;
}

/**
 * Every code of the contract's COMMAND_CODES, mapped to the text a Concox device understands (the
 * `#` terminator included) or to the reason it cannot be sent. The type makes a new contract code
 * a compile error here until it is decided. Concox commands without a catalogue code (engine
 * cut-off `DYD#`, resume `HFYD#`, `GMT,...#`) go out with CUSTOM.
 */
const GT06_TABLE: { readonly [K in CommandCode]: Builder | Unsupported } = {
  UPLOAD: (p, c) => {
    const seconds = p.seconds !== undefined ? Number(p.seconds) : Number(p.interval) * 60;
    if (!Number.isFinite(seconds) || seconds <= 0) throw new Gt06CommandError(c, 'interval must be positive');
    return `TIMER,${Math.round(seconds)}#`;
  },
  SOS: (p, c) => {
    const list = Array.isArray(p.numbers) ? p.numbers : [p.sos1 ?? p.number, p.sos2, p.sos3];
    const nums = list.map(digits);
    while (nums.length && !nums[nums.length - 1]) nums.pop();
    if (!nums.length) throw new Gt06CommandError(c, 'missing parameter sos1');
    return `SOS,A,${nums.join(',')}#`;
  },
  CENTER: (p, c) => `CENTER,A,${digits(req(c, p, 'number'))}#`,
  RESET: () => 'RESET#',
  FIND: () => 'WHERE#',
  IP: (p, c) => `SERVER,1,${req(c, p, 'host')},${req(c, p, 'port')},0#`,
  CUSTOM: (p, c) => {
    const t = req(c, p, 'text');
    return t.endsWith('#') ? t : `${t}#`;
  },
  POWEROFF: { unsupported: 'GT06 trackers have no remote power-off' },
  REMOVE: { unsupported: 'no removal alarm switch in the GT06 command set' },
  LOWBAT: { unsupported: 'no low-battery alarm switch in the GT06 command set' },
  MESSAGE: { unsupported: 'GT06 trackers have no display for messages' },
  WEATHER: { unsupported: 'GT06 trackers have no display for the weather' },
  LZ: { unsupported: 'language and time zone are not one GT06 command (use CUSTOM GMT,E,8#)' },
  HEART_RATE: { unsupported: 'GT06 trackers have no health sensors' },
  BLOOD_PRESSURE: { unsupported: 'GT06 trackers have no health sensors' },
  TEMPERATURE: { unsupported: 'GT06 trackers have no health sensors' },
  BLOOD_OXYGEN: { unsupported: 'GT06 trackers have no health sensors' },
  HEART_RATE_THRESHOLD: { unsupported: 'GT06 trackers have no health sensors' },
  BLOOD_PRESSURE_THRESHOLD: { unsupported: 'GT06 trackers have no health sensors' },
  TEMPERATURE_THRESHOLD: { unsupported: 'GT06 trackers have no health sensors' },
  BLOOD_OXYGEN_THRESHOLD: { unsupported: 'GT06 trackers have no health sensors' },
  FALL_HEIGHT: { unsupported: 'GT06 trackers have no fall detection' },
  SILENCETIME: { unsupported: 'no silence periods in the GT06 command set' },
  REMIND: { unsupported: 'no reminders in the GT06 command set' },
  WORK_TIME: { unsupported: 'no working windows in the GT06 command set' },
  VIBRATION: { unsupported: 'no vibration setting in the GT06 command set' },
};

const isBuilder = (e: Builder | Unsupported): e is Builder => typeof e === 'function';

/** The codes GT06 carries, each with its builder (the catalogue lists these for GT06 models). */
export const GT06_COMMANDS: Partial<Record<CommandCode, Builder>> = Object.fromEntries(
  Object.entries(GT06_TABLE).filter(([, e]) => isBuilder(e)),
) as Partial<Record<CommandCode, Builder>>;

export const GT06_COMMAND_CODES = Object.keys(GT06_COMMANDS) as CommandCode[];

/** Whether GT06 can carry a code, as a value: `{ ok: false, kind, reason }` for the console. */
export function gt06CommandSupport(code: string): { ok: true } | { ok: false; kind: 'unknown' | 'unsupported'; reason: string } {
  const c = code.toUpperCase();
  if (!isCommandCode(c)) return { ok: false, kind: 'unknown', reason: `unknown command ${code}` };
  const e = GT06_TABLE[c];
  return isBuilder(e) ? { ok: true } : { ok: false, kind: 'unsupported', reason: e.unsupported };
}

/** The command text. Throws Gt06CommandError (kind unknown, unsupported or invalidParams). */
export function gt06CommandText(command: DeviceCommand): string {
  const code = command.code.toUpperCase();
  if (!isCommandCode(code)) throw new Gt06CommandError(command.code, `unknown command ${command.code}`, 'unknown');
  const e = GT06_TABLE[code];
  if (!isBuilder(e)) throw new Gt06CommandError(command.code, `${code} is not supported on GT06: ${e.unsupported}`, 'unsupported');
  return e(command.params ?? {}, command.code);
}

/**
 * 0x80 packet: command length (server flag + text), server flag (4 bytes, echoed by the device so
 * the reply can be matched), ASCII text, language (0x0002 English).
 */
export function encodeGt06Command(command: DeviceCommand, serial: number, serverFlag = 0): Buffer {
  const text = Buffer.from(gt06CommandText(command), 'ascii');
  // The length byte counts the server flag and the text.
  if (text.length > 0xff - 4) throw new Gt06CommandError(command.code, 'command text too long', 'invalidParams');
  const flag = Buffer.alloc(4);
  flag.writeUInt32BE(serverFlag >>> 0);
  const content = Buffer.concat([Buffer.from([4 + text.length]), flag, text, Buffer.from([0x00, 0x02])]);
  return buildGt06Packet(0x80, content, serial & 0xffff);
}

// ---- device side --------------------------------------------------------------------------------

function imeiBcd(imei: string): Buffer {
  const digits = imei.padStart(16, '0');
  return Buffer.from(digits, 'hex');
}

function gpsBlock(fix: Fix): Buffer {
  const t = fix.time;
  const out = Buffer.alloc(18);
  out[0] = t.getUTCFullYear() - 2000;
  out[1] = t.getUTCMonth() + 1;
  out[2] = t.getUTCDate();
  out[3] = t.getUTCHours();
  out[4] = t.getUTCMinutes();
  out[5] = t.getUTCSeconds();
  out[6] = (12 << 4) | Math.min(fix.satellites ?? 8, 15);
  out.writeUInt32BE(Math.round(Math.abs(fix.lat) * 60 * 30000), 7);
  out.writeUInt32BE(Math.round(Math.abs(fix.lon) * 60 * 30000), 11);
  out[15] = Math.min(255, Math.round(fix.speed ?? 0));
  let flags = Math.round(fix.course ?? 0) & 0x3ff;
  if (fix.lat >= 0) flags |= 0x0400;
  if (fix.lon < 0) flags |= 0x0800;
  if (fix.valid) flags |= 0x1000;
  out.writeUInt16BE(flags, 16);
  return out;
}

function lbsBlock(cell?: CellTower): Buffer {
  const c = cell ?? { mcc: 0, mnc: 0, lac: 0, cid: 0 };
  const out = Buffer.alloc(8);
  out.writeUInt16BE(c.mcc & 0x7fff, 0);
  out[2] = c.mnc & 0xff;
  out.writeUInt16BE(c.lac & 0xffff, 3);
  out.writeUIntBE(c.cid & 0xffffff, 5, 3);
  return out;
}

const ALARM_CODES: Partial<Record<AlarmKind, number>> = {
  sos: 0x01, powerCut: 0x02, vibration: 0x03, fenceIn: 0x04, fenceOut: 0x05, overspeed: 0x06,
  lowBattery: 0x0e, powerOff: 0x11, tamper: 0x13, fall: 0x23,
};

export const gt06Device = {
  login: (imei: string, serial = 1) => buildGt06Packet(0x01, imeiBcd(imei), serial),
  /** 0x12 GPS + LBS. */
  location: (fix: Fix, serial: number, cell?: CellTower) =>
    buildGt06Packet(0x12, Buffer.concat([gpsBlock(fix), lbsBlock(cell)]), serial),
  /** 0x13 status: terminal info, voltage level 0..6, GSM 0..4, language. */
  heartbeat: (serial: number, s: { charging?: boolean; ignition?: boolean; batteryLevel?: number; gsm?: number } = {}) => {
    let info = 0x01; // defence on
    if (s.ignition) info |= 0x02;
    if (s.charging) info |= 0x04;
    return buildGt06Packet(0x13, Buffer.from([info, s.batteryLevel ?? 6, s.gsm ?? 4, 0x00, 0x02]), serial);
  },
  /** 0x16 GPS + LBS + status with an alarm code. */
  alarm: (fix: Fix, alarm: AlarmKind, serial: number, cell?: CellTower) => {
    const lbs = Buffer.concat([Buffer.from([9]), lbsBlock(cell)]);
    const status = Buffer.from([0x01 | (alarm === 'sos' ? 4 << 3 : 0), 6, 4, ALARM_CODES[alarm] ?? 0, 0x02]);
    return buildGt06Packet(0x16, Buffer.concat([gpsBlock(fix), lbs, status]), serial);
  },
  /** 0x15 reply to a 0x80 command: length, server flag, text, language. */
  commandReply: (text: string, serial: number, serverFlag = 0) => {
    const t = Buffer.from(text, 'ascii');
    const flag = Buffer.alloc(4);
    flag.writeUInt32BE(serverFlag >>> 0);
    return buildGt06Packet(0x15, Buffer.concat([Buffer.from([4 + t.length]), flag, t, Buffer.from([0x00, 0x02])]), serial);
  },
};
