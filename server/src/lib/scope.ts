// The one place where "this account and all below it" is decided. Every area's queries that touch
// account-owned data go through these helpers, so a sibling's data is never reachable.
import { and, eq, like, sql, type SQL, type Column } from 'drizzle-orm';
import type { AuthUser } from '../calls.js';
import { accounts } from '../db/schema/index.js';
import type { Db } from '../db/client.js';
import { AppError } from './errors.js';
import { State } from '@wt/contract';

/** LIKE pattern of a subtree; paths hold only digits and slashes, so nothing needs escaping. */
export const subtreePattern = (user: Pick<AuthUser, 'path'>) => `${user.path}%`;

/** Condition on the accounts table: the row is the user or below it. */
export function accountInSubtree(user: Pick<AuthUser, 'path'>): SQL {
  return like(accounts.path, subtreePattern(user));
}

/** Condition on any table's account id column: owned by the user or an account below it. */
export function ownedBySubtree(column: Column, user: Pick<AuthUser, 'path'>): SQL {
  return sql`${column} IN (SELECT ${accounts.id} FROM ${accounts} WHERE ${accounts.path} LIKE ${subtreePattern(user)})`;
}

export type AccountRow = typeof accounts.$inferSelect;

/**
 * The account a call acts on: the caller when no id is given, else that account if it lies in the
 * caller's subtree. Another tenant's id answers "not in scope" exactly like a missing one.
 */
export async function accountInScope(db: Db, user: AuthUser, accountId?: number | null): Promise<AccountRow> {
  const id = accountId ?? user.id;
  const [row] = await db.select().from(accounts).where(and(eq(accounts.id, id), accountInSubtree(user))).limit(1);
  if (!row) throw new AppError(State.FORBIDDEN, 'account.notInScope');
  return row;
}

export function isInSubtree(user: Pick<AuthUser, 'path'>, accountPath: string): boolean {
  return accountPath.startsWith(user.path);
}
