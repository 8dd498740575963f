// A real Prometheus server (Debian's package) scrapes a running platform under simulated load, and
// its own query API shows each metric of docs/operations.md present, and the ones the load drives
// moving. Skipped, saying so, where Prometheus is not installed (`npm test` installs it as root).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { FakeDevice, eventually } from './gateway-helpers.js';
import { startTestPlatform, type TestPlatform } from './helpers.js';

const binary = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus';
const available = existsSync(binary);
if (!available) console.log(`[prometheus] not tested: no Prometheus at ${binary} (Debian package prometheus, or PROMETHEUS_PATH)`);

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((r) => server.close(r));
  return port;
}

describe.skipIf(!available)('a real Prometheus scraping the platform', () => {
  let p: TestPlatform;
  let prom: ChildProcess | undefined;
  let promUrl = '';
  let dir = '';
  const devices: FakeDevice[] = [];
  let load: NodeJS.Timeout | undefined;

  /** One instant query through Prometheus's HTTP API: the values of its series. */
  async function query(expr: string): Promise<{ metric: Record<string, string>; value: number }[]> {
    const res = await fetch(`${promUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
    const body = (await res.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    expect(body.status).toBe('success');
    return body.data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
  }

  beforeAll(async () => {
    p = await startTestPlatform('pglite');
    dir = mkdtempSync(path.join(tmpdir(), 'wt-prometheus-'));
    const target = new URL(p.url).host.replace('localhost', '127.0.0.1');
    writeFileSync(
      path.join(dir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'scrape_configs:',
        '  - job_name: weartrack',
        '    metrics_path: /api/metrics',
        `    static_configs: [{ targets: ["${target}"] }]`,
        '',
      ].join('\n'),
    );
    const port = await freePort();
    promUrl = `http://127.0.0.1:${port}`;
    prom = spawn(
      binary,
      [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`],
      { stdio: 'ignore' },
    );
    await eventually(async () => (await fetch(`${promUrl}/-/ready`).catch(() => undefined))?.ok || undefined, 60_000);
    // Scraped once before the load starts, so what the load drives is seen changing.
    await eventually(async () => ((await query('up{job="weartrack"}'))[0]?.value === 1 ? true : undefined), 60_000);

    // Simulated load: three watches sending a position every 200 ms, and calls.
    const imeis = ['865000000000003', '865000000000004', '865000000000005'];
    for (let i = 0; i < imeis.length; i++) devices.push(await FakeDevice.connect(p.deps.ingest.ports.watch!));
    let n = 0;
    load = setInterval(() => {
      n++;
      devices.forEach((d, i) => {
        const fix = { time: new Date(), valid: true, lat: 22.54 + n * 1e-4, lon: 113.95, speed: 10, course: 0, satellites: 6 };
        d.send(buildWatchFrame('3G', imeis[i]!, watchContent.ud({ fix })));
      });
      void p.login().catch(() => undefined);
    }, 200);
  }, 120_000);

  afterAll(async () => {
    if (load) clearInterval(load);
    for (const d of devices) d.socket.destroy();
    // Prometheus first: its keep-alive scrape connection would hold the server's close.
    if (prom && prom.exitCode === null) {
      const exited = new Promise((r) => prom!.once('exit', r));
      prom.kill('SIGTERM');
      await exited;
    }
    await p?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds every metric present, and the load moving what it drives', async () => {
    // A notice waiting in the mail outbox while it scrapes: the outbox gauges move too.
    const [row] = await p.deps.database.query<{ id: number }>(
      `INSERT INTO notice_outbox (channel, account_id, recipient, body, status, next_at, created_at)
       VALUES ('email', 1, 'x@example.com', 'text', 'pending', now() + interval '1 hour', now() - interval '30 seconds') RETURNING id`,
    );
    const present = [
      'weartrack_pipeline_received_total',
      'weartrack_pipeline_committed_total',
      'weartrack_pipeline_positions_total',
      'weartrack_pipeline_failed_total',
      'weartrack_pipeline_refused_total',
      'weartrack_pipeline_batch_rows_bucket',
      'weartrack_pipeline_batch_commit_seconds_bucket',
      'weartrack_pipeline_queued',
      'weartrack_device_connections',
      'weartrack_devices_online',
      'weartrack_outbox_pending',
      'weartrack_outbox_oldest_seconds',
      'weartrack_alarm_engine_lag_seconds',
      'weartrack_event_loop_delay_p99_seconds',
      'weartrack_nodejs_heap_size_used_bytes',
      'weartrack_http_requests_total',
      'weartrack_http_request_duration_seconds_bucket',
      'weartrack_db_pool_connections',
    ];
    // What the load drives, judged over the samples Prometheus stored.
    const moving = [
      'increase(weartrack_pipeline_received_total[1m]) > 0',
      'increase(weartrack_pipeline_committed_total[1m]) > 0',
      'increase(weartrack_pipeline_positions_total[1m]) > 0',
      'increase(weartrack_pipeline_batch_commit_seconds_count[1m]) > 0',
      'increase(weartrack_pipeline_batch_rows_count[1m]) > 0',
      'increase(weartrack_http_requests_total{route="/api/User/Login"}[1m]) > 0',
      'increase(weartrack_http_request_duration_seconds_count{route="/api/User/Login"}[1m]) > 0',
      'changes(weartrack_nodejs_heap_size_used_bytes[1m]) > 0',
      'changes(weartrack_event_loop_delay_p99_seconds[1m]) > 0',
      'max_over_time(weartrack_device_connections{protocol="watch"}[1m]) - min_over_time(weartrack_device_connections{protocol="watch"}[1m]) > 0',
      'max_over_time(weartrack_devices_online[1m]) - min_over_time(weartrack_devices_online[1m]) > 0',
      'max_over_time(weartrack_outbox_pending{outbox="mail"}[1m]) - min_over_time(weartrack_outbox_pending{outbox="mail"}[1m]) > 0',
    ];
    /** What Prometheus does not show yet. */
    const absent = async () => {
      const gone: string[] = [];
      for (const name of present) if (!(await query(name)).length) gone.push(name);
      for (const expr of moving) if (!(await query(expr)).length) gone.push(expr);
      return gone;
    };
    try {
      let gone = await absent();
      for (const end = Date.now() + 60_000; gone.length && Date.now() < end; gone = await absent()) {
        await new Promise((r) => setTimeout(r, 1000));
      }
      expect(gone).toEqual([]);
    } finally {
      await p.deps.database.query(`DELETE FROM notice_outbox WHERE id = $1`, [row!.id]);
    }
  }, 150_000);
});
