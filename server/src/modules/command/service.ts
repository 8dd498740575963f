// The command area's rules: who may command which device, validation with the contract's command
// catalogue, encoding with the device's protocol, and delivery now or when the device connects.
import { State, validateCommand, type CallResponse } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import type { AppDeps } from '../../deps.js';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { TOPICS, type DispatchEvent } from '../../pipeline/events.js';
import { accountInScope } from '../../lib/scope.js';
import { COMMAND_PROTOCOLS, dispatchLocal, preview, publishCommand, type CommandStatus } from './delivery.js';
import * as repo from './repo.js';

type CommandItem = CallResponse<'/Command/CommandList'>['Items'][number];

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

function toItem(r: Awaited<ReturnType<typeof repo.listCommands>>['items'][number]): CommandItem {
  return {
    Id: r.id,
    Imei: r.imei,
    DeviceName: r.deviceName,
    Code: r.code,
    Name: '',
    Params: (r.params ?? {}) as Record<string, unknown>,
    Status: r.status as CommandStatus,
    Encoded: r.encoded,
    Reply: r.reply,
    Error: r.error,
    SenderId: r.senderId,
    SenderName: r.senderName,
    CreatedAt: iso(r.createdAt)!,
    SentAt: iso(r.sentAt),
    AnsweredAt: iso(r.answeredAt),
  };
}

/** Validates and encodes (without sending) a command for a device; throws the call's failure. */
function prepare(device: repo.DeviceRow, code: string, params: Record<string, unknown>) {
  const v = validateCommand(code.trim().toUpperCase(), params);
  if (!v.ok) {
    throw new AppError(
      State.BAD_REQUEST,
      'common.validation',
      undefined,
      v.fields.map((f) => ({ ...f, Field: f.Field === 'code' ? 'Code' : `Params.${f.Field}` })),
    );
  }
  if (!COMMAND_PROTOCOLS.has(device.protocol)) throw badRequest('command.unsupportedProtocol', { protocol: device.protocol });
  const command = { code: code.trim().toUpperCase(), params: v.params as Record<string, never> };
  try {
    return { ...command, keyword: preview(device.protocol, command).keyword };
  } catch (err) {
    throw badRequest('command.encodeFailed', { reason: (err as Error).message });
  }
}

/** Sends on the connection if this process holds it, else asks the other gateway processes. */
async function dispatch(deps: AppDeps, commandId: number, deviceId: number): Promise<CommandStatus> {
  const r = await dispatchLocal(deps, commandId, deviceId);
  if (r === false) {
    deps.bus.publish(TOPICS.dispatch, { commandId, deviceId } satisfies DispatchEvent);
    return 'queued';
  }
  return r ?? 'queued';
}

export async function sendCommand(ctx: AuthedContext, body: { Imei: string; Code: string; Params?: Record<string, unknown> }) {
  const { deps, user } = ctx;
  const db = deps.database.db;
  const device = await repo.deviceInScope(db, user, body.Imei);
  if (!device) throw notFound('device.notFound');
  const c = prepare(device, body.Code, body.Params ?? {});
  const [row] = await repo.insertCommands(db, [{ deviceId: device.id, accountId: user.id, code: c.code, params: c.params, keyword: c.keyword }]);
  await publishCommand(deps, device.id, row!.id, c.code, 'queued');
  await dispatch(deps, row!.id, device.id);
  const { items } = await repo.listCommands(db, user, { ids: [row!.id], offset: 0, limit: 1 });
  return { State: State.OK, Item: toItem(items[0]!) };
}

export async function batchSendFrequency(ctx: AuthedContext, body: { Imeis?: string[]; Interval: number }) {
  const { deps, user } = ctx;
  const db = deps.database.db;
  const account = await accountInScope(db, user);
  // SPEC §6: batch commands need the platform's feature switch.
  if (account.switchFunctionSendCmd !== 1) throw forbidden('command.batchDisabled');
  const wanted = body.Imeis?.length ? [...new Set(body.Imeis)] : undefined;
  // The devices a single command may go to (the caller's subtree): an IMEI outside it is unknown.
  const own = await repo.devicesInScope(db, user, wanted);
  const failed: { Imei: string; Message: string; Params?: Record<string, unknown> }[] = [];
  if (wanted) {
    const found = new Set(own.map((d) => d.imei));
    for (const imei of wanted) if (!found.has(imei)) failed.push({ Imei: imei, Message: 'device.notFound' });
  }
  const ready: { device: repo.DeviceRow; keyword: string; params: Record<string, unknown> }[] = [];
  for (const device of own) {
    if (!COMMAND_PROTOCOLS.has(device.protocol)) {
      if (wanted) failed.push({ Imei: device.imei, Message: 'command.unsupportedProtocol', Params: { protocol: device.protocol } });
      continue;
    }
    try {
      const c = prepare(device, 'UPLOAD', { interval: body.Interval });
      ready.push({ device, keyword: c.keyword, params: c.params });
    } catch (err) {
      failed.push({ Imei: device.imei, Message: err instanceof AppError ? err.key : 'common.failed' });
    }
  }
  if (!ready.length && !failed.length) throw badRequest('command.noDevices');
  const rows = await repo.insertCommands(
    db,
    ready.map((r) => ({ deviceId: r.device.id, accountId: user.id, code: 'UPLOAD', params: r.params, keyword: r.keyword })),
  );
  const items: { Id: number; Imei: string; Status: CommandStatus }[] = [];
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    await publishCommand(deps, row.deviceId, row.id, 'UPLOAD', 'queued');
    items.push({ Id: row.id, Imei: ready[i]!.device.imei, Status: await dispatch(deps, row.id, row.deviceId) });
  }
  return { State: State.OK, Succeeded: items.length, Failed: failed, Items: items };
}

export async function commandList(ctx: AuthedContext, body: { PageNo: number; PageCount: number; Imei?: string; Status?: string; Code?: string }) {
  const r = await repo.listCommands(ctx.deps.database.db, ctx.user, {
    imei: body.Imei || undefined,
    status: body.Status,
    code: body.Code || undefined,
    offset: (body.PageNo - 1) * body.PageCount,
    limit: body.PageCount,
  });
  return { State: State.OK, Total: r.total, Items: r.items.map(toItem) };
}
