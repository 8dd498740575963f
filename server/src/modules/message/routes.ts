// Messages to devices by role (SPEC §5 Messages, §3 isSendMsgByRole): the watch message command for
// every device of the chosen roles, groups and accounts of the caller's subtree, through the command
// pipeline. The send writes its commands in one statement and answers; putting them on the wire
// (now for connected devices, on connect for the others) happens after the answer, a slice at a
// time, so neither the call nor the gateway waits for 10 000 devices.
import { State, type CallResponse } from '@wt/contract';
import { defineCall, type AuthedContext } from '../../calls.js';
import type { QueryFn } from '../../db/client.js';
import type { AppDeps } from '../../deps.js';
import { fieldError, forbidden, notFound } from '../../lib/errors.js';
import { accountInScope, subtreePattern } from '../../lib/scope.js';
import { iso, jsonParam, pagedQuery } from '../../lib/sql.js';
import { TOPICS, type DispatchEvent } from '../../pipeline/events.js';
import { COMMAND_PROTOCOLS, preview, sendOn } from '../command/delivery.js';

type Row = Record<string, unknown>;
type ServiceColumn = 'is_send_msg_by_role' | 'is_weather_config';

/** Refuses a service the caller's account was not given (SPEC §3 function switches). */
export async function requireService(ctx: AuthedContext, column: ServiceColumn): Promise<void> {
  const [a] = await ctx.deps.database.query<Row>(`SELECT ${column} AS "on" FROM accounts WHERE id = $1`, [ctx.user.id]);
  if (Number(a?.on) !== 1) throw forbidden(column === 'is_send_msg_by_role' ? 'message.serviceOff' : 'weather.serviceOff');
}

/** The keyword each protocol's device echoes for a command, for the protocols that can carry it. */
export function keywordsFor(code: string, params: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  for (const p of COMMAND_PROTOCOLS) {
    try {
      out.set(p, preview(p, { code, params: params as Record<string, never> }).keyword);
    } catch {
      // This protocol cannot carry the command.
    }
  }
  return out;
}

interface Targets {
  RoleIds: number[];
  GroupIds: number[];
  UserIds: number[];
}

/** Checks every chosen role, group and account lies in the caller's subtree (another tenant's id: not found). */
async function checkTargets(q: QueryFn, pattern: string, t: Targets): Promise<void> {
  const check = async (field: string, table: string, ids: number[], key: string) => {
    if (!ids.length) return;
    const sql =
      table === 'accounts'
        ? `SELECT count(*)::int AS n FROM accounts WHERE id = ANY($1::int[]) AND path LIKE $2`
        : `SELECT count(*)::int AS n FROM ${table} t JOIN accounts a ON a.id = t.account_id WHERE t.id = ANY($1::int[]) AND a.path LIKE $2`;
    const [r] = await q<Row>(sql, [[...new Set(ids)], pattern]);
    if (Number(r?.n) !== new Set(ids).size) throw fieldError(field, key);
  };
  await check('RoleIds', 'device_roles', t.RoleIds, 'device.roleNotFound');
  await check('GroupIds', 'device_groups', t.GroupIds, 'device.groupNotFound');
  await check('UserIds', 'accounts', t.UserIds, 'account.notInScope');
}

/** The devices of the subtree in a role, a group, or an account (or below it) of the choice: `$1..$4`. */
const TARGET_DEVICES = `FROM devices d JOIN accounts a ON a.id = d.account_id
  WHERE a.path LIKE $1
    AND (d.role_id = ANY($2::int[]) OR d.group_id = ANY($3::int[])
         OR EXISTS (SELECT 1 FROM accounts t WHERE t.id = ANY($4::int[]) AND a.path LIKE t.path || '%'))`;

const targetParams = (pattern: string, t: Targets) => [pattern, t.RoleIds, t.GroupIds, t.UserIds];

/**
 * Puts commands just written on the wire: on this process's connections at once, a slice at a time
 * (yielding between slices); the others wait for their device to connect (and, with several
 * gateway processes, are offered to the process that holds the connection).
 */
export function dispatchInBackground(deps: AppDeps, rows: { id: number; deviceId: number }[], code: string, params: Record<string, unknown>): void {
  const cluster = Boolean(deps.config.REDIS_URL);
  void (async () => {
    for (let i = 0; i < rows.length; i += 200) {
      await new Promise((r) => setImmediate(r));
      await Promise.all(
        rows.slice(i, i + 200).map(async (r) => {
          const session = deps.ingest.sessions.get(r.deviceId);
          if (session?.open) await sendOn(deps, session, { id: r.id, code, params });
          else if (cluster) deps.bus.publish(TOPICS.dispatch, { commandId: r.id, deviceId: r.deviceId } satisfies DispatchEvent);
        }),
      );
    }
  })().catch((err) => deps.log.error({ err }, 'bulk command dispatch failed'));
}

/**
 * Writes one command per target device in one statement (devices whose protocol cannot carry it are
 * left out and counted) and returns the rows; `link` names the table that records them.
 */
export async function insertBulkCommands(
  q: QueryFn,
  user: AuthedContext['user'],
  code: string,
  params: Record<string, unknown>,
  from: { sql: string; params: unknown[] },
  link?: { table: string; column: string; id: number },
): Promise<{ rows: { id: number; deviceId: number }[]; unsupported: number }> {
  const keywords = keywordsFor(code, params);
  const n = from.params.length;
  const protocols = [...keywords.keys()];
  const keywordCase = `CASE d.protocol ${protocols.map((_, i) => `WHEN $${n + 4 + i * 2} THEN $${n + 5 + i * 2}`).join(' ')} END`;
  const p = [...from.params, user.id, code, jsonParam(params), ...protocols.flatMap((pr) => [pr, keywords.get(pr)])];
  const linkSql = link ? `, link AS (INSERT INTO ${link.table} (${link.column}, command_id) SELECT ${Number(link.id)}, id FROM ins)` : '';
  const rows = await q<{ id: number; deviceId: number }>(
    `WITH ins AS (
       INSERT INTO commands (device_id, account_id, code, params, keyword)
       SELECT d.id, $${n + 1}, $${n + 2}, $${n + 3}::jsonb, ${keywordCase}
         ${from.sql} AND d.protocol IN (${protocols.map((_, i) => `$${n + 4 + i * 2}`).join(', ') || 'NULL'})
       ORDER BY d.id
       RETURNING id, device_id)${linkSql}
     SELECT id, device_id AS "deviceId" FROM ins`,
    p,
  );
  const [u] = await q<Row>(`SELECT count(*)::int AS n ${from.sql} AND NOT (d.protocol = ANY($${n + 1}::text[]))`, [...from.params, protocols]);
  return { rows: rows.map((r) => ({ id: Number(r.id), deviceId: Number(r.deviceId) })), unsupported: Number(u?.n ?? 0) };
}

/** How many devices a choice reaches, how many are online, and how many cannot carry the command. */
async function countDevices(ctx: AuthedContext, from: { sql: string; params: unknown[] }, code: string, params: Record<string, unknown>) {
  const supported = [...keywordsFor(code, params).keys()];
  const n = from.params.length;
  const [r] = await ctx.deps.database.query<Row>(
    `SELECT count(*)::int AS total,
            count(*) FILTER (WHERE s.online)::int AS online,
            count(*) FILTER (WHERE NOT (d.protocol = ANY($${n + 1}::text[])))::int AS unsupported
       ${from.sql.replace('FROM devices d', 'FROM devices d LEFT JOIN device_state s ON s.device_id = d.id')}`,
    [...from.params, supported],
  );
  return { Total: Number(r?.total ?? 0), Online: Number(r?.online ?? 0), Unsupported: Number(r?.unsupported ?? 0) };
}

/** Writes a send with one command per device of `from`, then puts them on the wire after the commit. */
async function sendToDevices(
  ctx: AuthedContext,
  send: { kind: string; name: string; text: string; roleIds?: number[]; groupIds?: number[]; accountIds?: number[] },
  code: string,
  params: Record<string, unknown>,
  from: { sql: string; params: unknown[] },
  before?: (q: QueryFn) => Promise<void>,
) {
  const { deps, user } = ctx;
  const done = await deps.database.transaction(async (q) => {
    await before?.(q);
    const [s] = await q<Row>(
      `INSERT INTO message_sends (account_id, kind, sender_name, name, text, role_ids, group_ids, account_ids) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb) RETURNING id`,
      [user.id, send.kind, user.loginName, send.name, send.text, JSON.stringify(send.roleIds ?? []), JSON.stringify(send.groupIds ?? []), JSON.stringify(send.accountIds ?? [])],
    );
    const sendId = Number(s!.id);
    const r = await insertBulkCommands(q, user, code, params, from, { table: 'message_send_commands', column: 'send_id', id: sendId });
    await q(`UPDATE message_sends SET total = $2 WHERE id = $1`, [sendId, r.rows.length]);
    return { sendId, ...r };
  });
  dispatchInBackground(deps, done.rows, code, params);
  return { State: State.OK, SendId: done.sendId, Total: done.rows.length, Unsupported: done.unsupported } as const;
}

type SendItem = CallResponse<'/Message/Sends'>['Items'][number];
const toSend = (r: Row): SendItem => ({
  SendId: Number(r.id),
  Kind: String(r.kind),
  Name: String(r.name),
  Content: String(r.text),
  SenderName: String(r.sender_name),
  Total: Number(r.total),
  Queued: Number(r.queued),
  Sent: Number(r.sent),
  Answered: Number(r.answered),
  Failed: Number(r.failed),
  CreatedAt: iso(r.created_at as string)!,
});

export const messageCalls = [
  defineCall('/Message/Preview', async (ctx, b) => {
    ctx.request.changedNothing = true;
    const pattern = subtreePattern(ctx.user);
    await checkTargets((t, p) => ctx.deps.database.query(t, p), pattern, b);
    const c = await countDevices(ctx, { sql: TARGET_DEVICES, params: targetParams(pattern, b) }, 'MESSAGE', { text: 'x' });
    return { State: State.OK, ...c } as const;
  }),

  defineCall('/Command/sendMessageByRoles', async (ctx, b) => {
    await requireService(ctx, 'is_send_msg_by_role');
    const pattern = subtreePattern(ctx.user);
    return sendToDevices(
      ctx,
      { kind: 'message', name: b.Name, text: b.Content, roleIds: b.RoleIds, groupIds: b.GroupIds, accountIds: b.UserIds },
      'MESSAGE',
      { text: b.Content },
      { sql: TARGET_DEVICES, params: targetParams(pattern, b) },
      (q) => checkTargets(q, pattern, b),
    );
  }),

  defineCall('/Command/sendIPInfoByUserId', async (ctx, b) => {
    // Every device of the account and of the accounts below it moves.
    const account = await accountInScope(ctx.deps.database.db, ctx.user, b.UserId);
    const from = { sql: `FROM devices d JOIN accounts a ON a.id = d.account_id WHERE a.path LIKE $1`, params: [subtreePattern(account)] };
    const params = { host: b.Host, port: b.Port };
    if (b.Preview) {
      // Only counted for the confirmation: no send, and no entry in the operation log.
      ctx.request.changedNothing = true;
      const c = await countDevices(ctx, from, 'IP', params);
      return { State: State.OK, SendId: null, Total: c.Total - c.Unsupported, Unsupported: c.Unsupported } as const;
    }
    const address = `${b.Host}:${b.Port}`;
    return sendToDevices(ctx, { kind: 'ip', name: address, text: address, accountIds: [account.id] }, 'IP', params, from);
  }),

  defineCall('/Message/Sends', async (ctx, b) => {
    const pattern = subtreePattern(ctx.user);
    const [t] = await ctx.deps.database.query<Row>(`SELECT count(*)::int AS n FROM message_sends s JOIN accounts a ON a.id = s.account_id WHERE a.path LIKE $1`, [pattern]);
    const rows = await ctx.deps.database.query<Row>(
      `SELECT s.*,
              count(c.id) FILTER (WHERE c.status = 'queued')::int AS queued,
              count(c.id) FILTER (WHERE c.status = 'sent')::int AS sent,
              count(c.id) FILTER (WHERE c.status = 'answered')::int AS answered,
              count(c.id) FILTER (WHERE c.status = 'failed')::int AS failed
         FROM (SELECT s.* FROM message_sends s JOIN accounts a ON a.id = s.account_id WHERE a.path LIKE $1
                ORDER BY s.id DESC LIMIT ${b.PageCount} OFFSET ${(b.PageNo - 1) * b.PageCount}) s
         LEFT JOIN message_send_commands m ON m.send_id = s.id
         LEFT JOIN commands c ON c.id = m.command_id
        GROUP BY s.id, s.account_id, s.kind, s.sender_name, s.name, s.text, s.role_ids, s.group_ids, s.account_ids, s.total, s.created_at
        ORDER BY s.id DESC`,
      [pattern],
    );
    return { State: State.OK, Total: Number(t?.n ?? 0), Items: rows.map(toSend) };
  }),

  defineCall('/Message/SendDevices', async (ctx, b) => {
    const q = (t: string, p: unknown[]) => ctx.deps.database.query<Row>(t, p);
    const [s] = await q(`SELECT s.id FROM message_sends s JOIN accounts a ON a.id = s.account_id WHERE s.id = $1 AND a.path LIKE $2`, [b.SendId, subtreePattern(ctx.user)]);
    if (!s) throw notFound('message.sendNotFound');
    const params: unknown[] = [b.SendId];
    let where = `m.send_id = $1`;
    if (b.Status) {
      params.push(b.Status);
      where += ` AND c.status = $2`;
    }
    const { total, rows } = await pagedQuery<Row>(ctx.deps.database, {
      select: 'c.id, c.device_id, d.imei, d.name, c.status, c.reply, c.error, c.sent_at, c.answered_at',
      from: `FROM message_send_commands m JOIN commands c ON c.id = m.command_id JOIN devices d ON d.id = c.device_id WHERE ${where}`,
      order: 'c.id',
      params,
      page: b,
    });
    return {
      State: State.OK,
      Total: total,
      Items: rows.map((r) => ({
        CommandId: Number(r.id),
        DeviceId: Number(r.device_id),
        Imei: String(r.imei),
        DeviceName: String(r.name ?? ''),
        Status: r.status as 'queued',
        Reply: (r.reply as string | null) ?? null,
        Error: String(r.error ?? ''),
        SentAt: iso(r.sent_at as string | null),
        AnsweredAt: iso(r.answered_at as string | null),
      })),
    };
  }),
];
