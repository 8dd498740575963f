// The Alarm area's calls: alarm types (admin), records with confirmation, thresholds, per-user
// pop-up settings and alarm contacts. Every query keeps to the caller's subtree (lib/scope.ts).
import { stopEscalation } from '../escalation/engine.js';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import { ALWAYS_ON_ALARM_CODES, type EscalationSendStatus, quietMinutes, quietText, type AlarmResolveCause, type AlarmState, type HealthThresholds, type Locale, type SentTime } from '@wt/contract';
import type { AuthedContext, AuthUser } from '../../calls.js';
import { accounts, alarmContacts, alarmEvents, alarmSettings, alarms, alarmTypes, devices, escalationSends, healthThresholds } from '../../db/schema/index.js';
import { badRequest, conflict, fieldError, notFound } from '../../lib/errors.js';
import { accountInScope, ownedBySubtree } from '../../lib/scope.js';
import { allOf, contains, isUniqueViolation, rows } from '../../lib/sql.js';
import { sentInstant, shownTime, shownTimeOrNull, viewerDayStart } from '../../lib/time.js';
import { ALARM_TOPICS, loadThresholds } from '../../rules/alarm-engine.js';
import { pathIdsUpward } from '../../rules/alarm-rules.js';
import { alarmTypeDescription, alarmTypeName, renderAlarmMessage } from './format.js';

type Row = Record<string, unknown>;
const toNum = (v: unknown) => (v === null || v === undefined ? null : Number(v));

// ---- devices in scope ----------------------------------------------------------------------------

export interface ScopedDevice {
  id: number;
  imei: string;
  name: string;
  modelName: string;
  accountId: number;
  accountPath: string;
  accountName: string;
}

/** A device of the caller's subtree by id or IMEI; another tenant's device answers "not found". */
export async function deviceInScope(ctx: AuthedContext, deviceId?: number, imei?: string): Promise<ScopedDevice> {
  if (!deviceId && !imei) throw notFound('alarm.deviceNotFound');
  const [d] = await ctx.deps.database.db
    .select({
      id: devices.id,
      imei: devices.imei,
      name: devices.name,
      modelName: devices.modelName,
      accountId: devices.accountId,
      accountPath: accounts.path,
      accountName: sql<string>`coalesce(nullif(${accounts.username}, ''), ${accounts.loginName})`,
    })
    .from(devices)
    .innerJoin(accounts, eq(accounts.id, devices.accountId))
    .where(and(deviceId ? eq(devices.id, deviceId) : eq(devices.imei, imei!), ownedBySubtree(devices.accountId, ctx.user)))
    .limit(1);
  if (!d) throw notFound('alarm.deviceNotFound');
  return d;
}

// ---- alarm types ---------------------------------------------------------------------------------

function typeOut(locale: Locale, r: typeof alarmTypes.$inferSelect) {
  return {
    Id: r.id,
    Code: r.code,
    NameZh: r.nameZh,
    NameEn: r.nameEn,
    DescriptionZh: r.descriptionZh,
    DescriptionEn: r.descriptionEn,
    Name: alarmTypeName(locale, r.code, r),
    Description: alarmTypeDescription(locale, r.code, r),
    Category: r.category,
    Level: r.level,
    MinValue: r.minValue,
    MaxValue: r.maxValue,
    RingType: r.ringType,
    PagePush: r.pagePush,
    Enabled: r.enabled,
  };
}

export async function listTypes(ctx: AuthedContext, q: { PageNo: number; PageCount: number; Keyword?: string; Level?: number; Enabled?: number }) {
  const { db } = ctx.deps.database;
  const conds: SQL[] = [];
  if (q.Keyword) {
    const k = contains(q.Keyword);
    // Also by the name the caller sees (zh-TW: traditional): the table has a few dozen rows.
    const lower = q.Keyword.toLowerCase();
    const seen = (await db.select().from(alarmTypes)).filter((r) => alarmTypeName(ctx.locale, r.code, r).toLowerCase().includes(lower)).map((r) => r.code);
    const byName = seen.length ? sql` OR ${alarmTypes.code} IN (${sql.join(seen.map((c) => sql`${c}`), sql`, `)})` : sql``;
    conds.push(sql`(${alarmTypes.nameZh} ILIKE ${k} OR ${alarmTypes.nameEn} ILIKE ${k} OR ${alarmTypes.code}::text LIKE ${k}${byName})`);
  }
  if (q.Level) conds.push(eq(alarmTypes.level, q.Level));
  if (q.Enabled) conds.push(eq(alarmTypes.enabled, q.Enabled));
  const where = allOf(conds);
  const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(alarmTypes).where(where)) as [{ n: number }];
  const items = await db
    .select()
    .from(alarmTypes)
    .where(where)
    .orderBy(asc(alarmTypes.code))
    .limit(q.PageCount)
    .offset((q.PageNo - 1) * q.PageCount);
  return { State: 200 as const, Total: n, Items: items.map((r) => typeOut(ctx.locale, r)) };
}

export async function typeOptions(ctx: AuthedContext) {
  const items = await ctx.deps.database.db.select().from(alarmTypes).orderBy(asc(alarmTypes.code));
  return { State: 200 as const, Items: items.map((r) => typeOut(ctx.locale, r)) };
}

export async function saveType(
  ctx: AuthedContext,
  b: {
    Id?: number;
    Code: number;
    NameZh: string;
    NameEn: string;
    DescriptionZh: string;
    DescriptionEn: string;
    Category: string;
    Level: number;
    MinValue: number | null;
    MaxValue: number | null;
    RingType: number;
    PagePush: number;
    Enabled: number;
  },
) {
  const { db } = ctx.deps.database;
  const values = {
    code: b.Code,
    nameZh: b.NameZh,
    nameEn: b.NameEn,
    descriptionZh: b.DescriptionZh,
    descriptionEn: b.DescriptionEn,
    category: b.Category,
    level: b.Level,
    minValue: b.MinValue,
    maxValue: b.MaxValue,
    ringType: b.RingType,
    pagePush: b.PagePush,
    enabled: b.Enabled,
  };
  // SOS and fall stay on and keep their code: closing them would silence a person in danger.
  if (ALWAYS_ON_ALARM_CODES.includes(b.Code) && b.Enabled !== 1) throw fieldError('Enabled', 'alarm.typeAlwaysOn', { name: alarmTypeName(ctx.locale, b.Code, { nameZh: b.NameZh, nameEn: b.NameEn }) });
  if (b.Id) {
    const [before] = await db.select({ code: alarmTypes.code, nameZh: alarmTypes.nameZh, nameEn: alarmTypes.nameEn }).from(alarmTypes).where(eq(alarmTypes.id, b.Id)).limit(1);
    if (before && before.code !== b.Code && ALWAYS_ON_ALARM_CODES.includes(before.code)) {
      throw fieldError('Code', 'alarm.typeCodeFixed', { name: alarmTypeName(ctx.locale, before.code, before) });
    }
  }
  const [taken] = await db.select({ id: alarmTypes.id }).from(alarmTypes).where(eq(alarmTypes.code, b.Code)).limit(1);
  if (taken && taken.id !== b.Id) throw conflict('alarm.codeExists', { code: b.Code });
  let id: number;
  try {
    if (b.Id) {
      const [row] = await db.update(alarmTypes).set(values).where(eq(alarmTypes.id, b.Id)).returning({ id: alarmTypes.id });
      if (!row) throw notFound();
      id = row.id;
    } else {
      const [row] = await db.insert(alarmTypes).values(values).returning({ id: alarmTypes.id });
      id = row!.id;
    }
  } catch (err) {
    // Two saves of the same new code at once: the unique index decides, the loser hears why.
    if (isUniqueViolation(err)) throw conflict('alarm.codeExists', { code: b.Code });
    throw err;
  }
  ctx.deps.bus.publish(ALARM_TOPICS.typesChanged, {});
  return { State: 200 as const, Id: id };
}

export async function deleteType(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  const [row] = await db.select().from(alarmTypes).where(eq(alarmTypes.id, id)).limit(1);
  if (!row) throw notFound();
  if (ALWAYS_ON_ALARM_CODES.includes(row.code)) throw conflict('alarm.typeAlwaysOn', { name: alarmTypeName(ctx.locale, row.code, row) });
  const [used] = await db.select({ id: alarms.id }).from(alarms).where(eq(alarms.type, row.code)).limit(1);
  if (used) throw conflict('alarm.typeInUse');
  await db.delete(alarmTypes).where(eq(alarmTypes.id, id));
  await db.delete(alarmSettings).where(eq(alarmSettings.alarmTypeId, id));
  ctx.deps.bus.publish(ALARM_TOPICS.typesChanged, {});
  return { State: 200 as const };
}

// ---- alarm records ---------------------------------------------------------------------------------

export interface RecordFilter {
  StartTime?: SentTime;
  EndTime?: SentTime;
  Type?: number[];
  Status?: number;
  DeviceId?: number;
  Imei?: string;
  AccountId?: number;
  State?: AlarmState;
  AssigneeId?: number;
}

/** Each state as a condition on the alarms table. */
const STATE_CONDITIONS: Record<AlarmState, SQL> = {
  open: sql`(${alarms.resolvedAt} IS NULL AND ${alarms.clearedAt} IS NULL AND ${alarms.status} = 0)`,
  acknowledged: sql`(${alarms.resolvedAt} IS NULL AND ${alarms.clearedAt} IS NULL AND ${alarms.status} = 1)`,
  resolved: sql`(${alarms.resolvedAt} IS NOT NULL)`,
  cleared: sql`(${alarms.resolvedAt} IS NULL AND ${alarms.clearedAt} IS NOT NULL)`,
  clearedUnacknowledged: sql`(${alarms.resolvedAt} IS NULL AND ${alarms.clearedAt} IS NOT NULL AND ${alarms.status} = 0)`,
};

/** Where an alarm is in its life, from its columns. */
export function alarmState(r: { status: number; resolvedAt: unknown; clearedAt: unknown }): AlarmState {
  if (r.resolvedAt) return 'resolved';
  if (r.clearedAt) return Number(r.status) === 1 ? 'cleared' : 'clearedUnacknowledged';
  return Number(r.status) === 1 ? 'acknowledged' : 'open';
}

export async function recordConditions(ctx: AuthedContext, f: RecordFilter): Promise<SQL[]> {
  const conds: SQL[] = [];
  if (f.AccountId) {
    const target = await accountInScope(ctx.deps.database.db, ctx.user, f.AccountId);
    conds.push(ownedBySubtree(alarms.accountId, target));
  } else {
    conds.push(ownedBySubtree(alarms.accountId, ctx.user));
  }
  const start = sentInstant(ctx.user, f.StartTime);
  const end = sentInstant(ctx.user, f.EndTime);
  if (start) conds.push(sql`${alarms.createdAt} >= ${start}`);
  if (end) conds.push(sql`${alarms.createdAt} <= ${end}`);
  if (f.Type?.length) conds.push(sql`${alarms.type} IN (${sql.join(f.Type.map((t) => sql`${t}`), sql`, `)})`);
  if (f.Status !== undefined) conds.push(eq(alarms.status, f.Status));
  if (f.DeviceId) conds.push(eq(alarms.deviceId, f.DeviceId));
  if (f.State) conds.push(STATE_CONDITIONS[f.State]);
  if (f.AssigneeId) conds.push(eq(alarms.assigneeId, f.AssigneeId));
  if (f.Imei) {
    const exact = /^\d{15}$/.test(f.Imei);
    conds.push(
      exact
        ? sql`${alarms.deviceId} IN (SELECT id FROM devices WHERE imei = ${f.Imei})`
        : sql`${alarms.deviceId} IN (SELECT id FROM devices WHERE imei LIKE ${contains(f.Imei)} OR name ILIKE ${contains(f.Imei)})`,
    );
  }
  return conds;
}

export const RECORD_COLUMNS = sql`al.id, al.type, al.device_id AS "deviceId", d.imei, d.name AS "deviceName", al.account_id AS "accountId",
  coalesce(nullif(a.username, ''), a.login_name) AS "accountName", d.model_name AS "model", al.status, al.remark,
  al.message_key AS "messageKey", al.message_params AS "messageParams", al.value, al.lat, al.lon, al.count,
  al.created_at AS "created", al.last_at AS "lastAt", al.confirmed_at AS "confirmedAt", cb.login_name AS "confirmedBy",
  al.resolved_at AS "resolvedAt", (SELECT login_name FROM accounts WHERE id = al.resolved_by) AS "resolvedBy", al.resolve_cause AS "resolveCause",
  al.resolve_note AS "resolveNote", al.cleared_at AS "clearedAt", al.assignee_id AS "assigneeId",
  (SELECT coalesce(nullif(username, ''), login_name) FROM accounts WHERE id = al.assignee_id) AS "assigneeName"`;

/** A record as the viewer reads it: messages in its language, times in its zone. */
export function recordOut(locale: Locale, viewer: Pick<AuthUser, 'timeZoneOffset'>, r: Row) {
  return {
    Id: Number(r.id),
    Type: Number(r.type),
    DeviceId: Number(r.deviceId),
    Imei: String(r.imei ?? ''),
    DeviceName: String(r.deviceName ?? ''),
    AccountId: Number(r.accountId),
    AccountName: String(r.accountName ?? ''),
    Model: String(r.model ?? ''),
    Status: Number(r.status),
    Remark: String(r.remark ?? ''),
    Message: renderAlarmMessage(locale, String(r.messageKey ?? ''), r.messageParams as Record<string, unknown>),
    MessageKey: String(r.messageKey ?? ''),
    MessageParams: (r.messageParams as Record<string, unknown> | null) ?? {},
    Value: toNum(r.value),
    Lat: toNum(r.lat),
    Lon: toNum(r.lon),
    Count: Number(r.count),
    Created: shownTime(viewer, r.created as Date),
    LastTime: shownTime(viewer, r.lastAt as Date),
    ConfirmedAt: shownTimeOrNull(viewer, r.confirmedAt as Date | null),
    ConfirmedBy: r.confirmedBy ? String(r.confirmedBy) : null,
    State: alarmState({ status: Number(r.status), resolvedAt: r.resolvedAt, clearedAt: r.clearedAt }),
    ResolvedAt: shownTimeOrNull(viewer, r.resolvedAt as Date | null),
    ResolvedBy: r.resolvedBy ? String(r.resolvedBy) : null,
    ResolveCause: r.resolveCause ? String(r.resolveCause) : null,
    ResolveNote: String(r.resolveNote ?? ''),
    ClearedAt: shownTimeOrNull(viewer, r.clearedAt as Date | null),
    AssigneeId: toNum(r.assigneeId),
    AssigneeName: r.assigneeName ? String(r.assigneeName) : null,
  };
}

/** Records as rows (the page and the export share it). The alarms table is aliased `al` in the SQL. */
export async function queryRecords(ctx: AuthedContext, f: RecordFilter, limit: number, offset: number) {
  const conds = await recordConditions(ctx, f);
  // The conditions were written against the table name; the query aliases it, so name it alike.
  return rows<Row>(
    ctx.deps.database.db,
    sql`SELECT ${RECORD_COLUMNS} FROM (SELECT * FROM ${alarms} WHERE ${allOf(conds)} ORDER BY ${alarms.createdAt} DESC, ${alarms.id} DESC LIMIT ${limit} OFFSET ${offset}) al
        JOIN devices d ON d.id = al.device_id JOIN accounts a ON a.id = al.account_id LEFT JOIN accounts cb ON cb.id = al.confirmed_by
        ORDER BY al.created_at DESC, al.id DESC`,
  );
}

export async function listRecords(ctx: AuthedContext, q: RecordFilter & { PageNo: number; PageCount: number }) {
  const conds = await recordConditions(ctx, q);
  const [{ n }] = await rows<{ n: number }>(ctx.deps.database.db, sql`SELECT count(*)::int AS n FROM ${alarms} WHERE ${allOf(conds)}`) as [{ n: number }];
  const items = await queryRecords(ctx, q, q.PageCount, (q.PageNo - 1) * q.PageCount);
  return { State: 200 as const, Total: Number(n), Items: items.map((r) => recordOut(ctx.locale, ctx.user, r)) };
}

/**
 * Confirms unconfirmed alarms of the caller's subtree with a remark: the listed ones, or all of
 * today's of one device, or all of today's of the subtree when that is asked for explicitly. The
 * request schema refuses a body that names none of these; nothing is ever confirmed by default.
 */
export async function confirmMany(
  ctx: AuthedContext,
  b: { Remark: string; Ids?: number[]; AllToday?: boolean; DeviceId?: number; Imei?: string; Since?: SentTime },
) {
  const conds: SQL[] = [ownedBySubtree(alarms.accountId, ctx.user), eq(alarms.status, 0)];
  if (b.DeviceId !== undefined || b.Imei !== undefined) {
    // Another tenant's device, or one that does not exist, answers "not found" and confirms nothing.
    const d = await deviceInScope(ctx, b.DeviceId, b.Imei);
    if (b.DeviceId !== undefined && b.Imei !== undefined && d.imei !== b.Imei) throw notFound('alarm.deviceNotFound');
    conds.push(eq(alarms.deviceId, d.id));
  }
  if (b.Ids?.length) conds.push(sql`${alarms.id} IN (${sql.join(b.Ids.map((i) => sql`${i}`), sql`, `)})`);
  else if (b.AllToday || b.DeviceId !== undefined || b.Imei !== undefined) conds.push(sql`${alarms.createdAt} >= ${sentInstant(ctx.user, b.Since) ?? viewerDayStart(ctx.user, 0)}`);
  // Defence in depth: the schema already refuses a request without a scope.
  else throw fieldError('AllToday', 'alarm.confirmScopeRequired');
  const done = await ctx.deps.database.db.transaction(async (tx) => {
    const ids = await tx
      .update(alarms)
      .set({ status: 1, remark: b.Remark, confirmedAt: new Date(), confirmedBy: ctx.user.id, takesRepeats: false })
      .where(and(...conds))
      .returning({ id: alarms.id });
    if (ids.length) await tx.insert(alarmEvents).values(ids.map((r) => ({ alarmId: r.id, kind: 'acknowledged', actorId: ctx.user.id, params: noteParams(b.Remark) })));
    return ids;
  });
  await stopEscalation(ctx.deps, done.map((d) => d.id));
  return { State: 200 as const, Count: done.length };
}

const noteParams = (note: string) => (note ? { note } : {});

export async function confirmOne(ctx: AuthedContext, b: { Id: number; Remark: string }) {
  const { db } = ctx.deps.database;
  const [row] = await db
    .select({ status: alarms.status })
    .from(alarms)
    .where(and(eq(alarms.id, b.Id), ownedBySubtree(alarms.accountId, ctx.user)))
    .limit(1);
  if (!row) throw notFound();
  await db.transaction(async (tx) => {
    if (row.status !== 0) {
      await tx.update(alarms).set({ remark: b.Remark }).where(eq(alarms.id, b.Id));
      return;
    }
    // Confirming is acknowledging: someone has it, repeats open no longer count into it.
    const done = await tx
      .update(alarms)
      .set({ status: 1, remark: b.Remark, confirmedAt: new Date(), confirmedBy: ctx.user.id, takesRepeats: false })
      .where(and(eq(alarms.id, b.Id), eq(alarms.status, 0)))
      .returning({ id: alarms.id });
    if (done.length) await tx.insert(alarmEvents).values({ alarmId: b.Id, kind: 'acknowledged', actorId: ctx.user.id, params: noteParams(b.Remark) });
  });
  if (row.status === 0) await stopEscalation(ctx.deps, [b.Id]);
  return { State: 200 as const };
}

// ---- the alarm's life: resolve, assign, comment, timeline -------------------------------------------

/** An alarm of the caller's subtree with its account's path; another tenant's answers "not found". */
async function alarmInScope(ctx: AuthedContext, id: number) {
  const [row] = await ctx.deps.database.db
    .select({ id: alarms.id, status: alarms.status, resolvedAt: alarms.resolvedAt, accountPath: accounts.path })
    .from(alarms)
    .innerJoin(accounts, eq(accounts.id, alarms.accountId))
    .where(and(eq(alarms.id, id), ownedBySubtree(alarms.accountId, ctx.user)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/** Resolves an alarm with a cause and a note; an alarm nobody acknowledged is acknowledged with it. */
export async function resolveAlarm(ctx: AuthedContext, b: { Id: number; Cause: AlarmResolveCause; Note: string }) {
  const a = await alarmInScope(ctx, b.Id);
  if (a.resolvedAt) throw conflict('alarm.alreadyResolved');
  const now = new Date();
  await ctx.deps.database.db.transaction(async (tx) => {
    const ack = a.status === 0 ? { status: 1, confirmedAt: now, confirmedBy: ctx.user.id } : {};
    const done = await tx
      .update(alarms)
      .set({ ...ack, resolvedAt: now, resolvedBy: ctx.user.id, resolveCause: b.Cause, resolveNote: b.Note, takesRepeats: false })
      .where(and(eq(alarms.id, b.Id), sql`${alarms.resolvedAt} IS NULL`))
      .returning({ id: alarms.id });
    // Resolved meanwhile by someone else.
    if (!done.length) throw conflict('alarm.alreadyResolved');
    const events: (typeof alarmEvents.$inferInsert)[] = [];
    if (a.status === 0) events.push({ alarmId: b.Id, at: now, kind: 'acknowledged', actorId: ctx.user.id, params: {} });
    events.push({ alarmId: b.Id, at: now, kind: 'resolved', actorId: ctx.user.id, params: { cause: b.Cause, ...noteParams(b.Note) } });
    await tx.insert(alarmEvents).values(events);
  });
  // Resolving an alarm nobody had acknowledged acknowledges it: its escalation stops too.
  if (a.status === 0) await stopEscalation(ctx.deps, [b.Id]);
  return { State: 200 as const };
}

/** The accounts an alarm can be given to: its account and those above it, nearest first. */
async function assignable(ctx: AuthedContext, accountPath: string) {
  const ids = pathIdsUpward(accountPath);
  const found = await ctx.deps.database.db
    .select({ id: accounts.id, name: sql<string>`coalesce(nullif(${accounts.username}, ''), ${accounts.loginName})` })
    .from(accounts)
    .where(sql`${accounts.id} IN (${sql.join(ids.map((i) => sql`${i}`), sql`, `)})`);
  return ids.map((id) => found.find((f) => f.id === id)).filter((f): f is { id: number; name: string } => Boolean(f));
}

export async function alarmAssignees(ctx: AuthedContext, id: number) {
  const a = await alarmInScope(ctx, id);
  return { State: 200 as const, Items: (await assignable(ctx, a.accountPath)).map((u) => ({ Id: u.id, Name: u.name })) };
}

/** Gives an alarm to an account of its account's line (its own or one above), or takes it back (null). */
export async function assignAlarm(ctx: AuthedContext, b: { Id: number; AssigneeId: number | null }) {
  const a = await alarmInScope(ctx, b.Id);
  let assignee: { id: number; name: string } | undefined;
  if (b.AssigneeId !== null) {
    assignee = (await assignable(ctx, a.accountPath)).find((u) => u.id === b.AssigneeId);
    if (!assignee) throw fieldError('AssigneeId', 'alarm.assigneeNotAllowed');
  }
  await ctx.deps.database.db.transaction(async (tx) => {
    await tx.update(alarms).set({ assigneeId: assignee?.id ?? null }).where(eq(alarms.id, b.Id));
    await tx.insert(alarmEvents).values({
      alarmId: b.Id,
      kind: 'assigned',
      actorId: ctx.user.id,
      params: assignee ? { assigneeId: assignee.id, assignee: assignee.name } : { assignee: null },
    });
  });
  return { State: 200 as const };
}

export async function commentAlarm(ctx: AuthedContext, b: { Id: number; Text: string }) {
  await alarmInScope(ctx, b.Id);
  await ctx.deps.database.db.insert(alarmEvents).values({ alarmId: b.Id, kind: 'comment', actorId: ctx.user.id, params: { text: b.Text } });
  return { State: 200 as const };
}

/** What became of an escalation send, from its stored outcome. */
function sendStatus(ok: boolean, error: string): EscalationSendStatus {
  if (ok) return 'sent';
  return error === 'escalation.quietHours' ? 'held' : 'failed';
}

/**
 * What happened to one alarm, oldest first, times in the viewer's zone: its events and each send of
 * its escalation steps (`escalated`: step, channel, recipient, sent / held / failed), merged in time
 * order (an event before a send of the same instant).
 */
export async function alarmTimeline(ctx: AuthedContext, id: number) {
  await alarmInScope(ctx, id);
  const [items, sends] = await Promise.all([
    ctx.deps.database.db
      .select({ id: alarmEvents.id, at: alarmEvents.at, kind: alarmEvents.kind, params: alarmEvents.params, actor: accounts.loginName })
      .from(alarmEvents)
      .leftJoin(accounts, eq(accounts.id, alarmEvents.actorId))
      .where(eq(alarmEvents.alarmId, id))
      .orderBy(asc(alarmEvents.at), asc(alarmEvents.id))
      .limit(1000),
    ctx.deps.database.db
      .select()
      .from(escalationSends)
      .where(eq(escalationSends.alarmId, id))
      .orderBy(asc(escalationSends.at), asc(escalationSends.id))
      .limit(1000),
  ]);
  const merged = [
    ...items.map((e) => ({ at: e.at, order: 0, id: e.id, item: { Id: e.id, At: '', Kind: e.kind, Actor: e.actor ?? null, Params: e.params ?? {} } })),
    ...sends.map((s) => ({
      at: s.at,
      order: 1,
      id: s.id,
      item: {
        Id: s.id,
        At: '',
        Kind: 'escalated',
        Actor: null,
        Params: { step: s.step, channel: s.channel, recipient: s.recipient, status: sendStatus(s.ok, s.error), ...(s.error ? { error: s.error } : {}) },
      },
    })),
  ].sort((a, b) => a.at.getTime() - b.at.getTime() || a.order - b.order || a.id - b.id);
  return { State: 200 as const, Items: merged.map((m) => ({ ...m.item, At: shownTime(ctx.user, m.at) })) };
}

// ---- thresholds --------------------------------------------------------------------------------------

async function thresholdTarget(ctx: AuthedContext, b: { DeviceId?: number; Imei?: string; AccountId?: number }) {
  if (b.DeviceId || b.Imei) {
    const d = await deviceInScope(ctx, b.DeviceId, b.Imei);
    return { deviceId: d.id, accountId: null as number | null, path: d.accountPath };
  }
  const a = await accountInScope(ctx.deps.database.db, ctx.user, b.AccountId);
  return { deviceId: null as number | null, accountId: a.id, path: a.path };
}

export async function getThresholds(ctx: AuthedContext, b: { DeviceId?: number; Imei?: string; AccountId?: number }) {
  const t = await thresholdTarget(ctx, b);
  const r = await loadThresholds(ctx.deps, t.deviceId, t.path);
  return { State: 200 as const, Item: r.thresholds, Source: r.source };
}

const FIELDS = ['heartRateMin', 'heartRateMax', 'systolicMin', 'systolicMax', 'diastolicMin', 'diastolicMax', 'bodyTempMax', 'wristTempMax', 'bloodOxygenMin', 'speedLimit', 'noMotionMinutes', 'noMotionSchedule'] as const;

export async function saveThresholds(ctx: AuthedContext, b: Record<string, unknown> & { DeviceId?: number; Imei?: string; AccountId?: number; Inherit?: boolean }) {
  const t = await thresholdTarget(ctx, b);
  const { db } = ctx.deps.database;
  const own = t.deviceId !== null ? eq(healthThresholds.deviceId, t.deviceId) : and(eq(healthThresholds.accountId, t.accountId!), sql`${healthThresholds.deviceId} IS NULL`);
  if (b.Inherit) {
    await db.delete(healthThresholds).where(own!);
  } else {
    // Bounds left out of the request keep the value in force; an explicit null stops checking it.
    const current = (await loadThresholds(ctx.deps, t.deviceId, t.path)).thresholds;
    const values = Object.fromEntries(FIELDS.map((f) => [f, b[f] === undefined ? current[f] : b[f]])) as unknown as HealthThresholds;
    for (const [lo, hi] of [['heartRateMin', 'heartRateMax'], ['systolicMin', 'systolicMax'], ['diastolicMin', 'diastolicMax']] as const) {
      const a = values[lo];
      const z = values[hi];
      if (a !== null && z !== null && a >= z) throw badRequest('common.validation', undefined, [{ Field: lo, Message: 'validation.minBelowMax' }]);
    }
    await db.transaction(async (tx) => {
      // Delete-then-insert in one transaction: the two partial unique indexes guard against doubles.
      await tx.delete(healthThresholds).where(own!);
      await tx.insert(healthThresholds).values({ ...values, deviceId: t.deviceId, accountId: t.accountId });
    });
  }
  ctx.deps.bus.publish(ALARM_TOPICS.thresholdsChanged, {});
  const r = await loadThresholds(ctx.deps, t.deviceId, t.path);
  return { State: 200 as const, Item: r.thresholds, Source: r.source };
}

// ---- settings ------------------------------------------------------------------------------------------

export async function listSettings(ctx: AuthedContext, userId?: number) {
  const account = await accountInScope(ctx.deps.database.db, ctx.user, userId);
  const items = await ctx.deps.database.db
    .select({ s: alarmSettings, code: alarmTypes.code })
    .from(alarmSettings)
    .innerJoin(alarmTypes, eq(alarmTypes.id, alarmSettings.alarmTypeId))
    .where(eq(alarmSettings.accountId, account.id))
    .orderBy(asc(alarmTypes.code));
  return {
    State: 200 as const,
    Items: items.map(({ s, code }) => ({ Id: s.id, UserId: s.accountId, ExceptionTypeId: s.alarmTypeId, Code: code, NewState: s.newState, RingType: s.ringType, State: s.state })),
  };
}

export async function saveSetting(ctx: AuthedContext, b: { Id?: number; UserId?: number; ExceptionTypeId: number; NewState: number; RingType: number }) {
  const { db } = ctx.deps.database;
  const account = await accountInScope(db, ctx.user, b.UserId);
  const [type] = await db.select({ id: alarmTypes.id }).from(alarmTypes).where(eq(alarmTypes.id, b.ExceptionTypeId)).limit(1);
  if (!type) throw notFound();
  if (b.Id) {
    const [row] = await db
      .update(alarmSettings)
      .set({ alarmTypeId: b.ExceptionTypeId, newState: b.NewState, ringType: b.RingType, updatedAt: new Date() })
      .where(and(eq(alarmSettings.id, b.Id), ownedBySubtree(alarmSettings.accountId, ctx.user)))
      .returning({ id: alarmSettings.id });
    if (!row) throw notFound();
    return { State: 200 as const, Id: row.id };
  }
  const [row] = await db
    .insert(alarmSettings)
    .values({ accountId: account.id, alarmTypeId: b.ExceptionTypeId, newState: b.NewState, ringType: b.RingType })
    .onConflictDoUpdate({
      target: [alarmSettings.accountId, alarmSettings.alarmTypeId],
      set: { newState: b.NewState, ringType: b.RingType, updatedAt: new Date() },
    })
    .returning({ id: alarmSettings.id });
  return { State: 200 as const, Id: row!.id };
}

export async function deleteSetting(ctx: AuthedContext, id: number) {
  const done = await ctx.deps.database.db
    .delete(alarmSettings)
    .where(and(eq(alarmSettings.id, id), ownedBySubtree(alarmSettings.accountId, ctx.user)))
    .returning({ id: alarmSettings.id });
  if (!done.length) throw notFound();
  return { State: 200 as const };
}

// ---- contacts ------------------------------------------------------------------------------------------

export async function listContacts(ctx: AuthedContext, userId?: number) {
  const account = await accountInScope(ctx.deps.database.db, ctx.user, userId);
  const items = await ctx.deps.database.db.select().from(alarmContacts).where(eq(alarmContacts.accountId, account.id)).orderBy(asc(alarmContacts.id));
  return {
    State: 200 as const,
    Items: items.map((c) => ({
      Id: c.id,
      UserId: c.accountId,
      Name: c.name,
      Phone: c.phone,
      Email: c.email,
      NotifySms: c.notifySms,
      NotifyEmail: c.notifyEmail,
      Types: c.types ?? [],
      QuietFrom: quietText(c.quietFrom),
      QuietTo: quietText(c.quietTo),
      Created: shownTime(ctx.user, c.createdAt),
    })),
  };
}

export async function saveContact(
  ctx: AuthedContext,
  b: { Id?: number; UserId?: number; Name: string; Phone: string; Email: string; NotifySms: number; NotifyEmail: number; Types: number[]; QuietFrom: string; QuietTo: string },
) {
  const { db } = ctx.deps.database;
  const account = await accountInScope(db, ctx.user, b.UserId);
  const values = {
    name: b.Name,
    phone: b.Phone,
    email: b.Email,
    notifySms: b.NotifySms,
    notifyEmail: b.NotifyEmail,
    types: b.Types,
    quietFrom: quietMinutes(b.QuietFrom),
    quietTo: quietMinutes(b.QuietTo),
  };
  if (b.Id) {
    const [row] = await db
      .update(alarmContacts)
      .set(values)
      .where(and(eq(alarmContacts.id, b.Id), ownedBySubtree(alarmContacts.accountId, ctx.user)))
      .returning({ id: alarmContacts.id });
    if (!row) throw notFound();
    return { State: 200 as const, Id: row.id };
  }
  const [row] = await db.insert(alarmContacts).values({ ...values, accountId: account.id }).returning({ id: alarmContacts.id });
  return { State: 200 as const, Id: row!.id };
}

export async function deleteContact(ctx: AuthedContext, id: number) {
  const done = await ctx.deps.database.db
    .delete(alarmContacts)
    .where(and(eq(alarmContacts.id, id), ownedBySubtree(alarmContacts.accountId, ctx.user)))
    .returning({ id: alarmContacts.id });
  if (!done.length) throw notFound();
  return { State: 200 as const };
}

