// Test harness: starts a real platform (HTTP on a free port) on a fresh database: PGlite in a new data
// directory always, and a new PostgreSQL database per instance when TEST_DATABASE_URL is set (CI sets
// it). Both start as copies of the databases the run's global setup migrated once (db-snapshot.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startPlatform, type Platform, type PlatformOptions } from '../src/platform.js';
import { copySnapshot } from './db-snapshot.js';

export type DbKind = 'pglite' | 'postgres';

/** The databases server tests run on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set. */
export function databases(): DbKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

/**
 * A new PostgreSQL database on TEST_DATABASE_URL's server: empty, or with `migrated` a copy of the
 * run's migrated template (when the global setup made one; else empty, and the platform migrates it).
 */
export async function createPgDatabase(opts: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `wt_test_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const template = opts.migrated ? inject('pgTemplate') : undefined;
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  await admin.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base.toString() });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export interface TestPlatform extends Platform {
  /** POST /api/<path> with a JSON body; returns HTTP status and the parsed answer. */
  call<T = any>(path: string, body?: unknown, token?: string, headers?: Record<string, string>): Promise<{ status: number; body: T }>;
  /** Logs in and returns the access token and the full login answer. */
  login(loginName?: string, password?: string): Promise<{ token: string; userId: number; refreshToken: string }>;
  dataDir: string;
  /** Stops the platform and removes its database and data directory. */
  stop(): Promise<void>;
}

/** A test platform's configuration: any free ports on this host, quiet, no simulation, `dataDir`. */
export function testConfig(dataDir: string, env: Record<string, string> = {}) {
  return loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    WATCH_PORT: '0',
    GT06_PORT: '0',
    OSMAND_PORT: '0',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    SIMULATE: '0',
    ...env,
  });
}

export async function startTestPlatform(
  kind: DbKind = 'pglite',
  env: Record<string, string> = {},
  /** `now`: the clock of the login limits and unlock links; `lookup`: the resolver of outbound requests. */
  opts: PlatformOptions = {},
): Promise<TestPlatform> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-test-'));
  const snapshot = inject('pgliteSnapshot');
  if (kind === 'pglite' && snapshot && !env.DATABASE_URL) copySnapshot(snapshot, dataDir);
  const pgdb = kind === 'postgres' ? await createPgDatabase({ migrated: true }) : undefined;
  const config = testConfig(dataDir, { DEMO: '1', ...(pgdb ? { DATABASE_URL: pgdb.url } : {}), ...env });
  const platform = await startPlatform(config, opts);
  const call: TestPlatform['call'] = async (p, body = {}, token, headers = {}) => {
    const res = await fetch(`${platform.url}/api${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as never };
  };
  return {
    ...platform,
    dataDir,
    call,
    async login(loginName = 'admin', password = 'admin123') {
      const r = await call('/User/Login', { LoginName: loginName, Password: password });
      if (r.body.State !== 0) throw new Error(`login ${loginName} failed: ${JSON.stringify(r.body)}`);
      return { token: r.body.AccessToken, userId: r.body.Item.UserId, refreshToken: r.body.refreshToken };
    },
    async stop() {
      await platform.close();
      await pgdb?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a PL/pgSQL statement whenever a row with this IMEI is inserted into `table` (default: the
 * insert fails, as on a full disk or a lost connection), until the answered function is called.
 */
export async function onInsertOf(p: TestPlatform, table: string, imei: string, action = `RAISE EXCEPTION 'write failed'`): Promise<() => Promise<void>> {
  const db = p.deps.database;
  await db.query(`CREATE FUNCTION wt_test_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF NEW.imei = '${imei}' THEN ${action}; END IF; RETURN NEW; END $$`);
  await db.query(`CREATE TRIGGER wt_test_on_insert BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION wt_test_on_insert()`);
  return async () => {
    await db.query(`DROP TRIGGER wt_test_on_insert ON ${table}`);
    await db.query('DROP FUNCTION wt_test_on_insert()');
  };
}

/**
 * A second API process on the same PostgreSQL database and Redis as `p` (no demo, no gateway
 * ports), for what must reach every process over the bus. Resolves once its bus listens.
 */
export interface PeerProcess {
  url: string;
  close(): Promise<void>;
}

export async function startPeerProcess(p: TestPlatform, redisUrl: string): Promise<PeerProcess> {
  const dir = mkdtempSync(path.join(tmpdir(), 'wt-peer-'));
  const q = await startPlatform(
    loadConfig({
      DATABASE_URL: p.deps.config.DATABASE_URL,
      REDIS_URL: redisUrl,
      PORT: '0',
      HOST: '127.0.0.1',
      WATCH_PORT: 'off',
      GT06_PORT: 'off',
      OSMAND_PORT: 'off',
      ROLES: 'api',
      DEMO: '0',
      LOG_LEVEL: 'silent',
      DATA_DIR: dir,
    }),
  );
  await q.deps.bus.ready?.();
  return {
    url: q.url,
    async close() {
      await q.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Whether the tests across processes run: they need PostgreSQL and Redis (TEST_DATABASE_URL, TEST_REDIS_URL). */
export const peersAvailable = () => !!process.env.TEST_DATABASE_URL && !!process.env.TEST_REDIS_URL;

/**
 * For a describe block of tests across processes: a platform on a fresh PostgreSQL database with
 * Redis (`p`) and a second API process on the same database and Redis (`q`), started before the
 * block's tests and stopped after them (the fields are set once its beforeAll ran).
 */
export function peerProcesses(): { p: TestPlatform; q: PeerProcess } {
  const redis = process.env.TEST_REDIS_URL!;
  const peers = {} as { p: TestPlatform; q: PeerProcess };
  beforeAll(async () => {
    peers.p = await startTestPlatform('postgres', { REDIS_URL: redis });
    peers.q = await startPeerProcess(peers.p, redis);
  });
  afterAll(async () => {
    await peers.q?.close();
    await peers.p?.stop();
  });
  return peers;
}
