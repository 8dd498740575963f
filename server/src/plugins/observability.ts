// What a monitoring stack reads: GET /api/metrics (the pipeline's counters as JSON, or every metric
// in the Prometheus text format when the scraper asks for text), and the health endpoints
// /api/health/live (the process answers) and /api/health/ready (database reachable, migrations
// applied, bus connected when configured, not shutting down). Each platform keeps its own registry,
// so several platforms in one process (tests) do not mix their figures.
import { timingSafeEqual } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { State } from '@wt/contract';
import type { AppDeps } from '../deps.js';
import { migrationsApplied } from '../db/client.js';
import { addressMatcher, forwardedByUntrusted } from '../lib/addresses.js';
import { AppError } from '../lib/errors.js';
import { hashToken } from '../modules/integration/repo.js';

const PREFIX = 'weartrack_';

/** The outboxes a monitoring stack watches: rows waiting to go out and the age of the oldest. */
const OUTBOXES = [
  { name: 'push', sql: `SELECT count(*)::int AS n, extract(epoch FROM now() - min(created_at))::float8 AS age FROM push_outbox WHERE status = 'pending'` },
  {
    name: 'sms',
    sql: `SELECT count(*)::int AS n, extract(epoch FROM now() - min(created_at))::float8 AS age FROM notice_outbox WHERE status = 'pending' AND channel = 'sms'`,
  },
  {
    name: 'mail',
    sql: `SELECT count(*)::int AS n, extract(epoch FROM now() - min(created_at))::float8 AS age FROM notice_outbox WHERE status = 'pending' AND channel = 'email'`,
  },
  {
    // Escalation steps wait for their time by design: only the due ones count, and the age is how late the oldest is.
    name: 'escalation',
    sql: `SELECT count(*)::int AS n, extract(epoch FROM now() - min(next_at))::float8 AS age FROM escalation_outbox WHERE status = 'pending' AND next_at <= now()`,
  },
] as const;

/** Device events and health readings the alarm engine has not judged yet (any process): the oldest's age is its lag. */
const ENGINE_LAG_SQL = `SELECT extract(epoch FROM now() - min(t))::float8 AS lag FROM (
  SELECT min(received_at) AS t FROM device_events WHERE pending
  UNION ALL SELECT min(received_at) FROM health_readings WHERE pending) x`;

/** Compares two hex digests in constant time. */
function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (h && /^bearer\s+/i.test(h)) return h.replace(/^bearer\s+/i, '').trim();
  const q = (request.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' && q ? q : undefined;
}

/** Whether the caller wants the Prometheus text: `?format=prometheus`, or an Accept of text/openmetrics without JSON. */
export function wantsPrometheus(request: FastifyRequest): boolean {
  const format = (request.query as Record<string, unknown> | undefined)?.format;
  if (format === 'prometheus') return true;
  if (format === 'json') return false;
  const accept = String(request.headers.accept ?? '');
  return /text\/plain|openmetrics/i.test(accept) && !/application\/json/i.test(accept);
}

/** The metrics of one platform: the registry and what the hooks and the pipeline feed. */
export function createRegistry(deps: AppDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: PREFIX });
  const m = deps.ingest.metrics;

  // The pipeline's counters, read when scraped.
  const counters: [string, string, () => number][] = [
    ['received', 'messages decoded from devices', () => m.received],
    ['committed', 'messages committed to the database', () => m.committed],
    ['positions', 'position rows written', () => m.positions],
    ['unknown', 'messages from identities no device has', () => m.unknown],
    ['malformed', 'undecodable input', () => m.malformed],
    ['ignored', 'frames that decoded to nothing stored', () => m.ignored],
    ['failed', 'messages whose batch the database could not take (not acknowledged, resent)', () => m.failed],
    ['refused', 'messages the database refused on their own', () => m.refused],
    ['batches', 'committed batches', () => m.batches],
    ['connections_opened', 'device connections opened', () => m.connectionsOpened],
    ['commands_sent', 'commands sent to devices', () => m.commandsSent],
    ['outside_network', "frames refused from outside their device's allowed networks", () => m.outsideNetwork],
  ];
  for (const [name, help, read] of counters) {
    new Counter({
      name: `${PREFIX}pipeline_${name}_total`,
      help: `Pipeline: ${help}`,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  }
  const batchRows = new Histogram({
    name: `${PREFIX}pipeline_batch_rows`,
    help: 'Pipeline: messages per committed batch',
    buckets: [1, 5, 10, 50, 100, 250, 500, 1000, 2500, 5000],
    registers: [registry],
  });
  const batchSeconds = new Histogram({
    name: `${PREFIX}pipeline_batch_commit_seconds`,
    help: 'Pipeline: time to commit a batch',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const onBatch = (rows: number, ms: number) => {
    batchRows.observe(rows);
    batchSeconds.observe(ms / 1000);
  };
  m.batchListeners.push(onBatch);

  new Gauge({
    name: `${PREFIX}pipeline_queued`,
    help: 'Pipeline: messages waiting for their batch',
    registers: [registry],
    collect() {
      this.set(deps.ingest.gauges().queued);
    },
  });
  new Gauge({
    name: `${PREFIX}device_connections`,
    help: 'Open device connections per protocol (TCP gateways of this process)',
    labelNames: ['protocol'],
    registers: [registry],
    collect() {
      this.reset();
      for (const protocol of ['watch', 'gt06']) this.set({ protocol }, m.openByProtocol.get(protocol) ?? 0);
    },
  });
  new Gauge({
    name: `${PREFIX}devices_online`,
    help: 'Devices online as this process knows them',
    registers: [registry],
    collect() {
      this.set(deps.ingest.gauges().online);
    },
  });
  new Gauge({
    name: `${PREFIX}device_sessions`,
    help: 'Devices with a live command session in this process',
    registers: [registry],
    collect() {
      this.set(deps.ingest.gauges().sessions);
    },
  });

  // Outboxes and the alarm engine, read from the database (every process's work).
  // One read of the outboxes per scrape, shared by the three gauges (the registry collects them at once).
  let outboxRead: Promise<{ name: string; n: number; age: number; error: boolean }[]> | undefined;
  const readOutboxes = () =>
    (outboxRead ??= Promise.all(
      OUTBOXES.map(async (o) => {
        try {
          const [row] = await deps.database.query<{ n: number; age: number | null }>(o.sql);
          return { name: o.name, n: Number(row?.n ?? 0), age: Number(row?.age ?? 0), error: false };
        } catch {
          return { name: o.name, n: 0, age: 0, error: true };
        }
      }),
    ).finally(() => setImmediate(() => (outboxRead = undefined))));
  new Gauge({
    name: `${PREFIX}outbox_pending`,
    help: 'Rows waiting in an outbox',
    labelNames: ['outbox'],
    registers: [registry],
    async collect() {
      for (const o of await readOutboxes()) this.set({ outbox: o.name }, o.n);
    },
  });
  new Gauge({
    name: `${PREFIX}outbox_oldest_seconds`,
    help: 'Age of the oldest row waiting in an outbox (0 when empty)',
    labelNames: ['outbox'],
    registers: [registry],
    async collect() {
      for (const o of await readOutboxes()) this.set({ outbox: o.name }, Math.max(0, o.age));
    },
  });
  new Gauge({
    name: `${PREFIX}outbox_scrape_errors`,
    help: 'Outboxes that could not be read at the last scrape',
    registers: [registry],
    async collect() {
      this.set((await readOutboxes()).filter((o) => o.error).length);
    },
  });
  new Gauge({
    name: `${PREFIX}alarm_engine_lag_seconds`,
    help: 'Age of the oldest device event or health reading the alarm engine has not judged (0 when none)',
    registers: [registry],
    async collect() {
      const [row] = await deps.database.query<{ lag: number | null }>(ENGINE_LAG_SQL).catch(() => [{ lag: null }]);
      this.set(Math.max(0, Number(row?.lag ?? 0)));
    },
  });

  // The event loop's delay over the last scrape interval (the default metrics give its lifetime figures).
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  new Gauge({
    name: `${PREFIX}event_loop_delay_p99_seconds`,
    help: 'Event loop delay, 99th percentile since the previous scrape',
    registers: [registry],
    collect() {
      this.set(loop.count ? loop.percentile(99) / 1e9 : 0);
      loop.reset();
    },
  });

  const pool = deps.database.pool;
  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: 'Database pool connections by state (PostgreSQL; the embedded database has one, always in use)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      if (pool) {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      } else {
        this.set({ state: 'total' }, 1);
      }
    },
  });

  const requests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests by route (the call path, never a URL with ids) and status code',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP request duration by route',
    labelNames: ['route', 'method'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  return {
    registry,
    observeRequest(route: string, method: string, status: number, seconds: number) {
      requests.inc({ route, method, status: String(status) });
      latency.observe({ route, method }, seconds);
    },
    close() {
      loop.disable();
      const i = m.batchListeners.indexOf(onBatch);
      if (i >= 0) m.batchListeners.splice(i, 1);
    },
  };
}

/** The route a request matched, as registered (`/api/ingest/:integration`); static files and misses grouped. */
function routeOf(request: FastifyRequest): string {
  const url = request.routeOptions.url;
  if (!url) return 'unmatched';
  if (!url.startsWith('/api/') && url !== '/osmand') return 'console';
  return url;
}

export default fp(
  async function observability(app: FastifyInstance, { deps }: { deps: AppDeps }) {
    const metrics = createRegistry(deps);
    app.addHook('onResponse', async (request, reply) => {
      metrics.observeRequest(routeOf(request), request.method, reply.statusCode, reply.elapsedTime / 1000);
    });
    app.addHook('onClose', async () => metrics.close());

    // The counters tell how busy the platform is and how many devices it has: with METRICS_TOKEN, or
    // from a METRICS_ALLOW network (the address Fastify resolved, through TRUSTED_PROXIES only).
    const metricsNetwork = addressMatcher(deps.config.METRICS_ALLOW);
    const metricsToken = deps.config.METRICS_TOKEN ? hashToken(deps.config.METRICS_TOKEN) : undefined;
    const admitted = (request: FastifyRequest) => {
      const token = bearer(request);
      if (token) {
        if (!metricsToken || !sameHash(hashToken(token), metricsToken)) throw new AppError(State.TOKEN_INVALID, 'common.tokenInvalid');
      } else if (!metricsNetwork(request.ip) || forwardedByUntrusted(request)) {
        throw new AppError(State.FORBIDDEN, 'common.forbidden');
      }
    };

    app.get('/api/metrics', async (request, reply) => {
      admitted(request);
      if (!wantsPrometheus(request)) return deps.ingest.snapshot();
      const text = await metrics.registry.metrics();
      return reply.type(metrics.registry.contentType).send(text);
    });

    // Liveness: the process answers. Open to all, says nothing but that.
    app.get('/api/health/live', async () => ({ status: 'ok' }));

    // Readiness: whether a balancer should send this process work.
    app.get('/api/health/ready', async (_request, reply) => {
      const checks: Record<string, boolean> = { running: !deps.lifecycle?.closing };
      try {
        checks.database = (await deps.database.query<{ one: number }>('SELECT 1 AS one'))[0]?.one === 1;
        checks.migrations = await migrationsApplied(deps.database);
      } catch {
        checks.database = false;
        checks.migrations = false;
      }
      if (deps.bus.connected) checks.bus = deps.bus.connected();
      const ready = Object.values(checks).every(Boolean);
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'unavailable', checks });
    });
  },
  { name: 'observability' },
);
