// Availability and configuration defences: body limits and callers refused before their body is
// read, the import's row cap, forwarded addresses believed from trusted proxies only (the login
// limits themselves: login-limits.test.ts), ended sessions refused at once, the console's caching
// and security headers, and the metrics endpoint's access.
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { databases, peerProcesses, peersAvailable, startTestPlatform, type TestPlatform } from './helpers.js';

const agent = new http.Agent({ keepAlive: true });
afterAll(() => agent.destroy());

/**
 * POSTs a body announced as `declared` bytes of which only `body` is sent, and answers the response
 * as soon as it comes: a server that answers has refused the body without reading it whole.
 */
function post(url: string, body: Buffer, opts: { declared?: number; headers?: Record<string, string> } = {}): Promise<{ status: number; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(opts.declared ?? body.length), ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString()) });
          if (opts.declared !== undefined && opts.declared > body.length) req.destroy();
        });
      },
    );
    req.on('error', reject);
    if (opts.declared !== undefined && opts.declared > body.length) req.write(body);
    else req.end(body);
  });
}

/** A JSON object of about `bytes` bytes: many distinct keys, the costliest shape to parse. */
function bigJson(bytes: number, fields: Record<string, unknown>): Buffer {
  const parts: string[] = [];
  for (let i = 0, n = 0; n < bytes; i++) {
    const p = `"k${i}":${i % 10}`;
    parts.push(p);
    n += p.length + 1;
  }
  return Buffer.from(`{${parts.join(',')},${JSON.stringify(fields).slice(1)}`);
}

async function workbook(rows: number): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Devices');
  ws.addRow(['LoginName', 'Password', 'IMEI', 'Model']);
  for (let i = 0; i < rows; i++) ws.addRow([`cap${i % 10}`, 'abc123', `86${String(i).padStart(13, '0')}`, 'K9 4G 定位手表']);
  return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
}

/** A built console in miniature: the page, a hashed asset and a public file. */
function fakeConsole(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'wt-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>WearTrack</title><script type="module" src="/assets/index-Ab12Cd34.js"></script>');
  writeFileSync(path.join(dir, 'assets', 'index-Ab12Cd34.js'), 'console.log(1)');
  writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

describe('address lists of the configuration', () => {
  it('takes addresses, CIDR ranges and range names, none by default, and refuses anything else', () => {
    expect(loadConfig({}).TRUSTED_PROXIES).toEqual([]);
    expect(loadConfig({}).METRICS_ALLOW).toEqual(['loopback']);
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.1, 192.168.0.0/16,loopback,fd00::/8' }).TRUSTED_PROXIES).toEqual(['10.0.0.1', '192.168.0.0/16', 'loopback', 'fd00::/8']);
    expect(loadConfig({ METRICS_ALLOW: 'none' }).METRICS_ALLOW).toEqual([]);
    for (const bad of ['*', 'true', '10.0.0.0/33', 'proxy.example.com']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN/);
  });
});

describe.each(databases())('defences of a platform with no trusted proxy on %s', (kind) => {
  let p: TestPlatform;
  let web: string;
  beforeAll(async () => {
    web = fakeConsole();
    p = await startTestPlatform(kind, { WEB_DIST: web });
  });
  afterAll(async () => {
    await p?.stop();
    rmSync(web, { recursive: true, force: true });
  });

  it('refuses a 19 MB login body with 413 before reading it, and keeps answering others meanwhile', async () => {
    const { token } = await p.login('operator01');
    const body = bigJson(19 * 1024 * 1024, { LoginName: 'admin', Password: 'abc123' });
    // Announced whole, sent in part: the answer comes without the rest.
    const unread = await post(`${p.url}/api/User/Login`, body.subarray(0, 64 * 1024), { declared: body.length, headers: { 'accept-language': 'en' } });
    expect(unread.status).toBe(413);
    expect(unread.body).toMatchObject({ State: 413, Message: 'common.bodyTooLarge', Params: { max: 1 }, Text: 'The request is too large: at most 1 MB' });
    // Sent whole, alongside small calls: the client reads the refusal, the small calls are answered.
    const [big, ...small] = await Promise.all([
      post(`${p.url}/api/User/Login`, body),
      ...Array.from({ length: 5 }, () => p.call('/User/UserInfo', {}, token)),
    ]);
    expect(big.status).toBe(413);
    expect(small.map((s) => s.body.State)).toEqual([200, 200, 200, 200, 200]);
    // An authenticated call without a token is refused before its body is read, whatever its size.
    const noToken = await post(`${p.url}/api/Device/devicesByUserId`, body.subarray(0, 64 * 1024), { declared: body.length });
    expect(noToken).toMatchObject({ status: 401, body: { State: 1100 } });
    // With a token, an ordinary call takes at most 1 MB; the import takes its workbook.
    const twoMb = bigJson(2 * 1024 * 1024, {});
    expect((await post(`${p.url}/api/Device/devicesByUserId`, twoMb, { headers: { authorization: `Bearer ${token}` } })).status).toBe(413);
    const file = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: Buffer.alloc(2 * 1024 * 1024, 7).toString('base64'), DryRun: true }, token);
    expect(file.body.Message).toBe('device.importInvalidFile');
  });

  it('refuses an import sheet of more than 10 000 rows, naming the limit', async () => {
    const { token } = await p.login('agent01');
    const r = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: await workbook(10_001), DryRun: true }, token, { 'accept-language': 'en' });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ Message: 'device.importTooManyRows', Params: { max: 10_000 } });
    expect(r.body.Text).toContain('10000');
  });

  it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
    // The lock of an address is not evaded by claiming other addresses...
    for (let i = 1; i <= 5; i++) {
      const r = await p.call('/User/Login', { LoginName: 'clinic01', Password: 'wrong12' }, undefined, { 'x-forwarded-for': `203.0.113.${i}` });
      expect(r.body.Message).toBe('auth.loginFailed');
    }
    const locked = await p.call('/User/Login', { LoginName: 'clinic01', Password: 'admin123' }, undefined, { 'x-forwarded-for': '203.0.113.99' });
    expect(locked.status).toBe(429);
    // ...the log records the real peer...
    const viewer = await p.call('/User/Login', { LoginName: 'viewer01', Password: 'admin123' }, undefined, { 'x-forwarded-for': '198.51.100.7' });
    const logs = await p.call('/User/allUserLoginLog', { PageNo: 1, PageCount: 5, UserId: viewer.body.Item.UserId }, viewer.body.AccessToken);
    expect(logs.body.Items[0].IPAddress).toBe('127.0.0.1');
    // ...and claiming to be this host does not exempt from the request rate limit.
    const local = await fetch(`${p.url}/api/Command/FetchCommandType`, { method: 'POST' });
    expect(local.headers.get('x-ratelimit-limit')).toBeNull();
    const claimed = await fetch(`${p.url}/api/Command/FetchCommandType`, { method: 'POST', headers: { 'x-forwarded-for': '127.0.0.1' } });
    expect(claimed.headers.get('x-ratelimit-limit')).toBe('3000');
  });

  it('ends the other sessions of a changed password on their very next request', async () => {
    await p.call('/User/Register', { LoginName: 'cached01', Password: 'abc123', ConfirmPassword: 'abc123', Email: 'cached01@example.com' });
    const a = await p.login('cached01', 'abc123');
    const b = await p.login('cached01', 'abc123');
    // b's session is in the authenticator's cache.
    expect((await p.call('/User/UserInfo', {}, b.token)).body.State).toBe(200);
    const changed = await p.call('/User/ChangePassword', { OldPass: 'abc123', NewPass: 'Abc1234', RePass: 'Abc1234' }, a.token);
    expect(changed.body.State).toBe(0);
    expect((await p.call('/User/UserInfo', {}, b.token)).status).toBe(401);
  });

  it('never caches the console page, auto-login included, and sends the security headers', async () => {
    for (const url of ['/', '/index.html', '/login/admin/admin123', '/devices/list']) {
      const res = await fetch(`${p.url}${url}`);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('cache-control'), url).toBe('no-store');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("frame-ancestors 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('upgrade-insecure-requests');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    }
    expect((await fetch(`${p.url}/assets/index-Ab12Cd34.js`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${p.url}/favicon.svg`)).headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('answers the metrics to this host by default, not to a request forwarded by an untrusted peer', async () => {
    expect((await fetch(`${p.url}/api/metrics`)).status).toBe(200);
    const forwarded = await fetch(`${p.url}/api/metrics`, { headers: { 'x-forwarded-for': '10.1.2.3' } });
    expect(forwarded.status).toBe(403);
  });
});

describe.each(databases())('defences behind a trusted proxy on %s', (kind) => {
  let p: TestPlatform;
  const METRICS_TOKEN = 'metrics-token-0123456789';
  beforeAll(async () => {
    p = await startTestPlatform(kind, { TRUSTED_PROXIES: 'loopback', METRICS_ALLOW: '10.0.0.0/8', METRICS_TOKEN });
  });
  afterAll(() => p?.stop());

  it("logs the proxy's forwarded address as the client's", async () => {
    const r = await p.call('/User/Login', { LoginName: 'admin', Password: 'admin123' }, undefined, { 'x-forwarded-for': '192.0.2.10' });
    const logs = await p.call('/User/allUserLoginLog', { PageNo: 1, PageCount: 1, UserId: r.body.Item.UserId, ActionCode: 1001 }, r.body.AccessToken);
    expect(logs.body.Items[0].IPAddress).toBe('192.0.2.10');
  });

  it('answers the metrics with the token or to an allowed network only', async () => {
    const plain = await fetch(`${p.url}/api/metrics`);
    expect(plain.status).toBe(403);
    expect(((await plain.json()) as { State: number }).State).toBe(403);
    expect((await fetch(`${p.url}/api/metrics`, { headers: { authorization: 'Bearer wrong-token-0123456789' } })).status).toBe(401);
    const withToken = await fetch(`${p.url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(withToken.status).toBe(200);
    expect(await withToken.json()).toHaveProperty('received');
    expect((await fetch(`${p.url}/api/metrics`, { headers: { 'x-forwarded-for': '10.1.2.3' } })).status).toBe(200);
    expect((await fetch(`${p.url}/api/metrics`, { headers: { 'x-forwarded-for': '192.0.2.1' } })).status).toBe(403);
  });
});

describe.skipIf(!peersAvailable())('ended sessions across processes over Redis', () => {
  const peers = peerProcesses();

  it("refuses another process's cached session once the password changed", async () => {
    const { p, q } = peers;
    const a = await p.login('agent01');
    const b = await p.login('agent01');
    const onQ = (token: string) =>
      fetch(`${q.url}/api/User/UserInfo`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: '{}' });
    expect((await onQ(b.token)).status).toBe(200);
    expect((await p.call('/User/ChangePassword', { OldPass: 'admin123', NewPass: 'Abc1234', RePass: 'Abc1234' }, a.token)).body.State).toBe(0);
    // The bus carries the end; well before the 5 s the cache would otherwise keep it.
    await expect.poll(async () => (await onQ(b.token)).status, { timeout: 2000, interval: 50 }).toBe(401);
  });
});
