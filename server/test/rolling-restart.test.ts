// Rolling restart of the gateways behind HAProxy (docs/operations.md, "Rolling restart of the
// gateways"): 50 GT06 trackers keep sending positions through HAProxy while gateway 1 is stopped
// with SIGTERM (it drains) and started again, then gateway 2. Afterwards every position any tracker
// got an acknowledgement for is stored, device by device, and every tracker is connected again.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gt06Device } from '@wt/protocols';
import { ensureHaproxy, startCluster, type Cluster } from '../src/cluster/launch.js';
import { createPgDatabase } from './helpers.js';
import { FakeDevice, eventually, sleep } from './gateway-helpers.js';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const haproxy = DB && REDIS ? ensureHaproxy() : undefined;
const reason = !DB || !REDIS ? 'the rolling restart test needs TEST_DATABASE_URL and TEST_REDIS_URL (PostgreSQL and Redis)' : haproxy && 'missing' in haproxy ? haproxy.missing : undefined;
if (reason) console.log(`skipped: ${reason}`);

const BASE = Date.UTC(2026, 2, 1, 0, 0, 0);
const COUNT = 50;
const LOGIN_ACK = Buffer.from('787805010001', 'hex');

/** A tracker that sends a position every 100 ms and connects again whenever its connection ends. */
class Tracker {
  readonly acked = new Set<number>();
  connections = 0;
  private serial = 2;
  private dev: FakeDevice | undefined;
  private seen = 0;
  private stopped = false;
  private done: Promise<void> | undefined;

  constructor(
    readonly imei: string,
    private readonly port: number,
  ) {}

  start(): void {
    this.done = this.run();
  }

  get online(): boolean {
    return !!this.dev && !this.dev.closed && this.dev.received.includes(LOGIN_ACK);
  }

  private readAcks(): void {
    const b = this.dev!.received;
    for (let k = this.seen; k + 10 <= b.length; k++) if (b[k] === 0x78 && b[k + 1] === 0x78 && b[k + 2] === 0x05 && b[k + 3] === 0x12) this.acked.add(b.readUInt16BE(k + 4));
    this.seen = Math.max(this.seen, b.length - 9);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        this.dev = await FakeDevice.connect(this.port);
      } catch {
        await sleep(100);
        continue;
      }
      this.seen = 0;
      this.connections++;
      this.dev.send(gt06Device.login(this.imei, 1));
      await this.dev.until((b) => b.includes(LOGIN_ACK), 5000).catch(() => undefined);
      while (!this.stopped && !this.dev.closed && this.dev.received.includes(LOGIN_ACK)) {
        const serial = this.serial++;
        this.dev.send(gt06Device.location({ time: new Date(BASE + serial * 1000), valid: true, lat: 22.5, lon: 114 + serial / 1e5, speed: 10, course: 0 }, serial));
        await sleep(100);
        this.readAcks();
      }
      this.readAcks();
      if (this.stopped) break;
      this.dev.close();
      await sleep(50);
    }
  }

  /** Stops sending, waits for the acknowledgements of what was sent, and closes. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.done;
    if (this.dev && !this.dev.closed) {
      const last = this.serial - 1;
      await this.dev.until(() => (this.readAcks(), this.acked.has(last)), 5000).catch(() => undefined);
      this.readAcks();
      this.dev.close();
    }
  }
}

describe.skipIf(!!reason)('rolling restart of two gateways behind HAProxy', () => {
  let cluster: Cluster;
  let db: { url: string; drop: () => Promise<void> };
  let pool: pg.Pool;
  const trackers: Tracker[] = [];

  beforeAll(async () => {
    db = await createPgDatabase({ migrated: true });
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    cluster = await startCluster({ gateways: 2, api: 1, workers: 0, databaseUrl: db.url, redisUrl: REDIS!, env: { DEMO: '1', LOG_LEVEL: 'warn', GATEWAY_DRAIN_SECONDS: '10' } });
    const [root] = (await pool.query<{ id: number }>(`SELECT id FROM accounts WHERE parent_id IS NULL ORDER BY id LIMIT 1`)).rows;
    for (let i = 0; i < COUNT; i++) {
      const imei = `86610000000${String(i).padStart(4, '0')}`;
      await pool.query(`INSERT INTO devices (imei, short_id, name, protocol, account_id, activated_at) VALUES ($1, $2, $1, 'gt06', $3, now())`, [imei, imei.slice(-10), root!.id]);
      trackers.push(new Tracker(imei, cluster.gt06Port));
    }
  }, 240_000);

  afterAll(async () => {
    await Promise.all(trackers.map((t) => t.stop()));
    await cluster?.stop();
    await pool?.end();
    await db?.drop();
  }, 60_000);

  it('stores every acknowledged position while each gateway in turn drains and restarts, and every tracker reconnects', { timeout: 180_000 }, async () => {
    for (const t of trackers) t.start();
    const progress = async (label: string) => {
      const before = trackers.map((t) => t.acked.size);
      await eventually(() => trackers.every((t, i) => t.acked.size >= before[i]! + 3), 60_000).catch(() => {
        throw new Error(`${label}: trackers without new acknowledgements: ${trackers.filter((t, i) => t.acked.size < before[i]! + 3).map((t) => t.imei)}`);
      });
    };
    await progress('start');
    for (const g of cluster.byRole('gateway')) {
      await g.kill('SIGTERM');
      expect(g.child!.exitCode).toBe(0);
      await g.start();
      await eventually(async () => (await fetch(`http://127.0.0.1:${g.port}/api/health/ready`).then((r) => r.status, () => 0)) === 200, 30_000);
      // Every tracker sends and is acknowledged again before the next gateway goes.
      await progress(g.name);
    }
    await eventually(() => trackers.every((t) => t.online), 30_000);
    // Each tracker lost its connection at least once (all were on gateway 2 when it stopped).
    expect(trackers.filter((t) => t.connections < 2).map((t) => t.imei)).toEqual([]);
    await Promise.all(trackers.map((t) => t.stop()));

    const rows = (await pool.query<{ imei: string; t: Date }>(`SELECT d.imei, p.time AS t FROM positions p JOIN devices d ON d.id = p.device_id WHERE d.imei LIKE '86610000000%'`)).rows;
    const stored = new Map<string, Set<number>>();
    for (const r of rows) {
      if (!stored.has(r.imei)) stored.set(r.imei, new Set());
      stored.get(r.imei)!.add((new Date(r.t).getTime() - BASE) / 1000);
    }
    const lost = trackers.flatMap((t) => [...t.acked].filter((s) => !stored.get(t.imei)?.has(s)).map((s) => `${t.imei}#${s}`));
    expect(lost).toEqual([]);
    // Count by device: each stored at least what it got acknowledgements for.
    for (const t of trackers) expect(stored.get(t.imei)?.size ?? 0).toBeGreaterThanOrEqual(t.acked.size);
    expect(trackers.reduce((n, t) => n + t.acked.size, 0)).toBeGreaterThan(COUNT * 9);
  });
});
