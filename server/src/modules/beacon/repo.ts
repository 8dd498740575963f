// Reading the beacon registry as the contract answers it, scoped to the caller's subtree through
// the owner account (scopedCrud): another tenant's beacon answers "not found" like a missing one.
import { and, eq, ilike, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { beacon as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { Db } from '../../db/client.js';
import { accounts, floors, sceneAnchors, scenes } from '../../db/schema/index.js';
import { scopedCrud } from '../../lib/crud.js';
import { contains, iso } from '../../lib/sql.js';
import { normalizeMac } from '../../indoor/keys.js';

const owner = alias(accounts, 'beacon_owner');

export const beaconCrud = scopedCrud({
  table: sceneAnchors,
  id: sceneAnchors.id,
  owner: sceneAnchors.ownerId,
  select: (db: Db) =>
    db
      .select({
        id: sceneAnchors.id,
        ownerId: sceneAnchors.ownerId,
        ownerName: owner.loginName,
        model: sceneAnchors.model,
        code: sceneAnchors.code,
        major: sceneAnchors.major,
        minor: sceneAnchors.minor,
        mac: sceneAnchors.mac,
        name: sceneAnchors.name,
        address: sceneAnchors.address,
        lon: sceneAnchors.lon,
        lat: sceneAnchors.lat,
        state: sceneAnchors.state,
        kind: sceneAnchors.kind,
        sceneId: sceneAnchors.sceneId,
        sceneName: scenes.name,
        floorId: sceneAnchors.floorId,
        floorName: floors.name,
        x: sceneAnchors.x,
        y: sceneAnchors.y,
        createdAt: sceneAnchors.createdAt,
      })
      .from(sceneAnchors)
      .innerJoin(owner, eq(owner.id, sceneAnchors.ownerId))
      .leftJoin(scenes, eq(scenes.id, sceneAnchors.sceneId))
      .leftJoin(floors, eq(floors.id, sceneAnchors.floorId))
      .$dynamic(),
  notFound: 'beacon.notFound',
  unique: 'beacon.exists',
});

export type BeaconRow = Awaited<ReturnType<typeof beaconCrud.get>>;

export const toBeacon = (r: BeaconRow): schemas.Beacon => ({
  BeaconId: Number(r.id),
  AccountId: Number(r.ownerId),
  AccountName: r.ownerName,
  Model: Number(r.model),
  Code: r.code,
  Major: r.major === null ? null : Number(r.major),
  Minor: r.minor === null ? null : Number(r.minor),
  Mac: r.mac,
  Name: r.name,
  Address: r.address,
  Lon: r.lon === null ? null : Number(r.lon),
  Lat: r.lat === null ? null : Number(r.lat),
  State: Number(r.state),
  Type: Number(r.kind),
  SceneId: r.sceneId === null ? null : Number(r.sceneId),
  SceneName: r.sceneName ?? null,
  FloorId: r.floorId === null ? null : Number(r.floorId),
  FloorName: r.floorName ?? null,
  X: r.x === null ? null : Number(r.x),
  Y: r.y === null ? null : Number(r.y),
  CreatedAt: iso(r.createdAt)!,
});

type ListFilter = Pick<z.output<typeof schemas.beaconListRequest>, 'Keyword' | 'State' | 'Type' | 'Model' | 'Placed'>;

/** The list filters of the registry's calls (besides the scope and the subtree root). */
export function beaconFilters(q: ListFilter, rootPath?: string): (SQL | undefined)[] {
  const kw = q.Keyword ? contains(q.Keyword) : undefined;
  const macKw = q.Keyword ? normalizeMac(q.Keyword) : null;
  return [
    kw
      ? or(
          ilike(sceneAnchors.code, kw),
          ilike(sceneAnchors.mac, kw),
          ilike(sceneAnchors.name, kw),
          ilike(sceneAnchors.address, kw),
          macKw ? eq(sceneAnchors.mac, macKw) : undefined,
        )
      : undefined,
    q.State !== undefined ? eq(sceneAnchors.state, q.State) : undefined,
    q.Type !== undefined ? eq(sceneAnchors.kind, q.Type) : undefined,
    q.Model !== undefined ? eq(sceneAnchors.model, q.Model) : undefined,
    q.Placed === true ? isNotNull(sceneAnchors.floorId) : q.Placed === false ? isNull(sceneAnchors.floorId) : undefined,
    rootPath ? sql`${sceneAnchors.ownerId} IN (SELECT a.id FROM accounts a WHERE a.path LIKE ${`${rootPath}%`})` : undefined,
  ];
}

/**
 * Registry beacons matching an identifier written any way: a MAC (any spelling), a UUID/code
 * (with or without dashes, any case), or `code:major:minor`.
 */
export function identifierFilter(identifier: string): SQL {
  const text = identifier.trim();
  const mac = normalizeMac(text);
  if (mac) return eq(sceneAnchors.mac, mac);
  const parts = text.split(':');
  if (parts.length === 3 && /^\d{1,5}$/.test(parts[1]!) && /^\d{1,5}$/.test(parts[2]!)) {
    return and(codeMatches(parts[0]!), eq(sceneAnchors.major, Number(parts[1])), eq(sceneAnchors.minor, Number(parts[2])))!;
  }
  return codeMatches(text);
}

/** A code compared without case or dashes (a UUID written with or without them). */
function codeMatches(code: string): SQL {
  return sql`replace(lower(${sceneAnchors.code}), '-', '') = ${code.replace(/-/g, '').toLowerCase()}`;
}
