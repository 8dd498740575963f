// Where account administration meets permission sets and the authentication caches.
import { sql } from 'drizzle-orm';
import { State } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import { AppError } from '../../lib/errors.js';
import { rows } from '../../lib/sql.js';

/** A permission set the caller may give: a built-in one, or one owned in its subtree or above it. */
export async function assignableSet(ctx: AuthedContext, id: number): Promise<{ id: number }> {
  const [set] = await rows<{ id: number }>(
    ctx.deps.database.db,
    sql`SELECT ps.id FROM permission_sets ps LEFT JOIN accounts o ON o.id = ps.owner_id
         WHERE ps.id = ${id} AND (ps.built_in OR o.path LIKE ${`${ctx.user.path}%`} OR ${ctx.user.path} LIKE o.path || '%')`,
  );
  if (!set) throw new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: 'PermissionId', Message: 'account.permissionNotAssignable' }]);
  return { id: Number(set.id) };
}

/**
 * Accounts whose type, set, flag or place in the tree changed: their cached sessions, and those of
 * the accounts below them, are read afresh on their next request, in every process.
 */
export function invalidateAccounts(ctx: AuthedContext, ids: number[]) {
  for (const id of ids) ctx.request.server.authenticator.invalidateAccount(id);
}
