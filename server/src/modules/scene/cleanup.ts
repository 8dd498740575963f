// What goes with a deleted account: the scenes it owns, with their floors and anchors (whether
// anchors are deployed or not: the owner is gone). Runs in the caller's transaction; the caller
// announces the scenes removed (SCENES_CHANGED_TOPIC) after the commit.
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import type { Tx } from '../../lib/crud.js';
import { rows } from '../../lib/sql.js';
import { idList } from './repo.js';

/** Removes the account's scenes, floors and anchors, and its registered beacons; answers the scene ids changed. */
export async function removeAccountScenes(tx: Tx | Db, accountId: number): Promise<number[]> {
  // Its beacons, wherever they are placed (a parent's scene included).
  const placed = (
    await rows<{ scene_id: number | null }>(tx as Db, sql`DELETE FROM scene_anchors WHERE owner_id = ${accountId} RETURNING scene_id`)
  ).flatMap((r) => (r.scene_id === null ? [] : [Number(r.scene_id)]));
  const owned = (
    await rows<{ id: number }>(tx as Db, sql`SELECT id FROM scenes WHERE owner_id = ${accountId}`)
  ).map((r) => Number(r.id));
  if (!owned.length) return [...new Set(placed)];
  await tx.execute(sql`DELETE FROM scene_anchors WHERE scene_id IN (${idList(owned)})`);
  await tx.execute(sql`DELETE FROM floors WHERE scene_id IN (${idList(owned)})`);
  await tx.execute(sql`DELETE FROM scenes WHERE id IN (${idList(owned)})`);
  return [...new Set([...owned, ...placed])];
}
