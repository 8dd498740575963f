// Map settings of this browser: base layer source and mode (SPEC §2 normal/satellite), kept in
// localStorage. The offline layer ships with the console, so the map is never blank without internet.
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** offline: the map shipped with the console; osm: OpenStreetMap / Esri imagery; amap: AMap tiles (GCJ-02); tianditu: 天地图 (WGS-84). */
export type TileProvider = 'offline' | 'osm' | 'amap' | 'tianditu';
export type MapMode = 'normal' | 'satellite';

interface MapSettings {
  provider: TileProvider;
  /** The user picked the source; until then the platform's default (MAP_DEFAULT_SOURCE) applies. */
  chosen: boolean;
  mode: MapMode;
  /** Optional tile URL templates replacing the provider's, e.g. a tile server inside the network. */
  normalUrl: string;
  satelliteUrl: string;
  set: (patch: Partial<Omit<MapSettings, 'set'>>) => void;
}

export const useMapSettings = create<MapSettings>()(
  persist(
    (set) => ({
      provider: 'offline',
      chosen: false,
      mode: 'normal',
      normalUrl: '',
      satelliteUrl: '',
      set: (patch) => set(patch.provider && patch.chosen === undefined ? { ...patch, chosen: true } : patch),
    }),
    { name: 'wt-map-settings', storage: createJSONStorage(() => localStorage) },
  ),
);

/** AMap tiles are drawn in GCJ-02: device coordinates are shifted to match them. */
export const usesGcj02 = (provider: TileProvider) => provider === 'amap';
