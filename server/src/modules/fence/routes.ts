// Device fences (SPEC §3, §5): a circle or polygon around one device, at most 10 per device. A
// fence is reached through its device, so the subtree scope of devices applies to it.
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { LIMITS, State, type fence as fenceSchemas } from '@wt/contract';

type Fence = fenceSchemas.Fence;
import type { z } from 'zod';
import { defineCall, type AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { deviceFenceState, deviceFences, devices } from '../../db/schema/index.js';
import { AppError, notFound } from '../../lib/errors.js';
import { accountInScope, ownedBySubtree } from '../../lib/scope.js';
import { allOf, contains, iso, rows } from '../../lib/sql.js';
import { devicesByImeis } from '../device/repo.js';

/** Published when a device's fences change, so the fence engine reloads them. */
export const FENCES_CHANGED_TOPIC = 'device.fences.changed';

interface FenceRow {
  id: number;
  device_id: number;
  imei: string;
  device_name: string;
  name: string;
  description: string;
  kind: 'circle' | 'polygon';
  lat: number | null;
  lon: number | null;
  radius: number | null;
  points: [number, number][];
  inside: boolean | null;
  created_at: Date;
}
const toFence = (f: FenceRow): Fence => ({
  FenceId: f.id,
  DeviceId: f.device_id,
  Imei: f.imei,
  DeviceName: f.device_name,
  Name: f.name,
  Description: f.description,
  Type: f.kind,
  Lat: f.kind === 'circle' ? f.lat : null,
  Lon: f.kind === 'circle' ? f.lon : null,
  Radius: f.kind === 'circle' ? f.radius : null,
  Points: f.kind === 'polygon' ? f.points.map(([Lat, Lon]) => ({ Lat, Lon })) : [],
  Inside: f.inside,
  CreatedAt: iso(f.created_at)!,
});

const SELECT = sql`SELECT f.id, f.device_id, devices.imei, devices.name AS device_name, f.name, f.description, f.kind, f.lat, f.lon,
  f.radius, f.points, s.inside, f.created_at
  FROM device_fences f JOIN devices ON devices.id = f.device_id
  LEFT JOIN device_fence_state s ON s.fence_id = f.id AND s.device_id = f.device_id`;

async function fencesWhere(db: Db, cond: SQL, tail: SQL = sql``): Promise<Fence[]> {
  return (await rows<FenceRow>(db, sql`${SELECT} WHERE ${cond} ${tail}`)).map(toFence);
}

type Geometry = Pick<z.output<typeof fenceSchemas.addFenceRequest>, 'Type' | 'Lat' | 'Lon' | 'Radius' | 'Points'>;
function geometry(b: Geometry) {
  return b.Type === 'circle'
    ? { kind: 'circle', lat: b.Lat!, lon: b.Lon!, radius: b.Radius!, points: [] as [number, number][] }
    : { kind: 'polygon', lat: null, lon: null, radius: null, points: b.Points!.map((p) => [p.Lat, p.Lon] as [number, number]) };
}

async function fenceInScope(ctx: AuthedContext, fenceId: number) {
  const [f] = await rows<{ id: number; device_id: number }>(
    ctx.deps.database.db,
    sql`SELECT f.id, f.device_id FROM device_fences f JOIN devices ON devices.id = f.device_id WHERE f.id = ${fenceId} AND ${ownedBySubtree(devices.accountId, ctx.user)}`,
  );
  if (!f) throw notFound('device.fenceNotFound');
  return f;
}

const changed = (ctx: AuthedContext, deviceId: number) => ctx.deps.bus.publish(FENCES_CHANGED_TOPIC, { deviceId });

export const fenceCalls = [
  defineCall('/Geofence/addDeviceGeofence', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const d = (await devicesByImeis(db, ctx.user, [b.Imei])).get(b.Imei);
    if (!d) throw notFound('device.notFound');
    const id = await db.transaction(async (tx) => {
      // The device row is locked so two adds cannot both pass the limit.
      await tx.execute(sql`SELECT id FROM devices WHERE id = ${d.id} FOR UPDATE`);
      const [{ n }] = (await rows<{ n: number }>(tx as unknown as Db, sql`SELECT count(*)::int AS n FROM device_fences WHERE device_id = ${d.id}`)) as [{ n: number }];
      if (n >= LIMITS.fencesPerDevice) throw new AppError(State.CONFLICT, 'device.fenceLimit', { max: LIMITS.fencesPerDevice });
      const [f] = await tx.insert(deviceFences).values({ deviceId: d.id, name: b.Name, description: b.Description, ...geometry(b) }).returning({ id: deviceFences.id });
      return f!.id;
    });
    changed(ctx, d.id);
    const [item] = await fencesWhere(db, sql`f.id = ${id}`);
    return { State: State.OK, Item: item! } as const;
  }),
  defineCall('/Geofence/updateDeviceGeofence', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const f = await fenceInScope(ctx, b.FenceId);
    await db.transaction(async (tx) => {
      await tx.update(deviceFences).set({ name: b.Name, description: b.Description, ...geometry(b) }).where(eq(deviceFences.id, f.id));
      // New geometry: where the device is gets decided afresh by its next position.
      await tx.delete(deviceFenceState).where(eq(deviceFenceState.fenceId, f.id));
    });
    changed(ctx, f.device_id);
    const [item] = await fencesWhere(db, sql`f.id = ${f.id}`);
    return { State: State.OK, Item: item! } as const;
  }),
  defineCall('/Geofence/GeofenceList', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const account = await accountInScope(db, ctx.user, q.UserId);
    const conds = [ownedBySubtree(devices.accountId, account)];
    if (q.Imei) conds.push(sql`devices.imei LIKE ${contains(q.Imei)}`);
    if (q.Name) conds.push(sql`f.name ILIKE ${contains(q.Name)}`);
    const where = allOf(conds);
    const [{ n }] = (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM device_fences f JOIN devices ON devices.id = f.device_id WHERE ${where}`)) as [
      { n: number },
    ];
    const items = await fencesWhere(db, where, sql`ORDER BY f.id DESC LIMIT ${q.PageCount} OFFSET ${(q.PageNo - 1) * q.PageCount}`);
    return { State: State.OK, Total: Number(n), Items: items };
  }),
  defineCall('/Geofence/DeleteGeofence', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const mine = await rows<{ id: number; device_id: number }>(
      db,
      sql`SELECT f.id, f.device_id FROM device_fences f JOIN devices ON devices.id = f.device_id
        WHERE f.id IN (${sql.join(b.FenceIds.map((i) => sql`${i}`), sql`, `)}) AND ${ownedBySubtree(devices.accountId, ctx.user)}`,
    );
    const ids = mine.map((f) => f.id);
    if (ids.length) {
      await db.transaction(async (tx) => {
        await tx.delete(deviceFenceState).where(inArray(deviceFenceState.fenceId, ids));
        await tx.delete(deviceFences).where(inArray(deviceFences.id, ids));
      });
      for (const deviceId of new Set(mine.map((f) => f.device_id))) changed(ctx, deviceId);
    }
    const failed = [...new Set(b.FenceIds)].filter((id) => !ids.includes(id)).map((id) => ({ Imei: String(id), Message: 'device.fenceNotFound' }));
    return { State: State.OK, Succeeded: ids.length, Failed: failed } as const;
  }),
  defineCall('/Geofence/fenceGeoList', async (ctx, q) => {
    const { db } = ctx.deps.database;
    let cond: SQL;
    if (q.Imei) {
      const d = (await devicesByImeis(db, ctx.user, [q.Imei])).get(q.Imei);
      if (!d) throw notFound('device.notFound');
      cond = sql`f.device_id = ${d.id}`;
    } else {
      cond = ownedBySubtree(devices.accountId, await accountInScope(db, ctx.user, q.UserId));
    }
    return { State: State.OK, Items: await fencesWhere(db, cond, sql`ORDER BY f.device_id, f.id LIMIT 5000`) };
  }),
];
