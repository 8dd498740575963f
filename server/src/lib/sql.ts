// Raw SQL through Drizzle's template (parameters stay bound) with the same answer shape on PGlite
// and node-postgres, for the queries that are clearer written out (lists with many joins).
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type SQL } from 'drizzle-orm';
import type { Db, QueryFn } from '../db/client.js';

export async function rows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const r = (await db.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

/** A text[] parameter (values already checked to be digits and letters). */
export const textArray = (xs: readonly string[]) => sql`${`{${xs.join(',')}}`}::text[]`;
export const intArray = (xs: readonly number[]) => sql`${`{${xs.map((x) => Math.trunc(x)).join(',')}}`}::int[]`;

/**
 * Rows a large import writes per transaction (IMPORT_CHUNK_ROWS). By default 500 on the embedded
 * database, which runs one transaction at a time in the server's thread, so that device writes and
 * calls wait for at most one short slice; 10 000 on PostgreSQL, which runs beside the server and
 * where each transaction costs round trips.
 */
export function importSlice(deps: { config: { IMPORT_CHUNK_ROWS?: number }; database: { kind: 'pglite' | 'postgres' } }): number {
  return deps.config.IMPORT_CHUNK_ROWS ?? (deps.database.kind === 'pglite' ? 500 : 10_000);
}

/**
 * Runs `fn` over `items` a slice of `size` at a time, in order, letting the event loop turn before
 * each slice. A large import writes each slice in a transaction of its own: with the embedded
 * database (one connection, in the server's thread) the device acknowledgements and calls that
 * arrived meanwhile are queued for it before the next slice is.
 */
export async function inSlices<T>(items: readonly T[], size: number, fn: (slice: T[], start: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += size) {
    await nextTurn();
    await fn(items.slice(i, i + size), i);
  }
}

/** ISO text of a timestamp column (Date on both drivers), null stays null. */
export function iso(v: Date | string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  return (v instanceof Date ? v : new Date(v)).toISOString();
}

/** A LIKE pattern matching `text` anywhere, with the pattern characters escaped. */
export function contains(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Joins conditions with AND (TRUE when there are none). */
export function allOf(conds: SQL[]): SQL {
  return conds.length ? sql.join(conds, sql` AND `) : sql`TRUE`;
}

/** Postgres unique violation. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/**
 * The total and one page of a query written out: `from` is its FROM … WHERE part (with `$n`
 * parameters), `select` the columns and `order` its ORDER BY; pages count from 1.
 */
export async function pagedQuery<T = Record<string, unknown>>(
  database: { query: QueryFn },
  q: { select: string; from: string; order: string; params: unknown[]; page: { PageNo: number; PageCount: number } },
): Promise<{ total: number; rows: T[] }> {
  const [t] = await database.query<{ n: number }>(`SELECT count(*)::int AS n ${q.from}`, q.params);
  const offset = (q.page.PageNo - 1) * q.page.PageCount;
  const list = await database.query<T>(`SELECT ${q.select} ${q.from} ORDER BY ${q.order} LIMIT ${Number(q.page.PageCount)} OFFSET ${Number(offset)}`, q.params);
  return { total: Number(t?.n ?? 0), rows: list };
}
