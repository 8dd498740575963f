// The operation log: every call that changes something (its registry action is a permission action
// or 'self', not a read or a public call) is recorded with its caller, time, address and place, the
// object it named, and how it ended: success, or the refusal's State and message key. A request its
// handler marks as only looking (a preview before a confirmation that may be cancelled) is not. Refusals
// before the handler ran (permission, validation, body too large) are recorded too, as long as the
// caller is known.
// Rows are queued in memory and written in batches (every second, or at once at 500 rows), so a
// call never waits for the log and never fails because of it. The queue is bounded: if the database
// stays unreachable the oldest rows are dropped (and counted in the server log), and what is queued
// is written when the app closes.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OPLOG_SKIPPED_CALLS, actionOfCall, findCall } from '@wt/contract';
import type { AppDeps } from '../deps.js';
import { operationLogs } from '../db/schema/index.js';
import { ipLocationText } from '../lib/iplocation.js';

declare module 'fastify' {
  interface FastifyInstance {
    oplog: OperationLog;
  }
  interface FastifyRequest {
    /** Set by a handler whose call only looked (a preview before a confirmation): nothing to record. */
    changedNothing?: boolean;
  }
}

type Row = typeof operationLogs.$inferInsert;

/** Rows written per insert, and the most the queue holds before it drops the oldest. */
export const OPLOG_BATCH_ROWS = 500;
export const OPLOG_QUEUE_MAX = 20_000;
const FLUSH_MS = 1000;
/** Bounds of what an entry keeps of the request and the answer. */
export const OBJECT_MAX_CHARS = 300;
const DETAIL_MAX_CHARS = 2000;
const LIST_SHOWN = 5;
const NOT_CHANGES = new Set(OPLOG_SKIPPED_CALLS.map((p) => p.toLowerCase()));
/**
 * Calls that write their own entry, in the transaction of the change and with its per-item result
 * (the agent authorization's audit): only their refusals are recorded here, so a success is one entry.
 */
const AUDITED_IN_TRANSACTION = new Set(['/user/agentauthorize']);

/** Body fields that name what a call acts on: ids, IMEIs, names, keys. Secrets never match. */
const OBJECT_FIELD = /(^|[a-z])(id|ids|imei|imeis|sn|name|names|loginname|key|keys|title|hostname|code)$/i;
const SECRET_FIELD = /pass|pwd|token|secret|data|avatar/i;

function shortValue(v: unknown): string | null {
  if (v === null || v === undefined || v === '') return null;
  if (typeof v === 'string') return v.length > 64 ? `${v.slice(0, 63)}…` : v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) {
    const items = v.map(shortValue).filter((x): x is string => x !== null);
    if (items.length === 0) return null;
    const shown = items.slice(0, LIST_SHOWN).join(',');
    return items.length > LIST_SHOWN ? `${shown} (+${items.length - LIST_SHOWN})` : shown;
  }
  return null;
}

/** "UserId=12; Imeis=865…,865… (+3)": the identifying fields of a call's body, bounded. */
export function objectOf(body: unknown): string {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return '';
  const parts: string[] = [];
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (!OBJECT_FIELD.test(k) || SECRET_FIELD.test(k)) continue;
    const s = shortValue(v);
    if (s !== null) parts.push(`${k}=${s}`);
  }
  const text = parts.join('; ');
  return text.length > OBJECT_MAX_CHARS ? `${text.slice(0, OBJECT_MAX_CHARS - 1)}…` : text;
}

function bounded(v: unknown): string {
  const s = JSON.stringify(v);
  return s.length > DETAIL_MAX_CHARS ? '' : s;
}

/** State, key and parameters of an error answer; the per-item failures of a successful batch. */
function outcome(status: number, payload: unknown): Pick<Row, 'state' | 'errorKey' | 'detail'> {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  if (status < 400) {
    // Only a batch's answer is looked into, and only a small one.
    if (!text || text.length > 64 * 1024 || !text.includes('"Failed":[{')) return { state: 0, errorKey: '', detail: '' };
    try {
      const b = JSON.parse(text) as { Succeeded?: number; Failed?: unknown[] };
      return { state: 0, errorKey: '', detail: Array.isArray(b.Failed) ? bounded({ Succeeded: b.Succeeded, Failed: b.Failed.slice(0, 20), FailedCount: b.Failed.length }) : '' };
    } catch {
      return { state: 0, errorKey: '', detail: '' };
    }
  }
  try {
    const b = JSON.parse(text ?? '') as { State?: number; Message?: string; Params?: Record<string, unknown>; Fields?: { Field: string; Message: string; Params?: unknown }[] };
    const detail = b.Params || b.Fields ? bounded({ Params: b.Params, Fields: b.Fields?.slice(0, 10).map((f) => ({ Field: f.Field, Message: f.Message, Params: f.Params })) }) : '';
    return { state: Number(b.State ?? status), errorKey: String(b.Message ?? '').slice(0, 128), detail };
  } catch {
    return { state: status, errorKey: 'common.failed', detail: '' };
  }
}

/** Text as a text column takes it: PostgreSQL refuses the NUL character, which a request body can carry. */
function text<T extends string | null | undefined>(v: T): T {
  return (typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '') : v) as T;
}

function storable(row: Row): Row {
  return {
    ...row,
    loginName: text(row.loginName),
    object: text(row.object),
    errorKey: text(row.errorKey),
    detail: text(row.detail),
    ip: text(row.ip),
  };
}

/** A refusal of the data itself (SQLSTATE classes 22 and 23), which writing again cannot cure. */
function refusesData(err: unknown): boolean {
  const code = String((err as { cause?: { code?: unknown }; code?: unknown })?.cause?.code ?? (err as { code?: unknown })?.code ?? '');
  return code.startsWith('22') || code.startsWith('23');
}

export class OperationLog {
  private queue: Row[] = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;
  private next: Promise<void> | null = null;

  constructor(private readonly deps: AppDeps) {}

  /** Queues an entry; written within a second. */
  add(row: Row) {
    this.queue.push(storable(row));
    if (this.queue.length > OPLOG_QUEUE_MAX) {
      const over = this.queue.length - OPLOG_QUEUE_MAX;
      this.queue.splice(0, over);
      this.dropped += over;
    }
    if (this.queue.length >= OPLOG_BATCH_ROWS) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /**
   * Writes what is queued; resolves when it is written (or failed, which is logged). At most one
   * write waits behind the running one, and it takes the whole queue when it starts, so a burst of
   * entries (or a database that refuses them) never piles up writes for the close to wait through.
   */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.next) {
      this.next = this.writing.then(() => {
        this.next = null;
        return this.writeQueued();
      });
      this.writing = this.next;
    }
    return this.next;
  }

  private async writeQueued() {
    if (this.dropped) {
      this.deps.log.warn({ dropped: this.dropped }, 'operation log entries dropped: the database did not take them in time');
      this.dropped = 0;
    }
    while (this.queue.length) {
      const batch = this.queue.splice(0, OPLOG_BATCH_ROWS);
      for (const r of batch) r.ipLocation ??= ipLocationText(r.ip ?? '');
      try {
        await this.deps.database.db.insert(operationLogs).values(batch);
      } catch (err) {
        if (refusesData(err)) {
          // A row the database will never take must not hold back the others: write them one by one.
          if (await this.writeEach(batch)) continue;
          this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS * 5).unref();
          return;
        }
        // Kept for the next flush (the queue's bound still holds); a call never sees this.
        this.queue.unshift(...batch);
        this.deps.log.error({ err }, 'writing the operation log failed');
        this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS * 5).unref();
        return;
      }
    }
  }

  /** Writes a batch row by row, dropping (and logging) the rows refused for their data; false when the database stopped answering (the rest is queued again). */
  private async writeEach(batch: Row[]): Promise<boolean> {
    for (const [i, row] of batch.entries()) {
      try {
        await this.deps.database.db.insert(operationLogs).values(row);
      } catch (err) {
        if (!refusesData(err)) {
          this.queue.unshift(...batch.slice(i));
          this.deps.log.error({ err }, 'writing the operation log failed');
          return false;
        }
        this.deps.log.error({ err, call: row.call, loginName: row.loginName }, 'operation log entry refused by the database: dropped');
      }
    }
    return true;
  }

  /** Called from the response hook: records the request if its call changes something. */
  record(request: FastifyRequest, status: number, payload: unknown) {
    const user = request.authUser;
    if (!user) return;
    const url = request.routeOptions.url;
    if (!url?.startsWith('/api/')) return;
    const entry = findCall(url.slice(4));
    if (!entry) return;
    const action = actionOfCall(entry.path);
    if (!action || action === 'read' || action === 'public' || NOT_CHANGES.has(entry.path.toLowerCase())) return;
    if (status < 400 && AUDITED_IN_TRANSACTION.has(entry.path.toLowerCase())) return;
    if (status < 400 && request.changedNothing) return;
    this.add({
      accountId: user.id,
      accountPath: user.path,
      loginName: user.loginName,
      call: entry.path,
      action,
      object: objectOf(request.body),
      ...outcome(status, payload),
      ip: request.ip,
      createdAt: new Date(),
    });
  }
}

export default fp(
  async function oplog(app: FastifyInstance, opts: { deps: AppDeps }) {
    const log = new OperationLog(opts.deps);
    app.decorate('oplog', log);
    app.addHook('onSend', async (request, reply, payload) => {
      try {
        log.record(request, reply.statusCode, payload);
      } catch (err) {
        request.log.error({ err }, 'recording the operation failed');
      }
      return payload;
    });
    app.addHook('onClose', async () => log.flush());
  },
  { name: 'oplog', dependencies: ['calls'] },
);
