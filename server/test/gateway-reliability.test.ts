// Acknowledged means stored: a real server process takes positions from several devices, is killed
// with SIGKILL mid-stream, and every message it had acknowledged must be in the database afterwards.
// GT06 acknowledgements carry the frame's serial, so each acked frame is checked by its fix time;
// watch AL acknowledgements are identical, so for watches the stored count must cover the acks.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, gt06Device, watchContent } from '@wt/protocols';
import { openDatabase } from '../src/db/client.js';
import { databases } from './helpers.js';
import { FakeDevice, sleep } from './gateway-helpers.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const BASE = Date.UTC(2026, 1, 1, 0, 0, 0);

async function freshPg(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = new URL(process.env.TEST_DATABASE_URL!);
  const name = `wt_rel_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const c = new pg.Client({ connectionString: base.toString() });
  await c.connect();
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const url = new URL(base.toString());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const d = new pg.Client({ connectionString: base.toString() });
      await d.connect();
      await d.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await d.end();
    },
  };
}

/** Starts `tsx server/src/main.ts` and resolves with the device ports it logs. */
function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; ports: Record<string, number> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const ports: Record<string, number> = {};
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      for (const line of out.split('\n')) {
        if (!line.includes('device listener started')) continue;
        try {
          const j = JSON.parse(line) as { protocol: string; port: number };
          ports[j.protocol] = j.port;
        } catch {
          /* partial line */
        }
      }
      if (ports.watch && ports.gt06) {
        clearTimeout(timer);
        resolve({ child, ports });
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

describe.each(databases())('acknowledged positions survive a crash on %s', (kind) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('keeps every acknowledged message after SIGKILL', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-rel-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const pgdb = kind === 'postgres' ? await freshPg() : undefined;
    if (pgdb) cleanups.push(() => pgdb.drop());
    const { child, ports } = await startServer({
      PORT: '0',
      HOST: '127.0.0.1',
      WATCH_PORT: '0',
      GT06_PORT: '0',
      OSMAND_PORT: 'off',
      DATA_DIR: dataDir,
      DEMO: '1',
      SIMULATE: '0',
      LOG_LEVEL: 'info',
      ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    });
    cleanups.push(() => void child.kill('SIGKILL'));

    const gt06Imeis = ['865000000000029', '865000000000030', '865000000000031', '865000000000032'];
    const watchImeis = ['865000000000001', '865000000000002', '865000000000003', '865000000000004'];
    const gt06 = await Promise.all(gt06Imeis.map(() => FakeDevice.connect(ports.gt06!)));
    const watches = await Promise.all(watchImeis.map(() => FakeDevice.connect(ports.watch!)));
    await Promise.all(
      gt06.map(async (d, i) => {
        d.send(gt06Device.login(gt06Imeis[i]!, 1));
        await d.until((b) => b.includes(Buffer.from('787805010001', 'hex')), 15_000);
      }),
    );

    // Acked serials per GT06 device, read from the acknowledgements as they arrive.
    const acked = gt06.map(() => new Set<number>());
    const sentAt = gt06.map(() => new Map<number, number>());
    const seen = gt06.map(() => 0);
    const readAcks = () => {
      gt06.forEach((d, i) => {
        const b = d.received;
        for (let k = seen[i]!; k + 10 <= b.length; ) {
          if (b[k] === 0x78 && b[k + 1] === 0x78 && b[k + 2] === 0x05 && b[k + 3] === 0x12) {
            acked[i]!.add(b.readUInt16BE(k + 4));
            k += 10;
            seen[i] = k;
          } else {
            k++;
            seen[i] = k;
          }
        }
      });
    };
    let serial = 2;
    const started = Date.now();
    let killed = false;
    while (!killed) {
      for (let burst = 0; burst < 5; burst++, serial++) {
        const time = new Date(BASE + serial * 1000);
        gt06.forEach((d, i) => {
          d.send(gt06Device.location({ time, valid: true, lat: 22.5 + i / 100, lon: 114 + serial / 1e5, speed: 30, course: 10 }, serial));
          sentAt[i]!.set(serial, time.getTime());
        });
        watches.forEach((d, i) =>
          d.send(buildWatchFrame('3G', watchImeis[i]!, watchContent.al({ fix: { time, valid: true, lat: 22.6, lon: 114.1 + serial / 1e5 } }))),
        );
      }
      await sleep(4);
      if (Date.now() - started > 2500) {
        readAcks();
        child.kill('SIGKILL');
        killed = true;
      }
    }
    await new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));
    // Whatever arrived before the process died was acknowledged by it.
    await sleep(100);
    readAcks();
    const watchAcks = watches.map((d) => (d.text().match(/\*0002\*AL\]/g) ?? []).length);
    for (const d of [...gt06, ...watches]) d.close();

    const totalAcked = acked.reduce((n, s) => n + s.size, 0) + watchAcks.reduce((a, b) => a + b, 0);
    expect(totalAcked).toBeGreaterThan(50); // the stream was really under way
    expect(serial).toBeGreaterThan(Math.max(...acked.map((s) => Math.max(0, ...s)))); // ... and not all of it was acked by the end

    const db = await openDatabase(pgdb ? { url: pgdb.url } : { dataDir });
    try {
      for (let i = 0; i < gt06Imeis.length; i++) {
        const rows = await db.query<{ t: Date }>(
          'SELECT p.time AS t FROM positions p JOIN devices d ON d.id = p.device_id WHERE d.imei = $1',
          [gt06Imeis[i]],
        );
        const stored = new Set(rows.map((r) => new Date(r.t).getTime()));
        const missing = [...acked[i]!].filter((s) => !stored.has(sentAt[i]!.get(s)!));
        expect(missing, `acked but not stored for ${gt06Imeis[i]}`).toEqual([]);
      }
      for (let i = 0; i < watchImeis.length; i++) {
        const [{ n }] = (await db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM positions p JOIN devices d ON d.id = p.device_id WHERE d.imei = $1',
          [watchImeis[i]],
        )) as [{ n: number }];
        expect(n).toBeGreaterThanOrEqual(watchAcks[i]!);
      }
    } finally {
      await db.close();
    }
  }, 120_000);
});
