// Permission sets (SPEC §6): the two default sets and the sets owned by the caller's subtree. A set
// an account writes or uses never grants more than the account has itself: its actions are within
// the account's actions, its routes within the account's routes. The default sets, and the set an
// account uses itself (unless it is an administrator), cannot be edited.
import { and, eq, sql } from 'drizzle-orm';
import {
  ADMIN_USER_TYPE,
  BUILT_IN_SET_KEYS,
  LIMITS,
  PERMISSION_ROUTE,
  State,
  TREE_ROUTES,
  actionTitleKey,
  effectiveRoutes,
  grants,
  grantsOf,
  isAction,
  isPlatformAdministrator,
  parseList,
  platformRoutePaths,
  roleRoutes,
  routesWithCompanions,
  translate,
  treeRoutesOf,
  type Grants,
  type PermissionSet,
} from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accounts, permissionSets, sessions } from '../../db/schema/index.js';
import { AppError, conflict } from '../../lib/errors.js';
import { contains, iso, rows } from '../../lib/sql.js';
import { subtreePattern } from '../../lib/scope.js';
import { randomToken, sha256 } from '../../lib/tokens.js';
import { issueAccess } from '../user/service.js';
import { createSession } from '../user/repo.js';

export type SetRow = typeof permissionSets.$inferSelect;

/** What an account holds: its actions and the tree routes it may open (null: every route its role opens). */
interface Holding {
  actions: Grants;
  /** Tree routes of its set; null when it has none of its own (no set, or a set by role). */
  routes: ReadonlySet<string> | null;
  userType: number;
  setId: number | null;
  /** One of the platform's administrators: the only ones holding the pages marked `platform`. */
  platform: boolean;
}

const isAdmin = (ctx: AuthedContext) => ctx.user.userType === ADMIN_USER_TYPE;

async function holdingOf(ctx: AuthedContext, db: Db = ctx.deps.database.db): Promise<Holding> {
  const [row] = await db
    .select({ userType: accounts.userType, setId: accounts.permissionSetId, set: permissionSets })
    .from(accounts)
    .leftJoin(permissionSets, eq(permissionSets.id, accounts.permissionSetId))
    .where(eq(accounts.id, ctx.user.id));
  if (!row) throw new AppError(State.TOKEN_INVALID, 'common.tokenInvalid');
  // The routes it opens are its set's within its role, as its UserInfo says.
  const listed = row.set && row.userType !== ADMIN_USER_TYPE ? treeRoutesOf(parseList(effectiveRoutes(row.userType, row.set.routes))) : [];
  return {
    actions: grantsOf(row.userType, row.set),
    routes: listed.length > 0 ? new Set(listed) : null,
    userType: row.userType,
    setId: row.setId,
    platform: isPlatformAdministrator(ctx.user),
  };
}

/** The tree routes an account opens: its set's, or every route its role opens. */
function routesHeld(h: Holding): ReadonlySet<string> {
  const held = h.routes ? [...h.routes] : h.userType === ADMIN_USER_TYPE ? TREE_ROUTES : roleRoutes(h.userType).filter((r) => TREE_ROUTES.includes(r));
  if (h.platform) return new Set(held);
  const platformOnly = new Set(platformRoutePaths());
  return new Set(held.filter((r) => !platformOnly.has(r)));
}

/**
 * What a set asks for beyond what the account holds, as translated names (empty when within). A
 * set without routes of its own opens pages by role: within only for an account that is by role too.
 */
function beyond(ctx: AuthedContext, h: Holding, set: Pick<SetRow, 'key' | 'builtIn' | 'actions' | 'routes'>): string[] {
  const out: string[] = [];
  const wanted = grantsOf(0, set);
  if (wanted === 'all') {
    if (h.actions !== 'all') out.push(translate(ctx.locale, 'permission.allActions'));
  } else {
    for (const a of wanted) if (!grants(h.actions, a)) out.push(translate(ctx.locale, actionTitleKey(a)));
  }
  const routes = treeRoutesOf(parseList(set.routes));
  if (routes.length === 0) {
    if (h.routes && h.userType !== ADMIN_USER_TYPE) out.push(translate(ctx.locale, 'permission.allRoutes'));
  } else {
    const held = routesHeld(h);
    for (const r of routes) if (!held.has(r)) out.push(r);
  }
  return out;
}

const visible = (ctx: AuthedContext) =>
  sql`(${permissionSets.builtIn} OR ${permissionSets.ownerId} IN (SELECT id FROM accounts WHERE path LIKE ${subtreePattern(ctx.user)}))`;

async function visibleSet(ctx: AuthedContext, id: number, db: Db = ctx.deps.database.db, lock = false): Promise<SetRow> {
  const q = db.select().from(permissionSets).where(and(eq(permissionSets.id, id), visible(ctx)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw new AppError(State.NOT_FOUND, 'permission.notFound');
  return row;
}

/** The name a set shows: the default sets' names in the caller's language. */
function nameOf(ctx: AuthedContext, s: Pick<SetRow, 'builtIn' | 'key' | 'name'>) {
  return s.builtIn ? translate(ctx.locale, `permission.builtIn.${s.key}`) : s.name;
}

/** Refuses editing or deleting a set the caller may not change. */
function assertEditable(ctx: AuthedContext, h: Holding, s: SetRow) {
  if (s.builtIn) throw new AppError(State.FORBIDDEN, 'permission.builtInReadOnly', { name: nameOf(ctx, s) });
  if (!isAdmin(ctx) && h.setId === s.id) throw new AppError(State.FORBIDDEN, 'permission.ownSet');
}

interface ListRow {
  id: number;
  owner_id: number | null;
  key: string;
  name: string;
  description: string;
  routes: string;
  actions: string;
  built_in: boolean;
  updated_at: Date;
  owner_name: string | null;
  account_count: number;
}

function toItem(ctx: AuthedContext, h: Holding, r: ListRow): PermissionSet {
  const set = { key: r.key, builtIn: r.built_in, actions: r.actions };
  const all = grantsOf(0, set) === 'all';
  return {
    Id: r.id,
    Key: r.key,
    Name: nameOf(ctx, { builtIn: r.built_in, key: r.key, name: r.name }),
    Description: r.built_in ? translate(ctx.locale, `permission.builtInDescription.${r.key}`) : r.description,
    Routes: treeRoutesOf(parseList(r.routes)),
    Actions: all ? ['*'] : parseList(r.actions).filter(isAction),
    BuiltIn: r.built_in,
    OwnerId: r.owner_id,
    OwnerName: r.owner_name ?? '',
    AccountCount: Number(r.account_count),
    Editable: !r.built_in && (isAdmin(ctx) || h.setId !== r.id),
    UpdatedAt: iso(r.updated_at)!,
  };
}

function listQuery(ctx: AuthedContext, where: ReturnType<typeof sql>) {
  // Accounts counted are those the caller sees: a default set is used across tenants.
  return sql`SELECT s.id, s.owner_id, s.key, s.name, s.description, s.routes, s.actions, s.built_in, s.updated_at,
      o.login_name AS owner_name,
      (SELECT count(*)::int FROM accounts a WHERE a.permission_set_id = s.id AND a.path LIKE ${subtreePattern(ctx.user)}) AS account_count
    FROM permission_sets s LEFT JOIN accounts o ON o.id = s.owner_id
    WHERE (s.built_in OR s.owner_id IN (SELECT id FROM accounts WHERE path LIKE ${subtreePattern(ctx.user)})) AND ${where}`;
}

async function itemById(ctx: AuthedContext, h: Holding, id: number): Promise<PermissionSet> {
  const [r] = await rows<ListRow>(ctx.deps.database.db, listQuery(ctx, sql`s.id = ${id}`));
  return toItem(ctx, h, r!);
}

export async function list(ctx: AuthedContext, q: { PageNo: number; PageCount: number; Search?: string }) {
  const h = await holdingOf(ctx);
  const { db } = ctx.deps.database;
  const search = q.Search?.trim();
  const where = search
    ? sql`(s.name ILIKE ${contains(search)} OR s.key ILIKE ${contains(search)} OR s.description ILIKE ${contains(search)})`
    : sql`TRUE`;
  const [{ n }] = (await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM permission_sets s WHERE (s.built_in OR s.owner_id IN (SELECT id FROM accounts WHERE path LIKE ${subtreePattern(ctx.user)})) AND ${where}`,
  )) as [{ n: number }];
  const page = await rows<ListRow>(
    db,
    sql`${listQuery(ctx, where)} ORDER BY s.built_in DESC, s.id LIMIT ${q.PageCount} OFFSET ${(q.PageNo - 1) * q.PageCount}`,
  );
  return { State: State.OK, Total: Number(n), Items: page.map((r) => toItem(ctx, h, r)) } as const;
}

interface SetInput {
  Key: string;
  Name: string;
  Description: string;
  Routes: string[];
  Actions: string[];
}

const fieldRefusal = (field: string, key: string, params?: Record<string, unknown>) =>
  new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: field, Message: key, Params: params }]);

/** Checks a set's contents against the tree and the caller's own holding; answers the stored form. */
function checkContents(ctx: AuthedContext, h: Holding, b: SetInput) {
  const unknownRoute = b.Routes.find((r) => !TREE_ROUTES.includes(r));
  if (unknownRoute !== undefined) throw fieldRefusal('Routes', 'permission.unknownRoute', { route: unknownRoute });
  const unknownAction = b.Actions.find((a) => !isAction(a));
  if (unknownAction !== undefined) throw fieldRefusal('Actions', 'permission.unknownAction', { action: unknownAction });
  const routes = [...new Set(b.Routes)];
  const actions = [...new Set(b.Actions)];
  if (actions.includes('permission.edit') && !routes.includes(PERMISSION_ROUTE)) throw fieldRefusal('Routes', 'permission.needsRoleRoute');
  const stored = { key: b.Key, builtIn: false, routes: routesWithCompanions(routes).join(','), actions: actions.join(',') };
  const over = beyond(ctx, h, stored);
  if (over.length > 0) throw fieldRefusal(actions.some((a) => !grants(h.actions, a)) ? 'Actions' : 'Routes', 'permission.notAllowed', { items: over.join(', ') });
  return stored;
}

async function assertKeyFree(db: Db, ownerId: number, key: string, exceptId?: number) {
  const reserved = Object.values(BUILT_IN_SET_KEYS).some((k) => k.toLowerCase() === key.toLowerCase());
  const [taken] = reserved
    ? [{ id: 0 }]
    : await db
        .select({ id: permissionSets.id })
        .from(permissionSets)
        .where(
          and(
            eq(permissionSets.ownerId, ownerId),
            sql`lower(${permissionSets.key}) = lower(${key})`,
            exceptId ? sql`${permissionSets.id} <> ${exceptId}` : sql`TRUE`,
          ),
        )
        .limit(1);
  if (taken) throw new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: 'Key', Message: 'permission.keyExists', Params: { key } }]);
}

export async function insert(ctx: AuthedContext, b: SetInput) {
  const h = await holdingOf(ctx);
  const stored = checkContents(ctx, h, b);
  const id = await ctx.deps.database.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    // The count, the key check and the insert under the owner's row lock: two saves cannot both pass at 29.
    await tx.execute(sql`SELECT id FROM accounts WHERE id = ${ctx.user.id} FOR UPDATE`);
    const [{ n }] = (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM permission_sets WHERE owner_id = ${ctx.user.id}`)) as [{ n: number }];
    if (n >= LIMITS.permissionSets) throw conflict('permission.limit', { limit: LIMITS.permissionSets });
    await assertKeyFree(db, ctx.user.id, b.Key);
    const [row] = await tx
      .insert(permissionSets)
      .values({ ownerId: ctx.user.id, key: b.Key, name: b.Name, description: b.Description, routes: stored.routes, actions: stored.actions })
      .returning({ id: permissionSets.id });
    return row!.id;
  });
  return { State: State.OK, Item: await itemById(ctx, h, id) } as const;
}

export async function edit(ctx: AuthedContext, b: SetInput & { Id: number }) {
  const h = await holdingOf(ctx);
  await ctx.deps.database.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const s = await visibleSet(ctx, b.Id, db, true);
    assertEditable(ctx, h, s);
    const stored = checkContents(ctx, h, b);
    await assertKeyFree(db, s.ownerId!, b.Key, s.id);
    await tx
      .update(permissionSets)
      .set({ key: b.Key, name: b.Name, description: b.Description, routes: stored.routes, actions: stored.actions, updatedAt: new Date() })
      .where(eq(permissionSets.id, s.id));
  });
  ctx.request.server.authenticator.invalidateSet(b.Id);
  return { State: State.OK, Item: await itemById(ctx, h, b.Id) } as const;
}

export async function remove(ctx: AuthedContext, b: { Id: number }) {
  const h = await holdingOf(ctx);
  await ctx.deps.database.db.transaction(async (tx) => {
    const s = await visibleSet(ctx, b.Id, tx as unknown as Db, true);
    assertEditable(ctx, h, s);
    // Under the set's row lock: an account given the set concurrently locks it too (assignableSet).
    const [used] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.permissionSetId, s.id)).limit(1);
    if (used) throw conflict('account.permissionInUse');
    await tx.delete(permissionSets).where(eq(permissionSets.id, s.id));
  });
  ctx.request.server.authenticator.invalidateSet(b.Id);
  return { State: State.OK, Message: 'common.ok' } as const;
}

/**
 * A set the caller may give a sub-account (or itself): a default set or one owned in its subtree,
 * granting nothing beyond the caller's own holding; else a localized refusal. Inside a transaction,
 * pass it as `db` so the set's row stays locked until the account is written (a concurrent delete
 * then sees the account).
 */
export async function assignableSet(ctx: AuthedContext, setId: number, db: Db = ctx.deps.database.db): Promise<SetRow> {
  const h = await holdingOf(ctx, db);
  const s = await visibleSet(ctx, setId, db, db !== ctx.deps.database.db);
  const over = beyond(ctx, h, s);
  if (over.length > 0) throw new AppError(State.FORBIDDEN, 'permission.notAssignable', { items: over.join(', ') });
  return s;
}

/**
 * Applies a set to the caller itself (SPEC §4 "changing the role"): the session ends and a new one
 * begins, whose token is answered; the console then reloads the user info and its routes.
 */
export async function applyToSelf(ctx: AuthedContext, b: { Id: number }) {
  const { db } = ctx.deps.database;
  const refresh = randomToken();
  const expires = new Date(Date.now() + ctx.deps.config.REFRESH_TOKEN_TTL * 1000);
  const sessionId = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    const s = await assignableSet(ctx, b.Id, t);
    await tx.update(accounts).set({ permissionSetId: s.id, updatedAt: new Date() }).where(eq(accounts.id, ctx.user.id));
    await tx.update(sessions).set({ revokedAt: new Date() }).where(eq(sessions.id, ctx.user.sessionId));
    return createSession(t, ctx.user.id, sha256(refresh), expires, ctx.userAgent.slice(0, 200));
  });
  ctx.request.server.authenticator.forget(ctx.user.sessionId);
  ctx.request.server.authenticator.invalidateAccount(ctx.user.id);
  const access = issueAccess(ctx, ctx.user.id, sessionId);
  return { State: State.OK, AccessToken: access.token, refreshToken: refresh, ExpiresIn: access.ttl } as const;
}
