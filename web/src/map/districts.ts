// Administrative districts for district-shaped account fences: the names tree of provinces,
// prefectures and counties (GB/T 2260 codes) and their boundaries, simplified at build time
// (web/scripts/build-district-data.mjs, from the package the server reads at full precision) and
// already in WGS-84, the coordinates positions are stored in. Both are loaded only when asked for
// (the tree once, a province's shapes once), so they stay out of the main bundle.
//
// Levels as on the server: a municipality (北京, 天津, 上海, 重庆), Hong Kong and Macao hold their
// districts directly; a province's county-level cities (湖北 仙桃市, ...) sit beside its
// prefectures; `missing: 'below'` marks a prefecture without counties in the data (东莞市, ...),
// `missing: 'all'` a province without boundaries (Taiwan).
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, MultiPolygon, Topology } from 'topojson-specification';

export interface DistrictNode {
  code: string;
  zh: string;
  tw: string;
  en: string;
  children?: DistrictNode[];
  /** 'below': the data has no boundaries below this district; 'all': none at all. */
  missing?: 'below' | 'all';
}

type DistrictTopology = Topology<{ districts: GeometryCollection }>;

const treeFile = import.meta.glob<DistrictNode[]>('./districts/tree.json', { import: 'default' });
const shapeFiles = import.meta.glob<DistrictTopology>('./districts/shapes/*.json', { import: 'default' });

let tree: Promise<DistrictNode[]> | null = null;
let paths: Promise<Map<string, DistrictNode[]>> | null = null;
const shapes = new Map<string, Promise<DistrictTopology | null>>();

/** Provinces, each with its prefectures (or districts) and their counties. */
export function loadDistrictTree(): Promise<DistrictNode[]> {
  tree ??= treeFile['./districts/tree.json']!().catch((e: unknown) => {
    tree = null;
    throw e;
  });
  return tree;
}

/** Each code's path from its province down to it. */
function loadPaths(): Promise<Map<string, DistrictNode[]>> {
  paths ??= loadDistrictTree().then((roots) => {
    const out = new Map<string, DistrictNode[]>();
    const walk = (nodes: DistrictNode[], above: DistrictNode[]) => {
      for (const n of nodes) {
        const path = [...above, n];
        out.set(n.code, path);
        if (n.children) walk(n.children, path);
      }
    };
    walk(roots, []);
    return out;
  });
  return paths;
}

/** The nodes from the province down to this code; null when the code is unknown. */
export async function districtNodes(code: string): Promise<DistrictNode[] | null> {
  return (await loadPaths()).get(code) ?? null;
}

function loadProvinceShapes(code: string): Promise<DistrictTopology | null> {
  const key = code.slice(0, 2);
  let pending = shapes.get(key);
  if (!pending) {
    const load = shapeFiles[`./districts/shapes/${key}.json`];
    pending = load ? load() : Promise.resolve(null);
    pending.catch(() => shapes.delete(key));
    shapes.set(key, pending);
  }
  return pending;
}

/** The province's geometries of this district: its own, or all those below it. */
async function geometriesOf(code: string): Promise<{ topo: DistrictTopology; parts: MultiPolygon[] } | null> {
  const path = await districtNodes(code);
  if (!path) return null;
  const topo = await loadProvinceShapes(code);
  if (!topo) return null;
  const geometries = topo.objects.districts.geometries as MultiPolygon[];
  const own = geometries.find((g) => g.id === code);
  if (own) return { topo, parts: [own] };
  // A province holds every geometry of its file; a prefecture those of its code's first 4 digits.
  const prefix = path.length === 1 ? code.slice(0, 2) : code.slice(0, 4);
  const parts = geometries.filter((g) => String(g.id).startsWith(prefix));
  return parts.length ? { topo, parts } : null;
}

/**
 * The district's simplified boundary in WGS-84: a county's own, or for a province or prefecture the
 * collection of its counties' polygons (not merged: neighbouring counties of the data overlap in
 * slivers, which breaks a merge of their rings). Null for an unknown code or a district without a
 * boundary.
 */
export async function loadDistrictShape(code: string): Promise<GeoJSON.MultiPolygon | null> {
  const found = await geometriesOf(code);
  if (!found) return null;
  const coordinates = found.parts.flatMap((g) => feature(found.topo, g).geometry.coordinates);
  return { type: 'MultiPolygon', coordinates };
}

/**
 * The district's outline: the borders of its counties that no other county of it shares, to draw a
 * province or prefecture without its inner borders. Null as for `loadDistrictShape`.
 */
export async function loadDistrictOutline(code: string): Promise<GeoJSON.MultiLineString | null> {
  const found = await geometriesOf(code);
  if (!found) return null;
  return mesh(found.topo, { type: 'GeometryCollection', geometries: found.parts }, (a, b) => a === b);
}

export type DistrictLanguage = 'zh-CN' | 'zh-TW' | 'en' | string;

/** The node's name in a console language (zh-CN, zh-TW, else English). */
export function districtNodeName(node: DistrictNode, lang: DistrictLanguage): string {
  return lang === 'zh-CN' ? node.zh : lang === 'zh-TW' ? node.tw : node.en;
}

/**
 * The district with the ones above it, as the server writes it: "广东省 深圳市 福田区", "Futian
 * District, Shenzhen, Guangdong"; '' for an unknown code.
 */
export async function districtLabel(code: string, lang: DistrictLanguage): Promise<string> {
  const path = await districtNodes(code);
  if (!path) return '';
  const names = path.map((n) => districtNodeName(n, lang));
  return lang === 'zh-CN' || lang === 'zh-TW' ? names.join(' ') : names.reverse().join(', ');
}
