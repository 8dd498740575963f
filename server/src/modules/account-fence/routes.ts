// Account fences (SPEC §3 Account fence, §9): areas owned by an account that watch the devices of
// the accounts they name. A fence is reached through its owner, so the subtree scope applies to it:
// one outside the caller's subtree answers "not found" exactly like a missing id. Every change is
// announced cluster-wide so the fence engine of every process reloads the fences, and a saved fence's
// watched devices have their attendance rows before the call answers.
import { eq, sql, type SQL } from 'drizzle-orm';
import { State, accountFence as schemas } from '@wt/contract';
import type { z } from 'zod';
import { defineCall, type AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accountFenceAccounts, accountFenceState, accountFences, type StoredSchedule } from '../../db/schema/index.js';
import { scopedCrud, type Tx } from '../../lib/crud.js';
import { AppError, fieldError } from '../../lib/errors.js';
import { accountInScope, subtreePattern, type AccountRow } from '../../lib/scope.js';
import { allOf, contains, iso, rows } from '../../lib/sql.js';
import { attendanceJob } from './attendance/job.js';
import { removeFenceData } from './cleanup.js';
import { districtInfo } from './districts.js';

const { ACCOUNT_FENCES_CHANGED_TOPIC, MAX_ACCOUNT_FENCES, MAX_WATCHED_ACCOUNTS } = schemas;
type AccountFence = schemas.AccountFence;
type ShapeBody = Pick<z.output<typeof schemas.createAccountFenceRequest>, 'Type' | 'Lat' | 'Lon' | 'Radius' | 'Points' | 'DistrictCode'>;
type WatchBody = Pick<z.output<typeof schemas.createAccountFenceRequest>, 'Name' | 'UserIds' | 'IncludeChildren' | 'AlarmType' | 'Schedule'>;

/** What the engines hear when fences change (`fenceIds` changed or went; the engine reloads all). */
export interface AccountFencesChangedEvent {
  fenceIds: number[];
}

const fences = scopedCrud({
  table: accountFences,
  id: accountFences.id,
  owner: accountFences.ownerId,
  select: (db: Db) => db.select({ id: accountFences.id, ownerId: accountFences.ownerId }).from(accountFences).$dynamic(),
  notFound: 'accountFence.notFound',
});

interface FenceRow {
  id: number;
  owner_id: number;
  owner_login_name: string;
  name: string;
  alarm_type: number;
  kind: schemas.AccountFenceType;
  lat: number | null;
  lon: number | null;
  radius: number | null;
  points: [number, number][];
  district_code: string | null;
  include_children: boolean;
  schedule: StoredSchedule | null;
  created_at: Date;
}

const SELECT = sql`SELECT f.id, f.owner_id, o.login_name AS owner_login_name, f.name, f.alarm_type, f.kind, f.lat, f.lon, f.radius,
  f.points, f.district_code, f.include_children, f.schedule, f.created_at
  FROM account_fences f JOIN accounts o ON o.id = f.owner_id`;

/**
 * The accounts whose devices the fences (alias f, with `cond`) watch: those named, and with
 * IncludeChildren their subtrees, found by a range on the accounts' path index.
 */
const watchedAccounts = (cond: SQL) => sql`SELECT fa.fence_id, fa.account_id FROM account_fence_accounts fa JOIN account_fences f ON f.id = fa.fence_id WHERE ${cond}
  UNION
  SELECT fa.fence_id, a.id FROM account_fence_accounts fa JOIN account_fences f ON f.id = fa.fence_id AND f.include_children
    JOIN accounts wa ON wa.id = fa.account_id JOIN accounts a ON a.path ~>=~ wa.path AND a.path ~<~ (wa.path || '~') WHERE ${cond}`;

/** The devices each fence watches now (one query for a page of fences). */
async function deviceCounts(db: Db, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const list = sql.join(
    ids.map((i) => sql`${i}`),
    sql`, `,
  );
  const counted = await rows<{ fence_id: number; n: number }>(
    db,
    sql`SELECT w.fence_id, count(d.id)::int AS n FROM (${watchedAccounts(sql`f.id IN (${list})`)}) w
      JOIN devices d ON d.account_id = w.account_id GROUP BY w.fence_id`,
  );
  return new Map(counted.map((r) => [Number(r.fence_id), Number(r.n)]));
}

/** The fences of `cond` as answered, their watched accounts and device counts in two more queries. */
async function fencesWhere(db: Db, cond: SQL, tail: SQL, withShape: boolean): Promise<AccountFence[]> {
  const found = await rows<FenceRow>(db, sql`${SELECT} WHERE ${cond} ${tail}`);
  if (!found.length) return [];
  const ids = found.map((f) => f.id);
  const watched = await rows<{ fence_id: number; id: number; login_name: string; username: string }>(
    db,
    sql`SELECT fa.fence_id, a.id, a.login_name, a.username FROM account_fence_accounts fa JOIN accounts a ON a.id = fa.account_id
      WHERE fa.fence_id IN (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )}) ORDER BY a.id`,
  );
  const counts = await deviceCounts(db, ids);
  return found.map((f) => ({
    FenceId: f.id,
    UserId: f.owner_id,
    OwnerLoginName: f.owner_login_name,
    Name: f.name,
    AlarmType: f.alarm_type,
    Type: f.kind,
    Lat: f.kind === 'circle' ? f.lat : null,
    Lon: f.kind === 'circle' ? f.lon : null,
    Radius: f.kind === 'circle' ? f.radius : null,
    Points: withShape && f.kind === 'polygon' ? f.points.map(([Lat, Lon]) => ({ Lat, Lon })) : [],
    DistrictCode: f.kind === 'district' ? f.district_code : null,
    Accounts: watched.filter((w) => w.fence_id === f.id).map((w) => ({ UserId: w.id, LoginName: w.login_name, Name: w.username })),
    IncludeChildren: f.include_children,
    Schedule: f.schedule ? { Days: f.schedule.days, Windows: f.schedule.windows.map((w) => ({ Start: w.start, End: w.end })) } : null,
    DeviceCount: counts.get(f.id) ?? 0,
    CreatedAt: iso(f.created_at)!,
  }));
}

async function one(db: Db, id: number) {
  const [item] = await fencesWhere(db, sql`f.id = ${id}`, sql``, true);
  return { State: State.OK, Item: item! } as const;
}

/** The watched accounts must be the owner or below it: the first that is not is named. */
async function checkWatched(db: Db | Tx, owner: Pick<AccountRow, 'path'>, ids: number[]) {
  const ok = await rows<{ id: number }>(
    db as Db,
    sql`SELECT id FROM accounts WHERE id IN (${sql.join(
      ids.map((i) => sql`${i}`),
      sql`, `,
    )}) AND path LIKE ${subtreePattern(owner)}`,
  );
  const found = new Set(ok.map((r) => Number(r.id)));
  const missing = ids.find((i) => !found.has(i));
  if (missing !== undefined) throw fieldError('UserIds', 'accountFence.accountNotInScope', { id: missing });
}

function shapeValues(b: ShapeBody) {
  if (b.Type === 'circle') return { kind: 'circle', lat: b.Lat!, lon: b.Lon!, radius: b.Radius!, points: [] as [number, number][], districtCode: null };
  if (b.Type === 'polygon') return { kind: 'polygon', lat: null, lon: null, radius: null, points: b.Points!.map((p) => [p.Lat, p.Lon] as [number, number]), districtCode: null };
  // A district the boundary data names without a boundary (Taiwan) could contain nothing.
  const district = districtInfo(b.DistrictCode!);
  if (!district || district.missing === 'all') throw fieldError('DistrictCode', 'accountFence.districtUnknown', { code: b.DistrictCode });
  return { kind: 'district', lat: null, lon: null, radius: null, points: [] as [number, number][], districtCode: b.DistrictCode! };
}

const storedSchedule = (s: WatchBody['Schedule']): StoredSchedule | null =>
  s ? { days: s.Days, windows: s.Windows.map((w) => ({ start: w.Start, end: w.End })) } : null;

const watchValues = (b: WatchBody) => ({ name: b.Name, alarmType: b.AlarmType, includeChildren: b.IncludeChildren, schedule: storedSchedule(b.Schedule) });

const changed = (ctx: AuthedContext, fenceIds: number[]) =>
  ctx.deps.bus.publish(ACCOUNT_FENCES_CHANGED_TOPIC, { fenceIds } satisfies AccountFencesChangedEvent);

/**
 * Fences saved: announced to the engines, and every device they watch given its attendance rows
 * before the call answers (today's as far as today's windows go). Rows the seeding could not write
 * are the attendance job's to write; the save stands.
 */
async function saved(ctx: AuthedContext, fenceIds: number[]) {
  changed(ctx, fenceIds);
  await attendanceJob(ctx.deps)
    .seed(fenceIds)
    .catch((err: unknown) => ctx.deps.log.error({ err, fenceIds }, 'attendance rows of a saved fence failed'));
}

/** Fences (alias f) owned by the account or one below it. */
const ownedIn = (account: Pick<AccountRow, 'path'>) => sql`f.owner_id IN (SELECT id FROM accounts WHERE path LIKE ${subtreePattern(account)})`;

const asDb = (tx: Tx) => tx as unknown as Db;

/** The devices one fence watches: a condition on a devices alias `d`. */
const watchesDevice = (fenceId: number) => sql`d.account_id IN (SELECT w.account_id FROM (${watchedAccounts(sql`f.id = ${fenceId}`)}) w)`;

async function create(ctx: AuthedContext, b: WatchBody & ShapeBody & { UserId?: number }) {
  const { db } = ctx.deps.database;
  const owner = await accountInScope(db, ctx.user, b.UserId);
  await checkWatched(db, owner, b.UserIds);
  const values = { ownerId: owner.id, ...watchValues(b), ...shapeValues(b) };
  const id = await db.transaction(async (tx) => {
    // The limit's count and insert run under the owner's row lock (scopedCrud), inside this
    // transaction, so the watched accounts are stored with the fence or not at all.
    const fenceId = await fences.insert(asDb(tx), values, { account: owner.id, max: MAX_ACCOUNT_FENCES, message: 'accountFence.limit' });
    await tx.insert(accountFenceAccounts).values(b.UserIds.map((accountId) => ({ fenceId, accountId })));
    return fenceId;
  });
  await saved(ctx, [id]);
  return one(db, id);
}

/** Changes a fence in scope: its watch (always) and, when given, its shape. */
async function edit(ctx: AuthedContext, b: WatchBody & Partial<ShapeBody> & { FenceId: number }) {
  const { db } = ctx.deps.database;
  const fence = await fences.get(db, ctx.user, b.FenceId);
  const [current] = await rows<{ path: string; schedule: StoredSchedule | null }>(
    db,
    sql`SELECT o.path, f.schedule FROM account_fences f JOIN accounts o ON o.id = f.owner_id WHERE f.id = ${fence.id}`,
  );
  await checkWatched(db, current!, b.UserIds);
  const shape = b.Type ? shapeValues(b as ShapeBody) : null;
  const schedule = storedSchedule(b.Schedule);
  // A new shape or schedule decides every side afresh from the next position (without alarm).
  const reset = shape !== null || JSON.stringify(schedule) !== JSON.stringify(current!.schedule);
  await db.transaction(async (tx) => {
    await tx
      .update(accountFences)
      .set({ ...watchValues(b), ...(shape ?? {}), ...(reset ? { updatedAt: sql`now()` } : {}) })
      .where(eq(accountFences.id, fence.id));
    await tx.delete(accountFenceAccounts).where(eq(accountFenceAccounts.fenceId, fence.id));
    await tx.insert(accountFenceAccounts).values(b.UserIds.map((accountId) => ({ fenceId: fence.id, accountId })));
    if (reset) await tx.delete(accountFenceState).where(eq(accountFenceState.fenceId, fence.id));
    // Devices no longer watched have no side at this fence.
    else
      await tx.execute(sql`DELETE FROM account_fence_state s WHERE s.fence_id = ${fence.id}
        AND NOT EXISTS (SELECT 1 FROM devices d WHERE d.id = s.device_id AND ${watchesDevice(fence.id)})`);
  });
  await saved(ctx, [fence.id]);
  return one(db, fence.id);
}

export const accountFenceCalls = [
  defineCall('/Geofence/CreateGeofence', (ctx, b) => create(ctx, b)),
  defineCall('/Geofence/addGeofenceMonitor', (ctx, b) => create(ctx, b)),
  defineCall('/Geofence/addGeofenceMonitorXingzheng', (ctx, b) => create(ctx, b)),
  defineCall('/Geofence/EditGeofence', (ctx, b) => edit(ctx, b)),
  defineCall('/Geofence/updateGeofenceMonitorCustom', (ctx, b) => edit(ctx, b)),
  defineCall('/Geofence/updateMonitorGeofence', (ctx, b) => edit(ctx, b)),

  defineCall('/Geofence/addMonitorFences', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const found = await rows<{ id: number; path: string; n: number }>(
      db,
      sql`SELECT f.id, o.path, (SELECT count(*)::int FROM account_fence_accounts fa WHERE fa.fence_id = f.id AND fa.account_id NOT IN (${sql.join(
        b.UserIds.map((i) => sql`${i}`),
        sql`, `,
      )})) AS n
        FROM account_fences f JOIN accounts o ON o.id = f.owner_id
        WHERE f.id IN (${sql.join(
          b.FenceIds.map((i) => sql`${i}`),
          sql`, `,
        )}) AND ${ownedIn(ctx.user)}`,
    );
    const byId = new Map(found.map((f) => [Number(f.id), f]));
    const failed: { Imei: string; Message: string; Params?: Record<string, unknown> }[] = [];
    const done: number[] = [];
    for (const id of [...new Set(b.FenceIds)]) {
      const f = byId.get(id);
      if (!f) {
        failed.push({ Imei: String(id), Message: 'accountFence.notFound' });
        continue;
      }
      try {
        await checkWatched(db, f, b.UserIds);
      } catch (err) {
        const field = err instanceof AppError ? err.fields?.[0] : undefined;
        if (!field) throw err;
        failed.push({ Imei: String(id), Message: field.Message, Params: field.Params });
        continue;
      }
      if (Number(f.n) + b.UserIds.length > MAX_WATCHED_ACCOUNTS) {
        failed.push({ Imei: String(id), Message: 'accountFence.accountsMax', Params: { max: MAX_WATCHED_ACCOUNTS } });
        continue;
      }
      done.push(id);
    }
    if (done.length) {
      await db
        .insert(accountFenceAccounts)
        .values(done.flatMap((fenceId) => b.UserIds.map((accountId) => ({ fenceId, accountId }))))
        .onConflictDoNothing();
      await saved(ctx, done);
    }
    return { State: State.OK, Succeeded: done.length, Failed: failed } as const;
  }),

  defineCall('/Geofence/DelGeofenceByUserCustom', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const outcome = await fences.remove(db, ctx.user, b.FenceIds, {
      // What hangs on the fences goes with them.
      before: (tx, ids) => removeFenceData(tx, ids),
    });
    if (outcome.deleted.length) changed(ctx, outcome.deleted);
    return { State: State.OK, Succeeded: outcome.deleted.length, Failed: outcome.refused.map((r) => ({ Imei: String(r.id), Message: r.key })) } as const;
  }),

  defineCall('/AccountFence/List', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const account = await accountInScope(db, ctx.user, q.UserId);
    const conds = [ownedIn(account)];
    if (q.Name) conds.push(sql`f.name ILIKE ${contains(q.Name)}`);
    if (q.AlarmType) conds.push(sql`f.alarm_type = ${q.AlarmType}`);
    if (q.Type) conds.push(sql`f.kind = ${q.Type}`);
    const where = allOf(conds);
    const [counted] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM account_fences f WHERE ${where}`);
    const items = await fencesWhere(db, where, sql`ORDER BY f.id DESC LIMIT ${q.PageCount} OFFSET ${(q.PageNo - 1) * q.PageCount}`, q.WithShape);
    return { State: State.OK, Total: Number(counted?.n ?? 0), Items: items };
  }),

  defineCall('/device/fenceMonitorByChildUserId', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const account = await accountInScope(db, ctx.user, q.UserId);
    if (q.FenceId) await fences.get(db, ctx.user, q.FenceId);
    // Fences of the caller's subtree that watch devices of the account's subtree: a watched account
    // in that subtree, or one above the account with its sub-accounts included.
    const watching = await rows<{ id: number; name: string }>(
      db,
      sql`SELECT f.id, f.name FROM account_fences f
        WHERE ${ownedIn(ctx.user)} ${q.FenceId ? sql`AND f.id = ${q.FenceId}` : sql``}
          AND EXISTS (SELECT 1 FROM account_fence_accounts fa JOIN accounts wa ON wa.id = fa.account_id
                       WHERE fa.fence_id = f.id
                         AND (wa.path LIKE ${subtreePattern(account)} OR (f.include_children AND ${account.path} LIKE wa.path || '%')))
        ORDER BY f.id LIMIT 1000`,
    );
    if (!watching.length) return { State: State.OK, Items: [] };
    const inside = await rows<{ fence_id: number; device_id: number; imei: string; name: string; since: Date }>(
      db,
      sql`SELECT s.fence_id, d.id AS device_id, d.imei, d.name, s.since
        FROM account_fence_state s JOIN devices d ON d.id = s.device_id JOIN accounts da ON da.id = d.account_id
        WHERE s.inside AND s.fence_id IN (${sql.join(
          watching.map((f) => sql`${f.id}`),
          sql`, `,
        )}) AND da.path LIKE ${subtreePattern(account)}
        ORDER BY s.fence_id, d.id LIMIT 20000`,
    );
    return {
      State: State.OK,
      Items: watching.map((f) => ({
        FenceId: Number(f.id),
        FenceName: f.name,
        Devices: inside
          .filter((s) => Number(s.fence_id) === Number(f.id))
          .map((s) => ({ DeviceId: Number(s.device_id), Imei: s.imei, Name: s.name, Since: iso(s.since)! })),
      })),
    };
  }),
];
