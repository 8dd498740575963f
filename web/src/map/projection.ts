// Positions are stored in WGS-84; AMap draws its tiles in GCJ-02. Every map layer turns a stored
// position into the map's coordinates with `toMap`, and a position picked on the map (a drawn
// fence) back with `fromMap`, so the chosen map source never shifts what is stored.
import gcoord from 'gcoord';
import { useMapSettings, usesGcj02, type TileProvider } from './settings';

export type LonLat = [number, number];

export interface MapProjection {
  toMap: (p: LonLat) => LonLat;
  fromMap: (p: LonLat) => LonLat;
}

const identity: MapProjection = { toMap: (p) => p, fromMap: (p) => p };
const gcj02: MapProjection = {
  toMap: (p) => gcoord.transform(p, gcoord.WGS84, gcoord.GCJ02) as LonLat,
  fromMap: (p) => gcoord.transform(p, gcoord.GCJ02, gcoord.WGS84) as LonLat,
};

export const projectionOf = (provider: TileProvider): MapProjection =>
  usesGcj02(provider) ? gcj02 : identity;

/** The projection of the map source this browser chose. */
export function useMapProjection(): MapProjection {
  return projectionOf(useMapSettings((s) => s.provider));
}
