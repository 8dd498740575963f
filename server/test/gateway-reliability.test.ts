// Acknowledged means stored: a real server process takes positions from several devices, is killed
// with SIGKILL mid-stream, and every message it had acknowledged must be in the database afterwards.
// GT06 acknowledgements carry the frame's serial, so each acked frame is checked by its fix time;
// watch AL acknowledgements are identical, so for watches the stored count must cover the acks.
// Acknowledged also means raised: watches press SOS throughout; after a restart every stored SOS
// has been counted exactly once in its alarm record, and every alarm has its partner push,
// delivered to a local receiver.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
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
import { FakeDevice, eventually, sleep } from './gateway-helpers.js';

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

/** Starts `tsx server/src/main.ts` and resolves with the device ports and the console URL it logs. */
function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; ports: Record<string, number>; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const ports: Record<string, number> = {};
    let url = '';
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      for (const line of out.split('\n')) {
        if (!line.includes('device listener started') && !line.includes('console at')) continue;
        try {
          const j = JSON.parse(line) as { protocol: string; port: number; msg: string };
          if (j.protocol) ports[j.protocol] = j.port;
          const m = /console at (\S+)/.exec(j.msg);
          if (m) url = m[1]!;
        } catch {
          /* partial line */
        }
      }
      if (ports.watch && ports.gt06 && url) {
        clearTimeout(timer);
        resolve({ child, ports, url });
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));

async function call<T = Record<string, unknown>>(url: string, p: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${url}/api${p}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as T;
}

/** A partner endpoint that records the alarms pushed to it. */
async function partner() {
  const got: { AlarmId: number; Imei: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/alarms`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

describe.each(databases())('acknowledged positions survive a crash on %s', (kind) => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('keeps every acknowledged message after SIGKILL, and raises and pushes every acknowledged SOS after the restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-rel-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const pgdb = kind === 'postgres' ? await freshPg() : undefined;
    if (pgdb) cleanups.push(() => pgdb.drop());
    const env = {
      PORT: '0',
      HOST: '127.0.0.1',
      WATCH_PORT: '0',
      GT06_PORT: '0',
      OSMAND_PORT: 'off',
      DATA_DIR: dataDir,
      DEMO: '1',
      SIMULATE: '0',
      LOG_LEVEL: 'info',
      PUSH_RETRY_BASE_MS: '200',
      OUTBOUND_ALLOW: '127.0.0.1/32',
      ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    };
    const { child, ports, url } = await startServer(env);
    cleanups.push(() => void child.kill('SIGKILL'));
    const rx = await partner();
    cleanups.push(() => rx.close());
    const admin = (await call<{ AccessToken: string }>(url, '/User/Login', { LoginName: 'admin', Password: 'admin123' })).AccessToken;
    expect(await call(url, '/Push/SaveCompany', { Name: 'Night Desk', PushUrl: rx.url, VerificationCode: 'sigkill-secret', PushModel: 1, DefaultFormat: 1 }, admin)).toMatchObject({ State: 200 });

    const gt06Imeis = ['865000000000029', '865000000000030', '865000000000031', '865000000000032'];
    const watchImeis = ['865000000000001', '865000000000002', '865000000000003', '865000000000004'];
    const gt06 = await Promise.all(gt06Imeis.map(() => FakeDevice.connect(ports.gt06!)));
    const watches = await Promise.all(watchImeis.map(() => FakeDevice.connect(ports.watch!)));
    // Watches of two tenants whose wearers press SOS again and again.
    const sosImeis = ['865000000000005', '865000000000006', '865000000000007', '865000000000025', '865000000000026', '865000000000039'];
    const sosWatches = await Promise.all(sosImeis.map(() => FakeDevice.connect(ports.watch!)));
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
        if (burst === 0) {
          sosWatches.forEach((d, i) =>
            d.send(buildWatchFrame('3G', sosImeis[i]!, watchContent.al({ fix: { time, valid: true, lat: 22.61, lon: 114.2 }, alarms: ['sos'] }))),
          );
        }
      }
      await sleep(4);
      // Killed mid-stream: once the gateway has acknowledged a good part of it (however busy the
      // machine), and while messages are still arriving.
      readAcks();
      const elapsed = Date.now() - started;
      if ((elapsed > 2500 && acked.reduce((n, x) => n + x.size, 0) > 50) || elapsed > 30_000) {
        child.kill('SIGKILL');
        killed = true;
      }
    }
    await exited(child);
    // Whatever arrived before the process died was acknowledged by it.
    await sleep(100);
    readAcks();
    const watchAcks = watches.map((d) => (d.text().match(/\*0002\*AL\]/g) ?? []).length);
    const sosAcks = sosWatches.map((d) => (d.text().match(/\*0002\*AL\]/g) ?? []).length);
    for (const d of [...gt06, ...watches, ...sosWatches]) d.close();
    expect(Math.min(...sosAcks)).toBeGreaterThan(0);

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

    // The same platform again: what was acknowledged but not yet raised is raised now.
    const second = await startServer(env);
    cleanups.push(() => void second.child.kill('SIGKILL'));
    const token = (await call<{ AccessToken: string }>(second.url, '/User/Login', { LoginName: 'admin', Password: 'admin123' })).AccessToken;
    const sosAlarms = async () =>
      (await call<{ Items: { Id: number; Imei: string; Count: number }[] }>(second.url, '/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 100, Type: [5] }, token)).Items;
    // Recorded deliveries: a push the killed process delivered but had not yet recorded is still
    // leased to it, and is delivered again (and recorded) once that lease runs out.
    const recorded = async () =>
      new Set(
        (await call<{ Items: { AlarmId: number }[] }>(second.url, '/user/searchPushDataList', { PageNo: 1, PageCount: 100, Success: 1 }, token)).Items.map(
          (a) => a.AlarmId,
        ),
      );
    // Settled: every SOS device has its alarm, the list no longer changes, the partner has them all
    // and every delivery is recorded.
    let last = '';
    await eventually(async () => {
      const items = await sosAlarms();
      const now = JSON.stringify(items.map((i) => [i.Id, i.Count]));
      const stable = now === last;
      last = now;
      const received = new Set(rx.got.map((g) => g.AlarmId));
      const done = await recorded();
      return stable && sosImeis.every((imei) => items.some((i) => i.Imei === imei)) && items.every((i) => received.has(i.Id) && done.has(i.Id));
    }, 60_000);
    second.child.kill('SIGTERM'); // a clean stop: the PGlite files can be opened again
    await exited(second.child);

    const after = await openDatabase(pgdb ? { url: pgdb.url } : { dataDir });
    try {
      for (let i = 0; i < sosImeis.length; i++) {
        const imei = sosImeis[i]!;
        const [{ events, pending }] = (await after.query<{ events: number; pending: number }>(
          `SELECT count(*)::int AS events, count(*) FILTER (WHERE e.pending)::int AS pending
             FROM device_events e JOIN devices d ON d.id = e.device_id WHERE d.imei = $1 AND e.kind = 'sos'`,
          [imei],
        )) as [{ events: number; pending: number }];
        expect(events, `SOS stored for ${imei}`).toBeGreaterThanOrEqual(sosAcks[i]!);
        expect(pending, `SOS of ${imei} left unhandled`).toBe(0);
        const alarms = await after.query<{ id: number; count: number; pushes: number; delivered: number }>(
          `SELECT a.id, a.count, (SELECT count(*)::int FROM push_outbox o WHERE o.alarm_id = a.id) AS pushes,
                  (SELECT count(*)::int FROM push_outbox o WHERE o.alarm_id = a.id AND o.status = 'delivered') AS delivered
             FROM alarms a JOIN devices d ON d.id = a.device_id WHERE d.imei = $1 AND a.type = 5`,
          [imei],
        );
        // Exactly once: one open alarm counting every stored SOS, one push for it, delivered.
        expect(alarms.map((a) => [a.count, a.pushes, a.delivered]), `SOS alarm of ${imei}`).toEqual([[events, 1, 1]]);
        expect(rx.got.some((g) => g.AlarmId === Number(alarms[0]!.id) && g.Imei === imei)).toBe(true);
      }
    } finally {
      await after.close();
    }
  }, 180_000);
});
