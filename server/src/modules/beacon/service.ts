// Changing the beacon registry (SPEC §3 Beacon, §5, §8): both identity models, owner in the
// caller's subtree, "beacon code or MAC already exists" from the unique indexes (so two concurrent
// saves cannot both pass). A change to a beacon placed indoors is announced to the positioning
// engines (SCENES_CHANGED_TOPIC), which reload that scene.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { State, beacon as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { sceneAnchors } from '../../db/schema/index.js';
import { AppError, fieldError } from '../../lib/errors.js';
import { accountInScope } from '../../lib/scope.js';
import { normalizeMac } from '../../indoor/keys.js';
import { floorInReach } from '../scene/repo.js';
import { changed, checkPlacement } from '../scene/service.js';
import { beaconCrud, beaconFilters, identifierFilter, toBeacon, type BeaconRow } from './repo.js';

type UuidBody = z.output<typeof schemas.addUuidBeaconRequest>;
type MacBody = z.output<typeof schemas.addMacBeaconRequest>;
type ListBody = z.output<typeof schemas.beaconListRequest>;
type Failure = { Imei: string; Message: string; Params?: Record<string, unknown> };

const UUID_MODEL = 1 as const;
const MAC_MODEL = 2 as const;

const batch = (done: number, failed: Failure[]) => ({ State: State.OK, Succeeded: done, Failed: failed }) as const;

/** The columns a registry call (or an imported row) sets: the identity of its model, the rest in common. */
export function beaconValues(model: number, b: UuidBody | MacBody) {
  const common = {
    name: b.Name,
    address: b.Address,
    lon: b.Lon ?? null,
    lat: b.Lat ?? null,
    state: b.State,
    kind: b.Type,
    model,
  };
  if (model === MAC_MODEL) return { ...common, mac: normalizeMac(b.Mac)!, code: null, major: null, minor: null };
  const u = b as UuidBody;
  return { ...common, mac: u.Mac ? normalizeMac(u.Mac) : null, code: u.Code, major: u.Major, minor: u.Minor };
}

export async function add(ctx: AuthedContext, model: number, b: UuidBody | MacBody) {
  const { db } = ctx.deps.database;
  const owner = await accountInScope(db, ctx.user, b.UserId);
  const id = await beaconCrud.insert(db, { ownerId: owner.id, ...beaconValues(model, b) });
  return { State: State.OK, BeaconId: id } as const;
}

/** The beacon in scope, registered by `model` (the other model's call answers "wrong model"). */
async function ofModel(ctx: AuthedContext, id: number, model: number): Promise<BeaconRow> {
  const row = await beaconCrud.get(ctx.deps.database.db, ctx.user, id);
  if (Number(row.model) !== model) throw new AppError(State.CONFLICT, 'beacon.wrongModel');
  return row;
}

export async function update(ctx: AuthedContext, model: number, b: (UuidBody | MacBody) & { BeaconId: number }) {
  const { db } = ctx.deps.database;
  const row = await ofModel(ctx, b.BeaconId, model);
  const owner = b.UserId !== undefined ? (await accountInScope(db, ctx.user, b.UserId)).id : Number(row.ownerId);
  // A placed anchor's type is fixed by its scene's (SPEC §8): taken off the plan first.
  if (row.floorId !== null && b.Type !== Number(row.kind)) throw fieldError('Type', 'beacon.placedTypeLocked');
  await beaconCrud.update(db, ctx.user, row.id, { ownerId: owner, ...beaconValues(model, b) });
  if (row.sceneId !== null) changed(ctx, [Number(row.sceneId)]);
  return { State: State.OK, BeaconId: row.id } as const;
}

export async function list(ctx: AuthedContext, q: ListBody, model?: 1 | 2) {
  const { db } = ctx.deps.database;
  const root = q.UserId !== undefined ? await accountInScope(db, ctx.user, q.UserId) : undefined;
  const { total, items } = await beaconCrud.list(db, ctx.user, {
    filters: beaconFilters({ ...q, Model: model ?? q.Model }, root?.path),
    orderBy: [sql`${sceneAnchors.id} DESC`],
    page: q,
  });
  return { State: State.OK, Total: total, Items: items.map(toBeacon) } as const;
}

export async function search(ctx: AuthedContext, identifier: string) {
  const { items } = await beaconCrud.list(ctx.deps.database.db, ctx.user, {
    filters: [identifierFilter(identifier)],
    page: { PageNo: 1, PageCount: 100 },
  });
  return { State: State.OK, Items: items.map(toBeacon) } as const;
}

/** Of `ids`, the beacons in scope with their model and placement; the rest answered "not found". */
async function inScope(db: Db, ctx: AuthedContext, ids: number[]) {
  const found = await beaconCrud.idsInScope(db, ctx.user, ids);
  const rows = found.length
    ? await db
        .select({ id: sceneAnchors.id, model: sceneAnchors.model, sceneId: sceneAnchors.sceneId, floorId: sceneAnchors.floorId })
        .from(sceneAnchors)
        .where(inArray(sceneAnchors.id, found))
    : [];
  const byId = new Map(rows.map((r) => [Number(r.id), r]));
  const missing = [...new Set(ids)].filter((id) => !byId.has(id)).map((id) => ({ Imei: String(id), Message: 'beacon.notFound' }));
  return { byId, missing };
}

const scenesOf = (rows: { sceneId: number | null }[]) => rows.flatMap((r) => (r.sceneId === null ? [] : [Number(r.sceneId)]));

/** Deletes beacons (of one model when given; any otherwise), each id answered. */
export async function remove(ctx: AuthedContext, ids: number[], model?: number) {
  const { db } = ctx.deps.database;
  const placed: number[] = [];
  const out = await beaconCrud.remove(db, ctx.user, ids, {
    refuse: async (tx, found) => {
      const rows = await (tx as unknown as Db)
        .select({ id: sceneAnchors.id, model: sceneAnchors.model })
        .from(sceneAnchors)
        .where(inArray(sceneAnchors.id, found));
      return new Map(rows.filter((r) => model !== undefined && Number(r.model) !== model).map((r) => [Number(r.id), { key: 'beacon.wrongModel' }]));
    },
    before: async (tx, gone) => {
      const rows = await (tx as unknown as Db).select({ sceneId: sceneAnchors.sceneId }).from(sceneAnchors).where(inArray(sceneAnchors.id, gone));
      placed.push(...scenesOf(rows));
    },
  });
  changed(ctx, placed);
  return batch(
    out.deleted.length,
    out.refused.map((r) => ({ Imei: String(r.id), Message: r.key, ...(r.params ? { Params: r.params } : {}) })),
  );
}

/** Valid or invalid (an invalid anchor is left out of positioning). */
export async function setState(ctx: AuthedContext, ids: number[], state: number) {
  const { db } = ctx.deps.database;
  const { byId, missing } = await inScope(db, ctx, ids);
  if (byId.size) await db.update(sceneAnchors).set({ state }).where(inArray(sceneAnchors.id, [...byId.keys()]));
  changed(ctx, scenesOf([...byId.values()]));
  return batch(byId.size, missing);
}

/** removeInnerBT: beacons taken off their floor plan; they stay registered. */
export async function unplace(ctx: AuthedContext, ids: number[]) {
  const { db } = ctx.deps.database;
  const { byId, missing } = await inScope(db, ctx, ids);
  const placed = [...byId.values()].filter((r) => r.floorId !== null);
  const failed = [...missing, ...[...byId.values()].filter((r) => r.floorId === null).map((r) => ({ Imei: String(r.id), Message: 'beacon.notPlaced' }))];
  if (placed.length)
    await db
      .update(sceneAnchors)
      .set({ sceneId: null, floorId: null, x: null, y: null })
      .where(inArray(sceneAnchors.id, placed.map((r) => Number(r.id))));
  changed(ctx, scenesOf(placed));
  return batch(placed.length, failed);
}

/** Places a registered beacon on a floor plan in reach (the scene's type rules and per-floor limit apply). */
export async function place(ctx: AuthedContext, b: z.output<typeof schemas.placeBeaconRequest>) {
  const { db } = ctx.deps.database;
  const row = await beaconCrud.get(db, ctx.user, b.BeaconId);
  const floor = await floorInReach(db, ctx.user, 'edit', b.FloorId);
  await db.transaction(async (tx) => {
    await checkPlacement(tx, floor, Number(row.kind), row.floorId === null || Number(row.floorId) !== floor.FloorId);
    await tx
      .update(sceneAnchors)
      .set({ sceneId: floor.SceneId, floorId: floor.FloorId, x: b.X, y: b.Y })
      .where(and(eq(sceneAnchors.id, row.id)));
  });
  changed(ctx, [floor.SceneId, ...(row.sceneId !== null ? [Number(row.sceneId)] : [])]);
  return { State: State.OK, BeaconId: row.id } as const;
}

export const MODELS = { UUID_MODEL, MAC_MODEL };
