// What may stop a device from being deleted (SPEC §4, §8: "deletion is blocked while beacons or
// floors remain"). The areas that attach beacons or floors to devices add a check here; each
// answers, for the devices asked about, the message key of what blocks each one.
import type { Db } from '../../db/client.js';

export type DeletionBlocker = (db: Db, deviceIds: number[]) => Promise<Map<number, string>>;

export const deviceDeletionBlockers: DeletionBlocker[] = [];

/** The first blocking reason per device, for the devices some check refuses. */
export async function deletionBlocks(db: Db, deviceIds: number[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (deviceIds.length === 0) return out;
  for (const check of deviceDeletionBlockers) {
    for (const [id, key] of await check(db, deviceIds)) if (!out.has(id)) out.set(id, key);
  }
  return out;
}
