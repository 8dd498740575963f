// Partner push companies and the log of deliveries, kept to the caller's subtree.
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { SentTime } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import { accounts, pushAttempts, pushCompanies, pushOutbox } from '../../db/schema/index.js';
import { fieldError, notFound } from '../../lib/errors.js';
import { accountInScope, ownedBySubtree } from '../../lib/scope.js';
import { allOf, contains } from '../../lib/sql.js';
import { sentInstant, shownTime } from '../../lib/time.js';

export async function listCompanies(ctx: AuthedContext, q: { PageNo: number; PageCount: number; Keyword?: string }) {
  const { db } = ctx.deps.database;
  const conds: SQL[] = [ownedBySubtree(pushCompanies.accountId, ctx.user)];
  if (q.Keyword) conds.push(sql`(${pushCompanies.name} ILIKE ${contains(q.Keyword)} OR ${pushCompanies.pushUrl} ILIKE ${contains(q.Keyword)})`);
  const where = allOf(conds);
  const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(pushCompanies).where(where)) as [{ n: number }];
  const items = await db
    .select({ c: pushCompanies, accountName: sql<string>`coalesce(nullif(${accounts.username}, ''), ${accounts.loginName})` })
    .from(pushCompanies)
    .innerJoin(accounts, eq(accounts.id, pushCompanies.accountId))
    .where(where)
    .orderBy(desc(pushCompanies.id))
    .limit(q.PageCount)
    .offset((q.PageNo - 1) * q.PageCount);
  return {
    State: 200 as const,
    Total: n,
    Items: items.map(({ c, accountName }) => ({
      Id: c.id,
      Name: c.name,
      PushModel: c.pushModel,
      DefaultFormat: c.defaultFormat,
      PushUrl: c.pushUrl,
      Effective: c.effective,
      VerificationCode: c.verificationCode,
      AccountId: c.accountId,
      AccountName: accountName,
      Created: shownTime(ctx.user, c.createdAt),
    })),
  };
}

export async function saveCompany(
  ctx: AuthedContext,
  b: { Id?: number; AccountId?: number; Name: string; PushModel: number; DefaultFormat: number; PushUrl: string; Effective: number; VerificationCode: string },
) {
  const { db } = ctx.deps.database;
  const account = await accountInScope(db, ctx.user, b.AccountId);
  // Checked again at every delivery (the name may resolve elsewhere by then); this tells the user now.
  if (await ctx.deps.outbound.refusal(b.PushUrl)) throw fieldError('PushUrl', 'push.urlInternal');
  const values = {
    accountId: account.id,
    name: b.Name,
    pushModel: b.PushModel,
    defaultFormat: b.DefaultFormat,
    pushUrl: b.PushUrl,
    effective: b.Effective,
    verificationCode: b.VerificationCode,
  };
  if (b.Id) {
    const [row] = await db
      .update(pushCompanies)
      .set(values)
      .where(and(eq(pushCompanies.id, b.Id), ownedBySubtree(pushCompanies.accountId, ctx.user)))
      .returning({ id: pushCompanies.id });
    if (!row) throw notFound();
    // Queued deliveries follow the company to its new address.
    await db.update(pushOutbox).set({ url: b.PushUrl }).where(and(eq(pushOutbox.companyId, row.id), eq(pushOutbox.status, 'pending')));
    return { State: 200 as const, Id: row.id };
  }
  const [row] = await db.insert(pushCompanies).values(values).returning({ id: pushCompanies.id });
  return { State: 200 as const, Id: row!.id };
}

export async function deleteCompany(ctx: AuthedContext, id: number) {
  const { db } = ctx.deps.database;
  const done = await db
    .delete(pushCompanies)
    .where(and(eq(pushCompanies.id, id), ownedBySubtree(pushCompanies.accountId, ctx.user)))
    .returning({ id: pushCompanies.id });
  if (!done.length) throw notFound();
  await db.delete(pushOutbox).where(and(eq(pushOutbox.companyId, id), eq(pushOutbox.status, 'pending')));
  return { State: 200 as const };
}

export async function listAttempts(
  ctx: AuthedContext,
  q: { PageNo: number; PageCount: number; StartTime?: SentTime; EndTime?: SentTime; CompanyId?: number; Success?: number; Imei?: string },
) {
  const { db } = ctx.deps.database;
  const conds: SQL[] = [ownedBySubtree(pushCompanies.accountId, ctx.user)];
  const start = sentInstant(ctx.user, q.StartTime);
  const end = sentInstant(ctx.user, q.EndTime);
  if (start) conds.push(sql`${pushAttempts.createdAt} >= ${start}`);
  if (end) conds.push(sql`${pushAttempts.createdAt} <= ${end}`);
  if (q.CompanyId) conds.push(eq(pushAttempts.companyId, q.CompanyId));
  if (q.Success) conds.push(eq(pushAttempts.success, q.Success === 1));
  if (q.Imei) conds.push(sql`${pushAttempts.imei} LIKE ${contains(q.Imei)}`);
  const where = allOf(conds);
  const [{ n }] = (await db
    .select({ n: sql<number>`count(*)::int` })
    .from(pushAttempts)
    .innerJoin(pushCompanies, eq(pushCompanies.id, pushAttempts.companyId))
    .where(where)) as [{ n: number }];
  const items = await db
    .select({ a: pushAttempts, name: pushCompanies.name, body: pushOutbox.body })
    .from(pushAttempts)
    .innerJoin(pushCompanies, eq(pushCompanies.id, pushAttempts.companyId))
    .leftJoin(pushOutbox, eq(pushOutbox.id, pushAttempts.outboxId))
    .where(where)
    .orderBy(desc(pushAttempts.createdAt), desc(pushAttempts.id))
    .limit(q.PageCount)
    .offset((q.PageNo - 1) * q.PageCount);
  return {
    State: 200 as const,
    Total: n,
    Items: items.map(({ a, name, body }) => ({
      Id: a.id,
      CompanyId: a.companyId,
      CompanyName: name,
      AlarmId: a.alarmId,
      Imei: a.imei,
      Url: a.url,
      Attempt: a.attempt,
      StatusCode: a.statusCode,
      Success: a.success ? 1 : 2,
      Error: a.error,
      DurationMs: a.durationMs,
      Created: shownTime(ctx.user, a.createdAt),
      Body: body ?? '',
    })),
  };
}
