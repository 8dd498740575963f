// Upgrades keep data: today's platform starts on a database made by an earlier version of this
// repository (fixtures/README.md), applies the migrations it lacks, and reads every row it held.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsApplied, openDatabase, type Database } from '../src/db/client.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { createPgDatabase, databases, testConfig } from './helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.join(here, 'fixtures/upgrade-835348f.sql.gz');
const JOURNAL = path.join(here, '../src/db/migrations/meta/_journal.json');
const TABLES = ['accounts', 'devices', 'alarms', 'positions', 'device_state', 'device_models', 'device_groups', 'scenes', 'settings'] as const;

async function counts(database: Database): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = (await database.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${t}`))[0]!.n;
  return out;
}

const migrationsRun = async (database: Database) =>
  (await database.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations'))[0]!.n;

describe.each(databases())('upgrade from an earlier version on %s', (kind) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-upgrade-'));
  let pgdb: Awaited<ReturnType<typeof createPgDatabase>> | undefined;
  let platform: Platform | undefined;
  let before: Record<string, number>;

  beforeAll(async () => {
    const dump = gunzipSync(readFileSync(FIXTURE)).toString('utf8');
    if (kind === 'postgres') {
      pgdb = await createPgDatabase();
      const c = new pg.Client({ connectionString: pgdb.url });
      await c.connect();
      await c.query(dump);
      await c.end();
    } else {
      const { PGlite } = await import('@electric-sql/pglite');
      const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
      const old = new PGlite(path.join(dataDir, 'pg'), { extensions: { pg_trgm } });
      await old.exec(dump);
      await old.close();
    }
    const database = await openDatabase({ dataDir, url: pgdb?.url, migrate: false });
    before = await counts(database);
    expect(await migrationsRun(database)).toBe(21);
    await database.close();
  }, 120_000);

  afterAll(async () => {
    await platform?.close();
    await pgdb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies the migrations it lacks, keeps every row, and its data reads through the calls', { timeout: 120_000 }, async () => {
    // What the fixture holds (the counts its README names), so that a fixture emptied by mistake fails.
    expect(before).toMatchObject({ accounts: 5, devices: 75, alarms: 9, positions: 1728 });

    // The API role only: the retention job would drop the fixture's days once they are past retention.
    platform = await startPlatform(testConfig(dataDir, { DEMO: '0', ROLES: 'api', ...(pgdb ? { DATABASE_URL: pgdb.url } : {}) }));
    const database = platform.deps.database;
    const carried = (JSON.parse(readFileSync(JOURNAL, 'utf8')) as { entries: unknown[] }).entries.length;
    expect(carried).toBeGreaterThan(21);
    expect(await migrationsRun(database)).toBe(carried);
    expect(await migrationsApplied(database)).toBe(true);
    // Compared before any call writes (a login logs itself and may add settings).
    const after = await counts(database);
    expect({ ...after, settings: undefined }).toEqual({ ...before, settings: undefined });
    expect(after.settings).toBeGreaterThanOrEqual(before.settings!);

    const call = async (p: string, body: unknown, token?: string) => {
      const res = await fetch(`${platform!.url}/api${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      return (await res.json()) as any;
    };
    const login = await call('/User/Login', { LoginName: 'admin', Password: 'admin123' });
    expect(login.State).toBe(0);
    const token = login.AccessToken as string;

    const devices = await call('/Device/devicesByUserId', { PageNo: 1, PageCount: 100 }, token);
    expect(devices.State).toBe(200);
    expect(devices.Total).toBe(75);

    const alarms = await call('/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 50 }, token);
    expect(alarms.State).toBe(200);
    expect(alarms.Total).toBe(9);

    const [first] = await database.query<{ id: number }>('SELECT id FROM devices ORDER BY id LIMIT 1');
    const day = Date.parse('2026-11-26T00:00:00Z');
    const history = await call('/device/devicesHistory', { DeviceId: first!.id, Start: day, End: day + 86_400_000 - 1 }, token);
    expect(history.State).toBe(200);
    expect(history.Total).toBe(144);
  });
});
