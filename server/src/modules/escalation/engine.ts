// Escalation of unacknowledged alarms. When an alarm opens and the policy in force for its type
// escalates, its first step is written to `escalation_outbox` in the alarm's transaction. The
// durable outbox (lib/outbox.ts) claims due steps; a step runs in one transaction that locks its row,
// checks the alarm is still unacknowledged, queues the SMS and e-mails (notice outbox), the partner
// pushes (push outbox), records every send in `escalation_sends`, marks itself done and schedules the
// next step (or the next repeat of the last one, up to the cap). A process killed before that commit
// leaves the step pending (its lease expires and it runs again); after it, the step is done: a step
// is neither lost nor sent twice. Acknowledging cancels the alarm's pending steps in the database and
// tells every process on the bus, so a step already claimed elsewhere is dropped too.
import { ALARM_CODES, DEFAULT_LOCALE, formatInZone, resolveLocale, translate } from '@wt/contract';
import type { QueryFn } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import type { EscalationStepSpec } from '../../db/schema/escalation.js';
import { OutboxWorker, type Delivery, type OutboxChannel, type OutboxWorkerOptions } from '../../lib/outbox.js';
import { REALTIME_TOPICS } from '../../realtime/topics.js';
import { alarmTypeName, renderAlarmMessage } from '../alarm/format.js';
import { PUSH_TOPICS, enqueuePush } from '../push/outbox.js';
import { NOTICE_TOPICS, chargeSms } from '../sms/notices.js';
import { smsSegments, smsSends } from '../sms/providers.js';
import { effectivePolicy } from './policies.js';

export const ESCALATION_TOPICS = {
  /** Steps were scheduled: wake the worker. */
  enqueued: 'escalation.enqueued',
  /** Alarms were acknowledged: drop their steps everywhere. */
  stopped: 'escalation.stopped',
} as const;

/** Alarm types a person in danger raises: quiet hours never hold them back. */
const ALWAYS_THROUGH: readonly number[] = [ALARM_CODES.sos, ALARM_CODES.fall];

type Row = Record<string, unknown>;

/**
 * Crash tests only: `ESCALATION_TEST_PAUSE=<step>:<point>:<ms>` holds the step numbered <step> (1 is the
 * first) for <ms> at <point>: `claimed` (claimed, before the acknowledged check), `before-commit` (its
 * sends written, not committed) or `after-commit` (committed, before the outbox row's update), logging
 * `escalation test pause` first. Unset in production.
 */
const TEST_PAUSE = (() => {
  const m = /^(\d+):(claimed|before-commit|after-commit):(\d+)$/.exec(process.env.ESCALATION_TEST_PAUSE ?? '');
  return m ? { step: Number(m[1]), point: m[2]!, ms: Number(m[3]) } : undefined;
})();

async function testPause(deps: AppDeps, r: Row, point: string): Promise<void> {
  if (!TEST_PAUSE || TEST_PAUSE.point !== point || TEST_PAUSE.step !== Number(r.step) + 1) return;
  deps.log.warn({ alarmId: Number(r.alarm_id), step: TEST_PAUSE.step, point }, 'escalation test pause');
  await new Promise((resolve) => setTimeout(resolve, TEST_PAUSE.ms));
}

/** Schedules the first step of a newly raised alarm, in its transaction; true when one was scheduled. */
export async function scheduleEscalation(q: QueryFn, alarm: { id: number; code: number; accountPath: string; created: Date }): Promise<boolean> {
  const policy = await effectivePolicy(q, alarm.accountPath, alarm.code);
  if (!policy || !policy.enabled || !policy.steps.length) return false;
  await q(`INSERT INTO escalation_outbox (alarm_id, policy_id, step, next_at) VALUES ($1, $2, 0, $3) ON CONFLICT (alarm_id, step) DO NOTHING`, [
    alarm.id,
    policy.id,
    new Date(alarm.created.getTime() + policy.steps[0]!.wait * 60_000),
  ]);
  return true;
}

/** Cancels the pending steps of acknowledged alarms and tells every process. */
export async function stopEscalation(deps: AppDeps, alarmIds: number[]): Promise<void> {
  if (!alarmIds.length) return;
  await deps.database.query(`UPDATE escalation_outbox SET status = 'cancelled', locked_until = NULL WHERE alarm_id = ANY($1::bigint[]) AND status = 'pending'`, [alarmIds]);
  deps.bus.publish(ESCALATION_TOPICS.stopped, { alarmIds });
}

/** Minutes after midnight in a zone (offset in minutes east of UTC). */
const minuteOfDay = (at: Date, offset: number) => (((Math.floor(at.getTime() / 60_000) + offset) % 1440) + 1440) % 1440;

/** Whether `at` falls in the quiet hours from-to (minutes after midnight in the zone; from > to spans midnight). */
export function inQuietHours(from: number | null, to: number | null, at: Date, offset: number): boolean {
  if (from === null || to === null || from === to) return false;
  const m = minuteOfDay(at, offset);
  return from < to ? m >= from && m < to : m >= from || m < to;
}

interface Recipient {
  accountId: number;
  label: string;
  phone: string;
  email: string;
  language: string;
  tz: number;
  messageService: boolean;
  quietFrom: number | null;
  quietTo: number | null;
}

interface StepOutcome {
  status: 'delivered' | 'cancelled';
  notices: number;
  pushes: number;
  console: Record<string, unknown> | null;
}

/** Due steps as a channel of the durable outbox. */
export class EscalationChannel implements OutboxChannel {
  readonly name = 'escalation';
  readonly table = 'escalation_outbox';
  readonly topic = ESCALATION_TOPICS.enqueued;
  /** Alarms acknowledged lately (from the bus): a step claimed before the cancel is dropped. */
  private readonly stopped = new Set<number>();
  private readonly unsubscribe: () => void;

  constructor(private readonly deps: AppDeps) {
    this.unsubscribe = deps.bus.subscribe<{ alarmIds: number[] }>(
      ESCALATION_TOPICS.stopped,
      (e) => {
        if (this.stopped.size > 100_000) this.stopped.clear();
        for (const id of e.alarmIds) this.stopped.add(Number(id));
      },
      { cluster: true },
    );
  }

  close(): void {
    this.unsubscribe();
  }

  maxAttempts = () => this.deps.config.NOTICE_MAX_ATTEMPTS;
  retryBaseMs = () => this.deps.config.NOTICE_RETRY_BASE_MS;

  async deliver(r: Row): Promise<Delivery> {
    await testPause(this.deps, r, 'claimed');
    if (this.stopped.has(Number(r.alarm_id))) {
      this.deps.log.info({ alarmId: Number(r.alarm_id), step: Number(r.step) + 1 }, 'escalation step dropped: alarm acknowledged');
      return { ok: true, status: 'cancelled' };
    }
    const out = await this.deps.database.transaction(async (q) => {
      const o = await this.runStep(q, r);
      await testPause(this.deps, r, 'before-commit');
      return o;
    });
    await testPause(this.deps, r, 'after-commit');
    if (out.console) this.deps.bus.publish(REALTIME_TOPICS.alarmRaised, out.console);
    if (out.notices > 0) this.deps.bus.publish(NOTICE_TOPICS.enqueued, { count: out.notices });
    if (out.pushes > 0) this.deps.bus.publish(PUSH_TOPICS.enqueued, { count: out.pushes });
    this.deps.bus.publish(ESCALATION_TOPICS.enqueued, {});
    return { ok: true, status: out.status };
  }

  private async runStep(q: QueryFn, r: Row): Promise<StepOutcome> {
    const none: StepOutcome = { status: 'cancelled', notices: 0, pushes: 0, console: null };
    // The row, locked: a step another process finished or an acknowledge cancelled is not run again.
    const [row] = await q<Row>(`SELECT id FROM escalation_outbox WHERE id = $1 AND status = 'pending' FOR UPDATE`, [r.id]);
    if (!row) return none;
    const [alarm] = await q<Row>(
      `SELECT al.id, al.type, al.status, al.message_key AS "messageKey", al.message_params AS "params", al.created_at AS "created", al.last_at AS "lastAt",
              al.value, al.lat, al.lon, d.id AS "deviceId", d.imei, d.name AS "deviceName", a.id AS "accountId", a.path, a.parent_id AS "parentId", a.login_name AS "accountName"
         FROM alarms al JOIN devices d ON d.id = al.device_id JOIN accounts a ON a.id = al.account_id WHERE al.id = $1`,
      [r.alarm_id],
    );
    const [policy] = await q<Row>(`SELECT steps, repeat_minutes AS "repeat", repeat_cap AS "cap", enabled FROM escalation_policies WHERE id = $1`, [r.policy_id]);
    if (!alarm || Number(alarm.status) !== 0 || !policy || policy.enabled !== true) {
      await q(`UPDATE escalation_outbox SET status = 'cancelled' WHERE id = $1`, [r.id]);
      return none;
    }
    const steps = policy.steps as EscalationStepSpec[];
    const n = Number(r.step);
    const spec = steps[Math.min(n, steps.length - 1)]!;
    const code = Number(alarm.type);
    const now = new Date();
    const out: StepOutcome = { status: 'delivered', notices: 0, pushes: 0, console: null };
    const send = (channel: string, recipient: string, ok: boolean, error = '') =>
      q(`INSERT INTO escalation_sends (alarm_id, step, channel, recipient, at, ok, error) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [alarm.id, n + 1, channel, recipient, now, ok, error]);

    const recipients = await this.recipients(q, spec, Number(alarm.accountId), alarm.parentId === null ? null : Number(alarm.parentId));
    const device = String(alarm.deviceName || alarm.imei);
    const render = (locale: ReturnType<typeof resolveLocale>, offset: number) => {
      const typeName = alarmTypeName(locale, code);
      return {
        subject: translate(locale, 'alarm.notifySubject', { platform: this.deps.config.PLATFORM_TITLE, type: typeName, device }),
        text: translate(locale, 'alarm.notifyText', {
          time: formatInZone(new Date(alarm.lastAt as string | Date), offset),
          device,
          imei: alarm.imei,
          type: typeName,
          message: renderAlarmMessage(locale, String(alarm.messageKey), alarm.params as Record<string, unknown>),
        }),
      };
    };
    for (const c of recipients) {
      const quiet = !ALWAYS_THROUGH.includes(code) && inQuietHours(c.quietFrom, c.quietTo, now, c.tz);
      const { subject, text } = render(resolveLocale(c.language), c.tz);
      if (spec.channels.includes('sms') && c.phone) {
        if (quiet) await send('sms', c.phone, false, 'escalation.quietHours');
        else if (!c.messageService) await send('sms', c.phone, false, 'sms.refusedNoService');
        else if (!smsSends(this.deps.config)) {
          await q(`INSERT INTO notice_outbox (channel, account_id, alarm_id, imei, recipient, subject, body, segments, status, done_at) VALUES ('sms', $1, $2, $3, $4, $5, $6, 0, 'logged', now())`, [
            c.accountId, alarm.id, alarm.imei, c.phone, subject, text,
          ]);
          this.deps.log.info({ phone: c.phone, text, alarmId: alarm.id }, 'escalation SMS logged, not sent (SMS_PROVIDER=log)');
          await send('sms', c.phone, true);
        } else {
          const segments = smsSegments(text);
          const [nr] = await q<Row>(
            `INSERT INTO notice_outbox (channel, account_id, alarm_id, imei, recipient, subject, body, segments) VALUES ('sms', $1, $2, $3, $4, $5, $6, $7) RETURNING id`,
            [c.accountId, alarm.id, alarm.imei, c.phone, subject, text, segments],
          );
          const charged = await chargeSms(q, c.accountId, segments, Number(nr!.id));
          if (charged.ok) {
            out.notices++;
            await send('sms', c.phone, true);
          } else {
            await q(`UPDATE notice_outbox SET status = 'refused', segments = 0, last_error = $2, done_at = now() WHERE id = $1`, [nr!.id, charged.reason]);
            await send('sms', c.phone, false, charged.reason);
          }
        }
      }
      if (spec.channels.includes('email') && c.email) {
        if (quiet) await send('email', c.email, false, 'escalation.quietHours');
        else {
          await q(`INSERT INTO notice_outbox (channel, account_id, alarm_id, imei, recipient, subject, body) VALUES ('email', $1, $2, $3, $4, $5, $6)`, [
            c.accountId, alarm.id, alarm.imei, c.email, subject, text,
          ]);
          out.notices++;
          await send('email', c.email, true);
        }
      }
    }
    if (spec.channels.includes('push')) {
      out.pushes = await enqueuePush(
        this.deps,
        {
          alarmId: Number(alarm.id),
          code,
          category: code === ALARM_CODES.sos || code === ALARM_CODES.fall ? 'sos' : 'device',
          device: { id: Number(alarm.deviceId), imei: String(alarm.imei), name: String(alarm.deviceName), accountId: Number(alarm.accountId), accountPath: String(alarm.path) },
          message: renderAlarmMessage(DEFAULT_LOCALE, String(alarm.messageKey), alarm.params as Record<string, unknown>),
          messageKey: String(alarm.messageKey),
          params: alarm.params as Record<string, unknown>,
          created: new Date(alarm.created as string | Date),
          value: alarm.value === null ? null : Number(alarm.value),
          lat: alarm.lat === null ? null : Number(alarm.lat),
          lon: alarm.lon === null ? null : Number(alarm.lon),
        },
        q,
      );
      await send('push', `${out.pushes}`, out.pushes > 0, out.pushes > 0 ? '' : 'escalation.noPartner');
    }
    if (spec.channels.includes('console')) {
      // The pop-up goes to every console of the device's account and of the accounts above it. A first
      // step due at once is the pop-up the raising itself showed on the same consoles: not shown twice.
      const shown = n === 0 && spec.wait === 0;
      out.console = shown ? null : {
        NotificationType: code,
        DeviceID: alarm.imei,
        Nickname: alarm.deviceName,
        Message: renderAlarmMessage(DEFAULT_LOCALE, String(alarm.messageKey), alarm.params as Record<string, unknown>),
        MessageKey: alarm.messageKey,
        MessageParams: alarm.params ?? {},
        Created: new Date(alarm.lastAt as string | Date).toISOString(),
        deviceId: Number(alarm.deviceId),
        accountPath: alarm.path,
        Imei: alarm.imei,
        AccountPath: alarm.path,
        AlarmId: Number(alarm.id),
        DeviceId: Number(alarm.deviceId),
        EscalationStep: n + 1,
      };
      await send('console', String(alarm.accountName), true);
    }
    await q(`UPDATE escalation_outbox SET status = 'delivered', locked_until = NULL WHERE id = $1`, [r.id]);
    // The next step waits from the alarm's raising; the repeats of the last one from now, up to the cap.
    const created = new Date(alarm.created as string | Date).getTime();
    let next: Date | null = null;
    if (n + 1 < steps.length) next = new Date(Math.max(created + steps[n + 1]!.wait * 60_000, now.getTime()));
    else if (Number(policy.repeat) > 0 && n + 1 - steps.length < Number(policy.cap)) next = new Date(now.getTime() + Number(policy.repeat) * 60_000);
    if (next) {
      await q(`INSERT INTO escalation_outbox (alarm_id, policy_id, step, next_at) VALUES ($1, $2, $3, $4) ON CONFLICT (alarm_id, step) DO NOTHING`, [alarm.id, r.policy_id, n + 1, next]);
    }
    return out;
  }

  /** The step's recipients: the chosen alarm contacts (in their order), the accounts on duty, the parent's contacts. */
  private async recipients(q: QueryFn, spec: EscalationStepSpec, accountId: number, parentId: number | null): Promise<Recipient[]> {
    const contactsOf = (id: number) =>
      q<Row>(
        `SELECT c.account_id AS "accountId", c.name, c.phone, c.email, c.notify_sms AS "sms", c.notify_email AS "mail", c.quiet_from AS "quietFrom", c.quiet_to AS "quietTo",
                a.language, a.time_zone_offset AS "tz", a.is_send_message AS "messageService"
           FROM alarm_contacts c JOIN accounts a ON a.id = c.account_id WHERE c.account_id = $1 ORDER BY c.id`,
        [id],
      );
    const ofContact = (c: Row): Recipient => ({
      accountId: Number(c.accountId),
      label: String(c.name),
      phone: Number(c.sms) === 1 ? String(c.phone) : '',
      email: Number(c.mail) === 1 ? String(c.email) : '',
      language: String(c.language ?? ''),
      tz: Number(c.tz),
      messageService: Number(c.messageService) === 1,
      quietFrom: c.quietFrom === null ? null : Number(c.quietFrom),
      quietTo: c.quietTo === null ? null : Number(c.quietTo),
    });
    const out: Recipient[] = [];
    if (spec.contacts.length) {
      const own = await contactsOf(accountId);
      for (const pos of spec.contacts) if (own[pos - 1]) out.push(ofContact(own[pos - 1]!));
    }
    if (spec.dutyUsers.length) {
      const duty = await q<Row>(
        `SELECT id AS "accountId", login_name AS "name", phone, email, 1 AS "sms", 1 AS "mail", NULL AS "quietFrom", NULL AS "quietTo", language,
                time_zone_offset AS "tz", is_send_message AS "messageService"
           FROM accounts WHERE id = ANY($1::int[]) AND path LIKE (SELECT path FROM accounts WHERE id = $2) || '%'`,
        [spec.dutyUsers, accountId],
      );
      out.push(...duty.map(ofContact));
    }
    if (spec.parent && parentId !== null) out.push(...(await contactsOf(parentId)).map(ofContact));
    return out;
  }
}

/** The worker of due escalation steps (role worker). */
export class EscalationWorker extends OutboxWorker {
  private readonly escalation: EscalationChannel;

  constructor(deps: AppDeps, opts: OutboxWorkerOptions = {}) {
    const channel = new EscalationChannel(deps);
    super(deps, channel, { timeoutMs: 15_000, ...opts });
    this.escalation = channel;
  }

  override async stop(): Promise<void> {
    this.escalation.close();
    await super.stop();
  }
}
