// The map sources the console is offered: from MAP_SOURCES and MAP_TILE_*, Tianditu only with a
// key, hosts expanded; a wrong tile URL stops the platform at start.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { mapSettings } from '../src/modules/monitor/map-settings.js';

describe('map settings', () => {
  it('offers the offline map by default, and online sources without Tianditu when it has no key', () => {
    const r = mapSettings(loadConfig({}));
    expect(r.Default).toBe('offline');
    expect(r.Sources.map((s) => s.Id)).toEqual(['offline', 'osm', 'amap']);
    const amap = r.Sources.find((s) => s.Id === 'amap')!;
    expect(amap.Gcj02).toBe(true);
    expect(amap.Normal!.Tiles).toHaveLength(4);
    expect(amap.Normal!.Tiles[0]).toMatch(
      /^https:\/\/webrd01\.is\.autonavi\.com\/.*x=\{x\}&y=\{y\}&z=\{z\}$/,
    );
  });

  it('offers Tianditu with its key, its place names over its tiles, and starts with it when told', () => {
    const r = mapSettings(
      loadConfig({
        MAP_TILE_TIANDITU_KEY: 'k123',
        MAP_DEFAULT_SOURCE: 'tianditu',
        MAP_SOURCES: 'tianditu,offline',
      }),
    );
    expect(r.Default).toBe('tianditu');
    expect(r.Sources.map((s) => s.Id)).toEqual(['tianditu', 'offline']);
    const t = r.Sources[0]!;
    expect(t.Gcj02).toBe(false);
    expect(t.Normal!.Tiles).toHaveLength(8);
    expect(t.Normal!.Tiles[3]).toBe(
      'https://t3.tianditu.gov.cn/DataServer?T=vec_w&x={x}&y={y}&l={z}&tk=k123',
    );
    expect(t.Normal!.Labels[0]).toContain('T=cva_w');
    expect(t.Satellite!.Labels[0]).toContain('T=cia_w');
  });

  it('falls back to an offered default and refuses a tile URL without {z}, {x} and {y}', () => {
    expect(mapSettings(loadConfig({ MAP_SOURCES: 'osm', MAP_DEFAULT_SOURCE: 'offline' })).Default).toBe(
      'osm',
    );
    expect(() => loadConfig({ MAP_TILE_OSM_URL: 'https://tiles.example/{z}/{x}.png' })).toThrow(
      /MAP_TILE_OSM_URL/,
    );
    expect(() => loadConfig({ MAP_SOURCES: 'osm,google' })).toThrow(/MAP_SOURCES/);
  });
});
