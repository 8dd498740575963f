// The monitor map's devices as typed arrays: one slot per device (in load order), its projected
// position (degrees and Web Mercator), and the bytes the WebGL layer draws from. A realtime batch
// rewrites the slots it touches and widens a dirty range; the layer uploads that range once per frame.
import { STATUS, type DeviceRecord } from './deviceStore';
import { colorKey, ROLE_COLORS, ROLE_SHAPES, shapeKey } from './icons';

/** Colours of the icon atlas, in column order (grey: offline). */
export const ATLAS_COLORS = Object.keys(ROLE_COLORS);
const COLOR_INDEX = new Map(ATLAS_COLORS.map((c, i) => [c, i]));
const SHAPE_INDEX = new Map<string, number>(ROLE_SHAPES.map((s, i) => [s, i]));
/** No position: not drawn, not hit, not clustered. */
export const HIDDEN = 255;

export type Project = (lon: number, lat: number) => [number, number];

export const mercatorX = (lon: number) => (180 + lon) / 360;
export function mercatorY(lat: number): number {
  const s = Math.sin((Math.max(-85.051129, Math.min(85.051129, lat)) * Math.PI) / 180);
  return 0.5 - (0.25 * Math.log((1 + s) / (1 - s))) / Math.PI;
}
export const lonOf = (x: number) => x * 360 - 180;
export const latOf = (y: number) => (360 / Math.PI) * Math.atan(Math.exp((180 - y * 360) * (Math.PI / 180))) - 90;

/** Atlas cell of a device: row = shape, column = colour; SOS is drawn red, offline grey. */
export function iconOf(status: number, color: string | null, shape: string | null): number {
  const c = status === STATUS.sos ? 'red' : status === STATUS.offline ? 'grey' : colorKey(color);
  return SHAPE_INDEX.get(shapeKey(shape))! * ATLAS_COLORS.length + COLOR_INDEX.get(c)!;
}

export class DevicePoints {
  count = 0;
  ids = new Int32Array(0);
  readonly slot = new Map<number, number>();
  /** Projected degrees (GCJ-02 when the tiles need it); NaN without a position. */
  lon = new Float64Array(0);
  lat = new Float64Array(0);
  /** Web Mercator, 0..1. */
  x = new Float64Array(0);
  y = new Float64Array(0);
  /** Per slot: x and y split in a float32 high part and the remainder (4 floats), for precision at street level. */
  gpuPos = new Float32Array(0);
  /** Per slot: atlas cell, status (HIDDEN without a position). */
  gpuAttr = new Uint8Array(0);
  /** The slot's atlas cell is set (for its status). */
  private iconed = new Uint8Array(0);
  /** Slots changed since the last upload: [dirtyFrom, dirtyTo). */
  dirtyFrom = Infinity;
  dirtyTo = -Infinity;
  /** Devices in SOS with a position. */
  sos = 0;

  constructor(private project: Project = (lon, lat) => [lon, lat]) {}

  /** Rebuilds every slot from the records (in order). */
  load(records: Iterable<DeviceRecord>, size: number): void {
    this.count = size;
    this.ids = new Int32Array(size);
    this.lon = new Float64Array(size);
    this.lat = new Float64Array(size);
    this.x = new Float64Array(size);
    this.y = new Float64Array(size);
    this.gpuPos = new Float32Array(size * 4);
    this.gpuAttr = new Uint8Array(size * 2);
    this.iconed = new Uint8Array(size);
    this.slot.clear();
    this.sos = 0;
    let i = 0;
    for (const r of records) {
      if (i >= size) break;
      this.ids[i] = r.id;
      this.slot.set(r.id, i);
      this.write(i, r);
      i++;
    }
    this.count = i;
    this.dirtyFrom = 0;
    this.dirtyTo = i;
  }

  /** Rewrites the slot of one record; false for a device not loaded. */
  update(r: DeviceRecord): boolean {
    const i = this.slot.get(r.id);
    if (i === undefined) return false;
    if (this.gpuAttr[i * 2 + 1] === STATUS.sos) this.sos--;
    this.write(i, r);
    if (i < this.dirtyFrom) this.dirtyFrom = i;
    if (i + 1 > this.dirtyTo) this.dirtyTo = i + 1;
    return true;
  }

  takeDirty(): [number, number] | null {
    if (this.dirtyTo <= this.dirtyFrom) return null;
    const range: [number, number] = [this.dirtyFrom, this.dirtyTo];
    this.dirtyFrom = Infinity;
    this.dirtyTo = -Infinity;
    return range;
  }

  private write(i: number, r: DeviceRecord): void {
    const located = r.lat !== null && r.lon !== null;
    const a = i * 2;
    if (!located) {
      this.lon[i] = this.lat[i] = this.x[i] = this.y[i] = NaN;
      this.gpuAttr[a] = 0;
      this.gpuAttr[a + 1] = HIDDEN;
      return;
    }
    const [lon, lat] = this.project(r.lon!, r.lat!);
    const x = mercatorX(lon);
    const y = mercatorY(lat);
    this.lon[i] = lon;
    this.lat[i] = lat;
    this.x[i] = x;
    this.y[i] = y;
    const p = i * 4;
    const hx = Math.fround(x);
    const hy = Math.fround(y);
    this.gpuPos[p] = hx;
    this.gpuPos[p + 1] = hy;
    this.gpuPos[p + 2] = x - hx;
    this.gpuPos[p + 3] = y - hy;
    // Role colour and shape change with a new list only: the icon follows the status.
    if (this.gpuAttr[a + 1] !== r.status || !this.iconed[i]) {
      this.gpuAttr[a] = iconOf(r.status, r.color, r.shape);
      this.iconed[i] = 1;
    }
    this.gpuAttr[a + 1] = r.status;
    if (r.status === STATUS.sos) this.sos++;
  }

  located(i: number): boolean {
    return this.gpuAttr[i * 2 + 1] !== HIDDEN;
  }
}

/**
 * The slot nearest to (x, y) within `radius` (all in Mercator units), among `slots` when given
 * (the devices drawn singly), else among all; -1 when none.
 */
export function hitTest(points: DevicePoints, x: number, y: number, radius: number, slots?: ArrayLike<number>): number {
  let best = -1;
  let bestD = radius * radius;
  const n = slots ? slots.length : points.count;
  for (let k = 0; k < n; k++) {
    const i = slots ? slots[k]! : k;
    const dx = points.x[i]! - x;
    const dy = points.y[i]! - y;
    const d = dx * dx + dy * dy;
    if (d <= bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

/** Slots inside the Mercator box, up to `limit + 1` (so a caller sees that there are more). */
export function slotsIn(points: DevicePoints, box: { x0: number; y0: number; x1: number; y1: number }, limit: number, slots?: ArrayLike<number>): number[] {
  const out: number[] = [];
  const n = slots ? slots.length : points.count;
  for (let k = 0; k < n && out.length <= limit; k++) {
    const i = slots ? slots[k]! : k;
    const x = points.x[i]!;
    const y = points.y[i]!;
    if (x >= box.x0 && x <= box.x1 && y >= box.y0 && y <= box.y1) out.push(i);
  }
  return out;
}

/** A cluster's count as the label shows it: 999, 1.2k, 15k. */
export function abbreviate(n: number): string {
  if (n >= 10000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${Math.round(n / 100) / 10}k`;
  return String(n);
}

/** Cluster disc of a count: colour and radius (CSS px), steps as in the console's legend. */
export function clusterStep(n: number): { color: string; radius: number } {
  if (n >= 5000) return { color: '#f5222d', radius: 28 };
  if (n >= 500) return { color: '#fa8c16', radius: 23 };
  if (n >= 50) return { color: '#1677ff', radius: 18 };
  return { color: '#52c41a', radius: 14 };
}
