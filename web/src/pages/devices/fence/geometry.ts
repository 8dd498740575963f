// Fence geometry between the drawing on the map (GeoJSON, [lon, lat]) and the fence calls
// (circle: centre and radius in metres; polygon: vertices as {Lat, Lon}).
export interface LatLon {
  Lat: number;
  Lon: number;
}

export type FenceShape = { Type: 'circle'; Lat: number; Lon: number; Radius: number } | { Type: 'polygon'; Points: LatLon[] };

const EARTH_RADIUS_M = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

export function distanceMetres(a: LatLon, b: LatLon): number {
  const dLat = rad(b.Lat - a.Lat);
  const dLon = rad(b.Lon - a.Lon);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.Lat)) * Math.cos(rad(b.Lat)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The ring's vertices without the closing repeat of the first one. */
function openRing(ring: number[][]): number[][] {
  if (ring.length > 1) {
    const [a, b] = [ring[0]!, ring[ring.length - 1]!];
    if (a[0] === b[0] && a[1] === b[1]) return ring.slice(0, -1);
  }
  return ring;
}

const round = (v: number, digits = 6) => Number(v.toFixed(digits));

/**
 * A drawn polygon as a fence. A circle (drawn as a polygon of many vertices) becomes its centre and
 * the mean distance from it to the vertices, rounded to the metre.
 */
export function shapeFromRing(type: 'circle' | 'polygon', ring: number[][]): FenceShape {
  const pts = openRing(ring).map(([lon, lat]) => ({ Lat: round(lat!), Lon: round(lon!) }));
  if (type === 'polygon') return { Type: 'polygon', Points: pts };
  const centre = { Lat: pts.reduce((s, p) => s + p.Lat, 0) / pts.length, Lon: pts.reduce((s, p) => s + p.Lon, 0) / pts.length };
  const radius = pts.reduce((s, p) => s + distanceMetres(centre, p), 0) / pts.length;
  return { Type: 'circle', Lat: round(centre.Lat), Lon: round(centre.Lon), Radius: Math.round(radius) };
}

/** A circle as a closed GeoJSON ring of `steps` vertices, for drawing a stored circle fence. */
export function circleRing(lat: number, lon: number, radiusMetres: number, steps = 64): number[][] {
  const d = radiusMetres / EARTH_RADIUS_M;
  const φ1 = rad(lat);
  const λ1 = rad(lon);
  const ring: number[][] = [];
  for (let i = 0; i < steps; i++) {
    const θ = (2 * Math.PI * i) / steps;
    const φ2 = Math.asin(Math.sin(φ1) * Math.cos(d) + Math.cos(φ1) * Math.sin(d) * Math.cos(θ));
    const λ2 = λ1 + Math.atan2(Math.sin(θ) * Math.sin(d) * Math.cos(φ1), Math.cos(d) - Math.sin(φ1) * Math.sin(φ2));
    ring.push([round(deg(λ2)), round(deg(φ2))]);
  }
  ring.push(ring[0]!);
  return ring;
}

/** The closed ring of a stored fence. */
export function fenceRing(f: { Type: 'circle' | 'polygon'; Lat: number | null; Lon: number | null; Radius: number | null; Points: LatLon[] }): number[][] | null {
  if (f.Type === 'circle') {
    if (f.Lat === null || f.Lon === null || !f.Radius) return null;
    return circleRing(f.Lat, f.Lon, f.Radius);
  }
  if (f.Points.length < 3) return null;
  const ring = f.Points.map((p) => [p.Lon, p.Lat]);
  ring.push(ring[0]!);
  return ring;
}

/** [west, south, east, north] of some rings, or null when there is nothing. */
export function boundsOf(rings: number[][][]): [number, number, number, number] | null {
  const pts = rings.flat();
  if (!pts.length) return null;
  const xs = pts.map((p) => p[0]!);
  const ys = pts.map((p) => p[1]!);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}
