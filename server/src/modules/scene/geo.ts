// Plan metres to WGS-84 for a placed floor (contract/src/schemas/scene.ts conventions): x to the
// right and y down from the plan's top-left corner, whose WGS-84 is (originLat, originLon); the
// plan's +x axis points `rotation` degrees clockwise from east on a north-up map. A building is
// small, so a local tangent plane (equirectangular about the corner) is exact to millimetres.
const EARTH_RADIUS = 6_378_137;
const DEG = Math.PI / 180;

export interface Georeference {
  originLat: number;
  originLon: number;
  rotation: number;
}

export function planToWgs84(geo: Georeference, x: number, y: number): { lat: number; lon: number } {
  const t = geo.rotation * DEG;
  // +x is (cos t, -sin t) in (east, north); +y, a quarter turn clockwise from it, is (-sin t, -cos t).
  const east = x * Math.cos(t) - y * Math.sin(t);
  const north = -x * Math.sin(t) - y * Math.cos(t);
  return {
    lat: geo.originLat + north / EARTH_RADIUS / DEG,
    lon: geo.originLon + east / (EARTH_RADIUS * Math.cos(geo.originLat * DEG)) / DEG,
  };
}
