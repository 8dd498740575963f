// Replays the Traccar conformance corpus (../shared/conformance/traccar-frames.json) through our
// decoders. Expectations are Traccar's; where we deliberately differ, DIFFERENCES says why.
// Without the corpus the test says what it did not test (and fails in CI): ./corpus.ts.
import { describe, expect, it } from 'vitest';
import { createGt06State, decodeGt06Frame, decodeOsmAnd, decodeWatchFrame, gt06Device } from '../src/index.js';
import type { DeviceMessage } from '../src/index.js';
import { corpusMissing, corpusPath, readCorpus } from './corpus.js';

interface Entry {
  protocol: 'watch' | 'gt06' | 'osmand';
  encoding: 'ascii' | 'hex' | 'http';
  expect: 'position' | 'positions' | 'attribute' | 'attributes' | 'null' | 'notNull';
  frame?: string;
  method?: string;
  url?: string;
  body?: string;
  key?: string;
  value?: unknown;
  position?: { time: string; valid: boolean; lat: number; lon: number };
}

/**
 * Entries (by index) where our decoder deliberately or knowingly differs from Traccar's
 * expectation. Each has a reason; the test asserts that the listed ones do differ, so a fix shows
 * up as a failing "stale exception" and the list stays honest.
 */
export const DIFFERENCES: Record<number, string> = {
  43: 'heart,0: a zero heart rate is a failed measurement on these watches; we store no reading',
  69: 'GT06 0x32 (SL4X): the cell block is 10 bytes as its length byte says (MNC 2, CID 4); Traccar reads a ' +
    '14-byte cell, lands 5 bytes late and takes its expected altitude -31703 from the CRC. We read the ' +
    "frame's altitude field: 687 m (the same device reports 678 m in #70)",
};

/**
 * Device models Traccar's test configures before these frames (`setModelOverride`). A server knows
 * the model of each device from its configuration; a few vendors reuse a message type with their
 * own layout, and only the model tells them apart.
 */
const MODELS: Record<number, string> = {
  218: 'LW4G-4B', 219: 'LW4G-4B', 220: 'SEEWORLD', 221: 'R11', 222: 'NT20', 223: 'NT20', 224: 'NT20',
  226: 'G18', 227: 'QH302R',
};

/** Expected values the corpus lost in conversion, restored from Traccar's test. */
const EXPECTED_VALUES: Record<number, unknown> = {
  60: 'EVENT_862798052429087_00000000_2024_11_12_22_20_06_I_56.mp4,EVENT_862798052429087_00000000_2024_11_12_22_20_06_F_55.mp4',
};

function content(m: DeviceMessage): boolean {
  return !!(
    m.fix || m.cells?.length || m.wifi?.length || m.alarms?.length || m.commandResult || m.beacon ||
    (m.health && Object.keys(m.health).length) || (m.status && Object.keys(m.status).length) ||
    (m.attributes && Object.keys(m.attributes).length)
  );
}

const ALARM_MAP: Record<string, string> = {
  sos: 'sos', removing: 'removal', fallDown: 'fall', lowBattery: 'lowBattery', tampering: 'tamper',
  powerCut: 'powerCut', vibration: 'vibration', overspeed: 'overspeed', geofenceEnter: 'fenceIn', geofenceExit: 'fenceOut',
  'Position.ALARM_ACCELERATION': 'acceleration', 'Position.ALARM_BRAKING': 'braking', accident: 'accident', general: 'general',
};

/** Looks up a Traccar attribute in our message, in our own field names. */
function attribute(ms: DeviceMessage[], key: string, value: unknown): boolean {
  // Traccar writes some expected numbers as hex literals ("0x1c").
  const num = (v: unknown) => (typeof v === 'string' && /^0x[0-9a-f]+$/i.test(v) ? parseInt(v, 16) : v);
  const close = (a: unknown, b: unknown) => {
    const x = num(a), y = num(b);
    return typeof x === 'number' && typeof y === 'number' ? Math.abs(x - y) < 0.01 : String(x) === String(y);
  };
  return ms.some((m) => {
    switch (key) {
      case 'alarm': {
        const ours = ALARM_MAP[String(value)] ?? String(value);
        return !!m.alarms?.includes(ours as never) || m.attributes?.alarm === ours;
      }
      // Body temperature on personal trackers, device/sensor temperature on vehicle trackers.
      case 'temp1': return close(m.health?.bodyTemp ?? m.attributes?.temperature, value);
      case 'Position.KEY_HUMIDITY': return close(m.attributes?.humidity, value);
      case 'Position.KEY_DRIVING_TIME': return close(m.attributes?.drivingTime, value);
      // Traccar's hours are milliseconds of engine time.
      case 'Position.KEY_HOURS': return close(Number(m.attributes?.engineSeconds) * 1000, value);
      case 'bloodOxygen': return close(m.health?.bloodOxygen, value);
      case 'heartRate': return close(m.health?.heartRate, value);
      case 'batteryLevel': return close(m.status?.battery, value);
      case 'steps': return close(m.status?.steps ?? m.health?.steps, value);
      case 'power': return value === 'null' ? m.status?.power === undefined : close(m.status?.power, value);
      case 'battery': return close(m.attributes?.batteryVoltage, value);
      case 'ignition': return m.status?.ignition === value;
      case 'result': return m.commandResult?.text === value;
      case 'iccid': return m.attributes?.iccid === value;
      case 'altitude': return close(m.fix?.altitude, value);
      case 'Position.KEY_DOOR': return m.attributes?.door === value;
      case 'event': return close(m.attributes?.event, parseInt(String(value), 16));
      default: return m.attributes !== undefined && close(m.attributes[key], value);
    }
  });
}

function decode(e: Entry, i: number): DeviceMessage[] {
  if (e.protocol === 'watch') {
    const bytes = e.encoding === 'hex' ? Buffer.from(e.frame!, 'hex') : Buffer.from(e.frame!, 'latin1');
    return decodeWatchFrame(bytes).messages;
  }
  if (e.protocol === 'gt06') {
    const state = createGt06State(MODELS[i]);
    decodeGt06Frame(gt06Device.login('123456789012345'), state);
    return decodeGt06Frame(Buffer.from(e.frame!, 'hex'), state).messages;
  }
  const r = decodeOsmAnd({ method: e.method!, url: e.url!, body: e.body });
  return r.ok ? r.messages : [];
}

function check(e: Entry, ms: DeviceMessage[]): string | null {
  const stored = ms.filter(content);
  switch (e.expect) {
    case 'null':
      return stored.length === 0 ? null : `expected nothing stored, got ${stored.map((m) => m.kind).join(',')}`;
    case 'notNull':
    case 'attributes':
      return stored.length > 0 ? null : 'expected a message with content';
    case 'position':
    case 'positions': {
      const located = ms.filter((m) => m.fix || m.cells?.length || m.wifi?.length);
      if (!located.length) return 'expected a location';
      if (e.position) {
        const f = located[0].fix;
        if (!f) return 'expected a fix';
        const t = new Date(e.position.time.replace(' ', 'T'));
        if (f.time.getTime() !== t.getTime()) return `time ${f.time.toISOString()} != ${t.toISOString()}`;
        if (f.valid !== e.position.valid) return `valid ${f.valid}`;
        if (Math.abs(f.lat - e.position.lat) > 1e-4 || Math.abs(f.lon - e.position.lon) > 1e-4) return `at ${f.lat},${f.lon}`;
      }
      return null;
    }
    case 'attribute':
      return attribute(ms, e.key!, e.value) ? null : `missing ${e.key}=${String(e.value)}`;
  }
}

const entries = readCorpus<Entry>();

describe.skipIf(!entries)(`Traccar conformance corpus (${corpusPath})`, () => {
  if (!entries) return;
  it('holds 247 entries', () => expect(entries.length).toBe(247));
  entries.forEach((e, i) => {
    const label = `#${i} ${e.protocol} ${e.expect}${e.key ? ` ${e.key}=${String(e.value)}` : ''}`;
    it(label, () => {
      const ms = decode(e, i);
      const problem = check(i in EXPECTED_VALUES ? { ...e, value: EXPECTED_VALUES[i] } : e, ms);
      if (DIFFERENCES[i]) expect(problem, `listed difference no longer differs: ${DIFFERENCES[i]}`).not.toBeNull();
      else expect(problem, JSON.stringify(ms)).toBeNull();
    });
  });
});

if (!entries) {
  describe('Traccar conformance corpus', () => {
    corpusMissing('the 247 Traccar frames through our watch, GT06 and OsmAnd decoders');
  });
}
