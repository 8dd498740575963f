// Reading indoor scenes, floors and anchors as the contract answers them, and the one place that
// decides which scenes a caller reaches. Floors and anchors are reached through their scene, so a
// floor or anchor of a scene out of reach answers "not found" exactly like a missing id.
import { sql, type SQL } from 'drizzle-orm';
import { State, scene as schemas } from '@wt/contract';
import type { AuthUser } from '../../calls.js';
import type { Db } from '../../db/client.js';
import type { Tx } from '../../lib/crud.js';
import { AppError } from '../../lib/errors.js';
import { subtreePattern } from '../../lib/scope.js';
import { iso, rows } from '../../lib/sql.js';
import { iconUrl, mapUrl, planUrl } from './files.js';

type Executor = Db | Tx;
const q = <T>(db: Executor, query: SQL) => rows<T>(db as Db, query);
const list = (ids: readonly number[]) =>
  sql.join(
    ids.map((i) => sql`${i}`),
    sql`, `,
  );
export { list as idList };

/**
 * Which scenes a caller reaches, as a condition on a scenes alias `s`:
 * - 'edit' (the admin calls): scenes owned by the caller or an account below it;
 * - 'view' (the live map's reads): those, and scenes owned by the accounts above the caller but the
 *   root (a care home's operators see the care home's building). Never a sibling's.
 */
export function sceneReach(user: Pick<AuthUser, 'path'>, reach: 'edit' | 'view'): SQL {
  const above =
    reach === 'view' ? sql` OR (a.parent_id IS NOT NULL AND ${user.path} LIKE a.path || '%')` : sql``;
  return sql`s.owner_id IN (SELECT a.id FROM accounts a WHERE a.path LIKE ${subtreePattern(user)}${above})`;
}

export const sceneNotFound = () => new AppError(State.NOT_FOUND, 'scene.notFound');
export const floorNotFound = () => new AppError(State.NOT_FOUND, 'scene.floorNotFound');
export const anchorNotFound = () => new AppError(State.NOT_FOUND, 'scene.anchorNotFound');

interface SceneRow {
  id: number;
  owner_id: number;
  owner_login_name: string;
  name: string;
  lat: number;
  lon: number;
  address: string;
  enabled: boolean;
  beacon_type: number;
  method: number;
  map_key: string;
  icon_key: string | null;
  floor_count: number;
  anchor_count: number;
  created_at: Date;
}

const SCENE_SELECT = sql`SELECT s.id, s.owner_id, o.login_name AS owner_login_name, s.name, s.lat, s.lon, s.address, s.enabled,
  s.beacon_type, s.method, s.map_key, s.icon_key, s.created_at,
  (SELECT count(*)::int FROM floors f WHERE f.scene_id = s.id) AS floor_count,
  (SELECT count(*)::int FROM scene_anchors an WHERE an.scene_id = s.id) AS anchor_count
  FROM scenes s JOIN accounts o ON o.id = s.owner_id`;

const toScene = (r: SceneRow): schemas.Scene => ({
  SceneId: Number(r.id),
  UserId: Number(r.owner_id),
  OwnerLoginName: r.owner_login_name,
  Name: r.name,
  Lat: Number(r.lat),
  Lon: Number(r.lon),
  Address: r.address,
  Enabled: r.enabled,
  BeaconType: Number(r.beacon_type),
  Method: Number(r.method),
  MapUrl: mapUrl(Number(r.id), r.map_key),
  IconUrl: iconUrl(Number(r.id), r.icon_key),
  FloorCount: Number(r.floor_count),
  AnchorCount: Number(r.anchor_count),
  CreatedAt: iso(r.created_at)!,
});

export async function scenesWhere(
  db: Executor,
  cond: SQL,
  tail: SQL = sql`ORDER BY s.id`,
): Promise<schemas.Scene[]> {
  return (await q<SceneRow>(db, sql`${SCENE_SELECT} WHERE ${cond} ${tail}`)).map(toScene);
}

export async function countScenes(db: Executor, cond: SQL): Promise<number> {
  const [r] = await q<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM scenes s WHERE ${cond}`);
  return Number(r?.n ?? 0);
}

/** The scene in reach, or "not found". */
export async function sceneInReach(
  db: Executor,
  user: Pick<AuthUser, 'path'>,
  reach: 'edit' | 'view',
  id: number,
): Promise<schemas.Scene> {
  const [found] = await scenesWhere(db, sql`s.id = ${id} AND ${sceneReach(user, reach)}`);
  if (!found) throw sceneNotFound();
  return found;
}

export interface FloorRow {
  id: number;
  scene_id: number;
  floor_no: number;
  name: string;
  description: string;
  kind: number;
  plan_key: string;
  width: number;
  height: number;
  metres_per_pixel: number | null;
  origin_lat: number | null;
  origin_lon: number | null;
  rotation: number | null;
  exponent: number;
  anchor_count: number;
}

/** Floors (alias f) with their scene (alias s) joined, so a reach condition applies. */
const FLOOR_SELECT = sql`SELECT f.id, f.scene_id, f.floor_no, f.name, f.description, f.kind, f.plan_key, f.width, f.height,
  f.metres_per_pixel, f.origin_lat, f.origin_lon, f.rotation, f.exponent,
  (SELECT count(*)::int FROM scene_anchors an WHERE an.floor_id = f.id) AS anchor_count
  FROM floors f JOIN scenes s ON s.id = f.scene_id`;

export const toFloor = (r: FloorRow): schemas.FloorSummary => ({
  FloorId: Number(r.id),
  SceneId: Number(r.scene_id),
  FloorNo: Number(r.floor_no),
  Name: r.name,
  Description: r.description,
  Type: Number(r.kind),
  PlanUrl: planUrl(Number(r.id), r.plan_key),
  Width: Number(r.width),
  Height: Number(r.height),
  MetresPerPixel: r.metres_per_pixel === null ? null : Number(r.metres_per_pixel),
  Geo:
    r.origin_lat === null || r.origin_lon === null
      ? null
      : {
          OriginLat: Number(r.origin_lat),
          OriginLon: Number(r.origin_lon),
          Rotation: Number(r.rotation ?? 0),
        },
  Exponent: Number(r.exponent),
  AnchorCount: Number(r.anchor_count),
});

export async function floorsWhere(
  db: Executor,
  cond: SQL,
  tail: SQL = sql`ORDER BY f.scene_id, f.floor_no, f.id`,
): Promise<schemas.FloorSummary[]> {
  return (await q<FloorRow>(db, sql`${FLOOR_SELECT} WHERE ${cond} ${tail}`)).map(toFloor);
}

export async function countFloors(db: Executor, cond: SQL): Promise<number> {
  const [r] = await q<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM floors f JOIN scenes s ON s.id = f.scene_id WHERE ${cond}`,
  );
  return Number(r?.n ?? 0);
}

/** The floor in reach (through its scene), or "not found". */
export async function floorInReach(
  db: Executor,
  user: Pick<AuthUser, 'path'>,
  reach: 'edit' | 'view',
  id: number,
): Promise<schemas.FloorSummary> {
  const [found] = await floorsWhere(db, sql`f.id = ${id} AND ${sceneReach(user, reach)}`);
  if (!found) throw floorNotFound();
  return found;
}

interface AnchorRow {
  id: number;
  scene_id: number;
  floor_id: number;
  name: string;
  mac: string | null;
  code: string | null;
  major: number | null;
  minor: number | null;
  kind: number;
  state: number;
  x: number;
  y: number;
  height: number;
  heading: number;
  rssi_1m: number;
  created_at: Date;
}

/** Anchors (alias an) with their scene (alias s) joined. */
const ANCHOR_SELECT = sql`SELECT an.id, an.scene_id, an.floor_id, an.name, an.mac, an.code, an.major, an.minor, an.kind, an.state,
  an.x, an.y, an.height, an.heading, an.rssi_1m, an.created_at
  FROM scene_anchors an JOIN scenes s ON s.id = an.scene_id`;

const toAnchor = (r: AnchorRow): schemas.Anchor => ({
  BeaconId: Number(r.id),
  SceneId: Number(r.scene_id),
  FloorId: Number(r.floor_id),
  Name: r.name,
  // A registry beacon placed indoors may have only one identity (a MAC or a code+major+minor).
  Mac: r.mac ?? '',
  Code: r.code ?? '',
  Major: Number(r.major ?? 0),
  Minor: Number(r.minor ?? 0),
  Type: Number(r.kind),
  State: Number(r.state),
  X: Number(r.x),
  Y: Number(r.y),
  Height: Number(r.height),
  Heading: Number(r.heading),
  Rssi1m: Number(r.rssi_1m),
  CreatedAt: iso(r.created_at)!,
});

export async function anchorsWhere(
  db: Executor,
  cond: SQL,
  tail: SQL = sql`ORDER BY an.floor_id, an.id`,
): Promise<schemas.Anchor[]> {
  return (await q<AnchorRow>(db, sql`${ANCHOR_SELECT} WHERE ${cond} ${tail}`)).map(toAnchor);
}

export async function countAnchors(db: Executor, cond: SQL): Promise<number> {
  const [r] = await q<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM scene_anchors an JOIN scenes s ON s.id = an.scene_id WHERE ${cond}`,
  );
  return Number(r?.n ?? 0);
}

/** The anchor in reach (through its scene), or "not found". */
export async function anchorInReach(
  db: Executor,
  user: Pick<AuthUser, 'path'>,
  reach: 'edit' | 'view',
  id: number,
): Promise<schemas.Anchor> {
  const [found] = await anchorsWhere(db, sql`an.id = ${id} AND ${sceneReach(user, reach)}`);
  if (!found) throw anchorNotFound();
  return found;
}

/** Scenes with their floors, in the order given. */
export async function withFloors(db: Executor, scenes: schemas.Scene[]) {
  if (!scenes.length) return [];
  const floors = await floorsWhere(db, sql`f.scene_id IN (${list(scenes.map((s) => s.SceneId))})`);
  return scenes.map((s) => ({ ...s, Floors: floors.filter((f) => f.SceneId === s.SceneId) }));
}
