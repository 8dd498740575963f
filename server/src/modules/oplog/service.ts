// Reading the operation log: the entries of the caller's subtree (an entry belongs to the account
// path its caller had when it acted), searched by account, action, call, result and time, newest
// first; as a page or as a spreadsheet written while it is read. And its retention: entries older
// than OPERATION_LOG_RETENTION_DAYS are deleted in batches by a job.
import type ExcelJS from 'exceljs';
import { sql, type SQL } from 'drizzle-orm';
import { translate, type Locale, type OperationLogEntry, type SentTime } from '@wt/contract';
import type { AuthedContext, AuthUser } from '../../calls.js';
import type { Db } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import type { Service } from '../../services.js';
import { EXPORT_PAGE_ROWS, checkExportSize } from '../../lib/export-sheet.js';
import { ipLocationIn } from '../../lib/iplocation.js';
import { accountInScope } from '../../lib/scope.js';
import { allOf, rows } from '../../lib/sql.js';
import { sentInstant, shownTime } from '../../lib/time.js';

export interface OperationLogFilter {
  UserId?: number;
  Action?: string;
  Call?: string;
  Result?: 'success' | 'failure';
  StartTime?: SentTime;
  EndTime?: SentTime;
}

interface LogRow {
  id: number;
  account_id: number;
  login_name: string;
  call: string;
  action: string;
  object: string;
  state: number;
  error_key: string;
  detail: string;
  ip: string;
  ip_location: string;
  created_at: Date | string;
}

/** The conditions of a search; the account searched must be in the caller's subtree. */
async function whereOf(ctx: AuthedContext, f: OperationLogFilter): Promise<SQL> {
  const account = await accountInScope(ctx.deps.database.db, ctx.user, f.UserId);
  // Paths hold only digits and slashes: nothing to escape in the pattern.
  const conds: SQL[] = [sql`account_path LIKE ${`${account.path}%`}`];
  if (f.Action) conds.push(sql`action = ${f.Action}`);
  if (f.Call) conds.push(sql`lower(call) = ${f.Call.toLowerCase()}`);
  if (f.Result === 'success') conds.push(sql`state = 0`);
  if (f.Result === 'failure') conds.push(sql`state <> 0`);
  if (f.StartTime) conds.push(sql`created_at >= ${sentInstant(ctx.user, f.StartTime)}`);
  if (f.EndTime) conds.push(sql`created_at <= ${sentInstant(ctx.user, f.EndTime)}`);
  return allOf(conds);
}

function paramsOf(detail: string): Record<string, unknown> | null {
  if (!detail) return null;
  try {
    const d = JSON.parse(detail) as { Params?: Record<string, unknown> };
    return d.Params ?? null;
  } catch {
    return null;
  }
}

function entryOf(locale: Locale, viewer: Pick<AuthUser, 'timeZoneOffset'>, r: LogRow): OperationLogEntry {
  return {
    Id: Number(r.id),
    UserId: r.account_id,
    LoginName: r.login_name,
    Call: r.call,
    Action: r.action,
    Object: r.object,
    State: r.state,
    ErrorKey: r.error_key,
    ErrorParams: paramsOf(r.detail),
    IPAddress: r.ip,
    Address: ipLocationIn(locale, r.ip_location),
    CreateDT: shownTime(viewer, r.created_at),
  };
}

export async function list(ctx: AuthedContext, body: OperationLogFilter & { PageNo: number; PageCount: number }) {
  const db = ctx.deps.database.db;
  const where = await whereOf(ctx, body);
  const [count] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM operation_logs WHERE ${where}`);
  const page = await rows<LogRow>(
    db,
    sql`SELECT * FROM operation_logs WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${body.PageCount} OFFSET ${(body.PageNo - 1) * body.PageCount}`,
  );
  return { State: 200 as const, Total: Number(count?.n ?? 0), Items: page.map((r) => entryOf(ctx.locale, ctx.user, r)) };
}

/** Every entry the search selects, newest first, a page at a time by keyset. */
async function* pages(db: Db, where: SQL): AsyncGenerator<LogRow[]> {
  let after: { at: string; id: number } | null = null;
  for (;;) {
    const keyset: SQL = after ? sql`(created_at, id) < (${after.at}::timestamptz, ${after.id})` : sql`TRUE`;
    const page: LogRow[] = await rows<LogRow>(
      db,
      sql`SELECT *, created_at::text AS at_text FROM operation_logs WHERE ${where} AND ${keyset} ORDER BY created_at DESC, id DESC LIMIT ${EXPORT_PAGE_ROWS}`,
    );
    if (page.length === 0) return;
    yield page;
    if (page.length < EXPORT_PAGE_ROWS) return;
    const last = page[page.length - 1] as LogRow & { at_text: string };
    after = { at: last.at_text, id: Number(last.id) };
  }
}

/** The failure rendered in the reader's language, as the console shows it. */
function resultText(locale: Locale, r: LogRow): string {
  if (r.state === 0) return translate(locale, 'oplog.success');
  const params = paramsOf(r.detail) ?? undefined;
  return `${translate(locale, 'oplog.failure')}: ${r.error_key ? translate(locale, r.error_key, params) : r.state}`;
}

function columns(L: Locale): Partial<ExcelJS.Column>[] {
  const h = (key: string) => translate(L, `oplog.${key}`);
  return [
    { header: h('time'), key: 'time', width: 20 },
    { header: h('account'), key: 'account', width: 16 },
    { header: h('path'), key: 'call', width: 34 },
    { header: h('action'), key: 'action', width: 18 },
    { header: h('object'), key: 'object', width: 40 },
    { header: h('result'), key: 'result', width: 40 },
    { header: h('ip'), key: 'ip', width: 16 },
    { header: h('address'), key: 'address', width: 24 },
  ];
}

export async function exportSheet(ctx: AuthedContext, body: OperationLogFilter) {
  const db = ctx.deps.database.db;
  const where = await whereOf(ctx, body);
  const [count] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM operation_logs WHERE ${where}`);
  const total = Number(count?.n ?? 0);
  checkExportSize(total);
  const L = ctx.locale;
  async function* shaped() {
    for await (const page of pages(db, where)) {
      yield page.map((r) => ({
        time: shownTime(ctx.user, r.created_at),
        account: r.login_name,
        call: r.call,
        action: r.action,
        object: r.object,
        result: resultText(L, r),
        ip: r.ip,
        address: ipLocationIn(L, r.ip_location),
      }));
    }
  }
  return ctx.request.server.sheets.send(ctx.request, ctx.reply!, {
    fileName: 'operation-log',
    sheet: translate(L, 'oplog.sheet'),
    columns: columns(L),
    total,
    pages: shaped(),
  });
}

/** Rows deleted per statement: short transactions that never hold the table for long. */
export const PRUNE_BATCH_ROWS = 5000;

/** Deletes the entries older than `days`, in batches; answers how many went. */
export async function prune(db: Db, days: number, batch = PRUNE_BATCH_ROWS): Promise<number> {
  const before = new Date(Date.now() - days * 24 * 3600 * 1000).toISOString();
  let removed = 0;
  for (;;) {
    const gone = await rows<{ id: number }>(
      db,
      sql`DELETE FROM operation_logs WHERE id IN (SELECT id FROM operation_logs WHERE created_at < ${before} ORDER BY created_at LIMIT ${batch}) RETURNING id`,
    );
    removed += gone.length;
    if (gone.length < batch) return removed;
  }
}

const PRUNE_EVERY_MS = 3600 * 1000;
const PRUNE_FIRST_MS = 60 * 1000;

/** Prunes the operation log a minute after start and every hour (OPERATION_LOG_RETENTION_DAYS; 0 keeps everything). */
export const oplogRetentionService: Service = {
  name: 'operation-log-retention',
  roles: ['worker'],
  async start(deps: AppDeps) {
    const days = deps.config.OPERATION_LOG_RETENTION_DAYS;
    if (days <= 0) return;
    let running: Promise<unknown> = Promise.resolve();
    const run = () => {
      running = prune(deps.database.db, days)
        .then((n) => n && deps.log.info({ removed: n, days }, 'operation log pruned'))
        .catch((err) => deps.log.error({ err }, 'pruning the operation log failed'));
    };
    // The first run waits for the start to settle (recovery, the engines' first work), then every hour.
    const first = setTimeout(run, PRUNE_FIRST_MS);
    first.unref();
    const timer = setInterval(run, PRUNE_EVERY_MS);
    timer.unref();
    return async () => {
      clearTimeout(first);
      clearInterval(timer);
      await running;
    };
  },
  async stop() {},
};
