import { describe, expect, it } from 'vitest';
import { STATUS, type DeviceRecord } from '../src/map/deviceStore';
import { abbreviate, ATLAS_COLORS, clusterStep, DevicePoints, HIDDEN, hitTest, iconOf, latOf, lonOf, mercatorX, mercatorY, slotsIn } from '../src/map/devicePoints';
import { packClusters } from '../src/map/deviceLayer';
import { ROLE_SHAPES } from '../src/map/icons';

const rec = (id: number, lon: number | null, lat: number | null, status: 0 | 1 | 2 = 1, color: string | null = 'orange', shape: string | null = 'star'): DeviceRecord => ({
  id,
  imei: String(860000000000000 + id),
  name: `D${id}`,
  lon,
  lat,
  status,
  lastSeen: null,
  color,
  shape,
});

describe('device points', () => {
  it('projects to Web Mercator and back', () => {
    expect(mercatorX(-180)).toBe(0);
    expect(mercatorX(180)).toBe(1);
    expect(mercatorY(0)).toBeCloseTo(0.5, 12);
    expect(lonOf(mercatorX(114.06))).toBeCloseTo(114.06, 9);
    expect(latOf(mercatorY(22.55))).toBeCloseTo(22.55, 9);
    expect(mercatorY(60)).toBeLessThan(mercatorY(10));
  });

  it('picks the atlas cell of a role: row by shape, column by colour, grey offline, red in SOS', () => {
    const cols = ATLAS_COLORS.length;
    const star = ROLE_SHAPES.indexOf('star');
    expect(iconOf(STATUS.online, 'orange', 'star')).toBe(star * cols + ATLAS_COLORS.indexOf('orange'));
    expect(iconOf(STATUS.offline, 'orange', 'star')).toBe(star * cols + ATLAS_COLORS.indexOf('grey'));
    expect(iconOf(STATUS.sos, 'green', 'square')).toBe(ROLE_SHAPES.indexOf('square') * cols + ATLAS_COLORS.indexOf('red'));
    // Unknown shape: circle; a hex colour: the nearest named one.
    expect(iconOf(STATUS.online, '#52c41b', 'hexagon')).toBe(ROLE_SHAPES.indexOf('circle') * cols + ATLAS_COLORS.indexOf('green'));
  });

  it('packs positions in high and low float32 parts that add up to the Mercator position', () => {
    const p = new DevicePoints();
    p.load([rec(7, 114.0612345, 22.5412345), rec(9, null, null)], 2);
    expect(p.count).toBe(2);
    expect(p.slot.get(9)).toBe(1);
    const x = p.gpuPos[0]! + p.gpuPos[2]!;
    expect(Math.abs(x - mercatorX(114.0612345))).toBeLessThan(1e-12);
    // float32 alone would be off by metres at street level; the low part brings it back.
    expect(Math.abs(p.gpuPos[0]! - mercatorX(114.0612345))).toBeGreaterThan(0);
    expect(p.located(0)).toBe(true);
    expect(p.located(1)).toBe(false);
    expect(p.gpuAttr[3]).toBe(HIDDEN);
    expect(Number.isNaN(p.lon[1]!)).toBe(true);
  });

  it('widens the dirty range with each update and hands it out once', () => {
    const p = new DevicePoints();
    p.load([1, 2, 3, 4, 5].map((i) => rec(i, 100 + i, 20)), 5);
    expect(p.takeDirty()).toEqual([0, 5]);
    expect(p.takeDirty()).toBeNull();
    expect(p.update(rec(4, 110, 21))).toBe(true);
    expect(p.update(rec(2, 111, 21))).toBe(true);
    expect(p.update(rec(99, 111, 21))).toBe(false);
    expect(p.takeDirty()).toEqual([1, 4]);
    expect(p.lon[3]).toBe(110);
  });

  it('redraws the icon when the status changes (grey offline, red in SOS)', () => {
    const p = new DevicePoints();
    p.load([rec(1, 100, 20, STATUS.online, 'green', 'square')], 1);
    expect(p.gpuAttr[0]).toBe(iconOf(STATUS.online, 'green', 'square'));
    p.update(rec(1, 100.1, 20, STATUS.offline, 'green', 'square'));
    expect(p.gpuAttr[0]).toBe(iconOf(STATUS.offline, 'green', 'square'));
    p.update(rec(1, 100.2, 20, STATUS.sos, 'green', 'square'));
    expect(p.gpuAttr[0]).toBe(iconOf(STATUS.sos, 'green', 'square'));
    expect(p.gpuAttr[1]).toBe(STATUS.sos);
    // A device without a position, then located: drawn with its icon.
    p.load([rec(2, null, null, STATUS.online, 'orange', 'star')], 1);
    p.update(rec(2, 100, 20, STATUS.online, 'orange', 'star'));
    expect(p.gpuAttr[0]).toBe(iconOf(STATUS.online, 'orange', 'star'));
    expect(p.located(0)).toBe(true);
  });

  it('counts devices in SOS as they enter and leave it', () => {
    const p = new DevicePoints();
    p.load([rec(1, 100, 20, STATUS.sos), rec(2, 101, 20)], 2);
    expect(p.sos).toBe(1);
    p.update(rec(2, 101, 20, STATUS.sos));
    expect(p.sos).toBe(2);
    p.update(rec(1, 100, 20, STATUS.online));
    p.update(rec(2, 101, 20, STATUS.sos));
    expect(p.sos).toBe(1);
  });

  it('applies the projection of the tiles', () => {
    const p = new DevicePoints((lon, lat) => [lon + 1, lat + 2]);
    p.load([rec(1, 100, 20)], 1);
    expect(p.lon[0]).toBe(101);
    expect(p.lat[0]).toBe(22);
    expect(p.x[0]).toBe(mercatorX(101));
  });

  it('hits the nearest device within the radius, among the given slots only', () => {
    const p = new DevicePoints();
    p.load([rec(1, 100, 20), rec(2, 100.001, 20), rec(3, 100.1, 20), rec(4, null, null)], 4);
    const x = mercatorX(100.0009);
    const y = mercatorY(20);
    const r = mercatorX(100.01) - mercatorX(100);
    expect(hitTest(p, x, y, r)).toBe(1);
    expect(hitTest(p, x, y, r, [0, 2])).toBe(0);
    expect(hitTest(p, x, y, r, [2])).toBe(-1);
    expect(hitTest(p, mercatorX(120), y, r)).toBe(-1);
  });

  it('lists the slots in a box, up to one more than the limit', () => {
    const p = new DevicePoints();
    p.load(Array.from({ length: 10 }, (_, i) => rec(i + 1, 100 + i, 20)), 10);
    const box = { x0: mercatorX(101.5), x1: mercatorX(105.5), y0: mercatorY(21), y1: mercatorY(19) };
    expect(slotsIn(p, box, 250)).toEqual([2, 3, 4, 5]);
    expect(slotsIn(p, box, 2)).toEqual([2, 3, 4]);
    expect(slotsIn(p, box, 250, [0, 3, 5, 9])).toEqual([3, 5]);
  });
});

describe('clusters', () => {
  it('abbreviates counts as the labels show them', () => {
    expect(abbreviate(999)).toBe('999');
    expect(abbreviate(1234)).toBe('1.2k');
    expect(abbreviate(15400)).toBe('15k');
  });

  it('steps colour and size with the count', () => {
    expect(clusterStep(10)).toEqual({ color: '#52c41a', radius: 14 });
    expect(clusterStep(50).radius).toBe(18);
    expect(clusterStep(4999).color).toBe('#fa8c16');
    expect(clusterStep(8000)).toEqual({ color: '#f5222d', radius: 28 });
  });

  it('packs a cluster as position parts, colour and radius', () => {
    const v = packClusters(new Float64Array([114.06, 22.55, 600, 17]));
    expect(v).toHaveLength(8);
    expect(v[0]! + v[2]!).toBeCloseTo(mercatorX(114.06), 12);
    expect(v[1]! + v[3]!).toBeCloseTo(mercatorY(22.55), 12);
    expect([...v.slice(4, 7)].map((c) => Math.round(c * 255))).toEqual([0xfa, 0x8c, 0x16]);
    expect(v[7]).toBe(23);
  });
});
