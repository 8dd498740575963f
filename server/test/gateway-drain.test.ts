// Graceful drain of a gateway process: on SIGTERM it stops taking device connections, answers
// not-ready on /api/health/ready, stops reading from its connections, commits and acknowledges
// every frame it had read, then ends the connections (their devices reconnect elsewhere), all within
// GATEWAY_DRAIN_SECONDS. Under steady load from GT06 trackers, each acknowledged frame (by its
// serial) is in the database afterwards, and each stored one was acknowledged: a device never has
// to send again what was already stored. A device that keeps its half of the connection open holds
// the drain long enough to see the process refuse new devices and report itself not ready.
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gt06Device } from '@wt/protocols';
import { freePort } from '../src/cluster/launch.js';
import { createPgDatabase } from './helpers.js';
import { FakeDevice, eventually, sleep } from './gateway-helpers.js';
import { PlatformProcess } from './process-helpers.js';

const DB = process.env.TEST_DATABASE_URL;
const reason = !DB ? 'the drain test needs TEST_DATABASE_URL (PostgreSQL)' : undefined;
if (reason) console.log(`skipped: ${reason}`);

const BASE = Date.UTC(2026, 1, 1, 0, 0, 0);

describe.skipIf(!!reason)('a gateway drains on SIGTERM', () => {
  let db: { url: string; drop: () => Promise<void> };
  let pool: pg.Pool;
  let gw: PlatformProcess;
  let gt06Port = 0;
  const open: (FakeDevice | net.Socket)[] = [];

  beforeAll(async () => {
    db = await createPgDatabase({ migrated: true });
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    // Dropping the database at the end ends its connections: not an error of the test.
    pool.on('error', () => undefined);
    gt06Port = await freePort();
    gw = await PlatformProcess.create('gateway', { DATABASE_URL: db.url, ROLES: 'api,gateway', GT06_PORT: String(gt06Port), DEMO: '1', GATEWAY_DRAIN_SECONDS: '10' });
    await gw.start();
    // The process answers /api/health/live before its device listeners are up: wait for the port.
    await eventually(
      () =>
        new Promise<boolean>((resolve) => {
          const probe = net.connect(gt06Port, '127.0.0.1');
          probe.once('connect', () => (probe.destroy(), resolve(true)));
          probe.once('error', () => resolve(false));
        }),
      60_000,
    );
  }, 240_000);

  afterAll(async () => {
    for (const d of open) {
      if (d instanceof FakeDevice) d.close();
      else d.destroy();
    }
    await gw?.kill('SIGKILL');
    await pool?.end();
    await db?.drop();
  }, 60_000);

  it('acknowledges and stores every frame it read, refuses new devices, reports not ready and ends the connections', { timeout: 120_000 }, async () => {
    const imeis = (await pool.query<{ imei: string }>(`SELECT imei FROM devices WHERE protocol = 'gt06' ORDER BY id LIMIT 6`)).rows.map((r) => r.imei);
    expect(imeis.length).toBeGreaterThan(2);
    const login = async (imei: string) => {
      const d = await FakeDevice.connect(gt06Port);
      open.push(d);
      d.send(gt06Device.login(imei, 1));
      await d.until((b) => b.includes(Buffer.from('787805010001', 'hex')), 15_000);
      return d;
    };
    const trackers = await Promise.all(imeis.map(login));
    const ended = trackers.map(() => false);
    trackers.forEach((d, i) => d.socket.once('end', () => (ended[i] = true)));
    // One more device that does not close its side when the gateway ends the connection: the drain
    // waits for it (up to 2 s), which leaves time to look at the stopping process.
    const lingering = net.connect({ port: gt06Port, host: '127.0.0.1', allowHalfOpen: true });
    open.push(lingering);
    let lingerBuf = Buffer.alloc(0);
    let lingerEnded = false;
    lingering.on('data', (c: Buffer) => (lingerBuf = Buffer.concat([lingerBuf, c])));
    lingering.on('end', () => (lingerEnded = true));
    lingering.on('error', () => {});
    await new Promise<void>((r) => lingering.once('connect', () => r()));
    lingering.write(gt06Device.login(imeis[0]!, 1));
    await eventually(() => lingerBuf.includes(Buffer.from('787805010001', 'hex')), 15_000);

    const acked = imeis.map(() => new Set<number>());
    const readAcks = () =>
      trackers.forEach((d, i) => {
        const b = d.received;
        for (let k = 0; k + 10 <= b.length; k++) if (b[k] === 0x78 && b[k + 1] === 0x78 && b[k + 2] === 0x05 && b[k + 3] === 0x12) acked[i]!.add(b.readUInt16BE(k + 4));
      });
    // Steady load: every tracker sends a position every few milliseconds until its connection ends.
    let serial = 2;
    const load = (async () => {
      while (trackers.some((d) => !d.closed)) {
        const time = new Date(BASE + serial * 1000);
        trackers.forEach((d, i) => {
          if (!d.closed) d.send(gt06Device.location({ time, valid: true, lat: 22.5 + i / 100, lon: 114 + serial / 1e5, speed: 30, course: 10 }, serial));
        });
        serial++;
        await sleep(5);
      }
    })();
    await eventually(() => {
      readAcks();
      return acked.every((s) => s.size >= 20);
    }, 30_000);
    gw.child!.kill('SIGTERM');
    // Stopping: not ready, and no new device taken; the lingering device still holds the drain open.
    const ready = await eventually(async () => {
      const r = await fetch(`${gw.url}/api/health/ready`).catch(() => undefined);
      return r && r.status === 503 ? ((await r.json()) as { checks: Record<string, boolean> }) : undefined;
    }, 10_000);
    expect(ready.checks.running).toBe(false);
    await eventually(() => lingerEnded, 10_000);
    expect(gw.running).toBe(true);
    const refused = await new Promise<boolean>((resolve) => {
      const s = net.connect({ port: gt06Port, host: '127.0.0.1' });
      s.once('connect', () => (s.destroy(), resolve(false)));
      s.once('error', () => resolve(true));
    });
    expect(refused).toBe(true);
    lingering.end();
    expect(await gw.kill('SIGTERM')).toBe(0);
    await load;
    readAcks();
    // Every tracker's connection was ended by the gateway (a FIN after its acknowledgements).
    expect(ended).toEqual(trackers.map(() => true));
    const drained = gw.lines.find((l) => l.msg === 'device listener drained' && l.protocol === 'gt06');
    expect(drained).toMatchObject({ connections: imeis.length + 1, flushed: true });

    // Stored exactly what was acknowledged, device by device.
    for (let i = 0; i < imeis.length; i++) {
      const rows = await pool.query<{ t: Date }>('SELECT p.time AS t FROM positions p JOIN devices d ON d.id = p.device_id WHERE d.imei = $1 AND p.time >= $2', [imeis[i], new Date(BASE)]);
      const stored = new Set(rows.rows.map((r) => (new Date(r.t).getTime() - BASE) / 1000));
      expect([...acked[i]!].filter((s) => !stored.has(s)), `acknowledged, not stored (${imeis[i]})`).toEqual([]);
      expect([...stored].filter((s) => !acked[i]!.has(s)), `stored, not acknowledged (${imeis[i]})`).toEqual([]);
      expect(acked[i]!.size).toBeGreaterThanOrEqual(20);
    }
  });
});
