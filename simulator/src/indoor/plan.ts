// Floor plans of a simulated building as PNG images (pngjs): rooms tinted by kind, 0.2 m walls,
// door openings left in the walls and the stair core hatched. The demo seed uploads these as the
// floors' maps, so the plan the console shows is the one the simulated walkers and anchors live on.
import { PNG } from 'pngjs';
import type { Building, Rect, Room } from './building.js';

type Rgb = [number, number, number];

const FILL: Record<Room['kind'], Rgb> = {
  room: [250, 246, 236],
  corridor: [236, 240, 244],
  hall: [238, 246, 232],
  stairs: [228, 228, 234],
};
const WALL: Rgb = [60, 64, 72];
const OUTSIDE: Rgb = [255, 255, 255];
const WALL_M = 0.2;

export interface PlanImage {
  width: number;
  height: number;
  png: Buffer;
}

/** The floor's plan as a PNG of the floor's pixel size. */
export function renderFloorPlan(b: Building, floorId: string): PlanImage {
  const f = b.floors.find((fl) => fl.floorId === floorId);
  if (!f) throw new Error(`no floor ${floorId}`);
  const png = new PNG({ width: f.widthPx, height: f.heightPx, colorType: 2 });
  const mpp = f.metresPerPixel;
  const fill = (r: Rect, c: Rgb, pattern?: (px: number, py: number) => boolean) => {
    const x0 = Math.max(0, Math.round(r.x0 / mpp));
    const x1 = Math.min(f.widthPx, Math.round(r.x1 / mpp));
    const y0 = Math.max(0, Math.round(r.y0 / mpp));
    const y1 = Math.min(f.heightPx, Math.round(r.y1 / mpp));
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        if (pattern && !pattern(x, y)) continue;
        const i = (y * f.widthPx + x) << 2;
        png.data[i] = c[0];
        png.data[i + 1] = c[1];
        png.data[i + 2] = c[2];
        png.data[i + 3] = 255;
      }
    }
  };
  fill({ x0: 0, y0: 0, x1: f.widthPx * mpp, y1: f.heightPx * mpp }, OUTSIDE);
  for (const r of f.rooms) {
    fill(r, FILL[r.kind]);
    // Stairs: diagonal hatching every 0.5 m.
    if (r.kind === 'stairs') fill(r, [170, 170, 182], (px, py) => (px + py) % Math.round(0.5 / mpp) < 2);
  }
  const h = WALL_M / 2;
  for (const r of f.rooms) {
    fill({ x0: r.x0 - h, y0: r.y0 - h, x1: r.x1 + h, y1: r.y0 + h }, WALL);
    fill({ x0: r.x0 - h, y0: r.y1 - h, x1: r.x1 + h, y1: r.y1 + h }, WALL);
    fill({ x0: r.x0 - h, y0: r.y0 - h, x1: r.x0 + h, y1: r.y1 + h }, WALL);
    fill({ x0: r.x1 - h, y0: r.y0 - h, x1: r.x1 + h, y1: r.y1 + h }, WALL);
  }
  // Doorways: the wall cut open, tinted like the corridor.
  for (const d of f.doors) fill({ x0: Math.min(d.x0, d.x1), y0: Math.min(d.y0, d.y1) - h, x1: Math.max(d.x0, d.x1), y1: Math.max(d.y0, d.y1) + h }, FILL.corridor);
  return { width: f.widthPx, height: f.heightPx, png: PNG.sync.write(png) };
}
