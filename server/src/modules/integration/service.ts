// Uplink integrations (POST /api/ingest/<name>), kept to the caller's subtree: a missing id and
// another tenant's answer the same "not found", and a refused call changes nothing.
import { State, type integration as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import { accountInScope } from '../../lib/scope.js';
import { iso } from '../../lib/sql.js';
import * as repo from './repo.js';

type Item = z.infer<typeof schemas.integrationSchema>;
type SaveBody = z.output<typeof schemas.saveIntegrationRequest>;

const toItem = (r: repo.IntegrationRow): Item => ({
  IntegrationId: r.id,
  Name: r.name,
  AccountId: r.accountId,
  AccountName: r.accountName,
  Enabled: r.enabled,
  CreatedAt: iso(r.createdAt)!,
  LastUsedAt: iso(r.lastUsedAt),
});

const inScope = (ctx: AuthedContext, id: number) => repo.scoped.get(ctx.deps.database.db, ctx.user, id);

export async function list(ctx: AuthedContext, q: { PageNo: number; PageCount: number; Name?: string }) {
  const r = await repo.listIntegrations(ctx.deps.database.db, ctx.user, { ...q, name: q.Name || undefined });
  return { State: State.OK, Total: r.total, Items: r.items.map(toItem) } as const;
}

export async function save(ctx: AuthedContext, b: SaveBody) {
  const { db } = ctx.deps.database;
  if (b.IntegrationId) {
    await inScope(ctx, b.IntegrationId);
    const owner = b.AccountId === undefined ? undefined : await accountInScope(db, ctx.user, b.AccountId);
    await repo.scoped.update(db, ctx.user, b.IntegrationId, {
      name: b.Name,
      ...(owner ? { accountId: owner.id } : {}),
      ...(b.Enabled === undefined ? {} : { enabled: b.Enabled }),
    });
    return { State: State.OK, Item: toItem(await inScope(ctx, b.IntegrationId)) } as const;
  }
  const owner = await accountInScope(db, ctx.user, b.AccountId);
  const { token, hash } = repo.newToken();
  const id = await repo.insertIntegration(db, {
    name: b.Name,
    accountId: owner.id,
    tokenHash: hash,
    enabled: b.Enabled ?? true,
  });
  return { State: State.OK, Item: toItem(await inScope(ctx, id)), Token: token } as const;
}

export async function rotateToken(ctx: AuthedContext, id: number) {
  const row = await inScope(ctx, id);
  const { token, hash } = repo.newToken();
  await repo.scoped.update(ctx.deps.database.db, ctx.user, id, { tokenHash: hash });
  return { State: State.OK, Item: toItem(row), Token: token } as const;
}

/** All or none: one id that is missing or outside the subtree refuses the whole call. */
export async function remove(ctx: AuthedContext, ids: number[]) {
  const done = await repo.scoped.remove(ctx.deps.database.db, ctx.user, ids, { atomic: true });
  return { State: State.OK, Deleted: done.deleted.length } as const;
}
