// Queries of uplink integrations. The token is kept only as its SHA-256 hash; callers get the
// token itself once, from create and rotate.
import { createHash } from 'node:crypto';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AuthUser } from '../../calls.js';
import type { Db } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { accounts, integrations } from '../../db/schema/index.js';
import { ownedBySubtree } from '../../lib/scope.js';
import { allOf, contains } from '../../lib/sql.js';
import { randomToken } from '../../lib/tokens.js';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new token and the hash to store. */
export function newToken(): { token: string; hash: string } {
  const token = randomToken(32);
  return { token, hash: hashToken(token) };
}

/** Creates an uplink integration and returns its token (only its hash is kept). */
export async function createIntegration(
  deps: Pick<AppDeps, 'database'>,
  name: string,
  accountId: number,
): Promise<string> {
  const { token, hash } = newToken();
  await insertIntegration(deps.database.db, { name, accountId, tokenHash: hash });
  return token;
}

export async function insertIntegration(
  db: Db,
  values: { name: string; accountId: number; tokenHash: string; enabled?: boolean },
): Promise<number> {
  const [row] = await db.insert(integrations).values(values).returning({ id: integrations.id });
  return row!.id;
}

export interface IntegrationRow {
  id: number;
  name: string;
  accountId: number;
  accountName: string;
  enabled: boolean;
  createdAt: Date;
  lastUsedAt: Date | null;
}

const columns = {
  id: integrations.id,
  name: integrations.name,
  accountId: integrations.accountId,
  accountName: accounts.loginName,
  enabled: integrations.enabled,
  createdAt: integrations.createdAt,
  lastUsedAt: integrations.lastUsedAt,
};

/** The integrations of a subtree, newest first, optionally those whose name contains `name`. */
export async function listIntegrations(
  db: Db,
  user: Pick<AuthUser, 'path'>,
  q: { name?: string; limit: number; offset: number },
) {
  const conds: SQL[] = [ownedBySubtree(integrations.accountId, user)];
  if (q.name) conds.push(sql`${integrations.name} ILIKE ${contains(q.name)}`);
  const where = allOf(conds);
  const [{ n }] = (await db
    .select({ n: sql<number>`count(*)::int` })
    .from(integrations)
    .where(where)) as [{ n: number }];
  const items: IntegrationRow[] = await db
    .select(columns)
    .from(integrations)
    .innerJoin(accounts, eq(accounts.id, integrations.accountId))
    .where(where)
    .orderBy(desc(integrations.id))
    .limit(q.limit)
    .offset(q.offset);
  return { total: Number(n), items };
}

/** One integration of the subtree; undefined for a missing id and for another tenant's alike. */
export async function integrationInSubtree(
  db: Db,
  user: Pick<AuthUser, 'path'>,
  id: number,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .select(columns)
    .from(integrations)
    .innerJoin(accounts, eq(accounts.id, integrations.accountId))
    .where(and(eq(integrations.id, id), ownedBySubtree(integrations.accountId, user)));
  return row;
}

/** Of `ids`, those of the subtree. */
export async function idsInSubtree(db: Db, user: Pick<AuthUser, 'path'>, ids: number[]): Promise<number[]> {
  const found = await db
    .select({ id: integrations.id })
    .from(integrations)
    .where(and(inArray(integrations.id, ids), ownedBySubtree(integrations.accountId, user)));
  return found.map((r) => r.id);
}

export async function updateIntegration(
  db: Db,
  id: number,
  values: Partial<{ name: string; accountId: number; enabled: boolean; tokenHash: string }>,
) {
  if (Object.keys(values).length) await db.update(integrations).set(values).where(eq(integrations.id, id));
}

export async function deleteIntegrations(db: Db, ids: number[]): Promise<number> {
  const done = await db
    .delete(integrations)
    .where(inArray(integrations.id, ids))
    .returning({ id: integrations.id });
  return done.length;
}

const TOUCH_EVERY_MS = 60_000;
/** Per database (several platforms may share a process, as in tests): integration id -> last write. */
const touched = new WeakMap<object, Map<number, number>>();

/**
 * Records that an integration was used, at most once a minute per integration and process, in the
 * background: the uplink's answer never waits for it.
 */
export function touchIntegration(
  deps: Pick<AppDeps, 'database' | 'log'>,
  id: number,
  now = Date.now(),
): void {
  let seen = touched.get(deps.database);
  if (!seen) touched.set(deps.database, (seen = new Map()));
  if (now - (seen.get(id) ?? 0) < TOUCH_EVERY_MS) return;
  seen.set(id, now);
  deps.database.db
    .update(integrations)
    .set({ lastUsedAt: new Date(now) })
    .where(eq(integrations.id, id))
    .catch((err: unknown) => deps.log.debug({ err, integration: id }, 'integration last use not recorded'));
}
