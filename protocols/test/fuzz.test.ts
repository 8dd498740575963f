// Property tests: no input may throw out of a framer or decoder, and framers stay under their cap.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corpusMissing, readCorpus } from './corpus.js';
import {
  Gt06Framer, WatchFramer, buildWatchFrame, createGt06State, decodeGt06Frame, decodeOsmAnd, decodeUplink,
  decodeWatchFrame, gt06Device, watchContent,
} from '../src/index.js';

const fix = { time: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)), valid: true, lat: 22.5, lon: 113.9, speed: 10, course: 90 };
const validWatch = [
  buildWatchFrame('3G', '1234567890', watchContent.ud({ fix, battery: 80, cells: [{ mcc: 460, mnc: 0, lac: 1, cid: 2, rssi: -60 }] })),
  buildWatchFrame('SG', '1234567890', 'LK,10,0,90'),
  buildWatchFrame('ZJ', '123456789012345', 'bphrt,120,80,70', '0001'),
];
const validGt06 = [gt06Device.login('123456789012345', 1), gt06Device.location(fix, 2), gt06Device.alarm(fix, 'sos', 3), gt06Device.heartbeat(4)];

// Real frames of every GT06 layout we decode (the conformance corpus), when it is on this machine;
// without it the test says what it did not test (and fails in CI): ./corpus.ts.
const corpus = readCorpus<{ protocol: string; frame?: string }>();
const corpusGt06: Buffer[] = (corpus ?? []).filter((e) => e.protocol === 'gt06' && e.frame).map((e) => Buffer.from(e.frame!, 'hex'));

const mutate = (frames: Buffer[]) =>
  fc.tuple(fc.constantFrom(...frames), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 8 }), fc.nat())
    .map(([f, edits, cut]) => {
      const b = Buffer.from(f);
      for (const [i, v] of edits) b[i % b.length] = v;
      return b.subarray(0, cut % (b.length + 1) || b.length);
    });

describe('watch', () => {
  it('decoder never throws on random or mutated bytes', () => {
    fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)), mutate(validWatch)), (b) => {
      const r = decodeWatchFrame(b);
      expect(Array.isArray(r.messages)).toBe(true);
    }), { numRuns: 2000 });
  });
  it('framer never throws and stays under its cap', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)), mutate(validWatch)), { maxLength: 20 }), (chunks) => {
      const f = new WatchFramer({ maxBuffer: 512 });
      for (const c of chunks) {
        const out = f.push(c);
        for (const fr of out.frames) decodeWatchFrame(fr);
        expect(f.buffered).toBeLessThanOrEqual(512);
      }
    }), { numRuns: 1000 });
  });
});

describe('gt06', () => {
  it('decoder never throws on random or mutated bytes', () => {
    fc.assert(fc.property(fc.oneof(fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)), mutate(validGt06)), (b) => {
      const s = createGt06State();
      decodeGt06Frame(validGt06[0], s);
      expect(Array.isArray(decodeGt06Frame(b, s).messages)).toBe(true);
    }), { numRuns: 2000 });
  });
  it('framer never throws and stays under its cap', () => {
    fc.assert(fc.property(fc.array(fc.oneof(fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)), mutate(validGt06)), { maxLength: 20 }), (chunks) => {
      const f = new Gt06Framer({ maxBuffer: 512 });
      const s = createGt06State();
      for (const c of chunks) {
        for (const fr of f.push(c).frames) decodeGt06Frame(fr, s);
        expect(f.buffered).toBeLessThanOrEqual(512);
      }
    }), { numRuns: 1000 });
  });
});

describe.skipIf(!corpus)('gt06 real layouts, mutated and truncated', () => {
  it('decoder never throws, whatever the model', () => {
    fc.assert(fc.property(mutate(corpusGt06), fc.constantFrom(undefined, 'LW4G-4B', 'SEEWORLD', 'R11', 'NT20', 'G18', 'QH302R'), (b, model) => {
      const s = createGt06State(model);
      decodeGt06Frame(validGt06[0], s);
      expect(Array.isArray(decodeGt06Frame(b, s).messages)).toBe(true);
    }), { numRuns: 5000 });
  });
  it('every real frame cut short gives no exception', () => {
    for (const f of corpusGt06) {
      for (let n = 0; n <= f.length; n++) {
        const s = createGt06State();
        decodeGt06Frame(validGt06[0], s);
        expect(() => decodeGt06Frame(f.subarray(0, n), s)).not.toThrow();
      }
    }
  });
  it('framer gets every real frame out of a glued stream', () => {
    const f = new Gt06Framer();
    const frames = f.push(Buffer.concat(corpusGt06.filter((x) => x[x.length - 2] === 0x0d && x[x.length - 1] === 0x0a))).frames;
    expect(frames.length).toBeGreaterThan(corpusGt06.length * 0.9);
  });
});

if (!corpus) {
  describe('gt06 real layouts, mutated and truncated', () => {
    corpusMissing('the GT06 decoder and framer on real frames of every layout, mutated and cut short');
  });
}

describe('osmand and uplink', () => {
  it('osmand never throws', () => {
    fc.assert(fc.property(fc.string(), fc.option(fc.string()), (url, body) => {
      const r = decodeOsmAnd({ method: 'POST', url: `/?${url}`, body: body ?? undefined });
      expect(typeof r.ok).toBe('boolean');
    }), { numRuns: 2000 });
  });
  it('uplink never throws on any JSON value or text', () => {
    fc.assert(fc.property(fc.oneof(fc.jsonValue(), fc.string()), (v) => {
      expect(typeof decodeUplink(v).ok).toBe('boolean');
    }), { numRuns: 2000 });
  });
});
