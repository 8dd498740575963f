// Partner push. An alarm becomes one outbox row per company in the device's account chain, in the
// database, so a delivery survives a restart. The durable outbox (lib/outbox.ts) delivers it: a
// POST of the JSON body signed with HMAC-SHA256 of the body keyed by the company's verification
// code, each attempt logged, failures retried with exponential backoff.
import { createHmac } from 'node:crypto';
import { formatInZone, resolveLocale } from '@wt/contract';
import type { QueryFn } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { renderAlarmMessage } from '../alarm/format.js';
import { pathIdsUpward } from '../../rules/alarm-rules.js';
import { OutboxWorker, type OutboxChannel, type OutboxWorkerOptions } from '../../lib/outbox.js';
import { httpFailure } from '../../lib/outbound.js';

export const PUSH_TOPICS = {
  /** Rows were queued: wake the worker instead of waiting for its next tick. */
  enqueued: 'push.enqueued',
} as const;

export const SIGNATURE_HEADER = 'X-Signature';

/** Hex HMAC-SHA256 of the exact body bytes, keyed by the verification code. */
export function signBody(body: string, code: string): string {
  return createHmac('sha256', code).update(body).digest('hex');
}

export interface PushAlarm {
  alarmId: number;
  code: number;
  category: string;
  device: { id: number; imei: string; name: string; accountId: number; accountPath: string };
  message: string;
  /** The stored message: when given, each company gets it in the language of the account it belongs to. */
  messageKey?: string;
  params?: Record<string, unknown>;
  created: Date;
  value: number | null;
  lat: number | null;
  lon: number | null;
}

type Row = Record<string, unknown>;

/** Push model 1 all alarms, 2 SOS and falls, 3 health alarms. */
function wants(model: number, category: string): boolean {
  if (model === 2) return category === 'sos';
  if (model === 3) return category === 'health';
  return true;
}

/** The body a company receives; its short format's time is at the offset of the company's account. */
function bodyFor(format: number, a: PushAlarm, offsetMinutes: number): string {
  if (format === 2) {
    return JSON.stringify({ NotificationType: a.code, DeviceID: a.device.imei, Nickname: a.device.name, Message: a.message, Created: formatInZone(a.created, offsetMinutes) });
  }
  return JSON.stringify({
    AlarmId: a.alarmId,
    Type: a.code,
    Imei: a.device.imei,
    DeviceName: a.device.name,
    AccountId: a.device.accountId,
    Message: a.message,
    Value: a.value,
    Lat: a.lat,
    Lon: a.lon,
    Created: a.created.toISOString(),
  });
}

/**
 * Queues an alarm for every effective company of the device's account or an account above it.
 * `query` is the transaction that writes the alarm: the alarm and its pushes commit together.
 */
export async function enqueuePush(deps: AppDeps, alarm: PushAlarm, query: QueryFn = (text, params) => deps.database.query(text, params)): Promise<number> {
  const companies = await query<Row>(
    `SELECT c.id, c.push_url AS "url", c.push_model AS "model", c.default_format AS "format", a.language, a.time_zone_offset AS "tz"
       FROM push_companies c JOIN accounts a ON a.id = c.account_id
      WHERE c.effective = 1 AND c.account_id = ANY($1::int[])`,
    [pathIdsUpward(alarm.device.accountPath)],
  );
  let n = 0;
  for (const c of companies) {
    if (!wants(Number(c.model), alarm.category)) continue;
    await query(`INSERT INTO push_outbox (company_id, alarm_id, imei, url, body) VALUES ($1, $2, $3, $4, $5)`, [
      c.id,
      alarm.alarmId,
      alarm.device.imei,
      c.url,
      bodyFor(Number(c.format), alarm.messageKey ? { ...alarm, message: renderAlarmMessage(resolveLocale(String(c.language ?? '')), alarm.messageKey, alarm.params) } : alarm, Number(c.tz)),
    ]);
    n++;
  }
  return n;
}

/** The partner push as a channel of the durable outbox: a signed POST per row, each attempt logged. */
export function pushChannel(deps: AppDeps): OutboxChannel {
  return {
    name: 'partner push',
    table: 'push_outbox',
    topic: PUSH_TOPICS.enqueued,
    claim: { from: 'push_companies c', where: 'c.id = o.company_id', returning: 'c.verification_code AS "code"' },
    maxAttempts: () => deps.config.PUSH_MAX_ATTEMPTS,
    retryBaseMs: () => deps.config.PUSH_RETRY_BASE_MS,
    async deliver(r, attempt) {
      const body = String(r.body);
      // Through lib/outbound.ts: an internal address is refused before anything is sent, so the log
      // never shows how an internal service answers; a redirect is a failure, not followed.
      const res = await deps.outbound.fetch(String(r.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signBody(body, String(r.code)),
          'X-Push-Attempt': String(attempt),
          'X-Push-Id': String(r.id),
        },
        body,
        signal: AbortSignal.timeout(PUSH_TIMEOUT_MS),
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.ok ? { ok: true, statusCode: res.status } : { ok: false, error: httpFailure(res.status), statusCode: res.status };
    },
    async record(q, r, attempt, result, _status, duration) {
      await q(
        `INSERT INTO push_attempts (outbox_id, company_id, alarm_id, imei, url, attempt, status_code, success, error, duration_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [r.id, r.company_id, r.alarm_id, r.imei, r.url, attempt, result.statusCode ?? null, result.ok, result.ok ? '' : result.error.slice(0, 500), duration],
      );
    },
  };
}

const PUSH_TIMEOUT_MS = 10_000;

export class PushWorker extends OutboxWorker {
  constructor(deps: AppDeps, opts: OutboxWorkerOptions = {}) {
    super(deps, pushChannel(deps), { timeoutMs: PUSH_TIMEOUT_MS, ...opts });
  }
}
