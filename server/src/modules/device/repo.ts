// Queries of the device list and the lookups the device operations share. Every query that reaches
// devices goes through the subtree scope of lib/scope.ts.
import { sql, type SQL } from 'drizzle-orm';
import type { device as deviceSchemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthUser } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accounts, devices } from '../../db/schema/index.js';
import { ownedBySubtree } from '../../lib/scope.js';
import { allOf, contains, iso, rows } from '../../lib/sql.js';

type DeviceItem = deviceSchemas.DeviceItem;
export type ListQuery = z.output<typeof deviceSchemas.deviceListRequest>;

/** Devices owned by the caller's subtree. */
export const deviceInScope = (user: Pick<AuthUser, 'path'>) => ownedBySubtree(devices.accountId, user);

export const SORT: Record<NonNullable<ListQuery['SortField']>, SQL> = {
  Imei: sql`devices.imei`,
  Name: sql`devices.name`,
  Model: sql`coalesce(m.name, devices.model_name)`,
  AccountName: sql`a.login_name`,
  Bound: sql`devices.bound`,
  Online: sql`coalesce(s.online, false)`,
  Iccid: sql`devices.iccid`,
  SoftwareVersion: sql`devices.software_version`,
  LastCommunication: sql`s.last_seen`,
  LastLocationTime: sql`s.fix_time`,
  StockInTime: sql`devices.stock_in_at`,
  ActivationTime: sql`devices.activated_at`,
  FenceCount: sql`(SELECT count(*) FROM device_fences f WHERE f.device_id = devices.id)`,
  RoleName: sql`r.name`,
  GroupName: sql`g.name`,
  CreatedAt: sql`devices.created_at`,
};

export const COLUMNS = sql`devices.id, devices.imei, devices.name, devices.model_id, coalesce(m.name, devices.model_name) AS model,
  devices.protocol, devices.account_id, a.login_name, devices.bound, coalesce(s.online, false) AS online, devices.iccid,
  devices.software_version, s.last_seen, s.lat, s.lon, s.fix_time, s.battery, s.signal, s.steps, devices.stock_in_at,
  devices.activated_at, devices.role_id, r.name AS role_name, r.color AS role_color, r.shape AS role_shape,
  devices.group_id, g.name AS group_name, m.commands, m.functions, devices.allowed_networks, devices.created_at,
  (SELECT count(*)::int FROM device_fences f WHERE f.device_id = devices.id) AS fence_count`;

export const JOINS = sql`JOIN accounts a ON a.id = devices.account_id
  LEFT JOIN device_state s ON s.device_id = devices.id
  LEFT JOIN device_models m ON m.id = devices.model_id
  LEFT JOIN device_roles r ON r.id = devices.role_id
  LEFT JOIN device_groups g ON g.id = devices.group_id`;

export interface DeviceRow {
  id: number;
  imei: string;
  name: string;
  model_id: number | null;
  model: string;
  protocol: string;
  account_id: number;
  login_name: string;
  bound: boolean;
  online: boolean;
  iccid: string;
  software_version: string;
  last_seen: Date | null;
  lat: number | null;
  lon: number | null;
  fix_time: Date | null;
  battery: number | null;
  signal: number | null;
  steps: number | null;
  stock_in_at: Date | null;
  activated_at: Date | null;
  role_id: number | null;
  role_name: string | null;
  role_color: DeviceItem['RoleColor'];
  role_shape: DeviceItem['RoleShape'];
  group_id: number | null;
  group_name: string | null;
  commands: string[] | null;
  functions: Record<string, boolean> | null;
  allowed_networks: string[] | null;
  created_at: Date;
  fence_count: number;
}

export function toItem(r: DeviceRow): DeviceItem {
  return {
    DeviceId: r.id,
    Imei: r.imei,
    Name: r.name,
    ModelId: r.model_id,
    Model: r.model ?? '',
    Protocol: r.protocol,
    AccountId: r.account_id,
    AccountName: r.login_name,
    Bound: r.bound,
    Online: r.online,
    Iccid: r.iccid,
    SoftwareVersion: r.software_version,
    LastCommunication: iso(r.last_seen),
    LastLocation: r.lat !== null && r.lon !== null && r.fix_time ? { Lat: r.lat, Lon: r.lon, Time: iso(r.fix_time)! } : null,
    StockInTime: iso(r.stock_in_at),
    ActivationTime: iso(r.activated_at),
    FenceCount: Number(r.fence_count),
    RoleId: r.role_id,
    RoleName: r.role_name,
    RoleColor: r.role_color,
    RoleShape: r.role_shape,
    GroupId: r.group_id,
    GroupName: r.group_name,
    Commands: r.commands ?? [],
    AllowedNetworks: r.allowed_networks ?? [],
    CreatedAt: iso(r.created_at)!,
  };
}

/**
 * One page of the list. The count reads only devices (joined to state or models only when a filter
 * needs them), and the page is ordered by an indexed column by default (newest first), so an account
 * with 100 000 devices answers from indexes.
 */
/**
 * The list's filters over `devices` (scope, search, status ...), and the joins they and the sort
 * need beyond `devices` itself: the list and the export select the same devices.
 */
export function deviceListWhere(scopePath: string, includeSub: boolean, scopeAccountId: number, q: Omit<ListQuery, 'PageNo' | 'PageCount'>) {
  const conds: SQL[] = [includeSub ? ownedBySubtree(devices.accountId, { path: scopePath }) : sql`devices.account_id = ${scopeAccountId}`];
  let needState = false;
  let needModel = false;
  if (q.Imei) conds.push(sql`devices.imei LIKE ${contains(q.Imei)}`);
  if (q.Name) conds.push(sql`devices.name ILIKE ${contains(q.Name)}`);
  if (q.ModelId) conds.push(sql`devices.model_id = ${q.ModelId}`);
  if (q.Model) {
    needModel = true;
    conds.push(sql`coalesce(m.name, devices.model_name) ILIKE ${contains(q.Model)}`);
  }
  if (q.Status) conds.push(sql`devices.bound = ${q.Status === 'bound'}`);
  if (q.Online) {
    needState = true;
    conds.push(q.Online === 'online' ? sql`s.online IS TRUE` : sql`s.online IS NOT TRUE`);
  }
  if (q.Iccid) conds.push(sql`devices.iccid ILIKE ${contains(q.Iccid)}`);
  if (q.SoftwareVersion) conds.push(sql`devices.software_version ILIKE ${contains(q.SoftwareVersion)}`);
  if (q.GroupId) conds.push(sql`devices.group_id = ${q.GroupId}`);
  if (q.RoleId) conds.push(sql`devices.role_id = ${q.RoleId}`);
  const where = allOf(conds);
  const sort = q.SortField;
  if (sort === 'Online' || sort === 'LastCommunication' || sort === 'LastLocationTime') needState = true;
  if (sort === 'Model') needModel = true;
  // Only the joins a filter or the sort needs, so counting and skipping rows reads little.
  const lightJoins = sql.join(
    [
      needState ? sql`LEFT JOIN device_state s ON s.device_id = devices.id` : sql``,
      needModel ? sql`LEFT JOIN device_models m ON m.id = devices.model_id` : sql``,
      sort === 'AccountName' ? sql`JOIN accounts a ON a.id = devices.account_id` : sql``,
      sort === 'RoleName' ? sql`LEFT JOIN device_roles r ON r.id = devices.role_id` : sql``,
      sort === 'GroupName' ? sql`LEFT JOIN device_groups g ON g.id = devices.group_id` : sql``,
    ],
    sql` `,
  );
  /** The joins the count needs (none unless a filter reads state or models). */
  const countJoins = needState || needModel ? lightJoins : sql``;
  return { where, lightJoins, countJoins };
}

/**
 * One page of the list. The count reads only devices (joined to state or models only when a filter
 * needs them), and the page is ordered by an indexed column by default (newest first), so an account
 * with 100 000 devices answers from indexes.
 */
export async function listDevices(db: Db, scopePath: string, includeSub: boolean, scopeAccountId: number, q: ListQuery) {
  const { where, lightJoins, countJoins } = deviceListWhere(scopePath, includeSub, scopeAccountId, q);
  const sort = q.SortField;
  const [{ n }] = (await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM devices ${countJoins} WHERE ${where}`)) as [{ n: number }];

  const dir = q.SortOrder === 'asc' ? sql`ASC` : sql`DESC`;
  const order = sort ? sql`${SORT[sort]} ${dir} NULLS LAST, devices.id ${dir}` : sql`devices.id ${dir}`;
  const offset = (q.PageNo - 1) * q.PageCount;
  // The page's ids first (an index walk by default), then the full rows of just those.
  const page = await rows<DeviceRow>(
    db,
    sql`SELECT ${COLUMNS} FROM devices ${JOINS} WHERE devices.id IN (
      SELECT devices.id FROM devices ${lightJoins} WHERE ${where} ORDER BY ${order} LIMIT ${q.PageCount} OFFSET ${offset}
    ) ORDER BY ${order}`,
  );
  return { total: Number(n), items: page.map(toItem), rows: page };
}

export async function deviceRowsWhere(db: Db, user: Pick<AuthUser, 'path'>, cond: SQL): Promise<DeviceRow[]> {
  return rows<DeviceRow>(db, sql`SELECT ${COLUMNS} FROM devices ${JOINS} WHERE ${deviceInScope(user)} AND ${cond}`);
}

export interface ScopedDevice {
  id: number;
  imei: string;
  account_id: number;
  account_path: string;
  bound: boolean;
  iccid: string;
  group_id: number | null;
  role_id: number | null;
}

/**
 * A list of texts as one parameter (a JSON array unnested), for `IN (…)`: a list of one parameter
 * per value takes Drizzle seconds of the event loop to build at 10 000 values.
 */
const anyOf = (xs: readonly string[]) => sql`SELECT json_array_elements_text(${JSON.stringify(xs)}::json)`;

/** The caller's devices among these IMEIs; a device outside the subtree is simply absent. */
export async function devicesByImeis(db: Db, user: Pick<AuthUser, 'path'>, imeis: string[]): Promise<Map<string, ScopedDevice>> {
  if (imeis.length === 0) return new Map();
  const list = await rows<ScopedDevice>(
    db,
    sql`SELECT devices.id, devices.imei, devices.account_id, ${accounts.path} AS account_path, devices.bound, devices.iccid, devices.group_id, devices.role_id
      FROM devices JOIN ${accounts} ON ${accounts.id} = devices.account_id
      WHERE ${deviceInScope(user)} AND devices.imei IN (${anyOf(imeis)})`,
  );
  return new Map(list.map((d) => [d.imei, d]));
}

export async function devicesByIds(db: Db, user: Pick<AuthUser, 'path'>, ids: number[]): Promise<ScopedDevice[]> {
  if (ids.length === 0) return [];
  return rows<ScopedDevice>(
    db,
    sql`SELECT devices.id, devices.imei, devices.account_id, ${accounts.path} AS account_path, devices.bound, devices.iccid, devices.group_id, devices.role_id
      FROM devices JOIN ${accounts} ON ${accounts.id} = devices.account_id
      WHERE ${deviceInScope(user)} AND devices.id IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})`,
  );
}

/** IMEIs among these that exist anywhere (the IMEI is unique across the platform). */
export async function existingImeis(db: Db, imeis: string[]): Promise<Set<string>> {
  if (imeis.length === 0) return new Set();
  const list = await rows<{ imei: string }>(db, sql`SELECT imei FROM devices WHERE imei IN (${anyOf(imeis)})`);
  return new Set(list.map((r) => r.imei));
}

