import { describe, expect, it } from 'vitest';
import {
  Gt06Framer, WatchFramer, buildWatchFrame, createGt06State, crcItu, decodeGt06Frame, decodeOsmAnd, decodeUplink,
  decodeWatchFrame, encodeGt06Command, encodeWatchCommand, gt06Ack, gt06Device, utf16beHex, watchContent,
} from '../src/index.js';

const ascii = (b: Uint8Array | undefined) => (b ? Buffer.from(b).toString('latin1') : undefined);
const fix = { time: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), valid: true, lat: -22.5, lon: 113.9, speed: 10, course: 90 };

describe('CRC-ITU (CRC-16/X.25)', () => {
  it('matches the standard check value', () => expect(crcItu(Buffer.from('123456789'))).toBe(0x906e));
  it('matches a real login frame', () => {
    const f = Buffer.from('78780D01012345678901234500018CDD0D0A', 'hex');
    expect(crcItu(f, 2, f.length - 4)).toBe(0x8cdd);
  });
});

describe('watch framing', () => {
  it('splits, resyncs on garbage and unescapes', () => {
    const f = new WatchFramer();
    const a = buildWatchFrame('3G', '1234567890', 'LK');
    const out = f.push(Buffer.concat([Buffer.from('xx]garbage'), a, a.subarray(0, 5)]));
    expect(out.frames.map(ascii)).toEqual(['[3G*1234567890*0002*LK]']);
    expect(out.skipped).toBe(10);
    expect(f.push(a.subarray(5)).frames.map(ascii)).toEqual(['[3G*1234567890*0002*LK]']);
    const esc = Buffer.concat([Buffer.from('[3G*1*0004*TK,'), Buffer.from([0x7d, 0x03]), Buffer.from(']')]);
    expect(f.push(esc).frames[0]).toEqual(Buffer.from('[3G*1*0004*TK,]]'));
  });
  it('reports overflow and empties', () => {
    const f = new WatchFramer({ maxBuffer: 100 });
    const out = f.push(Buffer.from(`[3G*1*FFFF*${'a'.repeat(200)}`));
    expect(out.overflow).toBe(true);
    expect(f.buffered).toBe(0);
  });
});

describe('watch decoding and replies', () => {
  it('LK gives a heartbeat with steps, tumbles, battery and the LK reply', () => {
    const r = decodeWatchFrame('[3G*4700186508*000B*LK,50,10,95]');
    expect(r.messages[0]).toMatchObject({ kind: 'heartbeat', status: { steps: 50, tumbles: 10, battery: 95 } });
    expect(ascii(r.reply)).toBe('[3G*4700186508*0002*LK]');
  });
  it('keeps the index variant in replies', () => {
    expect(ascii(decodeWatchFrame('[ZJ*014111001350304*0033*0002*LK]').reply)).toBe('[ZJ*014111001350304*0033*0002*LK]');
    expect(ascii(decodeWatchFrame('[CS*1*0004*INIT]').reply)).toBe('[CS*1*0006*INIT,1]');
    expect(ascii(decodeWatchFrame('[3G*1*0004*TKQ2]').reply)).toBe('[3G*1*0004*TKQ2]');
  });
  it('round-trips a UD built from a fix, with alarms and AL reply', () => {
    const content = watchContent.al({ fix, alarms: ['sos', 'fall'], battery: 55, wifi: [{ ssid: 'home', mac: 'aa:bb:cc:dd:ee:ff', rssi: -50 }] });
    const r = decodeWatchFrame(buildWatchFrame('SG', '99', content));
    const m = r.messages[0];
    expect(m.kind).toBe('alarm');
    expect(m.alarms?.sort()).toEqual(['fall', 'sos']);
    expect(m.fix).toMatchObject({ valid: true, lat: -22.5, lon: 113.9, speed: 10, course: 90 });
    expect(m.fix?.time.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(m.wifi).toEqual([{ ssid: 'home', mac: 'aa:bb:cc:dd:ee:ff', rssi: -50 }]);
    expect(ascii(r.reply)).toBe('[SG*99*0002*AL]');
  });
  it('UD2 is buffered', () => {
    expect(decodeWatchFrame(buildWatchFrame('3G', '1', watchContent.ud2({ fix }))).messages[0].buffered).toBe(true);
  });
  it('health messages', () => {
    expect(decodeWatchFrame(buildWatchFrame('3G', '1', watchContent.heart({ heartRate: 71 }))).messages[0].health).toEqual({ heartRate: 71 });
    expect(decodeWatchFrame(buildWatchFrame('3G', '1', watchContent.bphrt({ systolic: 120, diastolic: 79, heartRate: 73 }))).messages[0].health)
      .toEqual({ systolic: 120, diastolic: 79, heartRate: 73 });
    expect(decodeWatchFrame(buildWatchFrame('3G', '1', watchContent.temp({ bodyTemp: 36.6 }))).messages[0].health).toEqual({ bodyTemp: 36.6 });
    expect(decodeWatchFrame(buildWatchFrame('3G', '1', watchContent.oxygen({ bloodOxygen: 97 }))).messages[0].health).toEqual({ bloodOxygen: 97 });
  });
  it('command replies and unknown types', () => {
    expect(decodeWatchFrame('[3G*1*0006*UPLOAD]').messages[0]).toMatchObject({ kind: 'commandResult', commandResult: { keyword: 'UPLOAD' } });
    expect(decodeWatchFrame('[3G*1*0005*WHATS]')).toEqual({ messages: [], deviceId: '1' });
    expect(decodeWatchFrame(Buffer.from([0x5b, 0x33, 0x47, 0x2a, 0x31, 0x2a, 0x30, 0x30, 0x30, 0x33, 0x2a, 0x69, 0x6d, 0x67, 0xff, 0x00, 0x5d])).messages).toEqual([]);
  });
});

describe('watch command encoder (exact bytes)', () => {
  const enc = (code: string, params: Record<string, never> | Record<string, unknown> = {}, index?: string) =>
    ascii(encodeWatchCommand('3G', '1234567890', { code, params: params as never }, index));
  it('encodes the catalogue', () => {
    expect(enc('UPLOAD', { interval: 5 })).toBe('[3G*1234567890*000A*UPLOAD,300]');
    expect(enc('SOS', { numbers: ['111', '222', ''] })).toBe('[3G*1234567890*000C*SOS,111,222,]');
    expect(enc('SOS', { slot: 2, number: '+86 138' })).toBe('[3G*1234567890*000B*SOS2,+86138]');
    expect(enc('CENTER', { number: '13800138000' })).toBe('[3G*1234567890*0012*CENTER,13800138000]');
    expect(enc('RESET')).toBe('[3G*1234567890*0005*RESET]');
    expect(enc('POWEROFF')).toBe('[3G*1234567890*0008*POWEROFF]');
    expect(enc('FIND')).toBe('[3G*1234567890*0004*FIND]');
    expect(enc('REMOVE', { enabled: true })).toBe('[3G*1234567890*0008*REMOVE,1]');
    expect(enc('LOWBAT', { enabled: false })).toBe('[3G*1234567890*0008*LOWBAT,0]');
    expect(enc('LZ', { language: 0, timezone: 8 })).toBe('[3G*1234567890*0006*LZ,0,8]');
    expect(enc('HEART_RATE', { interval: 10 })).toBe('[3G*1234567890*000C*hrtstart,600]');
    expect(enc('FALL_HEIGHT', { height: 1.5 })).toBe('[3G*1234567890*000D*FALLHEIGHT,15]');
    expect(enc('IP', { host: 'gw.example.com', port: 5093 })).toBe('[3G*1234567890*0016*IP,gw.example.com,5093]');
    expect(enc('SILENCETIME', { periods: ['8:00-12:00'] })).toBe('[3G*1234567890*0017*SILENCETIME,08:00-12:00]');
    expect(enc('SILENCETIME', { periods: [{ start: '08:00', end: '12:00' }, { start: '14:00', end: '17:30' }] }))
      .toBe('[3G*1234567890*0023*SILENCETIME,08:00-12:00,14:00-17:30]');
    expect(enc('REMIND', { reminders: [{ time: '08:10', enabled: true, kind: 1 }, { time: '9:00', enabled: false, kind: 3 }] }))
      .toBe('[3G*1234567890*001A*REMIND,08:10-1-1,09:00-0-3]');
    expect(enc('WORK_TIME', { am: { start: '08:00', end: '12:00' }, pm: { start: '14:00', end: '17:00' } }))
      .toBe('[3G*1234567890*0020*WORKTIME,08:00-12:00,14:00-17:00]');
    expect(enc('VIBRATION', { seconds: 3 })).toBe('[3G*1234567890*000B*VIBRATION,3]');
    expect(enc('REMOVE', { enabled: '0' })).toBe('[3G*1234567890*0008*REMOVE,0]');
    expect(enc('CUSTOM', { text: 'VERNO' }, '0001')).toBe('[3G*1234567890*0001*0005*VERNO]');
  });
  it('MESSAGE is UTF-16BE hex', () => {
    expect(utf16beHex('Hi你')).toBe('00480069' + '4F60');
    expect(enc('MESSAGE', { text: 'Hi' })).toBe('[3G*1234567890*0010*MESSAGE,00480069]');
  });
  it('rejects unknown codes and missing parameters', () => {
    expect(() => enc('NOPE')).toThrow();
    expect(() => enc('CENTER')).toThrow();
  });
});

describe('gt06', () => {
  it('login sets the IMEI and acks with the serial', () => {
    const s = createGt06State();
    const r = decodeGt06Frame(Buffer.from('78780D01012345678901234500018CDD0D0A', 'hex'), s);
    expect(r.deviceId).toBe('123456789012345');
    expect(s.imei).toBe('123456789012345');
    expect(Buffer.from(r.reply!).toString('hex')).toBe('787805010001d9dc0d0a');
  });
  it('ignores data before login', () => {
    expect(decodeGt06Frame(gt06Device.location(fix, 2), createGt06State()).messages).toEqual([]);
  });
  it('round-trips location, alarm and heartbeat from the device builders', () => {
    const s = createGt06State();
    decodeGt06Frame(gt06Device.login('868120000000001'), s);
    const loc = decodeGt06Frame(gt06Device.location(fix, 7, { mcc: 460, mnc: 0, lac: 10, cid: 20 }), s);
    expect(loc.messages[0]).toMatchObject({ kind: 'position', deviceId: '868120000000001', cells: [{ mcc: 460, mnc: 0, lac: 10, cid: 20 }] });
    expect(loc.messages[0].fix!.lat).toBeCloseTo(-22.5, 4);
    expect(loc.messages[0].fix!.lon).toBeCloseTo(113.9, 4);
    expect(Buffer.from(loc.reply!)).toEqual(gt06Ack(0x12, 7));
    const al = decodeGt06Frame(gt06Device.alarm(fix, 'sos', 8), s);
    expect(al.messages[0].alarms).toEqual(['sos']);
    const hb = decodeGt06Frame(gt06Device.heartbeat(9, { charging: true, batteryLevel: 3 }), s);
    expect(hb.messages[0]).toMatchObject({ kind: 'heartbeat', status: { charging: true, battery: 50 } });
  });
  it('acks carry a valid CRC', () => {
    const a = gt06Ack(0x13, 0x1234);
    expect(crcItu(a, 2, a.length - 4)).toBe(a.readUInt16BE(a.length - 4));
  });
  it('encodes 0x80 commands (exact bytes)', () => {
    const p = encodeGt06Command({ code: 'CUSTOM', params: { text: 'DYD' } }, 1);
    const crc = crcItu(p, 2, p.length - 4).toString(16).padStart(4, '0');
    expect(p.toString('hex')).toBe(`787810800800000000445944230002000 1${crc}0d0a`.replace(' ', ''));
    expect(crcItu(p, 2, p.length - 4)).toBe(p.readUInt16BE(p.length - 4));
    expect(p.subarray(9, 13).toString('ascii')).toBe('DYD#');
    expect(encodeGt06Command({ code: 'UPLOAD', params: { interval: 1 } }, 2).includes(Buffer.from('TIMER,60#'))).toBe(true);
    expect(encodeGt06Command({ code: 'SOS', params: { number: '123' } }, 2).includes(Buffer.from('SOS,A,123#'))).toBe(true);
    expect(encodeGt06Command({ code: 'IP', params: { host: 'a.com', port: 5023 } }, 2).includes(Buffer.from('SERVER,1,a.com,5023,0#'))).toBe(true);
  });
  it('decodes a command reply (0x15)', () => {
    const s = createGt06State();
    decodeGt06Frame(gt06Device.login('868120000000001'), s);
    const r = decodeGt06Frame(gt06Device.commandReply('DYD=Success!', 3), s);
    expect(r.messages[0]).toMatchObject({ kind: 'commandResult', commandResult: { keyword: 'DYD', text: 'DYD=Success!' } });
  });
  it('framer splits glued frames and resyncs', () => {
    const f = new Gt06Framer();
    const a = gt06Device.login('868120000000001');
    const b = gt06Device.heartbeat(2);
    const out = f.push(Buffer.concat([Buffer.from([1, 2, 0x78]), a, b.subarray(0, 4)]));
    expect(out.frames).toEqual([a]);
    expect(f.push(b.subarray(4)).frames).toEqual([b]);
  });
});

describe('osmand', () => {
  it('query form with knots and seconds', () => {
    const r = decodeOsmAnd({ method: 'GET', url: '/?id=1&lat=1.5&lon=2.5&timestamp=1377177267&speed=10&bearing=5&batt=50' });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.messages[0].fix).toMatchObject({ lat: 1.5, lon: 2.5, speed: 18.52, course: 5 });
      expect(r.messages[0].fix!.time.getTime()).toBe(1377177267000);
      expect(r.messages[0].status).toEqual({ battery: 50 });
    }
  });
  it('JSON form', () => {
    const body = JSON.stringify({ device_id: 'p1', location: { timestamp: '2024-01-01T00:00:00Z', coords: { latitude: 1, longitude: 2, speed: 10, heading: 3 }, battery: { level: 0.5, is_charging: true }, is_moving: true } });
    const r = decodeOsmAnd({ method: 'POST', url: '/', body });
    expect(r.ok && r.messages[0]).toMatchObject({ deviceId: 'p1', fix: { lat: 1, lon: 2, speed: 36 }, status: { battery: 50, charging: true } });
  });
  it('errors without id or location', () => {
    expect(decodeOsmAnd({ method: 'GET', url: '/?lat=1&lon=2' })).toMatchObject({ ok: false, error: 'noDeviceId' });
    expect(decodeOsmAnd({ method: 'GET', url: '/?id=1' })).toMatchObject({ ok: false, error: 'noLocation' });
  });
});

describe('uplink', () => {
  it('ChirpStack v4 event', () => {
    const r = decodeUplink({ deviceInfo: { devEui: 'A1B2' }, time: '2024-01-01T00:00:00Z', object: { latitude: 1, longitude: 2, battery: 80, heartRate: 70 }, rxInfo: [{ rssi: -90 }] });
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.messages.map((m) => m.kind)).toEqual(['position', 'health']);
      expect(r.messages[0]).toMatchObject({ deviceId: 'a1b2', fix: { lat: 1, lon: 2 }, status: { battery: 80 } });
    }
  });
  it('simple device JSON with alarm', () => {
    const r = decodeUplink('{"imei":"865000000000001","lat":1,"lon":2,"alarm":"SOS","spo2":97}');
    expect(r.ok && r.messages).toMatchObject([{ kind: 'alarm', alarms: ['sos'] }, { kind: 'health', health: { bloodOxygen: 97 } }]);
  });
  it('BLE and UWB reports', () => {
    const ble = decodeUplink({ gatewayId: 'g1', tags: [{ id: 't1', rssi: -70, uuid: 'u', major: 1, minor: 2 }] });
    expect(ble.ok && ble.messages[0]).toMatchObject({ kind: 'beacon', beacon: { kind: 'ble', gatewayId: 'g1', beacons: [{ rssi: -70, major: 1, minor: 2 }] } });
    const uwb = decodeUplink({ tagId: 't2', x: 1.5, y: 2, z: 0 });
    expect(uwb.ok && uwb.messages[0]).toMatchObject({ kind: 'beacon', beacon: { kind: 'uwb', x: 1.5, y: 2, z: 0 } });
  });
  it('UWB quality, AOA angles and the beacons a wearable heard', () => {
    const uwb = decodeUplink({ tagId: 't2', gatewayId: 'AC:23:3F:00:00:01', x: 1.5, y: 2, quality: 87 });
    expect(uwb.ok && uwb.messages[0]).toMatchObject({ beacon: { kind: 'uwb', quality: 87, gatewayId: 'AC:23:3F:00:00:01' } });
    const aoa = decodeUplink({ tagId: 't3', angles: [{ locator: 'L1', azimuth: -12.5, elevation: 30 }, { locator: 'L2', azimuth: 400 }, { locator: 'L3', azimuth: 8 }] });
    // An azimuth beyond a full turn is dropped; the other locators stay.
    expect(aoa.ok && aoa.messages[0]).toEqual(expect.objectContaining({ deviceId: 't3', kind: 'beacon', beacon: { kind: 'aoa', angles: [{ locator: 'L1', azimuth: -12.5, elevation: 30 }, { locator: 'L3', azimuth: 8 }] } }));
    const worn = decodeUplink({ imei: '865000000000001', battery: 60, beacons: [{ mac: 'AC:23:3F:00:00:02', rssi: -71 }, { uuid: 'fda50693-a4e2-4fb1-afcf-c6eb07647825', major: 1, minor: 7, rssi: -80 }, { mac: 'x', rssi: 90 }] });
    expect(worn.ok && worn.messages.map((m) => m.kind)).toEqual(['heartbeat', 'beacon']);
    expect(worn.ok && worn.messages[1]!.beacon).toEqual({ kind: 'ble', beacons: [{ mac: 'AC:23:3F:00:00:02', rssi: -71 }, { uuid: 'fda50693-a4e2-4fb1-afcf-c6eb07647825', major: 1, minor: 7, rssi: -80 }] });
  });
  it('PHO and IR beside UV, each kept only within its range', () => {
    const r = decodeUplink({ imei: '865000000000001', uv: 4, pho: '57.5', ir: 100 });
    expect(r.ok && r.messages).toEqual([expect.objectContaining({ kind: 'health', health: { uv: 4, pho: 57.5, ir: 100 } })]);
    const out = decodeUplink({ deviceInfo: { devEui: 'A1B2' }, object: { heartRate: 70, uv: 50.5, pho: -0.1, ir: 101 } });
    expect(out.ok && out.messages).toEqual([expect.objectContaining({ kind: 'health', health: { heartRate: 70 } })]);
  });
  it('bad shapes are error values', () => {
    expect(decodeUplink('{')).toEqual({ ok: false, error: 'invalidJson' });
    expect(decodeUplink({ gatewayId: 'g', tags: [{ rssi: 'x' }] })).toMatchObject({ ok: false, error: 'invalidShape' });
    expect(decodeUplink([1])).toMatchObject({ ok: false });
  });
});
