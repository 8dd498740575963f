// The simulated care home: walkers stay on walkable ground and move at walking speed, change floors
// only through the stair core, the radio model's shadowing has the configured spread, UWB and AOA
// readings are near the truth, and the floor plans decode as PNGs of the floors' pixel size.
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { aoaReadings, anchorPairReadings, bleScan, CARE_HOME, meanRssi, renderFloorPlan, roomAt, Rng, uwbFix, Walker, WalkGraph } from '../src/index.js';

const T0 = Date.UTC(2026, 2, 2, 1, 0, 0);

describe('care home', () => {
  it('has two floors of anchors every 8 m or less, UWB in one wing and two AOA locators in the hall', () => {
    expect(CARE_HOME.floors.map((f) => f.floorId)).toEqual(['F1', 'F2']);
    for (const f of CARE_HOME.floors) {
      const ble = CARE_HOME.anchors.filter((a) => a.kind === 'ble' && a.floorId === f.floorId);
      expect(ble.length).toBeGreaterThanOrEqual(15);
      // Every point of every room is within 6.5 m (horizontally) of an anchor (a room corner is 6 m from its anchor).
      for (const r of f.rooms)
        for (let x = r.x0; x <= r.x1; x += 1) for (let y = r.y0; y <= r.y1; y += 1) expect(Math.min(...ble.map((a) => Math.hypot(a.x - x, a.y - y)))).toBeLessThan(6.5);
      expect(new Set(ble.map((a) => a.rssi1m)).size).toBeGreaterThan(5);
    }
    expect(new Set(CARE_HOME.anchors.map((a) => a.key)).size).toBe(CARE_HOME.anchors.length);
    expect(CARE_HOME.anchors.filter((a) => a.kind === 'uwb').length).toBeGreaterThanOrEqual(4);
    expect(CARE_HOME.locators.every((l) => roomAt(CARE_HOME, l.floorId, l.x, l.y)?.kind === 'hall')).toBe(true);
  });
});

describe('walkers', () => {
  it('stay on walkable ground, walk at walking speed, and change floor only at the stair core', () => {
    const graph = new WalkGraph(CARE_HOME);
    let floorChanges = 0;
    let moving = 0;
    let offGround = 0;
    let wrongRoom = 0;
    let tooFast = 0;
    let jumps = 0;
    const rooms = new Set<string>();
    for (let w = 0; w < 12; w++) {
      const walker = new Walker(graph, 100 + w, T0);
      expect(walker.speed).toBeGreaterThanOrEqual(0.5);
      expect(walker.speed).toBeLessThanOrEqual(1.4);
      let prev = walker.truth(T0);
      for (let t = T0 + 1000; t < T0 + 3 * 3_600_000; t += 1000) {
        const p = walker.truth(t);
        const room = roomAt(CARE_HOME, p.floorId, p.x, p.y);
        if (!room) offGround++;
        else if (room.id !== p.roomId) wrongRoom++;
        rooms.add(p.roomId);
        if (p.floorId !== prev.floorId) {
          floorChanges++;
          if (room?.kind !== 'stairs') jumps++;
        } else if (Math.hypot(p.x - prev.x, p.y - prev.y) > walker.speed * 1.0001 + 1e-9) tooFast++;
        if (p.moving) moving++;
        prev = p;
      }
    }
    expect({ offGround, wrongRoom, tooFast, jumps }).toEqual({ offGround: 0, wrongRoom: 0, tooFast: 0, jumps: 0 });
    expect(floorChanges).toBeGreaterThan(0);
    expect(moving).toBeGreaterThan(0);
    expect(rooms.size).toBeGreaterThan(15);
  });

  it('are deterministic for a seed', () => {
    const a = new Walker(CARE_HOME, 5, T0);
    const b = new Walker(CARE_HOME, 5, T0);
    for (let t = T0; t < T0 + 600_000; t += 7000) expect(a.truth(t)).toEqual(b.truth(t));
  });
});

describe('radio', () => {
  it('has log-normal shadowing of the configured sigma, a floor loss and a hearing threshold', () => {
    const rng = new Rng(8);
    const at = { floorId: 'F1', x: 10, y: 9.5 };
    for (const sigma of [2, 4, 6]) {
      const dev: number[] = [];
      for (let k = 0; k < 2000; k++) {
        for (const h of bleScan(CARE_HOME, at, rng, { sigmaDb: sigma, topN: 64, thresholdDbm: -200 })) {
          const a = CARE_HOME.anchors.find((x) => x.key === h.anchor)!;
          dev.push(h.rssi - meanRssi(CARE_HOME, a, at.floorId, at.x, at.y));
        }
      }
      const mean = dev.reduce((s, x) => s + x, 0) / dev.length;
      const sd = Math.sqrt(dev.reduce((s, x) => s + (x - mean) ** 2, 0) / dev.length);
      expect(Math.abs(mean)).toBeLessThan(0.05);
      // Whole-dBm rounding adds 1/12 dB² of variance.
      expect(sd).toBeGreaterThan(Math.sqrt(sigma * sigma + 1 / 12) * 0.97);
      expect(sd).toBeLessThan(Math.sqrt(sigma * sigma + 1 / 12) * 1.03);
    }
    const a = CARE_HOME.anchors.find((x) => x.floorId === 'F2' && x.kind === 'ble')!;
    const same = meanRssi(CARE_HOME, a, 'F2', a.x, a.y);
    const below = meanRssi(CARE_HOME, a, 'F1', a.x, a.y);
    expect(same - below).toBeGreaterThan(15);
    const scan = bleScan(CARE_HOME, at, rng);
    expect(scan.length).toBe(8);
    for (let i = 1; i < scan.length; i++) expect(scan[i].rssi).toBeLessThanOrEqual(scan[i - 1].rssi);
    expect(bleScan(CARE_HOME, at, rng, { topN: 64 }).every((h) => h.rssi >= -95)).toBe(true);
    expect(anchorPairReadings(CARE_HOME, rng, 2).length).toBeGreaterThan(100);
  });

  it('gives UWB within centimetres in the wing only, and AOA angles around the true bearing', () => {
    const rng = new Rng(12);
    let err = 0;
    for (let k = 0; k < 500; k++) {
      const u = uwbFix(CARE_HOME, { floorId: 'F1', x: 5, y: 5 }, rng)!;
      err += Math.hypot(u.x - 5, u.y - 5);
    }
    expect(err / 500).toBeGreaterThan(0.1);
    expect(err / 500).toBeLessThan(0.4);
    expect(uwbFix(CARE_HOME, { floorId: 'F1', x: 30, y: 5 }, rng)).toBeNull();
    expect(uwbFix(CARE_HOME, { floorId: 'F2', x: 5, y: 5 }, rng)).toBeNull();
    const p = { floorId: 'F1', x: 24, y: 16 };
    const r = aoaReadings(CARE_HOME, p, rng, { sigmaDeg: 0 });
    expect(r.length).toBe(2);
    for (const x of r) {
      const l = CARE_HOME.locators.find((q) => q.key === x.locator)!;
      expect(l.heading + x.azimuth).toBeCloseTo((Math.atan2(p.y - l.y, p.x - l.x) * 180) / Math.PI, 9);
      expect(x.elevation).toBeLessThan(0);
    }
  });
});

describe('floor plans', () => {
  it('render to PNGs of the floor size with walls and rooms', () => {
    for (const f of CARE_HOME.floors) {
      const img = renderFloorPlan(CARE_HOME, f.floorId);
      const png = PNG.sync.read(img.png);
      expect([png.width, png.height]).toEqual([1000, 500]);
      expect([img.width, img.height]).toEqual([f.widthPx, f.heightPx]);
      // A wall pixel (the corridor's north wall away from doors) is dark, a room centre is light.
      const px = (x: number, y: number) => png.data[((Math.round(y / f.metresPerPixel) * png.width + Math.round(x / f.metresPerPixel)) << 2)];
      expect(px(2, 8)).toBeLessThan(100);
      expect(px(4, 4)).toBeGreaterThan(200);
    }
    expect(() => renderFloorPlan(CARE_HOME, 'F9')).toThrow();
  });
});
