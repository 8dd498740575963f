// Raw SQL through Drizzle's template (parameters stay bound) with the same answer shape on PGlite
// and node-postgres, for the queries that are clearer written out (lists with many joins).
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { sql, type SQL } from 'drizzle-orm';
import { cleanText } from '@wt/protocols';
import type { Db, QueryFn } from '../db/client.js';

export async function rows<T = Record<string, unknown>>(db: Db, query: SQL): Promise<T[]> {
  const r = (await db.execute(query)) as unknown as { rows: T[] };
  return r.rows;
}

/** A text[] parameter (values already checked to be digits and letters). */
export const textArray = (xs: readonly string[]) => sql`${`{${xs.join(',')}}`}::text[]`;
export const intArray = (xs: readonly number[]) => sql`${`{${xs.map((x) => Math.trunc(x)).join(',')}}`}::int[]`;

/** How a large import goes: rows per transaction, and how long to rest after each, as a share of its time. */
export interface ImportPace {
  rows: number;
  rest: number;
}

/**
 * The pace of large imports. On the embedded database, which runs one transaction at a time in the
 * server's thread, 500 rows (IMPORT_CHUNK_ROWS) per transaction and a rest as long as the slice
 * took: device writes and calls, even those of several queries, then wait for one short slice, and
 * the database spends at most half its time on the import. On PostgreSQL, which runs beside the
 * server and where each transaction costs round trips, 2 000 rows and no rest: building the
 * statement of a larger slice holds the event loop long enough to show in device acks (bench:stall).
 */
export function importPace(deps: { config: { IMPORT_CHUNK_ROWS?: number }; database: { kind: 'pglite' | 'postgres' } }): ImportPace {
  const embedded = deps.database.kind === 'pglite';
  return { rows: deps.config.IMPORT_CHUNK_ROWS ?? (embedded ? 500 : 2_000), rest: embedded ? 1 : 0 };
}

/**
 * Runs `fn` over `items` a slice of `pace.rows` at a time, in order, letting the event loop turn
 * before each slice and resting after it for `pace.rest` times as long as it took. A large import
 * writes each slice in a transaction of its own: with the embedded database, the device
 * acknowledgements and calls that arrived meanwhile get the database between the slices.
 */
export async function inSlices<T>(items: readonly T[], pace: ImportPace, fn: (slice: T[], start: number) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += pace.rows) {
    await nextTurn();
    const started = performance.now();
    await fn(items.slice(i, i + pace.rows), i);
    if (pace.rest > 0 && i + pace.rows < items.length) await sleep((performance.now() - started) * pace.rest);
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

/** A string as any json, jsonb or text column takes it: no NUL, no lone surrogate (U+FFFD instead). */
export const storableText = (s: string) => cleanText(s, Infinity);

function storableJson(_key: string, v: unknown): unknown {
  if (typeof v === 'string') return storableText(v);
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).some((k) => storableText(k) !== k)) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [storableText(k), x]));
  }
  return v;
}

/**
 * JSON text of a value for a `$n::json` / `$n::jsonb` parameter, which PostgreSQL takes whatever
 * strings the value holds: JSON.stringify writes a lone surrogate as an escape (`\ud800`) that
 * PostgreSQL refuses, and NUL as `\u0000`, which jsonb refuses and json cannot give back as text.
 * Strings and keys lose them as a text parameter would (a lone surrogate becomes U+FFFD).
 */
export function jsonParam(v: unknown): string {
  return JSON.stringify(v, storableJson);
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
