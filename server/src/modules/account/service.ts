// Account administration (SPEC §3 Account, §6, §8): sub-accounts of the caller's subtree, read as a
// lazy tree and as tables of children, created, edited, reset, deleted and moved with their whole
// subtree; and the agent authorization that takes self-registered end users under an agent.
// Nothing ever reaches outside the caller's subtree, and a refusal changes nothing.
import { randomInt } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import {
  ADMIN_USER_TYPE,
  LOG_ACTIONS,
  accountFence as accountFenceSchemas,
  scene as sceneSchemas,
  State,
  account as schemas,
  formatInZone,
  inventory as inventorySchemas,
  roleLabelOf,
} from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { hashPassword } from '../../lib/passwords.js';
import { accountInScope, isInSubtree, type AccountRow } from '../../lib/scope.js';
import { isUniqueViolation, rows } from '../../lib/sql.js';
import { ipLocationText } from '../../lib/iplocation.js';
import { REALTIME_TOPICS, type AccountsMovedEvent, type SessionsEndedEvent } from '../../realtime/topics.js';
import { revokeSessions } from '../user/repo.js';
import { log as loginLog } from '../user/service.js';
import { readSheetRows } from '../device/excel.js';
import { removeAccountFenceData } from '../account-fence/cleanup.js';
import { removeAccountScenes } from '../scene/cleanup.js';
import type { AccountFencesChangedEvent } from '../account-fence/routes.js';
import { assignableSet, invalidateAccounts } from './access.js';
import * as repo from './repo.js';
import { requireAction } from '../../plugins/calls.js';

type AccountNode = schemas.AccountNode;
type AccountRowInfo = schemas.AccountRowInfo;
type Body<K extends keyof typeof schemas.accountSchemas> = z.output<(typeof schemas.accountSchemas)[K]['request']>;

// ---- shapes --------------------------------------------------------------------------------------

export function toNode(r: repo.NodeRow): AccountNode {
  return {
    UserId: Number(r.id),
    ParentId: r.parentId === null ? null : Number(r.parentId),
    LoginName: r.loginName,
    Username: r.username,
    companyName: r.companyName,
    Contact: r.contact,
    AccountKind: r.kind,
    HasChildren: !!r.hasChildren,
  };
}

function toRow(r: repo.AccountListRow, offsetMinutes: number): AccountRowInfo {
  const userType = Number(r.userType);
  return {
    ...toNode(r),
    PageName: r.pageName,
    CellPhone: r.phone,
    Email: r.email,
    UserType: userType,
    RoleLabel: roleLabelOf(userType),
    PermissionId: r.permissionSetId === null ? null : Number(r.permissionSetId),
    PermissionName: r.permissionName ?? '',
    DeviceCount: Number(r.ownDevices),
    TotalDeviceCount: Number(r.totalDevices),
    ChildCount: Number(r.childCount),
    CreateDT: formatInZone(r.createdAt, offsetMinutes),
    AgentAuthorized: !!r.agentAuthorized,
    MustChangePassword: !!r.mustChangePassword,
    Disabled: !!r.disabled,
  };
}

/** The caller's own row (for its time zone and flags, which the token does not carry). */
async function self(ctx: AuthedContext): Promise<AccountRow> {
  return accountInScope(ctx.deps.database.db, ctx.user);
}

async function rowOf(ctx: AuthedContext, id: number, offsetMinutes: number) {
  const r = await repo.accountRow(ctx.deps.database.db, id);
  if (!r) throw new AppError(State.FORBIDDEN, 'account.notInScope');
  return toRow(r, offsetMinutes);
}

/** A sub-account of the caller (in its subtree, not itself). */
async function subAccount(ctx: AuthedContext, id: number, selfKey: string): Promise<AccountRow> {
  const target = await accountInScope(ctx.deps.database.db, ctx.user, id);
  if (target.id === ctx.user.id) throw new AppError(State.FORBIDDEN, selfKey);
  return target;
}

/** A random password of 12 letters and digits, with a digit, an upper- and a lower-case letter. */
export function generatePassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789'];
  const all = sets.join('');
  const chars = sets.map((s) => s[randomInt(s.length)]!);
  while (chars.length < 12) chars.push(all[randomInt(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}

// ---- reading -------------------------------------------------------------------------------------

export async function children(ctx: AuthedContext, b: Body<'/user/childrenUsers'>) {
  const { db } = ctx.deps.database;
  const parent = await accountInScope(db, ctx.user, b.UserId);
  const me = parent.id === ctx.user.id ? parent : await self(ctx);
  const { total, items } = await repo.childRows(db, parent.id, {
    keyword: b.Keyword || undefined,
    offset: (b.PageNo - 1) * b.PageCount,
    limit: b.PageCount,
  });
  const parentNode = await repo.node(db, parent.id);
  return { State: 200 as const, Total: total, Items: items.map((r) => toRow(r, me.timeZoneOffset)), Parent: toNode(parentNode!) };
}

export async function treeNode(ctx: AuthedContext, b: Body<'/user/allChildrenUsers'>) {
  const { db } = ctx.deps.database;
  const parent = await accountInScope(db, ctx.user, b.UserId);
  const [n, page] = await Promise.all([repo.node(db, parent.id), repo.childNodes(db, parent.id, (b.PageNo - 1) * b.PageCount, b.PageCount)]);
  return { State: 200 as const, Node: toNode(n!), Total: page.total, Items: page.items.map(toNode) };
}

/** Path ids of an account path ('/1/5/12/' -> [1, 5, 12]). */
const pathIds = (p: string) => p.split('/').filter(Boolean).map(Number);

export async function search(ctx: AuthedContext, b: Body<'/user/searchAccountByName'>) {
  const { db } = ctx.deps.database;
  const found = await repo.search(db, ctx.user.path, b.Keyword, b.Limit);
  // Ancestors between the caller and each match, so the tree can open the way down to it.
  const callerDepth = pathIds(ctx.user.path).length;
  const chains = found.map((r) => pathIds(r.path).slice(callerDepth - 1, -1));
  const byId = new Map((await repo.nodes(db, [...new Set(chains.flat())])).map((n) => [Number(n.id), toNode(n)]));
  return {
    State: 200 as const,
    Items: found.map((r, i) => ({ ...toNode(r), Ancestors: chains[i]!.map((id) => byId.get(id)).filter((n): n is AccountNode => !!n) })),
  };
}

// ---- creating and editing -------------------------------------------------------------------------

function checkUserType(ctx: AuthedContext, type: number | undefined) {
  if (type !== undefined && !schemas.userTypeWithin(ctx.user.userType, type)) {
    throw new AppError(State.FORBIDDEN, 'common.validation', undefined, [{ Field: 'UserType', Message: 'account.userTypeAbove' }]);
  }
}

async function checkEmail(db: Db, email: string | undefined, exceptId?: number) {
  if (email && (await repo.emailTaken(db, email, exceptId))) {
    throw new AppError(State.CONFLICT, 'auth.emailExists', undefined, [{ Field: 'Email', Message: 'auth.emailExists' }]);
  }
}

const loginExists = (loginName: string) =>
  new AppError(State.CONFLICT, 'account.loginExists', { name: loginName }, [{ Field: 'LoginName', Message: 'account.loginExists', Params: { name: loginName } }]);

export async function create(ctx: AuthedContext, b: Body<'/user/registerNewUser'>) {
  const { db } = ctx.deps.database;
  checkUserType(ctx, b.UserType);
  const parent = await accountInScope(db, ctx.user, b.ParentId);
  if (await repo.loginTaken(db, b.LoginName)) throw loginExists(b.LoginName);
  await checkEmail(db, b.Email);
  const generated = b.Password ? undefined : generatePassword();
  const passwordHash = await hashPassword(b.Password ?? generated!);
  let id: number;
  try {
    id = await db.transaction(async (tx) => {
      // A move of the parent's subtree waits for this insert, or this insert for the move.
      await tx.execute(sql`SELECT pg_advisory_xact_lock_shared(${repo.TREE_LOCK})`);
      const [p] = await rows<{ path: string }>(tx as unknown as Db, sql`SELECT path FROM accounts WHERE id = ${parent.id} FOR SHARE`);
      if (!p || !isInSubtree(ctx.user, p.path)) throw new AppError(State.FORBIDDEN, 'account.notInScope');
      // The set stays locked until the account is written: a concurrent delete then sees it in use.
      const permissionSetId = b.PermissionId ? (await assignableSet(ctx, b.PermissionId, tx as unknown as Db)).id : null;
      const [row] = await rows<{ id: number }>(
        tx as unknown as Db,
        sql`INSERT INTO accounts (parent_id, path, login_name, password_hash, kind, user_type, permission_set_id, username, page_name,
                                  company_name, contact, phone, email, language, must_change_password)
            VALUES (${parent.id}, '/', ${b.LoginName}, ${passwordHash}, ${b.AccountKind}, ${b.UserType}, ${permissionSetId},
                    ${b.Username ?? ''}, ${b.PageName ?? ''}, ${b.companyName ?? ''}, ${b.Contact ?? ''}, ${b.CellPhone ?? ''},
                    ${b.Email ?? ''}, ${ctx.locale}, ${!!generated})
            RETURNING id`,
      );
      await tx.execute(sql`UPDATE accounts SET path = ${p.path} || id || '/' WHERE id = ${row!.id}`);
      return Number(row!.id);
    });
  } catch (err) {
    // Two creations of one name racing: the unique index decides, with the same message.
    if (isUniqueViolation(err)) throw loginExists(b.LoginName);
    throw err;
  }
  return { State: 200 as const, UserId: id, ...(generated ? { Password: generated } : {}) };
}

type EditFields = Partial<Body<'/user/EditUserInfoOther'>>;

function profileSet(b: EditFields) {
  const set: Record<string, unknown> = {};
  if (b.Username !== undefined) set.username = b.Username;
  if (b.PageName !== undefined) set.page_name = b.PageName;
  if (b.companyName !== undefined) set.company_name = b.companyName;
  if (b.Contact !== undefined) set.contact = b.Contact;
  if (b.CellPhone !== undefined) set.phone = b.CellPhone;
  if (b.Email !== undefined) set.email = b.Email;
  return set;
}

async function update(db: Db, id: number, set: Record<string, unknown>) {
  const entries = Object.entries(set);
  if (!entries.length) return;
  const assignments = sql.join(
    entries.map(([k, v]) => sql`${sql.identifier(k)} = ${v}`),
    sql`, `,
  );
  await db.execute(sql`UPDATE accounts SET ${assignments}, updated_at = now() WHERE id = ${id}`);
}

export async function editOther(ctx: AuthedContext, b: Body<'/user/EditUserInfoOther'>) {
  const { db } = ctx.deps.database;
  const target = await subAccount(ctx, b.UserId, 'account.editSelfHere');
  checkUserType(ctx, b.UserType);
  const set = profileSet(b);
  if (b.AccountKind !== undefined) set.kind = b.AccountKind;
  if (b.UserType !== undefined) set.user_type = b.UserType;
  if (b.PermissionId !== undefined) set.permission_set_id = b.PermissionId === null ? null : (await assignableSet(ctx, b.PermissionId)).id;
  await checkEmail(db, b.Email, target.id);
  await update(db, target.id, set);
  const access = (b.UserType !== undefined && b.UserType !== target.userType) ||
    (b.AccountKind !== undefined && b.AccountKind !== target.kind) ||
    (b.PermissionId !== undefined && b.PermissionId !== target.permissionSetId);
  if (access) invalidateAccounts(ctx, [target.id]);
  return { State: 200 as const, Item: await rowOf(ctx, target.id, (await self(ctx)).timeZoneOffset) };
}

export async function editSelf(ctx: AuthedContext, b: Body<'/user/EditUserInfoForCurrentUser'>) {
  const { db } = ctx.deps.database;
  const me = await self(ctx);
  // One's own type, kind, permission set and parent are given by those above.
  const fixed: [keyof typeof b, unknown, unknown][] = [
    ['UserType', b.UserType, me.userType],
    ['AccountKind', b.AccountKind, me.kind],
    ['PermissionId', b.PermissionId, me.permissionSetId],
    ['ParentId', b.ParentId, me.parentId],
  ];
  const changed = fixed.filter(([, sent, current]) => sent !== undefined && sent !== current);
  if (changed.length) {
    throw new AppError(State.FORBIDDEN, 'account.ownAccessFixed', undefined, changed.map(([f]) => ({ Field: f, Message: 'account.ownAccessFixed' })));
  }
  // The platform title is the platform's, not the profile's: changing it needs platform.edit.
  if (b.PageName !== undefined && b.PageName !== me.pageName) requireAction(ctx.user, 'platform.edit', ctx.locale);
  await checkEmail(db, b.Email, me.id);
  await update(db, me.id, profileSet(b));
  return { State: 200 as const, Item: await rowOf(ctx, me.id, me.timeZoneOffset) };
}

export async function initPassword(ctx: AuthedContext, b: Body<'/user/InitUserPassword'>) {
  const { db } = ctx.deps.database;
  const target = await subAccount(ctx, b.UserId, 'account.resetSelf');
  const password = generatePassword();
  await db.execute(
    sql`UPDATE accounts SET password_hash = ${await hashPassword(password)}, must_change_password = true, updated_at = now() WHERE id = ${target.id}`,
  );
  // As a password change does: every session of the account ends at once.
  await revokeSessions(db, target.id);
  ctx.deps.bus.publish(REALTIME_TOPICS.sessionsEnded, { accountId: target.id } satisfies SessionsEndedEvent);
  invalidateAccounts(ctx, [target.id]);
  await loginLog(ctx, target, LOG_ACTIONS.PASSWORD_RESET);
  return { State: 200 as const, Password: password };
}

export async function remove(ctx: AuthedContext, b: Body<'/user/removeUserById'>) {
  const { db } = ctx.deps.database;
  const target = await subAccount(ctx, b.UserId, 'account.deleteSelf');
  const { fencesChanged, scenesRemoved } = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    // Under the tree lock, so no sub-account appears below it meanwhile.
    await t.execute(sql`SELECT pg_advisory_xact_lock(${repo.TREE_LOCK})`);
    await t.execute(sql`SELECT id FROM accounts WHERE id = ${target.id} FOR UPDATE`);
    const held = await repo.blockers(t, target.id);
    if (held.children > 0) throw new AppError(State.CONFLICT, 'account.deleteHasChildren', { count: held.children });
    if (held.devices > 0) throw new AppError(State.CONFLICT, 'account.deleteHasDevices', { count: held.devices });
    for (const table of repo.OWNED_TABLES) await t.execute(sql`DELETE FROM ${sql.identifier(table)} WHERE account_id = ${target.id}`);
    // Its own permission sets go with it; an account still using one keeps every action it had by role.
    await t.execute(sql`UPDATE accounts SET permission_set_id = NULL WHERE permission_set_id IN (SELECT id FROM permission_sets WHERE owner_id = ${target.id})`);
    await t.execute(sql`DELETE FROM permission_sets WHERE owner_id = ${target.id}`);
    // Its account fences go with it, and others' fences stop watching it.
    const fences = await removeAccountFenceData(t, target.id);
    // Its indoor scenes go with it, with their floors and anchors.
    const sceneIds = await removeAccountScenes(t, target.id);
    await t.execute(sql`DELETE FROM accounts WHERE id = ${target.id}`);
    return { fencesChanged: fences, scenesRemoved: sceneIds };
  });
  if (scenesRemoved.length) ctx.deps.bus.publish(sceneSchemas.SCENES_CHANGED_TOPIC, { sceneIds: scenesRemoved });
  if (fencesChanged.length) ctx.deps.bus.publish(accountFenceSchemas.ACCOUNT_FENCES_CHANGED_TOPIC, { fenceIds: fencesChanged } satisfies AccountFencesChangedEvent);
  ctx.deps.bus.publish(REALTIME_TOPICS.sessionsEnded, { accountId: target.id } satisfies SessionsEndedEvent);
  invalidateAccounts(ctx, [target.id]);
  return { State: 200 as const, Message: 'account.deleted' };
}

// ---- moving --------------------------------------------------------------------------------------

/**
 * Moves an account with its subtree below a new parent, inside the caller's transaction (which
 * holds the tree lock): one UPDATE rewrites the paths of the whole subtree. Devices keep their
 * owner; their scope follows the owner's path.
 */
async function moveSubtree(t: Db, account: { id: number; path: string }, parent: { id: number; path: string }) {
  const to = `${parent.path}${account.id}/`;
  const [moved] = await rows<{ accounts: number; devices: number }>(
    t,
    sql`WITH moved AS (
          UPDATE accounts SET path = ${to} || substr(path, ${account.path.length + 1}),
                 parent_id = CASE WHEN id = ${account.id} THEN ${parent.id} ELSE parent_id END,
                 updated_at = CASE WHEN id = ${account.id} THEN now() ELSE updated_at END
           WHERE path ~>=~ ${account.path} AND path ~<~ ${`${account.path}~`}
          RETURNING id
        )
        SELECT (SELECT count(*) FROM moved)::int AS accounts,
               (SELECT count(*) FROM devices WHERE account_id IN (SELECT id FROM moved))::int AS devices`,
  );
  return { from: account.path, to, accounts: Number(moved!.accounts), devices: Number(moved!.devices) };
}

/** Tells every cache holding account paths (gateway, rules, realtime, authentication) about moves. */
function announceMoves(ctx: AuthedContext, moves: { accountId: number; from: string; to: string }[]) {
  for (const m of moves) ctx.deps.bus.publish(REALTIME_TOPICS.accountsMoved, m satisfies AccountsMovedEvent);
}

export async function move(ctx: AuthedContext, b: Body<'/user/moveAccount'>) {
  const { db } = ctx.deps.database;
  const result = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t.execute(sql`SELECT pg_advisory_xact_lock(${repo.TREE_LOCK})`);
    // Read under the lock: the paths are the current ones.
    const account = await accountInScope(t, ctx.user, b.UserId);
    const parent = await accountInScope(t, ctx.user, b.ParentId);
    if (account.id === ctx.user.id) throw new AppError(State.FORBIDDEN, 'account.moveSelf');
    if (parent.id === account.id || parent.path.startsWith(account.path)) {
      throw new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: 'ParentId', Message: 'account.moveUnderItself' }]);
    }
    if (parent.id === account.parentId) {
      throw new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: 'ParentId', Message: 'account.moveSameParent' }]);
    }
    return moveSubtree(t, account, parent);
  });
  announceMoves(ctx, [{ accountId: b.UserId, from: result.from, to: result.to }]);
  invalidateAccounts(ctx, [b.UserId]);
  return {
    State: 200 as const,
    Item: await rowOf(ctx, b.UserId, (await self(ctx)).timeZoneOffset),
    Accounts: result.accounts,
    Devices: result.devices,
  };
}

/**
 * Disables or enables a sub-account (an administrator above it, never one's own). Disabling ends
 * its sessions at once, in every process, with their realtime connections; login is refused until
 * it is enabled again. The accounts below it are not touched.
 */
export async function setDisabled(ctx: AuthedContext, b: Body<'/user/setAccountDisabled'>) {
  const { db } = ctx.deps.database;
  const target = await subAccount(ctx, b.UserId, 'account.disableSelf');
  await db.execute(sql`UPDATE accounts SET disabled = ${b.Disabled}, updated_at = now() WHERE id = ${target.id}`);
  if (b.Disabled) {
    await revokeSessions(db, target.id);
    ctx.deps.bus.publish(REALTIME_TOPICS.sessionsEnded, { accountId: target.id } satisfies SessionsEndedEvent);
  }
  invalidateAccounts(ctx, [target.id]);
  return { State: 200 as const, Item: await rowOf(ctx, target.id, (await self(ctx)).timeZoneOffset) };
}

// ---- agents --------------------------------------------------------------------------------------

export async function setAgentAuthorization(ctx: AuthedContext, b: Body<'/user/setAgentAuthorization'>) {
  const { db } = ctx.deps.database;
  const target = await subAccount(ctx, b.UserId, 'account.agentSelf');
  if (b.AgentAuthorized && target.kind !== 'agent') {
    throw new AppError(State.BAD_REQUEST, 'account.notAgent', { name: target.loginName });
  }
  await db.execute(sql`UPDATE accounts SET agent_authorized = ${b.AgentAuthorized}, updated_at = now() WHERE id = ${target.id}`);
  invalidateAccounts(ctx, [target.id]);
  return { State: 200 as const, Item: await rowOf(ctx, target.id, (await self(ctx)).timeZoneOffset) };
}

/** IMEIs of a workbook: every cell of its first sheet holding 15 digits, in order. */
async function imeisOfSheet(base64: string): Promise<string[]> {
  const sheet = await readSheetRows(base64);
  return sheet.flatMap((r) => r.cells.map((c) => c.trim()).filter(schemas.isImei));
}

type AgentResult = z.infer<typeof schemas.agentResultSchema>;

/** The account holding a claimed IMEI's device. */
interface Holder {
  imei: string;
  id: number;
  path: string;
  loginName: string;
  kind: string;
  userType: number;
  origin: string;
  agentAuthorized: boolean;
  createdAt: Date | string;
  parentIsRoot: boolean;
}

/** A sale of an IMEI to the agent's tree, by an account outside it: the platform's word, not the agent's. */
interface SaleEvidence {
  imei: string;
  saleId: number;
  saleNo: string;
  seller: string;
  customer: string;
  soldAt: Date | string;
}

/**
 * The inventory sales that prove the agent's claim to each IMEI: the item is sold (not voided, not
 * returned) to the agent or an account below it, by an account that is not in the agent's tree, so
 * nobody in the tree can make such a record. Stock the agent's tree took in itself is its own word.
 */
async function saleEvidence(t: Db, agent: { path: string }, imeis: SQL): Promise<Map<string, SaleEvidence[]>> {
  const found = await rows<SaleEvidence>(
    t,
    sql`SELECT i.imei, s.id AS "saleId", s.sale_no AS "saleNo", seller.login_name AS seller, c.login_name AS customer, s.sold_at AS "soldAt"
          FROM inv_items i
          JOIN inv_sales s ON s.id = i.sale_id AND s.voided_at IS NULL
          JOIN accounts c ON c.id = s.customer_id
          JOIN accounts seller ON seller.id = s.account_id
         WHERE i.imei = ANY(${imeis}) AND i.state = ${inventorySchemas.ITEM_STATES.sold}
           AND c.path LIKE ${`${agent.path}%`} AND seller.path NOT LIKE ${`${agent.path}%`}`,
  );
  const out = new Map<string, SaleEvidence[]>();
  for (const e of found) out.set(e.imei, [...(out.get(e.imei) ?? []), e]);
  return out;
}

/**
 * An end user who registered himself and still sits directly below the platform: never an account
 * an administrator made, an operator, an agent or an administrator of any kind.
 */
function selfRegisteredEndUser(o: Holder): boolean {
  return o.origin === 'registered' && o.kind === 'user' && Number(o.userType) !== ADMIN_USER_TYPE && !o.agentAuthorized && o.parentIsRoot;
}

export async function agentAuthorize(ctx: AuthedContext, b: Body<'/user/agentAuthorize'>) {
  const { db } = ctx.deps.database;
  const me = await self(ctx);
  if (!me.agentAuthorized) throw new AppError(State.FORBIDDEN, 'account.agentNotAuthorized');
  const listed = [...schemas.splitImeis(b.Imeis), ...(b.Content ? await imeisOfSheet(b.Content) : [])];
  if (!listed.length) throw new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: b.Content ? 'Content' : 'Imeis', Message: 'account.agentImeisRequired' }]);
  if (listed.length > schemas.AGENT_IMEIS_MAX) {
    throw new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: 'Imeis', Message: 'validation.tooMany', Params: { max: schemas.AGENT_IMEIS_MAX } }]);
  }

  const { items, moves } = await db.transaction(async (tx) => {
    const t = tx as unknown as Db;
    await t.execute(sql`SELECT pg_advisory_xact_lock(${repo.TREE_LOCK})`);
    const agent = await accountInScope(t, ctx.user);
    const valid = [...new Set(listed.filter(schemas.isImei))];
    const imeis = sql.raw(`'{${valid.join(',')}}'::text[]`);
    const holders = await rows<Holder>(
      t,
      sql`SELECT d.imei, a.id, a.path, a.login_name AS "loginName", a.kind, a.user_type AS "userType", a.origin,
                 a.agent_authorized AS "agentAuthorized", a.created_at AS "createdAt", (p.parent_id IS NULL AND p.id IS NOT NULL) AS "parentIsRoot"
            FROM devices d JOIN accounts a ON a.id = d.account_id LEFT JOIN accounts p ON p.id = a.parent_id
           WHERE d.imei = ANY(${imeis})`,
    );
    const sales = await saleEvidence(t, agent, imeis);
    const byImei = new Map(holders.map((o) => [o.imei, o]));
    const seen = new Set<string>();
    const moved = new Map<number, { accountId: number; from: string; to: string }>();
    const audits = new Map<number, { owner: Holder; evidence: SaleEvidence[] }>();
    const out: AgentResult[] = [];
    for (const imei of listed) {
      if (!schemas.isImei(imei)) {
        out.push({ Imei: imei.slice(0, 32), Outcome: 'invalid' });
        continue;
      }
      if (seen.has(imei)) {
        out.push({ Imei: imei, Outcome: 'duplicate' });
        continue;
      }
      seen.add(imei);
      const o = byImei.get(imei);
      const id = o ? Number(o.id) : 0;
      if (o && (moved.has(id) || o.path.startsWith(agent.path))) {
        out.push({ Imei: imei, Outcome: moved.has(id) ? 'moved' : 'inYourTree', LoginName: o.loginName });
        audits.get(id)?.evidence.push(...(sales.get(imei) ?? []));
        continue;
      }
      // The agent's word is not enough: the platform must have sold it the IMEI. Without that, the
      // answer is the same whoever holds the device, or whether anyone does.
      const evidence = sales.get(imei);
      if (!evidence) {
        out.push({ Imei: imei, Outcome: 'notSoldToYou' });
        continue;
      }
      if (!o || !selfRegisteredEndUser(o)) {
        out.push({ Imei: imei, Outcome: 'notTakeable' });
        continue;
      }
      const m = await moveSubtree(t, { id, path: o.path }, agent);
      moved.set(id, { accountId: id, from: m.from, to: m.to });
      audits.set(id, { owner: o, evidence: [...evidence] });
      out.push({ Imei: imei, Outcome: 'moved', LoginName: o.loginName });
    }
    const movedCount = out.filter((r) => r.Outcome === 'moved').length;
    // The audit, written with the change: what became of every IMEI, and for each account taken the
    // evidence that allowed it (the sales of its IMEIs to the agent, and its own registration).
    const entry = (object: string, detail: unknown) =>
      sql`(${agent.id}, ${agent.path}, ${agent.loginName}, '/user/agentAuthorize', 'account.authorize', ${object.slice(0, 256)}, 0,
           ${JSON.stringify(detail).slice(0, 200_000)}, ${ctx.ip}, ${ipLocationText(ctx.ip)})`;
    const entries = [
      entry(`${movedCount}/${out.length} IMEI, ${moved.size} accounts`, out.map((r) => [r.Imei, r.Outcome, r.LoginName ?? ''])),
      ...[...audits.values()].map(({ owner, evidence }) =>
        entry(`${owner.loginName} → ${agent.loginName}`, {
          Owner: { Id: Number(owner.id), LoginName: owner.loginName, Origin: owner.origin, RegisteredAt: new Date(owner.createdAt).toISOString() },
          Sales: evidence.map((e) => ({ Imei: e.imei, SaleId: Number(e.saleId), SaleNo: e.saleNo, Seller: e.seller, Customer: e.customer, SoldAt: new Date(e.soldAt).toISOString() })),
        }),
      ),
    ];
    await t.execute(
      sql`INSERT INTO operation_logs (account_id, account_path, login_name, call, action, object, state, detail, ip, ip_location) VALUES ${sql.join(entries, sql`, `)}`,
    );
    return { items: out, moves: [...moved.values()] };
  });
  announceMoves(ctx, moves);
  invalidateAccounts(ctx, moves.map((m) => m.accountId));
  return {
    State: 200 as const,
    Moved: items.filter((r) => r.Outcome === 'moved').length,
    Accounts: moves.length,
    Items: items,
  };
}


