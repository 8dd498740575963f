// The base map: an offline layer shipped with the console (world-atlas country shapes; China's
// province, prefecture and district borders; names of countries and Chinese places) under optional
// raster tiles. Everything is in one fixed style and switched by visibility, so changing the base
// layer never drops the feature layers the map components added. Labels are drawn with the
// browser's own fonts (no glyphs URL): CJK through localIdeographFontFamily, the rest by TinySDF.
import type { LayerSpecification, StyleSpecification } from 'maplibre-gl';
import {
  borders,
  borders110,
  cnCityLines,
  cnDistrictLines,
  cnDistricts,
  cnLand,
  cnProvinceLines,
  coast,
  coast110,
  labels,
  land,
  land110,
} from 'virtual:base-shapes';

export const OFFLINE_PALETTE = {
  normal: {
    water: '#aad3df',
    land: '#f3f1ea',
    border: '#b2a6c7',
    coast: '#7fa9bd',
    province: '#a08cbf',
    city: '#b9aac9',
    district: '#cfc4d8',
    text: '#3d3a4b',
    halo: '#ffffff',
  },
  satellite: {
    water: '#0e2a3f',
    land: '#39503a',
    border: '#c9c3a8',
    coast: '#1c4660',
    province: '#e0d6a8',
    city: '#bfb58f',
    district: '#9c9475',
    text: '#ffffff',
    halo: '#1d2a1d',
  },
} as const;

/** Browser fonts for Chinese labels, the first one present wins. */
export const CJK_FONTS =
  "'PingFang SC', 'Microsoft YaHei', 'Noto Sans CJK SC', 'Source Han Sans SC', 'WenQuanYi Micro Hei', sans-serif";

export type LabelLanguage = 'zh' | 'tw' | 'en';
export const labelLanguage = (lang: string): LabelLanguage =>
  /^zh-(tw|hk|mo|hant)/i.test(lang) ? 'tw' : lang.toLowerCase().startsWith('zh') ? 'zh' : 'en';
/** The label in the console's language, the simplified name where there is no other. */
export const labelText = (l: LabelLanguage) => ['coalesce', ['get', l], ['get', 'zh']] as unknown as string;

/** Label layers: countries, provinces, prefectures, districts (the `rank` of a label point), each from a zoom on. */
export const LABEL_LAYERS = [
  { id: 'base-labels-country', rank: 0, minzoom: 1.5, maxzoom: 7, size: [2, 11, 6, 14] },
  { id: 'base-labels-province', rank: 1, minzoom: 3.5, maxzoom: 8.5, size: [4, 11, 8, 15] },
  { id: 'base-labels-city', rank: 2, minzoom: 5.5, maxzoom: 13, size: [6, 11, 10, 15] },
  { id: 'base-labels-district', rank: 3, minzoom: 8.5, maxzoom: 24, size: [9, 11, 14, 15] },
] as const;

/** China's borders, each level fetched when the map first reaches the zoom it shows from. */
export const CHINA_LINES = [
  { id: 'base-cn-land', minzoom: 5, url: () => absolute(cnLand) },
  { id: 'base-cn-districts', minzoom: 11, url: () => absolute(cnDistricts) },
  { id: 'base-cn-province', minzoom: 2, url: () => absolute(cnProvinceLines) },
  { id: 'base-cn-city', minzoom: 5, url: () => absolute(cnCityLines) },
  { id: 'base-cn-district', minzoom: 8, url: () => absolute(cnDistrictLines) },
] as const;

export const labelsUrl = () => absolute(labels);

/** The raster sources start with no tiles: they are hidden until an online source is chosen (its tiles come from /Map/Settings). */
const NO_TILES = ['https://tiles.invalid/{z}/{x}/{y}.png'];

export const EMPTY = { type: 'FeatureCollection', features: [] } as GeoJSON.FeatureCollection;

const absolute = (url: string) => new URL(url, location.href).href;

/**
 * URLs of the offline shapes by source, fetched and parsed by the map's worker (never by the page):
 * light (world-atlas 110m) for a quick first paint, detailed (50m) once the page's own layers are drawn.
 */
export const BASE_SHAPES = {
  light: () => ({
    'base-land': absolute(land110),
    'base-borders': absolute(borders110),
    'base-coast': absolute(coast110),
  }),
  detailed: () => ({
    'base-land': absolute(land),
    'base-borders': absolute(borders),
    'base-coast': absolute(coast),
  }),
};

export function baseStyle(): StyleSpecification {
  const p = OFFLINE_PALETTE.normal;
  return {
    version: 8,
    sources: {
      // Filled once the map is loaded (BASE_SHAPES), so that the first paint waits for no shapes.
      'base-land': { type: 'geojson', data: EMPTY },
      'base-borders': { type: 'geojson', data: EMPTY },
      'base-coast': { type: 'geojson', data: EMPTY },
      'base-cn-land': { type: 'geojson', data: EMPTY },
      'base-cn-districts': { type: 'geojson', data: EMPTY },
      'base-cn-province': { type: 'geojson', data: EMPTY },
      'base-cn-city': { type: 'geojson', data: EMPTY },
      'base-cn-district': { type: 'geojson', data: EMPTY },
      'base-labels': { type: 'geojson', data: EMPTY },
      // Tiles of the chosen online source (/Map/Settings), set when one is chosen.
      'base-tiles': { type: 'raster', tiles: NO_TILES, tileSize: 256, maxzoom: 18 },
      'base-tiles-labels': { type: 'raster', tiles: NO_TILES, tileSize: 256, maxzoom: 18 },
    },
    layers: [
      { id: 'base-water', type: 'background', paint: { 'background-color': p.water } },
      {
        id: 'base-land',
        type: 'fill',
        source: 'base-land',
        paint: { 'fill-color': p.land, 'fill-antialias': true },
      },
      {
        id: 'base-coast',
        type: 'line',
        source: 'base-coast',
        paint: { 'line-color': p.coast, 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.6, 10, 2] },
      },
      {
        id: 'base-borders',
        type: 'line',
        source: 'base-borders',
        paint: {
          'line-color': p.border,
          'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.5, 10, 1.5],
          'line-dasharray': [3, 2],
        },
      },
      {
        id: 'base-cn-land',
        type: 'fill',
        source: 'base-cn-land',
        minzoom: 5,
        paint: { 'fill-color': p.land },
      },
      {
        id: 'base-cn-district',
        type: 'line',
        source: 'base-cn-district',
        minzoom: 8,
        paint: {
          'line-color': p.district,
          'line-width': ['interpolate', ['linear'], ['zoom'], 8, 0.6, 14, 1.6],
          'line-dasharray': [4, 2],
        },
      },
      {
        id: 'base-cn-city',
        type: 'line',
        source: 'base-cn-city',
        minzoom: 5,
        paint: { 'line-color': p.city, 'line-width': ['interpolate', ['linear'], ['zoom'], 5, 0.6, 12, 2] },
      },
      {
        id: 'base-cn-province',
        type: 'line',
        source: 'base-cn-province',
        minzoom: 2,
        paint: {
          'line-color': p.province,
          'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.5, 8, 1.6, 14, 3],
          'line-dasharray': [5, 2],
        },
      },
      ...LABEL_LAYERS.map((l): LayerSpecification => ({
        id: l.id,
        type: 'symbol',
        source: 'base-labels',
        minzoom: l.minzoom,
        maxzoom: l.maxzoom,
        filter: ['==', ['get', 'rank'], l.rank],
        layout: {
          'text-field': labelText('zh'),
          'text-font': ['sans-serif'],
          'text-size': ['interpolate', ['linear'], ['zoom'], ...l.size],
          'text-max-width': 8,
          'text-padding': 4,
        },
        paint: {
          'text-color': p.text,
          'text-halo-color': p.halo,
          'text-halo-width': 1.4,
          'text-opacity': l.rank === 3 ? 0.85 : 1,
        },
      })),
      {
        // At street level the name of the district is repeated across the view (one per tile).
        id: 'base-labels-area',
        type: 'symbol',
        source: 'base-cn-districts',
        minzoom: 12,
        layout: {
          'text-field': labelText('zh'),
          'text-font': ['sans-serif'],
          'text-size': 20,
          'symbol-spacing': 600,
          'text-padding': 40,
        },
        paint: { 'text-color': p.district, 'text-halo-color': p.halo, 'text-halo-width': 1 },
      },
      { id: 'base-tiles', type: 'raster', source: 'base-tiles', layout: { visibility: 'none' } },
      {
        id: 'base-tiles-labels',
        type: 'raster',
        source: 'base-tiles-labels',
        layout: { visibility: 'none' },
      },
    ],
  };
}

let shapes:
  | Promise<{
      land: GeoJSON.FeatureCollection;
      borders: GeoJSON.MultiLineString;
      coast: GeoJSON.MultiLineString;
    }>
  | undefined;

/** Country shapes as GeoJSON objects (the dashboard's chart), converted from TopoJSON once and loaded on demand (a separate chunk). */
export function offlineShapes() {
  shapes ??= Promise.all([import('world-atlas/countries-50m.json'), import('topojson-client')]).then(
    ([atlas, topo]) => {
      const world = (atlas.default ?? atlas) as unknown as import('topojson-specification').Topology;
      const countries = world.objects.countries as import('topojson-specification').GeometryCollection;
      return {
        land: topo.feature(world, countries) as unknown as GeoJSON.FeatureCollection,
        borders: topo.mesh(world, countries, (a, b) => a !== b),
        coast: topo.mesh(world, countries, (a, b) => a === b),
      };
    },
  );
  return shapes;
}
