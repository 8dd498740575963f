// Daily partitions of the time series (positions, health_readings, device_events), on PGlite and
// PostgreSQL alike (docs/scaling.md "Partitions and retention"):
// - every process creates today's partitions and the next days' when it opens the database, and the
//   partition service keeps doing so every hour (wt_ensure_day_partition, from the migration: a day
//   whose rows already went to the default partition has them moved into its new partition);
// - the retention job (role worker) drops a whole day once it is older than the longest retention in
//   force for its kind (the platform default and every top-level account's override), a metadata
//   operation; what a shorter retention (an account's override below that, or rows of the default
//   partition) leaves is deleted in bounded batches, oldest devices' rows first.
import type { AppDeps } from '../deps.js';
import type { Service } from '../services.js';
import type { Database } from './client.js';

export const SERIES = ['positions', 'health', 'events'] as const;
export type SeriesKind = (typeof SERIES)[number];

export const SERIES_TABLE: Record<SeriesKind, string> = { positions: 'positions', health: 'health_readings', events: 'device_events' };
const COLUMN: Record<SeriesKind, string> = { positions: 'positions_days', health: 'health_days', events: 'events_days' };

/** Retention when neither the platform default nor an account sets one, in days. */
export const BUILT_IN_RETENTION: Record<SeriesKind, number> = { positions: 180, health: 365, events: 365 };

/** Days created ahead of today (device clocks may be up to a day ahead; a missed run loses nothing). */
export const AHEAD_DAYS = 7;
/** Rows per DELETE of the row-by-row retention, and the most batches one run makes per kind. */
const DELETE_BATCH = 5000;
const DELETE_MAX_BATCHES = 200;

const DAY_MS = 86_400_000;
const utcDay = (ms: number) => new Date(Math.floor(ms / DAY_MS) * DAY_MS);
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Serializes the partition work of several processes on one PostgreSQL (an advisory lock held by
 * the transaction). PGlite runs one transaction at a time anyway.
 */
async function locked<T>(database: Database, fn: (q: <R>(text: string, params?: unknown[]) => Promise<R[]>) => Promise<T>): Promise<T> {
  return database.transaction(async (q) => {
    if (database.kind === 'postgres') {
      // Creating or dropping a partition waits for the inserts under way; never for long.
      await q(`SET LOCAL lock_timeout = '5s'`);
      await q(`SELECT pg_advisory_xact_lock(hashtext('wt_partitions'))`);
    }
    return fn(q);
  });
}

/** Creates the daily partitions from yesterday to AHEAD_DAYS ahead; answers how many were new. */
export async function ensurePartitions(database: Database, now = Date.now(), ahead = AHEAD_DAYS): Promise<number> {
  return locked(database, async (q) => {
    let made = 0;
    for (const kind of SERIES) {
      const rows = await q<{ made: boolean }>(
        `SELECT wt_ensure_day_partition($1, d::date) AS made FROM generate_series($2::date, $3::date, interval '1 day') AS d`,
        [SERIES_TABLE[kind], isoDay(utcDay(now - DAY_MS)), isoDay(utcDay(now + ahead * DAY_MS))],
      );
      made += rows.filter((r) => r.made).length;
    }
    return made;
  });
}

export interface Partition {
  kind: SeriesKind;
  name: string;
  /** The UTC day it holds. */
  day: Date;
}

/** The daily partitions of every series, oldest first. */
export async function listPartitions(database: Database): Promise<Partition[]> {
  const rows = await database.query<{ parent: string; name: string }>(
    `SELECT p.relname AS parent, c.relname AS name FROM pg_inherits i
       JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname IN ('positions', 'health_readings', 'device_events') ORDER BY c.relname`,
  );
  const kindOf = Object.fromEntries(SERIES.map((k) => [SERIES_TABLE[k], k])) as Record<string, SeriesKind>;
  const out: Partition[] = [];
  for (const r of rows) {
    const m = /_p(\d{4})(\d{2})(\d{2})$/.exec(r.name);
    if (m) out.push({ kind: kindOf[r.parent]!, name: r.name, day: new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!)) });
  }
  return out.sort((a, b) => a.day.getTime() - b.day.getTime());
}

export interface RetentionPolicy {
  /** The platform default per kind (the root account's setting, else the built-in one). */
  platform: Record<SeriesKind, number>;
  /** Top-level accounts' overrides: account id → days per kind (only the kinds it sets). */
  overrides: Map<number, Partial<Record<SeriesKind, number>>>;
}

/** The retention settings in force: the root account's row and the rows of top-level accounts. */
export async function loadPolicy(database: Database): Promise<RetentionPolicy> {
  const rows = await database.query<{ accountId: number; root: boolean; positions_days: number | null; health_days: number | null; events_days: number | null }>(
    `SELECT r.account_id AS "accountId", a.parent_id IS NULL AS root, r.positions_days, r.health_days, r.events_days
       FROM data_retention r JOIN accounts a ON a.id = r.account_id
      WHERE a.parent_id IS NULL OR a.parent_id IN (SELECT id FROM accounts WHERE parent_id IS NULL)`,
  );
  const platform = { ...BUILT_IN_RETENTION };
  const overrides = new Map<number, Partial<Record<SeriesKind, number>>>();
  for (const r of rows) {
    const set: Partial<Record<SeriesKind, number>> = {};
    for (const k of SERIES) {
      const v = r[COLUMN[k] as 'positions_days'];
      if (v !== null) set[k] = Number(v);
    }
    if (r.root) Object.assign(platform, set);
    else if (Object.keys(set).length) overrides.set(r.accountId, set);
  }
  return { platform, overrides };
}

/** The longest retention of a kind in force anywhere: whole days older than it are dropped. */
export function partitionRetention(policy: RetentionPolicy, kind: SeriesKind): number {
  let days = policy.platform[kind];
  for (const o of policy.overrides.values()) days = Math.max(days, o[kind] ?? 0);
  return days;
}

export interface RetentionResult {
  dropped: string[];
  deleted: Record<SeriesKind, number>;
}

/**
 * One retention pass: drops the partitions past the longest retention of their kind, then deletes,
 * in batches, the rows older than their device's own retention (its top-level account's override,
 * else the platform default) that are still there.
 */
export async function applyRetention(database: Database, now = Date.now(), opts: { stopped?: () => boolean } = {}): Promise<RetentionResult> {
  const policy = await loadPolicy(database);
  const dropped: string[] = [];
  const deleted = { positions: 0, health: 0, events: 0 };
  for (const p of await listPartitions(database)) {
    const keep = partitionRetention(policy, p.kind);
    // The day's last instant is older than the retention: the whole day goes.
    if (p.day.getTime() + DAY_MS > utcDay(now).getTime() - keep * DAY_MS) continue;
    await locked(database, (q) => q(`DROP TABLE IF EXISTS ${p.name}`));
    dropped.push(p.name);
  }
  for (const kind of SERIES) {
    const table = SERIES_TABLE[kind];
    // Groups of devices by their retention: each top-level account with an override, and the rest.
    const groups: { days: number; account?: number; others?: number[] }[] = [];
    const overridden = [...policy.overrides].filter(([, o]) => o[kind] !== undefined);
    for (const [account, o] of overridden) groups.push({ days: o[kind]!, account });
    groups.push({ days: policy.platform[kind], others: overridden.map(([a]) => a) });
    for (const g of groups) {
      const cutoff = new Date(utcDay(now).getTime() - g.days * DAY_MS).toISOString();
      // The devices of the group: below the account, or below no overriding account.
      const devices = g.account !== undefined
        ? `SELECT d.id FROM devices d JOIN accounts a ON a.id = d.account_id WHERE split_part(a.path, '/', 3) = $3::text`
        : `SELECT d.id FROM devices d JOIN accounts a ON a.id = d.account_id WHERE NOT (nullif(split_part(a.path, '/', 3), '')::int = ANY($3::int[]))
             OR split_part(a.path, '/', 3) = ''`;
      const param = g.account !== undefined ? String(g.account) : g.others!;
      for (let i = 0; i < DELETE_MAX_BATCHES && !opts.stopped?.(); i++) {
        const gone = await database.query<{ n: number }>(
          `WITH doomed AS (SELECT device_id, time FROM ${table} WHERE time < $1 AND device_id IN (${devices}) LIMIT $2),
                del AS (DELETE FROM ${table} t USING doomed WHERE t.device_id = doomed.device_id AND t.time = doomed.time RETURNING 1)
           SELECT count(*)::int AS n FROM del`,
          [cutoff, DELETE_BATCH, param],
        );
        deleted[kind] += gone[0]?.n ?? 0;
        if ((gone[0]?.n ?? 0) < DELETE_BATCH) break;
      }
    }
  }
  return { dropped, deleted };
}

const EVERY_MS = 3600 * 1000;
const FIRST_RETENTION_MS = 90 * 1000;

/**
 * Keeps the partitions ahead every hour (every process: a process that writes must find its day),
 * and applies retention (role worker) a minute and a half after start and then every hour.
 */
export const partitionService: Service = {
  name: 'partitions',
  roles: ['api', 'gateway', 'worker'],
  async start(deps: AppDeps) {
    const { database, log } = deps;
    let stopped = false;
    let running: Promise<unknown> = Promise.resolve();
    const retain = deps.config.ROLES.has('worker');
    const run = (withRetention: boolean) => {
      running = running.then(async () => {
        if (stopped) return;
        try {
          const made = await ensurePartitions(database);
          if (made) log.info({ made }, 'partitions created ahead');
          if (!withRetention || !retain) return;
          const r = await applyRetention(database, Date.now(), { stopped: () => stopped });
          if (r.dropped.length || Object.values(r.deleted).some(Boolean)) log.info({ dropped: r.dropped, deleted: r.deleted }, 'time series retention applied');
        } catch (err) {
          log.error({ err }, 'partition maintenance failed; it runs again within the hour');
        }
      });
    };
    const first = setTimeout(() => run(true), FIRST_RETENTION_MS);
    first.unref();
    const timer = setInterval(() => run(true), EVERY_MS);
    timer.unref();
    return async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running;
    };
  },
  async stop() {},
};
