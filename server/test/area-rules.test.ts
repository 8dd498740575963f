// The pure rules of account fences: areas (polygons with holes, multipolygons, circles, the
// boundary counting as inside, only Flatbush candidates tested), debounced sides, and schedules in
// the owner's time zone.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { compileArea, type Polygon } from '../src/rules/area.js';
import { dwellStep, type DwellConfig, type DwellState } from '../src/rules/dwell.js';
import { activeAt, localDay, windowsOn } from '../src/rules/schedule.js';

// Counts the ring tests, to see that only the candidate polygons are tested.
const ringTests = vi.hoisted(() => ({ n: 0 }));
vi.mock('point-in-polygon-hao', async (importOriginal) => {
  const real = ((await importOriginal()) as { default: (p: number[], r: number[][][]) => boolean | 0 }).default;
  return {
    default: (p: number[], r: number[][][]) => {
      ringTests.n++;
      return real(p, r);
    },
  };
});

const square = (x: number, y: number, size: number): number[][] => [
  [x, y],
  [x + size, y],
  [x + size, y + size],
  [x, y + size],
  [x, y],
];
const at = (lon: number, lat: number) => ({ lat, lon });

describe('areas', () => {
  beforeEach(() => {
    ringTests.n = 0;
  });

  it('tests a polygon with a hole, its edges and corners inside', () => {
    const area = compileArea({ kind: 'multipolygon', polygons: [[square(0, 0, 10), square(4, 4, 2)]] });
    expect(area.contains(at(1, 1))).toBe(true);
    expect(area.contains(at(5, 5))).toBe(false); // in the hole
    expect(area.contains(at(4, 5))).toBe(true); // on the hole's edge: the boundary is inside
    expect(area.contains(at(10, 5))).toBe(true); // on the outer edge
    expect(area.contains(at(0, 0))).toBe(true); // a corner
    expect(area.contains(at(10.0001, 5))).toBe(false);
    expect(area.contains(at(-1, 5))).toBe(false);
    expect(area.bbox).toEqual([0, 0, 10, 10]);
  });

  it('tests a drawn polygon of points in order (lat, lon), closed by itself, concave', () => {
    // An L shape.
    const area = compileArea({ kind: 'polygon', points: [at(0, 0), at(2, 0), at(2, 1), at(1, 1), at(1, 2), at(0, 2)] });
    expect(area.contains(at(0.5, 1.5))).toBe(true);
    expect(area.contains(at(1.5, 1.5))).toBe(false);
    expect(area.contains(at(1.5, 0.5))).toBe(true);
    expect(area.vertices).toBe(7);
  });

  it('tests a multipolygon, its islands apart, and only the candidate polygons (Flatbush)', () => {
    const islands: Polygon[] = [];
    for (let i = 0; i < 100; i++) islands.push([square((i % 10) * 2, Math.floor(i / 10) * 2, 1)]);
    const area = compileArea({ kind: 'multipolygon', polygons: islands });
    expect(area.contains(at(0.5, 0.5))).toBe(true);
    expect(area.contains(at(18.5, 18.5))).toBe(true);
    expect(area.contains(at(1.5, 0.5))).toBe(false); // between islands
    ringTests.n = 0;
    expect(area.contains(at(6.5, 6.5))).toBe(true);
    expect(ringTests.n).toBe(1);
    ringTests.n = 0;
    expect(area.contains(at(7.5, 6.5))).toBe(false); // within the area's box, in no island's box
    expect(area.contains(at(50, 50))).toBe(false); // outside the area's box
    expect(ringTests.n).toBe(0);
  });

  it('tests a circle by its radius in metres, the circle itself inside', () => {
    const center = { lat: 22.5405, lon: 113.9345 };
    const north = (m: number) => ({ lat: center.lat + (m / 6_371_008.8) * (180 / Math.PI), lon: center.lon });
    const area = compileArea({ kind: 'circle', center, radius: 100 });
    expect(area.contains(north(99))).toBe(true);
    expect(area.contains(north(100))).toBe(true);
    expect(area.contains(north(101))).toBe(false);
    expect(area.contains({ lat: 0, lon: 0 })).toBe(false);
  });

  it('contains nothing when a district has no polygons', () => {
    expect(compileArea({ kind: 'multipolygon', polygons: [] }).contains(at(0, 0))).toBe(false);
  });
});

describe('debounced sides', () => {
  const cfg: DwellConfig = { fixes: 2, ms: 60_000 };
  const T = Date.parse('2026-03-02T01:00:00Z');
  /** Runs fixes [inside, time] from a state; answers the last state and every crossing. */
  function walk(fixes: [boolean, number][], from: DwellState | null = null, c = cfg) {
    let state = from;
    const crossings = [];
    const stale = [];
    for (const [inside, time] of fixes) {
      const r = dwellStep(state, inside, time, c);
      if (r.stale) {
        stale.push(time);
        continue;
      }
      state = r.state;
      if (r.crossing) crossings.push(r.crossing);
    }
    return { state: state!, crossings, stale };
  }

  it('takes the first fix as the side, without a crossing to alarm', () => {
    const { state, crossings } = walk([[true, T]]);
    expect(crossings).toEqual([{ inside: true, time: T, confirmedAt: T, initial: true }]);
    expect(state).toEqual({ inside: true, since: T, time: T, pendingSince: null, pendingCount: 0 });
  });

  it('raises nothing for single fixes jittering to the other side', () => {
    const { state, crossings } = walk([
      [true, T],
      [false, T + 10_000],
      [true, T + 20_000],
      [false, T + 30_000],
      [true, T + 40_000],
    ]);
    expect(crossings.filter((c) => !c.initial)).toEqual([]);
    expect(state).toMatchObject({ inside: true, since: T, pendingSince: null, pendingCount: 0 });
  });

  it('confirms a crossing on the second fix, dated by the first', () => {
    const { state, crossings } = walk([
      [true, T],
      [false, T + 10_000],
      [false, T + 20_000],
    ]);
    expect(crossings.at(-1)).toEqual({ inside: false, time: T + 10_000, confirmedAt: T + 20_000, initial: false });
    expect(state).toMatchObject({ inside: false, since: T + 10_000, time: T + 20_000, pendingSince: null });
  });

  it('confirms a crossing held for the dwell time, whatever the number of fixes', () => {
    const timeOnly = { fixes: 0, ms: 60_000 };
    const early = walk([[true, T], [false, T + 10_000], [false, T + 30_000], [false, T + 69_999]], null, timeOnly);
    expect(early.crossings.filter((c) => !c.initial)).toEqual([]);
    expect(early.state).toMatchObject({ inside: true, pendingSince: T + 10_000, pendingCount: 3 });
    const held = walk([[false, T + 70_000]], early.state, timeOnly);
    expect(held.crossings).toEqual([{ inside: false, time: T + 10_000, confirmedAt: T + 70_000, initial: false }]);
    // With both criteria, one fix a minute later is enough: the time criterion comes first.
    const both = walk([[true, T], [false, T + 10_000], [false, T + 10_000 + 60_000]]);
    expect(both.crossings.at(-1)).toMatchObject({ time: T + 10_000, initial: false });
  });

  it('refuses stale fixes: not newer than the last one evaluated', () => {
    const { state, crossings, stale } = walk([
      [true, T],
      [false, T + 10_000],
      [false, T + 5_000],
      [false, T + 10_000],
    ]);
    expect(stale).toEqual([T + 5_000, T + 10_000]);
    expect(crossings.filter((c) => !c.initial)).toEqual([]);
    expect(state).toMatchObject({ inside: true, pendingCount: 1, time: T + 10_000 });
  });
});

describe('schedules', () => {
  const night = { days: [5], windows: [{ start: '22:00', end: '06:00' }] };
  const CN = 480;
  const NY = -300;
  /** An instant given as local time in a zone `offset` minutes east of UTC. */
  const local = (text: string, offset: number) => Date.parse(`${text}Z`) - offset * 60_000;

  it('runs a window past midnight into the next day, belonging to the day it starts on', () => {
    // 2026-03-06 is a Friday.
    expect(activeAt(night, local('2026-03-06T21:59:00', CN), CN)).toBe(false);
    expect(activeAt(night, local('2026-03-06T22:00:00', CN), CN)).toBe(true);
    expect(activeAt(night, local('2026-03-07T03:00:00', CN), CN)).toBe(true); // Saturday morning, Friday's window
    expect(activeAt(night, local('2026-03-07T06:00:00', CN), CN)).toBe(false); // the end is not in the window
    expect(activeAt(night, local('2026-03-07T22:30:00', CN), CN)).toBe(false); // Saturday has no window
    expect(activeAt(night, local('2026-03-06T03:00:00', CN), CN)).toBe(false); // Thursday's night is not scheduled
    expect(windowsOn(night, '2026-03-06', CN)).toEqual([{ start: local('2026-03-06T22:00:00', CN), end: local('2026-03-07T06:00:00', CN) }]);
    expect(windowsOn(night, '2026-03-07', CN)).toEqual([]);
  });

  it('keeps to the days of the week and several windows a day', () => {
    const office = { days: [1, 2, 3, 4, 5], windows: [{ start: '08:30', end: '12:00' }, { start: '13:30', end: '17:30' }] };
    expect(activeAt(office, local('2026-03-02T09:00:00', CN), CN)).toBe(true); // Monday
    expect(activeAt(office, local('2026-03-02T12:30:00', CN), CN)).toBe(false); // lunch
    expect(activeAt(office, local('2026-03-02T13:30:00', CN), CN)).toBe(true);
    expect(activeAt(office, local('2026-03-08T09:00:00', CN), CN)).toBe(false); // Sunday
    expect(activeAt(null, local('2026-03-08T09:00:00', CN), CN)).toBe(true); // no schedule: always
  });

  it('reads days and windows in the owner time zone (+8 and -5)', () => {
    const monday = { days: [1], windows: [{ start: '09:00', end: '10:00' }] };
    // 01:30 UTC on Monday is 09:30 Monday in +8 and 20:30 Sunday in -5.
    const t = Date.parse('2026-03-02T01:30:00Z');
    expect(localDay(t, CN)).toBe('2026-03-02');
    expect(localDay(t, NY)).toBe('2026-03-01');
    expect(activeAt(monday, t, CN)).toBe(true);
    expect(activeAt(monday, t, NY)).toBe(false);
    // 14:30 UTC on Monday is 09:30 Monday in -5 and 22:30 Monday in +8.
    const u = Date.parse('2026-03-02T14:30:00Z');
    expect(activeAt(monday, u, NY)).toBe(true);
    expect(activeAt(monday, u, CN)).toBe(false);
    // A night window in -5: Sunday 23:00 to Monday 01:00 local is 04:00 to 06:00 UTC on Monday.
    const sundayNight = { days: [0], windows: [{ start: '23:00', end: '01:00' }] };
    expect(activeAt(sundayNight, Date.parse('2026-03-02T05:00:00Z'), NY)).toBe(true);
    expect(activeAt(sundayNight, Date.parse('2026-03-02T06:00:00Z'), NY)).toBe(false);
  });
});
