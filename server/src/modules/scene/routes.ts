// Indoor scene calls (SPEC §3 Scene, Floor, Scene beacon; §5; §8; §9): scenes of an owner account
// (at most 5), their floors and the anchors placed on them, with the live map's reads. A scene is
// reached through its owner (repo.ts sceneReach), floors and anchors through their scene: one out of
// reach answers "not found" exactly like a missing id. Every change is announced cluster-wide
// (SCENES_CHANGED_TOPIC) so every positioning engine reloads. The ByMonitor variants of the admin
// calls are the same handlers. /Scene/Calibrate and /Scene/ApplyCalibration live elsewhere.
import { sql } from 'drizzle-orm';
import { State, scene as schemas } from '@wt/contract';
import { defineCall } from '../../calls.js';
import { accountInScope, subtreePattern } from '../../lib/scope.js';
import { allOf, contains, rows } from '../../lib/sql.js';
import { indoorTrack, liveDevices } from './live.js';
import {
  anchorsWhere,
  countAnchors,
  countFloors,
  countScenes,
  floorInReach,
  floorNotFound,
  floorsWhere,
  idList,
  sceneInReach,
  sceneReach,
  scenesWhere,
  withFloors,
} from './repo.js';
import {
  createAnchor,
  createFloor,
  createScene,
  deleteAnchors,
  deleteFloors,
  deleteScenes,
  editAnchor,
  editAnchorsBatch,
  editFloor,
  editScene,
} from './service.js';

const page = (q: { PageNo: number; PageCount: number }) => ({
  limit: q.PageCount,
  offset: (q.PageNo - 1) * q.PageCount,
});

export const sceneCalls = [
  defineCall('/Scene/addSceneInfo', (ctx, b) => createScene(ctx, b)),
  defineCall('/Scene/addSceneInfoByMonitor', (ctx, b) => createScene(ctx, b)),
  defineCall('/Scene/editSceneInfo', (ctx, b) => editScene(ctx, b)),
  defineCall('/Scene/editSceneInfoByMonitor', (ctx, b) => editScene(ctx, b)),
  defineCall('/Scene/DeleteSceneInfo', (ctx, b) => deleteScenes(ctx, b)),
  defineCall('/Scene/DelSceneInfoByMonitor', (ctx, b) => deleteScenes(ctx, b)),

  defineCall('/Scene/SceneInfoList', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const account = await accountInScope(db, ctx.user, q.UserId);
    const conds = [sceneReach(account, 'edit')];
    if (q.Name) conds.push(sql`s.name ILIKE ${contains(q.Name)}`);
    if (q.Enabled !== undefined) conds.push(sql`s.enabled = ${q.Enabled}`);
    const where = allOf(conds);
    const { limit, offset } = page(q);
    return {
      State: State.OK,
      Total: await countScenes(db, where),
      Items: await scenesWhere(db, where, sql`ORDER BY s.id DESC LIMIT ${limit} OFFSET ${offset}`),
    };
  }),

  defineCall('/Scene/SceneInfoListByMonitor', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const account = await accountInScope(db, ctx.user, q.UserId);
    const conds = [sceneReach(account, 'view')];
    if (q.EnabledOnly) conds.push(sql`s.enabled`);
    // At most 5 per owner and a bounded depth of owners: the list is small.
    return { State: State.OK, Items: await withFloors(db, await scenesWhere(db, allOf(conds))) };
  }),

  // The project map: every scene of the caller's subtree (enabled or not) with its floors and anchors
  // counted, and the tags of the subtree seen in it lately (their latest indoor fix, by scene: one
  // pass over the subtree's device states, grouped).
  defineCall('/Scene/ProjectMap', async (ctx) => {
    const { db } = ctx.deps.database;
    const scenes = await scenesWhere(db, sceneReach(ctx.user, 'edit'), sql`ORDER BY s.name, s.id`);
    const minutes = schemas.PROJECT_MAP_TAG_MINUTES;
    const counts = scenes.length
      ? await rows<{ scene_id: number; n: number }>(
          db,
          sql`SELECT st.indoor_scene_id AS scene_id, count(*)::int AS n
            FROM device_state st JOIN devices d ON d.id = st.device_id
            WHERE st.indoor_scene_id IN (${idList(scenes.map((x) => x.SceneId))})
              AND st.indoor_time > now() - make_interval(mins => ${minutes})
              AND d.account_id IN (SELECT id FROM accounts WHERE path LIKE ${subtreePattern(ctx.user)})
            GROUP BY st.indoor_scene_id`,
        )
      : [];
    const bySceneId = new Map(counts.map((c) => [Number(c.scene_id), Number(c.n)]));
    return {
      State: State.OK,
      Minutes: minutes,
      Items: scenes.map((x) => ({ ...x, TagCount: bySceneId.get(x.SceneId) ?? 0 })),
    };
  }),

  defineCall('/Scene/sceneInfoByMonitor', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const found = await sceneInReach(db, ctx.user, 'view', q.SceneId);
    const [item] = await withFloors(db, [found]);
    return {
      State: State.OK,
      Item: { ...item!, Anchors: await anchorsWhere(db, sql`an.scene_id = ${found.SceneId}`) },
    };
  }),

  defineCall('/Scene/sceneInfoByFoorId', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const floor = await floorInReach(db, ctx.user, 'view', q.FloorId);
    const [owner] = await scenesWhere(db, sql`s.id = ${floor.SceneId}`);
    return {
      State: State.OK,
      Item: { ...floor, Scene: owner!, Anchors: await anchorsWhere(db, sql`an.floor_id = ${floor.FloorId}`) },
    };
  }),

  defineCall('/Scene/sceneInfoByMonitorForServer', (ctx, q) => liveDevices(ctx, q)),
  defineCall('/Scene/deviceHistoryForScene', (ctx, q) => indoorTrack(ctx, q)),

  defineCall('/Scene/FoorsInfoList', async (ctx, q) => {
    const { db } = ctx.deps.database;
    await sceneInReach(db, ctx.user, 'edit', q.SceneId);
    const where = sql`f.scene_id = ${q.SceneId}`;
    const { limit, offset } = page(q);
    return {
      State: State.OK,
      Total: await countFloors(db, where),
      Items: await floorsWhere(db, where, sql`ORDER BY f.floor_no, f.id LIMIT ${limit} OFFSET ${offset}`),
    };
  }),
  defineCall('/Scene/addFoorsInfo', (ctx, b) => createFloor(ctx, b)),
  defineCall('/Scene/editFoorsInfo', (ctx, b) => editFloor(ctx, b)),
  defineCall('/Scene/DeleteFoorsInfo', (ctx, b) => deleteFloors(ctx, b)),

  defineCall('/Scene/BeaconsInfoList', async (ctx, q) => {
    const { db } = ctx.deps.database;
    if (q.SceneId) await sceneInReach(db, ctx.user, 'edit', q.SceneId);
    if (q.FloorId) await floorInReach(db, ctx.user, 'edit', q.FloorId);
    const conds = [sceneReach(ctx.user, 'edit')];
    if (q.SceneId) conds.push(sql`an.scene_id = ${q.SceneId}`);
    if (q.FloorId) conds.push(sql`an.floor_id = ${q.FloorId}`);
    if (q.Type) conds.push(sql`an.kind = ${q.Type}`);
    if (q.Keyword) {
      const k = contains(q.Keyword);
      conds.push(sql`(an.name ILIKE ${k} OR an.mac ILIKE ${k} OR an.code ILIKE ${k})`);
    }
    const where = allOf(conds);
    const { limit, offset } = page(q);
    return {
      State: State.OK,
      Total: await countAnchors(db, where),
      Items: await anchorsWhere(db, where, sql`ORDER BY an.id DESC LIMIT ${limit} OFFSET ${offset}`),
    };
  }),

  defineCall('/Scene/BeaconsInfoByMonitor', async (ctx, q) => {
    const { db } = ctx.deps.database;
    await sceneInReach(db, ctx.user, 'view', q.SceneId);
    if (q.FloorId) {
      const floor = await floorInReach(db, ctx.user, 'view', q.FloorId);
      if (floor.SceneId !== q.SceneId) throw floorNotFound();
    }
    const cond = q.FloorId
      ? sql`an.scene_id = ${q.SceneId} AND an.floor_id = ${q.FloorId}`
      : sql`an.scene_id = ${q.SceneId}`;
    return { State: State.OK, Items: await anchorsWhere(db, cond) };
  }),

  defineCall('/Scene/addBeaconsInfoByMonitor', (ctx, b) => createAnchor(ctx, b)),
  defineCall('/Scene/editBeaconsInfo', (ctx, b) => editAnchor(ctx, b)),
  defineCall('/Scene/editBeaconsBatchInfo', (ctx, b) => editAnchorsBatch(ctx, b)),
  defineCall('/Scene/DeleteBeaconsInfo', (ctx, b) => deleteAnchors(ctx, b)),
  defineCall('/Scene/DelBeaconsInfoByMonitor', (ctx, b) => deleteAnchors(ctx, b)),
];
