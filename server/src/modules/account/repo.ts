// Queries of account administration. The tree is read through the materialized path: a subtree is
// the range [path, path || '~') of the path index (text_pattern_ops), since paths hold only digits
// and slashes, which sort before '~'.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { allOf, contains, rows } from '../../lib/sql.js';

/** Columns of a tree node (alias `a`). */
const NODE = sql`a.id, a.parent_id AS "parentId", a.path, a.login_name AS "loginName", a.username, a.company_name AS "companyName",
  a.contact, a.kind, EXISTS (SELECT 1 FROM accounts c WHERE c.parent_id = a.id) AS "hasChildren"`;

export interface NodeRow {
  id: number;
  parentId: number | null;
  path: string;
  loginName: string;
  username: string;
  companyName: string;
  contact: string;
  kind: string;
  hasChildren: boolean;
}

export interface AccountListRow extends NodeRow {
  pageName: string;
  phone: string;
  email: string;
  userType: number;
  permissionSetId: number | null;
  permissionName: string | null;
  ownDevices: number;
  totalDevices: number;
  childCount: number;
  createdAt: Date | string;
  agentAuthorized: boolean;
  mustChangePassword: boolean;
  disabled: boolean;
  timeZoneOffset: number;
  total?: number;
}

/**
 * Columns of a table row (alias `a`): the account, its set's name, its children, its own devices
 * and the devices of its whole subtree (a range of the path index joined to the devices' account
 * index).
 */
const ROW = sql`a.id, a.parent_id AS "parentId", a.path, a.login_name AS "loginName", a.username, a.company_name AS "companyName",
  a.contact, a.kind, a.page_name AS "pageName", a.phone, a.email, a.user_type AS "userType",
  a.permission_set_id AS "permissionSetId", ps.name AS "permissionName", a.created_at AS "createdAt",
  a.agent_authorized AS "agentAuthorized", a.must_change_password AS "mustChangePassword", a.disabled,
  a.time_zone_offset AS "timeZoneOffset",
  (SELECT count(*) FROM accounts c WHERE c.parent_id = a.id)::int AS "childCount",
  (SELECT count(*) FROM devices d WHERE d.account_id = a.id)::int AS "ownDevices",
  (SELECT count(*) FROM accounts s JOIN devices d ON d.account_id = s.id
    WHERE s.path ~>=~ a.path AND s.path ~<~ (a.path || '~'))::int AS "totalDevices"`;

/** Login name, company, contact or display name containing the keyword (alias `a`). */
function matching(keyword: string): SQL {
  // One ILIKE over the four fields joined by a character no keyword holds (a tab is trimmed off).
  return sql`(a.login_name || chr(9) || a.company_name || chr(9) || a.contact || chr(9) || a.username) ILIKE ${contains(keyword)}`;
}

export async function node(db: Db, id: number): Promise<NodeRow | undefined> {
  const [r] = await rows<NodeRow>(db, sql`SELECT ${NODE} FROM accounts a WHERE a.id = ${id}`);
  return r;
}

export async function nodes(db: Db, ids: number[]): Promise<NodeRow[]> {
  if (!ids.length) return [];
  return rows<NodeRow>(db, sql`SELECT ${NODE} FROM accounts a WHERE a.id = ANY(${sql.raw(`'{${ids.map(Number).join(',')}}'`)}::int[])`);
}

/** Direct children of an account, a page of them, with whether each has children and the total. */
export async function childNodes(db: Db, parentId: number, offset: number, limit: number) {
  const list = await rows<NodeRow & { total: number }>(
    db,
    sql`SELECT ${NODE}, count(*) OVER ()::int AS total FROM accounts a WHERE a.parent_id = ${parentId}
        ORDER BY lower(a.login_name), a.id OFFSET ${offset} LIMIT ${limit}`,
  );
  const total = list[0]?.total ?? (offset > 0 ? await countChildren(db, parentId) : 0);
  return { total: Number(total), items: list };
}

async function countChildren(db: Db, parentId: number, keyword?: string) {
  const [r] = await rows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM accounts a WHERE ${allOf([sql`a.parent_id = ${parentId}`, ...(keyword ? [matching(keyword)] : [])])}`,
  );
  return Number(r?.n ?? 0);
}

/** The table of an account's direct children, a page of them, in one query. */
export async function childRows(db: Db, parentId: number, q: { keyword?: string; offset: number; limit: number }) {
  const where = allOf([sql`a.parent_id = ${parentId}`, ...(q.keyword ? [matching(q.keyword)] : [])]);
  const list = await rows<AccountListRow>(
    db,
    sql`WITH page AS (
          SELECT a.*, count(*) OVER ()::int AS total FROM accounts a WHERE ${where}
           ORDER BY a.id OFFSET ${q.offset} LIMIT ${q.limit}
        )
        SELECT ${ROW}, a.total
          FROM page a LEFT JOIN permission_sets ps ON ps.id = a.permission_set_id
         ORDER BY a.id`,
  );
  const total = list[0]?.total ?? (q.offset > 0 ? await countChildren(db, parentId, q.keyword) : 0);
  return { total: Number(total), items: list.map((r) => ({ ...r, hasChildren: Number(r.childCount) > 0 })) };
}

/** One account as a table row (after a change). */
export async function accountRow(db: Db, id: number): Promise<AccountListRow | undefined> {
  const [r] = await rows<AccountListRow>(
    db,
    sql`SELECT ${ROW}
          FROM accounts a LEFT JOIN permission_sets ps ON ps.id = a.permission_set_id
         WHERE a.id = ${id}`,
  );
  return r ? { ...r, hasChildren: Number(r.childCount) > 0 } : undefined;
}

/** Accounts of a subtree matching a keyword, exact login names first, shallow before deep. */
export async function search(db: Db, subtreePath: string, keyword: string, limit: number) {
  return rows<NodeRow>(
    db,
    sql`SELECT ${NODE} FROM accounts a
         WHERE a.path ~>=~ ${subtreePath} AND a.path ~<~ ${`${subtreePath}~`} AND ${matching(keyword)}
         ORDER BY (lower(a.login_name) = lower(${keyword})) DESC, length(a.path), lower(a.login_name), a.id
         LIMIT ${limit}`,
  );
}

export async function loginTaken(db: Db, loginName: string) {
  const [r] = await rows(db, sql`SELECT 1 FROM accounts WHERE lower(login_name) = lower(${loginName}) LIMIT 1`);
  return !!r;
}

export async function emailTaken(db: Db, email: string, exceptId?: number) {
  const [r] = await rows(
    db,
    sql`SELECT 1 FROM accounts WHERE lower(email) = lower(${email}) ${exceptId ? sql`AND id <> ${exceptId}` : sql``} LIMIT 1`,
  );
  return !!r;
}

/** What keeps an account from being deleted. */
export async function blockers(db: Db, id: number) {
  const [r] = await rows<{ children: number; devices: number }>(
    db,
    sql`SELECT (SELECT count(*) FROM accounts WHERE parent_id = ${id})::int AS children,
               (SELECT count(*) FROM devices WHERE account_id = ${id})::int AS devices`,
  );
  return { children: Number(r?.children ?? 0), devices: Number(r?.devices ?? 0) };
}

/** Tables holding an account's own settings, removed with it (its history stays: alarms, logs, commands). */
export const OWNED_TABLES = [
  'sessions',
  'password_resets',
  'login_unlocks',
  'alarm_settings',
  'alarm_contacts',
  'health_thresholds',
  'device_groups',
  'device_roles',
  'integrations',
  'history_exports',
  'platform_brands',
  'report_settings',
] as const;

/** Tree changes (moves) exclude each other and new accounts below a moving subtree. */
export const TREE_LOCK = 7_310_001;
