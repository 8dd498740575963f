// The base map: an offline layer of country shapes (world-atlas, shipped with the console) under
// optional raster tiles. Everything is in one fixed style and switched by visibility, so changing
// the base layer never drops the feature layers the map components added.
import type { StyleSpecification } from 'maplibre-gl';
import { borders, borders110, coast, coast110, land, land110 } from 'virtual:base-shapes';
import type { MapMode, TileProvider } from './settings';

export const OFFLINE_PALETTE = {
  normal: { water: '#aad3df', land: '#f3f1ea', border: '#b2a6c7', coast: '#7fa9bd' },
  satellite: { water: '#0e2a3f', land: '#39503a', border: '#c9c3a8', coast: '#1c4660' },
} as const;

const amapHosts = (style: string) => [1, 2, 3, 4].map((n) => `https://webrd0${n}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=${style}&x={x}&y={y}&z={z}`);
const amapSat = [1, 2, 3, 4].map((n) => `https://webst0${n}.is.autonavi.com/appmaptile?style=6&x={x}&y={y}&z={z}`);

export const TILE_SOURCES: Record<Exclude<TileProvider, 'offline'>, Record<MapMode, { tiles: string[]; attribution: string }>> = {
  osm: {
    normal: { tiles: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'], attribution: '© OpenStreetMap contributors' },
    satellite: { tiles: ['https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}'], attribution: '© Esri' },
  },
  amap: {
    normal: { tiles: amapHosts('8'), attribution: '© AMap' },
    satellite: { tiles: amapSat, attribution: '© AMap' },
  },
};

export const EMPTY = { type: 'FeatureCollection', features: [] } as GeoJSON.FeatureCollection;

const absolute = (url: string) => new URL(url, location.href).href;

/**
 * URLs of the offline shapes by source, fetched and parsed by the map's worker (never by the page):
 * light (world-atlas 110m) for a quick first paint, detailed (50m) once the page's own layers are drawn.
 */
export const BASE_SHAPES = {
  light: () => ({ 'base-land': absolute(land110), 'base-borders': absolute(borders110), 'base-coast': absolute(coast110) }),
  detailed: () => ({ 'base-land': absolute(land), 'base-borders': absolute(borders), 'base-coast': absolute(coast) }),
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
      'base-tiles': { type: 'raster', tiles: TILE_SOURCES.osm.normal.tiles, tileSize: 256, maxzoom: 19 },
    },
    layers: [
      { id: 'base-water', type: 'background', paint: { 'background-color': p.water } },
      { id: 'base-land', type: 'fill', source: 'base-land', paint: { 'fill-color': p.land, 'fill-antialias': true } },
      { id: 'base-coast', type: 'line', source: 'base-coast', paint: { 'line-color': p.coast, 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.6, 10, 2] } },
      {
        id: 'base-borders',
        type: 'line',
        source: 'base-borders',
        paint: { 'line-color': p.border, 'line-width': ['interpolate', ['linear'], ['zoom'], 2, 0.5, 10, 1.5], 'line-dasharray': [3, 2] },
      },
      { id: 'base-tiles', type: 'raster', source: 'base-tiles', layout: { visibility: 'none' } },
    ],
  };
}

let shapes: Promise<{ land: GeoJSON.FeatureCollection; borders: GeoJSON.MultiLineString; coast: GeoJSON.MultiLineString }> | undefined;

/** Country shapes as GeoJSON objects (the dashboard's chart), converted from TopoJSON once and loaded on demand (a separate chunk). */
export function offlineShapes() {
  shapes ??= Promise.all([import('world-atlas/countries-50m.json'), import('topojson-client')]).then(([atlas, topo]) => {
    const world = (atlas.default ?? atlas) as unknown as import('topojson-specification').Topology;
    const countries = world.objects.countries as import('topojson-specification').GeometryCollection;
    return {
      land: topo.feature(world, countries) as unknown as GeoJSON.FeatureCollection,
      borders: topo.mesh(world, countries, (a, b) => a !== b),
      coast: topo.mesh(world, countries, (a, b) => a === b),
    };
  });
  return shapes;
}
