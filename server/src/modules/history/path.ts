// Path geometry of location history: length, simplification to a point budget, and stops.

export interface PathPoint {
  lat: number;
  lon: number;
  time: number;
  speed: number | null;
  course: number | null;
}

const R = 6_371_000;
const rad = Math.PI / 180;

export function haversine(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function pathLength(points: PathPoint[]): number {
  let d = 0;
  for (let i = 1; i < points.length; i++) d += haversine(points[i - 1]!, points[i]!);
  return d;
}

/** Distance of p from segment a-b, on a local flat projection (metres); fine at track scale. */
function segmentDistance(p: PathPoint, a: PathPoint, b: PathPoint): number {
  const k = Math.cos(a.lat * rad) * rad * R;
  const ax = a.lon * k, ay = a.lat * rad * R;
  const bx = b.lon * k - ax, by = b.lat * rad * R - ay;
  const px = p.lon * k - ax, py = p.lat * rad * R - ay;
  const len = bx * bx + by * by;
  const t = len === 0 ? 0 : Math.max(0, Math.min(1, (px * bx + py * by) / len));
  return Math.hypot(px - t * bx, py - t * by);
}

/**
 * Douglas-Peucker to a budget: the segment whose farthest point deviates most is split first,
 * until `max` points are kept, so the budget holds the most telling points of any path.
 */
export function simplify(points: PathPoint[], max: number): PathPoint[] {
  const n = points.length;
  if (n <= max) return points;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  // Max-heap of segments [distance, from, to, farthest index].
  const heap: [number, number, number, number][] = [];
  const push = (s: [number, number, number, number]) => {
    heap.push(s);
    for (let i = heap.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (heap[p]![0] >= heap[i]![0]) break;
      [heap[p], heap[i]] = [heap[i]!, heap[p]!];
      i = p;
    }
  };
  const pop = () => {
    const top = heap[0]!;
    const last = heap.pop()!;
    if (heap.length) {
      heap[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1, r = l + 1;
        let m = i;
        if (l < heap.length && heap[l]![0] > heap[m]![0]) m = l;
        if (r < heap.length && heap[r]![0] > heap[m]![0]) m = r;
        if (m === i) break;
        [heap[m], heap[i]] = [heap[i]!, heap[m]!];
        i = m;
      }
    }
    return top;
  };
  const segment = (from: number, to: number) => {
    if (to - from < 2) return;
    let best = -1, at = -1;
    for (let i = from + 1; i < to; i++) {
      const d = segmentDistance(points[i]!, points[from]!, points[to]!);
      if (d > best) {
        best = d;
        at = i;
      }
    }
    push([best, from, to, at]);
  };
  segment(0, n - 1);
  let kept = 2;
  while (kept < max && heap.length) {
    const [, from, to, at] = pop();
    keep[at] = 1;
    kept++;
    segment(from, at);
    segment(at, to);
  }
  return points.filter((_, i) => keep[i]);
}

export interface Stop {
  lat: number;
  lon: number;
  start: number;
  end: number;
}

/** Dwells of at least `minMs` within `radius` metres of where they began. */
export function findStops(points: PathPoint[], minMs: number, radius: number): Stop[] {
  const stops: Stop[] = [];
  let i = 0;
  while (i < points.length) {
    const anchor = points[i]!;
    let j = i + 1;
    let sumLat = anchor.lat, sumLon = anchor.lon;
    while (j < points.length && haversine(anchor, points[j]!) <= radius) {
      sumLat += points[j]!.lat;
      sumLon += points[j]!.lon;
      j++;
    }
    const last = points[j - 1]!;
    if (last.time - anchor.time >= minMs) {
      const count = j - i;
      stops.push({ lat: sumLat / count, lon: sumLon / count, start: anchor.time, end: last.time });
      i = j;
    } else i++;
  }
  return stops;
}
