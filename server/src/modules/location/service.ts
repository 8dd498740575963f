// Locations (SPEC §3 Location): saved in the caller's subtree, with every floor, beacon, device and
// account they name checked to be in reach; a change is announced so every evaluator reloads them.
import { and, count, eq, ilike, inArray, sql } from 'drizzle-orm';
import { State, location as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accounts, beaconLocations, floors, scenes, type StoredSchedule } from '../../db/schema/index.js';
import { scopedCrud } from '../../lib/crud.js';
import { fieldError, notFound } from '../../lib/errors.js';
import { accountInScope, subtreePattern } from '../../lib/scope.js';
import { contains, iso, rows } from '../../lib/sql.js';
import { floorInReach } from '../scene/repo.js';
import { beaconCrud } from '../beacon/repo.js';

type Body = z.output<typeof schemas.addLocationRequest>;

export const locationCrud = scopedCrud({
  table: beaconLocations,
  id: beaconLocations.id,
  owner: beaconLocations.ownerId,
  select: (db: Db) =>
    db
      .select({
        l: beaconLocations,
        ownerName: accounts.loginName,
        floorName: floors.name,
        sceneId: scenes.id,
        sceneName: scenes.name,
        inside: sql<number>`(SELECT count(*)::int FROM beacon_location_presence p WHERE p.location_id = ${beaconLocations.id} AND p.inside)`,
      })
      .from(beaconLocations)
      .innerJoin(accounts, eq(accounts.id, beaconLocations.ownerId))
      .leftJoin(floors, eq(floors.id, beaconLocations.floorId))
      .leftJoin(scenes, eq(scenes.id, floors.sceneId))
      .$dynamic(),
  notFound: 'location.notFound',
  unique: 'location.nameExists',
});

type Row = Awaited<ReturnType<typeof locationCrud.get>>;

const toLocation = (r: Row): schemas.Location => ({
  LocationId: r.l.id,
  AccountId: r.l.ownerId,
  AccountName: r.ownerName,
  Name: r.l.name,
  Description: r.l.description,
  Event: r.l.event,
  Kind: r.l.kind,
  FloorId: r.l.floorId,
  FloorName: r.floorName ?? null,
  SceneId: r.sceneId ?? null,
  SceneName: r.sceneName ?? null,
  Points: r.l.points,
  BeaconIds: r.l.beaconIds,
  DeviceIds: r.l.deviceIds,
  AccountIds: r.l.accountIds,
  Schedule: r.l.schedule ? { Days: r.l.schedule.days, Windows: r.l.schedule.windows.map((w) => ({ Start: w.start, End: w.end })) } : null,
  MaxStayMinutes: r.l.maxStayMinutes,
  Status: r.l.status,
  Inside: Number(r.inside),
  UpdatedAt: iso(r.l.updatedAt)!,
});

const changed = (ctx: AuthedContext) => ctx.deps.bus.publish(schemas.LOCATIONS_CHANGED_TOPIC, {});

/** The row's values, after checking that everything it names is in the caller's reach. */
async function values(ctx: AuthedContext, b: Body) {
  const { db } = ctx.deps.database;
  const owner = b.UserId !== undefined ? await accountInScope(db, ctx.user, b.UserId) : undefined;
  if (b.Kind === 1) await floorInReach(db, ctx.user, 'view', b.FloorId!).catch(() => Promise.reject(fieldError('FloorId', 'scene.floorNotFound')));
  if (b.Kind === 2) {
    const found = new Set(await beaconCrud.idsInScope(db, ctx.user, b.BeaconIds));
    const missing = b.BeaconIds.find((id) => !found.has(id));
    if (missing !== undefined) throw fieldError('BeaconIds', 'location.beaconNotFound', { id: missing });
  }
  if (b.DeviceIds.length) {
    const found = new Set(
      (
        await rows<{ id: number }>(
          db,
          sql`SELECT d.id FROM devices d JOIN accounts a ON a.id = d.account_id WHERE d.id IN (${sql.join(b.DeviceIds.map((i) => sql`${i}`), sql`, `)}) AND a.path LIKE ${subtreePattern(ctx.user)}`,
        )
      ).map((r) => Number(r.id)),
    );
    const missing = b.DeviceIds.find((id) => !found.has(id));
    if (missing !== undefined) throw fieldError('DeviceIds', 'location.deviceNotFound', { id: missing });
  }
  for (const id of b.AccountIds) await accountInScope(db, ctx.user, id).catch(() => Promise.reject(fieldError('AccountIds', 'location.accountNotFound', { id })));
  const schedule: StoredSchedule | null = b.Schedule ? { days: b.Schedule.Days, windows: b.Schedule.Windows.map((w) => ({ start: w.Start, end: w.End })) } : null;
  return {
    ownerId: owner?.id,
    name: b.Name,
    description: b.Description,
    event: b.Event,
    kind: b.Kind,
    floorId: b.Kind === 1 ? b.FloorId! : null,
    points: b.Kind === 1 ? (b.Points as [number, number][]) : null,
    beaconIds: b.Kind === 2 ? [...new Set(b.BeaconIds)] : [],
    deviceIds: [...new Set(b.DeviceIds)],
    accountIds: [...new Set(b.AccountIds)],
    schedule,
    maxStayMinutes: b.MaxStayMinutes ?? null,
    updatedAt: new Date(),
  };
}

export async function add(ctx: AuthedContext, b: Body) {
  const { db } = ctx.deps.database;
  const { ownerId, ...v } = await values(ctx, b);
  const owner = ownerId ?? ctx.user.id;
  const id = await locationCrud.insert(db, { ownerId: owner, ...v }, { account: owner, max: schemas.MAX_LOCATIONS, message: 'location.tooMany' });
  changed(ctx);
  return { State: State.OK, LocationId: id } as const;
}

export async function update(ctx: AuthedContext, b: Body & { LocationId: number }) {
  const { db } = ctx.deps.database;
  const { ownerId, ...v } = await values(ctx, b);
  await locationCrud.update(db, ctx.user, b.LocationId, { ...v, ...(ownerId !== undefined ? { ownerId } : {}) });
  // A new shape starts every side afresh.
  await db.execute(sql`DELETE FROM beacon_location_presence WHERE location_id = ${b.LocationId}`);
  changed(ctx);
  return { State: State.OK, LocationId: b.LocationId } as const;
}

export async function list(ctx: AuthedContext, q: z.output<typeof schemas.locationListRequest>) {
  const { db } = ctx.deps.database;
  const root = q.UserId !== undefined ? await accountInScope(db, ctx.user, q.UserId) : undefined;
  const { total, items } = await locationCrud.list(db, ctx.user, {
    filters: [
      q.Name ? ilike(beaconLocations.name, contains(q.Name)) : undefined,
      q.Status !== undefined ? eq(beaconLocations.status, q.Status) : undefined,
      root ? sql`${beaconLocations.ownerId} IN (SELECT a.id FROM accounts a WHERE a.path LIKE ${`${root.path}%`})` : undefined,
    ],
    page: q,
  });
  return { State: State.OK, Total: total, Items: items.map(toLocation) } as const;
}

export async function setStatus(ctx: AuthedContext, ids: number[], status: number) {
  const { db } = ctx.deps.database;
  const found = await locationCrud.idsInScope(db, ctx.user, ids);
  if (found.length) {
    await db.update(beaconLocations).set({ status, updatedAt: new Date() }).where(inArray(beaconLocations.id, found));
    // Off: nobody is inside any more as far as it knows; on again, it starts afresh.
    await db.execute(sql`DELETE FROM beacon_location_presence WHERE location_id IN (${sql.join(found.map((i) => sql`${i}`), sql`, `)})`);
  }
  changed(ctx);
  const ok = new Set(found);
  return { State: State.OK, Succeeded: found.length, Failed: [...new Set(ids)].filter((i) => !ok.has(i)).map((i) => ({ Imei: String(i), Message: 'location.notFound' })) } as const;
}

export async function remove(ctx: AuthedContext, ids: number[]) {
  const { db } = ctx.deps.database;
  const out = await locationCrud.remove(db, ctx.user, ids, {
    before: async (tx, gone) => {
      const list = sql.join(gone.map((i) => sql`${i}`), sql`, `);
      await tx.execute(sql`DELETE FROM beacon_location_presence WHERE location_id IN (${list})`);
      await tx.execute(sql`DELETE FROM beacon_location_events WHERE location_id IN (${list})`);
    },
  });
  changed(ctx);
  return { State: State.OK, Succeeded: out.deleted.length, Failed: out.refused.map((r) => ({ Imei: String(r.id), Message: r.key })) } as const;
}

/** One location live: who is inside since when (and where on the plan), entries and exits today. */
export async function detail(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  const row = await locationCrud.find(db, ctx.user, id);
  if (!row) throw notFound('location.notFound');
  const [tz] = await rows<{ tz: number }>(db, sql`SELECT time_zone_offset AS tz FROM accounts WHERE id = ${row.l.ownerId}`);
  const offset = Number(tz?.tz ?? 480);
  const local = new Date(Date.now() + offset * 60_000);
  const dayStart = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate()) - offset * 60_000);
  const inside = await rows<{ id: number; imei: string; name: string; since: Date; x: number | null; y: number | null }>(
    db,
    sql`SELECT d.id, d.imei, d.name, p.since,
          CASE WHEN s.indoor_floor_id = ${row.l.floorId} THEN s.indoor_x END AS x, CASE WHEN s.indoor_floor_id = ${row.l.floorId} THEN s.indoor_y END AS y
        FROM beacon_location_presence p JOIN devices d ON d.id = p.device_id LEFT JOIN device_state s ON s.device_id = d.id
        WHERE p.location_id = ${id} AND p.inside ORDER BY p.since LIMIT 1000`,
  );
  const events = await rows<{ id: number; imei: string; name: string; inside: boolean; time: Date }>(
    db,
    sql`SELECT d.id, d.imei, d.name, e.inside, e.time FROM beacon_location_events e JOIN devices d ON d.id = e.device_id
        WHERE e.location_id = ${id} AND e.time >= ${dayStart.toISOString()} ORDER BY e.time DESC, e.id DESC LIMIT 500`,
  );
  const [counts] = await db
    .select({ entries: sql<number>`count(*) FILTER (WHERE inside)::int`, exits: sql<number>`count(*) FILTER (WHERE NOT inside)::int`, n: count() })
    .from(sql`beacon_location_events`)
    .where(and(sql`location_id = ${id}`, sql`time >= ${dayStart.toISOString()}`));
  return {
    State: State.OK,
    Item: toLocation(row),
    Inside: inside.map((r) => ({ DeviceId: Number(r.id), Imei: r.imei, Name: r.name, Since: iso(r.since)!, X: r.x === null ? null : Number(r.x), Y: r.y === null ? null : Number(r.y) })),
    Events: events.map((r) => ({ DeviceId: Number(r.id), Imei: r.imei, Name: r.name, Inside: r.inside, Time: iso(r.time)! })),
    EntriesToday: Number(counts?.entries ?? 0),
    ExitsToday: Number(counts?.exits ?? 0),
  } as const;
}
