// What a monitoring stack reads: the Prometheus text of GET /api/metrics (pipeline, connections,
// outboxes, alarm engine, event loop, per-call requests, database pool), the health endpoints, and
// the request id every error answer carries.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { FakeDevice, eventually } from './gateway-helpers.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

/** Parses the Prometheus text format into `name{labels}` → value. */
function parse(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const m = /^(\S+?(?:\{[^}]*\})?)\s+(\S+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

describe.each(databases())('observability on %s', (kind) => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
  });
  afterAll(async () => {
    await p?.close();
  });

  const scrape = async () => {
    const res = await fetch(`${p.url}/api/metrics`, { headers: { accept: 'text/plain;version=0.0.4;q=0.9,*/*;q=0.1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return parse(await res.text());
  };

  it('keeps the JSON counters for callers that do not ask for text', async () => {
    const res = await fetch(`${p.url}/api/metrics`);
    expect(await res.json()).toHaveProperty('received');
    const asked = await fetch(`${p.url}/api/metrics?format=prometheus`);
    expect(await asked.text()).toContain('weartrack_pipeline_received_total');
  });

  it('serves every metric in the Prometheus text format, and they move with the traffic', async () => {
    const before = await scrape();
    for (const name of [
      'weartrack_pipeline_committed_total',
      'weartrack_pipeline_batch_rows_count',
      'weartrack_pipeline_batch_commit_seconds_count',
      'weartrack_pipeline_queued',
      'weartrack_device_connections{protocol="watch"}',
      'weartrack_device_connections{protocol="gt06"}',
      'weartrack_devices_online',
      'weartrack_outbox_pending{outbox="push"}',
      'weartrack_outbox_pending{outbox="sms"}',
      'weartrack_outbox_pending{outbox="mail"}',
      'weartrack_outbox_oldest_seconds{outbox="push"}',
      'weartrack_outbox_scrape_errors',
      'weartrack_alarm_engine_lag_seconds',
      'weartrack_event_loop_delay_p99_seconds',
      'weartrack_nodejs_heap_size_used_bytes',
      'weartrack_nodejs_eventloop_lag_p99_seconds',
      'weartrack_db_pool_connections{state="total"}',
    ]) {
      expect(before.has(name), name).toBe(true);
    }
    expect(before.get('weartrack_outbox_scrape_errors')).toBe(0);

    // A login and a device's positions move the per-call and the pipeline figures.
    await p.login();
    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      await eventually(async () => ((await scrape()).get('weartrack_device_connections{protocol="watch"}') ?? 0) >= 1 || undefined);
      const fix = { time: new Date(), valid: true, lat: 22.54, lon: 113.95, speed: 0, course: 0, satellites: 6 };
      dev.send(buildWatchFrame('3G', '865000000000003', watchContent.ud({ fix })));
      const after = await eventually(async () => {
        const m = await scrape();
        return (m.get('weartrack_pipeline_committed_total') ?? 0) > (before.get('weartrack_pipeline_committed_total') ?? 0) ? m : undefined;
      });
      expect(after.get('weartrack_pipeline_batch_commit_seconds_count')).toBeGreaterThan(before.get('weartrack_pipeline_batch_commit_seconds_count') ?? 0);
      expect(after.get('weartrack_pipeline_positions_total')).toBeGreaterThan(before.get('weartrack_pipeline_positions_total') ?? 0);
      const login = [...after.entries()].find(([k]) => k.startsWith('weartrack_http_requests_total{') && k.includes('route="/api/User/Login"') && k.includes('status="200"'));
      expect(login?.[1]).toBeGreaterThanOrEqual(1);
      expect([...after.keys()].some((k) => k.startsWith('weartrack_http_request_duration_seconds_bucket{') && k.includes('route="/api/User/Login"'))).toBe(true);
    } finally {
      dev.socket.destroy();
    }
  });

  it('names in the Grafana dashboard and in docs/operations.md only metrics the platform serves', async () => {
    const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs');
    await p.login();
    const served = new Set([...(await scrape()).keys()].map((k) => k.replace(/\{.*$/, '').replace(/_(bucket|sum|count)$/, '')));
    for (const file of ['grafana-dashboard.json', 'operations.md']) {
      const text = readFileSync(path.join(docs, file), 'utf8').replace(/`(\w+)`, `(\w+)`/g, '`$1` `$2`');
      const named = new Set([...text.matchAll(/weartrack_(\w+)/g)].map((m) => `weartrack_${m[1]!.replace(/_(bucket|sum|count)$/, '')}`));
      // The table of docs/operations.md names them without the prefix.
      if (file === 'operations.md') for (const m of text.matchAll(/^\| `(\w+)`/gm)) named.add(`weartrack_${m[1]}`);
      expect(named.size, file).toBeGreaterThan(5);
      expect([...named].filter((n) => !served.has(n)), file).toEqual([]);
    }
  });

  it('labels requests by the route they matched, never by a URL with ids or a path nobody serves', async () => {
    await fetch(`${p.url}/api/ingest/some-integration-${Date.now()}`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
    await fetch(`${p.url}/api/no/such/call/${Date.now()}`, { method: 'POST' });
    const keys = [...(await scrape()).keys()].filter((k) => k.startsWith('weartrack_http_requests_total{'));
    expect(keys.some((k) => k.includes('route="/api/ingest/:integration"'))).toBe(true);
    expect(keys.some((k) => k.includes('route="unmatched"'))).toBe(true);
    expect(keys.filter((k) => /some-integration|no\/such/.test(k))).toEqual([]);
  });

  it('counts the pending rows of an outbox and the age of the oldest', async () => {
    const empty = await scrape();
    // A notice waiting for its next attempt, made 90 s ago (not due: the worker leaves it alone).
    const [row] = await p.deps.database.query<{ id: number }>(
      `INSERT INTO notice_outbox (channel, account_id, recipient, body, status, next_at, created_at)
       VALUES ('email', 1, 'x@example.com', 'text', 'pending', now() + interval '1 hour', now() - interval '90 seconds') RETURNING id`,
    );
    try {
      const m = await scrape();
      expect(m.get('weartrack_outbox_pending{outbox="mail"}')).toBe((empty.get('weartrack_outbox_pending{outbox="mail"}') ?? 0) + 1);
      expect(m.get('weartrack_outbox_oldest_seconds{outbox="mail"}')).toBeGreaterThanOrEqual(89);
      expect(m.get('weartrack_outbox_pending{outbox="sms"}')).toBe(empty.get('weartrack_outbox_pending{outbox="sms"}'));
    } finally {
      await p.deps.database.query(`DELETE FROM notice_outbox WHERE id = $1`, [row!.id]);
    }
  });

  it('answers liveness, and readiness with each check, false once shutting down or with a migration missing', async () => {
    expect(await (await fetch(`${p.url}/api/health/live`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${p.url}/api/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { running: true, database: true, migrations: true } });

    const [last] = await p.deps.database.query<{ id: number; hash: string; created_at: string }>(
      `SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id DESC LIMIT 1`,
    );
    await p.deps.database.query(`DELETE FROM drizzle.__drizzle_migrations WHERE id = $1`, [last!.id]);
    try {
      const missing = await fetch(`${p.url}/api/health/ready`);
      expect(missing.status).toBe(503);
      expect(((await missing.json()) as { checks: Record<string, boolean> }).checks.migrations).toBe(false);
    } finally {
      await p.deps.database.query(`INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES ($1, $2, $3)`, [last!.id, last!.hash, last!.created_at]);
    }

    p.deps.lifecycle!.closing = true;
    try {
      const closing = await fetch(`${p.url}/api/health/ready`);
      expect(closing.status).toBe(503);
      expect(await closing.json()).toMatchObject({ status: 'unavailable', checks: { running: false } });
    } finally {
      p.deps.lifecycle!.closing = false;
    }
  });

  it('puts a request id in every error answer, a new one per request', async () => {
    const a = await p.call('/User/Login', { LoginName: 'admin', Password: 'wrong-password' });
    const b = await p.call('/Device/devicesByUserId', {});
    expect(a.body.RequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.body.RequestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.body.RequestId).not.toBe(b.body.RequestId);
  });
});
