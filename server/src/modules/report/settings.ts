// Thresholds of the trips and stops reports per account (contract/src/schemas/report.ts): an
// account's row of report_settings holds what it set, each null column following the nearest account
// above it that set one, then the built-in defaults (trips.ts TRIP_DEFAULTS). An administrator sets
// them for its own account or one below it (never above: the setting is inherited downwards only);
// the report calls take the caller's account's thresholds for any a request does not give.
import { inArray } from 'drizzle-orm';
import { ADMIN_USER_TYPE, REPORT_THRESHOLD_KEYS, type ReportSetting, type ReportThresholdKey, type ReportThresholds, type SaveReportSettingsBody } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { reportSettings } from '../../db/schema/index.js';
import { accountInScope, type AccountRow } from '../../lib/scope.js';
import { pathIds } from '../platform/brand.js';
import { TRIP_DEFAULTS, type TripOptions } from './trips.js';

type Row = typeof reportSettings.$inferSelect;

const COLUMN: Record<ReportThresholdKey, keyof Row & keyof TripOptions> = {
  StopMinutes: 'stopMinutes',
  StopRadius: 'stopRadius',
  StopSpeed: 'stopSpeed',
  GapMinutes: 'gapMinutes',
  MinTripMeters: 'minTripMeters',
};

const builtIn = (): ReportThresholds => Object.fromEntries(REPORT_THRESHOLD_KEYS.map((k) => [k, TRIP_DEFAULTS[COLUMN[k]]])) as ReportThresholds;

/** The rows of the accounts of a path (root first: '/1/5/12/'), nearest the account first. */
async function rowsOnPath(db: Db, path: string): Promise<Row[]> {
  const ids = pathIds(path);
  if (!ids.length) return [];
  const found = await db.select().from(reportSettings).where(inArray(reportSettings.accountId, ids));
  const depth = new Map(ids.map((id, i) => [id, i]));
  return found.sort((a, b) => depth.get(b.accountId)! - depth.get(a.accountId)!);
}

/** Each threshold from the nearest row that sets it, else the built-in default. */
function resolve(rows: Row[]): ReportThresholds {
  const out = builtIn();
  for (const k of REPORT_THRESHOLD_KEYS) {
    const set = rows.find((r) => r[COLUMN[k]] !== null);
    if (set) out[k] = set[COLUMN[k]] as number;
  }
  return out;
}

/** The thresholds in force for the accounts of a path (the account's own, else inherited). */
export async function thresholdsOf(db: Db, path: string): Promise<ReportThresholds> {
  return resolve(await rowsOnPath(db, path));
}

/** A request's thresholds, those it leaves out taken from the caller's account. */
export async function tripOptionsOf(ctx: AuthedContext, body: Partial<ReportThresholds>): Promise<TripOptions> {
  const given = REPORT_THRESHOLD_KEYS.every((k) => body[k] !== undefined);
  const base = given ? builtIn() : await thresholdsOf(ctx.deps.database.db, ctx.user.path);
  const v = (k: ReportThresholdKey) => body[k] ?? base[k];
  return { stopMinutes: v('StopMinutes'), stopRadius: v('StopRadius'), stopSpeed: v('StopSpeed'), gapMinutes: v('GapMinutes'), minTripMeters: v('MinTripMeters') };
}

async function answer(ctx: AuthedContext, db: Db, account: AccountRow) {
  const rows = await rowsOnPath(db, account.path);
  const own = rows.find((r) => r.accountId === account.id);
  return {
    State: 200 as const,
    UserId: account.id,
    Own: Object.fromEntries(REPORT_THRESHOLD_KEYS.map((k) => [k, own?.[COLUMN[k]] ?? null])) as ReportSetting,
    Inherited: resolve(rows.filter((r) => r.accountId !== account.id)),
    Effective: resolve(rows),
    BuiltIn: builtIn(),
    Editable: ctx.user.userType === ADMIN_USER_TYPE,
  };
}

export async function settings(ctx: AuthedContext, body: { UserId?: number }) {
  const db = ctx.deps.database.db;
  return answer(ctx, db, await accountInScope(db, ctx.user, body.UserId));
}

export async function saveSettings(ctx: AuthedContext, body: SaveReportSettingsBody) {
  const db = ctx.deps.database.db;
  const account = await accountInScope(db, ctx.user, body.UserId);
  const values = { ...(Object.fromEntries(REPORT_THRESHOLD_KEYS.map((k) => [COLUMN[k], body[k]])) as Record<(typeof COLUMN)[ReportThresholdKey], number | null>), updatedAt: new Date() };
  await db.insert(reportSettings).values({ accountId: account.id, ...values }).onConflictDoUpdate({ target: reportSettings.accountId, set: values });
  return answer(ctx, db, account);
}
