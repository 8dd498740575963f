// Changing indoor scenes, floors and anchors (SPEC §3, §5, §8, §9): each check runs before anything
// is stored, limits and SPEC §8's refusals are decided under the scene's (or the owner's) row lock,
// and every change is announced cluster-wide (SCENES_CHANGED_TOPIC) so every positioning engine
// reloads the scenes named.
import { normalizeMac } from '../../indoor/index.js';
import { sql, type SQL } from 'drizzle-orm';
import { State, scene as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { floors, scenes } from '../../db/schema/index.js';
import { scopedCrud, type Tx } from '../../lib/crud.js';
import { conflict, fieldError } from '../../lib/errors.js';
import { accountInScope } from '../../lib/scope.js';
import { isUniqueViolation, rows } from '../../lib/sql.js';
import { checkMap, checkPlan, checkSceneIcon, newFileKey } from './files.js';
import {
  anchorInReach,
  countAnchors,
  countFloors,
  floorInReach,
  floorNotFound,
  idList,
  sceneInReach,
  sceneNotFound,
  sceneReach,
} from './repo.js';

const { MAX_SCENES, MAX_FLOORS, MAX_ANCHORS_PER_FLOOR, SCENES_CHANGED_TOPIC } = schemas;

type SceneBody = z.output<typeof schemas.addSceneRequest>;
type SceneEditBody = z.output<typeof schemas.editSceneRequest>;
type FloorBody = z.output<typeof schemas.addFloorRequest>;
type FloorEditBody = z.output<typeof schemas.editFloorRequest>;
type AnchorBody = z.output<typeof schemas.addAnchorRequest>;
type AnchorEditBody = z.output<typeof schemas.editAnchorRequest>;
type Failure = { Imei: string; Message: string; Params?: Record<string, unknown> };

/** What the positioning engines hear when scenes, floors or anchors change (they reload those scenes). */
export interface ScenesChangedEvent {
  sceneIds: number[];
}

export const changed = (ctx: AuthedContext, sceneIds: number[]) => {
  if (sceneIds.length)
    ctx.deps.bus.publish(SCENES_CHANGED_TOPIC, {
      sceneIds: [...new Set(sceneIds)],
    } satisfies ScenesChangedEvent);
};

const sceneCrud = scopedCrud({
  table: scenes,
  id: scenes.id,
  owner: scenes.ownerId,
  select: (db: Db) => db.select({ id: scenes.id, ownerId: scenes.ownerId }).from(scenes).$dynamic(),
  notFound: 'scene.notFound',
});

const asDb = (tx: Tx) => tx as unknown as Db;
const batch = (done: number, failed: Failure[]) =>
  ({ State: State.OK, Succeeded: done, Failed: failed }) as const;

/** Locks a scene's row for the transaction (anchors and floors are counted and typed under it); null when gone. */
async function lockScene(tx: Tx, sceneId: number): Promise<{ id: number; beacon_type: number } | null> {
  const [row] = await rows<{ id: number; beacon_type: number }>(
    asDb(tx),
    sql`SELECT id, beacon_type FROM scenes WHERE id = ${sceneId} FOR UPDATE`,
  );
  return row ?? null;
}

/**
 * Anchor types a scene takes: a Bluetooth scene BLE beacons, AOA locators and UWB anchors (a wing
 * with UWB, as the demo care home has); a UWB scene UWB anchors and AOA locators.
 */
const ALLOWED_ANCHORS: Record<number, { types: number[]; sceneType: string; allowed: string }> = {
  1: { types: [1, 2, 3], sceneType: 'BLE', allowed: 'BLE, UWB, AOA' },
  2: { types: [2, 3], sceneType: 'UWB', allowed: 'UWB, AOA' },
};

function anchorTypeRefusal(
  beaconType: number,
  anchorType: number,
): { key: string; params: Record<string, unknown> } | null {
  const fit = ALLOWED_ANCHORS[beaconType];
  if (!fit || fit.types.includes(anchorType)) return null;
  return { key: 'scene.anchorTypeScene', params: { sceneType: fit.sceneType, allowed: fit.allowed } };
}


/** A taken MAC or code+major+minor (the unique indexes) answers "already exists". */
async function uniqueAnchor<R>(write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('scene.macTaken');
    throw err;
  }
}

// ---- scenes ----------------------------------------------------------------------------------------

const sceneValues = (b: SceneBody | SceneEditBody) => ({
  name: b.Name,
  lat: b.Lat,
  lon: b.Lon,
  address: b.Address,
  enabled: b.Enabled,
  beaconType: b.BeaconType,
  method: b.Method,
});

export async function createScene(ctx: AuthedContext, b: SceneBody) {
  const { db } = ctx.deps.database;
  const owner = await accountInScope(db, ctx.user, b.UserId);
  // Files are checked before anything is stored; each gets its own new key.
  const map = checkMap(b.MapSvg);
  const icon = b.Icon ? checkSceneIcon(b.Icon) : null;
  const id = await sceneCrud.insert(
    db,
    {
      ownerId: owner.id,
      ...sceneValues(b),
      mapSvg: map,
      mapKey: newFileKey(),
      icon: icon?.bytes ?? null,
      iconType: icon?.type ?? null,
      iconKey: icon ? newFileKey() : null,
    },
    // Counted under the owner's row lock: two creates at once cannot both pass the fifth.
    { account: owner.id, max: MAX_SCENES, message: 'scene.tooMany' },
  );
  changed(ctx, [id]);
  return { State: State.OK, SceneId: id } as const;
}

export async function editScene(ctx: AuthedContext, b: SceneEditBody) {
  const { db } = ctx.deps.database;
  await sceneInReach(db, ctx.user, 'edit', b.SceneId);
  const map = b.MapSvg !== undefined ? checkMap(b.MapSvg) : null;
  // Absent: kept; '': removed; else the new icon.
  const icon = b.Icon === undefined ? undefined : b.Icon.trim() === '' ? null : checkSceneIcon(b.Icon);
  await db.transaction(async (tx) => {
    const locked = await lockScene(tx, b.SceneId);
    if (!locked) throw sceneNotFound();
    // SPEC §8: anchors deployed fix the scene's beacon type (counted under the lock anchors take too).
    if (
      Number(locked.beacon_type) !== b.BeaconType &&
      (await countAnchors(tx, sql`an.scene_id = ${b.SceneId}`)) > 0
    )
      throw fieldError('BeaconType', 'scene.typeLocked');
    await tx
      .update(scenes)
      .set({
        ...sceneValues(b),
        ...(map !== null ? { mapSvg: map, mapKey: newFileKey() } : {}),
        ...(icon === undefined
          ? {}
          : icon === null
            ? { icon: null, iconType: null, iconKey: null }
            : { icon: icon.bytes, iconType: icon.type, iconKey: newFileKey() }),
        updatedAt: new Date(),
      })
      .where(sql`${scenes.id} = ${b.SceneId}`);
  });
  changed(ctx, [b.SceneId]);
  return { State: State.OK, SceneId: b.SceneId } as const;
}

export async function deleteScenes(ctx: AuthedContext, b: { SceneIds: number[] }) {
  const { db } = ctx.deps.database;
  const outcome = await sceneCrud.remove(db, ctx.user, b.SceneIds, {
    // SPEC §8: a scene with anchors deployed stays. Locked first, so no anchor arrives meanwhile.
    refuse: async (tx, ids) => {
      await tx.execute(sql`SELECT id FROM scenes WHERE id IN (${idList(ids)}) FOR UPDATE`);
      const held = await rows<{ scene_id: number }>(
        asDb(tx),
        sql`SELECT DISTINCT scene_id FROM scene_anchors WHERE scene_id IN (${idList(ids)})`,
      );
      return new Map(held.map((r) => [Number(r.scene_id), { key: 'scene.anchorsDeployed' }]));
    },
    // Its floors go with it.
    before: async (tx, ids) => {
      await tx.execute(sql`DELETE FROM floors WHERE scene_id IN (${idList(ids)})`);
    },
  });
  changed(ctx, outcome.deleted);
  return batch(
    outcome.deleted.length,
    outcome.refused.map((r) => ({
      Imei: String(r.id),
      Message: r.key,
      ...(r.params ? { Params: r.params } : {}),
    })),
  );
}

// ---- floors ----------------------------------------------------------------------------------------

const geoValues = (b: Pick<FloorBody, 'Geo'>) =>
  b.Geo === undefined
    ? {}
    : b.Geo === null
      ? { originLat: null, originLon: null, rotation: null }
      : { originLat: b.Geo.OriginLat, originLon: b.Geo.OriginLon, rotation: b.Geo.Rotation };

const floorValues = (b: FloorBody | FloorEditBody) => ({
  floorNo: b.FloorNo,
  name: b.Name,
  description: b.Description,
  kind: b.Type,
  ...(b.MetresPerPixel !== undefined ? { metresPerPixel: b.MetresPerPixel } : {}),
  ...geoValues(b),
  ...(b.Exponent !== undefined ? { exponent: b.Exponent } : {}),
});

/** A floor number another floor of the scene has. */
async function floorNoTaken(tx: Tx, sceneId: number, floorNo: number, except = 0) {
  const [taken] = await rows<{ id: number }>(
    asDb(tx),
    sql`SELECT id FROM floors WHERE scene_id = ${sceneId} AND floor_no = ${floorNo} AND id <> ${except} LIMIT 1`,
  );
  if (taken) throw fieldError('FloorNo', 'scene.floorNoTaken', { floorNo });
}

/** Two saves of one floor number at once: the unique index refuses the second the same way. */
async function uniqueFloorNo<R>(floorNo: number, write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw fieldError('FloorNo', 'scene.floorNoTaken', { floorNo });
    throw err;
  }
}

export async function createFloor(ctx: AuthedContext, b: FloorBody) {
  const { db } = ctx.deps.database;
  await sceneInReach(db, ctx.user, 'edit', b.SceneId);
  const plan = checkPlan(b.Plan);
  const id = await uniqueFloorNo(b.FloorNo, () =>
    db.transaction(async (tx) => {
      if (!(await lockScene(tx, b.SceneId))) throw sceneNotFound();
      if ((await countFloors(tx, sql`f.scene_id = ${b.SceneId}`)) >= MAX_FLOORS)
        throw conflict('scene.floorsMax', { max: MAX_FLOORS });
      await floorNoTaken(tx, b.SceneId, b.FloorNo);
      const values = {
        sceneId: b.SceneId,
        ...floorValues(b),
        plan: plan.bytes,
        planKey: newFileKey(),
        width: plan.width,
        height: plan.height,
      };
      const [row] = await rows<{ id: number }>(
        asDb(tx),
        sql`INSERT INTO floors (scene_id, floor_no, name, description, kind, plan, plan_key, width, height, metres_per_pixel, origin_lat, origin_lon, rotation, exponent)
          VALUES (${values.sceneId}, ${values.floorNo}, ${values.name}, ${values.description}, ${values.kind}, ${values.plan}, ${values.planKey},
            ${values.width}, ${values.height}, ${values.metresPerPixel ?? null}, ${values.originLat ?? null}, ${values.originLon ?? null},
            ${values.rotation ?? null}, ${values.exponent ?? 2})
          RETURNING id`,
      );
      return Number(row!.id);
    }),
  );
  changed(ctx, [b.SceneId]);
  return { State: State.OK, FloorId: id } as const;
}

export async function editFloor(ctx: AuthedContext, b: FloorEditBody) {
  const { db } = ctx.deps.database;
  const floor = await floorInReach(db, ctx.user, 'edit', b.FloorId);
  const plan = b.Plan !== undefined ? checkPlan(b.Plan) : null;
  await uniqueFloorNo(b.FloorNo, () =>
    db.transaction(async (tx) => {
      if (!(await lockScene(tx, floor.SceneId))) throw floorNotFound();
      // SPEC §8: anchors deployed on the floor fix its type.
      if (b.Type !== floor.Type && (await countAnchors(tx, sql`an.floor_id = ${floor.FloorId}`)) > 0)
        throw fieldError('Type', 'scene.typeLocked');
      await floorNoTaken(tx, floor.SceneId, b.FloorNo, floor.FloorId);
      await tx
        .update(floors)
        .set({
          ...floorValues(b),
          ...(plan
            ? { plan: plan.bytes, planKey: newFileKey(), width: plan.width, height: plan.height }
            : {}),
          updatedAt: new Date(),
        })
        .where(sql`${floors.id} = ${floor.FloorId}`);
    }),
  );
  changed(ctx, [floor.SceneId]);
  return { State: State.OK, FloorId: floor.FloorId } as const;
}

export async function deleteFloors(ctx: AuthedContext, b: { FloorIds: number[] }) {
  const { db } = ctx.deps.database;
  const wanted = [...new Set(b.FloorIds)];
  const result = await db.transaction(async (tx) => {
    const found = await rows<{ id: number; scene_id: number }>(
      asDb(tx),
      sql`SELECT f.id, f.scene_id FROM floors f JOIN scenes s ON s.id = f.scene_id WHERE f.id IN (${idList(wanted)}) AND ${sceneReach(ctx.user, 'edit')}`,
    );
    const sceneOf = new Map(found.map((f) => [Number(f.id), Number(f.scene_id)]));
    if (found.length)
      await tx.execute(
        sql`SELECT id FROM scenes WHERE id IN (${idList([...new Set(sceneOf.values())])}) FOR UPDATE`,
      );
    const held = found.length
      ? new Set(
          (
            await rows<{ floor_id: number }>(
              asDb(tx),
              sql`SELECT DISTINCT floor_id FROM scene_anchors WHERE floor_id IN (${idList([...sceneOf.keys()])})`,
            )
          ).map((r) => Number(r.floor_id)),
        )
      : new Set<number>();
    const failed: Failure[] = [];
    const deleted: number[] = [];
    for (const id of wanted) {
      if (!sceneOf.has(id)) failed.push({ Imei: String(id), Message: 'scene.floorNotFound' });
      else if (held.has(id)) failed.push({ Imei: String(id), Message: 'scene.anchorsDeployed' });
      else deleted.push(id);
    }
    if (deleted.length) await tx.execute(sql`DELETE FROM floors WHERE id IN (${idList(deleted)})`);
    return { failed, deleted, scenes: deleted.map((id) => sceneOf.get(id)!) };
  });
  changed(ctx, result.scenes);
  return batch(result.deleted.length, result.failed);
}

// ---- anchors ---------------------------------------------------------------------------------------

const anchorValues = (b: AnchorBody | AnchorEditBody) => ({
  name: b.Name,
  // The contract lets only six hex pairs through: AC-23-3f-a0-00-01 and ac233fa00001 are AC:23:3F:A0:00:01.
  mac: normalizeMac(b.Mac)!,
  code: b.Code,
  major: b.Major,
  minor: b.Minor,
  kind: b.Type,
  state: b.State,
  x: b.X,
  y: b.Y,
  height: b.Height,
  heading: b.Heading,
  rssi1m: b.Rssi1m,
});

/** Under the scene's lock: the anchor's type fits the scene and the floor has room. */
export async function checkPlacement(
  tx: Tx,
  floor: { FloorId: number; SceneId: number },
  type: number,
  adding: boolean,
) {
  const locked = await lockScene(tx, floor.SceneId);
  if (!locked) throw floorNotFound();
  const refusal = anchorTypeRefusal(Number(locked.beacon_type), type);
  if (refusal) throw fieldError('Type', refusal.key, refusal.params);
  if (adding && (await countAnchors(tx, sql`an.floor_id = ${floor.FloorId}`)) >= MAX_ANCHORS_PER_FLOOR)
    throw conflict('scene.anchorsMax', { max: MAX_ANCHORS_PER_FLOOR });
}

export async function createAnchor(ctx: AuthedContext, b: AnchorBody) {
  const { db } = ctx.deps.database;
  const floor = await floorInReach(db, ctx.user, 'edit', b.FloorId);
  const v = anchorValues(b);
  const id = await uniqueAnchor(() =>
    db.transaction(async (tx) => {
      await checkPlacement(tx, floor, b.Type, true);
      const [row] = await rows<{ id: number }>(
        asDb(tx),
        sql`INSERT INTO scene_anchors (owner_id, scene_id, floor_id, name, mac, code, major, minor, kind, state, x, y, height, heading, rssi_1m)
          VALUES ((SELECT owner_id FROM scenes WHERE id = ${floor.SceneId}), ${floor.SceneId}, ${floor.FloorId}, ${v.name}, ${v.mac}, ${v.code}, ${v.major}, ${v.minor}, ${v.kind}, ${v.state},
            ${v.x}, ${v.y}, ${v.height}, ${v.heading}, ${v.rssi1m})
          RETURNING id`,
      );
      return Number(row!.id);
    }),
  );
  changed(ctx, [floor.SceneId]);
  return { State: State.OK, BeaconId: id } as const;
}

export async function editAnchor(ctx: AuthedContext, b: AnchorEditBody) {
  const { db } = ctx.deps.database;
  const anchor = await anchorInReach(db, ctx.user, 'edit', b.BeaconId);
  // Moved to another floor (of any scene in reach) when FloorId names one.
  const floor =
    b.FloorId && b.FloorId !== anchor.FloorId
      ? await floorInReach(db, ctx.user, 'edit', b.FloorId)
      : { FloorId: anchor.FloorId, SceneId: anchor.SceneId };
  const v = anchorValues(b);
  await uniqueAnchor(() =>
    db.transaction(async (tx) => {
      await checkPlacement(tx, floor, b.Type, floor.FloorId !== anchor.FloorId);
      await tx.execute(sql`UPDATE scene_anchors SET scene_id = ${floor.SceneId}, floor_id = ${floor.FloorId}, name = ${v.name}, mac = ${v.mac},
        code = ${v.code}, major = ${v.major}, minor = ${v.minor}, kind = ${v.kind}, state = ${v.state}, x = ${v.x}, y = ${v.y},
        height = ${v.height}, heading = ${v.heading}, rssi_1m = ${v.rssi1m} WHERE id = ${anchor.BeaconId}`);
    }),
  );
  changed(ctx, [anchor.SceneId, floor.SceneId]);
  return { State: State.OK, BeaconId: anchor.BeaconId } as const;
}

export async function editAnchorsBatch(
  ctx: AuthedContext,
  b: z.output<typeof schemas.editAnchorsBatchRequest>,
) {
  const { db } = ctx.deps.database;
  const wanted = [...new Set(b.BeaconIds)];
  const found = await rows<{ id: number; scene_id: number; beacon_type: number }>(
    db,
    sql`SELECT an.id, an.scene_id, s.beacon_type FROM scene_anchors an JOIN scenes s ON s.id = an.scene_id
      WHERE an.id IN (${idList(wanted)}) AND ${sceneReach(ctx.user, 'edit')}`,
  );
  const byId = new Map(found.map((r) => [Number(r.id), r]));
  const failed: Failure[] = [];
  const ok: number[] = [];
  for (const id of wanted) {
    const r = byId.get(id);
    if (!r) failed.push({ Imei: String(id), Message: 'scene.anchorNotFound' });
    else {
      const refusal = b.Type !== undefined ? anchorTypeRefusal(Number(r.beacon_type), b.Type) : null;
      if (refusal) failed.push({ Imei: String(id), Message: refusal.key, Params: refusal.params });
      else ok.push(id);
    }
  }
  const sets: SQL[] = [];
  if (b.State !== undefined) sets.push(sql`state = ${b.State}`);
  if (b.Type !== undefined) sets.push(sql`kind = ${b.Type}`);
  if (b.Height !== undefined) sets.push(sql`height = ${b.Height}`);
  if (b.Rssi1m !== undefined) sets.push(sql`rssi_1m = ${b.Rssi1m}`);
  if (b.Major !== undefined) sets.push(sql`major = ${b.Major}`);
  const set = sql.join(sets, sql`, `);
  const done: number[] = [];
  if (ok.length && b.Major === undefined) {
    await db.execute(sql`UPDATE scene_anchors SET ${set} WHERE id IN (${idList(ok)})`);
    done.push(...ok);
  } else {
    // A new major may collide with another anchor's code+major+minor: one by one, each answered.
    for (const id of ok) {
      try {
        await db.execute(sql`UPDATE scene_anchors SET ${set} WHERE id = ${id}`);
        done.push(id);
      } catch (err) {
        if (!isUniqueViolation(err)) throw err;
        failed.push({ Imei: String(id), Message: 'scene.macTaken' });
      }
    }
  }
  changed(
    ctx,
    done.map((id) => Number(byId.get(id)!.scene_id)),
  );
  return batch(done.length, failed);
}

export async function deleteAnchors(ctx: AuthedContext, b: { BeaconIds: number[] }) {
  const { db } = ctx.deps.database;
  const wanted = [...new Set(b.BeaconIds)];
  const gone = await rows<{ id: number; scene_id: number }>(
    db,
    sql`DELETE FROM scene_anchors an USING scenes s WHERE s.id = an.scene_id AND an.id IN (${idList(wanted)}) AND ${sceneReach(ctx.user, 'edit')}
      RETURNING an.id, an.scene_id`,
  );
  const deleted = new Set(gone.map((r) => Number(r.id)));
  changed(
    ctx,
    gone.map((r) => Number(r.scene_id)),
  );
  return batch(
    deleted.size,
    wanted
      .filter((id) => !deleted.has(id))
      .map((id) => ({ Imei: String(id), Message: 'scene.anchorNotFound' })),
  );
}
