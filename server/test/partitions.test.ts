// Daily partitions of positions, health readings and device events: the migration keeps an existing
// installation's rows, a device + time-range query reads only its days' partitions, days are made
// ahead (taking rows the default partition caught), and retention drops whole days at the longest
// retention in force and deletes per account below it; the retention calls and their rules.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { applyRetention, ensurePartitions, listPartitions } from '../src/db/partitions.js';
import { CLAIM_DEVICE_EVENT_SQL, claimParams } from '../src/rules/alarm-engine.js';
import { createPgDatabase, databases, startTestPlatform, type TestPlatform } from './helpers.js';

const DAY = 86_400_000;
const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');
const dayName = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
const startOfDay = (ms: number) => Math.floor(ms / DAY) * DAY;

/** The migrations folder as it was before the migration named `name` (its tag without the number). */
function migrationsBefore(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'wt-mig-'));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const at = journal.entries.findIndex((e) => e.tag.replace(/^\d+_/, '') === name);
  if (at < 0) throw new Error(`no migration named ${name}`);
  for (const e of journal.entries.slice(at)) rmSync(path.join(dir, `${e.tag}.sql`));
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** Table names a plan reads (EXPLAIN's JSON, walked). */
function relations(plan: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(plan)) for (const p of plan) relations(p, out);
  else if (plan && typeof plan === 'object') {
    for (const [k, v] of Object.entries(plan)) {
      if (k === 'Relation Name' && typeof v === 'string') out.add(v);
      else relations(v, out);
    }
  }
  return out;
}

describe.each(databases())('partitioned time series on %s', (kind) => {
  it('the migration turns existing tables into partitioned ones and keeps every row, pending marks and the event ids', { timeout: 120_000 }, async () => {
    const now = Date.now();
    const dir = migrationsBefore('partitioned_series');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-migdata-'));
    const pgdb = kind === 'postgres' ? await createPgDatabase() : undefined;
    let after: Database | undefined;
    try {
      // An installation of the previous version, with data.
      if (pgdb) {
        const pg = await import('pg');
        const { drizzle } = await import('drizzle-orm/node-postgres');
        const { migrate } = await import('drizzle-orm/node-postgres/migrator');
        const pool = new pg.default.Pool({ connectionString: pgdb.url });
        await migrate(drizzle(pool), { migrationsFolder: dir });
        await seedOld((t, p) => pool.query(t, p));
        await pool.end();
      } else {
        const { PGlite } = await import('@electric-sql/pglite');
        const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
        const { drizzle } = await import('drizzle-orm/pglite');
        const { migrate } = await import('drizzle-orm/pglite/migrator');
        const client = new PGlite(path.join(dataDir, 'pg'), { extensions: { pg_trgm } });
        await migrate(drizzle(client), { migrationsFolder: dir });
        await seedOld((t, p) => client.query(t, p));
        await client.close();
      }
      async function seedOld(q: (text: string, params?: unknown[]) => Promise<unknown>) {
        for (const [i, at] of [now, now - 40 * DAY, now - 400 * DAY].entries()) {
          const t = new Date(at).toISOString();
          await q(`INSERT INTO positions (device_id, time, received_at, lat, lon, valid) VALUES ($1, $2, $2, 22.5, 114.0, true)`, [7, t]);
          await q(`INSERT INTO health_readings (device_id, time, received_at, heart_rate, pending) VALUES ($1, $2, $2, 150, $3)`, [7, t, i === 0]);
          await q(`INSERT INTO device_events (device_id, time, received_at, kind, pending) VALUES ($1, $2, $2, 'sos', $3)`, [7, t, i === 0]);
        }
      }

      after = await openDatabase(pgdb ? { url: pgdb.url } : { dataDir });
      const q = after.query.bind(after);
      for (const table of ['positions', 'health_readings', 'device_events']) {
        const [{ kind: relkind }] = await q<{ kind: string }>(`SELECT relkind::text AS kind FROM pg_class WHERE relname = $1`, [table]);
        expect(relkind).toBe('p');
        const rows = await q<{ part: string; time: Date }>(`SELECT tableoid::regclass::text AS part, time FROM ${table} ORDER BY time DESC`);
        // Today's row is in today's partition; 40 and 400 days back are older than the partitions made.
        expect(rows.map((r) => r.part)).toEqual([`${table}_p${dayName(now)}`, `${table}_default`, `${table}_default`]);
      }
      expect(await q(`SELECT count(*)::int AS n FROM health_readings WHERE pending`)).toEqual([{ n: 1 }]);
      const events = await q<{ id: number; pending: boolean }>(`SELECT id, pending FROM device_events ORDER BY id`);
      expect(events.map((e) => e.id)).toEqual([1, 2, 3]);
      expect(events.map((e) => e.pending)).toEqual([true, false, false]);
      // The id sequence carries on, and the primary key holds (id, time).
      const [fresh] = await q<{ id: number }>(`INSERT INTO device_events (device_id, time, received_at, kind) VALUES (7, now(), now(), 'login') RETURNING id`);
      expect(fresh!.id).toBe(4);
      await expect(q(`INSERT INTO device_events (id, device_id, time, received_at, kind) SELECT id, device_id, time, received_at, kind FROM device_events WHERE id = 4`)).rejects.toThrow(/duplicate key/);
      const days = await listPartitions(after);
      expect(days.filter((p) => p.kind === 'positions').map((p) => dayName(p.day.getTime()))).toEqual(
        Array.from({ length: 39 }, (_, i) => dayName(startOfDay(now) + (i - 31) * DAY)),
      );
    } finally {
      await after?.close();
      await pgdb?.drop();
      rmSync(dir, { recursive: true, force: true });
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  describe('on a running platform', () => {
    let p: TestPlatform;
    const tokens: Record<string, string> = {};
    const ids: Record<string, number> = {};
    let q: Database['query'];
    const device: Record<string, number> = {};

    beforeAll(async () => {
      p = await startTestPlatform(kind);
      q = p.deps.database.query.bind(p.deps.database);
      for (const name of ['admin', 'agent01', 'clinic01', 'operator01']) {
        const l = await p.login(name);
        tokens[name] = l.token;
        ids[name] = l.userId;
      }
      // A device of agent01's subtree and one of operator01's (both top-level accounts).
      for (const owner of ['agent01', 'operator01']) {
        const [d] = await q<{ id: number }>(
          `INSERT INTO devices (imei, short_id, name, account_id) VALUES ($1, $2, $3, $4) RETURNING id`,
          [`86${String(ids[owner]).padStart(3, '0')}0000000001`.slice(0, 15), `${ids[owner]}00000001`.slice(0, 10), `ret-${owner}`, ids[owner === 'agent01' ? 'clinic01' : owner]],
        );
        device[owner] = d!.id;
      }
    });
    afterAll(async () => {
      await p?.stop();
    });

    it('a device + time-range query reads only the partitions of its days', async () => {
      const today = startOfDay(Date.now());
      const from = new Date(today - DAY + 3600_000).toISOString();
      const to = new Date(today + 3600_000).toISOString();
      // The history service's own query, parameters included.
      const [row] = await q<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) SELECT lat, lon, time, speed, course FROM positions WHERE device_id = $1 AND time >= $2 AND time <= $3 AND lat IS NOT NULL ORDER BY time`,
        [device.agent01, from, to],
      );
      const plan = typeof row!['QUERY PLAN'] === 'string' ? JSON.parse(row!['QUERY PLAN'] as string) : row!['QUERY PLAN'];
      expect([...relations(plan)].sort()).toEqual([`positions_p${dayName(today - DAY)}`, `positions_p${dayName(today)}`]);
      const [health] = await q<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (FORMAT JSON) SELECT * FROM health_readings WHERE device_id = $1 AND time >= $2 AND time <= $3`,
        [device.agent01, new Date(today + 60_000).toISOString(), new Date(today + 120_000).toISOString()],
      );
      const hp = typeof health!['QUERY PLAN'] === 'string' ? JSON.parse(health!['QUERY PLAN'] as string) : health!['QUERY PLAN'];
      expect([...relations(hp)]).toEqual([`health_readings_p${dayName(today)}`]);
      // The alarm engine's claim of a device event: the event's day only.
      const [claim] = await q<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) ${CLAIM_DEVICE_EVENT_SQL}`, claimParams(1, new Date(today + 60_000)));
      const cp = typeof claim!['QUERY PLAN'] === 'string' ? JSON.parse(claim!['QUERY PLAN'] as string) : claim!['QUERY PLAN'];
      expect([...relations(cp)].sort()).toEqual(['device_events', `device_events_p${dayName(today)}`]);
    });

    it('makes days ahead, moving the rows the default partition caught for a day that had none', async () => {
      const now = Date.now();
      const far = new Date(startOfDay(now) + 20 * DAY + 3600_000).toISOString();
      await q(`INSERT INTO positions (device_id, time, received_at, lat, lon, valid) VALUES ($1, $2, now(), 1, 2, true)`, [device.agent01, far]);
      expect(await q(`SELECT tableoid::regclass::text AS part FROM positions WHERE time = $1`, [far])).toEqual([{ part: 'positions_default' }]);
      const made = await ensurePartitions(p.deps.database, now + 15 * DAY);
      expect(made).toBeGreaterThanOrEqual(3 * 8);
      expect(await q(`SELECT tableoid::regclass::text AS part FROM positions WHERE time = $1`, [far])).toEqual([{ part: `positions_p${dayName(startOfDay(now) + 20 * DAY)}` }]);
      // Made again: nothing new.
      expect(await ensurePartitions(p.deps.database, now + 15 * DAY)).toBe(0);
    });

    it('retention: whole days past the longest retention are dropped, shorter ones are deleted per top-level account', async () => {
      const now = Date.now();
      const at = (days: number) => new Date(startOfDay(now) - days * DAY + 7200_000).toISOString();
      for (const d of [100, 50]) await q(`SELECT wt_ensure_day_partition('positions', $1::date)`, [at(d).slice(0, 10)]);
      for (const owner of ['agent01', 'operator01'])
        for (const d of [400, 100, 50, 10])
          await q(`INSERT INTO positions (device_id, time, received_at, lat, lon, valid) VALUES ($1, $2, $2, 1, 2, true)`, [device[owner], at(d)]);
      // Platform default 60 days; agent01's subtree keeps 90.
      expect((await p.call('/Retention/Save', { UserId: ids.admin, Positions: 60, Health: null, Events: '' }, tokens.admin)).body).toMatchObject({
        State: 200,
        Level: 'platform',
        Platform: { Positions: 60, Health: 365, Events: 365 },
        Own: { Positions: 60, Health: null, Events: null },
      });
      const saved = (await p.call('/Retention/Save', { UserId: ids.agent01, Positions: 90 }, tokens.admin)).body;
      expect(saved).toMatchObject({ State: 200, Level: 'topLevel', Effective: { Positions: 90 }, PartitionDays: { Positions: 90 }, Editable: true });

      const result = await applyRetention(p.deps.database, now);
      expect(result.dropped).toContain(`positions_p${dayName(startOfDay(now) - 100 * DAY)}`);
      expect(result.dropped).not.toContain(`positions_p${dayName(startOfDay(now) - 50 * DAY)}`);
      const left = async (owner: string) =>
        (await q<{ time: Date }>(`SELECT time FROM positions WHERE device_id = $1 AND time < now() ORDER BY time`, [device[owner]])).map(
          (r) => Math.round((startOfDay(now) - startOfDay(new Date(r.time).getTime())) / DAY),
        );
      // agent01 (90 days): the 100-day-old day is gone with its partition, the default partition's 400 deleted.
      expect(await left('agent01')).toEqual([50, 10]);
      // operator01 (the platform's 60 days): its 50-day-old row stays, nothing older.
      expect(await left('operator01')).toEqual([50, 10]);

      // operator01 keeps 30 days: its 50-day-old row is deleted, row by row; agent01's stays.
      await p.call('/Retention/Save', { UserId: ids.operator01, Positions: 30 }, tokens.admin);
      const second = await applyRetention(p.deps.database, now);
      expect(second.dropped).toEqual([]);
      expect(second.deleted.positions).toBe(1);
      expect(await left('operator01')).toEqual([10]);
      expect(await left('agent01')).toEqual([50, 10]);
    });

    it('the retention calls: effective days below a top-level account, root only, top level only, bounds, scope', async () => {
      const clinic = (await p.call('/Retention/Info', {}, tokens.clinic01)).body;
      expect(clinic).toMatchObject({ State: 200, Level: 'below', TopLevelId: ids.agent01, TopLevelName: 'agent01', Effective: { Positions: 90, Health: 365 }, Own: { Positions: 90, Health: null }, Editable: false });
      const own = (await p.call('/Retention/Info', {}, tokens.agent01)).body;
      expect(own).toMatchObject({ Level: 'topLevel', Own: { Positions: 90, Health: null }, Editable: false });

      const refused = await p.call('/Retention/Save', { Positions: 10 }, tokens.agent01);
      expect(refused.body.State).not.toBe(200);
      expect(JSON.stringify(refused.body)).toMatch(/Only the platform's root account|UserId|permission/);
      const below = (await p.call('/Retention/Save', { UserId: ids.clinic01, Positions: 30 }, tokens.admin, { 'accept-language': 'en' })).body;
      expect(below.Fields).toEqual([expect.objectContaining({ Field: 'UserId', Message: 'retention.notTopLevel', Text: expect.stringContaining('"clinic01" is below a top-level account') })]);
      const small = (await p.call('/Retention/Save', { UserId: ids.admin, Positions: 3 }, tokens.admin)).body;
      expect(small.Fields).toEqual([expect.objectContaining({ Field: 'Positions' })]);
      expect((await p.call('/Retention/Info', { UserId: ids.admin }, tokens.admin)).body.Own).toMatchObject({ Positions: 60 });
      // Another tenant's account answers like a missing one.
      const other = (await p.call('/Retention/Info', { UserId: ids.operator01 }, tokens.agent01)).body;
      const missing = (await p.call('/Retention/Info', { UserId: 999_999 }, tokens.agent01)).body;
      expect(other.State).toBe(missing.State);
      expect(other.Message).toBe(missing.Message);
    });
  });
});
