import { describe, expect, it } from 'vitest';
import { CITIES, DeviceModel, getCity, localTimeForTest } from './helpers.js';
import { haversine } from '../src/cities.js';

const START = Date.parse('2026-03-02T00:00:00Z'); // 08:00 in Shenzhen
const STEP = 10_000;

function run(kind: 'walk' | 'drive', seed: number, city = getCity('shenzhen'), hours = 48) {
  const m = new DeviceModel(kind, city, seed, START, { sos: 0, fall: 0, removal: 0, highHeartRate: 0 });
  const samples: { t: number; lat: number; lon: number; moving: boolean; home: boolean; speed: number }[] =
    [];
  for (let t = START; t <= START + hours * 3_600_000; t += STEP) {
    m.advance(t);
    const p = m.mover.position();
    samples.push({ t, ...p, moving: m.mover.moving, home: m.mover.atHome, speed: m.mover.speedMs * 3.6 });
  }
  return { m, samples };
}

describe('movement', () => {
  it('keeps walkers and vehicles inside the city', () => {
    for (const name of Object.keys(CITIES)) {
      const city = getCity(name);
      for (const kind of ['walk', 'drive'] as const) {
        for (let seed = 1; seed <= 4; seed++) {
          const { samples } = run(kind, seed * 7919, city, 24);
          let far = 0;
          for (const s of samples) far = Math.max(far, haversine(city.lat, city.lon, s.lat, s.lon));
          expect(far, `${name} ${kind} ${seed}`).toBeLessThanOrEqual(city.radius);
          expect(far).toBeGreaterThan(0);
        }
      }
    }
  });

  it('walks at 4-6 km/h with pauses, and drives at 20-60 km/h with stops', () => {
    for (const [kind, lo, hi] of [
      ['walk', 3.9, 6.1],
      ['drive', 19.9, 60.1],
    ] as const) {
      let movingTime = 0;
      let stoppedTime = 0;
      let distance = 0;
      let fastest = 0;
      let slowMoving = Infinity;
      let fastMoving = 0;
      for (let seed = 1; seed <= 10; seed++) {
        const { samples } = run(kind, seed, undefined, 24);
        for (let i = 1; i < samples.length; i++) {
          const a = samples[i - 1];
          const b = samples[i];
          const d = haversine(a.lat, a.lon, b.lat, b.lon);
          fastest = Math.max(fastest, (d / STEP) * 3600);
          if (b.moving) {
            slowMoving = Math.min(slowMoving, b.speed);
            fastMoving = Math.max(fastMoving, b.speed);
            movingTime++;
          } else stoppedTime++;
          distance += d;
        }
      }
      // Displacement over 10 s can never exceed what the top speed allows.
      expect(fastest).toBeLessThanOrEqual(hi + 0.5);
      expect(slowMoving).toBeGreaterThanOrEqual(lo);
      expect(fastMoving).toBeLessThanOrEqual(hi);
      expect(movingTime).toBeGreaterThan(0);
      expect(stoppedTime).toBeGreaterThan(0); // pauses, lights, parking
      expect(distance).toBeGreaterThan(kind === 'walk' ? 10 * 2000 : 10 * 20_000);
    }
  });

  it('brings people home at night and lets them out by day', () => {
    let homeAt3 = 0;
    let outAt15 = 0;
    const n = 20;
    for (let seed = 1; seed <= n; seed++) {
      const { samples } = run('walk', seed * 31, undefined, 48);
      // 03:00 and 15:00 local on the second day (UTC+8).
      const at = (h: number) =>
        samples.find((s) => s.t === Date.parse('2026-03-03T00:00:00Z') + (h - 8) * 3_600_000)!;
      if (at(3).home) homeAt3++;
      const day = samples.filter((s) => {
        const h = localTimeForTest(s.t);
        return h >= 9 && h < 20;
      });
      if (day.some((s) => !s.home)) outAt15++;
    }
    expect(homeAt3).toBe(n);
    expect(outAt15).toBeGreaterThan(n * 0.8);
  });

  it('reports course along the movement and invalid fixes mostly indoors', () => {
    const m = new DeviceModel('drive', getCity('beijing'), 42, START, {
      sos: 0,
      fall: 0,
      removal: 0,
      highHeartRate: 0,
    });
    let checked = 0;
    let invalidIndoor = 0;
    let indoor = 0;
    for (let t = START; t < START + 6 * 3_600_000; t += 5000) {
      const before = m.mover.position();
      m.advance(t);
      const after = m.mover.position();
      const f = m.fix();
      if (f.indoor) {
        indoor++;
        if (!f.valid) invalidIndoor++;
      }
      const d = haversine(before.lat, before.lon, after.lat, after.lon);
      if (m.mover.moving && d > 30) {
        // Beijing's grid is north-aligned: bearing of the displacement equals the course.
        const dy = after.lat - before.lat;
        const dx = (after.lon - before.lon) * Math.cos((after.lat * Math.PI) / 180);
        const bearing = ((Math.atan2(dx, dy) * 180) / Math.PI + 360) % 360;
        const diff = Math.abs(((bearing - f.course + 540) % 360) - 180);
        if (Math.abs(dx) < 1e-9 || Math.abs(dy) < 1e-9) {
          expect(diff).toBeLessThan(2);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
    if (indoor) expect(invalidIndoor / indoor).toBeGreaterThan(0.6);
    const w = new DeviceModel('walk', getCity('shenzhen'), 5, START);
    let inv = 0;
    let total = 0;
    for (let t = START; t < START + 24 * 3_600_000; t += 60_000) {
      w.advance(t);
      const f = w.fix();
      total++;
      if (!f.valid) {
        inv++;
        expect(f.indoor || f.accuracy >= 30).toBe(true);
      }
    }
    expect(inv).toBeGreaterThan(0);
    expect(inv).toBeLessThan(total);
  });

  it('is deterministic with a seed', () => {
    const a = run('walk', 1234, undefined, 12).samples;
    const b = run('walk', 1234, undefined, 12).samples;
    const c = run('walk', 1235, undefined, 12).samples;
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    const ma = new DeviceModel('walk', getCity('london'), 99, START);
    const mb = new DeviceModel('walk', getCity('london'), 99, START);
    for (let t = START; t < START + 3 * 3_600_000; t += 30_000) {
      ma.advance(t);
      mb.advance(t);
      expect(mb.fix()).toEqual(ma.fix());
      expect(mb.health.snapshot()).toEqual(ma.health.snapshot());
    }
  });
});
