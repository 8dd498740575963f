// Offline reverse geocoding: the province, prefecture and county/district of a point in China, or
// the country elsewhere, from the boundary polygons shipped in geodata/regions.json (built by
// web/scripts/build-map-data.mjs). Polygons are found through a Flatbush index of their bounding
// boxes, then tested point-in-polygon. Nothing leaves the machine.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Flatbush from 'flatbush';
import pointInPolygon from 'point-in-polygon-hao';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/** A name in simplified and traditional characters and in English. */
export interface Place {
  zh: string;
  tw: string;
  en: string;
}

export interface Region {
  country: Place;
  province?: Place;
  city?: Place;
  district?: Place;
}

interface Area {
  polygons: number[][][][];
  region: Region;
}

interface Index {
  areas: Area[];
  index: Flatbush;
}

interface RegionsFile extends Topology {
  wt: { provinces: Named[]; cities: (Named & { p: number })[] };
}

interface Named {
  n: string;
  t: string;
  e: string;
}

const place = (x: Named): Place => ({ zh: x.n, tw: x.t, en: x.e });

const DATA = fileURLToPath(new URL('./geodata/regions.json', import.meta.url));
const CHINA: Place = { zh: '中国', tw: '中國', en: 'China' };

function polygonsOf(g: GeoJSON.Geometry | null): number[][][][] {
  if (!g) return [];
  if (g.type === 'Polygon') return [g.coordinates];
  if (g.type === 'MultiPolygon') return g.coordinates;
  return [];
}

function indexOf(areas: Area[]): Index {
  const index = new Flatbush(Math.max(1, areas.length));
  for (const a of areas) {
    let [w, s, e, n] = [180, 90, -180, -90];
    for (const poly of a.polygons)
      for (const [x, y] of poly[0]!) {
        w = Math.min(w, x!);
        e = Math.max(e, x!);
        s = Math.min(s, y!);
        n = Math.max(n, y!);
      }
    index.add(w, s, e, n);
  }
  if (!areas.length) index.add(0, 0, 0, 0);
  index.finish();
  return { areas, index };
}

/** Loads and indexes the shipped boundaries: China's districts first, then the world's countries. */
export function loadRegions(file = DATA): { china: Index; world: Index } {
  const topo = JSON.parse(readFileSync(file, 'utf8')) as RegionsFile;
  const { provinces, cities } = topo.wt;
  const districts = feature(topo, topo.objects.districts as GeometryCollection).features;
  const china = districts.map((f): Area => {
    const p = f.properties as Named & { p: number; c: number };
    return {
      polygons: polygonsOf(f.geometry),
      region: {
        country: CHINA,
        province: place(provinces[p.p]!),
        city: place(cities[p.c]!),
        district: p.n ? place(p) : undefined,
      },
    };
  });
  const countries = feature(topo, topo.objects.countries as GeometryCollection).features.map((f): Area => ({
    polygons: polygonsOf(f.geometry),
    region: { country: place(f.properties as Named) },
  }));
  return { china: indexOf(china), world: indexOf(countries) };
}

let loaded: ReturnType<typeof loadRegions> | undefined;

/** The shipped data, read once per process on first use (about a second); it never changes. */
function regions() {
  loaded ??= loadRegions();
  return loaded;
}

function find({ areas, index }: Index, lat: number, lon: number): Region | null {
  // Boundary points count as inside (pointInPolygon answers 0 on the edge).
  for (const i of index.search(lon, lat, lon, lat)) {
    const area = areas[i]!;
    if (area.polygons.some((poly) => pointInPolygon([lon, lat], poly) !== false)) return area.region;
  }
  return null;
}

/** The region holding a point, or null at sea. */
export function locate(lat: number, lon: number): Region | null {
  const r = regions();
  return find(r.china, lat, lon) ?? find(r.world, lat, lon);
}

/** The name of a place in a language: traditional characters for zh-TW and zh-HK, simplified for other Chinese, else English. */
export function placeName(p: Place, lang: string): string {
  const l = lang.toLowerCase();
  if (l.startsWith('zh')) return /^zh-(tw|hk|mo|hant)/.test(l) ? p.tw : p.zh;
  return p.en;
}

/** A region as an address in the reader's language: 广东省深圳市福田区, or Futian District, Shenzhen, Guangdong. */
export function regionText(region: Region, lang: string): string {
  const zh = lang.toLowerCase().startsWith('zh');
  const parts = [region.province, region.city, region.district].filter((p): p is Place => !!p);
  // A municipality is its own prefecture: 北京市东城区, not 北京市北京市东城区.
  const names = parts.map((p) => placeName(p, lang)).filter((n, i, all) => n && n !== all[i - 1]);
  if (!names.length) return placeName(region.country, lang);
  return zh ? names.join('') : names.reverse().join(', ');
}

/** The offline address of a point, or null where no shipped boundary holds it. */
export function offlineAddress(lat: number, lon: number, lang: string): string | null {
  const region = locate(lat, lon);
  return region ? regionText(region, lang) : null;
}
