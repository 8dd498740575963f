// Where account administration meets permission sets and the authentication caches.
import type { AuthedContext } from '../../calls.js';

/** A permission set the caller may give (a default one, or one of its subtree within its own holding). */
export { assignableSet } from '../permission/service.js';

/**
 * Accounts whose type, set, flag or place in the tree changed: their cached sessions, and those of
 * the accounts below them, are read afresh on their next request, in every process.
 */
export function invalidateAccounts(ctx: AuthedContext, ids: number[]) {
  for (const id of ids) ctx.request.server.authenticator.invalidateAccount(id);
}
