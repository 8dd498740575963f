// GT06 (Concox) decoder. Message layouts follow the Concox documents and the variants Traccar's
// Gt06ProtocolDecoder recognises; the code is ours. One Gt06State per TCP connection.
import type { AlarmKind, CellTower, DecodeResult, DeviceMessage, Fix, WifiAccessPoint } from '../types.js';
import { boundMessages } from '../bounds.js';
import { asBuffer } from '../util.js';
import { crcItu } from './crc.js';
import { parseGt06Frame, type Gt06FrameInfo } from './frame.js';
import { Reader } from './reader.js';

export interface Gt06State {
  /** IMEI established by the login message of this connection. */
  imei?: string;
  /**
   * Device model as configured for the device (e.g. `LW4G-4B`, `SEEWORLD`, `R11`, `NT20`, `VL103`).
   * A few vendors reuse a message type with their own layout that the frame alone cannot tell
   * apart; for those the model decides. Unknown or absent: the Concox layout.
   */
  model?: string;
}

export function createGt06State(model?: string): Gt06State {
  return model ? { model } : {};
}

export interface Gt06DecodeOptions {
  /** Drop frames whose CRC is wrong. Off by default: several real devices send wrong CRCs. */
  requireCrc?: boolean;
}

/** Builds a server->device packet: start, length, type, content, serial, CRC, 0D 0A. */
export function buildGt06Packet(type: number, content: Uint8Array, serial: number, extended = false): Buffer {
  const len = 1 + content.length + 2 + 2;
  const head = extended ? Buffer.from([0x79, 0x79, len >> 8, len & 0xff]) : Buffer.from([0x78, 0x78, len & 0xff]);
  const body = Buffer.concat([head, Buffer.from([type]), Buffer.from(content), Buffer.from([(serial >> 8) & 0xff, serial & 0xff])]);
  const crc = crcItu(body, 2, body.length);
  return Buffer.concat([body, Buffer.from([crc >> 8, crc & 0xff, 0x0d, 0x0a])]);
}

/** The standard acknowledgement: same type, no content, the device's serial. */
export function gt06Ack(type: number, serial: number, extended = false): Buffer {
  return buildGt06Packet(type, new Uint8Array(0), serial, extended);
}

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
const macOf = (b: Uint8Array) => hex(b).replace(/(..)(?!$)/g, '$1:');
const PRINTABLE = /^[\x20-\x7e]*$/;

/**
 * Layout families that share a message type with the Concox base layout and differ by frame
 * length (names after the devices Traccar's decoder recognises them from) or by configured model.
 */
type Variant =
  | 'STANDARD' | 'VXT01' | 'WANWAY_S20' | 'SR411_MINI' | 'GT06E_CARD' | 'BENWAY' | 'S5' | 'SPACE10X'
  | 'OBD6' | 'WETRUST' | 'JC400' | 'SL4X' | 'SEEWORLD' | 'RFID' | 'LW4G' | 'STEPS' | 'CARD' | 'X1_4G';

function variantOf(buf: Buffer, extended: boolean, type: number, length: number): Variant {
  if (extended) return 'STANDARD';
  const is = (t: number, l: number) => type === t && length === l;
  if (is(0x12, 0x24) || is(0x16, 0x24)) return 'VXT01';
  if (is(0x24, 0x31)) return 'WANWAY_S20';
  if (is(0x24, 0x2e)) return 'SR411_MINI';
  if (type === 0x12 && length >= 0x71) return 'GT06E_CARD';
  if (is(0x12, 0x21)) return 'BENWAY';
  if (is(0x12, 0x2b)) return 'S5';
  if (type === 0x19 && length >= 0x17) return 'SPACE10X';
  if (is(0x13, 0x13)) return 'OBD6';
  if (is(0x12, 0x29)) return 'WETRUST';
  if (type === 0x95 && buf.length > 5 && buf[4] === 0xff && buf[5] === 0xff) return 'JC400';
  if (is(0x34, 0x37) || is(0x31, 0x2a) || is(0x32, 0x27) || is(0x32, 0x29)) return 'SL4X';
  if (is(0x22, 0x2f) || is(0x16, 0x26) || is(0xa3, 0x0c)) return 'SEEWORLD';
  if (is(0x17, 0x28)) return 'RFID';
  if (is(0xa2, 0x40)) return 'LW4G';
  // Seen on personal trackers: 0xA3 status carrying a step counter.
  if (is(0xa3, 0x18)) return 'STEPS';
  // 0x16 with a driver card block after the status.
  if (is(0x16, 0x2d)) return 'CARD';
  // 4G vehicle trackers: 0x36 with GPS, one cell, battery volts and a driver card.
  if (is(0x36, 0x35)) return 'X1_4G';
  return 'STANDARD';
}

interface Ctx {
  type: number;
  variant: Variant;
  /** LEN of the frame. */
  length: number;
  lw: boolean;
  seeworld: boolean;
  nt20: boolean;
  r11: boolean;
  vl: boolean;
  qh302r: boolean;
}

function contextOf(type: number, variant: Variant, length: number, model = ''): Ctx {
  const m = model.toUpperCase();
  return {
    type, variant, length,
    lw: m.startsWith('LW'),
    seeworld: m === 'SEEWORLD',
    nt20: m === 'NT20',
    r11: m === 'R11',
    vl: ['VL103', 'LL303', 'VL512', 'G18'].includes(m),
    qh302r: m === 'QH302R',
  };
}

/** Alarm/extension byte of status blocks. Kinds outside our AlarmKind go to attributes.alarm. */
function alarmFromCode(code: number, c: Ctx): string | undefined {
  switch (code) {
    case 0x01: return 'sos';
    case 0x02: return 'powerCut';
    case 0x03: return 'vibration';
    case 0x04: return 'fenceIn';
    case 0x05: return 'fenceOut';
    case 0x06: return 'overspeed';
    case 0x09: return c.vl ? 'tow' : 'vibration';
    case 0x0e: case 0x0f: return 'lowBattery';
    case 0x11: return 'powerOff';
    case 0x0c: case 0x13: case 0x25: return 'tamper';
    case 0x14: return 'door';
    case 0x18: return c.lw ? 'accident' : 'removal';
    case 0x19: return c.lw ? 'acceleration' : 'lowBattery';
    case 0x1a: case 0x27: return 'braking';
    case 0x1b: case 0x2a: case 0x2b: case 0x2e: return 'cornering';
    case 0x23: return 'fall';
    case 0x26: return 'acceleration';
    case 0x28: return c.seeworld ? 'cornering' : 'braking';
    case 0x29: return c.seeworld ? 'accident' : 'acceleration';
    case 0x2c: return 'accident';
    case 0x30: return c.vl ? 'braking' : 'jamming';
    default: return undefined;
  }
}

const KINDS = new Set<string>(['sos', 'lowBattery', 'fenceIn', 'fenceOut', 'fall', 'removal', 'powerCut', 'powerOff', 'vibration', 'overspeed', 'tamper']);

class Builder {
  msg: DeviceMessage;
  constructor(deviceId: string, type: number) {
    this.msg = { deviceId, protocol: 'gt06', kind: 'heartbeat', type: `0x${type.toString(16).padStart(2, '0')}` };
  }
  alarm(a: string | undefined): void {
    if (!a) return;
    if (KINDS.has(a)) {
      const list = (this.msg.alarms ??= []);
      if (!list.includes(a as AlarmKind)) list.push(a as AlarmKind);
    } else {
      this.attr('alarm', a);
    }
  }
  attr(k: string, v: string | number | boolean): void {
    (this.msg.attributes ??= {})[k] = v;
  }
  status(k: keyof NonNullable<DeviceMessage['status']>, v: number | boolean): void {
    (this.msg.status ??= {})[k] = v as never;
  }
  done(): DeviceMessage {
    const m = this.msg;
    if (m.alarms?.length) m.kind = 'alarm';
    else if (m.fix || m.cells || m.wifi) m.kind = 'position';
    else if (m.commandResult) m.kind = 'commandResult';
    return m;
  }
}

function date6(r: Reader): Date {
  const y = r.u8(), mo = r.u8(), d = r.u8(), h = r.u8(), mi = r.u8(), s = r.u8();
  return new Date(Date.UTC(2000 + y, mo - 1, d, h, mi, s));
}

function bcd(b: number): number {
  return (b >> 4) * 10 + (b & 0x0f);
}

/** Latitude/longitude from the course/status word: bit 10 north, bit 11 west, bit 12 fix valid. */
function applyFlags(b: Builder, time: Date, latRaw: number, lonRaw: number, flags: number, extra: Partial<Fix>): void {
  let lat = latRaw / 60 / 30000;
  let lon = lonRaw / 60 / 30000;
  if (!(flags & 0x0400)) lat = -lat;
  if (flags & 0x0800) lon = -lon;
  const fix: Fix = { time, valid: (flags & 0x1000) !== 0, lat, lon, course: flags & 0x03ff, ...extra };
  if (flags & 0x4000) b.status('ignition', (flags & 0x8000) !== 0);
  // A fix with both coordinates zero and no lock is a receiver that has not found itself yet.
  if (Number.isFinite(time.getTime()) && !(lat === 0 && lon === 0 && !fix.valid)) b.msg.fix = fix;
}

interface GpsOptions {
  /** A length byte follows the time; 0 means "no GPS block". */
  hasLength?: boolean;
  sats?: boolean;
  speed?: boolean;
  /** Speed in two bytes. */
  longSpeed?: boolean;
  /** Course/status word before the speed. */
  flagsFirst?: boolean;
}

/** The GPS block: time, [length], [satellites], lat, lon, [speed], course/status word (18 bytes in the base layout). */
function readGps(r: Reader, b: Builder, o: GpsOptions = {}): boolean {
  const time = date6(r);
  b.msg.time ??= time;
  if (o.hasLength && r.u8() === 0) return false;
  const satellites = o.sats !== false ? r.u8() & 0x0f : undefined;
  const lat = r.u32();
  const lon = r.u32();
  let flags = o.flagsFirst ? r.u16() : 0;
  const speed = o.speed === false ? undefined : o.longSpeed ? r.u16() : r.u8(); // km/h on the wire
  if (!o.flagsFirst) flags = r.u16();
  const extra: Partial<Fix> = {};
  if (speed !== undefined) extra.speed = speed;
  if (satellites !== undefined) extra.satellites = satellites;
  applyFlags(b, time, lat, lon, flags, extra);
  return true;
}

/**
 * One serving cell. With `withLength` a length byte precedes it; the length counts itself (9 for
 * the base block) and anything beyond the cell is skipped. Cell layouts: base (LAC 2, CID 3),
 * CID 4 (0x11, 0x61, SeeWorld, SL4X, 4G 0x36), 4G (LAC 4, CID 8: 0xA0, 0xA5, LWxG 0xA2, and any block whose
 * length says 16). MNC takes two bytes when the MCC's top bit says so (and on 0x11/SL4X).
 */
function readLbs(r: Reader, b: Builder, c: Ctx, withLength: boolean): boolean {
  let length = 0;
  if (withLength) {
    length = r.u8();
    if (length === 0) {
      // An empty block; some firmware still sends it as 45 zero bytes.
      const buf = r.buf;
      let zero = r.left >= 45;
      for (let i = r.pos + 9; zero && i < r.pos + 45; i++) {
        if (buf[i] !== 0) {
          zero = false;
          break;
        }
      }
      if (zero) r.skip(45);
      return false;
    }
  }
  const { type, variant } = c;
  const start = r.pos;
  const long = type === 0xa0 || type === 0xa5 || (type === 0xa2 && variant === 'LW4G') || (withLength && length >= 16);
  const cid4 = type === 0x11 || type === 0x61 || variant === 'SEEWORLD' || variant === 'SL4X' || variant === 'X1_4G';
  if (r.left < 2) return false;
  const wideMnc = (r.peek() & 0x80) !== 0 || type === 0x11 || variant === 'SL4X';
  const need = 2 + (wideMnc ? 2 : 1) + (long ? 4 + 8 : 2 + (cid4 ? 4 : 3));
  if (r.left < need) {
    // Too short for a cell (some firmware ends the frame after GPS): nothing to read.
    if (withLength) r.skip(Math.min(r.left, length));
    return false;
  }
  const mccRaw = r.u16();
  const mnc = wideMnc ? r.u16() : r.u8();
  const lac = long ? r.u32() : r.u16();
  const cid = long ? r.u64() : cid4 ? r.u32() : r.u24();
  if (lac > 0 || cid > 0) b.msg.cells = [{ mcc: mccRaw & 0x7fff, mnc, lac, cid }];
  if (withLength) {
    const rest = length - 1 - (r.pos - start);
    if (rest > 0) r.skip(Math.min(rest, r.left));
  }
  return true;
}

/** Terminal information byte: ignition, charging, and the alarm bits 3-5. */
function readStatusByte(r: Reader, b: Builder, c: Ctx): void {
  const status = r.u8();
  b.attr('status', status);
  b.status('ignition', (status & 0x02) !== 0);
  b.status('charging', (status & 0x04) !== 0);
  switch ((status >> 3) & 0x07) {
    case 1: b.alarm('vibration'); break;
    case 2: b.alarm('powerCut'); break;
    case 3: b.alarm('lowBattery'); break;
    case 4: b.alarm('sos'); break;
    case 6: b.alarm('geofence'); break;
    case 7: b.alarm(c.variant === 'VXT01' ? 'overspeed' : 'removal'); break;
  }
}

const signal = (b: Builder, gsm: number) => b.status('signal', Math.min(gsm, 4) * 25);

function batteryLevel(b: Builder, level: number): void {
  // 0..6 is the Concox voltage scale; 7..100 is a percentage on newer firmware.
  if (level <= 6) b.status('battery', Math.round((level * 100) / 6));
  else if (level <= 100) b.status('battery', level);
}

/** The status block (terminal info, voltage, GSM, alarm/extension) in its model variants. */
function readStatus(r: Reader, b: Builder, c: Ctx): void {
  const { type, variant } = c;
  if (type === 0xa2) r.u8(); // network indicator
  readStatusByte(r, b, c);
  if (variant === 'OBD6') {
    const word = r.u16();
    b.attr('satellites', ((word >> 10) & 0x1f) + ((word >> 5) & 0x1f));
    signal(b, word & 0x1f);
    b.alarm(alarmFromCode(r.u8(), c));
    r.u8(); // language
    b.status('battery', r.u8());
    const mode = r.u8();
    b.status('power', r.u16() / 100);
    r.skip(1 + 2); // reserved, working time
    if (mode === 4 && r.left >= 2) b.attr('temperature', r.i16() / 10);
    return;
  }
  if (type === 0xa2 || (c.nt20 && type === 0x22)) b.status('power', r.u16() / 100);
  if (type === 0x13 && c.r11) {
    b.status('power', r.u16() / 100);
  } else if (r.left) {
    const level = r.u8();
    if (c.nt20 && type === 0x22) b.attr('batteryVoltage', level / 10);
    else batteryLevel(b, level);
  }
  if (r.left) signal(b, r.u8());
  if (type === 0x13 && c.lw) {
    if (r.left >= 2) b.status('power', (r.u16() & 0x0fff) / 10);
  } else if (r.left) {
    // 0x27/0xA4 widen the code with the low nibble of the next (language) byte; the codes we
    // know are all in the low byte.
    const ext = r.u8();
    if (type === 0x13 && c.seeworld) b.status('power', ext);
    else if (variant !== 'VXT01' && ext) {
      const a = alarmFromCode(ext, c);
      if (a) b.alarm(a);
      else b.attr('event', ext);
    }
  }
}

const hasGps = (c: Ctx) => {
  switch (c.type) {
    case 0x10: case 0x11: case 0x12: case 0x16: case 0x1a: case 0x1e: case 0x22: case 0x24: case 0x26: case 0x27:
    case 0x2d: case 0x31: case 0x32: case 0x37: case 0x38: case 0xa0: case 0xa4:
      return true;
    case 0x17: return c.variant === 'RFID';
    case 0xa2: return c.variant === 'LW4G';
    case 0xa3: return c.variant !== 'SEEWORLD';
    default: return false;
  }
};
const hasLbs = (c: Ctx) => {
  switch (c.type) {
    case 0x11: case 0x12: case 0x16: case 0x19: case 0x22: case 0x24: case 0x26: case 0x27: case 0x2d: case 0x31:
    case 0x32: case 0x37: case 0xa0: case 0xa4: case 0xa5: case 0xa7:
      return true;
    case 0x17: return c.variant === 'RFID';
    case 0xa2: return c.variant === 'LW4G';
    case 0xa3: return c.variant !== 'SEEWORLD';
    default: return false;
  }
};
const hasStatus = (c: Ctx) => {
  switch (c.type) {
    case 0x13: case 0x16: case 0x19: case 0x26: case 0x27: case 0x32: case 0x36: case 0xa4: case 0xa5:
      return true;
    case 0x22: return c.nt20;
    case 0xa2: return c.variant === 'LW4G';
    case 0xa3: return c.variant === 'SEEWORLD';
    default: return false;
  }
};
const LOCATION_TYPES = new Set([
  0x10, 0x11, 0x12, 0x13, 0x16, 0x17, 0x19, 0x1a, 0x1e, 0x22, 0x24, 0x26, 0x27, 0x2d, 0x31, 0x32, 0x36, 0x37, 0x38,
  0xa0, 0xa2, 0xa3, 0xa4, 0xa5, 0xa7,
]);

/** GPS / LBS / status family (the bulk of GT06 traffic). */
function decodeLocation(r: Reader, b: Builder, c: Ctx): void {
  const { type, variant } = c;
  if (type === 0x12 && c.qh302r) r.skip(8); // IMEI
  if (type === 0x22 && c.nt20) {
    r.u8(); // location source
    r.skip(8); // IMEI
    b.msg.time = date6(r);
  }
  if (variant === 'STEPS') {
    // Status with a step counter; the fields around it are not documented.
    r.skip(11);
    b.status('steps', r.u16());
    return;
  }
  if (hasGps(c) || variant === 'X1_4G') readGps(r, b);
  if (variant === 'X1_4G') {
    readLbs(r, b, c, false);
    if (r.left >= 21) {
      r.skip(9);
      b.attr('batteryVoltage', r.u8() / 10);
      r.skip(3);
      const card = r.bytes(8);
      if (card.some((x) => x !== 0)) b.attr('driverUniqueId', hex(card));
    }
    return;
  }
  if (variant === 'SR411_MINI') {
    readLbs(r, b, c, false);
    b.status('ignition', r.u8() > 0);
    b.status('power', r.u16() / 100);
    b.attr('batteryVoltage', r.u16() / 100);
    return;
  }
  if (hasLbs(c) && r.left > 0) {
    const withLength = hasStatus(c) && type !== 0x19 && type !== 0xa5 && type !== 0xa2 && !(type === 0x16 && variant === 'VXT01');
    readLbs(r, b, c, withLength);
  }
  if (hasStatus(c) && r.left > 0) readStatus(r, b, c);
  if ((type === 0x36 || type === 0xa2 || type === 0x27 || type === 0xa4 || (c.nt20 && type === 0x22)) && r.left) r.u8(); // language
  if (type === 0x36) {
    while (r.left >= 3) {
      const id = r.u16();
      const len = r.u8();
      if (len > r.left) break;
      const m = new Reader(r.buf, r.pos, r.pos + len);
      if (id === 0x18 && len >= 2) b.attr('batteryVoltage', m.u16() / 100);
      else if (id === 0x32 && len >= 1) b.attr('startupStatus', m.u8());
      else if (id === 0x6a && len >= 1) b.status('battery', m.u8());
      r.skip(len);
    }
  }
  if (type === 0xa2 && variant === 'LW4G' && r.left >= 18) {
    b.attr('odometer', r.u32());
    b.attr('engineSeconds', r.u32());
    r.skip(8); // terminal id
    b.attr('input', r.u16());
  }
  if (type === 0x12) {
    if (variant === 'GT06E_CARD') {
      b.attr('odometer', r.u32());
      const card = Buffer.from(r.bytes(r.u8())).toString('latin1').trim();
      r.skip(2); // alarm, swiped
      if (card) b.attr('card', card);
    } else if (variant === 'BENWAY') {
      const mask = r.u16();
      b.status('ignition', (mask & 0x8000) !== 0);
      b.attr('in2', (mask & 0x4000) !== 0);
      if (mask & 0x1000) {
        const v = mask & 0x1ff;
        b.attr('temperature', mask & 0x0200 ? -v : v);
      } else {
        const v = mask & 0x3ff;
        b.attr('adc1', mask & 0x2000 ? v : v / 10);
      }
    } else if (variant === 'VXT01' || variant === 'S5') {
      readStatusByte(r, b, c);
      b.status('power', r.u16() / 100);
      signal(b, r.u8());
      if (variant === 'VXT01') {
        r.u8(); // alarm extension
      } else {
        b.alarm(alarmFromCode(r.u8(), c));
        b.attr('oil', r.u16());
        let t = r.u8();
        if (t & 0x80) t = -(t & 0x7f);
        b.attr('temperature', t);
        b.attr('odometer', r.u32() * 10);
      }
    } else if (variant === 'WETRUST') {
      b.attr('odometer', r.u32());
      const card = Buffer.from(r.bytes(r.u8())).toString('latin1');
      if (card) b.attr('card', card);
      if (r.u8() > 0) b.alarm('general');
      b.attr('cardStatus', r.u8());
      b.attr('drivingTime', r.u16());
    }
  }
  if (type === 0x22 && variant === 'SEEWORLD') {
    b.status('ignition', r.u8() > 0);
    r.skip(2); // reporting mode, supplementary transmission
    b.attr('odometer', r.u32());
    r.u32(); // travel time
    const t = r.u16();
    b.attr('temperature', ((t & 0x8000 ? -1 : 1) * (t & 0x7fff)) / 100);
    b.attr('humidity', r.u16() / 100);
  }
  if (type === 0x32 && variant === 'SL4X' && r.left >= 2) {
    if (r.left >= 3) r.u8(); // language
    if (b.msg.fix) b.msg.fix.altitude = r.i16();
  }
  if ((type === 0x22 || type === 0x37 || type === 0x2d || type === 0x31) && !c.nt20 && variant !== 'SEEWORLD' && r.left >= 3) {
    b.status('ignition', r.u8() > 0);
    b.attr('event', r.u8());
    if (r.u8() > 0) b.msg.buffered = true;
    if (variant === 'SL4X') {
      if (r.left > 2) b.attr('odometer', r.u32());
      if (r.left >= 2 && b.msg.fix) b.msg.fix.altitude = r.i16();
    }
  }
  if (type === 0x37 && r.left >= 3) {
    const module = r.u16();
    const len = r.u8();
    if (module === 0x27) b.status('power', r.u16() / 100);
    else if (module === 0x2e) b.attr('odometer', r.u32());
    else if (module === 0x3b && b.msg.fix) b.msg.fix.accuracy = r.u16() / 100;
    else r.skip(Math.min(len, r.left));
  }
  if (type === 0x17 && variant === 'RFID') {
    b.attr('driverUniqueId', hex(r.bytes(8)));
    r.u8(); // validity
  }
  if (type === 0x16 && variant === 'CARD' && r.left >= 9) {
    r.u8(); // card present
    const card = r.bytes(8);
    if (card.some((x) => x !== 0)) b.attr('driverUniqueId', hex(card));
  }
  if (type === 0x22 && c.nt20 && r.left >= 6) {
    b.attr('odometer', r.u24());
    b.attr('engineSeconds', r.u24() * 60);
  }
  // Optional tails of GPS+LBS reports: ACC, data upload mode, re-upload flag, then an odometer.
  if (r.left === 3 || r.left === 7) {
    b.status('ignition', r.u8() > 0);
    r.u8(); // upload mode
    if (r.u8() > 0) b.msg.buffered = true;
  }
  if (r.left === 4) b.attr('odometer', r.u32());
  if ((type === 0x1a) && r.left >= 2) r.skip(2); // language
  if ((type === 0x27 || type === 0xa4) && r.left >= 1) b.attr('geofence', r.u8());
}

/** X1 (0x34, 0x3C long): alarm word, GPS, terminal info, odometer, cell, driver, battery, power, I/O, ADCs. */
function decodeX1(r: Reader, b: Builder): void {
  r.u32(); // data and alarm
  readGps(r, b);
  r.u16(); // terminal info
  b.attr('odometer', r.u32());
  const cell: CellTower = { mcc: r.u16(), mnc: r.u8(), lac: r.u16(), cid: r.u32() };
  if (cell.lac > 0 || cell.cid > 0) b.msg.cells = [cell];
  const driver = r.u32();
  if (driver > 0) b.attr('driverUniqueId', String(driver));
  b.attr('batteryVoltage', r.u16() / 100);
  b.status('power', r.u16() / 100);
  const ports = r.u32();
  b.attr('input', r.u8());
  b.attr('output', r.u8());
  const adcs = (ports >>> 20) & 0x0f;
  for (let i = 1; i <= adcs && r.left >= 2; i++) b.attr(`adc${i}`, r.u16() / 100);
}

/** Several cells (and sometimes WiFi) with a time: 0x18, 0x24, 0x28, 0x2C, 0x2E, 0xA1, 0xA2, 0x33, SL4X 0x34. */
function decodeMultiLbs(r: Reader, b: Builder, c: Ctx): void {
  const { type, variant } = c;
  b.msg.time = date6(r);
  const s20 = variant === 'WANWAY_S20';
  const sl4x = variant === 'SL4X';
  if (s20 || sl4x) r.u8(); // timing advance
  const mccRaw = r.u16();
  const mnc = mccRaw & 0x8000 || sl4x ? r.u16() : r.u8();
  const count = s20 ? r.u8() : type === 0x33 ? 6 : 7;
  const cells: CellTower[] = [];
  for (let i = 0; i < count; i++) {
    let lac: number;
    let cid: number;
    if (type === 0xa1 || type === 0xa2) {
      lac = r.u32();
      cid = r.u64();
    } else if (type === 0x33 || type === 0x34) {
      lac = r.u16();
      cid = r.u32();
    } else {
      lac = r.u16();
      cid = r.u24();
    }
    const rssi = -r.u8();
    if (lac > 0) cells.push({ mcc: mccRaw & 0x7fff, mnc, lac, cid, rssi });
  }
  if (cells.length) b.msg.cells = cells;
  if (!s20 && !sl4x && r.left) r.u8(); // timing advance
  if (type === 0x2c || type === 0xa2 || type === 0x33 || type === 0x18) {
    const wifi: WifiAccessPoint[] = [];
    const n = r.left ? r.u8() : 0;
    for (let i = 0; i < n && r.left >= 7; i++) wifi.push({ mac: macOf(r.bytes(6)), rssi: -r.u8() });
    if (wifi.length) b.msg.wifi = wifi;
  }
}

/** 0x25: source, IMEI, device time, GPS, a length-prefixed cell, status with volts, trip counters and a driver card. */
function decodeCardReport(r: Reader, b: Builder, c: Ctx): void {
  r.u8(); // location source
  r.skip(8); // IMEI
  b.msg.time = date6(r);
  readGps(r, b);
  const length = r.u8();
  const end = r.pos + length;
  if (length >= 8 && end <= r.end) {
    const mccRaw = r.u16();
    const mnc = mccRaw & 0x8000 ? r.u16() : r.u8();
    const lac = r.u16();
    const cid = length >= 9 + (mccRaw & 0x8000 ? 1 : 0) ? r.u32() : r.u24();
    if (lac > 0 || cid > 0) b.msg.cells = [{ mcc: mccRaw & 0x7fff, mnc, lac, cid }];
  }
  r.pos = Math.min(end, r.end);
  readStatusByte(r, b, c);
  b.status('power', r.u16() / 100);
  b.attr('batteryVoltage', r.u8() / 10);
  signal(b, r.u8());
  const ext = r.u8();
  if (ext) b.alarm(alarmFromCode(ext, c) ?? undefined);
  r.u8(); // language
  b.attr('odometer', r.u24());
  b.attr('engineSeconds', r.u24() * 60);
  // Driver card: length (card type + id), card type, id.
  if (r.left >= 2) {
    const len = r.u8();
    if (len >= 2 && len <= r.left) {
      r.u8(); // card type
      b.attr('driverUniqueId', hex(r.bytes(len - 1)));
    }
  }
}

/** Decodes one complete frame. Never throws. */
export function decodeGt06Frame(input: Uint8Array | string, state: Gt06State, opts: Gt06DecodeOptions = {}): DecodeResult {
  const buf = asBuffer(typeof input === 'string' ? Buffer.from(input, 'hex') : input);
  const info = parseGt06Frame(buf);
  if (!info) return { messages: [] };
  if (opts.requireCrc && !info.crcOk) return { messages: [] };
  try {
    const res = decodeInfo(buf, info, state);
    if (res.messages.length) res.messages = boundMessages(res.messages);
    if (info.numbered) res.sequence = info.serial;
    return res;
  } catch {
    // Undecodable body: the gateway counts and logs it; the connection goes on.
    return { messages: [], deviceId: state.imei };
  }
}

function decodeInfo(buf: Buffer, info: Gt06FrameInfo, state: Gt06State): DecodeResult {
  const { type, extended, serial } = info;
  const r = new Reader(buf, info.contentStart, info.contentEnd);
  const length = extended ? buf.readUInt16BE(2) : buf[2];
  const ack = () => gt06Ack(type, serial, extended);

  if (type === 0x01 && !extended) {
    const imei = hex(r.bytes(8)).slice(1);
    if (!/^\d{14,16}$/.test(imei)) return { messages: [] };
    state.imei = imei;
    return {
      messages: [{ deviceId: imei, protocol: 'gt06', kind: 'login', type: '0x01' }],
      reply: gt06Ack(0x01, serial),
      deviceId: imei,
    };
  }
  const id = state.imei;
  if (!id) return { messages: [] }; // no login yet on this connection: nobody to attribute it to
  const b = new Builder(id, type);
  const res: DecodeResult = { messages: [], deviceId: id };
  const variant = variantOf(buf, extended, type, length);
  const c = contextOf(type, variant, length, state.model);
  const finish = (m = b.done()) => {
    res.messages.push(m);
    return res;
  };

  if (!extended && type === 0x13 && r.left === 16) {
    res.reply = ack();
    // Extended status of personal trackers: battery percent and temperature.
    r.skip(1 + 2 + 1 + 1);
    b.status('battery', r.u8());
    r.skip(1 + 2 + 1 + 2 + 2);
    const v = r.u16();
    b.msg.health = { bodyTemp: ((v & 0x7fff) / 10) * (v & 0x8000 ? 1 : -1) };
    return finish();
  }
  if (!extended && type === 0x23) {
    const status = r.u8();
    b.status('ignition', (status & 0x02) !== 0);
    b.status('charging', (status & 0x04) !== 0);
    if (r.left >= 2) b.attr('batteryVoltage', r.u16() / 100);
    if (r.left >= 1) signal(b, r.u8());
    res.reply = ack();
    return finish();
  }
  if (type === 0x15 && !extended) {
    res.reply = ack();
    const n = r.u8();
    let text = '';
    let serverFlag: number | undefined;
    if (n > 4 && n - 4 <= r.left - 4) {
      serverFlag = r.u32();
      text = Buffer.from(r.bytes(n - 4)).toString('latin1');
    } else if (r.left > 4) {
      // Length 0 (or too large) yet text follows the server flag: read it up to the padding.
      serverFlag = r.u32();
      text = Buffer.from(r.bytes(r.left)).toString('latin1').split('\0')[0];
    }
    text = text.replace(/\0+$/g, '');
    if (text.startsWith('<ICCID:')) b.attr('iccid', text.slice(7, 27));
    else if (text) b.msg.commandResult = { keyword: text.split(/[=:,!]/)[0] || 'STRING', text, serverFlag };
    return finish();
  }
  if (type === 0x21 && extended) {
    const serverFlag = r.left >= 4 ? r.u32() : undefined;
    const enc = r.u8();
    const raw = Buffer.from(r.bytes(r.left));
    const text = enc === 1 ? raw.toString('latin1') : Buffer.from(raw).swap16().toString('utf16le');
    const m = /Current position!Lat:([NS])(\d+\.\d+),Lon:([EW])(\d+\.\d+),Course:(\d+\.\d+),Speed:(\d+\.\d+),DateTime:(\d{4})-(\d\d)-(\d\d) +(\d\d):(\d\d):(\d\d)/.exec(text);
    if (m) {
      const time = new Date(Date.UTC(+m[7], +m[8] - 1, +m[9], +m[10], +m[11], +m[12]));
      b.msg.time = time;
      b.msg.fix = {
        time,
        valid: true,
        lat: (m[1] === 'S' ? -1 : 1) * +m[2],
        lon: (m[3] === 'W' ? -1 : 1) * +m[4],
        course: +m[5],
        speed: +m[6],
      };
    } else {
      b.msg.commandResult = { keyword: text.split(/[=:,!]/)[0] || 'STRING', text: text.replace(/\0+$/g, ''), serverFlag };
    }
    return finish();
  }
  if (type === 0x94) {
    if (!extended) {
      b.status('power', r.i16() / 100);
      return finish();
    }
    const sub = r.u8();
    b.attr('infoType', sub);
    if (sub === 0x00) b.status('power', r.u16() / 100);
    else if (sub === 0x04) {
      const text = Buffer.from(r.bytes(r.left)).toString('latin1');
      b.attr('deviceStatus', text);
      for (const pair of text.split(';')) {
        const [k, v] = pair.split('=');
        if (v === undefined || !/^[0-9A-Fa-f]+$/.test(v)) continue;
        if (/^ALM[123]$/.test(k)) b.attr(`alarm${k[3]}Status`, parseInt(v, 16));
        else if (k === 'STA1') b.attr('otherStatus', parseInt(v, 16));
        else if (k === 'DYD') b.attr('engineStatus', parseInt(v, 16));
      }
    } else if (sub === 0x05) {
      if (r.left >= 7) b.msg.time = date6(r);
      const flags = r.u8();
      b.attr('door', (flags & 1) !== 0);
      b.attr('io1', (flags & 4) !== 0);
    } else if (sub === 0x0a) {
      b.attr('imei', hex(r.bytes(8)).slice(1));
      b.attr('imsi', hex(r.bytes(8)).slice(1));
      b.attr('iccid', hex(r.bytes(10)).replace(/f/g, ''));
    } else if (sub === 0x0b) {
      if (r.left === 1) b.attr('networkTechnology', r.u8() > 0 ? '4G' : '2G');
      else if (r.left >= 2) b.status('power', r.u16() / 100);
    } else if (sub === 0x1b) {
      if (r.peek() === 0x02) {
        r.skip(2);
        b.attr('driverUniqueId', hex(r.bytes(4)));
      } else {
        b.attr('serial', Buffer.from(r.bytes(r.left)).toString('latin1').replace(/[\r\n]+$/, ''));
      }
    } else if (sub === 0x1e) {
      const t = r.u32() | 0;
      const h = r.u32() | 0;
      b.attr('temperature', t / 10);
      b.attr('humidity', h / 10);
    } else if (r.left > 0) {
      const data = Buffer.from(r.bytes(r.left));
      b.attr('info', PRINTABLE.test(data.toString('latin1')) ? data.toString('latin1') : data.toString('hex'));
    }
    return finish();
  }
  if (type === 0x9b && extended) {
    r.skip(1); // external device type
    const data = Buffer.from(r.bytes(r.left));
    const text = data.toString('latin1').replace(/\r\n$/, '');
    b.msg.commandResult = { keyword: 'SERIAL', text: PRINTABLE.test(text) && text.length ? text : data.toString('hex') };
    return finish();
  }
  if (type === 0x95 && !extended) {
    const full = r.left > 7;
    const jc400 = variant === 'JC400';
    if (full) {
      if (jc400) r.skip(3); // marker, version
      readGps(r, b, { sats: jc400, speed: jc400, longSpeed: jc400, flagsFirst: jc400 });
    } else {
      b.msg.time = date6(r);
    }
    if (jc400) b.status('power', r.u16() / 10);
    const code = r.u8();
    b.attr('event', code);
    if (r.left >= 2) b.attr('eventData', r.u16());
    const kinds: Record<number, string> = {
      0x0e: 'lowPower', 0x76: 'temperature', 0x80: 'vibration', 0x87: 'overspeed', 0x88: 'powerCut',
      0x90: 'acceleration', 0x91: 'braking', 0x92: 'cornering', 0x93: 'accident',
    };
    b.alarm(code === 0x01 ? (full ? 'sos' : 'general') : kinds[code]);
    if (r.left > 0) {
      const files = Buffer.from(r.bytes(r.left)).toString('latin1');
      if (files && PRINTABLE.test(files)) b.attr('eventFiles', files);
    }
    res.reply = ack();
    return finish();
  }
  if (type === 0x70 && extended) {
    while (r.left >= 4) {
      const mt = r.u16();
      const ml = r.u16();
      const end = r.pos + ml;
      if (end > r.end) break;
      const sub = new Reader(buf, r.pos, end);
      switch (mt) {
        case 0x01: if (ml >= 8) b.attr('imei', hex(sub.bytes(8)).slice(1)); break;
        case 0x03: b.attr('iccid', hex(sub.bytes(10))); break;
        case 0x09: b.attr('satellites', sub.u8()); break;
        case 0x0a: b.attr('satellitesVisible', sub.u8()); break;
        case 0x11: {
          const cell: CellTower = { mcc: sub.u16(), mnc: sub.u16(), lac: sub.u16(), cid: sub.u24(), rssi: sub.u8() };
          if (cell.cid > 0) b.msg.cells = [cell];
          break;
        }
        case 0x18: b.attr('batteryVoltage', sub.u16() / 100); break;
        case 0x28: b.attr('hdop', sub.u8() / 10); break;
        case 0x2a: {
          const input = sub.u8();
          b.attr('door', (input & 0x0f) > 0);
          b.attr('tamper', input >> 4 > 0);
          break;
        }
        case 0x2b: {
          const ev = sub.u8();
          if (ev === 0x11) b.alarm('lowBattery');
          else if (ev === 0x12) b.alarm('lowPower');
          else if (ev === 0x13) b.alarm('powerCut');
          else if (ev === 0x14) b.alarm('removal');
          b.attr('event', ev);
          break;
        }
        case 0x2c: b.msg.time = new Date(sub.u32() * 1000); break;
        case 0x2e: b.attr('odometer', Buffer.from(sub.bytes(4)).readUInt32LE(0)); break;
        case 0x33: {
          const time = new Date(sub.u32() * 1000);
          const satellites = sub.u8();
          const altitude = sub.i16();
          const lat = sub.u32();
          const lon = sub.u32();
          const speed = sub.u8();
          const flags = sub.u16();
          b.msg.time = time;
          applyFlags(b, time, lat, lon, flags, { speed, altitude, satellites });
          break;
        }
        case 0x7f: {
          b.attr('tag1Id', hex(sub.bytes(6)));
          b.attr('tag1Battery', sub.u16() / 1000);
          b.attr('tag1BatteryLevel', sub.u8());
          b.attr('tag1Temp', sub.i16() / 10);
          b.attr('tag1Humidity', sub.i16());
          b.attr('tag1Status', sub.u8());
          break;
        }
      }
      r.pos = end;
    }
    res.reply = gt06Ack(0x70, serial);
    return finish();
  }
  if (type === 0x8c && extended) {
    b.msg.time = date6(r);
    b.status('ignition', r.u8() > 0);
    const text = Buffer.from(r.bytes(Math.max(0, r.left))).toString('latin1');
    for (const pair of text.split(',')) {
      const [k, v] = pair.split('=');
      if (k && v && /^[0-9A-Fa-f]+$/.test(v)) b.attr(`obd${k}`, parseInt(v, 16));
    }
    return finish();
  }
  if (type === 0xf1 && extended) {
    // Status report: time, then entries of id (2), length (1), value. 0x0005 is the supply in 10 mV.
    b.msg.time = new Date(r.u32() * 1000);
    while (r.left >= 3) {
      const sid = r.u16();
      const len = r.u8();
      if (len > r.left) break;
      const v = new Reader(buf, r.pos, r.pos + len);
      if (sid === 0x0005 && len === 2) b.status('power', v.u16() / 100);
      r.skip(len);
    }
    res.reply = ack();
    return finish();
  }
  if (type === 0xf2 && extended) {
    // Peripheral report: time, then status entries.
    b.msg.time = new Date(r.u32() * 1000);
    while (r.left >= 3) {
      const sid = r.u16();
      if (sid === 0x000a) {
        const len = r.u16();
        if (len < 10 || len > r.left) break;
        r.u8(); // MAC type
        b.attr('mac', hex(r.bytes(6)));
        const event = r.u8();
        b.attr('event', event);
        const eventData = r.u8();
        if (event > 0) b.attr('eventData', eventData);
        b.attr('dataType', r.u8());
        const details = Buffer.from(r.bytes(len - 10));
        b.attr('dataDetails', PRINTABLE.test(details.toString('latin1')) ? details.toString('latin1') : details.toString('hex'));
      } else if (sid === 0x000c) {
        const len = r.u8();
        if (len > r.left || len < 4) break;
        const v = new Reader(buf, r.pos, r.pos + len);
        b.attr('externalBatteryLevel', v.u8());
        if (v.u8() > 0) b.attr('externalBatteryCharge', true);
        b.attr('externalBatteryCycles', v.u16());
        r.skip(len);
      } else {
        let len = r.u8();
        if (len === 0 && r.left) len = r.u8();
        if (len > r.left) break;
        r.skip(len);
      }
    }
    res.reply = ack();
    return finish();
  }
  if (type === 0x38 && extended) {
    readGps(r, b);
    r.u8(); // upload mode
    if (r.u8() > 0) b.msg.buffered = true;
    const cellType = r.u8();
    const mccRaw = r.u16();
    const mnc = mccRaw & 0x8000 ? r.u16() : r.u8();
    const lac = cellType >= 3 ? r.u32() : r.u16();
    const cid = cellType >= 3 ? r.u64() : r.u24();
    if (lac > 0 || cid > 0) b.msg.cells = [{ mcc: mccRaw & 0x7fff, mnc, lac, cid }];
    return finish();
  }
  if (extended && (type === 0x32 || type === 0x33)) {
    // AZ735: GPS and LBS blocks each preceded by their length.
    readGps(r, b, { hasLength: true });
    if (readLbs(r, b, c, true) && r.left) b.status('signal', Math.min(r.u8(), 100));
    r.skip(r.u8()); // more cells
    r.skip(r.u8()); // WiFi
    const st = r.u8();
    b.attr('status', st);
    if (type === 0x33) {
      if (st === 0xa0) b.attr('armed', true);
      else if (st === 0xa1) b.attr('armed', false);
      else if (st === 0xa2 || st === 0xa3) b.alarm('lowBattery');
      else if (st === 0xa4) b.alarm('general');
      else if (st === 0xa5) b.alarm('door');
    }
    res.reply = gt06Ack(type, serial, true);
    return finish();
  }
  if (extended) return res; // other extended types carry nothing we store (photos, media, unknown)

  if ((type === 0x17 && variant !== 'RFID') || type === 0x69 || type === 0xf3) {
    const raw = r.bytes(6);
    const time = new Date(Date.UTC(2000 + bcd(raw[0]), bcd(raw[1]) - 1, bcd(raw[2]), bcd(raw[3]), bcd(raw[4]), bcd(raw[5])));
    if (Number.isFinite(time.getTime())) b.msg.time = time;
    const wifi: WifiAccessPoint[] = [];
    const count = type === 0xf3 ? r.u8() : buf[2];
    for (let i = 0; i < count; i++) {
      if (type === 0xf3) r.skip(2);
      const ap: WifiAccessPoint = { mac: macOf(r.bytes(6)) };
      if (type !== 0xf3) ap.rssi = -r.u8();
      wifi.push(ap);
    }
    if (wifi.length) b.msg.wifi = wifi;
    if (type !== 0xf3 && r.left >= 4) {
      const cellCount = r.u8();
      const mcc = r.u16();
      const mnc = r.u8();
      const cells: CellTower[] = [];
      for (let i = 0; i < cellCount && r.left >= 5; i++) cells.push({ mcc, mnc, lac: r.u16(), cid: r.u16(), rssi: -r.u8() });
      if (cells.length) b.msg.cells = cells;
      // These devices expect the time echoed back rather than a serial.
      res.reply = Buffer.concat([Buffer.from([0x78, 0x78, 0x00, type]), Buffer.from(raw), Buffer.from([0x0d, 0x0a])]);
    }
    return finish();
  }
  if (type === 0x34 && variant !== 'SL4X') {
    decodeX1(r, b);
    res.reply = ack();
    return finish();
  }
  if (type === 0x61) {
    r.skip(8); // IMEI
    readGps(r, b);
    readLbs(r, b, c, false);
    const hi = r.u32();
    const lo = r.u16();
    b.attr('driverUniqueId', String(hi * 65536 + lo));
    res.reply = ack();
    return finish();
  }
  if (type === 0x25) {
    decodeCardReport(r, b, c);
    res.reply = ack();
    return finish();
  }
  const multi = type === 0x18 || type === 0x28 || type === 0x2c || type === 0x2e || type === 0xa1 || type === 0x33 ||
    (type === 0x24 && variant !== 'SR411_MINI') || (type === 0xa2 && variant !== 'LW4G') || (type === 0x34 && variant === 'SL4X');
  if (multi) {
    decodeMultiLbs(r, b, c);
    res.reply = ack();
    return finish();
  }
  if (LOCATION_TYPES.has(type)) {
    res.reply = ack();
    if (type === 0x19 && variant === 'SPACE10X') return res;
    decodeLocation(r, b, c);
    // An all-zero report (no GPS, no cell) carries nothing worth storing.
    const m = b.done();
    if (m.fix || m.cells || m.alarms?.length || m.status || m.attributes) res.messages.push(m);
    return res;
  }
  // Command replies from the server side (0x80-0x82) and unknown types: acknowledge, store nothing.
  if (type !== 0x80 && type !== 0x81 && type !== 0x82) res.reply = ack();
  return res;
}
