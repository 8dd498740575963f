// Trips and stops on scripted tracks with known answers, and the figures per day of the viewer's zone.
import { describe, expect, it } from 'vitest';
import { daySummaries, tripsAndStops, type Fix } from '../src/modules/report/trips.js';

const MIN = 60_000;
const T0 = Date.parse('2026-03-02T00:00:00Z');
const LAT0 = 31.23;
const LON0 = 121.47;
/** Metres per degree of latitude, and of longitude at LAT0. */
const M_LAT = 111_195;
const M_LON = 111_195 * Math.cos((LAT0 * Math.PI) / 180);

/** A fix `north`/`east` metres from the origin. */
function at(time: number, north: number, east: number, speed: number | null = null): Fix {
  return { lat: LAT0 + north / M_LAT, lon: LON0 + east / M_LON, time, speed };
}

/** A deterministic pseudo-random sequence in [0, 1). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2_147_483_648;
    return s / 2_147_483_648;
  };
}

/** A stationary device at (north, east) from `from` for `minutes`, a fix every 30 s wandering up to `jitter` metres. */
function parked(from: number, minutes: number, north: number, east: number, jitter = 0, seed = 1): Fix[] {
  const r = random(seed);
  const out: Fix[] = [];
  for (let t = 0; t <= minutes * MIN; t += 30_000) {
    const a = r() * 2 * Math.PI;
    const d = r() * jitter;
    out.push(at(from + t, north + d * Math.sin(a), east + d * Math.cos(a), r() < 0.5 ? 0 : 1));
  }
  return out;
}

/** Driving east at `kmh` from (north, east) for `minutes`, a fix every 30 s; returns the fixes and where it ended. */
function drive(from: number, minutes: number, north: number, east: number, kmh: number): Fix[] {
  const out: Fix[] = [];
  const perMs = kmh / 3.6 / 1000;
  for (let t = 30_000; t <= minutes * MIN; t += 30_000) out.push(at(from + t, north, east + t * perMs, kmh));
  return out;
}

describe('trips and stops', () => {
  it('finds nothing in no fix or a single fix', () => {
    expect(tripsAndStops([])).toEqual({ trips: [], stops: [] });
    expect(tripsAndStops([at(T0, 0, 0, 0)])).toEqual({ trips: [], stops: [] });
  });

  it('takes a stationary GPS wandering by 30 m for hours as one stop and no trip', () => {
    const fixes = parked(T0, 180, 0, 0, 30, 7);
    const r = tripsAndStops(fixes);
    expect(r.trips).toEqual([]);
    expect(r.stops).toHaveLength(1);
    expect(r.stops[0]!.start).toBe(T0);
    expect(r.stops[0]!.end).toBe(T0 + 180 * MIN);
  });

  it('takes a single stray fix 150 m away during a stay as jitter, not as a trip', () => {
    const fixes = parked(T0, 60, 0, 0, 30, 3);
    fixes[60] = at(fixes[60]!.time, 150, 0, 0);
    const r = tripsAndStops(fixes);
    expect(r.trips).toEqual([]);
    expect(r.stops).toHaveLength(1);
    expect(r.stops[0]!.end - r.stops[0]!.start).toBe(60 * MIN);
  });

  it('finds stop, trip, stop on a drive of 5 km at 50 km/h between two stays, with its figures', () => {
    const a = parked(T0, 10, 0, 0, 20, 1);
    const d = drive(T0 + 10 * MIN, 6, 0, 0, 50);
    const b = parked(T0 + 16 * MIN, 20, 0, 5000, 20, 2);
    const r = tripsAndStops([...a, ...d, ...b]);
    expect(r.stops).toHaveLength(2);
    expect(r.stops[0]!.start).toBe(T0);
    expect(r.stops[1]!.end).toBe(T0 + 36 * MIN);
    expect(r.trips).toHaveLength(1);
    const t = r.trips[0]!;
    expect(t.start).toBe(r.stops[0]!.end);
    expect(t.end).toBe(r.stops[1]!.start);
    expect(t.distance).toBeGreaterThan(4900);
    expect(t.distance).toBeLessThan(5150);
    expect(t.maxSpeed).toBe(50);
    expect(t.avgSpeed).toBeGreaterThan(40);
    expect(t.avgSpeed).toBeLessThan(55);
    expect(t.endLon).toBeCloseTo(r.stops[1]!.lon, 3);
  });

  it('does not take a two-minute halt at a traffic light as a stop', () => {
    const d1 = drive(T0, 5, 0, 0, 40);
    const light = parked(T0 + 5 * MIN, 2, 0, 40 / 3.6 * 300, 0);
    const d2 = drive(T0 + 7 * MIN, 5, 0, 40 / 3.6 * 300, 40);
    const r = tripsAndStops([...d1, ...light, ...d2]);
    expect(r.stops).toEqual([]);
    expect(r.trips).toHaveLength(1);
  });

  it('gives the same answer for unsorted input with duplicated fixes', () => {
    const fixes = [...parked(T0, 10, 0, 0, 20), ...drive(T0 + 10 * MIN, 6, 0, 0, 50), ...parked(T0 + 16 * MIN, 20, 0, 5000, 20, 2)];
    const sorted = tripsAndStops(fixes);
    const r = random(42);
    const shuffled = [...fixes, ...fixes.slice(0, 30)].map((f) => ({ f, k: r() })).sort((x, y) => x.k - y.k).map((x) => x.f);
    expect(tripsAndStops(shuffled)).toEqual(sorted);
  });

  it('counts a tunnel gap as part of the trip, in a straight line', () => {
    const d1 = drive(T0, 5, 0, 0, 60);
    // 5 minutes without a fix while 5 km further east, then on.
    const d2 = drive(T0 + 10 * MIN, 5, 0, 10_000, 60);
    const r = tripsAndStops([at(T0, 0, 0, 60), ...d1, ...d2]);
    expect(r.stops).toEqual([]);
    expect(r.trips).toHaveLength(1);
    expect(r.trips[0]!.distance).toBeGreaterThan(14_900);
    expect(r.trips[0]!.distance).toBeLessThan(15_100);
    expect(r.trips[0]!.end - r.trips[0]!.start).toBe(15 * MIN);
  });

  it('splits a trip at a gap longer than the gap limit', () => {
    const d1 = drive(T0, 5, 0, 0, 60);
    const d2 = drive(T0 + 125 * MIN, 5, 0, 50_000, 60);
    const r = tripsAndStops([at(T0, 0, 0, 60), ...d1, ...d2], { gapMinutes: 60 });
    expect(r.trips).toHaveLength(2);
    expect(r.trips[0]!.end).toBe(T0 + 5 * MIN);
    expect(r.trips[1]!.start).toBe(T0 + 125.5 * MIN);
  });

  it('takes a device switched off while parked as one stop over the gap', () => {
    const before = parked(T0, 3, 0, 0, 10);
    const after = parked(T0 + 120 * MIN, 3, 0, 0, 10, 5);
    const r = tripsAndStops([...before, ...after]);
    expect(r.trips).toEqual([]);
    expect(r.stops).toEqual([expect.objectContaining({ start: T0, end: T0 + 123 * MIN })]);
  });

  it('uses fix-to-fix speeds for a device that reports none', () => {
    const d = drive(T0, 10, 0, 0, 36).map((f) => ({ ...f, speed: null }));
    const r = tripsAndStops([at(T0, 0, 0, null), ...d]);
    expect(r.trips).toHaveLength(1);
    expect(r.trips[0]!.maxSpeed).toBeCloseTo(36, 0);
  });
});

describe('figures per day', () => {
  it("cuts a stop across midnight of a UTC+8 account at the account's midnight", () => {
    // Local 2026-03-02 22:00 (UTC 14:00) drive 10 minutes, stop until local 01:00 the next day, drive again.
    const offset = 480;
    const start = Date.parse('2026-03-02T14:00:00Z');
    const d1 = drive(start, 10, 0, 0, 60);
    const stayStart = start + 10 * MIN;
    const stay = parked(stayStart, 170, 0, 10_000, 20);
    const d2 = drive(stayStart + 170 * MIN, 10, 0, 10_000, 60);
    const fixes = [at(start, 0, 0, 60), ...d1, ...stay, ...d2];
    const r = tripsAndStops(fixes);
    expect(r.stops).toHaveLength(1);
    expect(r.trips).toHaveLength(2);
    const from = Date.parse('2026-03-01T16:00:00Z');
    const to = Date.parse('2026-03-03T16:00:00Z');
    const days = daySummaries(fixes, r, offset, from, to);
    expect(days.map((d) => d.day)).toEqual(['2026-03-02', '2026-03-03']);
    const [d02, d03] = days as [(typeof days)[0], (typeof days)[0]];
    // The stop: local 22:10 to 01:00, 110 minutes before midnight and 60 after.
    expect(d02.stoppedMs).toBe(110 * MIN);
    expect(d03.stoppedMs).toBe(60 * MIN);
    expect(d02.movingMs).toBe(10 * MIN);
    expect(d03.movingMs).toBe(10 * MIN);
    expect(d02.distance).toBeGreaterThan(9_900);
    expect(d03.distance).toBeGreaterThan(9_900);
    expect(d02.maxSpeed).toBe(60);
    expect(d02.first!.time).toBe(start);
    expect(d03.last!.time).toBe(stayStart + 180 * MIN);
  });

  it('answers empty days for a device without fixes', () => {
    const days = daySummaries([], { trips: [], stops: [] }, 0, T0, T0 + 2 * 86_400_000);
    expect(days).toEqual([
      { day: '2026-03-02', distance: 0, movingMs: 0, stoppedMs: 0, maxSpeed: 0, first: null, last: null },
      { day: '2026-03-03', distance: 0, movingMs: 0, stoppedMs: 0, maxSpeed: 0, first: null, last: null },
    ]);
  });
});
