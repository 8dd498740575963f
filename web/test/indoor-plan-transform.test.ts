// The plan viewer's maths: image pixels <-> plan metres <-> screen pixels, fitting, zooming around
// the pointer, and the scale from two points and a distance.
import { describe, expect, it } from 'vitest';
import {
  fitView,
  imageToScreen,
  metresToPixels,
  metresToScreen,
  panBy,
  pixelsToMetres,
  planTransform,
  scaleFromTwoPoints,
  scaleOf,
  screenToImage,
  screenToMetres,
  wheelFactor,
  zoomAt,
} from '../src/indoor/planTransform';

describe('plan transform', () => {
  it('fits a 1000×800 plan in a 600×600 viewer: width-limited, centred vertically', () => {
    const v = fitView(1000, 800, 600, 600, 0);
    expect(v.zoom).toBeCloseTo(0.6, 12);
    expect(v.offsetX).toBeCloseTo(0, 12);
    // 800 × 0.6 = 480 high: 60 px above and below.
    expect(v.offsetY).toBeCloseTo(60, 12);
    const padded = fitView(1000, 800, 600, 600, 20);
    expect(padded.zoom).toBeCloseTo(0.56, 12);
    expect(padded.offsetX).toBeCloseTo(20, 12);
    expect(fitView(0, 800, 600, 600)).toEqual({ zoom: 1, offsetX: 0, offsetY: 0 });
  });

  it('converts pixels, metres and screen points both ways', () => {
    const mpp = 0.05;
    expect(pixelsToMetres([200, 100], mpp)).toEqual([10, 5]);
    expect(metresToPixels([10, 5], mpp)).toEqual([200, 100]);
    const view = { zoom: 2, offsetX: 30, offsetY: -40 };
    expect(imageToScreen(view, [200, 100])).toEqual([430, 160]);
    expect(screenToImage(view, [430, 160])).toEqual([200, 100]);
    expect(metresToScreen(view, mpp, [10, 5])).toEqual([430, 160]);
    const back = screenToMetres(view, mpp, [430, 160]);
    expect(back[0]).toBeCloseTo(10, 12);
    expect(back[1]).toBeCloseTo(5, 12);
  });

  it('gives the plan-metres-to-screen matrix the layers draw with', () => {
    const t = planTransform({ zoom: 2, offsetX: 30, offsetY: -40 }, 0.05);
    expect(t.pixelsPerMetre).toBeCloseTo(40, 12);
    expect(t.metresPerScreenPixel).toBeCloseTo(0.025, 12);
    const [a, b, c, d, e, f] = t.matrix;
    const x = 10;
    const y = 5;
    expect([a * x + c * y + e, b * x + d * y + f]).toEqual(metresToScreen({ zoom: 2, offsetX: 30, offsetY: -40 }, 0.05, [x, y]));
  });

  it('zooms around the pointer: the image point under it stays put, within the limits', () => {
    const v = { zoom: 1, offsetX: 10, offsetY: 20 };
    const anchor = [300, 200] as const;
    const under = screenToImage(v, anchor);
    const z = zoomAt(v, 2, anchor, 0.1, 10);
    expect(z.zoom).toBe(2);
    const still = screenToImage(z, anchor);
    expect(still[0]).toBeCloseTo(under[0], 10);
    expect(still[1]).toBeCloseTo(under[1], 10);
    expect(zoomAt(v, 100, anchor, 0.1, 10).zoom).toBe(10);
    expect(zoomAt(v, 0.001, anchor, 0.1, 10).zoom).toBe(0.1);
  });

  it('pans by screen pixels, and a wheel notch towards the user zooms out', () => {
    expect(panBy({ zoom: 3, offsetX: 1, offsetY: 2 }, 5, -7)).toEqual({ zoom: 3, offsetX: 6, offsetY: -5 });
    expect(wheelFactor(-100)).toBeGreaterThan(1.15);
    expect(wheelFactor(100)).toBeLessThan(1 / 1.15);
    expect(wheelFactor(-100) * wheelFactor(100)).toBeCloseTo(1, 12);
    // Lines (Firefox) count about as much as pixels.
    expect(wheelFactor(-3, 1)).toBeCloseTo(wheelFactor(-99), 12);
  });

  it('takes the scale from two points and a distance', () => {
    // 300 px apart horizontally, 400 px vertically: 500 px for 25 m.
    expect(scaleFromTwoPoints([100, 100], [400, 500], 25)).toBeCloseTo(0.05, 12);
    expect(scaleFromTwoPoints([1, 1], [1, 1], 5)).toBeNull();
    expect(scaleFromTwoPoints([0, 0], [10, 0], 0)).toBeNull();
    expect(scaleFromTwoPoints([0, 0], [10, 0], Number.NaN)).toBeNull();
  });

  it('works in pixels while a floor has no scale', () => {
    expect(scaleOf(null)).toBe(1);
    expect(scaleOf(0)).toBe(1);
    expect(scaleOf(0.02)).toBe(0.02);
  });
});
