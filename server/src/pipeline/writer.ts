// The batch writer: messages of every transport queue here and are written together, one
// transaction per batch (positions, health readings, events, command replies and the latest state
// per device), when the batch is full or its oldest message has waited BATCH_MAX_WAIT_MS. While a
// batch commits the next one fills, so batches grow with the load (group commit). Each caller's
// promise settles only after its batch committed: that is when the device gets its acknowledgement.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { Logger } from 'pino';
import type { DeviceMessage } from '@wt/protocols';
import type { Database, QueryFn } from '../db/client.js';
import type { DeviceRef } from './directory.js';
import { RateLimitedLog, type Metrics } from './metrics.js';
import { codeOfDeviceAlarm } from '../rules/alarm-rules.js';
import { boundDouble, boundInt, boundJson, boundReal, boundSmallint, boundText, boundTime } from './bounds.js';
import { BEACON_METHOD_CODE, INDOOR_METHOD_CODES, mergeMessage, newDelta, stateRowsJson, upsertStateSql, UPSERT_STATE_SQL, type ConnectionMode, type StateDelta } from './state.js';

export interface WriteItem {
  ref: DeviceRef;
  msg: DeviceMessage;
  receivedAt: number;
  mode: ConnectionMode;
  /** receivedAt as ISO text, and the message's own time (receive time when it has none): set once, when the batch is prepared, for the rows and the events. */
  receivedIso?: string;
  timeIso?: string;
}

interface Group {
  items: WriteItem[];
  /** Called once, after the group's batch committed (no error) or failed. */
  done: (err: Error | null) => void;
}

/** What a committed batch produced, for the events published after the commit. */
export interface CommittedBatch {
  items: WriteItem[];
  deltas: Map<number, StateDelta>;
  /** device_events ids of alarm rows, per item index and alarm kind. */
  alarmIds: Map<WriteItem, number[]>;
  /** Commands answered by replies in this batch. */
  answered: { item: WriteItem; commandId: number; code: string; reply: string | null }[];
  /** Rows written to positions. */
  positions: number;
}

export interface WriterOptions {
  maxRows: number;
  maxWaitMs: number;
  /** Batches committing at once (PostgreSQL gains from two; PGlite runs one at a time anyway). */
  maxInflight: number;
  onCommitted: (batch: CommittedBatch) => void;
}

const POSITIONS_SQL = `INSERT INTO positions (device_id, time, received_at, lat, lon, valid, speed, course, altitude, accuracy, satellites, cells, wifi, attributes, scene_id, floor_id, x, y, method)
SELECT d, t, r, la, lo, v, s, c, al, ac, sa, ce, wi, at, sc, fl, px, py, mt FROM json_to_recordset($1::json)
  AS x(d int, t timestamptz, r timestamptz, la float8, lo float8, v bool, s real, c real, al real, ac real, sa smallint, ce jsonb, wi jsonb, at jsonb,
    sc int, fl int, px real, py real, mt smallint)`;

// A reading with a measure the thresholds check is left pending for the alarm engine, which
// evaluates it (live, or on its replay after a restart) in the transaction of its alarms.
const HEALTH_SQL = `INSERT INTO health_readings (device_id, time, received_at, heart_rate, systolic, diastolic, body_temp, wrist_temp, blood_oxygen, hrv, steps, distance, calories, uv, pho, ir, sleep, pending)
SELECT d, t, r, hr, sy, di, bt, wt, bo, hv, st, ds, ca, uv, ph, ir, sl,
  (hr IS NOT NULL OR sy IS NOT NULL OR di IS NOT NULL OR bt IS NOT NULL OR wt IS NOT NULL OR bo IS NOT NULL) FROM json_to_recordset($1::json)
  AS x(d int, t timestamptz, r timestamptz, hr real, sy real, di real, bt real, wt real, bo real, hv real, st int, ds real, ca real, uv real, ph real, ir real, sl jsonb)`;

// The common batch (positions, health readings, state; no events, no command replies) is one
// statement: a single round trip and an implicit transaction, which matters when the event loop
// is busy with thousands of sockets and every await waits for a turn.
const SINGLE_SQL = `WITH p AS (${POSITIONS_SQL.replace('$1', '$1')}),
h AS (${HEALTH_SQL.replace('$1', '$2')}),
s AS (${upsertStateSql(3)})
SELECT 1`;

const POSITIONS_COPY =
  'COPY positions (device_id, time, received_at, lat, lon, valid, speed, course, altitude, accuracy, satellites, cells, wifi, attributes, scene_id, floor_id, x, y, method) FROM STDIN';
const POSITION_KEYS = ['d', 't', 'r', 'la', 'lo', 'v', 's', 'c', 'al', 'ac', 'sa', 'ce', 'wi', 'at', 'sc', 'fl', 'px', 'py', 'mt'] as const;

/** A value in COPY's text format. */
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'boolean') return v ? 't' : 'f';
  if (typeof v === 'number') return String(v);
  const text = typeof v === 'string' ? v : JSON.stringify(v);
  return /[\\\n\r\t]/.test(text) ? text.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t')) : text;
}

// An alarm that raises an alarm record is left pending for the alarm engine, which clears it in the
// transaction that writes the record and its partner pushes: acknowledged means it will be raised.
const EVENTS_SQL = `INSERT INTO device_events (id, device_id, time, received_at, kind, payload, pending)
SELECT i, d, t, r, k, p, coalesce(pe, false) FROM json_to_recordset($1::json) AS x(i bigint, d int, t timestamptz, r timestamptz, k text, p jsonb, pe bool)`;

// The reply answers the oldest command sent with that keyword; binary protocols whose replies do
// not name the command (GT06 texts) fall back to the oldest sent command of the device.
// A GT06 reply echoes the server flag, which carries the command's id: that command first. Other
// replies name a keyword: the oldest sent command with it (GT06 text without a flag: the oldest sent).
// A command already marked failed for want of a reply still takes a late one.
const ANSWER_SQL = `UPDATE commands SET status = 'answered', reply = $3, answered_at = now(), error = ''
WHERE id = (
  SELECT id FROM commands WHERE device_id = $1 AND (status = 'sent' OR (status = 'failed' AND error = 'noReply'))
    AND (keyword = upper($2) OR $4::bool OR id = $5::int)
  ORDER BY (id = $5::int) IS TRUE DESC, (keyword = upper($2)) DESC, sent_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
RETURNING id, code`;

type Prepared = ReturnType<BatchWriter['prepare']>;

/**
 * Failures of the database rather than of the data (unreachable, shutting down, out of resources,
 * a deadlock or serialization conflict): the whole batch is not acknowledged and devices resend.
 * Anything else is the data's fault, and the batch is split to find the message at fault.
 */
export function isTransient(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    // 08 connection, 53 insufficient resources, 57P0x shutdown, 58 system error, 40001/40P01 conflicts, 55P03 lock.
    if (/^(08|53|57P|58)/.test(code) || code === '40001' || code === '40P01' || code === '55P03') return true;
    if (/^E[A-Z]+$/.test(code)) return true; // node sockets: ECONNREFUSED, ECONNRESET, ETIMEDOUT, EPIPE ...
  }
  const message = (err as Error | null)?.message ?? '';
  return /connection terminated|timeout exceeded when trying to connect|connection error|is closed|not connected/i.test(message);
}


export class BatchWriter {
  // A FIFO as an array and a head index: shift() on a long array moves every element.
  private queue: Group[] = [];
  private head = 0;
  private queuedRows = 0;
  private inflight = 0;
  private timer: NodeJS.Timeout | undefined;
  private idle: (() => void)[] = [];
  private closed = false;
  private readonly refusedLog = new RateLimitedLog(30);

  constructor(
    private readonly database: Database,
    private readonly metrics: Metrics,
    private readonly log: Logger,
    private readonly opts: WriterOptions,
  ) {}

  get pending(): number {
    return this.queuedRows;
  }

  private get queuedGroups(): number {
    return this.queue.length - this.head;
  }

  write(items: WriteItem[]): Promise<void> {
    return new Promise((resolve, reject) => this.submit(items, (err) => (err ? reject(err) : resolve())));
  }

  /** write() with a callback: the path of every device frame, where a promise per frame shows. */
  submit(items: WriteItem[], done: (err: Error | null) => void): void {
    if (this.closed) return done(new Error('writer closed'));
    if (items.length === 0) return done(null);
    this.queue.push({ items, done });
    this.queuedRows += items.length;
    this.schedule();
  }

  /** Writes what is queued and waits for every batch to finish. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
    if (this.inflight === 0 && this.queuedGroups === 0) return;
    await new Promise<void>((r) => this.idle.push(r));
  }

  private schedule(): void {
    if (this.inflight >= this.opts.maxInflight) return; // the running batch flushes on completion
    if (this.queuedRows >= this.opts.maxRows || this.opts.maxWaitMs === 0) {
      this.flush();
      return;
    }
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.opts.maxWaitMs);
  }

  private flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.inflight < this.opts.maxInflight && this.queuedGroups > 0) {
      const groups: Group[] = [];
      let rows = 0;
      while (this.head < this.queue.length && (rows === 0 || rows + this.queue[this.head]!.items.length <= this.opts.maxRows)) {
        const g = this.queue[this.head]!;
        this.queue[this.head++] = undefined as unknown as Group;
        groups.push(g);
        rows += g.items.length;
      }
      if (this.head === this.queue.length) {
        this.queue = [];
        this.head = 0;
      } else if (this.head > 4096 && this.head * 2 > this.queue.length) {
        this.queue = this.queue.slice(this.head);
        this.head = 0;
      }
      this.queuedRows -= rows;
      this.inflight++;
      void this.run(groups, rows).finally(() => {
        this.inflight--;
        // Messages that queued during the commit have waited long enough: go at once.
        if (this.queuedGroups > 0) this.flush();
        else if (this.inflight === 0) for (const r of this.idle.splice(0)) r();
      });
    }
  }

  private async run(groups: Group[], rows: number): Promise<void> {
    const items: WriteItem[] = [];
    for (const g of groups) for (const it of g.items) items.push(it);
    const started = performance.now();
    let batch: CommittedBatch;
    try {
      const prep = this.prepare(items);
      batch =
        prep.events.length || prep.replies.length
          ? await this.database.transaction((q, client) => this.writeTx(q, prep, client))
          : await this.writeSingle(prep);
    } catch (err) {
      if (isTransient(err)) {
        this.metrics.failed += rows;
        this.log.error({ err, rows }, 'batch write failed: its devices are not acknowledged and will resend');
        this.settle(groups, err as Error);
        return;
      }
      // The database refused something in the data: one message must not cost the others their
      // acknowledgement. Halve the batch and write each half, down to the groups at fault.
      if (groups.length > 1) {
        const mid = groups.length >> 1;
        const count = (gs: Group[]) => gs.reduce((n, g) => n + g.items.length, 0);
        const [a, b] = [groups.slice(0, mid), groups.slice(mid)];
        await this.run(a, count(a));
        await this.run(b, count(b));
      } else this.refuse(groups[0]!, err as Error);
      return;
    }
    this.metrics.positions += batch.positions;
    this.metrics.batchCommitted(rows, performance.now() - started);
    try {
      this.opts.onCommitted(batch);
    } catch (err) {
      this.log.error({ err }, 'publishing committed messages failed');
    }
    // Then the acknowledgements (the events of what they acknowledge are out first).
    this.settle(groups, null);
  }

  /** A group the database refuses on its own: not acknowledged, counted and logged with its device. */
  private refuse(g: Group, err: Error): void {
    this.metrics.refused += g.items.length;
    const l = this.refusedLog.allow();
    if (l.ok) {
      const devices = [...new Set(g.items.map((it) => it.ref.imei))];
      const types = [...new Set(g.items.map((it) => `${it.msg.protocol}:${it.msg.type}`))];
      this.log.warn(
        { devices, deviceIds: [...new Set(g.items.map((it) => it.ref.id))], types, messages: g.items.length, reason: err.message, code: (err as { code?: string }).code, suppressed: l.suppressed || undefined },
        'device message refused by the database: not acknowledged, the other messages of its batch are stored',
      );
    }
    this.settle([g], err);
  }

  /** Tells each group's caller how its batch went; a caller that throws does not touch the others. */
  private settle(groups: Group[], err: Error | null): void {
    for (const g of groups) {
      try {
        g.done(err);
      } catch (e) {
        this.log.error({ err: e }, 'a batch caller failed on its result');
      }
    }
  }

  private prepare(items: WriteItem[]) {
    const positions: Record<(typeof POSITION_KEYS)[number], unknown>[] = [];
    const health: unknown[] = [];
    const events: { d: number; t: string; r: string; k: string; p: unknown; item: WriteItem; pe?: boolean }[] = [];
    const replies: WriteItem[] = [];
    const deltas = new Map<number, StateDelta>();

    for (const it of items) {
      const { msg, ref } = it;
      const received = it.receivedAt;
      const r = (it.receivedIso ??= new Date(received).toISOString());
      // Every value below goes through the bound of its column (./bounds.ts).
      const time = msg.time ?? msg.fix?.time;
      const t = (it.timeIso = boundTime(time, received) ?? r);
      let delta = deltas.get(ref.id);
      if (!delta) deltas.set(ref.id, (delta = newDelta(ref.id, received, it.mode)));
      mergeMessage(delta, msg, received, it.mode);

      if (msg.fix || msg.cells?.length || msg.wifi?.length) {
        const f = msg.fix;
        const attrs: Record<string, unknown> = { type: msg.type };
        if (msg.status) Object.assign(attrs, msg.status);
        if (msg.attributes) Object.assign(attrs, msg.attributes);
        if (msg.buffered) attrs.buffered = true;
        if (msg.alarms?.length) attrs.alarms = msg.alarms;
        positions.push({
          d: ref.id,
          t: f && f.time !== time ? (boundTime(f.time, received) ?? t) : t,
          r,
          la: f ? boundDouble(f.lat) : null,
          lo: f ? boundDouble(f.lon) : null,
          v: f ? f.valid === true : false,
          s: boundReal(f?.speed),
          c: boundReal(f?.course),
          al: boundReal(f?.altitude),
          ac: boundReal(f?.accuracy),
          sa: boundSmallint(f?.satellites),
          ce: msg.cells?.length ? boundJson(msg.cells) : null,
          wi: msg.wifi?.length ? boundJson(msg.wifi) : null,
          at: boundJson(attrs),
          sc: f?.indoor ? boundInt(f.indoor.sceneId) : null,
          fl: f?.indoor ? boundInt(f.indoor.floorId) : null,
          px: f?.indoor ? boundReal(f.indoor.x) : null,
          py: f?.indoor ? boundReal(f.indoor.y) : null,
          mt: f?.indoor ? INDOOR_METHOD_CODES[f.indoor.method] : f?.method === 'beacon' ? BEACON_METHOD_CODE : null,
        });
      }
      const h = msg.health;
      if (h && Object.keys(h).length) {
        health.push({
          d: ref.id, t, r,
          hr: boundReal(h.heartRate), sy: boundReal(h.systolic), di: boundReal(h.diastolic), bt: boundReal(h.bodyTemp), wt: boundReal(h.wristTemp),
          bo: boundReal(h.bloodOxygen), hv: boundReal(h.hrv), st: boundInt(h.steps), ds: boundReal(h.distance), ca: boundReal(h.calories), uv: boundReal(h.uv),
          ph: boundReal(h.pho), ir: boundReal(h.ir),
          sl: h.sleep?.length ? boundJson(h.sleep) : null,
        });
      }
      for (const a of msg.alarms ?? []) {
        const f = msg.fix;
        events.push({ d: ref.id, t, r, k: boundText(a, 64)!, item: it, pe: codeOfDeviceAlarm(a) !== null, p: boundJson({ type: msg.type, ...(f ? { lat: f.lat, lon: f.lon, valid: f.valid } : {}), ...(msg.status ? { status: msg.status } : {}) }) });
      }
      if (msg.kind === 'login') events.push({ d: ref.id, t, r, k: 'login', item: it, p: boundJson({ type: msg.type, ...(msg.attributes ?? {}) }) });
      if (msg.kind === 'beacon' && msg.beacon) events.push({ d: ref.id, t, r, k: 'beacon', item: it, p: boundJson(msg.beacon) });
      if (msg.commandResult) {
        events.push({ d: ref.id, t, r, k: 'commandResult', item: it, p: boundJson(msg.commandResult) });
        replies.push(it);
      }
    }

    return { items, positions, health, events, replies, deltas };
  }

  private async writeSingle(prep: Prepared): Promise<CommittedBatch> {
    const sorted = [...prep.deltas.values()].sort((a, b) => a.deviceId - b.deviceId);
    await this.database.query(SINGLE_SQL, [JSON.stringify(prep.positions), JSON.stringify(prep.health), stateRowsJson(sorted)]);
    return { items: prep.items, deltas: prep.deltas, alarmIds: new Map(), answered: [], positions: prep.positions.length };
  }

  private async writeTx(query: QueryFn, prep: Prepared, client?: PoolClient): Promise<CommittedBatch> {
    const { items, positions, health, events, replies, deltas } = prep;
    if (positions.length && client) {
      // PostgreSQL: COPY, the cheapest way in for the one table that takes most of the rows.
      let text = '';
      for (const row of positions) text += POSITION_KEYS.map((k) => copyValue(row[k])).join('\t') + '\n';
      await pipeline(Readable.from([text]), client.query(copyFrom(POSITIONS_COPY)));
    } else if (positions.length) await query(POSITIONS_SQL, [JSON.stringify(positions)]);
    if (health.length) await query(HEALTH_SQL, [JSON.stringify(health)]);
    const alarmIds = new Map<WriteItem, number[]>();
    if (events.length) {
      const ids = await query<{ id: number }>(`SELECT nextval('device_events_id_seq')::int8 AS id FROM generate_series(1, $1::int)`, [events.length]);
      const rows = events.map((e, i) => {
        const id = Number(ids[i]!.id);
        if (e.k !== 'login' && e.k !== 'beacon' && e.k !== 'commandResult') {
          const list = alarmIds.get(e.item) ?? [];
          list.push(id);
          alarmIds.set(e.item, list);
        }
        return { i: id, d: e.d, t: e.t, r: e.r, k: e.k, p: e.p, pe: e.pe };
      });
      await query(EVENTS_SQL, [JSON.stringify(rows)]);
    }
    const answered: CommittedBatch['answered'] = [];
    for (const it of replies) {
      const cr = it.msg.commandResult!;
      const keyword = boundText(cr.keyword, 64) ?? '';
      const reply = boundText(cr.text, 4096);
      const looseMatch = it.ref.protocol === 'gt06' || it.msg.protocol === 'gt06';
      // The flag carries a command id (an int4): anything else matches no command.
      const flag = cr.serverFlag && cr.serverFlag > 0 ? boundInt(cr.serverFlag) : null;
      const rows = await query<{ id: number; code: string }>(ANSWER_SQL, [it.ref.id, keyword, reply ?? keyword, looseMatch, flag]);
      if (rows[0]) answered.push({ item: it, commandId: rows[0].id, code: rows[0].code, reply: reply ?? keyword });
    }
    const sorted = [...deltas.values()].sort((a, b) => a.deviceId - b.deviceId);
    await query(UPSERT_STATE_SQL, [stateRowsJson(sorted)]);
    return { items, deltas, alarmIds, answered, positions: positions.length };
  }
}
