// What hangs on account fences, devices and accounts goes with them: a deleted fence takes its
// watched accounts, sides, crossings and attendance; a deleted device its sides, crossings,
// attendance and marks; a deleted account the fences it owns and its place among the accounts others'
// fences watch. Each runs in the caller's transaction; the caller announces the changed fences
// (ACCOUNT_FENCES_CHANGED_TOPIC) after the commit.
import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accountFenceAccounts, accountFenceState, accountFenceTransitions, accountFences, attendanceDaily, attendanceDirty } from '../../db/schema/index.js';
import type { Tx } from '../../lib/crud.js';
import { intArray, rows } from '../../lib/sql.js';

type Executor = Tx | Db;

export async function removeFenceData(tx: Executor, fenceIds: number[]): Promise<void> {
  if (!fenceIds.length) return;
  await tx.delete(accountFenceAccounts).where(inArray(accountFenceAccounts.fenceId, fenceIds));
  await tx.delete(accountFenceState).where(inArray(accountFenceState.fenceId, fenceIds));
  await tx.delete(accountFenceTransitions).where(inArray(accountFenceTransitions.fenceId, fenceIds));
  await tx.delete(attendanceDaily).where(inArray(attendanceDaily.fenceId, fenceIds));
}

export async function removeDeviceFenceData(tx: Executor, deviceIds: number[]): Promise<void> {
  if (!deviceIds.length) return;
  // One array parameter: the devices of an import undone are thousands.
  const ids = intArray(deviceIds);
  for (const col of [accountFenceState.deviceId, accountFenceTransitions.deviceId, attendanceDaily.deviceId, attendanceDirty.deviceId]) {
    await tx.execute(sql`DELETE FROM ${col.table} WHERE ${col} = ANY(${ids})`);
  }
}

/** Removes an account's fences and its place in others' watch lists; answers the fences changed. */
export async function removeAccountFenceData(tx: Executor, accountId: number): Promise<number[]> {
  const owned = (await rows<{ id: number }>(tx as Db, sql`SELECT id FROM account_fences WHERE owner_id = ${accountId}`)).map((r) => Number(r.id));
  const watching = (await rows<{ fence_id: number }>(tx as Db, sql`SELECT fence_id FROM account_fence_accounts WHERE account_id = ${accountId}`)).map((r) => Number(r.fence_id));
  await removeFenceData(tx, owned);
  if (owned.length) await tx.delete(accountFences).where(inArray(accountFences.id, owned));
  await tx.execute(sql`DELETE FROM account_fence_accounts WHERE account_id = ${accountId}`);
  return [...new Set([...owned, ...watching])];
}
