// The SMS service: balances recharged and corrected by an administrator with every change logged,
// alarm texts to contacts through the durable notice outbox (charged, in the contact's language,
// refused and never sent at 0), reconciliation with delivery reports, the SMPP provider against an
// in-process SMSC (submit, receipts, throttling, reconnect), the Alibaba Cloud HTTP provider, and
// a notice surviving a restart.
import { createServer, type Server } from 'node:http';
import { rmSync } from 'node:fs';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { SmppProvider } from '../src/modules/sms/smpp-provider.js';
import { SmsError, aliyunSignature, aliyunSmsProvider, smsSegments, type SmsReport } from '../src/modules/sms/providers.js';
import { createOutbound } from '../src/lib/outbound.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, deviceAlarm } from './alarm-fixtures.js';
import { startSmsc, until } from './sms-fixtures.js';

type Row = Record<string, any>;
const log = pino({ level: 'silent' });

async function notices(p: Platform, where = 'true'): Promise<Row[]> {
  return p.deps.database.query<Row>(`SELECT * FROM notice_outbox WHERE ${where} ORDER BY id`);
}

async function accountId(p: Platform, loginName: string): Promise<number> {
  const [r] = await p.deps.database.query<Row>(`SELECT id FROM accounts WHERE login_name = $1`, [loginName]);
  return Number(r!.id);
}

describe.each(databases())('SMS service on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let agent: string;
  let operator: string;
  let agentId: number;
  let gateway: Server;
  const texts: { phone: string; text: string }[] = [];
  beforeAll(async () => {
    // An SMS gateway of one's own that takes every text.
    gateway = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        texts.push(JSON.parse(body));
        res.end();
      });
    });
    await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(gateway.address() as { port: number }).port}/sms`;
    p = await startTestPlatform(kind, { NOTICE_RETRY_BASE_MS: '100', SMS_PROVIDER: 'http', SMS_HTTP_URL: url, OUTBOUND_ALLOW: '127.0.0.1/32' });
    // The demo accounts' message service (a function switch granted from above) is on for these texts.
    await p.deps.database.query(`UPDATE accounts SET is_send_message = 1 WHERE login_name <> 'operator01'`);
    admin = (await p.login()).token;
    agent = (await p.login('agent01')).token;
    operator = (await p.login('operator01')).token;
    agentId = await accountId(p, 'agent01');
  });
  afterAll(async () => {
    await p?.stop();
    await new Promise<void>((r) => gateway.close(() => r()));
  });

  const balance = async (token: string, userId: number) => {
    const r = await p.call('/User/AllSMSList', { UserId: userId }, token);
    return r.body.Items.find((i: Row) => i.UserId === userId);
  };

  it('recharges, corrects and switches an account, logs who did it, and refuses bad input unchanged', async () => {
    expect(await balance(admin, agentId)).toMatchObject({ Status: 2, Recharged: 0, Used: 0, Remaining: 0 });
    const r = await p.call('/User/actionSMSData', { UserId: agentId, Count: 5, Remark: 'first pack' }, admin);
    expect(r.body).toMatchObject({ State: 200, Item: { Status: 1, Recharged: 5, Remaining: 5 } });

    const below = await p.call('/User/actionSMSData', { UserId: agentId, Count: -6 }, admin);
    expect(below.body.Fields).toEqual([expect.objectContaining({ Field: 'Count', Message: 'sms.belowZero' })]);
    const nothing = await p.call('/User/actionSMSData', { UserId: agentId, Count: 0 }, admin);
    expect(nothing.body.Fields[0]).toMatchObject({ Field: 'Count', Message: 'sms.countRequired' });
    const huge = await p.call('/User/actionSMSData', { UserId: agentId, Count: 10_000_000 }, admin);
    expect(huge.body.Fields[0]).toMatchObject({ Field: 'Count', Message: 'validation.max' });
    expect(await balance(admin, agentId)).toMatchObject({ Recharged: 5, Remaining: 5 });

    // Only administrators recharge; an account outside the caller's subtree is not found.
    expect((await p.call('/User/actionSMSData', { UserId: agentId, Count: 5 }, agent)).body.State).not.toBe(200);
    const otherList = await p.call('/User/AllSMSList', {}, operator);
    expect(otherList.body.Items.map((i: Row) => i.LoginName)).toEqual(['operator01']);
    expect((await p.call('/User/AllSMSList', { UserId: agentId }, operator)).body.State).toBe(403);
    expect((await p.call('/SMS/Changes', { UserId: agentId }, operator)).body.State).toBe(403);

    await p.call('/User/actionSMSData', { UserId: agentId, Status: 2 }, admin);
    await p.call('/User/actionSMSData', { UserId: agentId, Status: 1, Count: -1, Remark: 'correction' }, admin);
    const changes = (await p.call('/SMS/Changes', {}, agent)).body.Items;
    expect(changes.map((c: Row) => [c.Kind, c.Amount, c.Remaining, c.ByName])).toEqual([
      ['status', 1, 4, 'admin'],
      ['correct', -1, 4, 'admin'],
      ['status', 0, 5, 'admin'],
      ['recharge', 5, 5, 'admin'],
    ]);
    expect(changes[3].Remark).toBe('first pack');
  });

  it('texts an alarm to the contacts in their account language, charged, and refuses it at 0 without sending', async () => {
    await p.deps.database.query(`UPDATE accounts SET language = 'en' WHERE id = $1`, [agentId]);
    const c = await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Night nurse', Phone: '13800000001', Email: 'nurse@example.com' }, agent);
    expect(c.body.State).toBe(200);
    const watch = await addDevice(p, 'clinic01', '865000000015001', 'Bed 1');
    const before = (await balance(admin, agentId)).Remaining;

    await deviceAlarm(p, watch, 'sos');
    const sent = await until(async () => {
      const rows = await notices(p, `imei = '${watch.imei}'`);
      return rows.length === 2 && rows.every((r) => r.status === 'delivered') && rows;
    });
    const sms = sent.find((r) => r.channel === 'sms')!;
    expect(sms).toMatchObject({ recipient: '13800000001', account_id: agentId, segments: smsSegments(sms.body), refunded: false });
    expect(sms.body).toContain('Bed 1');
    expect(sms.body).toMatch(/raised/);
    expect(sent.find((r) => r.channel === 'email')!.recipient).toBe('nurse@example.com');
    expect((await balance(admin, agentId)).Remaining).toBe(before - sms.segments);
    expect(texts).toContainEqual({ phone: '13800000001', text: sms.body });

    // Nothing left: the next alarm's text is refused and logged, the e-mail still goes.
    const left = (await balance(admin, agentId)).Remaining;
    await p.call('/User/actionSMSData', { UserId: agentId, Count: -left }, admin);
    await deviceAlarm(p, watch, 'fall');
    const refused = await until(async () => {
      const rows = await notices(p, `imei = '${watch.imei}' AND id > ${sms.id}`);
      return rows.length === 2 && rows.find((r) => r.channel === 'email')?.status === 'delivered' && rows;
    });
    const text = refused.find((r) => r.channel === 'sms')!;
    expect(text).toMatchObject({ status: 'refused', last_error: 'sms.refusedEmpty', attempts: 0, segments: 0 });
    expect((await balance(admin, agentId)).Remaining).toBe(0);
    const records = (await p.call('/SMS/Records', { Channel: 'sms', Status: 'refused' }, agent)).body;
    expect(records.Items).toEqual([expect.objectContaining({ Id: Number(text.id), Error: 'sms.refusedEmpty', Imei: watch.imei })]);
    const change = (await p.call('/SMS/Changes', {}, agent)).body.Items[0];
    expect(change).toMatchObject({ Kind: 'refuse', NoticeId: Number(text.id), Remark: 'sms.refusedEmpty' });
    // Another tenant sees none of it.
    expect((await p.call('/SMS/Records', {}, operator)).body.Total).toBe(0);
  });

  it("refuses the text of an account whose message service is off, charging nothing, while the e-mail goes", async () => {
    const operatorId = await accountId(p, 'operator01');
    await p.call('/User/actionSMSData', { UserId: operatorId, Count: 5 }, admin);
    expect((await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Dispatcher', Phone: '13800000002', Email: 'dispatch@example.com' }, operator)).body.State).toBe(200);
    const d = await addDevice(p, 'operator01', '865000000015002', 'Van 2');
    const sent = texts.length;
    await deviceAlarm(p, d, 'sos');
    const rows = await until(async () => {
      const r = await notices(p, `imei = '${d.imei}'`);
      return r.length === 2 && r.find((x) => x.channel === 'email')?.status === 'delivered' && r;
    });
    expect(rows.find((r) => r.channel === 'sms')).toMatchObject({ status: 'refused', last_error: 'sms.refusedNoService', segments: 0, attempts: 0 });
    expect(await balance(admin, operatorId)).toMatchObject({ Used: 0, Remaining: 5 });
    expect(texts.slice(sent).filter((x) => x.phone === '13800000002')).toEqual([]);
  });

  it('reconciles with the delivery reports: an undelivered text is refunded once, and drifted counts corrected', async () => {
    await p.call('/User/actionSMSData', { UserId: agentId, Count: 3 }, admin);
    const [sms] = await notices(p, `channel = 'sms' AND status = 'delivered' AND account_id = ${agentId}`);
    await p.deps.database.query(`UPDATE notice_outbox SET status = 'undelivered' WHERE id = $1`, [sms!.id]);
    await p.deps.database.query(`UPDATE sms_balances SET used = used + 7 WHERE account_id = $1`, [agentId]);
    const r = await p.call('/User/synchronizationSMSData', {}, admin);
    expect(r.body).toMatchObject({ State: 200, Refunded: 1, Corrected: 1 });
    const b = await balance(admin, agentId);
    expect(b.Used).toBe(0);
    expect(b.Remaining).toBe(b.Recharged);
    expect((await p.call('/User/synchronizationSMSData', {}, admin)).body).toMatchObject({ Refunded: 0, Corrected: 0 });
  });
});

describe.each(databases())('the logging SMS provider on %s', (kind) => {
  let p: TestPlatform;
  afterAll(() => p?.stop());

  it('records a text "logged, not sent" and charges nothing, even with a balance', async () => {
    p = await startTestPlatform(kind, { SMS_PROVIDER: 'log' });
    // The demo accounts' message service (a function switch granted from above) is on for these texts.
    await p.deps.database.query(`UPDATE accounts SET is_send_message = 1 WHERE login_name <> 'operator01'`);
    const admin = (await p.login()).token;
    const clinicId = await accountId(p, 'clinic01');
    const clinic = (await p.login('clinic01')).token;
    await p.call('/User/actionSMSData', { UserId: clinicId, Count: 5 }, admin);
    expect((await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Son', Phone: '13800000009', Email: 'son@example.com' }, clinic)).body.State).toBe(200);
    const d = await addDevice(p, 'clinic01', '865000000015009', 'Bed 9');
    await deviceAlarm(p, d, 'sos');
    const rows = await until(async () => {
      const r = await notices(p, `imei = '${d.imei}'`);
      return r.length === 2 && r.find((x) => x.channel === 'email')?.status === 'delivered' && r;
    });
    const sms = rows.find((r) => r.channel === 'sms')!;
    expect(sms).toMatchObject({ status: 'logged', segments: 0, attempts: 0, recipient: '13800000009' });
    expect(sms.body).toContain('Bed 9');
    const [b] = await p.deps.database.query<Row>(`SELECT used, remaining FROM sms_balances WHERE account_id = $1`, [clinicId]);
    expect(b).toEqual({ used: 0, remaining: 5 });
    const changes = (await p.call('/SMS/Changes', {}, clinic)).body.Items;
    expect(changes.map((c: Row) => c.Kind)).toEqual(['recharge']);
    const records = (await p.call('/SMS/Records', { Channel: 'sms' }, clinic)).body;
    expect(records.Items).toEqual([expect.objectContaining({ Status: 'logged', Imei: d.imei })]);
    // Reconciling has nothing to give back for it.
    expect((await p.call('/User/synchronizationSMSData', {}, admin)).body).toMatchObject({ Refunded: 0 });
  });
});

describe('SMPP provider against an in-process SMSC', () => {
  let smsc: Awaited<ReturnType<typeof startSmsc>>;
  let provider: SmppProvider | undefined;
  beforeAll(async () => {
    smsc = await startSmsc();
  });
  afterAll(async () => {
    await provider?.close();
    await smsc.close();
  });

  it('binds, submits (a Chinese text too), and hears the delivery receipts', async () => {
    provider = new SmppProvider({ url: smsc.url, systemId: 'wt', password: 'secret', sourceAddr: 'WearTrack', throughput: 50, log });
    const reports: SmsReport[] = [];
    provider.onReport((r) => reports.push(r));
    const a = await provider.send('+8613800000001', 'SOS from Bed 1');
    const b = await provider.send('13800000002', '床位1 触发了 SOS 报警');
    expect(a.awaitsReport).toBe(true);
    expect(smsc.submits.map((s) => [s.destination, s.text])).toEqual([
      ['8613800000001', 'SOS from Bed 1'],
      ['13800000002', '床位1 触发了 SOS 报警'],
    ]);
    await until(() => reports.length === 2);
    expect(reports).toEqual([
      { ref: a.ref, delivered: true, stat: 'DELIVRD' },
      { ref: b.ref, delivered: true, stat: 'DELIVRD' },
    ]);
  });

  it('keeps to its throughput and retries what the SMSC throttles', async () => {
    const slow = new SmppProvider({ url: smsc.url, systemId: 'wt', password: 'secret', sourceAddr: 'WearTrack', throughput: 5, log });
    try {
      const from = smsc.submits.length;
      await Promise.all([1, 2, 3, 4].map((i) => slow.send(`1390000000${i}`, `text ${i}`)));
      const at = smsc.submits.slice(from).map((s) => s.at);
      for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(150);
      smsc.throttleNext(1);
      const err = await slow.send('13900000009', 'busy').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(SmsError);
      expect((err as SmsError).final).toBe(false);
      expect((err as SmsError).message).toContain('0x58');
      await expect(slow.send('13900000009', 'again')).resolves.toMatchObject({ awaitsReport: true });
    } finally {
      await slow.close();
    }
  });

  it('binds again after the connection drops, and refuses to send on a refused bind', async () => {
    const p = new SmppProvider({ url: smsc.url, systemId: 'wt', password: 'secret', sourceAddr: 'WearTrack', throughput: 50, log });
    try {
      await p.send('13900000010', 'before');
      expect(p.binds).toBe(1);
      smsc.dropAll();
      await until(() => p.binds === 2, 10_000);
      await expect(p.send('13900000011', 'after')).resolves.toMatchObject({ awaitsReport: true });
      expect(smsc.submits.at(-1)!.text).toBe('after');
    } finally {
      await p.close();
    }
    const wrong = new SmppProvider({ url: smsc.url, systemId: 'wt', password: 'nope', sourceAddr: 'WearTrack', throughput: 50, timeoutMs: 500, log });
    try {
      await expect(wrong.send('13900000012', 'never')).rejects.toThrow('not bound');
      expect(smsc.submits.at(-1)!.text).toBe('after');
    } finally {
      await wrong.close();
    }
  });
});

describe.each(databases())('alarm texts through SMPP on %s', (kind) => {
  let smsc: Awaited<ReturnType<typeof startSmsc>>;
  let p: TestPlatform;
  beforeAll(async () => {
    smsc = await startSmsc({ stat: (d) => (d.endsWith('9') ? 'UNDELIV' : 'DELIVRD') });
    p = await startTestPlatform(kind, { SMS_PROVIDER: 'smpp', SMPP_URL: smsc.url, SMPP_SYSTEM_ID: 'wt', SMPP_PASSWORD: 'secret', SMPP_THROUGHPUT: '100' });
    // The demo accounts' message service (a function switch granted from above) is on for these texts.
    await p.deps.database.query(`UPDATE accounts SET is_send_message = 1 WHERE login_name <> 'operator01'`);
  });
  afterAll(async () => {
    await p?.stop();
    await smsc?.close();
  });

  it('marks texts delivered or undelivered by the receipts, and the undelivered one is refunded on reconciling', async () => {
    const admin = (await p.login()).token;
    const clinic = (await p.login('clinic01')).token;
    const clinicId = await accountId(p, 'clinic01');
    await p.call('/User/actionSMSData', { UserId: clinicId, Count: 10 }, admin);
    await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Daughter', Phone: '13800000008' }, clinic);
    await p.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Son', Phone: '13800000009' }, clinic);
    const watch = await addDevice(p, 'clinic01', '865000000015002', 'Bed 2');
    await deviceAlarm(p, watch, 'sos');
    const rows = await until(async () => {
      const r = await notices(p, `imei = '${watch.imei}'`);
      return r.length === 2 && r.every((n) => n.status === 'delivered' || n.status === 'undelivered') && r;
    });
    expect(rows.map((r) => [r.recipient, r.status])).toEqual([
      ['13800000008', 'delivered'],
      ['13800000009', 'undelivered'],
    ]);
    expect(rows[0]!.body).toContain('Bed 2');
    expect(smsc.submits.map((s) => s.destination).sort()).toEqual(['13800000008', '13800000009']);
    const seg = rows[1]!.segments;
    const before = (await p.call('/User/AllSMSList', { UserId: clinicId }, admin)).body.Items[0];
    expect((await p.call('/User/synchronizationSMSData', { UserId: clinicId }, admin)).body.Refunded).toBe(1);
    const after = (await p.call('/User/AllSMSList', { UserId: clinicId }, admin)).body.Items[0];
    expect(after.Remaining).toBe(before.Remaining + seg);
  });
});

describe('Alibaba Cloud SMS provider against a local API', () => {
  let server: Server;
  let url = '';
  const outbound = createOutbound({ allow: ['127.0.0.1/32'] });
  const got: URLSearchParams[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const q = new URL(req.url!, 'http://x').searchParams;
      got.push(q);
      const params = Object.fromEntries([...q].filter(([k]) => k !== 'Signature'));
      const valid = q.get('Signature') === aliyunSignature('GET', params, 'key-secret');
      res.setHeader('content-type', 'application/json');
      if (!valid) res.end(JSON.stringify({ Code: 'SignatureDoesNotMatch', Message: 'bad signature' }));
      else if (q.get('PhoneNumbers') === '100') res.end(JSON.stringify({ Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: 'illegal' }));
      else if (q.get('PhoneNumbers') === '200') res.end(JSON.stringify({ Code: 'isv.BUSINESS_LIMIT_CONTROL', Message: 'flow control' }));
      else res.end(JSON.stringify({ Code: 'OK', BizId: '9001^0', RequestId: 'r1' }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
  });
  afterAll(async () => {
    await outbound.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('signs SendSms, passes the text as the template variable, and tells final refusals from retryable ones', async () => {
    const provider = aliyunSmsProvider({ endpoint: url, accessKeyId: 'key-id', accessKeySecret: 'key-secret', signName: '云守护', templateCode: 'SMS_1', templateParam: 'content' }, outbound);
    await expect(provider.send('13800000001', 'SOS！床位 1')).resolves.toEqual({ ref: '9001^0', awaitsReport: false });
    expect(got[0]!.get('Action')).toBe('SendSms');
    expect(JSON.parse(got[0]!.get('TemplateParam')!)).toEqual({ content: 'SOS！床位 1' });
    expect(got[0]!.get('SignName')).toBe('云守护');
    await expect(provider.send('100', 'x')).rejects.toMatchObject({ final: true });
    await expect(provider.send('200', 'x')).rejects.toMatchObject({ final: false });
    const wrong = aliyunSmsProvider({ endpoint: url, accessKeyId: 'key-id', accessKeySecret: 'other', signName: 'x', templateCode: 'SMS_1', templateParam: 'content' }, outbound);
    await expect(wrong.send('13800000001', 'x')).rejects.toThrow('SignatureDoesNotMatch');
  });
});

describe('alarm notices across a restart (PGlite files)', () => {
  let second: Platform | undefined;
  let dataDir = '';
  let server: Server;
  const got: string[] = [];
  afterAll(async () => {
    await second?.close();
    await new Promise<void>((r) => server.close(() => r()));
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers after the restart the text that failed before it, charged once', async () => {
    // An SMS gateway failing its first request.
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        got.push(body);
        res.statusCode = got.length === 1 ? 503 : 200;
        res.end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const gateway = `http://127.0.0.1:${(server.address() as { port: number }).port}/sms`;
    const env = { SMS_PROVIDER: 'http', SMS_HTTP_URL: gateway, NOTICE_RETRY_BASE_MS: '1500', OUTBOUND_ALLOW: '127.0.0.1/32' };
    const first = await startTestPlatform('pglite', env);
    // The demo accounts' message service (a function switch granted from above) is on for these texts.
    await first.deps.database.query(`UPDATE accounts SET is_send_message = 1 WHERE login_name <> 'operator01'`);
    dataDir = first.dataDir;
    const admin = (await first.login()).token;
    const clinicId = await accountId(first, 'clinic01');
    await first.call('/User/actionSMSData', { UserId: clinicId, Count: 2 }, admin);
    await first.call('/ExceptionMessage/actionForAlarmContactPeople', { Name: 'Wife', Phone: '13800000007' }, (await first.login('clinic01')).token);
    const d = await addDevice(first, 'clinic01', '865000000015003', 'Bed 3');
    await deviceAlarm(first, d, 'sos');
    await until(() => got.length >= 1);
    await first.close();

    second = await startPlatform(
      loadConfig({ PORT: '0', HOST: '127.0.0.1', WATCH_PORT: '0', GT06_PORT: '0', OSMAND_PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, SIMULATE: '0', ...env }),
    );
    await until(() => got.length >= 2);
    expect(JSON.parse(got[1]!)).toEqual(JSON.parse(got[0]!));
    expect(JSON.parse(got[1]!)).toMatchObject({ phone: '13800000007' });
    const row = await until(async () => (await notices(second!, `imei = '${d.imei}'`)).find((r) => r.status === 'delivered'));
    expect(row).toMatchObject({ attempts: 2, segments: 1 });
    const [b] = await second.deps.database.query<Row>(`SELECT used, remaining FROM sms_balances WHERE account_id = $1`, [clinicId]);
    expect(b).toEqual({ used: 1, remaining: 1 });
    // Two platform starts on files: slow on a loaded machine.
  }, 90_000);
});
