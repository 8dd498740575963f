// Test databases migrated once per run: a vitest global setup runs the migrations once, on an
// embedded data directory (PGlite) and, when TEST_DATABASE_URL is set, on a PostgreSQL template
// database; each test platform then starts from a copy of them instead of migrating from scratch.
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A PGlite data directory holding every migration and nothing else (copied per test platform). */
    pgliteSnapshot?: string;
    /** A PostgreSQL template database holding every migration (`CREATE DATABASE ... TEMPLATE` per test database). */
    pgTemplate?: string;
  }
}

/** Runs the migrations on a new PGlite data directory; answers its directory (the `pg` of a DATA_DIR). */
export async function makePgliteSnapshot(): Promise<{ dir: string; remove: () => void }> {
  const root = mkdtempSync(path.join(tmpdir(), 'wt-snapshot-'));
  const database = await openDatabase({ dataDir: root });
  await database.close();
  return { dir: path.join(root, 'pg'), remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** Starts the data directory `dataDir` (a platform's DATA_DIR) as a copy of the snapshot. */
export function copySnapshot(snapshot: string, dataDir: string): void {
  mkdirSync(dataDir, { recursive: true });
  cpSync(snapshot, path.join(dataDir, 'pg'), { recursive: true });
}

async function admin<T>(base: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: base });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/**
 * Creates a PostgreSQL database (on the server of `base`) holding every migration, marked as a
 * template nobody connects to, so that any number of test databases can be copied from it at once.
 */
export async function makePgTemplate(base: string): Promise<{ name: string; remove: () => Promise<void> }> {
  const name = `wt_template_${Date.now()}_${randomBytes(3).toString('hex')}`;
  await admin(base, (c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 1 });
  await database.close();
  await admin(base, (c) => c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`));
  return {
    name,
    remove: () =>
      admin(base, async (c) => {
        await c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`);
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      }),
  };
}
