// The account fences as the console reads them: query keys, the list call (one page, or every page
// for the monitor map), and the fences as GeoJSON for a map (districts with their boundary).
import { useQuery } from '@tanstack/react-query';
import { BIG_DATA_FIELDS, type accountFence } from '@wt/contract';
import { call } from '../../../api/client';
import { circleRing } from '../../devices/fence/geometry';
import { projectionOf, type MapProjection } from '../../../map/projection';
import { loadDistrictOutline, loadDistrictShape } from './district';

export type AccountFence = accountFence.AccountFence;
export type FenceType = AccountFence['Type'];

/** Invalidating ACCOUNT_FENCE_KEYS.all reloads the list, its map and the monitor's layer. */
export const ACCOUNT_FENCE_KEYS = {
  all: ['accountFences'] as const,
  list: ['accountFences', 'list'] as const,
  monitor: (userId: number | undefined) => ['accountFences', 'monitor', userId ?? 'self'] as const,
  district: (code: string) => ['accountFences', 'district', code] as const,
  districtName: (code: string, lang: string) => ['accountFences', 'districtName', code, lang] as const,
};

/** The largest page the list call answers. */
const PAGE = 1000;

/** Every fence of an account's subtree with its shape, page after page (the monitor map). */
export async function loadAllFences(userId?: number): Promise<AccountFence[]> {
  const out: AccountFence[] = [];
  for (let page = 1; ; page++) {
    const r = await call('/AccountFence/List', {
      UserId: userId,
      PageNo: page,
      PageCount: PAGE,
      WithShape: true,
    });
    out.push(...r.Items);
    if (!r.Items.length || out.length >= r.Total) return out;
  }
}

/** The shape fields of a fence (a stored one, or one being edited). */
export interface ShapeOf {
  Type: FenceType;
  Lat?: number | null;
  Lon?: number | null;
  Radius?: number | null;
  Points?: { Lat: number; Lon: number }[] | null;
  DistrictCode?: string | null;
}

/** A fence's boundary in WGS-84 ([lon, lat]), polygons of rings; null when it has none (yet). */
export function drawnGeometry(s: ShapeOf): GeoJSON.MultiPolygon | null {
  if (s.Type === 'circle') {
    if (s.Lat == null || s.Lon == null || !s.Radius || s.Radius <= 0) return null;
    return { type: 'MultiPolygon', coordinates: [[circleRing(s.Lat, s.Lon, s.Radius)]] };
  }
  if (s.Type === 'polygon') {
    if (!s.Points || s.Points.length < 3) return null;
    const ring = s.Points.map((p) => [p.Lon, p.Lat]);
    ring.push(ring[0]!);
    return { type: 'MultiPolygon', coordinates: [[ring]] };
  }
  return null;
}

export function projectMulti(g: GeoJSON.MultiPolygon, p: MapProjection): GeoJSON.MultiPolygon {
  return {
    type: 'MultiPolygon',
    coordinates: g.coordinates.map((poly) =>
      poly.map((ring) => ring.map(([lon, lat]) => p.toMap([lon!, lat!]))),
    ),
  };
}

/** The boundary of a district fence, kept in the query cache (the console's copy does not change). */
export function useDistrictShape(code: string | null | undefined) {
  return useQuery({
    queryKey: ACCOUNT_FENCE_KEYS.district(code ?? ''),
    queryFn: () => loadDistrictShape(code!),
    enabled: !!code && /^\d{6}$/.test(code),
    staleTime: Infinity,
  });
}

/** A district's area (its counties' polygons) and outline (without the borders between its counties). */
export interface DistrictGeometry {
  shape: GeoJSON.MultiPolygon;
  outline: GeoJSON.MultiLineString | null;
}

/** The boundaries of the district fences among these, by code (loaded once each). */
export function useDistrictShapes(codes: string[]) {
  const key = [...new Set(codes)].sort();
  return useQuery({
    queryKey: ['accountFences', 'districts', ...key],
    queryFn: async () => {
      const entries = await Promise.all(
        key.map(async (c) => {
          const [shape, outline] = await Promise.all([loadDistrictShape(c), loadDistrictOutline(c)]);
          return [c, shape ? { shape, outline } : null] as const;
        }),
      );
      return new Map(entries);
    },
    enabled: key.length > 0,
    staleTime: Infinity,
  });
}

export interface FenceFeatureProps {
  id: number;
  name: string;
  type: FenceType;
  selected: boolean;
}

/** The fences as map features in the map's coordinates (districts once their boundary is there). */
export function fenceFeatures(
  fences: readonly ShapeOf[] & readonly { FenceId: number; Name: string }[],
  districts: Map<string, DistrictGeometry | null> | undefined,
  projection: MapProjection,
  selectedId: number | null = null,
): GeoJSON.FeatureCollection<GeoJSON.MultiPolygon, FenceFeatureProps> {
  const features: GeoJSON.Feature<GeoJSON.MultiPolygon, FenceFeatureProps>[] = [];
  for (const f of fences as (ShapeOf & { FenceId: number; Name: string })[]) {
    const g =
      f.Type === 'district'
        ? f.DistrictCode
          ? (districts?.get(f.DistrictCode)?.shape ?? null)
          : null
        : drawnGeometry(f);
    if (!g) continue;
    features.push({
      type: 'Feature',
      properties: { id: f.FenceId, name: f.Name, type: f.Type, selected: f.FenceId === selectedId },
      geometry: projectMulti(g, projection),
    });
  }
  return { type: 'FeatureCollection', features };
}

/** The outlines of the district fences, in the map's coordinates (their areas' lines are not drawn). */
export function districtOutlines(
  fences: readonly (ShapeOf & { FenceId: number; Name: string })[],
  districts: Map<string, DistrictGeometry | null> | undefined,
  projection: MapProjection,
  selectedId: number | null = null,
): GeoJSON.FeatureCollection<GeoJSON.MultiLineString, FenceFeatureProps> {
  const features: GeoJSON.Feature<GeoJSON.MultiLineString, FenceFeatureProps>[] = [];
  for (const f of fences) {
    const outline = f.Type === 'district' && f.DistrictCode ? districts?.get(f.DistrictCode)?.outline : null;
    if (!outline) continue;
    features.push({
      type: 'Feature',
      properties: { id: f.FenceId, name: f.Name, type: f.Type, selected: f.FenceId === selectedId },
      geometry: {
        type: 'MultiLineString',
        coordinates: outline.coordinates.map((line) =>
          line.map(([lon, lat]) => projection.toMap([lon!, lat!])),
        ),
      },
    });
  }
  return { type: 'FeatureCollection', features };
}

/** The area-weighted centre of a ring (its vertex mean when it has no area). */
function ringCentre(ring: number[][]): { point: [number, number]; area: number } {
  let a = 0;
  let x = 0;
  let y = 0;
  for (let i = 0; i < ring.length - 1; i++) {
    const [x0, y0] = ring[i]!;
    const [x1, y1] = ring[i + 1]!;
    const c = x0! * y1! - x1! * y0!;
    a += c;
    x += (x0! + x1!) * c;
    y += (y0! + y1!) * c;
  }
  if (Math.abs(a) < 1e-12) {
    const n = ring.length || 1;
    return {
      point: [ring.reduce((s, p) => s + p[0]!, 0) / n, ring.reduce((s, p) => s + p[1]!, 0) / n],
      area: 0,
    };
  }
  return { point: [x / (3 * a), y / (3 * a)], area: Math.abs(a / 2) };
}

/** One point per fence for its name: the centre of its largest part. */
export function labelPoints(
  fc: GeoJSON.FeatureCollection<GeoJSON.MultiPolygon, FenceFeatureProps>,
): GeoJSON.FeatureCollection<GeoJSON.Point, FenceFeatureProps> {
  return {
    type: 'FeatureCollection',
    features: fc.features.flatMap((f) => {
      const parts = f.geometry.coordinates
        .filter((p) => p[0] && p[0].length > 2)
        .map((p) => ringCentre(p[0]!));
      if (!parts.length) return [];
      const best = parts.reduce((m, p) => (p.area > m.area ? p : m));
      return [
        {
          type: 'Feature' as const,
          properties: f.properties,
          geometry: { type: 'Point' as const, coordinates: best.point },
        },
      ];
    }),
  };
}

/** [west, south, east, north] of some features, or null. */
export function featureBounds(
  features: readonly GeoJSON.Feature<GeoJSON.MultiPolygon>[],
): [number, number, number, number] | null {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const f of features)
    for (const poly of f.geometry.coordinates)
      for (const ring of poly)
        for (const [x, y] of ring) {
          if (x! < w) w = x!;
          if (x! > e) e = x!;
          if (y! < s) s = y!;
          if (y! > n) n = y!;
        }
  return Number.isFinite(w) ? [w, s, e, n] : null;
}

export { projectionOf };

/** The most accounts whose devices frame the dialog's map (the first ones picked). */
const HOME_ACCOUNTS = 10;

/**
 * [lon, lat] of the located devices of the accounts a fence watches (each with its sub-accounts),
 * or of `owner`'s when none is picked or located yet: where the dialog's map opens, rather than at a country
 * far from them.
 */
export function useWatchedPositions(userIds: readonly number[] | undefined, owner?: number) {
  const ids = (userIds ?? []).slice(0, HOME_ACCOUNTS);
  return useQuery({
    queryKey: [...ACCOUNT_FENCE_KEYS.all, 'home', ids.length ? ids : ['owner', owner ?? null]],
    queryFn: async () => {
      const lat = BIG_DATA_FIELDS.indexOf('Lat');
      const lon = BIG_DATA_FIELDS.indexOf('Lon');
      const located = async (asked: { UserId?: number }[]) =>
        (await Promise.all(asked.map((b) => call('/device/devicesByUserIdPageColorBigData', b)))).flatMap((r) =>
          r.Rows.flatMap((row) => (typeof row[lat] === 'number' && typeof row[lon] === 'number' ? [[row[lon], row[lat]] as const] : [])),
        );
      const ownerAsked = [owner !== undefined ? { UserId: owner } : {}];
      const watched = ids.length ? await located(ids.map((id) => ({ UserId: id }))) : [];
      // Watched accounts whose devices never reported: the owner's devices, as with none picked.
      return watched.length ? watched : located(ownerAsked);
    },
    staleTime: 60_000,
  });
}
