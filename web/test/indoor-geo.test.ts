// A floor plan on the earth: the contract's convention (origin = the image's top-left corner,
// rotation clockwise of the plan's +x axis from east, y down the image), round trips between plan
// metres and WGS-84, the corners a map draws the plan with, moving and turning a placed plan.
import { describe, expect, it } from 'vitest';
import {
  EARTH_RADIUS_M,
  eastNorthOf,
  geoCentredAt,
  lonLatToPlan,
  moveBy,
  normaliseRotation,
  onPlan,
  planCentre,
  planCorners,
  planToEastNorth,
  planToLonLat,
  rotateAboutCentre,
  type Georeference,
} from '../src/indoor/geo';

const metresPerDegreeLat = (EARTH_RADIUS_M * Math.PI) / 180;
const geo: Georeference = { OriginLat: 22.54, OriginLon: 113.95, Rotation: 30 };

describe('plan georeference', () => {
  it('without rotation, +x is east and +y (down the image) is south', () => {
    const g = { OriginLat: 22.54, OriginLon: 113.95, Rotation: 0 };
    const [lon, lat] = planToLonLat(g, 0, 100);
    expect(lon).toBeCloseTo(113.95, 12);
    expect((22.54 - lat) * metresPerDegreeLat).toBeCloseTo(100, 6);
    const [lon2, lat2] = planToLonLat(g, 100, 0);
    expect(lat2).toBeCloseTo(22.54, 12);
    const east = eastNorthOf(22.54, 113.95, lon2, lat2)[0];
    expect(east).toBeCloseTo(100, 6);
    // A degree of longitude is shorter by cos(latitude).
    expect((lon2 - 113.95) * metresPerDegreeLat * Math.cos((22.54 * Math.PI) / 180)).toBeCloseTo(100, 6);
  });

  it('turns clockwise: at 90° the plan\'s +x points south and its +y west', () => {
    const [e1, n1] = planToEastNorth(90, 10, 0);
    expect(e1).toBeCloseTo(0, 12);
    expect(n1).toBeCloseTo(-10, 12);
    const [e2, n2] = planToEastNorth(90, 0, 10);
    expect(e2).toBeCloseTo(-10, 12);
    expect(n2).toBeCloseTo(0, 12);
    // 30° clockwise: +x goes east and a little south.
    const [e3, n3] = planToEastNorth(30, 10, 0);
    expect(e3).toBeCloseTo(10 * Math.cos(Math.PI / 6), 12);
    expect(n3).toBeCloseTo(-5, 12);
  });

  it('goes from plan metres to WGS-84 and back to within a millimetre', () => {
    for (const [x, y] of [
      [0, 0],
      [12.5, 40],
      [250, 180],
      [-3, 7],
    ] as const) {
      const [lon, lat] = planToLonLat(geo, x, y);
      const [bx, by] = lonLatToPlan(geo, lon, lat);
      expect(Math.abs(bx - x)).toBeLessThan(1e-3);
      expect(Math.abs(by - y)).toBeLessThan(1e-3);
    }
  });

  it('gives the corners in image order, the sides as long as the plan and square to each other', () => {
    const [tl, tr, br, bl] = planCorners(geo, 50, 40);
    expect(tl).toEqual([geo.OriginLon, geo.OriginLat]);
    const en = (p: [number, number]) => eastNorthOf(geo.OriginLat, geo.OriginLon, p[0], p[1]);
    const [trE, trN] = en(tr);
    const [blE, blN] = en(bl);
    expect(Math.hypot(trE, trN)).toBeCloseTo(50, 3);
    expect(Math.hypot(blE, blN)).toBeCloseTo(40, 3);
    expect(trE * blE + trN * blN).toBeCloseTo(0, 3);
    const [brE, brN] = en(br);
    expect(brE).toBeCloseTo(trE + blE, 3);
    expect(brN).toBeCloseTo(trN + blN, 3);
  });

  it('centres a plan on a point, turns it about its centre and moves it with a drag', () => {
    const centre: [number, number] = [113.95, 22.54];
    const g = geoCentredAt(centre, 60, 30, 45);
    const c = planCentre(g, 60, 30);
    expect(c[0]).toBeCloseTo(centre[0], 8);
    expect(c[1]).toBeCloseTo(centre[1], 8);
    const turned = rotateAboutCentre(g, 60, 30, -20);
    expect(turned.Rotation).toBe(-20);
    const c2 = planCentre(turned, 60, 30);
    expect(c2[0]).toBeCloseTo(centre[0], 8);
    expect(c2[1]).toBeCloseTo(centre[1], 8);
    const moved = moveBy(g, [113.95, 22.54], [113.951, 22.5405]);
    const c3 = planCentre(moved, 60, 30);
    expect(c3[0]).toBeCloseTo(113.951, 8);
    expect(c3[1]).toBeCloseTo(22.5405, 8);
    expect(moved.Rotation).toBe(45);
  });

  it('knows a point on the plan, and keeps rotations in (-180, 180]', () => {
    expect(onPlan(geo, 50, 40, planToLonLat(geo, 25, 20))).toBe(true);
    expect(onPlan(geo, 50, 40, planToLonLat(geo, 55, 20))).toBe(false);
    expect(normaliseRotation(190)).toBe(-170);
    expect(normaliseRotation(-180)).toBe(180);
    expect(normaliseRotation(360)).toBe(0);
    expect(normaliseRotation(-30)).toBe(-30);
  });
});
