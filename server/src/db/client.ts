// The database: PGlite embedded in DATA_DIR by default, or a real PostgreSQL with DATABASE_URL.
// Both speak the same dialect, use the same Drizzle schema and the same committed migrations.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type QueryFn = <T = Record<string, unknown>>(text: string, params?: unknown[]) => Promise<T[]>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Raw SQL with positional parameters, for the hot paths (batch writes, COPY-like inserts). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  /**
   * Runs fn inside one transaction on one connection, with raw SQL (the batch writer). On
   * PostgreSQL it also gets the pool client, for COPY.
   */
  transaction<T>(fn: (query: QueryFn, client?: import('pg').PoolClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Node-postgres pool when on PostgreSQL (COPY, LISTEN), undefined on PGlite. */
  pool?: import('pg').Pool;
  /** PGlite only: its data directory as a gzipped tar (backup). */
  dumpDataDir?: () => Promise<Blob>;
}

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

let carried: number | undefined;
/** The migrations this build carries (drizzle's journal, read once). */
function migrationCount(): number {
  carried ??= (JSON.parse(readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;
  return carried;
}

/** Whether the database holds every migration this build carries (readiness). */
export async function migrationsApplied(database: Pick<Database, 'query'>): Promise<boolean> {
  const [row] = await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`);
  return Number(row?.n ?? 0) >= migrationCount();
}

export async function openDatabase(opts: {
  url?: string;
  dataDir?: string;
  poolSize?: number;
  /** Told when an idle pooled connection fails (the server restarted or ended it). */
  onConnectionError?: (err: Error) => void;
  /** Apply the migrations of this build (default); false for backup and restore, which keep the database as it is. */
  migrate?: boolean;
  /** PGlite only: a data directory dump (dumpDataDir) to start the new database from (restore). */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.url) {
    const pg = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    // Timestamps come back as Date objects; bigint counts as numbers (they stay far below 2^53).
    pg.default.types.setTypeParser(20, (v: string) => Number(v));
    const pool = new pg.default.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
    // Without a listener, an idle connection ended by the server (a restart, a failover) would be an
    // uncaught error and take the process down; the pool replaces the connection on next use.
    pool.on('error', (err) => opts.onConnectionError?.(err));
    const db = drizzle(pool, { schema }) as unknown as Db;
    if (opts.migrate !== false) await migrate(drizzle(pool), { migrationsFolder: MIGRATIONS });
    return {
      db,
      kind: 'postgres',
      pool,
      async query<T>(text: string, params: unknown[] = []) {
        return (await pool.query(text, params)).rows as T[];
      },
      async transaction(fn) {
        const client = await pool.connect();
        const query: QueryFn = async <T,>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[];
        let broken: Error | undefined;
        try {
          await client.query('BEGIN');
          const result = await fn(query, client);
          await client.query('COMMIT');
          return result;
        } catch (err) {
          // A connection that cannot even roll back is dropped from the pool instead of reused.
          await client.query('ROLLBACK').catch((e: Error) => (broken = e));
          throw err;
        } finally {
          client.release(broken);
        }
      },
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  // Trigram indexes (account search), as on PostgreSQL.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  let client: InstanceType<typeof PGlite>;
  if (opts.dataDir === ':memory:' || !opts.dataDir) {
    client = new PGlite({ parsers: { 20: (v: string) => Number(v) }, extensions: { pg_trgm } });
  } else {
    const dir = path.resolve(opts.dataDir, 'pg');
    mkdirSync(dir, { recursive: true });
    client = new PGlite(dir, { parsers: { 20: (v: string) => Number(v) }, extensions: { pg_trgm }, ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}) });
  }
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  if (opts.migrate !== false) await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
  return {
    db,
    kind: 'pglite',
    async query<T>(text: string, params: unknown[] = []) {
      return (await client.query(text, params)).rows as T[];
    },
    // PGlite runs one transaction at a time and holds other queries back until it ends.
    transaction: (fn) =>
      client.transaction((tx) => fn(async <T,>(text: string, params: unknown[] = []) => (await tx.query(text, params)).rows as T[])),
    dumpDataDir: () => client.dumpDataDir('gzip'),
    close: () => client.close(),
  };
}
