// Areas of account fences, pure (no I/O): a circle, a polygon, or a district made of many polygons
// with holes (thousands of vertices). An area is compiled once into its bounding box and a Flatbush
// index of its polygons' boxes, so a position far from it costs one box test and a position near it
// only the candidate polygons' ring tests. Points on a boundary count as inside.
import Flatbush from 'flatbush';
import pointInPolygon from 'point-in-polygon-hao';
import { insideCircle, type LatLon } from './fence.js';

/** Rings of [lon, lat], outer first, holes after. */
export type Polygon = number[][][];

export type AreaShape =
  | { kind: 'circle'; center: LatLon; radius: number }
  | { kind: 'polygon'; points: LatLon[] }
  | { kind: 'multipolygon'; polygons: Polygon[] };

export interface Area {
  /** [west, south, east, north] in degrees. */
  bbox: [number, number, number, number];
  contains(p: LatLon): boolean;
  /** Vertices in all rings (for sizing and benchmarks). */
  vertices: number;
}

const M_PER_DEG_LAT = 111_320;

function closed(ring: number[][]): number[][] {
  const a = ring[0]!;
  const b = ring[ring.length - 1]!;
  return a[0] === b[0] && a[1] === b[1] ? ring : [...ring, a];
}

function ringBox(ring: number[][]): [number, number, number, number] {
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of ring) {
    if (x! < w) w = x!;
    if (x! > e) e = x!;
    if (y! < s) s = y!;
    if (y! > n) n = y!;
  }
  return [w, s, e, n];
}

function compilePolygons(polygons: Polygon[]): Area {
  const polys = polygons.filter((p) => p.length && p[0]!.length >= 3).map((p) => p.map(closed));
  const boxes = polys.map((p) => ringBox(p[0]!));
  const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const b of boxes) {
    bbox[0] = Math.min(bbox[0], b[0]);
    bbox[1] = Math.min(bbox[1], b[1]);
    bbox[2] = Math.max(bbox[2], b[2]);
    bbox[3] = Math.max(bbox[3], b[3]);
  }
  const vertices = polys.reduce((s, p) => s + p.reduce((t, r) => t + r.length, 0), 0);
  if (!polys.length) return { bbox: [0, 0, 0, 0], contains: () => false, vertices: 0 };
  // One polygon: its box is the area's; more: a Flatbush of their boxes picks the candidates.
  const index = polys.length > 1 ? new Flatbush(polys.length) : null;
  if (index) {
    for (const b of boxes) index.add(b[0], b[1], b[2], b[3]);
    index.finish();
  }
  const hit = (i: number, x: number, y: number) => pointInPolygon([x, y], polys[i]!) !== false;
  return {
    bbox,
    vertices,
    contains: ({ lat, lon }) => {
      if (lon < bbox[0] || lon > bbox[2] || lat < bbox[1] || lat > bbox[3]) return false;
      if (!index) return hit(0, lon, lat);
      for (const i of index.search(lon, lat, lon, lat)) if (hit(i, lon, lat)) return true;
      return false;
    },
  };
}

export function compileArea(shape: AreaShape): Area {
  if (shape.kind === 'circle') {
    const { center, radius } = shape;
    const dLat = radius / M_PER_DEG_LAT;
    const cos = Math.max(Math.cos((center.lat * Math.PI) / 180), 1e-6);
    const dLon = Math.min(180, radius / (M_PER_DEG_LAT * cos));
    // The box is a little larger than the circle (a metre), so the exact test decides at its edge.
    const pad = 1 / M_PER_DEG_LAT;
    const bbox: [number, number, number, number] = [center.lon - dLon - pad, center.lat - dLat - pad, center.lon + dLon + pad, center.lat + dLat + pad];
    return {
      bbox,
      vertices: 0,
      contains: (p) => p.lon >= bbox[0] && p.lon <= bbox[2] && p.lat >= bbox[1] && p.lat <= bbox[3] && insideCircle(p, center, radius),
    };
  }
  if (shape.kind === 'polygon') return compilePolygons([[shape.points.map((p) => [p.lon, p.lat])]]);
  return compilePolygons(shape.polygons);
}
