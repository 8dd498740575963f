// The offline base map's data, converted at build time into GeoJSON files the map's worker fetches
// and parses itself (the page's main thread converts nothing, and none of it is in a JS chunk):
//   - world-atlas country shapes (50m, and 110m for a light first paint);
//   - from server/src/modules/monitor/geodata/regions.json (web/scripts/build-map-data.mjs): China's
//     province, prefecture and county/district borders, and label points of countries, provinces,
//     prefectures and districts named in simplified and traditional Chinese and English.
// `virtual:base-shapes` exports their URLs.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { feature, merge, mesh } from 'topojson-client';
import { presimplify, simplify } from 'topojson-simplify';
import type { GeometryCollection, GeometryObject, Topology } from 'topojson-specification';

const here = path.dirname(fileURLToPath(import.meta.url));
const REGIONS = path.resolve(here, '../../server/src/modules/monitor/geodata/regions.json');
/** Display needs less detail than the geocoder: points whose triangle is under this (square degrees) go. */
const DISPLAY_MIN_WEIGHT = 1e-5;

interface Named {
  n: string;
  t: string;
  e: string;
}
interface RegionsTopology extends Topology {
  wt: { provinces: Named[]; cities: (Named & { p: number })[] };
}

// Four decimals (about 10 m) are all a display needs.
const json = (v: unknown) =>
  JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' ? Math.round(x * 1e4) / 1e4 : x));
const line = (g: unknown) => json({ type: 'Feature', geometry: g, properties: {} });

/** A point well inside a (multi)polygon: the area-weighted centroid of its largest part. */
function labelPoint(g: GeoJSON.Geometry): [number, number] | null {
  const polys = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
  let best: { area: number; x: number; y: number } | null = null;
  for (const poly of polys) {
    const ring = poly[0]!;
    let a = 0;
    let cx = 0;
    let cy = 0;
    for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
      const [x0, y0] = ring[j]!;
      const [x1, y1] = ring[i]!;
      const f = x0! * y1! - x1! * y0!;
      a += f;
      cx += (x0! + x1!) * f;
      cy += (y0! + y1!) * f;
    }
    if (a === 0) continue;
    const area = Math.abs(a / 2);
    if (!best || area > best.area) best = { area, x: cx / (3 * a), y: cy / (3 * a) };
  }
  return best ? [best.x, best.y] : null;
}

const label = (at: [number, number] | null, name: Named, rank: number) =>
  at
    ? [
        {
          type: 'Feature' as const,
          properties: { zh: name.n, tw: name.t, en: name.e, rank },
          geometry: { type: 'Point' as const, coordinates: at },
        },
      ]
    : [];

export function convertBaseShapes(): Record<string, string> {
  const out: Record<string, string> = {};
  const require = createRequire(import.meta.url);
  for (const [scale, suffix] of [
    ['50m', ''],
    ['110m', '110'],
  ] as const) {
    const world = JSON.parse(
      readFileSync(require.resolve(`world-atlas/countries-${scale}.json`), 'utf8'),
    ) as Topology;
    const countries = world.objects.countries as GeometryCollection;
    out[`land${suffix}`] = json(feature(world, countries));
    out[`borders${suffix}`] = line(mesh(world, countries, (a, b) => a !== b));
    out[`coast${suffix}`] = line(mesh(world, countries, (a, b) => a === b));
  }

  const regions = JSON.parse(readFileSync(REGIONS, 'utf8')) as RegionsTopology;
  const topo = simplify(presimplify(regions as never), DISPLAY_MIN_WEIGHT) as unknown as RegionsTopology;
  const districts = topo.objects.districts as GeometryCollection<
    Named & { p: number; c: number; l: [number, number] | null }
  >;
  const props = (g: GeometryObject) => g.properties as { p: number; c: number };
  out.cnProvinceLines = line(mesh(topo, districts, (a, b) => a !== b && props(a).p !== props(b).p));
  out.cnCityLines = line(
    mesh(topo, districts, (a, b) => props(a).p === props(b).p && props(a).c !== props(b).c),
  );
  out.cnDistrictLines = line(mesh(topo, districts, (a, b) => a !== b && props(a).c === props(b).c));

  // China's land (the districts' union) covers the coarse world coastline; the districts carry
  // their names across street-level views.
  out.cnLand = json({
    type: 'Feature',
    properties: {},
    geometry: merge(topo, districts.geometries as never),
  });
  // Coarse shapes are enough to place a name in every view of a district.
  const coarse = simplify(presimplify(regions as never), 2e-3) as unknown as RegionsTopology;
  out.cnDistricts = json({
    type: 'FeatureCollection',
    features: feature(coarse, coarse.objects.districts as GeometryCollection).features.flatMap((f) => {
      const p = f.properties as Named & { c: number };
      return p.n
        ? [{ type: 'Feature', properties: { zh: p.n, tw: p.t, en: p.e }, geometry: f.geometry }]
        : [];
    }),
  });

  const groups = (key: 'p' | 'c') => {
    const m = new Map<number, GeometryObject[]>();
    for (const g of districts.geometries) m.set(props(g)[key], [...(m.get(props(g)[key]) ?? []), g]);
    return m;
  };
  const { provinces, cities } = regions.wt;
  const labels = [
    ...(feature(topo, topo.objects.countries as GeometryCollection<Named>).features.flatMap((f) =>
      // China is named by its provinces.
      (f.properties as Named).e === 'China'
        ? []
        : label(f.geometry && labelPoint(f.geometry), f.properties as Named, 0),
    ) as GeoJSON.Feature[]),
    ...[...groups('p')].flatMap(([p, geoms]) =>
      label(labelPoint(merge(topo, geoms as never)), provinces[p]!, 1),
    ),
    // A municipality's own prefecture has the province's name: labelled once.
    ...[...groups('c')].flatMap(([c, geoms]) =>
      cities[c]!.n === provinces[cities[c]!.p]!.n
        ? []
        : label(labelPoint(merge(topo, geoms as never)), cities[c]!, 2),
    ),
    ...districts.geometries.flatMap((g) => {
      const p = g.properties as Named & { l: [number, number] | null };
      return p.n ? label(p.l, p, 3) : [];
    }),
  ];
  out.labels = json({ type: 'FeatureCollection', features: labels });
  return out;
}

/** The Vite plugin: `virtual:base-shapes` exports the URL of each file (emitted assets in a build, served in development). */
export function baseShapes(): Plugin {
  const ID = 'virtual:base-shapes';
  let files: Record<string, string> | undefined;
  const convert = () => (files ??= convertBaseShapes());
  let build = false;
  return {
    name: 'wt-base-shapes',
    configResolved(c) {
      build = c.command === 'build';
    },
    resolveId: (id) => (id === ID ? `\0${ID}` : undefined),
    load(id) {
      if (id !== `\0${ID}`) return;
      const f = convert();
      return Object.entries(f)
        .map(([k, source]) =>
          build
            ? `export const ${k} = import.meta.ROLLUP_FILE_URL_${this.emitFile({ type: 'asset', name: `base-${k}.json`, source })};`
            : `export const ${k} = '/@base-shapes/${k}.json';`,
        )
        .join('\n');
    },
    configureServer(server) {
      server.middlewares.use('/@base-shapes/', (req, res) => {
        const k = (req.url ?? '').replace(/^\//, '').replace(/\.json.*$/, '');
        res.setHeader('content-type', 'application/json');
        res.end(convert()[k] ?? 'null');
      });
    },
  };
}
