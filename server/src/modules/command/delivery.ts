// Putting commands on the wire: on a live session at once, or when the device next connects.
// A command is claimed (queued -> sent) before its bytes are written, so two gateway processes
// never both send it and a fast reply always finds it 'sent'.
import { gt06CommandText, watchCommandContent, type DeviceCommand } from '@wt/protocols';
import type { AppDeps } from '../../deps.js';
import { TOPICS, type CommandEvent } from '../../pipeline/events.js';
import type { DeviceSession } from '../../pipeline/ingest.js';

export type CommandStatus = 'queued' | 'sent' | 'answered' | 'failed';

/** Protocols that can carry commands to the device. */
export const COMMAND_PROTOCOLS = new Set(['watch', 'gt06']);

/**
 * Encodes a command for a protocol without sending it: checks it can be encoded, and gives the
 * keyword the device will echo in its reply. Throws the codec's error when it cannot.
 */
export function preview(protocol: string, command: DeviceCommand): { text: string; keyword: string } {
  if (protocol === 'gt06') {
    const text = gt06CommandText(command);
    return { text, keyword: text.split(/[,#=:]/)[0]!.toUpperCase() };
  }
  const text = watchCommandContent(command);
  return { text, keyword: text.split(',')[0]!.toUpperCase() };
}

export async function publishCommand(deps: AppDeps, deviceId: number, commandId: number, code: string, status: CommandStatus, reply?: string | null) {
  const ref = await deps.ingest.refOf(deviceId);
  if (!ref) return;
  const e: CommandEvent = {
    deviceId: ref.id, imei: ref.imei, name: ref.name, accountId: ref.accountId, accountPath: ref.accountPath, protocol: ref.protocol,
    commandId, code, status, reply: reply ?? null, at: new Date().toISOString(),
  };
  deps.bus.publish(TOPICS.command, e);
}

interface QueuedRow {
  id: number;
  code: string;
  params: Record<string, unknown>;
}

/** Sends one queued command on a session. Returns its new status, or null when it was not queued any more. */
export async function sendOn(deps: AppDeps, session: DeviceSession, row: QueuedRow): Promise<CommandStatus | null> {
  const db = deps.database;
  const claimed = await db.query(`UPDATE commands SET status = 'sent', sent_at = now() WHERE id = $1 AND status = 'queued' RETURNING id`, [row.id]);
  if (!claimed.length) return null;
  let encoded: string;
  try {
    if (!session.open) throw new Error('connection closed');
    encoded = session.sendCommand({ code: row.code, params: row.params ?? {} }, row.id);
  } catch (err) {
    // The connection went away between the check and the write: the command waits for the next one.
    const status: CommandStatus = session.open ? 'failed' : 'queued';
    // The console shows the reason by its key; the technical detail goes to the log.
    if (status === 'failed') deps.log.warn({ err, commandId: row.id }, 'command: sending failed');
    await db.query(`UPDATE commands SET status = $2, error = $3, sent_at = NULL WHERE id = $1`, [row.id, status, status === 'failed' ? SEND_FAILED : '']);
    if (status === 'failed') await publishCommand(deps, session.deviceId, row.id, row.code, 'failed');
    return status;
  }
  deps.ingest.metrics.commandsSent++;
  await db.query(`UPDATE commands SET encoded = $2 WHERE id = $1`, [row.id, encoded]);
  await publishCommand(deps, session.deviceId, row.id, row.code, 'sent');
  return 'sent';
}

/** Sends every command queued for the device of a session that just identified itself. */
/**
 * The queued commands of devices that just connected, asked for together: after a restart thousands
 * of devices identify themselves within seconds, and that costs a few queries instead of one each.
 */
class QueuedLookup {
  private waiting = new Map<number, { resolve: (rows: QueuedRow[]) => void; reject: (err: Error) => void }[]>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly database: AppDeps['database']) {}

  forDevice(deviceId: number): Promise<QueuedRow[]> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(deviceId);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(deviceId, [{ resolve, reject }]);
      if (this.waiting.size >= 1000) this.run();
      else this.timer ??= setTimeout(() => this.run(), 5);
    });
  }

  private run(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = new Map();
    if (!batch.size) return;
    this.database
      .query<QueuedRow & { deviceId: number }>(
        `SELECT device_id AS "deviceId", id, code, params FROM commands
          WHERE device_id IN (SELECT (json_array_elements_text($1::json))::int) AND status = 'queued' ORDER BY id`,
        [JSON.stringify([...batch.keys()])],
      )
      .then(
        (rows) => {
          const by = new Map<number, QueuedRow[]>();
          for (const { deviceId, ...row } of rows) {
            const list = by.get(deviceId);
            if (list) list.push(row);
            else by.set(deviceId, [row]);
          }
          for (const [id, waiters] of batch) for (const w of waiters) w.resolve(by.get(id) ?? []);
        },
        (err: Error) => {
          for (const waiters of batch.values()) for (const w of waiters) w.reject(err);
        },
      );
  }
}

const lookups = new WeakMap<AppDeps['database'], QueuedLookup>();

export async function deliverQueued(deps: AppDeps, session: DeviceSession): Promise<void> {
  let lookup = lookups.get(deps.database);
  if (!lookup) lookups.set(deps.database, (lookup = new QueuedLookup(deps.database)));
  const rows = await lookup.forDevice(session.deviceId);
  for (const row of rows) {
    if (!session.open) return;
    await sendOn(deps, session, row);
  }
}

/** Sends a command if this process holds the device's connection; false when it does not. */
export async function dispatchLocal(deps: AppDeps, commandId: number, deviceId: number): Promise<CommandStatus | null | false> {
  const session = deps.ingest.sessions.get(deviceId);
  if (!session || !session.open) return false;
  const rows = await deps.database.query<QueuedRow>(`SELECT id, code, params FROM commands WHERE id = $1`, [commandId]);
  if (!rows[0]) return null;
  return sendOn(deps, session, rows[0]);
}

/** The error recorded on a command whose device never answered (a key of the console's command texts). */
export const NO_REPLY = 'noReply';
/** Error of a command the connection refused to carry (the detail is logged). */
export const SEND_FAILED = 'sendFailed';

/**
 * Marks failed the commands sent longer than COMMAND_REPLY_TIMEOUT_SECONDS ago without a reply, and
 * tells the consoles. Returns how many.
 */
export async function failUnanswered(deps: AppDeps, now = new Date()): Promise<number> {
  const timeout = deps.config.COMMAND_REPLY_TIMEOUT_SECONDS;
  if (timeout <= 0) return 0;
  const rows = await deps.database.query<{ id: number; deviceId: number; code: string }>(
    `UPDATE commands SET status = 'failed', error = $2
      WHERE status = 'sent' AND sent_at < $1::timestamptz
      RETURNING id, device_id AS "deviceId", code`,
    [new Date(now.getTime() - timeout * 1000).toISOString(), NO_REPLY],
  );
  for (const r of rows) await publishCommand(deps, r.deviceId, r.id, r.code, 'failed');
  return rows.length;
}
