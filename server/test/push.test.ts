// Partner push against real HTTP receivers: the signature checks out, a partner that fails twice
// gets the alarm on the third attempt, every attempt is logged and searchable, and a delivery
// queued before a restart is made after it.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, deviceAlarm } from './alarm-fixtures.js';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A partner endpoint answering 503 to its first `failures` requests and 200 afterwards. */
async function receiver(failures: number) {
  const got: Received[] = [];
  let answered = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push({ headers: req.headers, body });
      answered++;
      res.statusCode = answered <= failures ? 503 : 200;
      res.end(answered <= failures ? 'busy' : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}/alarms`, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const verify = (r: Received, code: string) => createHmac('sha256', code).update(r.body).digest('hex') === r.headers['x-signature'];

async function until<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(databases())('partner push on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let rx: Awaited<ReturnType<typeof receiver>>;
  beforeAll(async () => {
    p = await startTestPlatform(kind, { PUSH_RETRY_BASE_MS: '200', PUSH_MAX_ATTEMPTS: '5', OUTBOUND_ALLOW: '127.0.0.1/32' });
    admin = (await p.login()).token;
  });
  afterAll(() => p?.stop());
  afterEach(() => rx?.close());

  it('retries a partner that fails twice, then delivers the signed alarm, and logs every attempt', async () => {
    rx = await receiver(2);
    const code = 'partner-secret-123';
    const saved = await p.call('/Push/SaveCompany', { Name: 'Care Partner', PushUrl: rx.url, VerificationCode: code, PushModel: 1, DefaultFormat: 1 }, admin);
    expect(saved.body.State).toBe(200);
    const list = await p.call('/Push/CompanyList', {}, admin);
    expect(list.body.Items[0]).toMatchObject({ Name: 'Care Partner', PushUrl: rx.url, Effective: 1, VerificationCode: code });

    const d = await addDevice(p, 'clinic01', '865000000009101', 'Bed 3');
    await deviceAlarm(p, d, 'sos');
    await until(() => rx.got.length >= 3 || undefined);
    expect(rx.got.every((r) => verify(r, code))).toBe(true);
    expect(verify({ ...rx.got[2]!, body: rx.got[2]!.body + ' ' }, code)).toBe(false);
    expect(JSON.parse(rx.got[2]!.body)).toMatchObject({ Type: 5, Imei: d.imei, DeviceName: 'Bed 3' });
    expect(rx.got.map((r) => r.headers['x-push-attempt'])).toEqual(['1', '2', '3']);

    const log = await until(async () => {
      const r = await p.call('/user/searchPushDataList', { CompanyId: saved.body.Id }, admin);
      return r.body.Total === 3 ? r.body : undefined;
    });
    expect(log.Items.map((i: { Attempt: number; Success: number; StatusCode: number }) => [i.Attempt, i.Success, i.StatusCode])).toEqual([
      [3, 1, 200],
      [2, 2, 503],
      [1, 2, 503],
    ]);
    const failed = await p.call('/user/searchPushDataList', { Success: 2 }, admin);
    expect(failed.body.Total).toBe(2);
    // No fourth delivery of a delivered alarm.
    await new Promise((r) => setTimeout(r, 800));
    expect(rx.got.length).toBe(3);
  });

  it('keeps push companies and their log to the subtree', async () => {
    const agent = (await p.login('agent01')).token;
    expect((await p.call('/Push/CompanyList', {}, agent)).body.State).toBe(403);
    const mine = await p.call('/user/searchPushDataList', {}, agent);
    expect(mine.body).toMatchObject({ State: 200, Total: 0 });
    const bad = await p.call('/Push/SaveCompany', { Name: 'X', PushUrl: 'ftp://x', VerificationCode: 'short' }, admin);
    expect(bad.body.Fields.map((f: { Message: string }) => f.Message).sort()).toEqual(['push.codeTooShort', 'push.urlInvalid']);
  });
});

describe('partner push across a restart (PGlite files)', () => {
  let rx: Awaited<ReturnType<typeof receiver>>;
  let second: Platform | undefined;
  let dataDir = '';
  afterAll(async () => {
    await second?.close();
    await rx?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers after the restart what failed before it', async () => {
    rx = await receiver(1);
    // A long first retry delay: the retry is due only after the platform has restarted.
    const first = await startTestPlatform('pglite', { PUSH_RETRY_BASE_MS: '1500', OUTBOUND_ALLOW: '127.0.0.1/32' });
    dataDir = first.dataDir;
    const admin = (await first.login()).token;
    await first.call('/Push/SaveCompany', { Name: 'Night Desk', PushUrl: rx.url, VerificationCode: 'restart-secret-1', DefaultFormat: 2 }, admin);
    const d = await addDevice(first, 'clinic01', '865000000009201', 'Room 9');
    await deviceAlarm(first, d, 'fall');
    await until(() => rx.got.length >= 1 || undefined);
    await first.close();
    expect(rx.got.length).toBe(1);

    second = await startPlatform(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', WATCH_PORT: '0', GT06_PORT: '0', OSMAND_PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: first.dataDir, SIMULATE: '0', PUSH_RETRY_BASE_MS: '1500', OUTBOUND_ALLOW: '127.0.0.1/32' }),
    );
    await until(() => rx.got.length >= 2 || undefined);
    expect(rx.got[1]!.body).toBe(rx.got[0]!.body);
    expect(JSON.parse(rx.got[1]!.body)).toMatchObject({ NotificationType: 150, DeviceID: d.imei, Nickname: 'Room 9' });
    expect(verify(rx.got[1]!, 'restart-secret-1')).toBe(true);
    // The receiver answers before the outbox records the delivery: wait for the row.
    const row = await until(async () => {
      const [r] = await second!.deps.database.query<{ status: string; attempts: number }>(`SELECT status, attempts FROM push_outbox`);
      return r?.status === 'pending' ? undefined : r;
    });
    expect(row).toEqual({ status: 'delivered', attempts: 2 });
  });
});
