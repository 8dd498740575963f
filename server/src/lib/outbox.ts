// Durable delivery: rows written in the transaction of what they tell of (an alarm), delivered by a
// worker that claims due rows (FOR UPDATE SKIP LOCKED, so several workers on PostgreSQL never take
// the same row; a claim is a lease that expires if its worker dies), and retries failures after
// 1, 2, 4 … × the base delay, capped at an hour, up to a number of attempts. The partner push and
// the alarm contacts' SMS and e-mail are its channels; each says how a row is delivered and what
// else an attempt records.
import type { QueryFn } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import { backoffMs } from '../rules/alarm-rules.js';

type Row = Record<string, unknown>;

/** How one attempt ended. `final: true` on a failure: no retry (the recipient can never take it). */
export type Delivery =
  | { ok: true; status?: string; ref?: string; statusCode?: number | null }
  | { ok: false; error: string; final?: boolean; statusCode?: number | null };

export interface OutboxChannel {
  /** For the log. */
  name: string;
  /** The outbox table: id, status, attempts, next_at, locked_until, last_error. */
  table: string;
  /** Bus topic that wakes the worker when rows were queued. */
  topic: string;
  /** Extra columns and a join for the claim, e.g. a company's signing key. */
  claim?: { from: string; where: string; returning: string };
  /** Status of a delivered row (default 'delivered'). */
  delivered?: string;
  maxAttempts(): number;
  retryBaseMs(): number;
  deliver(row: Row, attempt: number): Promise<Delivery>;
  /** Writes what an attempt leaves besides the row's state (attempt log, refunds), in its transaction, after the row's update. */
  record?(q: QueryFn, row: Row, attempt: number, result: Delivery, status: string, durationMs: number): Promise<void>;
}

export interface OutboxWorkerOptions {
  /** How often due rows are looked for without a nudge. */
  pollMs?: number;
  batch?: number;
  /** The longest one delivery may take; the lease is three times it. */
  timeoutMs?: number;
}

export class OutboxWorker {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private unsubscribe: (() => void) | undefined;
  private readonly pollMs: number;
  private readonly batch: number;
  readonly timeoutMs: number;

  constructor(
    protected readonly deps: AppDeps,
    private readonly channel: OutboxChannel,
    opts: OutboxWorkerOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 1000;
    this.batch = opts.batch ?? 20;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  start(): void {
    this.unsubscribe = this.deps.bus.subscribe(this.channel.topic, () => this.kick(), { cluster: true });
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
      .catch((err) => this.deps.log.error({ err }, `${this.channel.name} worker pass failed`))
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
    const t = this.channel.table;
    const lease = Math.ceil(this.timeoutMs / 1000) * 3;
    const c = this.channel.claim;
    const rows = await this.deps.database.query<Row>(
      `UPDATE ${t} o SET locked_until = now() + make_interval(secs => $2)
        ${c ? `FROM ${c.from}` : ''}
       WHERE o.id IN (
               SELECT id FROM ${t}
                WHERE status = 'pending' AND next_at <= now() AND (locked_until IS NULL OR locked_until < now())
                ORDER BY next_at LIMIT $1
                FOR UPDATE SKIP LOCKED)
         ${c ? `AND ${c.where}` : ''}
       RETURNING o.*${c ? `, ${c.returning}` : ''}`,
      [this.batch, lease],
    );
    await Promise.all(rows.map((r) => this.deliver(r)));
    return rows.length;
  }

  private async deliver(r: Row): Promise<void> {
    const attempt = Number(r.attempts) + 1;
    const started = Date.now();
    let result: Delivery;
    try {
      result = await this.channel.deliver(r, attempt);
    } catch (err) {
      result = { ok: false, error: (err as Error).message || String(err) };
    }
    const duration = Date.now() - started;
    const error = result.ok ? '' : result.error.slice(0, 500);
    const status = result.ok ? (result.status ?? this.channel.delivered ?? 'delivered') : result.final || attempt >= this.channel.maxAttempts() ? 'failed' : 'pending';
    await this.deps.database.transaction(async (q) => {
      await q(
        `UPDATE ${this.channel.table} SET attempts = $2, status = $3, last_error = $4, locked_until = NULL,
                next_at = now() + make_interval(secs => $5) WHERE id = $1`,
        [r.id, attempt, status, error, result.ok ? 0 : backoffMs(attempt, this.channel.retryBaseMs()) / 1000],
      );
      await this.channel.record?.(q, r, attempt, result, status, duration);
    });
    if (!result.ok) this.deps.log.warn({ id: r.id, attempt, error, status }, `${this.channel.name} delivery failed`);
  }
}
