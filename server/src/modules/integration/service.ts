// Uplink integrations (POST /api/ingest/<name>), kept to the caller's subtree: a missing id and
// another tenant's answer the same "not found", and a refused call changes nothing.
import { State, type integration as schemas } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import { AppError, conflict } from '../../lib/errors.js';
import { accountInScope } from '../../lib/scope.js';
import { iso, isUniqueViolation } from '../../lib/sql.js';
import * as repo from './repo.js';

type Item = z.infer<typeof schemas.integrationSchema>;
type SaveBody = z.output<typeof schemas.saveIntegrationRequest>;

const notFound = () => new AppError(State.NOT_FOUND, 'integration.notFound');

const toItem = (r: repo.IntegrationRow): Item => ({
  IntegrationId: r.id,
  Name: r.name,
  AccountId: r.accountId,
  AccountName: r.accountName,
  Enabled: r.enabled,
  CreatedAt: iso(r.createdAt)!,
  LastUsedAt: iso(r.lastUsedAt),
});

async function inScope(ctx: AuthedContext, id: number) {
  const row = await repo.integrationInSubtree(ctx.deps.database.db, ctx.user, id);
  if (!row) throw notFound();
  return row;
}

/** A taken name answers its own message, whichever tenant holds it (names are platform-wide). */
async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('integration.nameExists');
    throw err;
  }
}

export async function list(ctx: AuthedContext, q: { PageNo: number; PageCount: number; Name?: string }) {
  const r = await repo.listIntegrations(ctx.deps.database.db, ctx.user, {
    name: q.Name || undefined,
    limit: q.PageCount,
    offset: (q.PageNo - 1) * q.PageCount,
  });
  return { State: State.OK, Total: r.total, Items: r.items.map(toItem) } as const;
}

export async function save(ctx: AuthedContext, b: SaveBody) {
  const { db } = ctx.deps.database;
  if (b.IntegrationId) {
    await inScope(ctx, b.IntegrationId);
    const owner = b.AccountId === undefined ? undefined : await accountInScope(db, ctx.user, b.AccountId);
    await uniqueName(() =>
      repo.updateIntegration(db, b.IntegrationId!, {
        name: b.Name,
        ...(owner ? { accountId: owner.id } : {}),
        ...(b.Enabled === undefined ? {} : { enabled: b.Enabled }),
      }),
    );
    return { State: State.OK, Item: toItem(await inScope(ctx, b.IntegrationId)) } as const;
  }
  const owner = await accountInScope(db, ctx.user, b.AccountId);
  const { token, hash } = repo.newToken();
  const id = await uniqueName(() =>
    repo.insertIntegration(db, {
      name: b.Name,
      accountId: owner.id,
      tokenHash: hash,
      enabled: b.Enabled ?? true,
    }),
  );
  return { State: State.OK, Item: toItem(await inScope(ctx, id)), Token: token } as const;
}

export async function rotateToken(ctx: AuthedContext, id: number) {
  const row = await inScope(ctx, id);
  const { token, hash } = repo.newToken();
  await repo.updateIntegration(ctx.deps.database.db, id, { tokenHash: hash });
  return { State: State.OK, Item: toItem(row), Token: token } as const;
}

/** All or none: one id that is missing or outside the subtree refuses the whole call. */
export async function remove(ctx: AuthedContext, ids: number[]) {
  const { db } = ctx.deps.database;
  const wanted = [...new Set(ids)];
  const found = await repo.idsInSubtree(db, ctx.user, wanted);
  if (found.length !== wanted.length) throw notFound();
  const deleted = await repo.deleteIntegrations(db, found);
  return { State: State.OK, Deleted: deleted } as const;
}
