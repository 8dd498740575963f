// The area of an account fence row, compiled for point tests (rules/area.ts). District boundaries
// come from a loader (the shipped boundary dataset at full precision), passed in so the rules stay
// free of I/O and tests can hand in their own shapes.
import { compileArea, type Area, type Polygon } from '../../rules/area.js';
import type { Schedule } from '../../rules/schedule.js';

export interface FenceGeometryRow {
  kind: string;
  lat: number | null;
  lon: number | null;
  radius: number | null;
  /** [[lat, lon], ...] */
  points: [number, number][] | null;
  district_code: string | null;
}

/** The boundary of a district as polygons of [lon, lat] rings, or null when the code is unknown. */
export type DistrictPolygons = (code: string) => Promise<Polygon[] | null>;

/** A fence that is evaluated: its area, alarm type, schedule and owner's time zone. */
export interface CompiledFence {
  id: number;
  name: string;
  ownerId: number;
  alarmType: number;
  schedule: Schedule | null;
  /** Owner account's time zone offset, minutes east of UTC. */
  tz: number;
  area: Area;
}

/** Compiles a fence row's area. An unknown district (the dataset changed) is an empty area: it contains nothing. */
export async function fenceArea(row: FenceGeometryRow, districts: DistrictPolygons): Promise<Area> {
  if (row.kind === 'circle') return compileArea({ kind: 'circle', center: { lat: row.lat!, lon: row.lon! }, radius: row.radius! });
  if (row.kind === 'polygon') return compileArea({ kind: 'polygon', points: (row.points ?? []).map(([lat, lon]) => ({ lat, lon })) });
  const polygons = row.district_code ? await districts(row.district_code) : null;
  return compileArea({ kind: 'multipolygon', polygons: polygons ?? [] });
}
