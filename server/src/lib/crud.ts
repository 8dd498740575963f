// Reading and writing rows that belong to accounts, kept to the caller's subtree: a list with
// filters and paging, one row in scope or "not found" (a missing id and another tenant's answer
// alike), an insert under a per-account limit that two concurrent saves cannot both pass, updates
// and deletes in scope with per-id outcomes, and a taken unique name answered with its own message.
//
//   const roles = scopedCrud({
//     table: deviceRoles, id: deviceRoles.id, owner: deviceRoles.accountId,
//     select: (db) => db.select({ ... }).from(deviceRoles).$dynamic(),
//     notFound: 'device.roleNotFound', unique: 'device.roleNameExists',
//   });
//   await roles.list(db, ctx.user, { filters: [name ? ilike(...) : undefined], page: q });
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import { State } from '@wt/contract';
import type { AuthUser } from '../calls.js';
import type { Db } from '../db/client.js';
import { accounts } from '../db/schema/index.js';
import { AppError, conflict } from './errors.js';
import { ownedBySubtree } from './scope.js';
import { isUniqueViolation, rows } from './sql.js';

/** A transaction of the Drizzle database. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

type Scope = Pick<AuthUser, 'path'>;

export interface ScopedSpec<T extends PgTable, S extends PgSelect> {
  table: T;
  /** The integer primary key. */
  id: PgColumn;
  /** The owning account's id. */
  owner: PgColumn;
  /** The rows as answered: a select of the table (with its joins) made `$dynamic()`. */
  select: (db: Db) => S;
  /** Message key of a row that is missing or outside the subtree. */
  notFound: string;
  /** Message key of a unique violation on insert or update (a taken name). */
  unique?: string;
}

/** How many rows an account may own, and the refusal past it (`{ max }` is its parameter). */
export interface OwnerLimit {
  account: number;
  max: number;
  message: string;
  /** Counts the rows of the account that count towards the limit; default: all the rows it owns. */
  where?: SQL;
}

export interface ListOptions {
  /** Conditions added to the scope; undefined ones (a filter not asked for) are left out. */
  filters?: (SQL | undefined)[];
  /** Default: the id, ascending. */
  orderBy?: (PgColumn | SQL)[];
  /** One page (PageNo from 1); every row without it. */
  page?: { PageNo: number; PageCount: number };
}

/** What a delete did with each id asked for. */
export interface DeleteOutcome {
  deleted: number[];
  refused: { id: number; key: string; params?: Record<string, unknown> }[];
}

export interface DeleteOptions {
  /**
   * Ids of the scope that may not go, with the reason (in use ...): they are kept and reported.
   * Runs in the delete's transaction.
   */
  refuse?: (tx: Tx, ids: number[]) => Promise<Map<number, { key: string; params?: Record<string, unknown> }>>;
  /** Work done before the delete, in its transaction (detaching the rows that point to them). */
  before?: (tx: Tx, ids: number[]) => Promise<void>;
  /** All or nothing: any id missing, outside the scope or refused refuses the whole call (with its reason). */
  atomic?: boolean;
}

type Row<S extends PgSelect> = Awaited<ReturnType<S['execute']>>[number];

export function scopedCrud<T extends PgTable, S extends PgSelect>(spec: ScopedSpec<T, S>) {
  const notFound = () => new AppError(State.NOT_FOUND, spec.notFound);

  /** The scope (rows owned by the subtree) and the given conditions. */
  const where = (user: Scope, filters: (SQL | undefined)[] = []): SQL =>
    and(ownedBySubtree(spec.owner, user), ...filters)!;

  /** Runs a write; a unique violation becomes the spec's conflict message. */
  async function unique<R>(write: () => Promise<R>): Promise<R> {
    try {
      return await write();
    } catch (err) {
      if (spec.unique && isUniqueViolation(err)) throw conflict(spec.unique);
      throw err;
    }
  }

  async function find(db: Db, user: Scope, id: number): Promise<Row<S> | undefined> {
    const [row] = (await spec
      .select(db)
      .where(where(user, [eq(spec.id, id)]))
      .limit(1)) as Row<S>[];
    return row;
  }

  /** Of `ids`, those in scope (each once). */
  async function idsInScope(db: Db | Tx, user: Scope, ids: readonly number[]): Promise<number[]> {
    const wanted = [...new Set(ids)];
    if (!wanted.length) return [];
    const found = await (db as Db)
      .select({ id: spec.id })
      .from(spec.table as PgTable)
      .where(where(user, [inArray(spec.id, wanted)]));
    return found.map((r) => Number(r.id));
  }

  return {
    where,
    unique,
    find,
    idsInScope,

    /** The rows in scope matching the filters, with their total (before paging). */
    async list(db: Db, user: Scope, opts: ListOptions = {}): Promise<{ total: number; items: Row<S>[] }> {
      const w = where(user, opts.filters);
      // Counted over the select itself, so a filter on a joined table counts as it lists.
      const [counted] = await rows<{ n: number }>(
        db,
        sql`SELECT count(*)::int AS n FROM (${spec.select(db).where(w)}) AS scoped`,
      );
      let q = spec
        .select(db)
        .where(w)
        .orderBy(...(opts.orderBy ?? [asc(spec.id)]));
      if (opts.page) q = q.limit(opts.page.PageCount).offset((opts.page.PageNo - 1) * opts.page.PageCount);
      return { total: Number(counted?.n ?? 0), items: (await q) as Row<S>[] };
    },

    /** The row in scope, or the spec's "not found" (the same for a missing id and another tenant's). */
    async get(db: Db, user: Scope, id: number): Promise<Row<S>> {
      const row = await find(db, user, id);
      if (!row) throw notFound();
      return row;
    },

    /**
     * Inserts a row and answers its id. With a limit, the owner's rows are counted and the row
     * inserted in one transaction holding the owner's account row locked (SELECT … FOR UPDATE),
     * so concurrent inserts for one account are counted one after the other.
     */
    async insert(db: Db, values: T['$inferInsert'], limit?: OwnerLimit): Promise<number> {
      const insertRow = async (x: Db | Tx) => {
        const [r] = await (x as Db).insert(spec.table).values(values).returning({ id: spec.id });
        return Number((r as { id: number }).id);
      };
      if (!limit) return unique(() => insertRow(db));
      return unique(() =>
        db.transaction(async (tx) => {
          await tx
            .select({ id: accounts.id })
            .from(accounts)
            .where(eq(accounts.id, limit.account))
            .for('update');
          const [c] = await tx
            .select({ n: count() })
            .from(spec.table as PgTable)
            .where(and(eq(spec.owner, limit.account), limit.where));
          if (Number(c?.n ?? 0) >= limit.max)
            throw new AppError(State.CONFLICT, limit.message, { max: limit.max });
          return insertRow(tx);
        }),
      );
    },

    /** Updates the row in scope (else "not found"); a taken unique value answers the spec's message. */
    async update(db: Db, user: Scope, id: number, values: Partial<T['$inferInsert']>): Promise<void> {
      const [ok] = await idsInScope(db, user, [id]);
      if (ok === undefined) throw notFound();
      if (!Object.keys(values).length) return;
      await unique(() =>
        db
          .update(spec.table)
          .set(values as never)
          .where(eq(spec.id, id)),
      );
    },

    /**
     * Deletes the ids in scope, in one transaction, and says what became of each id asked for:
     * deleted, or refused with the reason (missing or outside the scope: the spec's "not found").
     */
    async remove(
      db: Db,
      user: Scope,
      ids: readonly number[],
      opts: DeleteOptions = {},
    ): Promise<DeleteOutcome> {
      const wanted = [...new Set(ids)];
      return db.transaction(async (tx) => {
        const found = new Set(await idsInScope(tx, user, wanted));
        const refusedInUse = found.size && opts.refuse ? await opts.refuse(tx, [...found]) : new Map();
        const refused: DeleteOutcome['refused'] = [];
        const deleted: number[] = [];
        for (const id of wanted) {
          const reason = !found.has(id) ? { key: spec.notFound } : refusedInUse.get(id);
          if (reason) refused.push({ id, ...reason });
          else deleted.push(id);
        }
        if (opts.atomic && refused.length) {
          const first = refused[0]!;
          throw new AppError(
            first.key === spec.notFound ? State.NOT_FOUND : State.CONFLICT,
            first.key,
            first.params,
          );
        }
        if (deleted.length) {
          await opts.before?.(tx, deleted);
          await tx.delete(spec.table).where(inArray(spec.id, deleted));
        }
        return { deleted, refused };
      });
    },
  };
}
