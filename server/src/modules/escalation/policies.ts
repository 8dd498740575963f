// Escalation policies (contract/src/schemas/escalation.ts): an account's own policy per alarm type,
// or the nearest ancestor's. Read by the calls and by the escalation engine when an alarm opens.
import type { EffectivePolicy, EscalationPolicy, EscalationSaveBody } from '@wt/contract';
import { ESCALATION_ALARM_TYPES } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import type { QueryFn } from '../../db/client.js';
import type { EscalationStepSpec } from '../../db/schema/escalation.js';
import { fieldError } from '../../lib/errors.js';
import { accountInScope, isInSubtree } from '../../lib/scope.js';
import { pathIdsUpward } from '../../rules/alarm-rules.js';

type Row = Record<string, unknown>;

export interface PolicyRow {
  id: number;
  accountId: number;
  alarmType: number;
  enabled: boolean;
  steps: EscalationStepSpec[];
  repeatMinutes: number;
  repeatCap: number;
}

const COLUMNS = `p.id, p.account_id AS "accountId", p.alarm_type AS "alarmType", p.enabled, p.steps, p.repeat_minutes AS "repeatMinutes", p.repeat_cap AS "repeatCap"`;

const policyOf = (r: Row): PolicyRow => ({
  id: Number(r.id),
  accountId: Number(r.accountId),
  alarmType: Number(r.alarmType),
  enabled: r.enabled === true,
  steps: r.steps as EscalationStepSpec[],
  repeatMinutes: Number(r.repeatMinutes),
  repeatCap: Number(r.repeatCap),
});

/** The policy in force for an alarm type of the account at `path`: its own or the nearest ancestor's (disabled ones included). */
export async function effectivePolicy(q: QueryFn, path: string, alarmType: number): Promise<PolicyRow | null> {
  const ids = pathIdsUpward(path);
  if (!ids.length) return null;
  const rows = await q<Row>(`SELECT ${COLUMNS} FROM escalation_policies p WHERE p.alarm_type = $2 AND p.account_id = ANY($1::int[])`, [ids, alarmType]);
  for (const id of ids) {
    const r = rows.find((x) => Number(x.accountId) === id);
    if (r) return policyOf(r);
  }
  return null;
}

const toContract = (p: PolicyRow): EscalationPolicy => ({
  Id: p.id,
  UserId: p.accountId,
  AlarmType: p.alarmType,
  Enabled: p.enabled,
  Steps: p.steps.map((s) => ({ Wait: s.wait, Contacts: s.contacts, DutyUsers: s.dutyUsers, Parent: s.parent, Channels: s.channels })),
  RepeatMinutes: p.repeatMinutes,
  RepeatCap: p.repeatCap,
});

async function effectiveList(q: QueryFn, account: { id: number; path: string }, types: readonly number[]): Promise<EffectivePolicy[]> {
  const ids = pathIdsUpward(account.path);
  const rows = await q<Row>(
    `SELECT ${COLUMNS}, a.login_name AS "name" FROM escalation_policies p JOIN accounts a ON a.id = p.account_id
      WHERE p.account_id = ANY($1::int[]) AND p.alarm_type = ANY($2::int[])`,
    [ids, [...types]],
  );
  return types.map((t) => {
    for (const id of ids) {
      const r = rows.find((x) => Number(x.accountId) === id && Number(x.alarmType) === t);
      if (r) return { AlarmType: t, Policy: toContract(policyOf(r)), Inherited: id !== account.id, FromUserId: id, FromUserName: String(r.name) };
    }
    return { AlarmType: t, Policy: null, Inherited: false, FromUserId: null, FromUserName: null };
  });
}

const query = (ctx: AuthedContext): QueryFn => (text, params) => ctx.deps.database.query(text, params);

export async function listPolicies(ctx: AuthedContext, body: { UserId?: number }) {
  const account = await accountInScope(ctx.deps.database.db, ctx.user, body.UserId);
  return { State: 200 as const, UserId: account.id, Items: await effectiveList(query(ctx), account, ESCALATION_ALARM_TYPES) };
}

async function answerOne(ctx: AuthedContext, account: { id: number; path: string }, alarmType: number) {
  const [effective] = await effectiveList(query(ctx), account, [alarmType]);
  const own = effective!.Policy && !effective!.Inherited ? effective!.Policy : null;
  return { State: 200 as const, Own: own, Effective: effective! };
}

export async function getPolicy(ctx: AuthedContext, body: { UserId?: number; AlarmType: number }) {
  const account = await accountInScope(ctx.deps.database.db, ctx.user, body.UserId);
  return answerOne(ctx, account, body.AlarmType);
}

export async function savePolicy(ctx: AuthedContext, body: EscalationSaveBody) {
  const db = ctx.deps.database.db;
  const account = await accountInScope(db, ctx.user, body.UserId);
  // Accounts on duty must be the account itself or below it (and so in the caller's subtree).
  const duty = [...new Set(body.Steps.flatMap((s) => s.DutyUsers))];
  if (duty.length) {
    const found = await ctx.deps.database.query<Row>(`SELECT id, path FROM accounts WHERE id = ANY($1::int[])`, [duty]);
    for (const [i, s] of body.Steps.entries()) {
      for (const [j, d] of s.DutyUsers.entries()) {
        const a = found.find((r) => Number(r.id) === d);
        if (!a || !isInSubtree(account, String(a.path))) throw fieldError(`Steps.${i}.DutyUsers.${j}`, 'escalation.dutyUserOutOfScope', { id: d });
      }
    }
  }
  const steps: EscalationStepSpec[] = body.Steps.map((s) => ({ wait: s.Wait, contacts: s.Contacts, dutyUsers: s.DutyUsers, parent: s.Parent, channels: [...new Set(s.Channels)] }));
  await ctx.deps.database.query(
    `INSERT INTO escalation_policies (account_id, alarm_type, enabled, steps, repeat_minutes, repeat_cap, updated_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, now())
     ON CONFLICT (account_id, alarm_type) DO UPDATE SET enabled = EXCLUDED.enabled, steps = EXCLUDED.steps,
       repeat_minutes = EXCLUDED.repeat_minutes, repeat_cap = EXCLUDED.repeat_cap, updated_at = now()`,
    [account.id, body.AlarmType, body.Enabled, JSON.stringify(steps), body.RepeatMinutes, body.RepeatCap],
  );
  return answerOne(ctx, account, body.AlarmType);
}

export async function deletePolicy(ctx: AuthedContext, body: { UserId?: number; AlarmType: number }) {
  const account = await accountInScope(ctx.deps.database.db, ctx.user, body.UserId);
  await ctx.deps.database.query(`DELETE FROM escalation_policies WHERE account_id = $1 AND alarm_type = $2`, [account.id, body.AlarmType]);
  return answerOne(ctx, account, body.AlarmType);
}
