// Two server processes on one Redis: a device reports to the first (a real child process), and a
// console connected to the second receives it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPlatform, type TestPlatform } from './helpers.js';
import { RealtimeClient } from './monitor-fixtures.js';
import { REALTIME_TOPICS } from '../src/realtime/topics.js';

const REDIS = process.env.TEST_REDIS_URL;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function waitFor(url: string, child: ChildProcess, out: () => string) {
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${out()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${out()}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe.skipIf(!REDIS)('realtime across processes over Redis', () => {
  let other: ChildProcess;
  let otherUrl: string;
  let otherDir: string;
  let p: TestPlatform;
  let output = '';

  beforeAll(async () => {
    p = await startTestPlatform('pglite', { REDIS_URL: REDIS! });
    otherDir = mkdtempSync(path.join(tmpdir(), 'wt-redis-'));
    const port = 20000 + Math.floor(Math.random() * 20000);
    otherUrl = `http://127.0.0.1:${port}`;
    other = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
      cwd: root,
      env: {
        ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: otherDir, DEMO: '1', SIMULATE: '0', REDIS_URL: REDIS!,
        WATCH_PORT: '0', GT06_PORT: '0', OSMAND_PORT: '0', LOG_LEVEL: 'warn', AUTO_REGISTER: '1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    other.stdout!.on('data', (d) => (output += d));
    other.stderr!.on('data', (d) => (output += d));
    await waitFor(`${otherUrl}/api/docs/json`, other, () => output);
  }, 120_000);

  afterAll(async () => {
    other?.kill('SIGTERM');
    await new Promise((r) => (other?.exitCode !== null ? r(null) : other.once('exit', r)));
    rmSync(otherDir, { recursive: true, force: true });
    await p?.stop();
  });

  it('a position reported to one process reaches a console on the other', async () => {
    const { token, userId } = await p.login();
    const c = await RealtimeClient.connect(p.url, token, userId);
    expect(c.messages[0]).toMatchObject({ type: 'registered' });
    // A new IMEI: the other process registers it under its root account ('/1/', as here).
    const imei = `869${String(Date.now()).slice(-12)}`;
    const res = await fetch(`${otherUrl}/osmand?id=${imei}&lat=31.2304&lon=121.4737&timestamp=${Math.floor(Date.now() / 1000)}`);
    expect(res.status).toBe(200);
    const m = await c.until((x) => x.type === 'devices' && x.devices.some((d) => Math.abs((d.la ?? 0) - 31.2304) < 1e-6), 10_000);
    expect(m.type === 'devices' && m.devices.find((d) => d.la !== undefined)!.lo).toBeCloseTo(121.4737, 6);
    c.close();
  });

  it('an alarm published in one process is not delivered twice in the other', async () => {
    const { token, userId } = await p.login();
    const c = await RealtimeClient.connect(p.url, token, userId);
    p.deps.bus.publish(REALTIME_TOPICS.alarmRaised, {
      NotificationType: 5, DeviceID: '865000000000001', Nickname: 'x', Message: 'SOS', Created: '2026-01-01 00:00:00', deviceId: 1, accountPath: '/1/',
    });
    await c.until((x) => x.type === 'alarm');
    await new Promise((r) => setTimeout(r, 300));
    expect(c.messages.filter((x) => x.type === 'alarm')).toHaveLength(1);
    c.close();
  });
});
