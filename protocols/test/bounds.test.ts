// Every decoder bounds what devices say: an impossible value costs its field, never the message,
// and nothing that leaves a decoder can be refused by a column (real, smallint, int, timestamptz,
// text or jsonb: NUL, lone surrogates, NaN, Infinity, years no database takes).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEVICE_LIMITS,
  boundMessage,
  buildGt06Packet,
  buildWatchFrame,
  createGt06State,
  decodeGt06Frame,
  decodeOsmAnd,
  decodeUplink,
  decodeWatchFrame,
  gt06Device,
  watchContent,
  type DeviceMessage,
} from '../src/index.js';

const fix = {
  time: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
  valid: true,
  lat: 22.5,
  lon: 113.9,
  speed: 10,
  course: 90,
};
const osmand = (qs: string) => decodeOsmAnd({ method: 'GET', url: `/?${qs}` });
const one = (r: { messages: DeviceMessage[] }) => {
  expect(r.messages).toHaveLength(1);
  return r.messages[0]!;
};

/** Every number of a bounded message is finite, every text storable, every time believable. */
function expectStorable(m: DeviceMessage, now: number): void {
  const json = JSON.stringify(m, (_k, v: unknown) => {
    if (typeof v === 'number') expect(Number.isFinite(v), `number ${v}`).toBe(true);
    return v;
  });
  expect(json).not.toMatch(/\\u0000|\\ud[89a-f][0-9a-f]{2}/i);
  for (const t of [m.time, m.fix?.time]) {
    if (t === undefined) continue;
    expect(t.getTime()).toBeGreaterThanOrEqual(DEVICE_LIMITS.timeMin);
    expect(t.getTime()).toBeLessThanOrEqual(now + DEVICE_LIMITS.futureMs);
  }
  const s = m.status ?? {};
  if (s.battery !== undefined) expect(s.battery >= 0 && s.battery <= 100, `battery ${s.battery}`).toBe(true);
  if (s.steps !== undefined) expect(Number.isInteger(s.steps) && s.steps <= 2 ** 31 - 1).toBe(true);
  if (m.health?.steps !== undefined)
    expect(Number.isInteger(m.health.steps) && m.health.steps <= 2 ** 31 - 1).toBe(true);
  if (m.fix?.satellites !== undefined) expect(m.fix.satellites).toBeLessThanOrEqual(255);
  for (const v of [
    m.fix?.speed,
    m.fix?.altitude,
    m.fix?.accuracy,
    m.fix?.course,
    ...Object.values(m.health ?? {}),
  ]) {
    if (typeof v === 'number') expect(Math.abs(v)).toBeLessThan(3.4e38);
  }
}

describe('watch values out of range', () => {
  it('LK with a battery of 70000 keeps the message and its steps, without the battery', () => {
    const m = one(decodeWatchFrame('[3G*4700186508*000E*LK,100,0,70000]'));
    expect(m.kind).toBe('heartbeat');
    expect(m.status).toEqual({ steps: 100, tumbles: 0 });
    expect(m.health).toEqual({ steps: 100 });
  });
  it('LK with steps above 2^31 keeps the battery, without the steps', () => {
    const r = decodeWatchFrame(buildWatchFrame('3G', '4700186508', `LK,${2 ** 31 + 7},0,80`));
    const m = one(r);
    expect(m.status).toEqual({ tumbles: 0, battery: 80 });
    expect(m.health).toBeUndefined();
    expect(r.reply).toBeDefined();
  });
  it('a NUL in the keyword or an SSID is taken out; the position stays', () => {
    const body = watchContent
      .ud({ fix, wifi: [{ ssid: 'ho\u0000me', mac: 'aa:bb:cc:dd:ee:ff', rssi: -50 }] })
      .slice(3);
    const m = one(decodeWatchFrame(buildWatchFrame('3G', '4700186508', `UD\u0000,${body}`)));
    expect(m.type).toBe('UD');
    expect(m.fix).toMatchObject({ lat: 22.5, lon: 113.9 });
    expect(m.wifi).toEqual([{ ssid: 'home', mac: 'aa:bb:cc:dd:ee:ff', rssi: -50 }]);
  });
  it('a fix dated in 2099 is kept at the receive time, with the device time noted', () => {
    const now = Date.now();
    const m = one(
      decodeWatchFrame(
        buildWatchFrame(
          '3G',
          '4700186508',
          watchContent.ud({ fix: { ...fix, time: new Date(Date.UTC(2099, 0, 1)) } }),
        ),
      ),
    );
    expect(m.time).toBeUndefined();
    expect(Math.abs(m.fix!.time.getTime() - now)).toBeLessThan(5000);
    expect(m.attributes).toMatchObject({ deviceTime: '2099-01-01T00:00:00.000Z' });
  });
  it('a heart rate of 900 is no reading; the watch was still heard from', () => {
    const m = one(decodeWatchFrame(buildWatchFrame('3G', '1', watchContent.heart({ heartRate: 900 }))));
    expect(m.health).toBeUndefined();
  });
  it('a command reply loses its NUL characters and is cut to size', () => {
    const m = one(decodeWatchFrame(buildWatchFrame('3G', '1', `VERNO,G29\u0000_V1.0${'x'.repeat(5000)}`)));
    expect(m.commandResult!.text!.startsWith('G29_V1.0')).toBe(true);
    expect(m.commandResult!.text!.length).toBe(DEVICE_LIMITS.reply);
  });
});

describe('GT06 values out of range', () => {
  const login = () => {
    const s = createGt06State();
    decodeGt06Frame(gt06Device.login('865000000000029', 1), s);
    return s;
  };
  it('a battery percentage of 250 is dropped, the temperature kept', () => {
    // 0x13 extended status: info, voltage, gsm, alarm, language, battery %, ..., temperature (0x8000 | 366).
    const content = Buffer.from([0x01, 0x06, 0x04, 0x00, 0x02, 250, 0, 0, 0, 0, 0, 0, 0, 0, 0x81, 0x6e]);
    const m = one(decodeGt06Frame(buildGt06Packet(0x13, content, 5), login()));
    expect(m.status?.battery).toBeUndefined();
    expect(m.health).toEqual({ bodyTemp: 36.6 });
  });
  it('a fix dated 2255 (year byte 255) is kept at the receive time', () => {
    const frame = gt06Device.location(fix, 6);
    frame[4] = 255; // the year byte of the GPS block
    const m = one(decodeGt06Frame(frame, login()));
    expect(m.fix!.time.getUTCFullYear()).toBe(new Date().getUTCFullYear());
    expect(m.attributes?.deviceTime).toMatch(/^2255-/);
  });
});

describe('OsmAnd values out of range', () => {
  it('batt=70000 keeps the position without a battery', () => {
    const r = osmand('id=865000000000003&lat=22.5&lon=114&batt=70000');
    expect(r.ok).toBe(true);
    const m = r.ok ? one(r) : undefined;
    expect(m!.fix).toMatchObject({ lat: 22.5, lon: 114 });
    expect(m!.status).toEqual({});
  });
  it('speeds and altitudes no real column holds are dropped', () => {
    const r = osmand('id=1&lat=22.5&lon=114&speed=1e39&altitude=-1e300&accuracy=Infinity&bearing=NaN');
    const m = r.ok ? one(r) : undefined;
    expect(m!.fix).toEqual({ time: m!.fix!.time, valid: true, lat: 22.5, lon: 114 });
  });
  it('a timestamp in the year 5000 or before 2000 is replaced by the receive time', () => {
    for (const ts of [String(Date.UTC(5000, 0, 1)), '0', '8640000000000000', '-62198755200']) {
      const r = osmand(`id=1&lat=22.5&lon=114&timestamp=${ts}`);
      const m = r.ok ? one(r) : undefined;
      expect(m!.time, ts).toBeUndefined();
      expect(Math.abs(m!.fix!.time.getTime() - Date.now()), ts).toBeLessThan(5000);
    }
  });
  it('NUL characters leave the attributes; an identity with one is no identity', () => {
    const r = osmand('id=1&lat=22.5&lon=114&note=a%00b&k%00ey=1');
    expect(r.ok && one(r).attributes).toEqual({ note: 'ab', key: 1 });
    const bad = osmand('id=86500%000000003&lat=22.5&lon=114');
    expect(bad).toMatchObject({ ok: false, error: 'noDeviceId' });
    const long = osmand(`id=${'9'.repeat(65)}&lat=22.5&lon=114`);
    expect(long).toMatchObject({ ok: false, error: 'noDeviceId' });
  });
  it('a lone surrogate in the JSON form becomes a replacement character', () => {
    const body =
      '{"device_id":"1","location":{"timestamp":"2026-01-05T09:00:00Z","event":"mo\\ud800ve","coords":{"latitude":22.5,"longitude":114},"battery":{"level":700}}}';
    const r = decodeOsmAnd({ method: 'POST', url: '/', body });
    const m = r.ok ? one(r) : undefined;
    expect(m!.attributes).toEqual({ event: 'mo\uFFFDve' });
    expect(m!.status?.battery).toBeUndefined();
  });
});

describe('JSON uplink values out of range', () => {
  it('keeps the reading and drops the impossible measures', () => {
    const r = decodeUplink({
      imei: '865000000000004',
      lat: 22.5,
      lon: 114,
      heartRate: 70000,
      steps: 3e9,
      systolic: 120,
      battery: -5,
      bodyTemp: 1e39,
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.messages.map((m) => m.kind)).toEqual(['position', 'health']);
    expect(r.messages[0]!.status).toEqual({});
    expect(r.messages[1]!.health).toEqual({ systolic: 120 });
  });
  it('refuses an identity with a NUL, and drops BLE tags that carry none', () => {
    expect(decodeUplink({ imei: 'abc\u0000', lat: 1, lon: 2 })).toMatchObject({
      ok: false,
      error: 'invalidShape',
    });
    const r = decodeUplink({
      gatewayId: 'gw\u00001',
      tags: [
        { id: 'tag\u0000', rssi: -60 },
        { id: 'tag2', rssi: -60, major: 70000, minor: 3 },
        { id: 'tag3', rssi: 1e9 },
      ],
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.messages.map((m) => m.deviceId)).toEqual(['tag2', 'tag3']);
    expect(r.messages[0]!.beacon).toEqual({
      kind: 'ble',
      gatewayId: 'gw1',
      beacons: [{ rssi: -60, minor: 3 }],
    });
    expect(r.messages[1]!.beacon).toEqual({ kind: 'ble', gatewayId: 'gw1' });
  });
});

describe('boundMessage on anything', () => {
  const anyNumber = fc.oneof(
    fc.double(),
    fc.integer(),
    fc.constantFrom(70000, 2 ** 31, 2 ** 63, 1e39, -1e39, 1e-50, NaN, Infinity),
  );
  const anyText = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('\u0000', 'a\ud800b', '\udc00', 'x'.repeat(10_000)),
  );
  const anyDate = fc.oneof(
    fc.date({ noInvalidDate: false }),
    fc.constantFrom(new Date(8.64e15), new Date(-8.64e15), new Date(NaN), new Date(0)),
  );
  const message = fc.record(
    {
      deviceId: fc.oneof(fc.constant('865000000000001'), anyText),
      protocol: fc.constant('uplink' as const),
      kind: fc.constant('position' as const),
      type: anyText,
      time: anyDate,
      fix: fc.record({
        time: anyDate,
        valid: fc.boolean(),
        lat: anyNumber,
        lon: anyNumber,
        speed: anyNumber,
        course: anyNumber,
        altitude: anyNumber,
        satellites: anyNumber,
        accuracy: anyNumber,
      }),
      cells: fc.array(
        fc.record({ mcc: anyNumber, mnc: anyNumber, lac: anyNumber, cid: anyNumber, rssi: anyNumber }),
        { maxLength: 80 },
      ),
      wifi: fc.array(
        fc.record({
          mac: fc.oneof(fc.constant('AA-BB-CC-DD-EE-FF'), anyText),
          rssi: anyNumber,
          ssid: anyText,
        }),
        { maxLength: 80 },
      ),
      status: fc.record({
        battery: anyNumber,
        power: anyNumber,
        signal: anyNumber,
        steps: anyNumber,
        tumbles: anyNumber,
      }),
      health: fc.record({
        heartRate: anyNumber,
        systolic: anyNumber,
        diastolic: anyNumber,
        bodyTemp: anyNumber,
        wristTemp: anyNumber,
        bloodOxygen: anyNumber,
        hrv: anyNumber,
        steps: anyNumber,
        distance: anyNumber,
        calories: anyNumber,
        uv: anyNumber,
        pho: anyNumber,
        ir: anyNumber,
      }),
      commandResult: fc.record({ keyword: anyText, text: anyText, serverFlag: anyNumber }),
      attributes: fc.dictionary(anyText, fc.oneof(anyText, anyNumber, fc.boolean())),
    },
    { requiredKeys: ['deviceId', 'protocol', 'kind', 'type'] },
  );
  it('leaves only storable, believable values (or drops a message without identity)', () => {
    fc.assert(
      fc.property(message, (raw) => {
        const m = raw as unknown as DeviceMessage;
        const now = Date.now();
        if (!boundMessage(m, now)) return;
        expectStorable(m, now);
        expect((m.cells ?? []).length).toBeLessThanOrEqual(DEVICE_LIMITS.cells);
        expect(Object.keys(m.attributes ?? {}).length).toBeLessThanOrEqual(DEVICE_LIMITS.attributes);
      }),
      { numRuns: 300 },
    );
  });
});
