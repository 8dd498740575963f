// Retention of the time series (contract/src/schemas/retention.ts): the root account's row of
// data_retention is the platform default, a top-level account's row overrides it for its subtree.
// Only the root account (with platform.edit) changes either: retention decides what every tenant
// loses, and the platform's disk is the root's concern. The days are applied by the retention job
// of db/partitions.ts.
import { eq } from 'drizzle-orm';
import { grants, type RetentionDays, type RetentionSetting, type SaveRetentionBody } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { BUILT_IN_RETENTION, loadPolicy, partitionRetention, SERIES, type RetentionPolicy, type SeriesKind } from '../../db/partitions.js';
import { accounts, dataRetention } from '../../db/schema/index.js';
import { fieldError } from '../../lib/errors.js';
import { accountInScope, type AccountRow } from '../../lib/scope.js';
import { pathIds } from '../platform/brand.js';

const daysOf = (r: Record<SeriesKind, number>): RetentionDays => ({ Positions: r.positions, Health: r.health, Events: r.events });

type Row = typeof dataRetention.$inferSelect;
const settingOf = (r: Row | undefined): RetentionSetting => ({ Positions: r?.positionsDays ?? null, Health: r?.healthDays ?? null, Events: r?.eventsDays ?? null });

/** The account's level: the root (platform default), a top-level account (override), or below one. */
function levelOf(account: AccountRow): { level: 'platform' | 'topLevel' | 'below'; topLevelId: number | null } {
  const ids = pathIds(account.path);
  if (ids.length <= 1) return { level: 'platform', topLevelId: null };
  return { level: ids.length === 2 ? 'topLevel' : 'below', topLevelId: ids[1]! };
}

async function answer(ctx: AuthedContext, db: Db, account: AccountRow, policy: RetentionPolicy) {
  const { level, topLevelId } = levelOf(account);
  const ownId = level === 'platform' ? account.id : topLevelId;
  const [own] = ownId === null ? [] : await db.select().from(dataRetention).where(eq(dataRetention.accountId, ownId));
  const [top] = topLevelId === null ? [] : await db.select({ name: accounts.loginName }).from(accounts).where(eq(accounts.id, topLevelId));
  const override = topLevelId === null ? undefined : policy.overrides.get(topLevelId);
  const effective = Object.fromEntries(SERIES.map((k) => [k, override?.[k] ?? policy.platform[k]])) as Record<SeriesKind, number>;
  const caller = levelOf({ path: ctx.user.path } as AccountRow);
  return {
    State: 200 as const,
    UserId: account.id,
    Level: level,
    BuiltIn: daysOf(BUILT_IN_RETENTION),
    Platform: daysOf(policy.platform),
    Effective: daysOf(effective),
    Own: settingOf(own),
    TopLevelId: topLevelId,
    TopLevelName: top?.name ?? null,
    PartitionDays: daysOf(Object.fromEntries(SERIES.map((k) => [k, partitionRetention(policy, k)])) as Record<SeriesKind, number>),
    Editable: caller.level === 'platform' && level !== 'below' && grants(ctx.user.actions, 'platform.edit'),
  };
}

export async function info(ctx: AuthedContext, body: { UserId?: number }) {
  const db = ctx.deps.database.db;
  const account = await accountInScope(db, ctx.user, body.UserId);
  return answer(ctx, db, account, await loadPolicy(ctx.deps.database));
}

export async function save(ctx: AuthedContext, body: SaveRetentionBody) {
  const db = ctx.deps.database.db;
  const account = await accountInScope(db, ctx.user, body.UserId);
  if (levelOf({ path: ctx.user.path } as AccountRow).level !== 'platform') throw fieldError('UserId', 'retention.rootOnly');
  const { level } = levelOf(account);
  if (level === 'below') throw fieldError('UserId', 'retention.notTopLevel', { name: account.loginName });
  const values = { positionsDays: body.Positions, healthDays: body.Health, eventsDays: body.Events, updatedAt: new Date() };
  await db.insert(dataRetention).values({ accountId: account.id, ...values }).onConflictDoUpdate({ target: dataRetention.accountId, set: values });
  return answer(ctx, db, account, await loadPolicy(ctx.deps.database));
}

