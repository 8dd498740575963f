// The SMS service of the accounts of a subtree (SPEC §3 SMS service): status, recharged, used and
// remaining counts; recharges and corrections by an administrator, every change logged with who and
// when; reconciliation with the provider's delivery reports; the alarm notices it paid for.
import { State, type CallResponse } from '@wt/contract';
import { defineCall, type AuthedContext } from '../../calls.js';
import type { QueryFn } from '../../db/client.js';
import { badRequest, fieldError } from '../../lib/errors.js';
import { accountInScope, subtreePattern } from '../../lib/scope.js';
import { contains, iso, pagedQuery } from '../../lib/sql.js';
import { sentInstant } from '../../lib/time.js';
import { refundSms } from './notices.js';

type Row = Record<string, unknown>;
type SmsAccount = CallResponse<'/User/AllSMSList'>['Items'][number];

const ACCOUNT_COLUMNS = `a.id AS "userId", a.login_name AS "loginName", a.username AS "userName",
  COALESCE(b.enabled, 2) AS "status", COALESCE(b.recharged, 0) AS "recharged", COALESCE(b.used, 0) AS "used",
  COALESCE(b.remaining, 0) AS "remaining", b.updated_at AS "updatedAt"`;

const toAccount = (r: Row): SmsAccount => ({
  UserId: Number(r.userId),
  LoginName: String(r.loginName),
  UserName: String(r.userName ?? ''),
  Status: Number(r.status),
  Recharged: Number(r.recharged),
  Used: Number(r.used),
  Remaining: Number(r.remaining),
  UpdatedAt: iso(r.updatedAt as string | null),
});

async function smsAccount(q: QueryFn, accountId: number): Promise<SmsAccount> {
  const [r] = await q<Row>(`SELECT ${ACCOUNT_COLUMNS} FROM accounts a LEFT JOIN sms_balances b ON b.account_id = a.id WHERE a.id = $1`, [accountId]);
  return toAccount(r!);
}

/** The subtree a list or a reconciliation covers: the account asked for (in scope) or the caller's. */
async function subtreeOf(ctx: AuthedContext, userId?: number): Promise<string> {
  const account = await accountInScope(ctx.deps.database.db, ctx.user, userId);
  return subtreePattern(account);
}

/** Reconciles the balances of a subtree with the delivery reports; returns what changed. */
export async function reconcileSms(ctx: AuthedContext, pattern: string) {
  return ctx.deps.database.transaction(async (q) => {
    const undelivered = await q<Row>(
      `SELECT n.id FROM notice_outbox n JOIN accounts a ON a.id = n.account_id
        WHERE a.path LIKE $1 AND n.channel = 'sms' AND n.status = 'undelivered' AND n.segments > 0 AND NOT n.refunded`,
      [pattern],
    );
    for (const n of undelivered) await refundSms(q, Number(n.id), 'sms.refundUndelivered');
    // Used is what the texts still charged add up to; remaining follows from the recharges.
    const fixed = await q<Row>(
      `WITH charged AS (
         SELECT b.account_id, COALESCE((SELECT sum(segments) FROM notice_outbox n
                  WHERE n.account_id = b.account_id AND n.channel = 'sms' AND NOT n.refunded), 0)::int AS used
           FROM sms_balances b JOIN accounts a ON a.id = b.account_id WHERE a.path LIKE $1 FOR UPDATE OF b)
       UPDATE sms_balances b SET used = c.used, remaining = b.recharged - c.used, updated_at = now()
         FROM charged c
        WHERE b.account_id = c.account_id AND (b.used <> c.used OR b.remaining <> b.recharged - c.used)
        RETURNING b.account_id AS "accountId", b.remaining, c.used`,
      [pattern],
    );
    for (const f of fixed) {
      await q(`INSERT INTO sms_changes (account_id, kind, amount, remaining, by_account_id, by_name, remark) VALUES ($1, 'sync', 0, $2, $3, $4, $5)`, [
        f.accountId,
        f.remaining,
        ctx.user.id,
        ctx.user.loginName,
        `used=${f.used}`,
      ]);
    }
    const [n] = await q<Row>(`SELECT count(*)::int AS n FROM sms_balances b JOIN accounts a ON a.id = b.account_id WHERE a.path LIKE $1`, [pattern]);
    return { Accounts: Number(n?.n ?? 0), Refunded: undelivered.length, Corrected: fixed.length };
  });
}

export const smsCalls = [
  defineCall('/User/AllSMSList', async (ctx, b) => {
    const pattern = await subtreeOf(ctx, b.UserId);
    const params: unknown[] = [pattern];
    let where = `a.path LIKE $1`;
    if (b.Name) {
      params.push(contains(b.Name));
      where += ` AND (a.login_name ILIKE $${params.length} OR a.username ILIKE $${params.length})`;
    }
    const { total, rows } = await pagedQuery<Row>(ctx.deps.database, {
      select: ACCOUNT_COLUMNS,
      from: `FROM accounts a LEFT JOIN sms_balances b ON b.account_id = a.id WHERE ${where}`,
      order: 'a.path',
      params,
      page: b,
    });
    return { State: State.OK, Total: total, Items: rows.map(toAccount) };
  }),

  defineCall('/User/actionSMSData', async (ctx, b) => {
    const target = await accountInScope(ctx.deps.database.db, ctx.user, b.UserId);
    // A service is granted from above: only the root account, with no one above it, sets its own.
    if (target.id === ctx.user.id && target.parentId !== null) throw fieldError('UserId', 'sms.notSelf');
    const item = await ctx.deps.database.transaction(async (q) => {
      await q(`INSERT INTO sms_balances (account_id, enabled) VALUES ($1, 1) ON CONFLICT (account_id) DO NOTHING`, [target.id]);
      const [cur] = await q<Row>(`SELECT enabled, remaining FROM sms_balances WHERE account_id = $1 FOR UPDATE`, [target.id]);
      const log = (kind: string, amount: number, remaining: number) =>
        q(`INSERT INTO sms_changes (account_id, kind, amount, remaining, by_account_id, by_name, remark) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
          target.id,
          kind,
          amount,
          remaining,
          ctx.user.id,
          ctx.user.loginName,
          b.Remark,
        ]);
      let remaining = Number(cur!.remaining);
      if (b.Count) {
        if (remaining + b.Count < 0) throw badRequest('common.validation', undefined, [{ Field: 'Count', Message: 'sms.belowZero', Params: { remaining: remaining + b.Count } }]);
        remaining += b.Count;
        await q(`UPDATE sms_balances SET recharged = recharged + $2, remaining = remaining + $2, updated_at = now() WHERE account_id = $1`, [target.id, b.Count]);
        await log(b.Count > 0 ? 'recharge' : 'correct', b.Count, remaining);
      }
      if (b.Status !== undefined && b.Status !== Number(cur!.enabled)) {
        await q(`UPDATE sms_balances SET enabled = $2, updated_at = now() WHERE account_id = $1`, [target.id, b.Status]);
        await log('status', b.Status === 1 ? 1 : 0, remaining);
      }
      return smsAccount(q, target.id);
    });
    return { State: State.OK, Item: item } as const;
  }),

  defineCall('/User/synchronizationSMSData', async (ctx, b) => {
    const result = await reconcileSms(ctx, await subtreeOf(ctx, b.UserId));
    return { State: State.OK, ...result } as const;
  }),

  defineCall('/SMS/Records', async (ctx, b) => {
    const params: unknown[] = [await subtreeOf(ctx, b.UserId)];
    const conds = [`a.path LIKE $1`];
    const add = (cond: string, v: unknown) => {
      params.push(v);
      conds.push(cond.replace('?', `$${params.length}`));
    };
    if (b.Channel) add(`n.channel = ?`, b.Channel);
    if (b.Status) add(`n.status = ?`, b.Status);
    if (b.Recipient) add(`n.recipient ILIKE ?`, contains(b.Recipient));
    if (b.StartTime) add(`n.created_at >= ?::timestamptz`, sentInstant(ctx.user, b.StartTime).toISOString());
    if (b.EndTime) add(`n.created_at <= ?::timestamptz`, sentInstant(ctx.user, b.EndTime).toISOString());
    const { total, rows } = await pagedQuery<Row>(ctx.deps.database, {
      select: `n.*, a.login_name AS "loginName"`,
      from: `FROM notice_outbox n JOIN accounts a ON a.id = n.account_id WHERE ${conds.join(' AND ')}`,
      order: 'n.id DESC',
      params,
      page: b,
    });
    return {
      State: State.OK,
      Total: total,
      Items: rows.map((r) => ({
        Id: Number(r.id),
        Channel: r.channel as 'sms' | 'email',
        UserId: Number(r.account_id),
        LoginName: String(r.loginName),
        AlarmId: r.alarm_id === null ? null : Number(r.alarm_id),
        Imei: String(r.imei),
        Recipient: String(r.recipient),
        Subject: String(r.subject),
        Text: String(r.body),
        Segments: Number(r.segments),
        Status: r.status as 'pending',
        Attempts: Number(r.attempts),
        Error: String(r.last_error),
        CreatedAt: iso(r.created_at as string)!,
        DoneAt: iso(r.done_at as string | null),
      })),
    };
  }),

  defineCall('/SMS/Changes', async (ctx, b) => {
    const { total, rows } = await pagedQuery<Row>(ctx.deps.database, {
      select: `c.*, a.login_name AS "loginName"`,
      from: `FROM sms_changes c JOIN accounts a ON a.id = c.account_id WHERE a.path LIKE $1`,
      order: 'c.id DESC',
      params: [await subtreeOf(ctx, b.UserId)],
      page: b,
    });
    return {
      State: State.OK,
      Total: total,
      Items: rows.map((r) => ({
        Id: Number(r.id),
        UserId: Number(r.account_id),
        LoginName: String(r.loginName),
        Kind: r.kind as 'recharge',
        Amount: Number(r.amount),
        Remaining: Number(r.remaining),
        ByName: String(r.by_name),
        Remark: String(r.remark),
        NoticeId: r.notice_id === null ? null : Number(r.notice_id),
        CreatedAt: iso(r.created_at as string)!,
      })),
    };
  }),
];
