// Backup and restore of a whole installation: the database (the embedded one's data directory, or
// a pg_dump of PostgreSQL's platform schemas) and the files the platform keeps beside it under
// DATA_DIR (avatars, brand files, app packages). One gzipped tar:
//   manifest.json                 what it holds: format, database kind, migrations, time
//   database/pglite.tar.gz        PGlite's own dump of its data directory, or
//   database/postgres.dump        pg_dump --format=custom of the schemas public and drizzle
//   files/<dir>/...               DATA_DIR/uploads, brand, app
// A restore goes into an empty place only (an empty data directory, a database without tables),
// so it never mixes two installations; the platform then starts on it as usual and applies the
// migrations of its own version (an older backup is upgraded the same way as an older database).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import * as tar from 'tar';
import { openDatabase } from '../db/client.js';

const run = promisify(execFile);

/** The directories of DATA_DIR a backup carries (the embedded database's own is `pg`, carried as a dump). */
export const FILE_DIRS = ['uploads', 'brand', 'app'] as const;
/** The schemas of PostgreSQL the platform owns. */
const PG_SCHEMAS = ['public', 'drizzle'];
const FORMAT = 1;

export interface Manifest {
  format: number;
  database: 'pglite' | 'postgres';
  migrations: number;
  createdAt: string;
  files: string[];
  /** PostgreSQL: the extensions the schemas use (a schema dump leaves them out), created before the restore. */
  extensions?: string[];
}

export interface Place {
  /** DATA_DIR of the installation. */
  dataDir: string;
  /** PostgreSQL's URL; absent: the embedded database in DATA_DIR/pg. */
  databaseUrl?: string;
}

export class BackupError extends Error {}

function walk(root: string, dir = ''): string[] {
  const here = path.join(root, dir);
  if (!existsSync(here)) return [];
  return readdirSync(here, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(root, path.join(dir, e.name)) : e.isFile() ? [path.join(dir, e.name)] : [],
  );
}

async function migrationCount(query: (sql: string) => Promise<{ n: number }[]>): Promise<number> {
  const [row] = await query(`SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations`).catch(() => [{ n: 0 }]);
  return Number(row?.n ?? 0);
}

/**
 * Writes a backup of the installation to `file`. On the embedded database the platform must be
 * stopped (PGlite is opened by one process); PostgreSQL is dumped consistently while it runs.
 */
export async function backup(place: Place, file: string): Promise<Manifest> {
  const work = await mkdtemp(path.join(tmpdir(), 'wt-backup-'));
  try {
    mkdirSync(path.join(work, 'database'));
    let kind: Manifest['database'];
    let migrations: number;
    let extensions: string[] | undefined;
    if (place.databaseUrl) {
      kind = 'postgres';
      const args = ['--format=custom', '--no-owner', '--no-privileges', ...PG_SCHEMAS.map((s) => `--schema=${s}`), `--file=${path.join(work, 'database', 'postgres.dump')}`, place.databaseUrl];
      await run('pg_dump', args, { maxBuffer: 64 * 1024 * 1024 }).catch((err: Error & { stderr?: string }) => {
        throw new BackupError(`pg_dump failed: ${err.stderr?.trim() || err.message}`);
      });
      const db = await openDatabase({ url: place.databaseUrl, poolSize: 1, migrate: false });
      try {
        migrations = await migrationCount((sql) => db.query(sql));
        extensions = (await db.query<{ name: string }>(`SELECT extname AS name FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1`)).map((r) => r.name);
      } finally {
        await db.close();
      }
    } else {
      kind = 'pglite';
      const dir = path.join(place.dataDir, 'pg');
      if (!existsSync(dir)) throw new BackupError(`no embedded database in ${dir}`);
      const db = await openDatabase({ dataDir: place.dataDir, migrate: false });
      try {
        migrations = await migrationCount((sql) => db.query(sql));
        const dump = await db.dumpDataDir!();
        writeFileSync(path.join(work, 'database', 'pglite.tar.gz'), Buffer.from(await dump.arrayBuffer()));
      } finally {
        await db.close();
      }
    }
    const files: string[] = [];
    for (const d of FILE_DIRS) {
      const from = path.join(place.dataDir, d);
      if (!existsSync(from)) continue;
      for (const f of walk(from)) {
        const to = path.join(work, 'files', d, f);
        mkdirSync(path.dirname(to), { recursive: true });
        writeFileSync(to, readFileSync(path.join(from, f)));
        files.push(path.join(d, f));
      }
    }
    const manifest: Manifest = { format: FORMAT, database: kind, migrations, createdAt: new Date().toISOString(), files, ...(extensions ? { extensions } : {}) };
    writeFileSync(path.join(work, 'manifest.json'), JSON.stringify(manifest, null, 2));
    mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    await tar.c({ gzip: true, file, cwd: work, portable: true }, ['manifest.json', 'database', ...(files.length ? ['files'] : [])]);
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Reads the manifest of a backup without unpacking the rest. */
export async function readManifest(file: string): Promise<Manifest> {
  let text = '';
  await tar.t({
    file,
    filter: (p) => p === 'manifest.json',
    onReadEntry: (e) => {
      e.on('data', (c: Buffer) => (text += c.toString('utf8')));
    },
  });
  if (!text) throw new BackupError(`${file} is not a backup of this platform (no manifest.json)`);
  const m = JSON.parse(text) as Manifest;
  if (m.format !== FORMAT) throw new BackupError(`backup format ${m.format} is not ${FORMAT}`);
  return m;
}

/**
 * Restores a backup into an empty place: the data directory holds no database nor files, and on
 * PostgreSQL the database has no tables in the platform's schemas. The backup's database kind must
 * be the place's (a PGlite backup restores onto PGlite, PostgreSQL's onto PostgreSQL).
 */
export async function restore(place: Place, file: string): Promise<Manifest> {
  const manifest = await readManifest(file);
  const kind = place.databaseUrl ? 'postgres' : 'pglite';
  if (manifest.database !== kind) throw new BackupError(`the backup holds a ${manifest.database} database; this installation uses ${kind}`);
  for (const d of [...FILE_DIRS, ...(kind === 'pglite' ? ['pg'] : [])]) {
    const dir = path.join(place.dataDir, d);
    if (existsSync(dir) && readdirSync(dir).length) throw new BackupError(`${dir} is not empty: restore into an empty data directory`);
  }
  if (place.databaseUrl) {
    const db = await openDatabase({ url: place.databaseUrl, poolSize: 1, migrate: false });
    try {
      const [row] = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = ANY($1)`, [PG_SCHEMAS]);
      if (Number(row?.n) > 0) throw new BackupError('the database already holds tables: restore into an empty database');
      for (const ext of manifest.extensions ?? []) {
        if (!/^[a-z_][a-z0-9_]*$/.test(ext)) throw new BackupError(`the backup names an unusable extension: ${ext}`);
        await db.query(`CREATE EXTENSION IF NOT EXISTS ${ext}`);
      }
    } finally {
      await db.close();
    }
  }
  const work = await mkdtemp(path.join(tmpdir(), 'wt-restore-'));
  try {
    await tar.x({ file, cwd: work });
    if (kind === 'postgres') {
      const dump = path.join(work, 'database', 'postgres.dump');
      const failed = (err: Error & { stderr?: string }) => {
        throw new BackupError(`pg_restore failed: ${err.stderr?.trim() || err.message}`);
      };
      // Every entry but the schema public itself (and its comment), which every database already has.
      const { stdout: list } = await run('pg_restore', ['--list', dump], { maxBuffer: 64 * 1024 * 1024 }).catch(failed);
      const entries = list.split('\n').filter((l) => !/^\d+;.*\b(SCHEMA|COMMENT) - (SCHEMA )?public\b/.test(l));
      writeFileSync(path.join(work, 'entries.list'), entries.join('\n'));
      const args = ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--use-list=${path.join(work, 'entries.list')}`, `--dbname=${place.databaseUrl}`, dump];
      await run('pg_restore', args, { maxBuffer: 64 * 1024 * 1024 }).catch(failed);
    } else {
      const dump = readFileSync(path.join(work, 'database', 'pglite.tar.gz'));
      const db = await openDatabase({ dataDir: place.dataDir, migrate: false, loadDataDir: new Blob([dump]) });
      await db.close();
    }
    for (const f of manifest.files) {
      // Only files of the carried directories, never a path that climbs out of them.
      const parts = path.normalize(f).split(path.sep);
      if (!(FILE_DIRS as readonly string[]).includes(parts[0]!) || parts.includes('..') || path.isAbsolute(f)) {
        throw new BackupError(`the backup names a file outside the platform's directories: ${f}`);
      }
      const to = path.join(place.dataDir, f);
      mkdirSync(path.dirname(to), { recursive: true });
      writeFileSync(to, readFileSync(path.join(work, 'files', f)));
    }
    return manifest;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
