// Shapes shared by the indoor positioning engine: the configuration it is given (scenes, floors,
// anchors, AOA locators) and the fixes it produces. Units: metres in a floor's plan frame (origin
// at the plan image's top-left corner, x to the right, y down), dBm, degrees, ms since epoch.

/** Where a floor plan sits on the earth: its top-left corner, its rotation and its scale. */
export interface Georeference {
  /** WGS-84 of the plan's top-left corner. */
  originLat: number;
  originLon: number;
  /** Degrees, clockwise on a north-up map, of the plan's +x axis from east (0: +x east, +y south). */
  rotation: number;
  /** Metres per plan image pixel. */
  metresPerPixel: number;
}

export interface FloorModel {
  floorId: string;
  /** Storey number (0 ground, 1 first, -1 basement); orders floors, not used for distances. */
  level: number;
  /** Path-loss exponent n of the log-distance model on this floor (default 2.0). */
  exponent?: number;
  geo?: Georeference | null;
}

export type AnchorKind = 'ble' | 'uwb';

export interface AnchorModel {
  /** MAC (`AC:23:3F:A0:00:01`) or iBeacon identity (`uuid:major:minor`), see anchorKey. */
  key: string;
  floorId: string;
  x: number;
  y: number;
  /** Mounting height above the floor, m (default 2.5). */
  height?: number;
  /** RSSI heard at 1 m, dBm (default -59). */
  rssi1m?: number;
  kind: AnchorKind;
}

export interface LocatorModel {
  key: string;
  floorId: string;
  x: number;
  y: number;
  /** Mounting height, m. */
  height: number;
  /** Boresight, degrees clockwise on screen from the plan's +x axis (atan2(dy, dx) with y down). */
  heading: number;
}

export type PositioningMethod = 'triangular' | 'nearest';

export interface SceneModel {
  sceneId: string;
  method: PositioningMethod;
  floors: FloorModel[];
  anchors: AnchorModel[];
  locators: LocatorModel[];
}

export type FixMethod = 'nearest' | 'trilateration' | 'uwb' | 'aoa';

export interface IndoorFix {
  tag: string;
  sceneId: string;
  floorId: string;
  /** Plan metres. */
  x: number;
  y: number;
  /** Radius, m, within which the true position most likely is (about one standard deviation per axis combined). */
  accuracy: number;
  method: FixMethod;
  /** Anchors (or locators) that contributed. */
  anchors: number;
  time: number;
  /** From the floor's georeference, when it has one. */
  lat?: number;
  lon?: number;
}

export interface Heard {
  anchor: string;
  rssi: number;
}

export interface UwbReading {
  /** The UWB anchor (or gateway) key that places the tag on a floor. */
  anchor: string;
  /** Coordinates in that floor's plan frame, m. */
  x: number;
  y: number;
  z?: number;
  /** Fix quality, percent 0..100 (100 best); see engine.ts for the accuracy mapping. */
  quality?: number;
}

export interface AoaReading {
  locator: string;
  /** Degrees relative to the locator's boresight, positive clockwise on screen. */
  azimuth: number;
  /** Degrees above horizontal. */
  elevation?: number;
}

/** A finite number within [min, max]. */
export function inRange(v: unknown, min: number, max: number): v is number {
  return typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;
}
