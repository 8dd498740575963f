// What may stop a device from being deleted (SPEC §4, §8: "deletion is blocked while beacons or
// floors remain"). Each check answers, for the devices asked about, the message key of what blocks
// each one:
// - beacons: the device is itself a beacon placed on a scene's floor plan (a gateway or anchor whose
//   MAC is the device's identity, `ext_id`), or a location made of beacons supervises it by name;
// - floors: a location drawn as a zone on a floor plan supervises it by name.
// Such placements are the administrator's work on the scene and location pages and are taken off
// there first; what is only recorded about the device (positions, presence, alarms...) goes with it.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { intArray, rows } from '../../lib/sql.js';

export type DeletionBlocker = (db: Db, deviceIds: number[]) => Promise<Map<number, string>>;

/** Ids answered by a query as a map to one message key. */
async function idsTo(db: Db, key: string, query: SQL): Promise<Map<number, string>> {
  return new Map((await rows<{ id: number }>(db, query)).map((r) => [Number(r.id), key]));
}

/** The device is a beacon placed on a floor plan. */
export const placedAsBeacon: DeletionBlocker = (db, ids) =>
  idsTo(
    db,
    'device.deleteHasBeacons',
    sql`SELECT d.id FROM devices d WHERE d.id = ANY(${intArray(ids)}) AND d.ext_id IS NOT NULL
          AND EXISTS (SELECT 1 FROM scene_anchors a WHERE a.floor_id IS NOT NULL AND a.mac IS NOT NULL
                        AND d.ext_id IN (lower(a.mac), lower(replace(a.mac, ':', ''))))`,
  );

/** A location of kind `kind` (1 floor zone, 2 beacons) names the device among those it supervises. */
const namedByLocation =
  (kind: 1 | 2, key: string): DeletionBlocker =>
  (db, ids) =>
    idsTo(
      db,
      key,
      sql`SELECT DISTINCT u.id FROM beacon_locations l CROSS JOIN LATERAL unnest(l.device_ids) AS u(id)
            WHERE l.kind = ${kind} AND u.id = ANY(${intArray(ids)})`,
    );

export const deviceDeletionBlockers: DeletionBlocker[] = [
  placedAsBeacon,
  namedByLocation(2, 'device.deleteHasBeacons'),
  namedByLocation(1, 'device.deleteHasFloors'),
];

/** The first blocking reason per device, for the devices some check refuses. */
export async function deletionBlocks(db: Db, deviceIds: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (deviceIds.length === 0) return out;
  for (const check of deviceDeletionBlockers) {
    for (const [id, key] of await check(db, deviceIds)) if (!out.has(id)) out.set(id, key);
  }
  return out;
}
