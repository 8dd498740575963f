// What the scene pages check of a file before uploading it (a PNG's size from its header, an SVG
// by its content, not its name), and the directions of AOA locators on a plan.
import { describe, expect, it } from 'vitest';
import { checkFloorPlan, checkIcon, checkSceneMap, looksLikeSvg, pngSize } from '../src/pages/scene/files';
import { headingBetween, headingVector } from '../src/indoor/AnchorMarkers';
import { roundScale } from '../src/pages/scene/ScaleTool';

function pngHeader(width: number, height: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return b;
}

describe('scene files', () => {
  it('reads a PNG\'s pixel size from its header and refuses other bytes', () => {
    expect(pngSize(pngHeader(1000, 800))).toEqual({ width: 1000, height: 800 });
    const notPng = pngHeader(1000, 800);
    notPng[1] = 0x51;
    expect(pngSize(notPng)).toBeNull();
    expect(pngSize(new Uint8Array(10))).toBeNull();
  });

  it('knows an SVG by its start, with or without a prolog, doctype or comment', () => {
    expect(looksLikeSvg('<svg xmlns="http://www.w3.org/2000/svg"></svg>')).toBe(true);
    expect(looksLikeSvg('<?xml version="1.0" encoding="UTF-8"?>\n<!-- drawn by hand -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg>')).toBe(true);
    expect(looksLikeSvg('<html><svg></svg></html>')).toBe(false);
    expect(looksLikeSvg('<svgfoo>')).toBe(false);
  });

  it('checks a scene map, a plan and an icon by content and size', async () => {
    expect(await checkSceneMap(new File(['<svg></svg>'], 'map.png'))).toBeNull();
    expect(await checkSceneMap(new File(['GIF89a'], 'map.svg'))).toEqual({ key: 'scene.mapType' });
    expect(await checkSceneMap(new File([new Uint8Array(6 * 1024 * 1024)], 'big.svg'))).toMatchObject({ key: 'scene.mapTooLarge' });
    expect(await checkFloorPlan(new File([pngHeader(1200, 900)], 'p.png'))).toEqual({ width: 1200, height: 900 });
    expect(await checkFloorPlan(new File(['<svg></svg>'], 'p.png'))).toEqual({ refusal: { key: 'scene.planType' } });
    expect(await checkFloorPlan(new File([pngHeader(800, 8001)], 'p.png'))).toMatchObject({ refusal: { key: 'scene.planTooLarge' } });
    expect(await checkIcon(new File([pngHeader(64, 64)], 'i.png'))).toBeNull();
    expect(await checkIcon(new File(['GIF89a'], 'i.svg'))).toMatchObject({ key: 'scene.iconInvalid' });
    expect(await checkIcon(new File(['<svg/>'], 'i.svg'))).toBeNull();
    expect(await checkIcon(new File(['<svg></svg>'], 'i.svg'))).toBeNull();
  });

  it('keeps six significant digits of a scale', () => {
    expect(roundScale(20 / 487.3)).toBe(0.0410425);
    expect(roundScale(0.04)).toBe(0.04);
  });

  it('turns an AOA heading into a direction on the plan (clockwise on screen from +x, y down) and back', () => {
    const [x, y] = headingVector(90);
    expect(x).toBeCloseTo(0, 12);
    expect(y).toBeCloseTo(1, 12);
    expect(headingBetween([0, 0], [0, 5])).toBe(90);
    expect(headingBetween([0, 0], [-1, 0])).toBe(180);
    expect(headingBetween([2, 2], [3, 1])).toBeCloseTo(-45, 12);
  });
});
