// Alarm notices to alarm contacts: SMS and e-mail as channels of the durable outbox. Rows are written
// in the alarm's transaction, rendered in the language of the contact's account; an SMS is charged
// to that account's balance there and then (per billed segment), or refused and logged when the
// service is off or the balance does not cover it, and never sent. A text that finally fails is
// refunded; delivery reports of the provider mark texts delivered or undelivered. With the logging
// provider (SMS_PROVIDER=log) nothing is sent: the text goes to the server log, its row is recorded
// `logged` at once and nothing is charged. An account whose message service (isSendMessage, granted
// from above) is off gets no text: the row is recorded refused, nothing charged.
import type { Locale } from '@wt/contract';
import { resolveLocale } from '@wt/contract';
import type { QueryFn } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { OutboxWorker, type OutboxChannel } from '../../lib/outbox.js';
import { pathIdsUpward } from '../../rules/alarm-rules.js';
import { SmsError, smsSegments, type SmsProvider, type SmsReport } from './providers.js';

export const NOTICE_TOPICS = {
  /** Notices were queued: wake the worker. */
  enqueued: 'notice.enqueued',
} as const;

type Row = Record<string, unknown>;

/** Why a text was refused, as the change log and the records show it (message keys of `sms.*`). */
export const REFUSED = { disabled: 'sms.refusedDisabled', empty: 'sms.refusedEmpty', noService: 'sms.refusedNoService' } as const;

/**
 * Takes `segments` from an account's balance in the caller's transaction and logs the change; false
 * (and the refusal logged) when the service is off or the balance is short.
 */
export async function chargeSms(q: QueryFn, accountId: number, segments: number, noticeId: number | null): Promise<{ ok: true } | { ok: false; reason: string }> {
  const [charged] = await q<Row>(
    `UPDATE sms_balances SET used = used + $2, remaining = remaining - $2, updated_at = now()
      WHERE account_id = $1 AND enabled = 1 AND remaining >= $2 RETURNING remaining`,
    [accountId, segments],
  );
  if (charged) {
    await q(`INSERT INTO sms_changes (account_id, kind, amount, remaining, notice_id) VALUES ($1, 'deduct', $2, $3, $4)`, [accountId, -segments, charged.remaining, noticeId]);
    return { ok: true };
  }
  const [b] = await q<Row>(`SELECT enabled, remaining FROM sms_balances WHERE account_id = $1`, [accountId]);
  const remark = b && Number(b.enabled) === 1 ? REFUSED.empty : REFUSED.disabled;
  await q(`INSERT INTO sms_changes (account_id, kind, amount, remaining, notice_id, remark) VALUES ($1, 'refuse', 0, $2, $3, $4)`, [accountId, Number(b?.remaining ?? 0), noticeId, remark]);
  return { ok: false, reason: remark };
}

/** Gives a notice's charge back once (a text that never went out, or was reported undelivered). */
export async function refundSms(q: QueryFn, noticeId: number, remark: string): Promise<void> {
  const [n] = await q<Row>(
    `UPDATE notice_outbox SET refunded = true WHERE id = $1 AND channel = 'sms' AND segments > 0 AND NOT refunded RETURNING account_id AS "accountId", segments`,
    [noticeId],
  );
  if (!n) return;
  const [b] = await q<Row>(
    `UPDATE sms_balances SET used = used - $2, remaining = remaining + $2, updated_at = now() WHERE account_id = $1 RETURNING remaining`,
    [n.accountId, n.segments],
  );
  await q(`INSERT INTO sms_changes (account_id, kind, amount, remaining, notice_id, remark) VALUES ($1, 'refund', $2, $3, $4, $5)`, [
    n.accountId,
    n.segments,
    Number(b?.remaining ?? 0),
    noticeId,
    remark,
  ]);
}

export interface AlarmNoticeInput {
  alarmId: number;
  code: number;
  imei: string;
  accountPath: string;
  /** Subject and text in a contact's language. */
  /** The texts in the contact's account's language, its times at the account's offset (minutes east of UTC). */
  render(locale: Locale, offsetMinutes: number): { subject: string; text: string };
}

/**
 * Queues the notices of an alarm for the contacts of the device's account and the accounts above it
 * that want its type, in the alarm's transaction `q`. Returns how many rows will be delivered.
 */
export async function enqueueAlarmNotices(q: QueryFn, log: AppDeps['log'], a: AlarmNoticeInput, sms: { sends: boolean } = { sends: true }): Promise<number> {
  const ids = pathIdsUpward(a.accountPath);
  if (!ids.length) return 0;
  const contacts = await q<Row>(
    `SELECT c.account_id AS "accountId", c.phone, c.email, c.notify_sms AS "sms", c.notify_email AS "mail", c.types, a.language,
            a.is_send_message AS "messageService", a.time_zone_offset AS "tz"
       FROM alarm_contacts c JOIN accounts a ON a.id = c.account_id
      WHERE c.account_id = ANY($1::int[]) ORDER BY c.id`,
    [ids],
  );
  let queued = 0;
  for (const c of contacts) {
    const types = (c.types as number[] | null) ?? [];
    if (types.length && !types.includes(a.code)) continue;
    const { subject, text } = a.render(resolveLocale(String(c.language ?? '')), Number(c.tz));
    const accountId = Number(c.accountId);
    if (Number(c.mail) === 1 && c.email) {
      await q(`INSERT INTO notice_outbox (channel, account_id, alarm_id, imei, recipient, subject, body) VALUES ('email', $1, $2, $3, $4, $5, $6)`, [
        accountId,
        a.alarmId,
        a.imei,
        c.email,
        subject,
        text,
      ]);
      queued++;
    }
    if (Number(c.sms) === 1 && c.phone && Number(c.messageService) !== 1) {
      // The account's message service (a function switch granted from above) is off: no text, no charge.
      await q(
        `INSERT INTO notice_outbox (channel, account_id, alarm_id, imei, recipient, subject, body, segments, status, last_error, done_at)
         VALUES ('sms', $1, $2, $3, $4, $5, $6, 0, 'refused', $7, now())`,
        [accountId, a.alarmId, a.imei, c.phone, subject, text, REFUSED.noService],
      );
    } else if (Number(c.sms) === 1 && c.phone && !sms.sends) {
      await q(
        `INSERT INTO notice_outbox (channel, account_id, alarm_id, imei, recipient, subject, body, segments, status, done_at)
         VALUES ('sms', $1, $2, $3, $4, $5, $6, 0, 'logged', now())`,
        [accountId, a.alarmId, a.imei, c.phone, subject, text],
      );
      log.info({ phone: c.phone, text, accountId, alarmId: a.alarmId }, 'alarm SMS logged, not sent (SMS_PROVIDER=log)');
    } else if (Number(c.sms) === 1 && c.phone) {
      const segments = smsSegments(text);
      const [n] = await q<Row>(
        `INSERT INTO notice_outbox (channel, account_id, alarm_id, imei, recipient, subject, body, segments) VALUES ('sms', $1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [accountId, a.alarmId, a.imei, c.phone, subject, text, segments],
      );
      const charged = await chargeSms(q, accountId, segments, Number(n!.id));
      if (charged.ok) {
        queued++;
      } else {
        await q(`UPDATE notice_outbox SET status = 'refused', segments = 0, last_error = $2, done_at = now() WHERE id = $1`, [n!.id, charged.reason]);
        log.warn({ accountId, alarmId: a.alarmId, reason: charged.reason }, 'alarm SMS refused, not sent');
      }
    }
  }
  return queued;
}

/** Reports that arrived before their submit's answer was stored, kept a little while. */
const EARLY_REPORT_MS = 60_000;

/** SMS and e-mail notices as a channel of the durable outbox. */
export class NoticeChannel implements OutboxChannel {
  readonly name = 'alarm notice';
  readonly table = 'notice_outbox';
  readonly topic = NOTICE_TOPICS.enqueued;
  private readonly early = new Map<string, { report: SmsReport; at: number }>();

  constructor(
    private readonly deps: AppDeps,
    private readonly sms: SmsProvider,
  ) {
    sms.onReport?.((r) => void this.report(r).catch((err) => deps.log.error({ err }, 'SMS delivery report not stored')));
  }

  maxAttempts = () => this.deps.config.NOTICE_MAX_ATTEMPTS;
  retryBaseMs = () => this.deps.config.NOTICE_RETRY_BASE_MS;

  async deliver(r: Row): ReturnType<OutboxChannel['deliver']> {
    if (r.channel === 'email') {
      await this.deps.mailer.send({ to: String(r.recipient), subject: String(r.subject), text: String(r.body) });
      return { ok: true };
    }
    try {
      const sent = await this.sms.send(String(r.recipient), String(r.body));
      return { ok: true, status: sent.awaitsReport ? 'sent' : 'delivered', ref: sent.ref };
    } catch (err) {
      return { ok: false, error: (err as Error).message, final: err instanceof SmsError && err.final };
    }
  }

  async record(q: QueryFn, r: Row, _attempt: number, result: Awaited<ReturnType<OutboxChannel['deliver']>>, status: string): Promise<void> {
    if (result.ok) {
      await q(`UPDATE notice_outbox SET provider_ref = $2, done_at = CASE WHEN $3 THEN now() END WHERE id = $1`, [r.id, result.ref ?? null, status === 'delivered']);
      const early = result.ref ? this.early.get(result.ref) : undefined;
      if (early) {
        this.early.delete(result.ref!);
        await this.applyReport(q, early.report);
      }
    } else if (status === 'failed') {
      await refundSms(q, Number(r.id), 'sms.refundFailed');
    }
  }

  private async applyReport(q: QueryFn, rep: SmsReport): Promise<number> {
    const rows = await q(
      `UPDATE notice_outbox SET status = $2, last_error = $3, done_at = now() WHERE provider_ref = $1 AND channel = 'sms' AND status = 'sent' RETURNING id`,
      [rep.ref, rep.delivered ? 'delivered' : 'undelivered', rep.delivered ? '' : rep.stat],
    );
    return rows.length;
  }

  /** A delivery report of the provider; one for a submit not stored yet waits for it. */
  async report(rep: SmsReport): Promise<void> {
    const n = await this.deps.database.transaction((q) => this.applyReport(q, rep));
    if (n) return;
    const now = Date.now();
    for (const [k, v] of this.early) if (now - v.at > EARLY_REPORT_MS) this.early.delete(k);
    this.early.set(rep.ref, { report: rep, at: now });
    // The submit's row may have committed meanwhile.
    setTimeout(() => {
      if (this.early.get(rep.ref)?.report !== rep) return;
      void this.deps.database.transaction((q) => this.applyReport(q, rep)).then((m) => m && this.early.delete(rep.ref), () => undefined);
    }, 2000).unref();
  }
}

export class NoticeWorker extends OutboxWorker {
  constructor(
    deps: AppDeps,
    readonly sms: SmsProvider,
    opts: { pollMs?: number } = {},
  ) {
    super(deps, new NoticeChannel(deps, sms), { timeoutMs: 15_000, ...opts });
  }

  override async stop(): Promise<void> {
    await super.stop();
    await this.sms.close?.();
  }
}
