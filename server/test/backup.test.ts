// `npm run backup` and `npm run restore` on both databases: seed, change, back up, restore into an
// empty place, start the platform there, and find every table's row count and checksum, a few
// calls' answers and the uploaded files as they were. A restore into a place that is not empty, or
// of another database kind, is refused and changes nothing.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { startPlatform, type Platform } from '../src/platform.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { createPgDatabase, databases, startTestPlatform, testConfig, type DbKind, type TestPlatform } from './helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const exec = promisify(execFile);

/** `npm run backup|restore -- FILE` as an operator types it, against the place the environment names. */
async function cli(action: 'backup' | 'restore', file: string, dataDir: string, databaseUrl?: string): Promise<{ stdout: string; stderr: string; code: number }> {
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: databaseUrl ?? '' };
  return exec('npm', ['run', '-s', action, '--', file], { cwd: root, env }).then(
    (r) => ({ ...r, code: 0 }),
    (err: { stdout: string; stderr: string; code: number }) => ({ stdout: err.stdout, stderr: err.stderr, code: err.code }),
  );
}

/** Every table of the platform: its row count and a checksum of its rows. */
async function fingerprint(db: Database): Promise<Record<string, string>> {
  const tables = await db.query<{ name: string }>(
    `SELECT format('%I.%I', schemaname, tablename) AS name FROM pg_tables WHERE schemaname IN ('public', 'drizzle') ORDER BY 1`,
  );
  const out: Record<string, string> = {};
  for (const { name } of tables) {
    const [row] = await db.query<{ n: number; sum: string }>(
      `SELECT count(*)::int AS n, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS sum FROM ${name} t`,
    );
    out[name] = `${row!.n} ${row!.sum}`;
  }
  return out;
}

/** A few calls' answers as an administrator sees them. */
async function answers(url: string) {
  const call = async (p: string, body: unknown, token?: string) =>
    (await fetch(`${url}/api${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    }).then((r) => r.json())) as Record<string, any>;
  const token = (await call('/User/Login', { LoginName: 'admin', Password: 'admin123' })).AccessToken as string;
  return {
    children: await call('/user/childrenUsers', { PageCount: 100 }, token),
    roles: await call('/DeviceRole/List', { PageCount: 100 }, token),
    types: await call('/ExceptionMessage/ExceptionType', { PageCount: 100 }, token),
    stores: await call('/Inventory/StoreList', { PageCount: 100 }, token),
  };
}

describe.each(databases())('backup and restore on %s', (kind: DbKind) => {
  const cleanup: (() => Promise<unknown> | unknown)[] = [];
  afterAll(async () => {
    for (const c of cleanup.reverse()) await c();
  });

  it('restores into an empty place a platform with the same rows, answers and files', async () => {
    const p: TestPlatform = await startTestPlatform(kind);
    cleanup.push(() => p.stop());
    const admin = (await p.login()).token;
    // Changes beyond the demo: an account, a role, and an avatar file beside the database.
    expect((await p.call('/user/registerNewUser', { LoginName: 'backup01', Password: 'abc123', UserType: 1 }, admin)).body.State).toBe(200);
    expect((await p.call('/DeviceRole/Save', { Name: 'Night shift', Color: 'blue' }, admin)).body.State).toBe(200);
    const avatar = `${'ab'.repeat(16)}.png`;
    const bytes = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    mkdirSync(path.join(p.dataDir, 'uploads', 'avatars'), { recursive: true });
    writeFileSync(path.join(p.dataDir, 'uploads', 'avatars', avatar), bytes);

    const before = await answers(p.url);
    const databaseUrl = kind === 'postgres' ? (p.deps.config.DATABASE_URL as string) : undefined;
    // Stopped, so every write (the operation log's too) is in. The embedded database must be: one
    // process opens it; PostgreSQL's dump is consistent while the platform runs.
    await p.close();

    const work = mkdtempSync(path.join(tmpdir(), 'wt-backup-test-'));
    cleanup.push(() => rmSync(work, { recursive: true, force: true }));
    const file = path.join(work, 'platform.backup');
    const made = await cli('backup', file, p.dataDir, databaseUrl);
    expect(made.stdout).toMatch(/^backed up .* to .*platform\.backup: \d+ migrations, 1 files/);
    expect(existsSync(file)).toBe(true);

    // The original's fingerprint, read through a connection of its own.
    const db = await openDatabase({ dataDir: p.dataDir, url: databaseUrl, migrate: false });
    const original = await fingerprint(db);
    await db.close();

    // Into an empty place.
    const dataDir = path.join(work, 'restored');
    mkdirSync(dataDir);
    const target = kind === 'postgres' ? await createPgDatabase() : undefined;
    if (target) cleanup.push(() => target.drop());
    const restored = await cli('restore', file, dataDir, target?.url);
    expect(restored.stdout, restored.stderr).toMatch(/^restored .* from .*platform\.backup/);

    // Refused: again into the same (no longer empty) place, or a backup of the other kind.
    const again = await cli('restore', file, dataDir, target?.url);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not empty|already holds tables/);
    const other = await cli('restore', file, path.join(work, 'other'), kind === 'pglite' ? process.env.TEST_DATABASE_URL : undefined);
    if (kind === 'postgres' || process.env.TEST_DATABASE_URL) {
      expect(other.code).toBe(1);
      expect(other.stderr).toMatch(/holds a (pglite|postgres) database/);
    }

    const config = testConfig(dataDir, target ? { DATABASE_URL: target.url } : {});
    const second: Platform = await startPlatform(config);
    cleanup.push(() => second.close());
    // Compared before any call writes (a login logs itself).
    const after = await fingerprint(second.deps.database);
    expect(Object.keys(after).length).toBeGreaterThan(40);
    expect(after).toEqual(original);
    expect(await answers(second.url)).toEqual(before);
    const served = await fetch(`${second.url}/api/uploads/avatars/${avatar}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(bytes);
    expect(readFileSync(path.join(dataDir, 'uploads', 'avatars', avatar))).toEqual(bytes);
  }, 240_000);
});
