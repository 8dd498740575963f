// Fence geometry and the enter/exit state machine (pure): boundary positions count as inside.
import { describe, expect, it } from 'vitest';
import { contains, haversineMeters, insideCircle, insidePolygon, step, type FenceShape, type FenceStateEntry } from '../src/rules/fence.js';

const center = { lat: 22.5405, lon: 113.9345 };
/** The point `meters` north of `from` (along a meridian, exact for the haversine sphere). */
const north = (from: { lat: number; lon: number }, meters: number) => ({ lat: from.lat + (meters / 6_371_008.8) * (180 / Math.PI), lon: from.lon });
const square = [
  { lat: 0, lon: 0 },
  { lat: 0, lon: 1 },
  { lat: 1, lon: 1 },
  { lat: 1, lon: 0 },
];

describe('circle fences', () => {
  it('measures distances by haversine', () => {
    // One degree of latitude is about 111.2 km.
    expect(haversineMeters({ lat: 0, lon: 0 }, { lat: 1, lon: 0 })).toBeCloseTo(111_195, -1);
    expect(haversineMeters(center, center)).toBe(0);
  });
  it('counts a point exactly on the circle as inside, a centimetre beyond as outside', () => {
    expect(insideCircle(north(center, 300), center, 300)).toBe(true);
    expect(insideCircle(north(center, 299.99), center, 300)).toBe(true);
    expect(insideCircle(north(center, 300.01), center, 300)).toBe(false);
    expect(insideCircle(center, center, 300)).toBe(true);
  });
});

describe('polygon fences', () => {
  it('finds points inside and outside by ray casting', () => {
    expect(insidePolygon({ lat: 0.5, lon: 0.5 }, square)).toBe(true);
    expect(insidePolygon({ lat: 1.5, lon: 0.5 }, square)).toBe(false);
    expect(insidePolygon({ lat: 0.5, lon: -0.0001 }, square)).toBe(false);
  });
  it('counts edges and vertices as inside', () => {
    expect(insidePolygon({ lat: 0, lon: 0.5 }, square)).toBe(true);
    expect(insidePolygon({ lat: 0.5, lon: 1 }, square)).toBe(true);
    expect(insidePolygon({ lat: 1, lon: 1 }, square)).toBe(true);
    expect(insidePolygon({ lat: 0, lon: 0 }, square)).toBe(true);
  });
  it('handles concave shapes and a ray through a vertex', () => {
    // A "U": the notch between the arms is outside.
    const u = [
      { lat: 0, lon: 0 },
      { lat: 0, lon: 3 },
      { lat: 3, lon: 3 },
      { lat: 3, lon: 2 },
      { lat: 1, lon: 2 },
      { lat: 1, lon: 1 },
      { lat: 3, lon: 1 },
      { lat: 3, lon: 0 },
    ];
    expect(insidePolygon({ lat: 2, lon: 1.5 }, u)).toBe(false);
    expect(insidePolygon({ lat: 2, lon: 0.5 }, u)).toBe(true);
    expect(insidePolygon({ lat: 1, lon: 1.5 }, u)).toBe(true); // on the notch's bottom edge
    const diamond = [
      { lat: 0, lon: 1 },
      { lat: 1, lon: 2 },
      { lat: 2, lon: 1 },
      { lat: 1, lon: 0 },
    ];
    expect(insidePolygon({ lat: 1, lon: 1 }, diamond)).toBe(true);
    expect(insidePolygon({ lat: 1, lon: -0.5 }, diamond)).toBe(false); // ray passes the vertex (1, 0)
  });
  it('is never inside fewer than 3 points', () => {
    expect(insidePolygon({ lat: 0, lon: 0 }, square.slice(0, 2))).toBe(false);
  });
});

describe('the enter/exit state machine', () => {
  const fences: { id: number; shape: FenceShape }[] = [
    { id: 1, shape: { kind: 'circle', center, radius: 100 } },
    { id: 2, shape: { kind: 'polygon', points: square } },
  ];
  it('sets the state on the first position without a transition, then reports each crossing once', () => {
    const state = new Map<number, FenceStateEntry>();
    let r = step(fences, state, north(center, 50), 1000);
    expect(r.transitions).toEqual([]);
    expect(state.get(1)).toEqual({ inside: true, time: 1000 });
    expect(state.get(2)!.inside).toBe(false);
    r = step(fences, state, north(center, 150), 2000);
    expect(r.transitions).toEqual([{ fenceId: 1, kind: 'exit' }]);
    r = step(fences, state, north(center, 160), 3000);
    expect(r.transitions).toEqual([]);
    // Exactly on the boundary: back inside.
    r = step(fences, state, north(center, 100), 4000);
    expect(r.transitions).toEqual([{ fenceId: 1, kind: 'enter' }]);
    r = step(fences, state, { lat: 0, lon: 0.5 }, 5000);
    expect(r.transitions).toEqual([
      { fenceId: 1, kind: 'exit' },
      { fenceId: 2, kind: 'enter' },
    ]);
  });
  it('ignores a position older than the one that set the state', () => {
    const state = new Map<number, FenceStateEntry>([[1, { inside: true, time: 5000 }]]);
    const r = step(fences.slice(0, 1), state, north(center, 500), 4000);
    expect(r).toEqual({ transitions: [], changed: [] });
    expect(state.get(1)!.inside).toBe(true);
  });
  it('evaluates either shape through contains()', () => {
    expect(contains(fences[0]!.shape, center)).toBe(true);
    expect(contains(fences[1]!.shape, { lat: 2, lon: 2 })).toBe(false);
  });
});
