// The west, south, east and north edges of a set of [lon, lat] points, or null for none.
export type Bounds = [west: number, south: number, east: number, north: number];

export function boundsOf(points: Iterable<readonly [number, number, ...unknown[]]>): Bounds | null {
  let w = 180;
  let s = 90;
  let e = -180;
  let n = -90;
  let any = false;
  for (const [lon, lat] of points) {
    any = true;
    w = Math.min(w, lon);
    e = Math.max(e, lon);
    s = Math.min(s, lat);
    n = Math.max(n, lat);
  }
  return any ? [w, s, e, n] : null;
}
