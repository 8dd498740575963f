// The function switches of SPEC §3 User state, and who may turn which (docs/decisions.md):
// - display switches (SOS animation, account-fence display, indoor, data show, health data, device
//   labels) are the account's own: it turns them itself; an account above it needs function.edit;
// - service switches (batch command, weather push, send by role, message service) are granted by
//   an account above with function.edit, never by the account to itself (the root account, which
//   has no one above it, sets its own), and never beyond what the granting account has itself.
//   Turning a service off turns it off for the whole subtree below, so no account keeps a service
//   its upper account lost.
import { and, eq, like, sql } from 'drizzle-orm';
import type { FunctionSwitch } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { accounts } from '../../db/schema/index.js';
import { fieldError } from '../../lib/errors.js';
import { requireAction } from '../../plugins/calls.js';
import { accountInScope, type AccountRow } from '../../lib/scope.js';
import { toUserInfo } from '../user/service.js';

type Switch = FunctionSwitch | 'isShowMapLabel';
type Column = 'switchAnimation' | 'isShowMonitorFence' | 'isInnerDoor' | 'isDataShow' | 'isHealthData' | 'isShowMapLabel' | 'switchFunctionSendCmd' | 'isWeatherConfig' | 'isSendMsgByRole' | 'isSendMessage';

const COLUMN: Record<Switch, Column> = {
  switchAnimation: 'switchAnimation',
  IsShowMonitorFence: 'isShowMonitorFence',
  IsInnerDoor: 'isInnerDoor',
  IsDataShow: 'isDataShow',
  IsHealthData: 'isHealthData',
  isShowMapLabel: 'isShowMapLabel',
  switchFunctionSendCmd: 'switchFunctionSendCmd',
  isWeatherConfig: 'isWeatherConfig',
  isSendMsgByRole: 'isSendMsgByRole',
  isSendMessage: 'isSendMessage',
};
const SERVICE = new Set<Switch>(['switchFunctionSendCmd', 'isWeatherConfig', 'isSendMsgByRole', 'isSendMessage']);

export type SwitchChanges = Partial<Record<Switch, 1 | 2 | undefined>>;

/** Applies the switches that change, after checking the rules; refuses all of them if one is refused. */
export async function applySwitches(ctx: AuthedContext, db: Db, target: AccountRow, changes: SwitchChanges): Promise<void> {
  const changed = (Object.entries(changes) as [Switch, 1 | 2 | undefined][]).filter(
    ([k, v]) => v !== undefined && (k === 'isShowMapLabel' ? (target.isShowMapLabel === 1 ? 1 : 2) : target[COLUMN[k]]) !== v,
  );
  if (changed.length === 0) return;
  const self = target.id === ctx.user.id;
  if (!self) requireAction(ctx.user, 'function.edit', ctx.locale);
  let caller: AccountRow | undefined;
  for (const [k, v] of changed) {
    if (!SERVICE.has(k)) continue;
    caller ??= (await db.select().from(accounts).where(eq(accounts.id, ctx.user.id)))[0];
    const root = caller?.parentId === null;
    if (self && !root) throw fieldError(k, 'platform.serviceSelf');
    if (v === 1 && !root && caller?.[COLUMN[k]] !== 1) throw fieldError(k, 'platform.serviceNotHeld');
  }
  const set = Object.fromEntries(changed.map(([k, v]) => [COLUMN[k], v]));
  await db
    .update(accounts)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(accounts.id, target.id));
  const lost = changed.filter(([k, v]) => SERVICE.has(k) && v === 2).map(([k]) => COLUMN[k]);
  if (lost.length) {
    await db
      .update(accounts)
      .set(Object.fromEntries(lost.map((c) => [c, 2])))
      .where(and(like(accounts.path, `${target.path}%`), sql`${accounts.id} <> ${target.id}`));
  }
}

export async function editSwitches(ctx: AuthedContext, body: { UserId?: number } & SwitchChanges) {
  const db = ctx.deps.database.db;
  const target = await accountInScope(db, ctx.user, body.UserId);
  const { UserId: _id, ...changes } = body;
  await db.transaction(async (tx) => applySwitches(ctx, tx as unknown as Db, target, changes));
  const [fresh] = await db.select().from(accounts).where(eq(accounts.id, target.id));
  return { State: 200 as const, UserInfo: await toUserInfo(ctx, fresh!) };
}
