// The map sources the console offers (/Map/Settings), from MAP_SOURCES and MAP_TILE_*: tile URL
// templates with their hosts expanded, so the console needs no knowledge of any provider.
import type { Config } from '../../config.js';

type SourceId = 'offline' | 'osm' | 'amap' | 'tianditu';

interface TileLayer {
  Tiles: string[];
  Labels: string[];
}

const hosts = (url: string, subdomains: string, key = '') => {
  const filled = url.replaceAll('{key}', encodeURIComponent(key));
  const subs = subdomains
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return filled.includes('{s}') && subs.length ? subs.map((s) => filled.replaceAll('{s}', s)) : [filled];
};

export function mapSettings(config: Config) {
  const key = config.MAP_TILE_TIANDITU_KEY;
  const layer = (tiles: string[], labels: string[] = []): TileLayer => ({ Tiles: tiles, Labels: labels });
  const sources: Record<
    SourceId,
    | (() => { Gcj02: boolean; Attribution: string; Normal: TileLayer | null; Satellite: TileLayer | null })
    | null
  > = {
    offline: () => ({ Gcj02: false, Attribution: '© Natural Earth', Normal: null, Satellite: null }),
    osm: () => ({
      Gcj02: false,
      Attribution: '© OpenStreetMap contributors, © Esri',
      Normal: layer(hosts(config.MAP_TILE_OSM_URL, '')),
      Satellite: layer(hosts(config.MAP_TILE_OSM_SATELLITE_URL, '')),
    }),
    amap: () => ({
      Gcj02: true,
      Attribution: '© AMap',
      Normal: layer(hosts(config.MAP_TILE_AMAP_URL, config.MAP_TILE_AMAP_SUBDOMAINS)),
      Satellite: layer(hosts(config.MAP_TILE_AMAP_SATELLITE_URL, config.MAP_TILE_AMAP_SUBDOMAINS)),
    }),
    // Tianditu needs a key; without one it is not offered.
    tianditu: key
      ? () => ({
          Gcj02: false,
          Attribution: '© 天地图 Tianditu',
          Normal: layer(
            hosts(config.MAP_TILE_TIANDITU_URL, config.MAP_TILE_TIANDITU_SUBDOMAINS, key),
            hosts(config.MAP_TILE_TIANDITU_LABELS_URL, config.MAP_TILE_TIANDITU_SUBDOMAINS, key),
          ),
          Satellite: layer(
            hosts(config.MAP_TILE_TIANDITU_SATELLITE_URL, config.MAP_TILE_TIANDITU_SUBDOMAINS, key),
            hosts(config.MAP_TILE_TIANDITU_SATELLITE_LABELS_URL, config.MAP_TILE_TIANDITU_SUBDOMAINS, key),
          ),
        })
      : null,
  };
  const Sources = config.MAP_SOURCES.flatMap((id) => {
    const make = sources[id];
    return make ? [{ Id: id, ...make() }] : [];
  });
  if (!Sources.length) Sources.push({ Id: 'offline', ...sources.offline!() });
  const Default = Sources.some((s) => s.Id === config.MAP_DEFAULT_SOURCE)
    ? config.MAP_DEFAULT_SOURCE
    : Sources[0]!.Id;
  return { State: 200 as const, Default, Sources };
}
