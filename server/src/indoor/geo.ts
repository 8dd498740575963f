// Plan metres <-> WGS-84 and plan pixels <-> metres. A floor's plan frame has its origin at the
// image's top-left corner, x to the right and y down; its georeference gives the corner's latitude
// and longitude, the rotation of +x clockwise from east on a north-up map, and metres per pixel.
// Buildings are small, so a local tangent plane at the origin is exact to well under a millimetre:
// metres per radian of latitude and of longitude come from the WGS-84 meridian and prime-vertical
// radii of curvature at the origin's latitude.
import type { Georeference } from './types.js';

const A = 6378137;
const E2 = 6.69437999014e-3;
const RAD = Math.PI / 180;

export interface LatLon {
  lat: number;
  lon: number;
}

export interface PlanPoint {
  x: number;
  y: number;
}

function radii(lat: number): { north: number; east: number } {
  const s = Math.sin(lat * RAD);
  const w = Math.sqrt(1 - E2 * s * s);
  // Metres per degree northward and eastward.
  return { north: ((A * (1 - E2)) / (w * w * w)) * RAD, east: (A / w) * Math.cos(lat * RAD) * RAD };
}

export function isGeoreference(g: unknown): g is Georeference {
  if (!g || typeof g !== 'object') return false;
  const r = g as Georeference;
  return (
    Number.isFinite(r.originLat) && Math.abs(r.originLat) <= 89 &&
    Number.isFinite(r.originLon) && Math.abs(r.originLon) <= 180 &&
    Number.isFinite(r.rotation) && Number.isFinite(r.metresPerPixel) && r.metresPerPixel > 0
  );
}

/** Plan metres to WGS-84. */
export function planToGeo(g: Georeference, x: number, y: number): LatLon {
  const t = g.rotation * RAD;
  const c = Math.cos(t);
  const s = Math.sin(t);
  // +x is east turned clockwise by `rotation`: (cos t, -sin t) in (east, north); +y, 90° further clockwise: (-sin t, -cos t).
  const east = x * c - y * s;
  const north = -x * s - y * c;
  const k = radii(g.originLat);
  return { lat: g.originLat + north / k.north, lon: g.originLon + east / k.east };
}

/** WGS-84 to plan metres. */
export function geoToPlan(g: Georeference, lat: number, lon: number): PlanPoint {
  const k = radii(g.originLat);
  const north = (lat - g.originLat) * k.north;
  let dLon = lon - g.originLon;
  if (dLon > 180) dLon -= 360;
  if (dLon < -180) dLon += 360;
  const east = dLon * k.east;
  const t = g.rotation * RAD;
  const c = Math.cos(t);
  const s = Math.sin(t);
  return { x: east * c - north * s, y: -east * s - north * c };
}

export function pixelsToMetres(px: PlanPoint, metresPerPixel: number): PlanPoint {
  return { x: px.x * metresPerPixel, y: px.y * metresPerPixel };
}

export function metresToPixels(m: PlanPoint, metresPerPixel: number): PlanPoint {
  return { x: m.x / metresPerPixel, y: m.y / metresPerPixel };
}

/** Metres per pixel from two clicked pixels and the real distance between them, or null when degenerate. */
export function scaleFromPoints(a: PlanPoint, b: PlanPoint, metres: number): number | null {
  const px = Math.hypot(b.x - a.x, b.y - a.y);
  if (!Number.isFinite(px) || px < 1 || !Number.isFinite(metres) || metres <= 0) return null;
  return metres / px;
}
