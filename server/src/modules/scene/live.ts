// What the live inner map shows in a scene: the devices indoors there now (their latest fix is
// indoors, in the scene, recent enough) and a device's indoor track. Devices are those of the
// caller's subtree only, whoever owns the scene; a track only shows points in scenes the caller reaches.
import { sql } from 'drizzle-orm';
import { State, scene as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import { notFound } from '../../lib/errors.js';
import { subtreePattern } from '../../lib/scope.js';
import { iso, rows } from '../../lib/sql.js';
import { sentInstant } from '../../lib/time.js';
import { SOS_TYPE } from '../monitor/repo.js';
import { planToGeo } from '../../indoor/index.js';
import { floorInReach, floorNotFound, sceneInReach, sceneReach } from './repo.js';

const { INDOOR_METHODS } = schemas;

/** Most devices or track points one answer carries. */
const MAX_LIVE_DEVICES = 20_000;
/** A week of fixes every 30 s is 20 160 points: the track is capped there, the oldest first. */
const MAX_TRACK_POINTS = 20_000;

const methodName = (m: number | null) => INDOOR_METHODS[(m ?? 1) - 1] ?? 'nearest';
const deviceInScope = (ctx: AuthedContext) =>
  sql`d.account_id IN (SELECT id FROM accounts WHERE path LIKE ${subtreePattern(ctx.user)})`;

export async function liveDevices(ctx: AuthedContext, q: z.output<typeof schemas.sceneLiveRequest>) {
  const { db } = ctx.deps.database;
  await sceneInReach(db, ctx.user, 'view', q.SceneId);
  if (q.FloorId) {
    const floor = await floorInReach(db, ctx.user, 'view', q.FloorId);
    if (floor.SceneId !== q.SceneId) throw floorNotFound();
  }
  const found = await rows<{
    id: number;
    imei: string;
    name: string;
    floor_id: number;
    x: number;
    y: number;
    accuracy: number | null;
    method: number | null;
    time: Date;
    online: boolean;
    battery: number | null;
    sos: boolean;
    origin_lat: number | null;
    origin_lon: number | null;
    rotation: number | null;
  }>(
    db,
    // Indoors now: the latest indoor fix is not older than the latest outdoor one.
    sql`SELECT d.id, d.imei, d.name, st.indoor_floor_id AS floor_id, st.indoor_x AS x, st.indoor_y AS y, st.indoor_accuracy AS accuracy,
        st.indoor_method AS method, st.indoor_time AS time, st.online, st.battery, f.origin_lat, f.origin_lon, f.rotation,
        EXISTS (SELECT 1 FROM alarms al WHERE al.device_id = d.id AND al.type = ${SOS_TYPE} AND al.status = 0) AS sos
      FROM device_state st JOIN devices d ON d.id = st.device_id JOIN floors f ON f.id = st.indoor_floor_id
      WHERE st.indoor_scene_id = ${q.SceneId} AND f.scene_id = ${q.SceneId} AND ${deviceInScope(ctx)}
        AND st.indoor_time IS NOT NULL AND (st.fix_time IS NULL OR st.indoor_time >= st.fix_time)
        AND st.indoor_time > now() - make_interval(mins => ${q.Minutes})
        ${q.FloorId ? sql`AND st.indoor_floor_id = ${q.FloorId}` : sql``}
      ORDER BY d.id LIMIT ${MAX_LIVE_DEVICES}`,
  );
  return {
    State: State.OK,
    Items: found.map((r) => {
      const x = Number(r.x);
      const y = Number(r.y);
      const geo =
        r.origin_lat === null || r.origin_lon === null
          ? null
          : planToGeo(
              {
                originLat: Number(r.origin_lat),
                originLon: Number(r.origin_lon),
                rotation: Number(r.rotation ?? 0),
                // Unused by the conversion of plan metres; the placement is what counts here.
                metresPerPixel: 1,
              },
              x,
              y,
            );
      return {
        DeviceId: Number(r.id),
        Imei: r.imei,
        Name: r.name,
        FloorId: Number(r.floor_id),
        X: x,
        Y: y,
        Accuracy: r.accuracy === null ? null : Number(r.accuracy),
        Method: methodName(r.method === null ? null : Number(r.method)),
        Lat: geo?.lat ?? null,
        Lon: geo?.lon ?? null,
        Time: iso(r.time)!,
        Online: !!r.online,
        Battery: r.battery === null ? null : Number(r.battery),
        Sos: !!r.sos,
      };
    }),
  } as const;
}

export async function indoorTrack(ctx: AuthedContext, q: z.output<typeof schemas.sceneHistoryRequest>) {
  const { db } = ctx.deps.database;
  const [device] = await rows<{ id: number }>(
    db,
    sql`SELECT d.id FROM devices d WHERE ${q.DeviceId ? sql`d.id = ${q.DeviceId}` : sql`d.imei = ${q.Imei!}`} AND ${deviceInScope(ctx)} LIMIT 1`,
  );
  if (!device) throw notFound('device.notFound');
  if (q.SceneId) await sceneInReach(db, ctx.user, 'view', q.SceneId);
  const points = await rows<{
    time: Date;
    scene_id: number;
    floor_id: number;
    x: number;
    y: number;
    accuracy: number | null;
    method: number | null;
  }>(
    db,
    // Only points in scenes the caller reaches (a track never reveals a sibling's building).
    sql`SELECT p.time, p.scene_id, p.floor_id, p.x, p.y, p.accuracy, p.method FROM positions p
      WHERE p.device_id = ${device.id} AND p.time >= ${sentInstant(ctx.user, q.StartTime)} AND p.time <= ${sentInstant(ctx.user, q.EndTime)}
        AND p.scene_id IS NOT NULL AND p.floor_id IS NOT NULL AND p.x IS NOT NULL AND p.y IS NOT NULL
        ${q.SceneId ? sql`AND p.scene_id = ${q.SceneId}` : sql``}
        AND p.scene_id IN (SELECT s.id FROM scenes s WHERE ${sceneReach(ctx.user, 'view')})
      ORDER BY p.time LIMIT ${MAX_TRACK_POINTS}`,
  );
  return {
    State: State.OK,
    DeviceId: Number(device.id),
    Items: points.map((p) => ({
      Time: iso(p.time)!,
      SceneId: Number(p.scene_id),
      FloorId: Number(p.floor_id),
      X: Number(p.x),
      Y: Number(p.y),
      Accuracy: p.accuracy === null ? null : Number(p.accuracy),
      Method: methodName(p.method === null ? null : Number(p.method)),
    })),
  } as const;
}
