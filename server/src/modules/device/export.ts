// The device list as a spreadsheet: POST /api/export/devices takes the list's filters and sort and
// answers an .xlsx of every matching device of the caller's subtree. The file is streamed as it
// is written: devices are read in pages by keyset (never OFFSET), each page is written and flushed
// before the next is read (lib/export-sheet.ts, shared by every export), so memory stays
// flat whether the account has a hundred devices or a million. X-Total-Rows announces the count so
// the console can show progress.
import type ExcelJS from 'exceljs';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { device as deviceSchemas, formatInZone, translate, type Locale } from '@wt/contract';
import type { AppDeps } from '../../deps.js';
import type { Db } from '../../db/client.js';
import { accountInScope } from '../../lib/scope.js';
import { rows } from '../../lib/sql.js';
import { EXPORT_PAGE_ROWS, checkExportSize, exportContext, parseFilter } from '../../lib/export-sheet.js';
import { COLUMNS, JOINS, SORT, deviceListWhere, type DeviceRow, type ListQuery } from './repo.js';

export type DeviceExportFilter = Omit<ListQuery, 'PageNo' | 'PageCount'>;

/** Where the previous page ended: its last row's sort value (as text, exact) and id. */
interface Cursor {
  key: string | null;
  id: number;
}

/**
 * The rows after `after` in the list's order (sort column, then id; nulls last). Comparing with the
 * sort value as text lets PostgreSQL read it back in the column's own type, microseconds included.
 */
function keyset(sortExpr: SQL | null, desc: boolean, after: Cursor | null): SQL {
  if (!after) return sql`TRUE`;
  const idAfter = desc ? sql`devices.id < ${after.id}` : sql`devices.id > ${after.id}`;
  if (!sortExpr) return idAfter;
  if (after.key === null) return sql`(${sortExpr} IS NULL AND ${idAfter})`;
  const beyond = desc ? sql`${sortExpr} < ${after.key}` : sql`${sortExpr} > ${after.key}`;
  return sql`(${beyond} OR (${sortExpr} = ${after.key} AND ${idAfter}) OR ${sortExpr} IS NULL)`;
}

/** Every device the filter selects, page by page, in the list's order. */
type ExportRow = DeviceRow & { sort_key: string | null };

export async function* devicePages(db: Db, scope: { path: string; id: number }, f: DeviceExportFilter, pageSize = EXPORT_PAGE_ROWS): AsyncGenerator<ExportRow[]> {
  const { where } = deviceListWhere(scope.path, f.IncludeSubAccounts, scope.id, f);
  const sortExpr = f.SortField ? SORT[f.SortField] : null;
  const desc = f.SortOrder !== 'asc';
  const dir = desc ? sql`DESC` : sql`ASC`;
  const order = sortExpr ? sql`${sortExpr} ${dir} NULLS LAST, devices.id ${dir}` : sql`devices.id ${dir}`;
  let after: Cursor | null = null;
  for (;;) {
    const page: ExportRow[] = await rows<ExportRow>(
      db,
      sql`SELECT ${COLUMNS}, ${sortExpr ? sql`(${sortExpr})::text` : sql`NULL::text`} AS sort_key
            FROM devices ${JOINS} WHERE ${where} AND ${keyset(sortExpr, desc, after)} ORDER BY ${order} LIMIT ${pageSize}`,
    );
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize) return;
    const last: ExportRow = page[page.length - 1]!;
    after = { key: last.sort_key, id: last.id };
  }
}

export async function countDevices(db: Db, scope: { path: string; id: number }, f: DeviceExportFilter): Promise<number> {
  const { where, countJoins } = deviceListWhere(scope.path, f.IncludeSubAccounts, scope.id, f);
  const [r] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM devices ${countJoins} WHERE ${where}`);
  return Number(r?.n ?? 0);
}

function columns(L: Locale): Partial<ExcelJS.Column>[] {
  const h = (key: string) => translate(L, `deviceExport.${key}`);
  return [
    { header: 'IMEI', key: 'imei', width: 18 },
    { header: h('name'), key: 'name', width: 18 },
    { header: h('model'), key: 'model', width: 14 },
    { header: h('account'), key: 'account', width: 16 },
    { header: h('status'), key: 'status', width: 10 },
    { header: h('online'), key: 'online', width: 10 },
    { header: 'ICCID', key: 'iccid', width: 22 },
    { header: h('softwareVersion'), key: 'version', width: 18 },
    { header: h('lastCommunication'), key: 'lastSeen', width: 20 },
    { header: h('latitude'), key: 'lat', width: 11 },
    { header: h('longitude'), key: 'lon', width: 11 },
    { header: h('fixTime'), key: 'fixTime', width: 20 },
    { header: h('stockIn'), key: 'stockIn', width: 20 },
    { header: h('activation'), key: 'activation', width: 20 },
    { header: h('fences'), key: 'fences', width: 8 },
    { header: h('group'), key: 'group', width: 12 },
    { header: h('role'), key: 'role', width: 12 },
  ];
}

function rowOf(L: Locale, tz: number, d: DeviceRow) {
  const h = (key: string) => translate(L, `deviceExport.${key}`);
  const time = (v: Date | string | null) => (v ? formatInZone(v, tz) : '');
  return {
    // IMEI and ICCID are text: as numbers Excel would round them.
    imei: d.imei,
    name: d.name,
    model: d.model ?? '',
    account: d.login_name,
    status: h(d.bound ? 'bound' : 'unbound'),
    online: h(d.online ? 'online' : 'offline'),
    iccid: d.iccid,
    version: d.software_version,
    lastSeen: time(d.last_seen),
    lat: d.lat ?? null,
    lon: d.lon ?? null,
    fixTime: time(d.fix_time),
    stockIn: time(d.stock_in_at),
    activation: time(d.activated_at),
    fences: Number(d.fence_count),
    group: d.group_name ?? '',
    role: d.role_name ?? '',
  };
}

async function* shaped(pages: AsyncIterable<DeviceRow[]>, L: Locale, tz: number) {
  for await (const page of pages) yield page.map((d) => rowOf(L, tz, d));
}

/** Registered by the export plugin (alarm/export.ts). */
export function deviceExportRoutes(app: FastifyInstance, opts: { deps: AppDeps }) {
  const filter = deviceSchemas.deviceListRequest.omit({ PageNo: true, PageCount: true });
  app.post('/api/export/devices', async (request, reply) => {
    const ctx = await exportContext(app, opts.deps, request, 'device.export');
    const f = parseFilter(filter, request.body);
    const db = ctx.deps.database.db;
    const account = await accountInScope(db, ctx.user, f.UserId);
    const scope = { path: account.path, id: account.id };
    const total = await countDevices(db, scope, f);
    checkExportSize(total);
    return app.sheets.send(request, reply, {
      fileName: 'devices',
      sheet: translate(ctx.locale, 'deviceExport.sheet'),
      columns: columns(ctx.locale),
      total,
      pages: shaped(devicePages(db, scope, f), ctx.locale, ctx.user.timeZoneOffset),
    });
  });
}
