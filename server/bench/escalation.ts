// Escalation at scale (`npm run bench:alarms -- --escalation [--db postgres|pglite] [--devices 2000]`):
// a platform with its worker role (alarm engine, escalation and notice outboxes) and the demo
// tenant; K watches of the care home raise an SOS each under the demo SOS policy of agent01 (the
// console at once, the first contact's SMS at 1 min, the second contact's SMS, the parent's contacts
// and the console at 3 min). Printed:
// - raising: SOS records opened per second, each scheduling its first step in its transaction;
// - steps: the SOS are dated 10 minutes back, so all three steps are due at once: steps run per
//   second and how late each ran after it fell due (p50/p95/p99), with the texts queued;
// - acknowledging: K more SOS dated 30 s back (their second step due in 30 s) are acknowledged in
//   pages of 100 through the confirm call before it: the time to acknowledge them all, and the steps
//   and texts sent after the acknowledgement (must be 0).
// SMS_PROVIDER is the logging one: texts are queued and recorded as logged, nothing leaves the machine.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ALARM_CODES } from '@wt/contract';
import { TOPICS, type AlarmEvent } from '../src/pipeline/events.js';
import { alarmEngines } from '../src/rules/services.js';
import { adminPoster, createPostgresDatabase, fmt, loadAvg, percentile, sleep, startDemoPlatform } from './common.js';

type Row = Record<string, unknown>;

export async function benchEscalation(args: Map<string, string>): Promise<void> {
  const DB = (args.get('db') ?? 'postgres') as 'pglite' | 'postgres';
  const K = Number(args.get('devices') ?? 2000);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-escalation-'));
  const pgDb = DB === 'postgres' ? await createPostgresDatabase('wt_bench_escalation') : undefined;
  const platform = await startDemoPlatform(dataDir, pgDb?.url, 'api,gateway,worker');
  try {
    const { deps } = platform;
    const q = deps.database.query.bind(deps.database);
    const engine = alarmEngines.get(deps);
    if (!engine) throw new Error('the alarm engine is not running');
    const [clinic] = await q<Row>(`SELECT id, path FROM accounts WHERE login_name = 'clinic01'`);
    const [agent] = await q<Row>(`SELECT id FROM accounts WHERE login_name = 'agent01'`);
    await q(`UPDATE accounts SET is_send_message = 1`);
    await q(`INSERT INTO sms_balances (account_id, enabled, remaining) VALUES ($1, 1, 1000000), ($2, 1, 1000000)
             ON CONFLICT (account_id) DO UPDATE SET enabled = 1, remaining = 1000000`, [clinic!.id, agent!.id]);
    for (const [account, name, phone] of [
      [clinic!.id, 'First', '13800000201'],
      [clinic!.id, 'Second', '13800000202'],
      [agent!.id, 'Agent duty', '13800000203'],
    ] as const) {
      // Contacts named by the policy only: their own types are a low battery, not an SOS.
      await q(`INSERT INTO alarm_contacts (account_id, name, phone, email, notify_sms, notify_email, types) VALUES ($1, $2, $3, '', 1, 2, $4::jsonb)`, [
        account, name, phone, JSON.stringify([ALARM_CODES.lowBattery]),
      ]);
    }
    const devices = await q<Row>(
      `INSERT INTO devices (imei, short_id, name, protocol, account_id)
       SELECT '867' || lpad(g::text, 12, '0'), lpad(g::text, 10, '0'), 'E-' || g, 'watch', $2 FROM generate_series(1, $1::int) g RETURNING id, imei, name`,
      [2 * K, clinic!.id],
    );
    console.log(`${DB}: ${fmt(2 * K)} watches under clinic01, load average ${loadAvg()}`);

    const raise = async (list: Row[], ago: number) => {
      const time = new Date(Date.now() - ago).toISOString();
      const events = await q<Row>(
        `INSERT INTO device_events (device_id, time, received_at, kind, payload, pending)
         SELECT id, $2::timestamptz, now(), 'sos', '{}', true FROM unnest($1::int[]) id RETURNING id, device_id`,
        [list.map((d) => Number(d.id)), time],
      );
      const byDevice = new Map(events.map((e) => [Number(e.device_id), Number(e.id)]));
      const t0 = performance.now();
      for (const d of list) {
        deps.bus.publish(TOPICS.alarm, {
          deviceId: Number(d.id), imei: String(d.imei), name: String(d.name), accountId: Number(clinic!.id), accountPath: String(clinic!.path),
          protocol: 'watch', time, receivedAt: new Date().toISOString(), alarm: 'sos', lat: 22.54, lon: 113.95, valid: true, eventId: byDevice.get(Number(d.id))!,
        } satisfies AlarmEvent);
      }
      await engine.idle();
      return performance.now() - t0;
    };
    const first = devices.slice(0, K);
    const second = devices.slice(K);

    // Raising, with every step due at once: from the moment the burst starts.
    const dueAt = new Date();
    const raiseMs = await raise(first, 10 * 60_000);
    const opened = await q<Row>(`SELECT count(*)::int AS n FROM alarms WHERE type = 5 AND device_id = ANY($1::int[])`, [first.map((d) => Number(d.id))]);
    console.log(`  raising: ${fmt(Number(opened[0]!.n))} SOS opened in ${fmt(raiseMs)} ms (${fmt((K / raiseMs) * 1000)} a second), first steps scheduled`);

    const ids = first.map((d) => Number(d.id));
    const doneSteps = async () =>
      Number((await q<Row>(`SELECT count(*)::int AS n FROM escalation_outbox o JOIN alarms a ON a.id = o.alarm_id WHERE a.device_id = ANY($1::int[]) AND o.status = 'delivered' AND o.step < 3`, [ids]))[0]!.n);
    const deadline = Date.now() + 10 * 60_000;
    while ((await doneSteps()) < 3 * K && Date.now() < deadline) await sleep(250);
    const stepsMs = Date.now() - dueAt.getTime();
    const steps = await doneSteps();
    const late = (
      await q<Row>(
        `SELECT extract(epoch FROM (min(s.at) - $2::timestamptz)) * 1000 AS ms FROM escalation_sends s JOIN alarms a ON a.id = s.alarm_id
          WHERE a.device_id = ANY($1::int[]) AND s.step <= 3 GROUP BY s.alarm_id, s.step`,
        [ids, dueAt],
      )
    ).map((r) => Math.max(0, Number(r.ms))).sort((a, b) => a - b);
    const texts = await q<Row>(`SELECT count(*)::int AS n FROM notice_outbox n JOIN alarms a ON a.id = n.alarm_id WHERE a.device_id = ANY($1::int[]) AND n.channel = 'sms'`, [ids]);
    // The SOS are 10 minutes old, so each step is due when the burst starts: how long after that each ran.
    const lastMs = late[late.length - 1] ?? 0;
    console.log(
      `  steps: ${fmt(steps)} of ${fmt(3 * K)} run (${fmt(late.length)} sent), the last ${fmt(lastMs / 1000, 1)} s after the burst began (${fmt((late.length / lastMs) * 1000)} steps a second; ` +
        `all marked done after ${fmt(stepsMs / 1000, 1)} s), ${fmt(Number(texts[0]!.n))} texts queued; each ran after the burst began p50 ${fmt(percentile(late, 50) / 1000, 1)} s, ` +
        `p95 ${fmt(percentile(late, 95) / 1000, 1)} s, p99 ${fmt(percentile(late, 99) / 1000, 1)} s`,
    );

    // Acknowledging before the second step.
    await raise(second, 30_000);
    const post = await adminPoster(platform.url);
    const open = (await q<Row>(`SELECT id FROM alarms WHERE type = 5 AND status = 0 AND device_id = ANY($1::int[]) ORDER BY id`, [second.map((d) => Number(d.id))])).map((r) => Number(r.id));
    const a0 = performance.now();
    for (let i = 0; i < open.length; i += 100) {
      const r = await post('/ExceptionMessage/UpdateExceptionMessageStatus', { Ids: open.slice(i, i + 100), Remark: 'bench' });
      const body = (await r.json()) as { State: number };
      if (body.State !== 200) throw new Error(`acknowledging: ${JSON.stringify(body)}`);
    }
    const ackMs = performance.now() - a0;
    const ackedAt = new Date();
    await sleep(Math.max(0, 35_000 - (performance.now() - a0)));
    const after = await q<Row>(
      `SELECT count(*)::int AS n FROM escalation_sends s JOIN alarms a ON a.id = s.alarm_id WHERE a.device_id = ANY($1::int[]) AND s.step > 1 AND s.at >= $2`,
      [second.map((d) => Number(d.id)), ackedAt],
    );
    console.log(`  acknowledging: ${fmt(open.length)} SOS acknowledged in ${fmt(ackMs)} ms (pages of 100); steps sent after it: ${fmt(Number(after[0]!.n))}`);
  } finally {
    await platform.close();
    await pgDb?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
