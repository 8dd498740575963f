// Outbound requests to addresses users set: a push company's URL that reaches this host, a private
// network or the cloud metadata address is refused when saved and when delivered (DNS may change in
// between), nothing reaches the internal listener, a redirect is not followed, the HTTP SMS gateway
// is held to the same rule, and OUTBOUND_ALLOW opens exactly the networks it names. The address
// classification on its own.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createTlsServer } from 'node:tls';
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';
import { OutboundRefused, createOutbound, literalRefusal, specialRange, systemLookup, type HostLookup } from '../src/lib/outbound.js';
import { httpSmsProvider } from '../src/modules/sms/providers.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, deviceAlarm } from './alarm-fixtures.js';
import { until } from './sms-fixtures.js';

type Row = Record<string, unknown>;

/** An HTTP listener that records every request; `answer` decides the reply. */
async function listener(host = '127.0.0.1', answer: (url: string) => { status: number; headers?: Record<string, string> } = () => ({ status: 200 })) {
  const got: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server: Server = createServer((req, res) => {
    got.push({ url: req.url!, headers: req.headers });
    const a = answer(req.url!);
    res.writeHead(a.status, a.headers).end('internal answer');
  });
  await new Promise<void>((r) => server.listen(0, host, r));
  const port = (server.address() as { port: number }).port;
  return { port, got, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A resolver answering from a table that a test may change; other names go to the system's. */
function stubResolver(table: Record<string, string[]>): HostLookup & { calls: string[] } {
  const calls: string[] = [];
  const lookup = async (host: string): Promise<LookupAddress[]> => {
    calls.push(host);
    const answer = table[host];
    return answer ? answer.map((address) => ({ address, family: isIP(address) })) : systemLookup(host);
  };
  return Object.assign(lookup, { calls });
}

describe('address classification', () => {
  it('names the special range of internal addresses, IPv4 inside IPv6 judged as IPv4', () => {
    const cases: [string, string][] = [
      ['127.0.0.1', 'loopback'],
      ['127.255.0.9', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.254', 'private'],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'linkLocal'],
      ['100.64.0.1', 'carrierGradeNat'],
      ['0.0.0.0', 'unspecified'],
      ['0.1.2.3', 'unspecified'],
      ['255.255.255.255', 'broadcast'],
      ['224.0.0.1', 'multicast'],
      ['240.0.0.1', 'reserved'],
      ['192.0.2.10', 'reserved'],
      ['198.18.0.1', 'reserved'],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'linkLocal'],
      ['fc00::1', 'uniqueLocal'],
      ['fd12:3456::1', 'uniqueLocal'],
      ['ff02::1', 'multicast'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:169.254.169.254', 'linkLocal'],
      ['::ffff:10.0.0.1', 'private'],
      ['::127.0.0.1', 'loopback'],
      ['64:ff9b::7f00:1', 'rfc6052'],
      ['2002:7f00:1::', '6to4'],
      ['2001:db8::1', 'reserved'],
      ['not an address', 'invalid'],
    ];
    expect(cases.map(([a]) => [a, specialRange(a)])).toEqual(cases);
  });

  it('leaves public unicast addresses alone', () => {
    for (const a of ['8.8.8.8', '93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(specialRange(a), a).toBeUndefined();
  });

  it('reads the host of a URL as the URL parser does (decimal, hex, octal and short IPv4, bracketed IPv6)', () => {
    for (const url of ['http://2130706433/', 'http://0x7f000001/', 'http://0x7f.1/', 'http://0177.0.0.1/', 'http://127.1/', 'http://[::1]:8080/', 'http://[::ffff:7f00:1]/', 'http://0.0.0.0/', 'http://169.254.169.254/latest/meta-data/']) {
      expect(literalRefusal(url, []), url).toBeInstanceOf(OutboundRefused);
    }
    expect(literalRefusal('http://localhost/', [])).toBeUndefined(); // a name: judged when resolved
    expect(literalRefusal('https://8.8.8.8/', [])).toBeUndefined();
  });

  it('lets the allowed networks through, IPv4-mapped IPv6 included, and nothing else', () => {
    expect(literalRefusal('http://127.0.0.1:9/', ['127.0.0.1/32'])).toBeUndefined();
    expect(literalRefusal('http://[::ffff:127.0.0.1]:9/', ['127.0.0.1/32'])).toBeUndefined();
    expect(literalRefusal('http://127.0.0.2:9/', ['127.0.0.1/32'])).toBeInstanceOf(OutboundRefused);
    expect(literalRefusal('http://10.9.8.7/', ['10.0.0.0/8'])).toBeUndefined();
    expect(literalRefusal('http://[::1]/', ['loopback'])).toBeUndefined();
    expect(literalRefusal('http://169.254.169.254/', ['10.0.0.0/8'])).toBeInstanceOf(OutboundRefused);
  });
});

describe('OUTBOUND_ALLOW and the SMS gateway at start', () => {
  it('validates OUTBOUND_ALLOW', () => {
    expect(loadConfig({}).OUTBOUND_ALLOW).toEqual([]);
    expect(loadConfig({ OUTBOUND_ALLOW: '127.0.0.1/32, 10.0.0.0/8' }).OUTBOUND_ALLOW).toEqual(['127.0.0.1/32', '10.0.0.0/8']);
    expect(() => loadConfig({ OUTBOUND_ALLOW: '127.0.0.1/33' })).toThrow(/OUTBOUND_ALLOW: "127\.0\.0\.1\/33" has a wrong prefix length/);
    expect(() => loadConfig({ OUTBOUND_ALLOW: 'intranet' })).toThrow(/OUTBOUND_ALLOW: "intranet" is not an IP address/);
  });

  it('refuses to start with an SMS gateway at an internal address OUTBOUND_ALLOW does not name', () => {
    const http = { SMS_PROVIDER: 'http', SMS_HTTP_URL: 'http://10.0.0.5/sms' };
    expect(() => loadConfig(http)).toThrow(ConfigError);
    expect(() => loadConfig(http)).toThrow(/SMS_HTTP_URL: 10\.0\.0\.5 is not a public internet address; add its network to OUTBOUND_ALLOW/);
    expect(loadConfig({ ...http, OUTBOUND_ALLOW: '10.0.0.0/8' }).SMS_HTTP_URL).toBe('http://10.0.0.5/sms');
    expect(() => loadConfig({ SMS_PROVIDER: 'aliyun', SMS_ALIYUN_ENDPOINT: 'http://127.0.0.1:9/' })).toThrow(/SMS_ALIYUN_ENDPOINT/);
    // Another provider does not use the URL.
    expect(loadConfig({ ...http, SMS_PROVIDER: 'log' }).SMS_PROVIDER).toBe('log');
  });
});

describe('the outbound client', () => {
  let rx: Awaited<ReturnType<typeof listener>>;
  beforeAll(async () => {
    rx = await listener();
  });
  afterAll(() => rx?.close());

  it('connects to the address it checked, once resolved, keeping the Host header', async () => {
    const lookup = stubResolver({ 'partner.test': ['127.0.0.1'] });
    const outbound = createOutbound({ allow: ['127.0.0.1/32'], lookup });
    try {
      const res = await outbound.fetch(`http://partner.test:${rx.port}/hook`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(200);
      expect(rx.got.at(-1)).toMatchObject({ url: '/hook', headers: { host: `partner.test:${rx.port}` } });
      expect(lookup.calls).toEqual(['partner.test']);
    } finally {
      await outbound.close();
    }
  });

  it('refuses a name with one internal address among public ones, before connecting', async () => {
    const before = rx.got.length;
    const outbound = createOutbound({ allow: [], lookup: stubResolver({ 'mixed.test': ['93.184.216.34', '127.0.0.1'] }) });
    try {
      await expect(outbound.fetch(`http://mixed.test:${rx.port}/`)).rejects.toMatchObject({ name: 'OutboundRefused', host: 'mixed.test', address: '127.0.0.1', range: 'loopback' });
      expect(await outbound.refusal(`http://mixed.test:${rx.port}/`)).toBeInstanceOf(OutboundRefused);
      expect(rx.got.length).toBe(before);
    } finally {
      await outbound.close();
    }
  });

  it('holds the HTTP SMS gateway to the same rule, and does not follow its redirects', async () => {
    const before = rx.got.length;
    const lookup = stubResolver({ 'sms.test': ['127.0.0.1'] });
    const closed = createOutbound({ allow: [], lookup });
    const open = createOutbound({ allow: ['127.0.0.1/32'], lookup });
    const moved = await listener('127.0.0.1', () => ({ status: 301, headers: { location: `http://127.0.0.1:${rx.port}/elsewhere` } }));
    try {
      await expect(httpSmsProvider(`http://sms.test:${rx.port}/sms`, closed).send('13800000001', 'SOS')).rejects.toBeInstanceOf(OutboundRefused);
      expect(rx.got.length).toBe(before);
      await expect(httpSmsProvider(`http://sms.test:${rx.port}/sms`, open).send('13800000001', 'SOS')).resolves.toEqual({ awaitsReport: false });
      expect(rx.got.at(-1)).toMatchObject({ url: '/sms' });
      await expect(httpSmsProvider(`http://127.0.0.1:${moved.port}/sms`, open).send('13800000001', 'SOS')).rejects.toThrow('SMS gateway answered HTTP 301: redirects are not followed');
      expect(rx.got.length).toBe(before + 1);
    } finally {
      await Promise.all([closed.close(), open.close(), moved.close()]);
    }
  });

  it('sends the URL host as the TLS server name while connecting to the checked address', async () => {
    const names: string[] = [];
    const tls = createTlsServer({
      SNICallback: (name, cb) => {
        names.push(name);
        cb(new Error('no certificate here'));
      },
    });
    tls.on('tlsClientError', () => {});
    await new Promise<void>((r) => tls.listen(0, '127.0.0.1', r));
    const outbound = createOutbound({ allow: ['127.0.0.1/32'], lookup: stubResolver({ 'secure.partner.test': ['127.0.0.1'] }) });
    try {
      await expect(outbound.fetch(`https://secure.partner.test:${(tls.address() as { port: number }).port}/`)).rejects.toThrow();
      expect(names).toEqual(['secure.partner.test']);
    } finally {
      await outbound.close();
      await new Promise<void>((r) => tls.close(() => r()));
    }
  });
});

describe.each(databases())('push companies and internal addresses on %s', (kind) => {
  let victim: Awaited<ReturnType<typeof listener>>;
  let p: TestPlatform;
  let admin: string;
  const names: Record<string, string[]> = { 'internal.test': ['127.0.0.1'], 'rebind.test': ['93.184.216.34'] };
  const attempts = (companyId: number) => p.deps.database.query<Row>(`SELECT status_code, success, error FROM push_attempts WHERE company_id = $1 ORDER BY id`, [companyId]);

  beforeAll(async () => {
    victim = await listener();
    p = await startTestPlatform(kind, { PUSH_RETRY_BASE_MS: '60000' }, { lookup: stubResolver(names) });
    admin = (await p.login()).token;
  });
  afterAll(async () => {
    await p?.stop();
    await victim?.close();
  });

  const internal = () => [
    `http://127.0.0.1:${victim.port}/hook`,
    `http://localhost:${victim.port}/hook`,
    `http://internal.test:${victim.port}/hook`,
    `http://[::1]:${victim.port}/hook`,
    `http://0.0.0.0:${victim.port}/hook`,
    `http://2130706433:${victim.port}/hook`,
    `http://0x7f.0.0.1:${victim.port}/hook`,
    `http://[::ffff:127.0.0.1]:${victim.port}/hook`,
    'http://169.254.169.254/latest/meta-data/',
    'http://10.0.0.5/hook',
    'http://100.64.0.1/hook',
  ];

  it('answers 400 naming PushUrl when the URL reaches this host, a private network or the metadata address', async () => {
    for (const url of internal()) {
      const r = await p.call('/Push/SaveCompany', { Name: 'Scanner', PushUrl: url, VerificationCode: 'scan-secret' }, admin, { 'x-language': 'en' });
      expect(r.status, url).toBe(400);
      expect(r.body.Fields, url).toEqual([
        { Field: 'PushUrl', Message: 'push.urlInternal', Text: 'The push URL must point to the public internet, not to this server or an internal network' },
      ]);
    }
    const zh = await p.call('/Push/SaveCompany', { Name: 'Scanner', PushUrl: internal()[0], VerificationCode: 'scan-secret' }, admin, { 'x-language': 'zh-TW' });
    expect(zh.body.Fields[0].Text).toBe('推送地址須指向公開網際網路，不能指向本機或內部網路');
    // An address no URL parser takes is a bad URL, not a server error.
    const broken = await p.call('/Push/SaveCompany', { Name: 'Scanner', PushUrl: 'http://[::1', VerificationCode: 'scan-secret' }, admin);
    expect(broken.body.Fields).toMatchObject([{ Field: 'PushUrl', Message: 'push.urlInvalid' }]);
    const { n } = (await p.deps.database.query<Row>(`SELECT count(*)::int AS n FROM push_companies WHERE name = 'Scanner'`))[0]!;
    expect(n).toBe(0);
    // Editing an existing company to an internal address is refused the same way.
    const ok = await p.call('/Push/SaveCompany', { Name: 'Partner', PushUrl: 'http://rebind.test/hook', VerificationCode: 'partner-secret', Effective: 2 }, admin);
    expect(ok.body).toMatchObject({ State: 200 });
    const edit = await p.call('/Push/SaveCompany', { Id: ok.body.Id, Name: 'Partner', PushUrl: internal()[0], VerificationCode: 'partner-secret', Effective: 2 }, admin);
    expect(edit.body.Fields).toMatchObject([{ Field: 'PushUrl', Message: 'push.urlInternal' }]);
    await p.call('/Push/DeleteCompany', { Id: ok.body.Id }, admin);
  });

  it('delivers nothing to internal addresses of companies saved before, nor to a name that has come to resolve to this host', async () => {
    const [root] = await p.deps.database.query<Row>(`SELECT id FROM accounts WHERE login_name = 'admin'`);
    const ids: number[] = [];
    for (const url of internal()) {
      const [row] = await p.deps.database.query<Row>(
        `INSERT INTO push_companies (account_id, name, push_url, verification_code) VALUES ($1, 'Saved before', $2, 'old-secret') RETURNING id`,
        [root!.id, url],
      );
      ids.push(Number(row!.id));
    }
    // Public when saved; this host when delivered.
    const saved = await p.call('/Push/SaveCompany', { Name: 'Rebinder', PushUrl: `http://rebind.test:${victim.port}/hook`, VerificationCode: 'rebind-secret' }, admin);
    expect(saved.body).toMatchObject({ State: 200 });
    ids.push(saved.body.Id);
    names['rebind.test'] = ['127.0.0.1'];

    const d = await addDevice(p, 'clinic01', '865000000031001', 'Bed 1');
    await deviceAlarm(p, d, 'sos');
    const logged = await until(async () => {
      const rows = await Promise.all(ids.map(attempts));
      return rows.every((r) => r.length > 0) ? rows.map((r) => r[0]!) : undefined;
    });
    for (const a of logged) {
      expect(a).toMatchObject({ success: false, status_code: null });
      expect(a.error).toMatch(/^refused: .+ is not a public internet address/);
    }
    expect(logged.at(-1)!.error).toContain('rebind.test');
    // The log names the host the user wrote, never the address it resolved to.
    expect(logged.at(-1)!.error).not.toContain('127.0.0.1');
    expect(victim.got).toEqual([]);
    const list = await p.call('/user/searchPushDataList', { CompanyId: saved.body.Id }, admin);
    expect(list.body.Items[0]).toMatchObject({ StatusCode: null, Success: 2 });
  });
});

describe.each(databases())('OUTBOUND_ALLOW on %s', (kind) => {
  let partner: Awaited<ReturnType<typeof listener>>;
  let internal: Awaited<ReturnType<typeof listener>>;
  let redirector: Awaited<ReturnType<typeof listener>>;
  let p: TestPlatform;
  let admin: string;

  beforeAll(async () => {
    partner = await listener();
    // 127.0.0.2 is loopback too, but outside the one address allowed.
    internal = await listener('127.0.0.2');
    redirector = await listener('127.0.0.1', () => ({ status: 302, headers: { location: `http://127.0.0.2:${internal.port}/secret` } }));
    p = await startTestPlatform(kind, { PUSH_RETRY_BASE_MS: '60000', OUTBOUND_ALLOW: '127.0.0.1/32' }, { lookup: stubResolver({ 'partner.test': ['127.0.0.1'] }) });
    admin = (await p.login()).token;
  });
  afterAll(async () => {
    await p?.stop();
    await Promise.all([partner, internal, redirector].map((l) => l?.close()));
  });

  it('delivers to the allowed network, by address and by name, follows no redirect, and still refuses the rest', async () => {
    const save = (Name: string, PushUrl: string) => p.call('/Push/SaveCompany', { Name, PushUrl, VerificationCode: 'allowed-secret' }, admin);
    const byIp = await save('By address', `http://127.0.0.1:${partner.port}/hook`);
    const byName = await save('By name', `http://partner.test:${partner.port}/hook`);
    const redirected = await save('Redirect', `http://127.0.0.1:${redirector.port}/hook`);
    expect([byIp, byName, redirected].map((r) => r.body.State)).toEqual([200, 200, 200]);
    expect((await save('Outside', `http://127.0.0.2:${internal.port}/hook`)).body.Fields).toMatchObject([{ Field: 'PushUrl', Message: 'push.urlInternal' }]);

    const d = await addDevice(p, 'clinic01', '865000000031002', 'Bed 2');
    await deviceAlarm(p, d, 'sos');
    await until(() => partner.got.length >= 2 || undefined);
    expect(partner.got.map((g) => g.headers.host).sort()).toEqual([`127.0.0.1:${partner.port}`, `partner.test:${partner.port}`]);
    const [attempt] = await until(async () => {
      const rows = await p.deps.database.query<Row>(`SELECT status_code, success, error FROM push_attempts WHERE company_id = $1`, [redirected.body.Id]);
      return rows.length ? rows : undefined;
    });
    expect(attempt).toMatchObject({ status_code: 302, success: false, error: 'HTTP 302: redirects are not followed' });
    expect(redirector.got).toHaveLength(1);
    expect(internal.got).toEqual([]);
  });
});
