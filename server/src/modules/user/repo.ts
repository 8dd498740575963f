// Queries of the user area.
import { and, desc, eq, gte, ilike, lte, or, sql, type SQL } from 'drizzle-orm';
import { LOG_ACTIONS } from '@wt/contract';
import type { Db } from '../../db/client.js';
import { accounts, loginLogs, loginUnlocks, passwordResets, permissionSets, sessions } from '../../db/schema/index.js';
import { ownedBySubtree } from '../../lib/scope.js';
import { rows } from '../../lib/sql.js';
import type { AuthUser } from '../../calls.js';

export async function findAccountByLogin(db: Db, loginName: string) {
  const [row] = await db
    .select()
    .from(accounts)
    .where(sql`lower(${accounts.loginName}) = lower(${loginName.trim()})`)
    .limit(1);
  return row;
}

export async function emailTaken(db: Db, email: string) {
  const [row] = await db
    .select({ id: accounts.id })
    .from(accounts)
    .where(sql`lower(${accounts.email}) = lower(${email.trim()})`)
    .limit(1);
  return !!row;
}

export async function rootAccount(db: Db) {
  const [row] = await db.select().from(accounts).where(sql`${accounts.parentId} IS NULL`).orderBy(accounts.id).limit(1);
  return row;
}

/** An account's permission set; a set id whose row is gone reads as a set granting nothing. */
export async function permissionSetOf(db: Db, permissionSetId: number | null) {
  if (!permissionSetId) return null;
  const [row] = await db
    .select({ key: permissionSets.key, builtIn: permissionSets.builtIn, routes: permissionSets.routes, actions: permissionSets.actions })
    .from(permissionSets)
    .where(eq(permissionSets.id, permissionSetId));
  return row ?? { key: '', builtIn: false, routes: '', actions: '' };
}

/** Inserts an account below a parent (or as a root) and sets its materialized path. */
export async function insertAccount(db: Db, values: Omit<typeof accounts.$inferInsert, 'path'> & { parentPath?: string }) {
  const { parentPath, ...rest } = values;
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(accounts).values({ ...rest, path: '/' }).returning();
    const path = `${parentPath ?? '/'}${row!.id}/`;
    const [updated] = await tx.update(accounts).set({ path }).where(eq(accounts.id, row!.id)).returning();
    return updated!;
  });
}

export interface NewAccount {
  loginName: string;
  passwordHash: string;
  kind: string;
  userType: number;
  username: string;
  email: string;
}

/**
 * Accounts below one parent in one statement, each written with its path (its id is drawn first).
 * The caller reads the parent's path in the same transaction, under the tree lock.
 */
export async function insertAccounts(db: Db, parent: { id: number; path: string }, list: NewAccount[]): Promise<{ id: number; login_name: string }[]> {
  if (!list.length) return [];
  const json = JSON.stringify(list.map((a) => ({ login_name: a.loginName, password_hash: a.passwordHash, kind: a.kind, user_type: a.userType, username: a.username, email: a.email })));
  return rows<{ id: number; login_name: string }>(
    db,
    sql`INSERT INTO accounts (id, parent_id, path, login_name, password_hash, kind, user_type, username, email)
        SELECT n.id, ${parent.id}, ${parent.path}::text || n.id || '/', n.login_name, n.password_hash, n.kind, n.user_type, n.username, n.email
        FROM (SELECT nextval(pg_get_serial_sequence('accounts', 'id'))::int AS id, x.*
              FROM json_to_recordset(${json}::json) AS x(login_name text, password_hash text, kind text, user_type smallint, username text, email text)) n
        RETURNING id, login_name`,
  );
}

export async function createSession(db: Db, accountId: number, refreshHash: string, expiresAt: Date, client: string) {
  const [row] = await db.insert(sessions).values({ accountId, refreshHash, expiresAt, client }).returning({ id: sessions.id });
  return row!.id;
}

export async function revokeSessions(db: Db, accountId: number, exceptSessionId?: number) {
  const cond = exceptSessionId
    ? and(eq(sessions.accountId, accountId), sql`${sessions.id} <> ${exceptSessionId}`, sql`${sessions.revokedAt} IS NULL`)
    : and(eq(sessions.accountId, accountId), sql`${sessions.revokedAt} IS NULL`);
  await db.update(sessions).set({ revokedAt: new Date() }).where(cond);
}

/** Whether the account logged in successfully from this address within the last `days` days. */
export async function loggedInFrom(db: Db, accountId: number, ip: string, days: number) {
  const [row] = await db
    .select({ id: loginLogs.id })
    .from(loginLogs)
    .where(and(eq(loginLogs.accountId, accountId), gte(loginLogs.createdAt, new Date(Date.now() - days * 86_400_000)), eq(loginLogs.ip, ip), eq(loginLogs.actionCode, LOG_ACTIONS.LOGIN)))
    .limit(1);
  return !!row;
}

export async function insertLoginLog(db: Db, row: typeof loginLogs.$inferInsert) {
  await db.insert(loginLogs).values(row);
}

export async function recentLog(db: Db, accountId: number, actionCode: number, sinceMs: number) {
  const [row] = await db
    .select({ id: loginLogs.id })
    .from(loginLogs)
    .where(and(eq(loginLogs.accountId, accountId), eq(loginLogs.actionCode, actionCode), gte(loginLogs.createdAt, new Date(Date.now() - sinceMs))))
    .limit(1);
  return !!row;
}

export async function listLoginLogs(
  db: Db,
  user: AuthUser,
  q: { accountId?: number; actionCode?: number; from?: Date; to?: Date; keyword?: string; offset: number; limit: number },
) {
  const conds: SQL[] = [ownedBySubtree(loginLogs.accountId, user)];
  if (q.accountId) conds.push(eq(loginLogs.accountId, q.accountId));
  if (q.actionCode) conds.push(eq(loginLogs.actionCode, q.actionCode));
  if (q.from) conds.push(gte(loginLogs.createdAt, q.from));
  if (q.to) conds.push(lte(loginLogs.createdAt, q.to));
  if (q.keyword) {
    const k = `%${q.keyword.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
    conds.push(or(ilike(loginLogs.loginName, k), ilike(loginLogs.ip, k), ilike(loginLogs.ipLocation, k))!);
  }
  const where = and(...conds);
  const [{ total }] = (await db.select({ total: sql<number>`count(*)::int` }).from(loginLogs).where(where)) as [{ total: number }];
  const items = await db.select().from(loginLogs).where(where).orderBy(desc(loginLogs.createdAt), desc(loginLogs.id)).offset(q.offset).limit(q.limit);
  return { total, items };
}

export { accounts, loginUnlocks, passwordResets, sessions };
