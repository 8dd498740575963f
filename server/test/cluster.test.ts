// The multi-process deployment on PostgreSQL and Redis behind HAProxy (server/src/cluster/launch.ts):
// two gateway processes, one API process, one worker. Devices connect through HAProxy and spread
// over both gateways; a command sent through the API process reaches a device on either; one
// gateway is killed with SIGKILL and its devices reconnect through HAProxy to the other, with every
// acknowledged alarm stored; alarms acknowledged while the worker is down are raised when it comes
// back; a console connected through HAProxy sees every device live throughout.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { ensureHaproxy, startCluster, type Cluster } from '../src/cluster/launch.js';
import { createPgDatabase } from './helpers.js';
import { FakeDevice, connectWatch, eventually } from './gateway-helpers.js';
import { RealtimeClient } from './monitor-fixtures.js';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const reason = !DB || !REDIS ? 'the cluster test needs TEST_DATABASE_URL and TEST_REDIS_URL (PostgreSQL and Redis)' : undefined;
if (reason) console.log(`skipped: ${reason}`);

const fixAt = (lat: number, lon: number) => ({ time: new Date(), valid: true, lat, lon, speed: 0, course: 0 });

describe.skipIf(!!reason)('a cluster behind HAProxy: 2 gateways, 1 API, 1 worker', () => {
  let cluster: Cluster;
  let db: { url: string; drop: () => Promise<void> };
  let pool: pg.Pool;
  const q = async <T,>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[];
  let token = '';
  let userId = 0;
  let console_: RealtimeClient;
  let imeis: string[] = [];
  const ids = new Map<string, number>();
  const devices = new Map<string, FakeDevice>();

  const call = async (path: string, body: unknown) => {
    const res = await fetch(`${cluster.http}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
    return (await res.json()) as { State: number };
  };
  /** Connects a watch through HAProxy: its LK, acknowledged, then data that earns it its commands. */
  const connect = async (imei: string) => {
    const dev = await connectWatch(cluster.watchPort, imei, 15_000);
    devices.set(imei, dev);
    return dev;
  };
  /** Sends a frame from every device and waits for each one's new acknowledgement (`reply`). */
  const fromAll = async (frame: (imei: string) => Uint8Array, reply: string) => {
    const count = (dev: FakeDevice, text: string) => dev.text().split(text).length - 1;
    const seen = new Map([...devices].map(([imei, dev]) => [imei, count(dev, `[3G*${imei}*0002*${reply}]`)]));
    for (const [imei, dev] of devices) dev.send(frame(imei));
    for (const [imei, dev] of devices) await dev.until(() => count(dev, `[3G*${imei}*0002*${reply}]`) > seen.get(imei)!, 15_000);
  };
  /** Sessions per gateway process, from its own metrics. */
  const sessions = async () =>
    Promise.all(
      cluster.byRole('gateway').map(async (g) => {
        if (g.child?.exitCode !== null || g.child?.signalCode) return 0;
        const m = (await (await fetch(`http://127.0.0.1:${g.port}/api/metrics`)).json()) as { sessions?: number };
        return m.sessions ?? 0;
      }),
    );
  /** Sends a position from every device and waits until the console saw each of them at it. */
  const allLive = async (lat: number) => {
    await fromAll((imei) => buildWatchFrame('3G', imei, watchContent.al({ fix: fixAt(lat, 114), alarms: [] })), 'AL');
    for (const imei of devices.keys())
      await console_.until((m) => m.type === 'devices' && m.devices.some((d) => d.i === ids.get(imei) && Math.abs((d.la ?? 0) - lat) < 1e-6), 15_000);
  };

  beforeAll(async () => {
    const haproxy = ensureHaproxy();
    if ('missing' in haproxy) throw new Error(haproxy.missing);
    db = await createPgDatabase({ migrated: true });
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    cluster = await startCluster({ gateways: 2, api: 1, workers: 1, databaseUrl: db.url, redisUrl: REDIS!, env: { DEMO: '1', LOG_LEVEL: 'warn' }, output: process.env.CLUSTER_OUTPUT ? 'inherit' : 'ignore' });
    const login = await (await fetch(`${cluster.http}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: 'admin', Password: 'admin123' }) })).json();
    token = login.AccessToken;
    userId = login.Item.UserId;
    const rows = await q<{ id: number; imei: string }>(`SELECT id, imei FROM devices WHERE protocol = 'watch' ORDER BY id LIMIT 6`);
    imeis = rows.map((r) => r.imei);
    for (const r of rows) ids.set(r.imei, r.id);
    console_ = await RealtimeClient.connect(cluster.http, token, userId);
  }, 240_000);

  afterAll(async () => {
    for (const d of devices.values()) d.close();
    console_?.close();
    await cluster?.stop();
    await pool?.end();
    await db?.drop();
  }, 60_000);

  it('spreads devices over both gateways, and a command sent through the API reaches a device on either', { timeout: 120_000 }, async () => {
    for (const imei of imeis) await connect(imei);
    const spread = await eventually(async () => {
      const s = await sessions();
      return s.every((n) => n > 0) && s.reduce((a, b) => a + b, 0) === imeis.length ? s : undefined;
    }, 10_000);
    expect(spread).toEqual([3, 3]);
    await allLive(22.5);
    // A command to every device: whichever gateway holds it writes it.
    for (const imei of imeis) {
      const r = await call('/Command/SendCommand', { Imei: imei, Code: 'FIND' });
      expect(r.State).toBe(200);
      await devices.get(imei)!.untilText(`[3G*${imei}*0004*FIND]`, 15_000);
    }
  });

  it('after SIGKILL of a gateway its devices reconnect through HAProxy to the other; no acknowledged alarm is lost', { timeout: 180_000 }, async () => {
    const [g1, g2] = cluster.byRole('gateway');
    const before = await sessions();
    await g1!.kill('SIGKILL');
    // The devices of the killed gateway see their connection end, and connect again.
    await eventually(() => [...devices.values()].filter((d) => d.closed).length === before[0], 10_000);
    const moved = [...devices].filter(([, d]) => d.closed).map(([imei]) => imei);
    for (const imei of moved) await connect(imei);
    expect(moved).toHaveLength(before[0]!);
    expect(await eventually(async () => ((await sessions())[1] === imeis.length ? true : undefined), 15_000)).toBe(true);
    expect(g2!.child?.exitCode).toBeNull();
    // Every device raises an SOS through the surviving gateway; each acknowledged one is stored.
    // Alarm times are the devices' own, to the second.
    const since = new Date(Date.now() - 2000);
    await fromAll((imei) => buildWatchFrame('3G', imei, watchContent.al({ fix: fixAt(22.6, 114), alarms: ['sos'] })), 'AL');
    const stored = await q<{ n: number }>(`SELECT count(DISTINCT device_id)::int AS n FROM device_events WHERE kind = 'sos' AND received_at >= $1`, [since]);
    expect(stored[0]!.n).toBe(imeis.length);
    await eventually(async () => ((await q<{ n: number }>(`SELECT count(DISTINCT device_id)::int AS n FROM alarms WHERE last_at >= $1`, [since]))[0]!.n === imeis.length ? true : undefined), 20_000);
    await allLive(22.7);
    // Commands reach the devices that moved, on their new gateway.
    for (const imei of moved) {
      expect((await call('/Command/SendCommand', { Imei: imei, Code: 'FIND' })).State).toBe(200);
      await devices.get(imei)!.untilText(`[3G*${imei}*0004*FIND]`, 15_000);
    }
  });

  it('raises the alarms acknowledged while the worker was down when it returns', { timeout: 180_000 }, async () => {
    const [worker] = cluster.byRole('worker');
    await worker!.kill('SIGKILL');
    const since = new Date(Date.now() - 1000);
    await fromAll((imei) => buildWatchFrame('3G', imei, watchContent.al({ fix: fixAt(22.8, 114), alarms: ['sos'] })), 'AL');
    // Acknowledged and pending; no engine runs.
    const pending = await q<{ n: number }>(`SELECT count(*)::int AS n FROM device_events WHERE pending AND received_at >= $1`, [since]);
    expect(pending[0]!.n).toBe(imeis.length);
    // The console keeps seeing the devices meanwhile.
    await allLive(22.9);
    await worker!.start();
    await eventually(async () => ((await q<{ n: number }>(`SELECT count(*)::int AS n FROM device_events WHERE pending AND received_at >= $1`, [since]))[0]!.n === 0 ? true : undefined), 60_000);
    const raised = await q<{ n: number }>(`SELECT count(DISTINCT device_id)::int AS n FROM alarms WHERE last_at >= $1`, [since]);
    expect(raised[0]!.n).toBe(imeis.length);
  });
});
