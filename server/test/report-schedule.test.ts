// Scheduled reports: the period a mailing covers and when the next one is due, in the subscriber's
// zone; the calls (bad input names the field and changes nothing, another account neither sees nor
// stops one); a due subscription mailed through a real SMTP server with the report as a spreadsheet in
// the subscriber's language, then due again at the next period's end; and one due while the platform
// was down, mailed once when it is back (PGlite files).
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { nextMailing, periodBefore } from '../src/modules/report/schedule.js';
import { startPlatform, type Platform } from '../src/platform.js';
import { reportMailWorkers } from '../src/rules/services.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevices, addPositions } from './monitor-fixtures.js';
import { until } from './sms-fixtures.js';

type Row = Record<string, unknown>;
const DAY = 86_400_000;

describe('scheduled report periods', () => {
  it('is due at 06:00 of the zone after the day, the week (Monday to Sunday) or the month, and covers the period just ended', () => {
    const tz = 480;
    // Wednesday 4 March 2026, 18:00 at UTC+8.
    const at = new Date('2026-03-04T10:00:00Z');
    expect(nextMailing('daily', at, tz).toISOString()).toBe('2026-03-04T22:00:00.000Z');
    expect(nextMailing('weekly', at, tz).toISOString()).toBe('2026-03-08T22:00:00.000Z');
    expect(nextMailing('monthly', at, tz).toISOString()).toBe('2026-03-31T22:00:00.000Z');
    // At 03:00 on the 5th the mailing of the 4th is still to come that morning.
    expect(nextMailing('daily', new Date('2026-03-04T19:00:00Z'), tz).toISOString()).toBe('2026-03-04T22:00:00.000Z');
    expect(periodBefore('daily', new Date('2026-03-04T22:00:00Z'), tz)).toEqual({ From: '2026-03-04', To: '2026-03-04' });
    expect(periodBefore('weekly', new Date('2026-03-08T22:00:00Z'), tz)).toEqual({ From: '2026-03-02', To: '2026-03-08' });
    expect(periodBefore('monthly', new Date('2026-03-31T22:00:00Z'), tz)).toEqual({ From: '2026-03-01', To: '2026-03-31' });
    // UTC−9, across the year's end.
    expect(nextMailing('monthly', new Date('2026-12-20T00:00:00Z'), -540).toISOString()).toBe('2027-01-01T15:00:00.000Z');
    expect(periodBefore('monthly', new Date('2027-01-01T15:00:00Z'), -540)).toEqual({ From: '2026-12-01', To: '2026-12-31' });
    expect(periodBefore('weekly', new Date('2027-01-04T15:00:00Z'), -540)).toEqual({ From: '2026-12-28', To: '2027-01-03' });
  });
});

/** An SMTP server keeping what it receives. */
async function startSmtp() {
  const inbox: { to: string; raw: string }[] = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, cb) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
        cb();
      });
    },
  });
  smtp.listen(0, '127.0.0.1');
  await once(smtp.server, 'listening');
  return { inbox, url: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`, close: () => new Promise<void>((r) => smtp.close(() => r())) };
}

/** The subject (decoded) and the spreadsheet attached to a raw mail. */
async function readMail(raw: string) {
  const header = raw.slice(0, raw.indexOf('\r\n\r\n') > 0 ? raw.indexOf('\r\n\r\n') : raw.indexOf('\n\n')).replace(/\r?\n[ \t]+/g, ' ');
  const encoded = /^Subject: (.*)$/m.exec(header)?.[1] ?? '';
  const subject = encoded.replace(/=\?utf-8\?([BQ])\?([^?]*)\?=\s*/gi, (_, enc: string, text: string) =>
    enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeURIComponent(text.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, '%$1')),
  );
  const part = /Content-Disposition: attachment;\s*filename=("?)([^"\r\n]+)\1[\s\S]*?\r?\n\r?\n([A-Za-z0-9+/=\r\n]+)/.exec(raw);
  if (!part) return { subject, file: '', rows: [] as unknown[][] };
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(part[3]!.replace(/\s/g, ''), 'base64') as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
  return { subject, file: part[2]!, rows };
}

const localDay = (t: number, tz: number) => new Date(t + tz * 60_000).toISOString().slice(0, 10);

describe.each(databases())('scheduled reports (%s)', (kind) => {
  let p: TestPlatform;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let clinic: string;
  let agent: string;
  let operator: string;
  let device: { id: number; imei: string };
  let foreign: { id: number };
  let yesterday = '';

  beforeAll(async () => {
    smtp = await startSmtp();
    p = await startTestPlatform(kind, { SMTP_URL: smtp.url });
    await p.deps.database.query(`UPDATE accounts SET time_zone_offset = 480, language = 'en' WHERE login_name = 'clinic01'`);
    clinic = (await p.login('clinic01')).token;
    agent = (await p.login('agent01')).token;
    operator = (await p.login('operator01')).token;
    [device] = (await addDevices(p, 'clinic01', [{ name: 'Van 7' }])) as [{ id: number; imei: string; name: string }];
    [foreign] = (await addDevices(p, 'operator01', [{ name: 'Elsewhere' }])) as [{ id: number; imei: string; name: string }];
    // Yesterday in UTC+8: 2 km east from 10:00 to 10:10, a point a minute.
    const start = Date.parse(`${localDay(Date.now() - DAY, 480)}T02:00:00Z`);
    yesterday = localDay(start, 480);
    await addPositions(p, device.id, Array.from({ length: 11 }, (_, i) => [22.54, 114.05 + i * 0.002, start + i * 60_000] as [number, number, number]));
  }, 120_000);
  afterAll(async () => {
    await p?.stop();
    await smtp?.close();
  });

  it('refuses bad input on its field and changes nothing; another account neither sees nor stops one', async () => {
    const base = { Report: 'summary', Frequency: 'daily', Email: 'nurse@example.com', DeviceId: device.id };
    for (const [body, field] of [
      [{ ...base, Frequency: 'hourly' }, 'Frequency'],
      [{ ...base, Email: 'not-an-address' }, 'Email'],
      [{ ...base, Report: 'trips', DeviceId: undefined }, 'DeviceId'],
    ] as const) {
      const r = await p.call('/Report/SubscriptionSave', body, clinic);
      expect(r.status).toBe(400);
      expect(JSON.stringify(r.body.Errors ?? r.body)).toContain(field);
    }
    // Another tenant's device reads as missing.
    expect((await p.call('/Report/SubscriptionSave', { ...base, DeviceId: foreign.id }, clinic)).body.State).not.toBe(200);
    expect((await p.call('/Report/Subscriptions', {}, clinic)).body.Items).toEqual([]);

    const saved = await p.call('/Report/SubscriptionSave', base, clinic);
    expect(saved.body.State).toBe(200);
    expect(saved.body.Item).toMatchObject({ Report: 'summary', Frequency: 'daily', Email: 'nurse@example.com', DeviceId: device.id, Subject: 'Van 7', Enabled: true, LastSentAt: '' });
    // Next due at 06:00 UTC+8 after today, shown in the subscriber's zone.
    const [row] = await p.deps.database.query<Row>(`SELECT next_at FROM report_subscriptions WHERE id = $1`, [saved.body.Item.Id]);
    expect(new Date(row!.next_at as string).toISOString()).toBe(nextMailing('daily', new Date(), 480).toISOString());
    expect(saved.body.Item.NextAt).toMatch(/ 06:00:00$/);

    // The agent above the care home neither lists nor deletes it; the operator, another tenant, neither.
    expect((await p.call('/Report/Subscriptions', {}, agent)).body.Items).toEqual([]);
    expect((await p.call('/Report/SubscriptionDelete', { Id: saved.body.Item.Id }, agent)).body.State).not.toBe(200);
    expect((await p.call('/Report/SubscriptionDelete', { Id: saved.body.Item.Id }, operator)).body.State).not.toBe(200);
    expect((await p.call('/Report/Subscriptions', {}, clinic)).body.Items).toHaveLength(1);
  });

  it("mails the day just ended as a spreadsheet in the subscriber's language, then is due the next day", async () => {
    const [{ Id: id }] = (await p.call('/Report/Subscriptions', {}, clinic)).body.Items as [{ Id: number }];
    await p.deps.database.query(`UPDATE report_subscriptions SET next_at = now() - interval '1 minute' WHERE id = $1`, [id]);
    reportMailWorkers.get(p.deps)!.kick();
    await until(() => smtp.inbox.length >= 1, 30_000);
    expect(smtp.inbox).toHaveLength(1);
    const mail = smtp.inbox[0]!;
    expect(mail.to).toBe('nurse@example.com');
    const read = await readMail(mail.raw);
    expect(read.subject).toContain(`Summary report, ${yesterday} to ${yesterday}`);
    expect(read.file).toBe(`summary-${yesterday}-${yesterday}.xlsx`);
    // A header in English and the device's day: 2 km driven.
    expect(read.rows[0]).toContain('Distance (km)');
    const van = read.rows.find((r) => r.includes(device.imei));
    expect(van).toBeDefined();
    expect(van).toContain(yesterday);
    expect(van![3]).toBeCloseTo(2.1, 0);

    const [after] = (await p.call('/Report/Subscriptions', {}, clinic)).body.Items as [{ LastSentAt: string; LastPeriod: string; LastError: string }];
    expect(after).toMatchObject({ LastPeriod: `${yesterday} – ${yesterday}`, LastError: '' });
    expect(after.LastSentAt).not.toBe('');
    const [row] = await p.deps.database.query<Row>(`SELECT status, next_at FROM report_subscriptions WHERE id = $1`, [id]);
    expect(row!.status).toBe('pending');
    expect(new Date(row!.next_at as string).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(row!.next_at as string).toISOString()).toBe(nextMailing('daily', new Date(), 480).toISOString());
  }, 60_000);
});

describe('a scheduled report due while the platform was down (PGlite files)', () => {
  let second: Platform | undefined;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let dataDir = '';
  afterAll(async () => {
    await second?.close();
    await smtp?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is mailed once when the platform is back', async () => {
    smtp = await startSmtp();
    const env = { SMTP_URL: smtp.url };
    const first = await startTestPlatform('pglite', env);
    dataDir = first.dataDir;
    const admin = (await first.login()).token;
    const saved = await first.call('/Report/SubscriptionSave', { Report: 'alarms', Frequency: 'weekly', Email: 'director@example.com' }, admin);
    expect(saved.body.State).toBe(200);
    // Due now, written behind the worker's back (no wake-up): the platform stops before its next poll.
    await first.deps.database.query(`UPDATE report_subscriptions SET next_at = now() - interval '1 minute' WHERE id = $1`, [saved.body.Item.Id]);
    await first.close();
    expect(smtp.inbox).toHaveLength(0);

    second = await startPlatform(loadConfig({ PORT: '0', HOST: '127.0.0.1', WATCH_PORT: '0', GT06_PORT: '0', OSMAND_PORT: '0', LOG_LEVEL: 'silent', DATA_DIR: dataDir, SIMULATE: '0', ...env }));
    await until(() => smtp.inbox.length >= 1, 30_000);
    const mail = await readMail(smtp.inbox[0]!.raw);
    expect(smtp.inbox[0]!.to).toBe('director@example.com');
    // The admin's zone and language (the demo's: Chinese); the week just ended, Monday to Sunday.
    expect(mail.subject).toMatch(/报警报表，\d{4}-\d\d-\d\d 至 \d{4}-\d\d-\d\d/);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(smtp.inbox).toHaveLength(1);
    const [row] = await second.deps.database.query<Row>(`SELECT status, last_period FROM report_subscriptions WHERE id = $1`, [saved.body.Item.Id]);
    expect(row).toMatchObject({ status: 'pending' });
    const [from, to] = String(row!.last_period).split('..') as [string, string];
    expect((Date.parse(to) - Date.parse(from)) / DAY).toBe(6);
    expect(new Date(`${from}T00:00:00Z`).getUTCDay()).toBe(1);
  }, 120_000);
});
