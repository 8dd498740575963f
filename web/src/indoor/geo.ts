// Where a floor plan lies on the earth (contract/src/schemas/scene.ts, SPEC §3 Floor): OriginLat /
// OriginLon is the WGS-84 position of the plan image's top-left corner, Rotation the angle in
// degrees, clockwise on a north-up map, of the plan's +x axis from east. Plan metres are x to the
// right of the image and y down it; the image is never mirrored, so +y is +x turned 90° clockwise.
//
// A plan spans at most a few hundred metres: the earth is taken as flat around the origin (an
// equirectangular local tangent plane at OriginLat: a metre north is 1/R radians of latitude, a
// metre east 1/(R·cos OriginLat) radians of longitude), which is off by well under a millimetre
// over a building. R is the mean earth radius, as in the console's fence geometry.

export const EARTH_RADIUS_M = 6_371_008.8;

export interface Georeference {
  OriginLat: number;
  OriginLon: number;
  /** Degrees, clockwise on a north-up map, of the plan's +x axis from east. */
  Rotation: number;
}

/** A WGS-84 position as [lon, lat] (GeoJSON and MapLibre order). */
export type LonLat = [number, number];

const RAD = Math.PI / 180;

/** Plan metres (x right, y down) to metres east and north of the origin. */
export function planToEastNorth(rotation: number, x: number, y: number): [number, number] {
  const r = rotation * RAD;
  const c = Math.cos(r);
  const s = Math.sin(r);
  // +x points (cos r, -sin r) in (east, north); +y, turned 90° clockwise from it, (-sin r, -cos r).
  return [x * c - y * s, -x * s - y * c];
}

/** Metres east and north of the origin to plan metres (the inverse rotation). */
export function eastNorthToPlan(rotation: number, east: number, north: number): [number, number] {
  const r = rotation * RAD;
  const c = Math.cos(r);
  const s = Math.sin(r);
  return [east * c - north * s, -east * s - north * c];
}

/** Metres east and north of a point to the WGS-84 position there. */
export function offsetLonLat(lat0: number, lon0: number, east: number, north: number): LonLat {
  const lat = lat0 + (north / EARTH_RADIUS_M) / RAD;
  const lon = lon0 + (east / (EARTH_RADIUS_M * Math.cos(lat0 * RAD))) / RAD;
  return [lon, lat];
}

/** A WGS-84 position to metres east and north of a point. */
export function eastNorthOf(lat0: number, lon0: number, lon: number, lat: number): [number, number] {
  return [(lon - lon0) * RAD * EARTH_RADIUS_M * Math.cos(lat0 * RAD), (lat - lat0) * RAD * EARTH_RADIUS_M];
}

/** A point of the plan (metres) to WGS-84 [lon, lat]. */
export function planToLonLat(geo: Georeference, x: number, y: number): LonLat {
  const [e, n] = planToEastNorth(geo.Rotation, x, y);
  return offsetLonLat(geo.OriginLat, geo.OriginLon, e, n);
}

/** A WGS-84 position to the plan's metres. */
export function lonLatToPlan(geo: Georeference, lon: number, lat: number): [number, number] {
  const [e, n] = eastNorthOf(geo.OriginLat, geo.OriginLon, lon, lat);
  return eastNorthToPlan(geo.Rotation, e, n);
}

/**
 * The four corners of a plan `widthM` × `heightM` metres as [lon, lat], in the order a MapLibre
 * image source takes them: top-left, top-right, bottom-right, bottom-left (of the image).
 */
export function planCorners(geo: Georeference, widthM: number, heightM: number): [LonLat, LonLat, LonLat, LonLat] {
  return [
    planToLonLat(geo, 0, 0),
    planToLonLat(geo, widthM, 0),
    planToLonLat(geo, widthM, heightM),
    planToLonLat(geo, 0, heightM),
  ];
}

/** The WGS-84 position of the plan's centre. */
export function planCentre(geo: Georeference, widthM: number, heightM: number): LonLat {
  return planToLonLat(geo, widthM / 2, heightM / 2);
}

/** The georeference that puts the plan's centre at [lon, lat] with the given rotation. */
export function geoCentredAt(centre: LonLat, widthM: number, heightM: number, rotation: number): Georeference {
  // The origin is the centre moved back by half the plan along its rotated axes.
  const [e, n] = planToEastNorth(rotation, -widthM / 2, -heightM / 2);
  const [lon, lat] = offsetLonLat(centre[1], centre[0], e, n);
  return { OriginLat: lat, OriginLon: lon, Rotation: rotation };
}

/** The same plan turned to another rotation about its centre. */
export function rotateAboutCentre(geo: Georeference, widthM: number, heightM: number, rotation: number): Georeference {
  return geoCentredAt(planCentre(geo, widthM, heightM), widthM, heightM, rotation);
}

/** The same plan moved so that what was at `from` is at `to` (both [lon, lat]): a drag on the map. */
export function moveBy(geo: Georeference, from: LonLat, to: LonLat): Georeference {
  const [e, n] = eastNorthOf(from[1], from[0], to[0], to[1]);
  const [lon, lat] = offsetLonLat(geo.OriginLat, geo.OriginLon, e, n);
  return { OriginLat: lat, OriginLon: lon, Rotation: geo.Rotation };
}

/** A rotation in (-180, 180], as the form keeps it. */
export function normaliseRotation(deg: number): number {
  const r = ((((deg + 180) % 360) + 360) % 360) - 180;
  return r === -180 ? 180 : r;
}

/** Whether a point (lon, lat) lies on the plan (its rectangle on the earth). */
export function onPlan(geo: Georeference, widthM: number, heightM: number, lonLat: LonLat): boolean {
  const [x, y] = lonLatToPlan(geo, lonLat[0], lonLat[1]);
  return x >= 0 && y >= 0 && x <= widthM && y <= heightM;
}
