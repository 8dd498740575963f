// The indoor positioning engine as a pure library: the radio model, the range and bearing solvers,
// RSSI smoothing, nearest-beacon and floor hysteresis, calibration, plan/earth conversions, anchor
// keys, and the engine's scan / gateway / UWB / AOA paths including bad input. Synthetic data comes
// from a seeded random source, so every run sees the same numbers.
import { describe, expect, it } from 'vitest';
import { Rng } from '@wt/simulator';
import {
  anchorKey,
  chooseFloor,
  chooseNearest,
  DEFAULT_SMOOTHING,
  distanceFromRssi,
  fitRadioModel,
  geoToPlan,
  IndoorEngine,
  intersectBearings,
  metresToPixels,
  newFloorState,
  normalizeAnchorKey,
  pixelsToMetres,
  planToGeo,
  rangeFromElevation,
  rssiAtDistance,
  samplesFromAnchorPairs,
  samplesFromWalk,
  scaleFromPoints,
  smoothRssi,
  trilaterate,
  uwbAccuracy,
  type IndoorFix,
  type Range,
  type SceneModel,
  type SmoothedRssi,
} from '../src/indoor/index.js';

const T0 = Date.UTC(2026, 2, 2, 1, 0, 0);
const mac = (i: number) => `AC:23:3F:A0:00:${i.toString(16).toUpperCase().padStart(2, '0')}`;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A 24 x 16 m floor with anchors every 8 m at 2.5 m, RSSI@1m -59, n 2 (and a second floor above with the same grid). */
function gridScene(method: 'triangular' | 'nearest' = 'triangular'): SceneModel {
  const anchors: SceneModel['anchors'] = [];
  let i = 0;
  for (const floorId of ['F1', 'F2']) {
    for (const y of [0, 8, 16]) for (const x of [0, 8, 16, 24]) anchors.push({ key: mac(++i), floorId, x, y, height: 2.5, rssi1m: -59, kind: 'ble' });
  }
  return {
    sceneId: 'S',
    method,
    floors: [
      { floorId: 'F1', level: 1, exponent: 2, geo: { originLat: 22.54, originLon: 114.06, rotation: 0, metresPerPixel: 0.04 } },
      { floorId: 'F2', level: 2, exponent: 2 },
    ],
    anchors,
    locators: [
      { key: 'AC:23:3F:C0:00:01', floorId: 'F1', x: 0, y: 0, height: 3, heading: 45 },
      { key: 'AC:23:3F:C0:00:02', floorId: 'F1', x: 24, y: 0, height: 3, heading: 135 },
    ],
  };
}

/** What a tag at (x, y, 1.2 m) on `floorId` hears from the grid: model RSSI + shadowing, 15 dB per floor. */
function hear(scene: SceneModel, floorId: string, x: number, y: number, rng: Rng | null, sigma = 4) {
  return scene.anchors.map((a) => {
    const d = Math.hypot(a.x - x, a.y - y, (a.height ?? 2.5) - 1.2);
    const loss = a.floorId === floorId ? 0 : 15;
    return { anchor: a.key, rssi: rssiAtDistance(d, -59, 2) - loss + (rng ? rng.normal(0, sigma) : 0) };
  });
}

describe('radio model', () => {
  it('turns RSSI into distance and back', () => {
    expect(distanceFromRssi(-59, -59, 2)).toBeCloseTo(1, 9);
    expect(distanceFromRssi(-79, -59, 2)).toBeCloseTo(10, 9);
    expect(distanceFromRssi(-89, -59, 3)).toBeCloseTo(10, 9);
    for (const d of [0.5, 1, 3.3, 12, 40]) expect(distanceFromRssi(rssiAtDistance(d, -61, 2.3), -61, 2.3)).toBeCloseTo(d, 9);
    // Bounded: no zero or astronomic distances.
    expect(distanceFromRssi(0, -59, 2)).toBeGreaterThanOrEqual(0.1);
    expect(distanceFromRssi(-200, -59, 1)).toBeLessThanOrEqual(200);
  });
});

describe('trilateration', () => {
  const anchors = [
    { x: 0, y: 0 },
    { x: 10, y: 0 },
    { x: 10, y: 8 },
    { x: 0, y: 8 },
    { x: 5, y: -3 },
  ];
  const exact = (p: { x: number; y: number }, n: number, dz = 1.3): Range[] =>
    anchors.slice(0, n).map((a) => ({ x: a.x, y: a.y, dz, d: Math.hypot(a.x - p.x, a.y - p.y, dz), sd: 0.5 }));

  it('solves exact ranges to within a centimetre (3, 4 and 5 anchors, heights included)', () => {
    for (const p of [{ x: 3, y: 2 }, { x: 7.5, y: 6.1 }, { x: 5, y: 4 }, { x: 0.4, y: 7.2 }]) {
      for (const n of [3, 4, 5]) {
        const f = trilaterate(exact(p, n))!;
        expect(Math.hypot(f.x - p.x, f.y - p.y), `${n} anchors at ${p.x},${p.y}`).toBeLessThan(0.01);
        expect(f.residual).toBeLessThan(0.01);
      }
    }
  });

  it('keeps the error of noisy ranges near the noise, and reports a larger accuracy for worse data', () => {
    const rng = new Rng(11);
    const errs: number[] = [];
    const acc: number[] = [];
    for (let k = 0; k < 300; k++) {
      const p = { x: rng.range(1, 9), y: rng.range(1, 7) };
      const r = exact(p, 5).map((q) => ({ ...q, d: q.d * (1 + rng.normal(0, 0.1)), relSd: 0.1 }));
      const f = trilaterate(r)!;
      errs.push(Math.hypot(f.x - p.x, f.y - p.y));
      acc.push(f.accuracy);
    }
    expect(median(errs)).toBeLessThan(0.6);
    expect(median(acc)).toBeGreaterThan(0.1);
    const noisier = trilaterate(exact({ x: 5, y: 4 }, 5).map((q, i) => ({ ...q, d: q.d * (i % 2 ? 1.5 : 0.6) })))!;
    expect(noisier.accuracy).toBeGreaterThan(trilaterate(exact({ x: 5, y: 4 }, 5))!.accuracy);
  });

  it('handles one and two anchors', () => {
    const one = trilaterate([{ x: 4, y: 4, dz: 0, d: 3, sd: 1 }])!;
    expect([one.x, one.y, one.accuracy]).toEqual([4, 4, 3]);
    const two = trilaterate([{ x: 0, y: 0, dz: 0, d: 2, sd: 1 }, { x: 8, y: 0, dz: 0, d: 6, sd: 1 }])!;
    expect(two.x).toBeCloseTo(2, 9);
    expect(two.y).toBeCloseTo(0, 9);
    expect(two.accuracy).toBeGreaterThanOrEqual(2);
    expect(trilaterate([])).toBeNull();
  });
});

describe('AOA bearings', () => {
  const loc = [
    { x: 0, y: 0 },
    { x: 20, y: 0 },
    { x: 10, y: 15 },
  ];
  const bearingTo = (l: { x: number; y: number }, p: { x: number; y: number }) => (Math.atan2(p.y - l.y, p.x - l.x) * 180) / Math.PI;

  it('intersects exact bearings at the point (y down, clockwise angles)', () => {
    for (const p of [{ x: 6, y: 5 }, { x: 14, y: 9 }, { x: 10, y: 2 }]) {
      const f = intersectBearings(loc.slice(0, 2).map((l) => ({ ...l, bearing: bearingTo(l, p) })))!;
      expect(Math.hypot(f.x - p.x, f.y - p.y)).toBeLessThan(1e-6);
      const g = intersectBearings(loc.map((l) => ({ ...l, bearing: bearingTo(l, p) })))!;
      expect(Math.hypot(g.x - p.x, g.y - p.y)).toBeLessThan(1e-6);
      expect(g.residual).toBeLessThan(1e-6);
    }
  });

  it('stays close with 3° noise and widens its accuracy with the residuals', () => {
    const rng = new Rng(5);
    const errs: number[] = [];
    for (let k = 0; k < 300; k++) {
      const p = { x: rng.range(3, 17), y: rng.range(3, 12) };
      const f = intersectBearings(loc.map((l) => ({ ...l, bearing: bearingTo(l, p) + rng.normal(0, 3) })), { angleSigmaDeg: 3 });
      if (f) errs.push(Math.hypot(f.x - p.x, f.y - p.y));
    }
    expect(errs.length).toBeGreaterThan(290);
    expect(median(errs)).toBeLessThan(0.8);
  });

  it('refuses near-parallel bearings and points behind a locator', () => {
    expect(intersectBearings([{ x: 0, y: 0, bearing: 10 }, { x: 0, y: 5, bearing: 14 }])).toBeNull();
    expect(intersectBearings([{ x: 0, y: 0, bearing: 0 }, { x: 10, y: 1, bearing: 178 }])).toBeNull();
    // Lines crossing at (10, 10), but the second locator looks away from it.
    expect(intersectBearings([{ x: 0, y: 0, bearing: 45 }, { x: 20, y: 0, bearing: -45 }])).toBeNull();
    expect(intersectBearings([{ x: 0, y: 0, bearing: 45 }, { x: 20, y: 0, bearing: 135 }])).not.toBeNull();
  });

  it('places a single bearing with an elevation at its horizontal range', () => {
    // 3 m locator, tag at 1.2 m, 1.8 m below: 45° down means 1.8 m away.
    expect(rangeFromElevation(3, -45)).toBeCloseTo(1.8, 9);
    expect(rangeFromElevation(3, 45)).toBeCloseTo(1.8, 9);
    const f = intersectBearings([{ x: 2, y: 2, bearing: 90, height: 3, elevation: -45 }])!;
    expect(f.x).toBeCloseTo(2, 9);
    expect(f.y).toBeCloseTo(3.8, 9);
    expect(intersectBearings([{ x: 2, y: 2, bearing: 90 }])).toBeNull();
  });
});

describe('RSSI smoothing', () => {
  it('reduces the spread of a still tag and follows a step faster after a gap', () => {
    const rng = new Rng(3);
    let s: SmoothedRssi | undefined;
    const raw: number[] = [];
    const out: number[] = [];
    for (let i = 0; i < 400; i++) {
      const r = -70 + rng.normal(0, 4);
      s = smoothRssi(s, r, T0 + i * 1000, DEFAULT_SMOOTHING);
      if (i > 20) {
        raw.push(r);
        out.push(s.value);
      }
    }
    const sd = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + (x + 70) ** 2, 0) / xs.length);
    expect(sd(out)).toBeLessThan(sd(raw) / 1.8);
    // After a 3 s gap the next reading moves the estimate more than after 1 s.
    const at = (gap: number) => {
      const st = { value: -70, variance: s!.variance, time: T0 };
      return smoothRssi(st, -60, T0 + gap, DEFAULT_SMOOTHING).value + 70;
    };
    expect(at(3000)).toBeGreaterThan(at(1000));
    // Past maxAge the old estimate is not used at all.
    expect(smoothRssi({ value: -70, variance: 1, time: T0 }, -60, T0 + DEFAULT_SMOOTHING.maxAgeMs + 1, DEFAULT_SMOOTHING).value).toBe(-60);
  });
});

describe('nearest beacon', () => {
  it('keeps the current beacon until another is louder by the margin', () => {
    expect(chooseNearest([{ key: 'a', score: -10 }, { key: 'b', score: -8 }], 'a', 4)).toBe(0);
    expect(chooseNearest([{ key: 'a', score: -10 }, { key: 'b', score: -5 }], 'a', 4)).toBe(1);
    expect(chooseNearest([{ key: 'a', score: -10 }, { key: 'b', score: -8 }], null, 4)).toBe(1);
    expect(chooseNearest([], 'a', 4)).toBe(-1);
  });

  it('does not flip a still tag between two beacons (and would without the margin)', () => {
    const flips = (margin: number) => {
      const scene = gridScene('nearest');
      const e = new IndoorEngine({ nearestMarginDb: margin, nearestScans: margin ? 3 : 1 });
      e.setScenes([scene]);
      const rng = new Rng(9);
      let last = '';
      let n = 0;
      // Halfway between the anchors at (8, 8) and (16, 8).
      for (let i = 0; i < 300; i++) {
        const f = e.scan('t', hear(scene, 'F1', 12, 8, rng), T0 + i * 1000)!;
        const at = `${f.x},${f.y}`;
        if (last && at !== last) n++;
        last = at;
      }
      return n;
    };
    expect(flips(6)).toBeLessThanOrEqual(2);
    expect(flips(0)).toBeGreaterThan(10);
  });
});

describe('floor choice', () => {
  it('switches only after the margin holds for the scan count', () => {
    const o = { marginDb: 6, scans: 2 };
    const st = newFloorState();
    expect(chooseFloor(st, new Map([['F1', -10], ['F2', -30]]), o)).toBe('F1');
    // F2 louder, but by less than the margin: stays.
    expect(chooseFloor(st, new Map([['F1', -10], ['F2', -6]]), o)).toBe('F1');
    // By more than the margin once: stays; twice in a row: switches.
    expect(chooseFloor(st, new Map([['F1', -20], ['F2', -5]]), o)).toBe('F1');
    expect(chooseFloor(st, new Map([['F1', -20], ['F2', -5]]), o)).toBe('F2');
    // An interrupted run starts counting again.
    expect(chooseFloor(st, new Map([['F1', -5], ['F2', -20]]), o)).toBe('F2');
    expect(chooseFloor(st, new Map([['F1', -5], ['F2', -5]]), o)).toBe('F2');
    expect(chooseFloor(st, new Map([['F1', -5], ['F2', -20]]), o)).toBe('F2');
    // The current floor not heard at all: switch at once.
    expect(chooseFloor(st, new Map([['F1', -25]]), o)).toBe('F1');
  });

  it('puts a tag on the floor it is on and follows it upstairs', () => {
    const scene = gridScene();
    const e = new IndoorEngine();
    e.setScenes([scene]);
    const rng = new Rng(21);
    let ok = 0;
    for (let i = 0; i < 200; i++) {
      const floor = i < 100 ? 'F1' : 'F2';
      const f = e.scan('t', hear(scene, floor, 10 + (i % 7), 6, rng), T0 + i * 1000)!;
      if (f.floorId === floor) ok++;
    }
    expect(ok).toBeGreaterThanOrEqual(197);
  });
});

describe('calibration', () => {
  it('recovers RSSI@1m per anchor and n from anchors hearing each other', () => {
    const rng = new Rng(17);
    const anchors = Array.from({ length: 12 }, (_, i) => ({ key: mac(i + 1), x: (i % 4) * 6, y: Math.floor(i / 4) * 6, height: 2.5, truth: -59 + rng.normal(0, 3) }));
    const readings: { from: string; to: string; rssi: number }[] = [];
    for (const a of anchors)
      for (const b of anchors)
        if (a !== b) for (let k = 0; k < 20; k++) readings.push({ from: a.key, to: b.key, rssi: rssiAtDistance(Math.hypot(a.x - b.x, a.y - b.y), a.truth, 2.4) + rng.normal(0, 3) });
    const fit = fitRadioModel(samplesFromAnchorPairs(readings, anchors))!;
    expect(fit.exponent).toBeCloseTo(2.4, 1);
    for (const a of anchors) expect(Math.abs(fit.rssi1m[a.key] - a.truth)).toBeLessThan(0.8);
    expect(fit.rmsDb).toBeGreaterThan(2.5);
    expect(fit.rmsDb).toBeLessThan(3.5);
    expect(fit.rmsMetres).toBeGreaterThan(0);
  });

  it('recovers them from a walk with known points, and with n fixed', () => {
    const rng = new Rng(23);
    const anchors = [mac(1), mac(2), mac(3)].map((key, i) => ({ key, x: i * 8, y: 0, height: 2.5, truth: -55 - 3 * i }));
    const points = Array.from({ length: 400 }, () => {
      const p = { x: rng.range(0, 16), y: rng.range(1, 10) };
      return { ...p, heard: anchors.map((a) => ({ anchor: a.key, rssi: rssiAtDistance(Math.hypot(a.x - p.x, a.y - p.y, 1.3), a.truth, 2.1) + rng.normal(0, 2) })) };
    });
    const fit = fitRadioModel(samplesFromWalk(points, anchors))!;
    expect(Math.abs(fit.exponent - 2.1)).toBeLessThan(0.08);
    for (const a of anchors) expect(Math.abs(fit.rssi1m[a.key] - a.truth)).toBeLessThan(0.8);
    const fixed = fitRadioModel(samplesFromWalk(points, anchors), { exponent: 2.1 })!;
    expect(fixed.exponent).toBe(2.1);
    expect(fitRadioModel([{ anchor: 'x', rssi: Number.NaN, distance: 2 }])).toBeNull();
  });
});

describe('plan and georeference', () => {
  it('round-trips px -> m -> lat/lon -> m -> px within 1 mm at several rotations', () => {
    for (const rotation of [0, 15, 90, 180, -37.5, 271]) {
      const g = { originLat: 22.54, originLon: 114.06, rotation, metresPerPixel: 0.04 };
      for (const px of [{ x: 0, y: 0 }, { x: 1000, y: 800 }, { x: 333.3, y: 12.5 }]) {
        const m = pixelsToMetres(px, g.metresPerPixel);
        const ll = planToGeo(g, m.x, m.y);
        const back = metresToPixels(geoToPlan(g, ll.lat, ll.lon), g.metresPerPixel);
        expect(Math.hypot(back.x - px.x, back.y - px.y) * g.metresPerPixel).toBeLessThan(0.001);
      }
    }
  });

  it('orients the plan: rotation 0 puts +x east and +y south, 90 puts +x south', () => {
    const g = { originLat: 22.54, originLon: 114.06, rotation: 0, metresPerPixel: 0.04 };
    const east = planToGeo(g, 100, 0);
    expect(east.lat).toBeCloseTo(22.54, 9);
    expect(east.lon).toBeGreaterThan(114.06);
    // 100 m of longitude at 22.54° N is about 0.000973°.
    expect(east.lon - 114.06).toBeCloseTo(100 / (111_320 * Math.cos((22.54 * Math.PI) / 180)), 5);
    expect(planToGeo(g, 0, 100).lat).toBeLessThan(22.54);
    const turned = planToGeo({ ...g, rotation: 90 }, 100, 0);
    expect(turned.lon).toBeCloseTo(114.06, 9);
    expect(turned.lat).toBeLessThan(22.54);
  });

  it('takes the scale from two clicked points and a real distance', () => {
    expect(scaleFromPoints({ x: 100, y: 100 }, { x: 400, y: 500 }, 20)).toBeCloseTo(0.04, 12);
    expect(scaleFromPoints({ x: 1, y: 1 }, { x: 1, y: 1 }, 5)).toBeNull();
    expect(scaleFromPoints({ x: 0, y: 0 }, { x: 10, y: 0 }, -1)).toBeNull();
  });
});

describe('anchor keys', () => {
  it('normalizes MACs and iBeacon identities', () => {
    expect(anchorKey({ mac: 'ac:23:3f:a0:00:01' })).toBe('AC:23:3F:A0:00:01');
    expect(anchorKey({ mac: 'AC-23-3F-A0-00-01' })).toBe('AC:23:3F:A0:00:01');
    expect(anchorKey({ mac: 'ac233fa00001' })).toBe('AC:23:3F:A0:00:01');
    expect(anchorKey({ uuid: 'FDA50693A4E24FB1AFCFC6EB07647825', major: 10, minor: '7' })).toBe('fda50693-a4e2-4fb1-afcf-c6eb07647825:10:7');
    expect(anchorKey({ mac: 'zz', uuid: 'fda50693-a4e2-4fb1-afcf-c6eb07647825', major: 1, minor: 2 })).toBe('fda50693-a4e2-4fb1-afcf-c6eb07647825:1:2');
    expect(anchorKey({ uuid: 'fda50693-a4e2-4fb1-afcf-c6eb07647825', major: 70000, minor: 1 })).toBeNull();
    expect(anchorKey({ uuid: 'fda50693-a4e2-4fb1-afcf-c6eb07647825' })).toBeNull();
    expect(anchorKey({})).toBeNull();
    expect(normalizeAnchorKey('FDA50693-A4E2-4FB1-AFCF-C6EB07647825:1:2')).toBe('fda50693-a4e2-4fb1-afcf-c6eb07647825:1:2');
    expect(normalizeAnchorKey('hello')).toBeNull();
  });
});

describe('engine', () => {
  it('trilaterates exact scans to within a centimetre and adds lat/lon from the georeference', () => {
    const scene = gridScene();
    const e = new IndoorEngine({ positionFilter: null });
    e.setScenes([scene]);
    const f = e.scan('t', hear(scene, 'F1', 10, 6, null), T0)!;
    expect(f).toMatchObject({ tag: 't', sceneId: 'S', floorId: 'F1', method: 'trilateration', time: T0 });
    expect(Math.hypot(f.x - 10, f.y - 6)).toBeLessThan(0.01);
    expect(f.anchors).toBe(6);
    expect(f.lat).toBeCloseTo(planToGeo(scene.floors[0].geo!, 10, 6).lat, 12);
    // Floor 2 has no georeference.
    const g = e.scan('u', hear(scene, 'F2', 10, 6, null), T0)!;
    expect(g.floorId).toBe('F2');
    expect(g.lat).toBeUndefined();
  });

  it('stays within about a metre of a still tag under 4 dB shadowing, and uses the nearest beacon with fewer than 3 anchors', () => {
    const scene = gridScene();
    const e = new IndoorEngine();
    e.setScenes([scene]);
    const rng = new Rng(4);
    const errs: number[] = [];
    for (let i = 0; i < 120; i++) {
      const f = e.scan('t', hear(scene, 'F1', 13, 5, rng), T0 + i * 1000)!;
      if (i >= 20) errs.push(Math.hypot(f.x - 13, f.y - 5));
    }
    expect(median(errs)).toBeLessThan(1.2);
    const two = e.scan('v', hear(scene, 'F1', 1, 1, null).slice(0, 2), T0)!;
    expect(two.method).toBe('nearest');
    expect([two.x, two.y]).toEqual([0, 0]);
  });

  it('corrects the pull toward anchors heard only when loud, when scans carry only the loudest few', () => {
    const scene = gridScene();
    // Error of the mean position of still tags at several points, scans reporting only the `top` loudest anchors.
    const bias = (censorMisses: boolean, top: number) => {
      const rng = new Rng(31);
      let sum = 0;
      const points = [[5, 5], [12, 3], [19, 11], [3, 13], [21, 4]];
      for (const [x, y] of points) {
        const e = new IndoorEngine({ censorMisses, positionFilter: null });
        e.setScenes([scene]);
        let mx = 0, my = 0, n = 0;
        for (let i = 0; i < 200; i++) {
          const heard = hear(scene, 'F1', x, y, rng).sort((a, b) => b.rssi - a.rssi).slice(0, top);
          const f = e.scan('t', heard, T0 + i * 1000)!;
          if (i >= 20) {
            mx += f.x;
            my += f.y;
            n++;
          }
        }
        sum += Math.hypot(mx / n - x, my / n - y);
      }
      return sum / points.length;
    };
    for (const top of [4, 6]) expect(bias(true, top)).toBeLessThan(bias(false, top));
    expect(bias(true, 8)).toBeLessThan(bias(false, 8) * 0.92);
  });

  it('gathers gateway observations in windows', () => {
    const scene = gridScene();
    let now = T0;
    const e = new IndoorEngine({ windowMs: 1000, positionFilter: null }, () => now);
    e.setScenes([scene]);
    const obs = hear(scene, 'F1', 6, 10, null).slice(0, 12);
    for (const [k, o] of obs.entries()) {
      now = T0 + k * 10;
      expect(e.observe('g', o.anchor.toLowerCase(), o.rssi, T0 + k * 10)).toBeNull();
    }
    expect(e.flush(T0 + 500)).toEqual([]);
    // Solved once nothing more has arrived for a window's length.
    expect(e.flush(T0 + 1000)).toEqual([]);
    const [f] = e.flush(T0 + 1110);
    expect(Math.hypot(f.x - 6, f.y - 10)).toBeLessThan(0.01);
    expect(e.flush(T0 + 5000)).toEqual([]);
    // A new window closes when an observation arrives after it.
    e.observe('g', obs[0].anchor, obs[0].rssi, T0 + 2000);
    e.observe('g', obs[1].anchor, obs[1].rssi, T0 + 2100);
    e.observe('g', obs[2].anchor, obs[2].rssi, T0 + 2200);
    const next = e.observe('g', obs[3].anchor, obs[3].rssi, T0 + 3100);
    expect(next?.method).toBe('trilateration');
    expect(next?.time).toBe(T0 + 2200);
  });

  it('passes UWB through with an accuracy from quality, on the anchor floor', () => {
    expect(uwbAccuracy(100)).toBeCloseTo(0.1, 9);
    expect(uwbAccuracy(0)).toBeCloseTo(3, 9);
    expect(uwbAccuracy(undefined)).toBe(0.3);
    const scene = gridScene();
    scene.anchors.push({ key: 'AC:23:3F:B0:00:01', floorId: 'F2', x: 0, y: 0, kind: 'uwb' });
    const e = new IndoorEngine({ positionFilter: null });
    e.setScenes([scene]);
    const f = e.uwb('u', { anchor: 'ac:23:3f:b0:00:01', x: 3.2, y: 4.5, quality: 80 }, T0)!;
    expect(f).toMatchObject({ floorId: 'F2', x: 3.2, y: 4.5, method: 'uwb' });
    expect(f.accuracy).toBeCloseTo(0.68, 9);
    expect(e.uwb('u', { anchor: 'AC:23:3F:B0:00:99', x: 1, y: 1 }, T0)).toBeNull();
  });

  it('locates from AOA readings relative to each locator boresight', () => {
    const scene = gridScene();
    const e = new IndoorEngine({ positionFilter: null });
    e.setScenes([scene]);
    const p = { x: 9, y: 7 };
    const readings = scene.locators.map((l) => ({ locator: l.key, azimuth: (Math.atan2(p.y - l.y, p.x - l.x) * 180) / Math.PI - l.heading }));
    const f = e.aoa('a', readings, T0)!;
    expect(f.method).toBe('aoa');
    expect(Math.hypot(f.x - p.x, f.y - p.y)).toBeLessThan(1e-6);
    expect(f.anchors).toBe(2);
    expect(e.aoa('a', [readings[0]], T0 + 1000)).toBeNull();
  });

  it('ignores bad input without throwing', () => {
    const scene = gridScene();
    const e = new IndoorEngine();
    e.setScenes([scene, null as never, { sceneId: 'X', method: 'nearest', floors: [{ floorId: 'Z', level: 0 }], anchors: [{ key: 'nonsense', floorId: 'Z', x: 0, y: 0, kind: 'ble' }, { key: mac(99), floorId: 'Z', x: Number.NaN, y: 0, kind: 'ble' }], locators: [] }]);
    const good = hear(scene, 'F1', 5, 5, null)[0];
    const bad = [
      { anchor: good.anchor, rssi: 50 },
      { anchor: good.anchor, rssi: -200 },
      { anchor: good.anchor, rssi: Number.NaN },
      { anchor: good.anchor, rssi: Infinity },
      { anchor: 'AC:23:3F:FF:FF:FF', rssi: -60 },
      { anchor: 42 as never, rssi: -60 },
      null as never,
    ];
    expect(e.scan('t', bad, T0)).toBeNull();
    expect(e.scan('t', null as never, T0)).toBeNull();
    expect(e.scan('t', [good], Number.NaN)).toBeNull();
    expect(e.scan('', [good], T0)).toBeNull();
    expect(e.observe('t', good.anchor, 20, T0)).toBeNull();
    expect(e.observe('t', good.anchor, -60, Infinity)).toBeNull();
    expect(e.uwb('t', { anchor: good.anchor, x: Number.NaN, y: 1 }, T0)).toBeNull();
    expect(e.uwb('t', null as never, T0)).toBeNull();
    expect(e.aoa('t', [{ locator: scene.locators[0].key, azimuth: Number.NaN }, { locator: 'nope', azimuth: 3 }], T0)).toBeNull();
    expect(e.flush(Number.NaN)).toEqual([]);
    // A bad reading among good ones is skipped; the good ones still give a fix.
    const f = e.scan('t', [...bad, ...hear(scene, 'F1', 5, 5, null)], T0) as IndoorFix;
    expect(Math.hypot(f.x - 5, f.y - 5)).toBeLessThan(0.5);
  });

  it("forgets a tag's state by its own device time, and tags idle by the clock or beyond the cap, never one still sending", () => {
    const scene = gridScene();
    let now = T0;
    const e = new IndoorEngine({ tagTtlMs: 5 * 60_000, tagIdleMs: 30 * 60_000 }, () => now);
    e.setScenes([scene]);
    const h = hear(scene, 'F1', 5, 5, null);
    e.scan('a', h, T0);
    e.scan('b', h, T0);
    expect(e.size).toBe(2);
    e.forget('a');
    expect(e.size).toBe(1);
    // Reports of another tag, whatever their device time, leave b's state alone.
    e.scan('c', h, T0 + 10 * 60_000);
    expect(e.tracks('b')).toBe(true);
    // A tag on F2; one scan where F1 beats F2 by the margin does not move it (the floor hysteresis)...
    const upstairs = hear(scene, 'F2', 10, 6, null);
    const downstairs = hear(scene, 'F1', 10, 6, null);
    const d = (heard: typeof h, time: number) => {
      now = time;
      return e.scan('d', heard, time)!.floorId;
    };
    d(upstairs, T0);
    expect(d(downstairs, T0 + 5 * 60_000)).toBe('F2');
    // ...but after more than tagTtlMs of its own silence its state is gone: F1 at once.
    expect(d(upstairs, T0 + 5 * 60_000 + 1000)).toBe('F2');
    expect(d(downstairs, T0 + 10 * 60_000 + 1001)).toBe('F1');
    // Idle by the clock: dropped at the next flush, while the one still sending stays.
    now = T0 + 29 * 60_000;
    e.scan('c', h, T0 + 29 * 60_000);
    now = T0 + 31 * 60_000;
    e.flush(now);
    expect(['a', 'b', 'c', 'd'].filter((t) => e.tracks(t))).toEqual(['c', 'd']);
    // At the cap the tag heard from least recently goes, not the one tracked the longest.
    const small = new IndoorEngine({ maxTags: 3 });
    small.setScenes([scene]);
    for (let i = 0; i < 10; i++) {
      small.scan('keep', h, T0 + i * 1000);
      small.scan(`t${i}`, h, T0 + i * 1000);
    }
    expect(small.size).toBe(3);
    expect(small.tracks('keep')).toBe(true);
  });

  it('gives the same fixes for reports sent live and sent 15 minutes late, in one request or many, run after run', () => {
    const scene = gridScene();
    const rng = new Rng(17);
    // 90 s of a wearable walking along y = 6 and going upstairs half-way, scanning every 700 ms, and
    // of an asset tag heard by six gateways every 400 ms, each gateway a few ms after the other.
    type Report = { t: number; tag: string; scan?: ReturnType<typeof hear>; anchor?: string; rssi?: number };
    const reports: Report[] = [];
    for (let t = 0; t < 90_000; t += 700) reports.push({ t, tag: 'w', scan: hear(scene, t < 45_000 ? 'F1' : 'F2', 2 + t / 5000, 6, rng) });
    for (let t = 0; t < 90_000; t += 400) {
      hear(scene, 'F1', 20 - t / 6000, 12, rng)
        .sort((a, b) => b.rssi - a.rssi)
        .slice(0, 6)
        .forEach((o, k) => reports.push({ t: t + k * 7, tag: 'g', anchor: o.anchor, rssi: o.rssi }));
    }
    reports.sort((a, b) => a.t - b.t);
    const START = T0 + 15 * 60_000;

    /** Feeds the reports with device times from `base`, each arriving at `arrival(i)`, flushing every 500 ms of the clock. */
    const run = (base: number, arrival: (i: number) => number) => {
      let now = arrival(0);
      const e = new IndoorEngine({}, () => now);
      e.setScenes([scene]);
      const out: IndoorFix[] = [];
      let nextFlush = now + 500;
      const keep = (f: IndoorFix | null) => f && out.push({ ...f, time: f.time - base });
      reports.forEach((r, i) => {
        now = arrival(i);
        for (; nextFlush <= now; nextFlush += 500) e.flush(nextFlush).forEach(keep);
        keep(r.scan ? e.scan(r.tag, r.scan, base + r.t) : e.observe(r.tag, r.anchor!, r.rssi!, base + r.t));
      });
      e.flush(now + 60_000).forEach(keep);
      return out.map((f) => [f.tag, f.time, f.floorId, f.x, f.y, f.method]).sort((a, b) => String(a[0]).localeCompare(String(b[0])) || Number(a[1]) - Number(b[1]));
    };
    const live = run(START, (i) => START + reports[i]!.t);
    expect(live.length).toBeGreaterThan(180);
    expect(new Set(live.filter((f) => f[0] === 'w').map((f) => f[2]))).toEqual(new Set(['F1', 'F2']));
    // Uploaded 15 minutes late: all at once, or in requests of 25 reports 3 s apart.
    const late = START - 15 * 60_000;
    expect(run(late, (i) => START + 90_000 + i)).toEqual(live);
    expect(run(late, (i) => START + 90_000 + Math.floor(i / 25) * 3000 + i)).toEqual(live);
    expect(run(late, (i) => START + 90_000 + Math.floor(i / 25) * 3000 + i)).toEqual(live);
  });

  it('keeps tracking across a configuration change and leaves a floor that no longer exists', () => {
    const scene = gridScene();
    const e = new IndoorEngine();
    e.setScenes([scene]);
    e.scan('t', hear(scene, 'F2', 5, 5, null), T0);
    const only1 = { ...scene, floors: scene.floors.slice(0, 1), anchors: scene.anchors.filter((a) => a.floorId === 'F1') };
    e.setScenes([only1]);
    expect(e.size).toBe(1);
    // After the smoothing's maximum age, so the F1 readings heard through the floor earlier are gone.
    const f = e.scan('t', hear(only1, 'F1', 5, 5, null), T0 + 10_000)!;
    expect(f.floorId).toBe('F1');
    expect(Math.hypot(f.x - 5, f.y - 5)).toBeLessThan(0.5);
  });
});
