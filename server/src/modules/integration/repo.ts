// Queries of uplink integrations. The token is kept only as its SHA-256 hash; callers get the
// token itself once, from create and rotate.
import { createHash } from 'node:crypto';
import { desc, eq, sql } from 'drizzle-orm';
import type { AuthUser } from '../../calls.js';
import type { Db } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { accounts, integrations } from '../../db/schema/index.js';
import { scopedCrud } from '../../lib/crud.js';
import { contains } from '../../lib/sql.js';
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
  return scoped.insert(db, values);
}

/**
 * The integrations of a subtree: listed with their owner's login name, found by id, updated and
 * deleted in scope. A missing id and another tenant's answer the same "not found"; names are
 * unique platform-wide and a taken one answers its own message.
 */
export const scoped = scopedCrud({
  table: integrations,
  id: integrations.id,
  owner: integrations.accountId,
  select: (db) =>
    db
      .select({
        id: integrations.id,
        name: integrations.name,
        accountId: integrations.accountId,
        accountName: accounts.loginName,
        enabled: integrations.enabled,
        createdAt: integrations.createdAt,
        lastUsedAt: integrations.lastUsedAt,
      })
      .from(integrations)
      .innerJoin(accounts, eq(accounts.id, integrations.accountId))
      .$dynamic(),
  notFound: 'integration.notFound',
  unique: 'integration.nameExists',
});

export type IntegrationRow = Awaited<ReturnType<typeof scoped.get>>;

/** The integrations of a subtree, newest first, optionally those whose name contains `name`. */
export function listIntegrations(
  db: Db,
  user: Pick<AuthUser, 'path'>,
  q: { name?: string; PageNo: number; PageCount: number },
) {
  return scoped.list(db, user, {
    filters: [q.name ? sql`${integrations.name} ILIKE ${contains(q.name)}` : undefined],
    orderBy: [desc(integrations.id)],
    page: q,
  });
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
