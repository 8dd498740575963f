// Partner push. An alarm becomes one outbox row per company in the device's account chain, in the
// database, so a delivery survives a restart. A worker claims due rows (FOR UPDATE SKIP LOCKED, so
// several workers on PostgreSQL never take the same row; a claim expires if its worker dies), POSTs
// the JSON body signed with HMAC-SHA256 of the body keyed by the company's verification code, logs
// the attempt, and retries failures with exponential backoff.
import { createHmac } from 'node:crypto';
import { formatDateTime, resolveLocale } from '@wt/contract';
import type { QueryFn } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { renderAlarmMessage } from '../alarm/format.js';
import { backoffMs, pathIdsUpward } from '../../rules/alarm-rules.js';

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

function bodyFor(format: number, a: PushAlarm): string {
  if (format === 2) {
    return JSON.stringify({ NotificationType: a.code, DeviceID: a.device.imei, Nickname: a.device.name, Message: a.message, Created: formatDateTime(a.created) });
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
    `SELECT c.id, c.push_url AS "url", c.push_model AS "model", c.default_format AS "format", a.language
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
      bodyFor(Number(c.format), alarm.messageKey ? { ...alarm, message: renderAlarmMessage(resolveLocale(String(c.language ?? '')), alarm.messageKey, alarm.params) } : alarm),
    ]);
    n++;
  }
  return n;
}

export interface PushWorkerOptions {
  /** How often due rows are looked for without a nudge. */
  pollMs?: number;
  batch?: number;
  timeoutMs?: number;
}

export class PushWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private unsubscribe: (() => void) | undefined;
  private readonly pollMs: number;
  private readonly batch: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly deps: AppDeps,
    opts: PushWorkerOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 1000;
    this.batch = opts.batch ?? 20;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  start(): void {
    this.unsubscribe = this.deps.bus.subscribe(PUSH_TOPICS.enqueued, () => this.kick(), { cluster: true });
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Runs a pass now, or right after the one in progress. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((err) => this.deps.log.error({ err }, 'push worker pass failed'))
      .finally(() => {
        this.running = undefined;
        if (this.again && !this.stopped) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async drain(): Promise<void> {
    while (!this.stopped) {
      const n = await this.pass();
      if (n < this.batch) return;
    }
  }

  /** Claims due rows and delivers them; returns how many it claimed. */
  async pass(): Promise<number> {
    const lease = Math.ceil(this.timeoutMs / 1000) * 3;
    const rows = await this.deps.database.query<Row>(
      `UPDATE push_outbox o SET locked_until = now() + make_interval(secs => $2)
        FROM push_companies c
       WHERE o.id IN (
               SELECT id FROM push_outbox
                WHERE status = 'pending' AND next_at <= now() AND (locked_until IS NULL OR locked_until < now())
                ORDER BY next_at LIMIT $1
                FOR UPDATE SKIP LOCKED)
         AND c.id = o.company_id
       RETURNING o.id, o.company_id AS "companyId", o.alarm_id AS "alarmId", o.imei, o.url, o.body, o.attempts,
                 c.verification_code AS "code"`,
      [this.batch, lease],
    );
    await Promise.all(rows.map((r) => this.deliver(r)));
    return rows.length;
  }

  private async deliver(r: Row): Promise<void> {
    const body = String(r.body);
    const attempt = Number(r.attempts) + 1;
    const started = Date.now();
    let statusCode: number | null = null;
    let error = '';
    try {
      const res = await fetch(String(r.url), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          [SIGNATURE_HEADER]: signBody(body, String(r.code)),
          'X-Push-Attempt': String(attempt),
          'X-Push-Id': String(r.id),
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      statusCode = res.status;
      await res.arrayBuffer().catch(() => undefined);
      if (!res.ok) error = `HTTP ${res.status}`;
    } catch (err) {
      error = (err as Error).message || String(err);
    }
    const ok = error === '';
    const duration = Date.now() - started;
    const { PUSH_MAX_ATTEMPTS: max, PUSH_RETRY_BASE_MS: base } = this.deps.config;
    await this.deps.database.transaction(async (q) => {
      await q(
        `INSERT INTO push_attempts (outbox_id, company_id, alarm_id, imei, url, attempt, status_code, success, error, duration_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
        [r.id, r.companyId, r.alarmId, r.imei, r.url, attempt, statusCode, ok, error.slice(0, 500), duration],
      );
      const status = ok ? 'delivered' : attempt >= max ? 'failed' : 'pending';
      await q(
        `UPDATE push_outbox SET attempts = $2, status = $3, last_error = $4, locked_until = NULL,
                next_at = now() + make_interval(secs => $5) WHERE id = $1`,
        [r.id, attempt, status, error.slice(0, 500), ok ? 0 : backoffMs(attempt, base) / 1000],
      );
    });
    if (!ok) this.deps.log.warn({ url: r.url, attempt, error }, 'partner push failed, will retry');
  }
}
