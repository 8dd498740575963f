// Fence geometry and the enter/exit state machine, pure (no I/O). A position on the boundary
// counts as inside: a circle by haversine distance <= radius (with a millimetre of tolerance for
// floating point), a polygon by ray casting with an explicit on-edge test first.

export interface LatLon {
  lat: number;
  lon: number;
}

export type FenceShape =
  | { kind: 'circle'; center: LatLon; radius: number }
  | { kind: 'polygon'; points: LatLon[] };

const EARTH_RADIUS_M = 6_371_008.8;
/** Metres of tolerance on a circle's edge, and degrees of tolerance on a polygon's edge. */
const CIRCLE_EPS_M = 1e-3;
const EDGE_EPS_DEG = 1e-9;

const rad = (d: number) => (d * Math.PI) / 180;

export function haversineMeters(a: LatLon, b: LatLon): number {
  const dLat = rad(b.lat - a.lat);
  const dLon = rad(b.lon - a.lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function insideCircle(p: LatLon, center: LatLon, radius: number): boolean {
  return haversineMeters(p, center) <= radius + CIRCLE_EPS_M;
}

/** True when p lies on the segment a-b (within the tolerance), in lon/lat coordinates. */
function onSegment(p: LatLon, a: LatLon, b: LatLon): boolean {
  const cross = (b.lon - a.lon) * (p.lat - a.lat) - (b.lat - a.lat) * (p.lon - a.lon);
  const len = Math.hypot(b.lon - a.lon, b.lat - a.lat);
  if (Math.abs(cross) > EDGE_EPS_DEG * Math.max(len, 1)) return false;
  return (
    p.lon >= Math.min(a.lon, b.lon) - EDGE_EPS_DEG &&
    p.lon <= Math.max(a.lon, b.lon) + EDGE_EPS_DEG &&
    p.lat >= Math.min(a.lat, b.lat) - EDGE_EPS_DEG &&
    p.lat <= Math.max(a.lat, b.lat) + EDGE_EPS_DEG
  );
}

/** Ray casting on lon (x) / lat (y); vertices and edges count as inside. */
export function insidePolygon(p: LatLon, points: LatLon[]): boolean {
  const n = points.length;
  if (n < 3) return false;
  for (let i = 0, j = n - 1; i < n; j = i++) if (onSegment(p, points[j]!, points[i]!)) return true;
  let inside = false;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = points[i]!;
    const b = points[j]!;
    if (a.lat > p.lat !== b.lat > p.lat) {
      const x = ((b.lon - a.lon) * (p.lat - a.lat)) / (b.lat - a.lat) + a.lon;
      if (p.lon < x) inside = !inside;
    }
  }
  return inside;
}

export function contains(shape: FenceShape, p: LatLon): boolean {
  return shape.kind === 'circle' ? insideCircle(p, shape.center, shape.radius) : insidePolygon(p, shape.points);
}

export interface FenceStateEntry {
  inside: boolean;
  /** Device time (ms) of the position that set it. */
  time: number;
}

export interface Transition {
  fenceId: number;
  kind: 'enter' | 'exit';
}

/**
 * Folds one position into a device's per-fence state. The first position seen for a fence only
 * sets where the device is (no transition: nothing was crossed that we saw); a position older
 * than the one that set the state is ignored, so a buffered upload cannot flip it back.
 */
export function step(
  fences: { id: number; shape: FenceShape }[],
  state: Map<number, FenceStateEntry>,
  p: LatLon,
  time: number,
): { transitions: Transition[]; changed: number[] } {
  const transitions: Transition[] = [];
  const changed: number[] = [];
  for (const f of fences) {
    const prev = state.get(f.id);
    if (prev && time < prev.time) continue;
    const inside = contains(f.shape, p);
    if (prev && prev.inside !== inside) transitions.push({ fenceId: f.id, kind: inside ? 'enter' : 'exit' });
    if (!prev || prev.inside !== inside || prev.time !== time) {
      state.set(f.id, { inside, time });
      changed.push(f.id);
    }
  }
  return { transitions, changed };
}
