// Scheduled reports: a user subscribes an address to one report (trips, stops, summary or alarms of
// a device, a group or his subtree), daily, weekly (Monday to Sunday) or monthly. Each subscription
// is a row of `report_subscriptions` and, at once, its entry in the durable outbox (lib/outbox.ts):
// due at 06:00 of the subscriber's zone after its period ends, it is claimed by the worker, which
// computes the period just ended as the subscriber sees it (his subtree, his thresholds, his language
// and zone) and mails it as a spreadsheet (or says there was nothing in the period). After a mailing
// the row is due again at the next period's end; a failed mailing is retried with the outbox's
// back-off. A worker down over several periods mails the latest one when it is back. A subscriber
// who lost the reports page, or was disabled, gets nothing: the row fails with the reason and waits
// for him to save it again.
import { desc, eq, sql } from 'drizzle-orm';
import { MAX_REPORT_SUBSCRIPTIONS, effectiveRoutes, effectiveUserType, isPlatformAdministrator, grantsOf, pageAllowsCall, resolveLocale, translate, type ReportFrequency, type ReportSubscription } from '@wt/contract';
import type { AuthedContext, AuthUser } from '../../calls.js';
import type { QueryFn } from '../../db/client.js';
import { reportSubscriptions } from '../../db/schema/index.js';
import type { AppDeps } from '../../deps.js';
import { scopedCrud } from '../../lib/crud.js';
import { AppError, fieldError, notFound } from '../../lib/errors.js';
import { sheetBuffer } from '../../lib/export-sheet.js';
import { OutboxWorker, type Delivery, type OutboxChannel } from '../../lib/outbox.js';
import { rows } from '../../lib/sql.js';
import { shownTime } from '../../lib/time.js';
import { reportSheet } from './export.js';
import { subjectDevices } from './service.js';

type Row = Record<string, unknown>;
type Kind = ReportSubscription['Report'];

const DAY_MS = 86_400_000;
/** Hours after its period's end (subscriber's zone) at which a report is mailed: late positions have come in. */
export const REPORT_MAIL_HOUR = 6;
const TOPIC = 'report.subscriptions';

// ---- periods, in the subscriber's zone (offset in minutes east of UTC) ---------------------------

/** The instant of local midnight starting the day that holds `t`. */
const localDayStart = (t: number, tz: number) => Math.floor((t + tz * 60_000) / DAY_MS) * DAY_MS - tz * 60_000;
const localDate = (t: number, tz: number) => new Date(t + tz * 60_000);
const dayText = (t: number, tz: number) => localDate(t, tz).toISOString().slice(0, 10);

/** The instant the period holding `t` starts: its day, its week's Monday, its month's first day. */
function periodStart(freq: ReportFrequency, t: number, tz: number): number {
  const day = localDayStart(t, tz);
  if (freq === 'daily') return day;
  const d = localDate(t, tz);
  if (freq === 'weekly') return day - ((d.getUTCDay() + 6) % 7) * DAY_MS;
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1) - tz * 60_000;
}

/** The start of the period after the one starting at `start`. */
function nextPeriodStart(freq: ReportFrequency, start: number, tz: number): number {
  if (freq === 'daily') return start + DAY_MS;
  if (freq === 'weekly') return start + 7 * DAY_MS;
  const d = localDate(start, tz);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1) - tz * 60_000;
}

/** When a subscription saved or mailed at `after` is next due: the first period end + 06:00 after it. */
export function nextMailing(freq: ReportFrequency, after: Date, tz: number): Date {
  let start = periodStart(freq, after.getTime(), tz);
  for (;;) {
    const due = start + REPORT_MAIL_HOUR * 3_600_000;
    if (due > after.getTime()) return new Date(due);
    start = nextPeriodStart(freq, start, tz);
  }
}

/** The whole period that ended last before `at`, as the report's From and To days (both included). */
export function periodBefore(freq: ReportFrequency, at: Date, tz: number): { From: string; To: string } {
  const end = periodStart(freq, at.getTime(), tz);
  const start = periodStart(freq, end - 1, tz);
  return { From: dayText(start, tz), To: dayText(end - 1, tz) };
}

// ---- the calls --------------------------------------------------------------------------------------

const subscriptions = scopedCrud({
  table: reportSubscriptions,
  id: reportSubscriptions.id,
  owner: reportSubscriptions.accountId,
  select: (db) => db.select().from(reportSubscriptions).$dynamic(),
  notFound: 'report.subscriptionNotFound',
});

async function subjectNames(ctx: AuthedContext, items: (typeof reportSubscriptions.$inferSelect)[]): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const r of items) {
    const [named] = r.deviceId
      ? await ctx.deps.database.query<Row>(`SELECT COALESCE(NULLIF(name, ''), imei) AS n FROM devices WHERE id = $1`, [r.deviceId])
      : r.groupId
        ? await ctx.deps.database.query<Row>(`SELECT name AS n FROM device_groups WHERE id = $1`, [r.groupId])
        : await ctx.deps.database.query<Row>(`SELECT login_name AS n FROM accounts WHERE id = $1`, [r.subjectUserId ?? r.accountId]);
    out.set(r.id, String(named?.n ?? ''));
  }
  return out;
}

function toItem(ctx: AuthedContext, r: typeof reportSubscriptions.$inferSelect, subject: string): ReportSubscription {
  return {
    Id: r.id,
    Report: r.report as Kind,
    Frequency: r.frequency as ReportFrequency,
    Email: r.email,
    UserId: r.subjectUserId,
    GroupId: r.groupId,
    DeviceId: r.deviceId,
    Subject: subject,
    Enabled: r.enabled,
    NextAt: r.enabled ? shownTime(ctx.user, r.nextAt) : '',
    LastSentAt: r.lastSentAt ? shownTime(ctx.user, r.lastSentAt) : '',
    // Stored as From..To; shown as a range.
    LastPeriod: r.lastPeriod.replace('..', ' – '),
    LastError: r.lastError ? translate(ctx.locale, r.lastError) : '',
  };
}

/** The caller's own scheduled reports. */
export async function listSubscriptions(ctx: AuthedContext) {
  const { items } = await subscriptions.list(ctx.deps.database.db, ctx.user, { filters: [eq(reportSubscriptions.accountId, ctx.user.id)], orderBy: [desc(reportSubscriptions.id)] });
  const names = await subjectNames(ctx, items);
  return { State: 200 as const, Items: items.map((r) => toItem(ctx, r, names.get(r.id) ?? '')) };
}

/** One of the caller's own (another account's, even below him, reads as missing). */
async function own(ctx: AuthedContext, id: number) {
  const r = await subscriptions.get(ctx.deps.database.db, ctx.user, id);
  if (r.accountId !== ctx.user.id) throw notFound('report.subscriptionNotFound');
  return r;
}

export async function saveSubscription(
  ctx: AuthedContext,
  b: { Id?: number; Report: Kind; Frequency: ReportFrequency; Email: string; UserId?: number; GroupId?: number; DeviceId?: number; Imei?: string; Enabled: boolean },
) {
  const { db } = ctx.deps.database;
  // The subject as the report itself checks it: in the caller's subtree; a device or group for trips and stops.
  if ((b.Report === 'trips' || b.Report === 'stops') && !b.DeviceId && !b.GroupId && !b.Imei) throw fieldError('DeviceId', 'report.subjectRequired');
  const where = await subjectDevices(ctx, { UserId: b.UserId, GroupId: b.GroupId, DeviceId: b.DeviceId, Imei: b.Imei, From: '', To: '' }, false);
  // A device named by its IMEI is kept by its id (subjectDevices found it in the subtree).
  const deviceId = b.DeviceId ?? (b.Imei ? Number((await rows<{ id: number }>(db, sql`SELECT d.id FROM devices d WHERE ${where} LIMIT 1`))[0]?.id) : null);
  const values = {
    report: b.Report,
    frequency: b.Frequency,
    email: b.Email,
    subjectUserId: deviceId || b.GroupId ? null : (b.UserId ?? null),
    groupId: deviceId ? null : (b.GroupId ?? null),
    deviceId,
    enabled: b.Enabled,
    // Saved again (changed, or after a failure): due at its next period's end, from a clean slate; a
    // paused one is never claimed.
    status: b.Enabled ? 'pending' : 'paused',
    attempts: 0,
    lastError: '',
    lockedUntil: null,
    nextAt: nextMailing(b.Frequency, new Date(), ctx.user.timeZoneOffset),
  };
  let id = b.Id;
  if (id) {
    await own(ctx, id);
    await subscriptions.update(db, ctx.user, id, values);
  } else {
    id = await subscriptions.insert(db, { ...values, accountId: ctx.user.id }, { account: ctx.user.id, max: MAX_REPORT_SUBSCRIPTIONS, message: 'report.subscriptionsMax' });
  }
  ctx.deps.bus.publish(TOPIC, {});
  const r = await own(ctx, id);
  return { State: 200 as const, Item: toItem(ctx, r, (await subjectNames(ctx, [r])).get(r.id) ?? '') };
}

export async function deleteSubscription(ctx: AuthedContext, id: number) {
  await own(ctx, id);
  await subscriptions.remove(ctx.deps.database.db, ctx.user, [id], { atomic: true });
  return { State: 200 as const };
}

// ---- the worker -----------------------------------------------------------------------------------

/** The subscriber as a caller of the report calls: his subtree, permission set, zone; null if he may no longer. */
async function subscriber(deps: AppDeps, accountId: number): Promise<AuthUser | null> {
  const [a] = await deps.database.query<Row>(
    `SELECT a.id, a.login_name AS "loginName", a.path, a.user_type AS "userType", a.kind, a.must_change_password AS "mustChangePassword",
            a.time_zone_offset AS "timeZoneOffset", a.disabled, a.permission_set_id AS "setId", s.key AS "setKey", s.built_in AS "setBuiltIn",
            s.actions AS "setActions", s.routes AS "setRoutes"
       FROM accounts a LEFT JOIN permission_sets s ON s.id = a.permission_set_id WHERE a.id = $1`,
    [accountId],
  );
  if (!a || a.disabled === true) return null;
  const userType = Number(a.userType);
  const set = a.setId === null ? null : { key: String(a.setKey ?? ''), builtIn: a.setBuiltIn === true, actions: String(a.setActions ?? '') };
  return {
    id: Number(a.id),
    loginName: String(a.loginName),
    path: String(a.path),
    userType,
    kind: String(a.kind),
    sessionId: 0,
    mustChangePassword: a.mustChangePassword === true,
    timeZoneOffset: Number(a.timeZoneOffset),
    actions: grantsOf(userType, set),
    routes: a.setId === null ? '' : effectiveRoutes(userType, (a.setRoutes as string | null) ?? null),
  } as AuthUser;
}

/** Due subscriptions as a channel of the durable outbox. */
export class ReportMailChannel implements OutboxChannel {
  readonly name = 'scheduled report';
  readonly table = 'report_subscriptions';
  readonly topic = TOPIC;

  constructor(private readonly deps: AppDeps) {}

  maxAttempts = () => 6;
  retryBaseMs = () => 60_000;

  async deliver(r: Row): Promise<Delivery> {
    const { deps } = this;
    const user = await subscriber(deps, Number(r.account_id));
    const [lang] = await deps.database.query<Row>(`SELECT language FROM accounts WHERE id = $1`, [r.account_id]);
    const locale = resolveLocale(String(lang?.language ?? ''));
    if (!user) return { ok: false, error: 'report.subscriberGone', final: true };
    const routes = user.routes ?? '';
    if (!pageAllowsCall({ userType: effectiveUserType(user.userType, routes), routes, platformAdmin: isPlatformAdministrator(user) }, '/Report/Export')) {
      return { ok: false, error: 'report.subscriberNoPage', final: true };
    }
    const kind = String(r.report) as Kind;
    const period = periodBefore(String(r.frequency) as ReportFrequency, new Date(), user.timeZoneOffset);
    const ctx = { deps, user, locale, ip: '', userAgent: 'scheduled report' } as unknown as AuthedContext;
    const body = {
      Report: kind,
      ...period,
      ...(r.device_id ? { DeviceId: Number(r.device_id) } : r.group_id ? { GroupId: Number(r.group_id) } : r.subject_user_id ? { UserId: Number(r.subject_user_id) } : {}),
    };
    const name = translate(locale, `reportExport.sheet${kind[0]!.toUpperCase()}${kind.slice(1)}`);
    const subject = translate(locale, 'report.mailSubject', { platform: deps.config.PLATFORM_TITLE, report: name, from: period.From, to: period.To });
    try {
      const sheet = await reportSheet(ctx, body);
      const content = await sheetBuffer(sheet);
      await deps.mailer.send({
        to: String(r.email),
        subject,
        text: translate(locale, 'report.mailText', { report: name, from: period.From, to: period.To, rows: sheet.total }),
        attachments: [{ filename: `${sheet.fileName}.xlsx`, content, contentType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }],
      });
    } catch (err) {
      if (err instanceof AppError && err.key === 'report.nothing') {
        await deps.mailer.send({ to: String(r.email), subject, text: translate(locale, 'report.mailNothing', { report: name, from: period.From, to: period.To }) });
      } else if (err instanceof AppError) {
        // The subject is gone or no longer his (a device moved away): retrying will not help.
        return { ok: false, error: err.key, final: true };
      } else {
        return { ok: false, error: err instanceof Error ? err.message : String(err) };
      }
    }
    return { ok: true, ref: `${period.From}..${period.To}` };
  }

  /** A mailing done: due again at the next period's end; a final failure waits for the subscriber. */
  async record(q: QueryFn, r: Row, _attempt: number, result: Delivery): Promise<void> {
    if (!result.ok) return;
    const [a] = await q<Row>(`SELECT time_zone_offset AS tz FROM accounts WHERE id = $1`, [r.account_id]);
    const now = new Date();
    await q(`UPDATE report_subscriptions SET status = 'pending', attempts = 0, last_error = '', last_sent_at = $2, last_period = $3, next_at = $4 WHERE id = $1`, [
      r.id,
      now,
      result.ref ?? '',
      nextMailing(String(r.frequency) as ReportFrequency, now, Number(a?.tz ?? 0)),
    ]);
  }
}

/** The worker mailing due scheduled reports (role worker). */
export class ReportMailWorker extends OutboxWorker {
  constructor(deps: AppDeps) {
    super(deps, new ReportMailChannel(deps), { pollMs: 30_000, batch: 5, timeoutMs: 120_000 });
  }
}
