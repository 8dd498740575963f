// Escalation across processes and crashes, on PostgreSQL and Redis: process A takes the devices and
// the console calls (roles api and gateway), process B runs the worker (alarms, escalation steps).
// An alarm acknowledged through A while B holds its next step stops it in B at once (B learns of it
// on the Redis bus and drops the step it had claimed); B killed with SIGKILL between steps, while a
// step's transaction is open, or right after it committed, neither loses nor repeats a step once it
// is back: every step is sent exactly once, in order, with its SMS and e-mail queued exactly once.
// Steps are minutes apart; the test brings a waiting step forward (its next_at), as escalation.test.ts
// does, and a crashed worker's lease (three times the step timeout) is expired by the test.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES } from '@wt/contract';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { freePort } from '../src/cluster/launch.js';
import { createPgDatabase } from './helpers.js';
import { connectWatch, eventually, type FakeDevice } from './gateway-helpers.js';
import { PlatformProcess } from './process-helpers.js';

const DB = process.env.TEST_DATABASE_URL;
const REDIS = process.env.TEST_REDIS_URL;
const reason = !DB || !REDIS ? 'the escalation process test needs TEST_DATABASE_URL and TEST_REDIS_URL (PostgreSQL and Redis)' : undefined;
if (reason) console.log(`skipped: ${reason}`);

type Row = Record<string, any>;

describe.skipIf(!!reason)('escalation across two processes on PostgreSQL and Redis', () => {
  let db: { url: string; drop: () => Promise<void> };
  let pool: pg.Pool;
  let a: PlatformProcess;
  let b: PlatformProcess;
  let watchPort = 0;
  let token = '';
  const devices: { id: number; imei: string; accountId: number }[] = [];
  const sockets: FakeDevice[] = [];
  const q = async (text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as Row[];
  const call = async (p: string, body: unknown) =>
    (await (await fetch(`${a.url}/api${p}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).json()) as Row;

  /** The device presses SOS (through A); resolves with the alarm B raised. */
  const sos = async (dev: { id: number; imei: string }) => {
    const since = new Date(Date.now() - 2000);
    const w = await connectWatch(watchPort, dev.imei, 15_000);
    sockets.push(w);
    w.send(buildWatchFrame('3G', dev.imei, watchContent.al({ fix: { time: new Date(), valid: true, lat: 22.5, lon: 114, speed: 0, course: 0 }, alarms: ['sos'] })));
    await w.untilText(`[3G*${dev.imei}*0002*AL]`, 15_000);
    const [alarm] = await eventually(async () => {
      const rows = await q(`SELECT id FROM alarms WHERE device_id = $1 AND type = $2 AND status = 0 AND created_at >= $3`, [dev.id, ALARM_CODES.sos, since]);
      return rows.length ? rows : undefined;
    }, 30_000);
    return Number(alarm!.id);
  };
  const sendsOf = (alarmId: number) => q(`SELECT step, channel, recipient, ok FROM escalation_sends WHERE alarm_id = $1 ORDER BY id`, [alarmId]);
  const untilSends = (alarmId: number, n: number) => eventually(async () => ((await sendsOf(alarmId)).length >= n ? true : undefined), 30_000);
  /** Brings the alarm's waiting step (0-based) forward to now, once it is scheduled. */
  const due = async (alarmId: number, step: number) => {
    await eventually(async () => (await q(`SELECT 1 FROM escalation_outbox WHERE alarm_id = $1 AND step = $2`, [alarmId, step])).length > 0, 30_000);
    await q(`UPDATE escalation_outbox SET next_at = now() WHERE alarm_id = $1 AND step = $2 AND status = 'pending'`, [alarmId, step]);
  };
  /** Every step sent exactly once, in order, each with one SMS and one e-mail queued. */
  const exactlyOnce = async (alarmId: number) => {
    expect((await sendsOf(alarmId)).map((r) => [r.step, r.channel, r.recipient, r.ok])).toEqual(
      [1, 2, 3].flatMap((s) => [
        [s, 'sms', '13800000301', true],
        [s, 'email', 'first@example.com', true],
      ]),
    );
    // The contact's SMS and e-mail: one of each at the raising (the alarm's own notice), one per step.
    const notices = await q(`SELECT channel, recipient, count(*)::int AS n FROM notice_outbox WHERE alarm_id = $1 GROUP BY 1, 2 ORDER BY 1`, [alarmId]);
    expect(notices).toEqual([
      { channel: 'email', recipient: 'first@example.com', n: 4 },
      { channel: 'sms', recipient: '13800000301', n: 4 },
    ]);
    expect(await q(`SELECT step, status FROM escalation_outbox WHERE alarm_id = $1 ORDER BY step`, [alarmId])).toEqual([
      { step: 0, status: 'delivered' },
      { step: 1, status: 'delivered' },
      { step: 2, status: 'delivered' },
    ]);
  };

  beforeAll(async () => {
    db = await createPgDatabase({ migrated: true });
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    watchPort = await freePort();
    const common = { DATABASE_URL: db.url, REDIS_URL: REDIS!, SMS_PROVIDER: 'log' };
    a = await PlatformProcess.create('A', { ...common, ROLES: 'api,gateway', WATCH_PORT: String(watchPort), DEMO: '1' });
    b = await PlatformProcess.create('B', { ...common, ROLES: 'worker', DEMO: '0' });
    await a.start();
    const login = (await (await fetch(`${a.url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: 'admin', Password: 'admin123' }) })).json()) as Row;
    token = login.AccessToken;
    // The demo's alarms acknowledged and their steps cancelled: only this test's alarms escalate.
    await q(`UPDATE alarms SET status = 1 WHERE status = 0`);
    await q(`UPDATE escalation_outbox SET status = 'cancelled' WHERE status = 'pending'`);
    const rows = await q(`SELECT id, imei, account_id FROM devices WHERE protocol = 'watch' ORDER BY id LIMIT 4`);
    for (const r of rows) devices.push({ id: Number(r.id), imei: String(r.imei), accountId: Number(r.account_id) });
    // Each device's account: one contact (SMS and e-mail), and an SOS policy of three steps a minute apart.
    for (const accountId of new Set(devices.map((d) => d.accountId))) {
      await q(`UPDATE accounts SET is_send_message = 1 WHERE id = $1`, [accountId]);
      await q(`DELETE FROM alarm_contacts WHERE account_id = $1`, [accountId]);
      await q(`INSERT INTO alarm_contacts (account_id, name, phone, email) VALUES ($1, 'First', '13800000301', 'first@example.com')`, [accountId]);
      const saved = await call('/Escalation/Save', {
        UserId: accountId,
        AlarmType: ALARM_CODES.sos,
        Steps: [0, 1, 2].map((wait) => ({ Wait: wait, Channels: ['sms', 'email'], Contacts: [1] })),
        RepeatMinutes: 0,
        RepeatCap: 0,
      });
      expect(saved.State).toBe(200);
    }
  }, 240_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await b?.kill('SIGKILL');
    await a?.kill('SIGTERM');
    await pool?.end();
    await db?.drop();
  }, 60_000);

  it('an alarm acknowledged through A stops its escalation in B at once: the step B had claimed is dropped, no later step is sent', { timeout: 120_000 }, async () => {
    // B holds the second step it claims for 4 s before looking at it.
    await b.start({ ESCALATION_TEST_PAUSE: '2:claimed:4000' });
    const alarmId = await sos(devices[0]!);
    await untilSends(alarmId, 2);
    await due(alarmId, 1);
    await b.log((l) => l.msg === 'escalation test pause' && l.alarmId === alarmId && l.point === 'claimed');
    expect((await call('/ExceptionMessage/updateExceptionByID', { Id: alarmId, Remark: 'on my way' })).State).toBe(200);
    // Cancelled in the database by A's call, and dropped by B from what it heard on the bus.
    expect((await q(`SELECT status FROM escalation_outbox WHERE alarm_id = $1 AND step = 1`, [alarmId]))[0]!.status).toBe('cancelled');
    await b.log((l) => l.msg === 'escalation step dropped: alarm acknowledged' && l.alarmId === alarmId && l.step === 2);
    // B's own record of the attempt (its lease released) follows; nothing was sent, nothing comes next.
    await eventually(async () => (await q(`SELECT 1 FROM escalation_outbox WHERE alarm_id = $1 AND step = 1 AND status = 'cancelled' AND attempts = 1 AND locked_until IS NULL`, [alarmId])).length > 0, 15_000);
    expect((await sendsOf(alarmId)).map((r) => r.step)).toEqual([1, 1]);
    expect(await q(`SELECT step FROM escalation_outbox WHERE alarm_id = $1 ORDER BY step`, [alarmId])).toEqual([{ step: 0 }, { step: 1 }]);
    // The raising's own SMS and e-mail, and the first step's.
    expect((await q(`SELECT count(*)::int AS n FROM notice_outbox WHERE alarm_id = $1`, [alarmId]))[0]!.n).toBe(4);
    expect(await b.kill('SIGTERM')).toBe(0);
  });

  it('SIGKILL of the worker between steps neither loses nor repeats a step', { timeout: 120_000 }, async () => {
    await b.start();
    const alarmId = await sos(devices[1]!);
    await untilSends(alarmId, 2);
    await b.kill('SIGKILL');
    await due(alarmId, 1);
    await b.start();
    await untilSends(alarmId, 4);
    await due(alarmId, 2);
    await untilSends(alarmId, 6);
    await exactlyOnce(alarmId);
  });

  it('SIGKILL while a step is written and not committed: it runs once when its lease is over', { timeout: 120_000 }, async () => {
    await b.kill('SIGKILL');
    await b.start({ ESCALATION_TEST_PAUSE: '2:before-commit:600000' });
    const alarmId = await sos(devices[2]!);
    await untilSends(alarmId, 2);
    await due(alarmId, 1);
    await b.log((l) => l.msg === 'escalation test pause' && l.alarmId === alarmId && l.point === 'before-commit');
    await b.kill('SIGKILL');
    expect(await sendsOf(alarmId)).toHaveLength(2);
    // The claim of the dead worker expires (its lease is 45 s; the test ends it now).
    await q(`UPDATE escalation_outbox SET locked_until = now() - interval '1 second' WHERE alarm_id = $1 AND step = 1`, [alarmId]);
    await b.start();
    await untilSends(alarmId, 4);
    await due(alarmId, 2);
    await untilSends(alarmId, 6);
    await exactlyOnce(alarmId);
  });

  it('SIGKILL right after a step committed: it is not sent again, and the next one follows', { timeout: 120_000 }, async () => {
    await b.kill('SIGKILL');
    await b.start({ ESCALATION_TEST_PAUSE: '2:after-commit:600000' });
    const alarmId = await sos(devices[3]!);
    await untilSends(alarmId, 2);
    await due(alarmId, 1);
    await b.log((l) => l.msg === 'escalation test pause' && l.alarmId === alarmId && l.point === 'after-commit');
    await b.kill('SIGKILL');
    expect((await sendsOf(alarmId)).map((r) => r.step)).toEqual([1, 1, 2, 2]);
    // Claimed by nobody now: even a claim of the row again sends nothing (it is done).
    await q(`UPDATE escalation_outbox SET locked_until = now() - interval '1 second' WHERE alarm_id = $1`, [alarmId]);
    await b.start();
    await due(alarmId, 2);
    await untilSends(alarmId, 6);
    await exactlyOnce(alarmId);
  });
});
