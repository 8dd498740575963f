// The model catalogue (admin pages /model/list, /model/protocol, /model/command): writes are admin
// only (the registry marks them), reads serve every account's device forms.
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { COMMAND_CODES, State, catalogue as cat, commandNameKey, translate } from '@wt/contract';

type Model = cat.Model;
import { defineCall } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { commandDictionary, deviceModels, deviceProtocols, devices } from '../../db/schema/index.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { allOf, contains, iso, isUniqueViolation, rows } from '../../lib/sql.js';

interface ModelRow {
  id: number;
  name: string;
  type: string;
  protocol_id: number;
  protocol: string;
  protocol_name: string;
  commands: string[];
  functions: Record<string, boolean>;
  health_items: string[];
  app_show_params: string[];
  app_home_fx: string[];
  description: string;
  device_count: number;
  created_at: Date;
}
const toModel = (m: ModelRow): Model => ({
  ModelId: m.id,
  Name: m.name,
  Type: m.type,
  ProtocolId: m.protocol_id,
  Protocol: m.protocol,
  ProtocolName: m.protocol_name,
  Commands: m.commands,
  Functions: Object.fromEntries(cat.MODEL_FUNCTIONS.map((f) => [f, !!m.functions[f]])) as Model['Functions'],
  HealthItems: m.health_items,
  AppShowParams: m.app_show_params,
  AppHomeFx: m.app_home_fx,
  Description: m.description,
  DeviceCount: Number(m.device_count),
  CreatedAt: iso(m.created_at)!,
});
const MODELS = sql`SELECT m.id, m.name, m.type, m.protocol_id, p.code AS protocol, p.name AS protocol_name, m.commands, m.functions,
  m.health_items, m.app_show_params, m.app_home_fx, m.description, m.created_at,
  (SELECT count(*)::int FROM devices d WHERE d.model_id = m.id) AS device_count
  FROM device_models m JOIN device_protocols p ON p.id = m.protocol_id`;

async function modelsWhere(db: Db, cond: SQL, tail: SQL = sql``) {
  return (await rows<ModelRow>(db, sql`${MODELS} WHERE ${cond} ${tail}`)).map(toModel);
}

interface CommandRow {
  id: number;
  protocol_id: number;
  protocol: string;
  code: string;
  name: string;
  details: string;
  created_at: Date;
}
const toCommand = (c: CommandRow) => ({
  CommandId: c.id,
  ProtocolId: c.protocol_id,
  Protocol: c.protocol,
  Code: c.code,
  Name: c.name,
  Details: c.details,
  Type: cat.COMMAND_TYPE_OF[c.code as keyof typeof cat.COMMAND_TYPE_OF] ?? 'custom',
  CreatedAt: iso(c.created_at)!,
});
const COMMANDS = sql`SELECT c.id, c.protocol_id, p.code AS protocol, c.code, c.name, c.details, c.created_at
  FROM command_dictionary c JOIN device_protocols p ON p.id = c.protocol_id`;
async function commandsWhere(db: Db, cond: SQL, tail: SQL = sql`ORDER BY c.protocol_id, c.id`) {
  return (await rows<CommandRow>(db, sql`${COMMANDS} WHERE ${cond} ${tail}`)).map(toCommand);
}

async function protocolsWhere(db: Db, cond: SQL, tail: SQL = sql`ORDER BY p.id`) {
  const list = await rows<{ id: number; code: string; name: string; description: string; created_at: Date; model_count: number }>(
    db,
    sql`SELECT p.*, (SELECT count(*)::int FROM device_models m WHERE m.protocol_id = p.id) AS model_count FROM device_protocols p WHERE ${cond} ${tail}`,
  );
  const ids = list.map((p) => p.id);
  const cmds = ids.length ? await db.select().from(commandDictionary).where(inArray(commandDictionary.protocolId, ids)).orderBy(commandDictionary.id) : [];
  return list.map((p) => ({
    ProtocolId: p.id,
    Code: p.code,
    Name: p.name,
    Description: p.description,
    Commands: cmds.filter((c) => c.protocolId === p.id).map((c) => ({ CommandId: c.id, Code: c.code, Name: c.name })),
    ModelCount: Number(p.model_count),
    CreatedAt: iso(p.created_at)!,
  }));
}

const count = async (db: Db, from: SQL) => Number(((await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM ${from}`)) as [{ n: number }])[0].n);
const page = (q: { PageNo: number; PageCount: number }) => sql`LIMIT ${q.PageCount} OFFSET ${(q.PageNo - 1) * q.PageCount}`;

/** The model of a request: by id, or the model of a device the caller can see. */
async function modelFor(ctx: Parameters<Parameters<typeof defineCall>[1]>[0], q: { ModelId?: number; Imei?: string }): Promise<Model | null> {
  const { db } = ctx.deps.database;
  if (q.ModelId) {
    const [m] = await modelsWhere(db, sql`m.id = ${q.ModelId}`);
    if (!m) throw notFound('device.modelNotFound');
    return m;
  }
  if (q.Imei) {
    const { devicesByImeis } = await import('../device/repo.js');
    const d = (await devicesByImeis(db, ctx.user, [q.Imei])).get(q.Imei);
    if (!d) throw notFound('device.notFound');
    const [m] = await modelsWhere(db, sql`m.id = (SELECT model_id FROM devices WHERE id = ${d.id})`);
    return m ?? null;
  }
  return null;
}

export const catalogueCalls = [
  defineCall('/Command/allModelList', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const conds: SQL[] = [];
    if (q.Keyword) conds.push(sql`(m.name ILIKE ${contains(q.Keyword)} OR m.type ILIKE ${contains(q.Keyword)})`);
    if (q.ProtocolId) conds.push(sql`m.protocol_id = ${q.ProtocolId}`);
    const where = allOf(conds);
    return { State: State.OK, Total: await count(db, sql`device_models m WHERE ${where}`), Items: await modelsWhere(db, where, sql`ORDER BY m.id ${page(q)}`) };
  }),
  defineCall('/Command/SaveDeviceModelNew', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const [protocol] = await db.select().from(deviceProtocols).where(eq(deviceProtocols.id, b.ProtocolId));
    if (!protocol) throw notFound('device.protocolNotFound');
    const offered = new Set((await db.select({ code: commandDictionary.code }).from(commandDictionary).where(eq(commandDictionary.protocolId, b.ProtocolId))).map((c) => c.code));
    const stray = b.Commands.find((c) => !offered.has(c));
    if (stray) throw new AppError(State.BAD_REQUEST, 'device.commandNotInProtocol', { code: stray });
    const values = {
      name: b.Name,
      type: b.Type,
      protocolId: b.ProtocolId,
      commands: [...new Set(b.Commands)],
      functions: Object.fromEntries(cat.MODEL_FUNCTIONS.map((f) => [f, !!b.Functions[f]])),
      healthItems: [...new Set(b.HealthItems)],
      appShowParams: [...new Set(b.AppShowParams)],
      appHomeFx: [...new Set(b.AppHomeFx)],
      description: b.Description,
    };
    try {
      let id = b.ModelId;
      if (id) {
        const [before] = await db.select().from(deviceModels).where(eq(deviceModels.id, id));
        if (!before) throw notFound('device.modelNotFound');
        await refuseIfModelInUse(db, before, values);
        const [u] = await db.update(deviceModels).set(values).where(eq(deviceModels.id, id)).returning({ id: deviceModels.id });
        if (!u) throw notFound('device.modelNotFound');
        // Devices carry the model's name and codec for the gateway; keep them in step.
        await db.update(devices).set({ modelName: b.Name, protocol: protocol.code.toLowerCase() }).where(eq(devices.modelId, id));
      } else {
        id = (await db.insert(deviceModels).values(values).returning({ id: deviceModels.id }))[0]!.id;
      }
      return { State: State.OK, Item: (await modelsWhere(db, sql`m.id = ${id}`))[0]! } as const;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('device.modelExists');
      throw err;
    }
  }),
  defineCall('/Command/DelDeviceModelNew', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const [used] = await db.select({ id: devices.id }).from(devices).where(inArray(devices.modelId, b.ModelIds)).limit(1);
    if (used) throw conflict('device.modelInUse');
    await db.delete(deviceModels).where(inArray(deviceModels.id, b.ModelIds));
    return { State: State.OK } as const;
  }),
  defineCall('/Command/protocolForPaging', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const where = q.Keyword ? sql`(p.code ILIKE ${contains(q.Keyword)} OR p.name ILIKE ${contains(q.Keyword)})` : sql`TRUE`;
    return { State: State.OK, Total: await count(db, sql`device_protocols p WHERE ${where}`), Items: await protocolsWhere(db, where, sql`ORDER BY p.id ${page(q)}`) };
  }),
  defineCall('/Command/SaveProtocol', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const values = { code: b.Code, name: b.Name, description: b.Description };
    try {
      let id = b.ProtocolId;
      if (id) {
        const [before] = await db.select().from(deviceProtocols).where(eq(deviceProtocols.id, id));
        if (!before) throw notFound('device.protocolNotFound');
        // Devices are decoded and sent commands by their protocol's code.
        if (before.code.toLowerCase() !== b.Code.toLowerCase()) {
          const n = await devicesUsing(db, sql`model_id IN (SELECT id FROM device_models WHERE protocol_id = ${id}) OR protocol = ${before.code.toLowerCase()}`);
          if (n > 0) throw conflict('device.protocolInUseCode', { devices: n });
        }
        const [u] = await db.update(deviceProtocols).set(values).where(eq(deviceProtocols.id, id)).returning({ id: deviceProtocols.id });
        if (!u) throw notFound('device.protocolNotFound');
      } else {
        id = (await db.insert(deviceProtocols).values(values).returning({ id: deviceProtocols.id }))[0]!.id;
      }
      return { State: State.OK, Item: (await protocolsWhere(db, sql`p.id = ${id}`))[0]! } as const;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('device.protocolExists');
      throw err;
    }
  }),
  defineCall('/Command/DelProtocol', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const [used] = await db.select({ id: deviceModels.id }).from(deviceModels).where(inArray(deviceModels.protocolId, b.ProtocolIds)).limit(1);
    if (used) throw conflict('device.protocolInUse');
    await db.transaction(async (tx) => {
      await tx.delete(commandDictionary).where(inArray(commandDictionary.protocolId, b.ProtocolIds));
      await tx.delete(deviceProtocols).where(inArray(deviceProtocols.id, b.ProtocolIds));
    });
    return { State: State.OK } as const;
  }),
  defineCall('/Command/cmdCollectionForPaging', async (ctx, q) => {
    const { db } = ctx.deps.database;
    const conds: SQL[] = [];
    if (q.ProtocolId) conds.push(sql`c.protocol_id = ${q.ProtocolId}`);
    if (q.Keyword) {
      // Names are the catalogue's unless an administrator gave one: match the caller's language too.
      const k = q.Keyword.toLowerCase();
      const named = COMMAND_CODES.filter((code) => translate(ctx.locale, commandNameKey(code)).toLowerCase().includes(k));
      const byName = named.length ? sql` OR c.code IN (${sql.join(named.map((code) => sql`${code}`), sql`, `)})` : sql``;
      conds.push(sql`(c.code ILIKE ${contains(q.Keyword)} OR c.name ILIKE ${contains(q.Keyword)}${byName})`);
    }
    const where = allOf(conds);
    return { State: State.OK, Total: await count(db, sql`command_dictionary c WHERE ${where}`), Items: await commandsWhere(db, where, sql`ORDER BY c.protocol_id, c.id ${page(q)}`) };
  }),
  defineCall('/Command/SaveCommandDictionary', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const [protocol] = await db.select().from(deviceProtocols).where(eq(deviceProtocols.id, b.ProtocolId));
    if (!protocol) throw notFound('device.protocolNotFound');
    const values = { protocolId: b.ProtocolId, code: b.Code, name: b.Name, details: b.Details };
    try {
      let id = b.CommandId;
      if (id) {
        const [old] = await db.select().from(commandDictionary).where(eq(commandDictionary.id, id));
        if (!old) throw notFound('device.commandNotFound');
        if (old.code !== b.Code || old.protocolId !== b.ProtocolId) await refuseIfOffered(db, old.protocolId, [old.code]);
        await db.update(commandDictionary).set(values).where(eq(commandDictionary.id, id));
      } else {
        id = (await db.insert(commandDictionary).values(values).returning({ id: commandDictionary.id }))[0]!.id;
      }
      return { State: State.OK, Item: (await commandsWhere(db, sql`c.id = ${id}`))[0]! } as const;
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict('device.commandExists');
      throw err;
    }
  }),
  defineCall('/Command/DelCommandDictionary', async (ctx, b) => {
    const { db } = ctx.deps.database;
    const list = await db.select().from(commandDictionary).where(inArray(commandDictionary.id, b.CommandIds));
    for (const c of list) await refuseIfOffered(db, c.protocolId, [c.code]);
    if (list.length) await db.delete(commandDictionary).where(inArray(commandDictionary.id, list.map((c) => c.id)));
    return { State: State.OK } as const;
  }),
  defineCall('/Command/commandDictionaryCollection', async (ctx, q) => ({
    State: State.OK,
    Items: await commandsWhere(ctx.deps.database.db, q.ProtocolId ? sql`c.protocol_id = ${q.ProtocolId}` : sql`TRUE`),
  })),
  defineCall('/Command/deviceProtocolALL', async (ctx) => ({ State: State.OK, Items: await protocolsWhere(ctx.deps.database.db, sql`TRUE`) })),
  defineCall('/Command/deviceProtocolByCommandValues', async (ctx, q) => {
    const { db } = ctx.deps.database;
    if (q.ModelId) {
      const m = await modelFor(ctx, { ModelId: q.ModelId });
      const codes = m!.Commands;
      const items = await commandsWhere(db, sql`c.protocol_id = ${m!.ProtocolId}`);
      return { State: State.OK, Items: items.filter((c) => codes.includes(c.Code)) };
    }
    return { State: State.OK, Items: await commandsWhere(db, sql`c.protocol_id = ${q.ProtocolId!}`) };
  }),
  defineCall('/Command/FetchHealthConfig', async (ctx, q) => {
    const m = await modelFor(ctx, q);
    return { State: State.OK, Options: [...cat.HEALTH_ITEMS], Selected: m ? m.HealthItems : null, Enabled: m ? m.Functions.HealthConfig : null };
  }),
  defineCall('/Command/FetchAppShowDeviceParams', async (ctx, q) => {
    const m = await modelFor(ctx, q);
    return { State: State.OK, Options: [...cat.APP_SHOW_PARAMS], Selected: m ? m.AppShowParams : null, Enabled: null };
  }),
  defineCall('/Command/FetchAPPHomeFx', async (ctx, q) => {
    const m = await modelFor(ctx, q);
    return { State: State.OK, Options: [...cat.APP_HOME_FX], Selected: m ? m.AppHomeFx : null, Enabled: m ? m.Functions.AppFunction : null };
  }),
  defineCall('/Command/FetchCommandType', async () => ({
    State: State.OK,
    Types: [...cat.COMMAND_TYPES],
    Items: Object.entries(cat.COMMAND_TYPE_OF).map(([Code, Type]) => ({ Code, Type })),
  })),
];

const devicesUsing = async (db: Db, cond: SQL) => Number(((await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM devices WHERE ${cond}`)) as [{ n: number }])[0].n);

/**
 * A model devices use keeps its protocol (their codec and commands follow it) and every command it
 * offers (devices, scheduled and pending commands rely on them); adding commands is fine.
 */
async function refuseIfModelInUse(db: Db, before: typeof deviceModels.$inferSelect, after: { protocolId: number; commands: string[] }) {
  const removed = before.commands.filter((c) => !after.commands.includes(c));
  if (before.protocolId === after.protocolId && removed.length === 0) return;
  const n = await devicesUsing(db, sql`model_id = ${before.id}`);
  if (n === 0) return;
  if (before.protocolId !== after.protocolId) throw conflict('device.modelInUseProtocol', { devices: n });
  throw conflict('device.modelInUseCommands', { devices: n, codes: removed.join(', ') });
}

/** A command some model of the protocol offers cannot be removed or recoded under it. */
async function refuseIfOffered(db: Db, protocolId: number, codes: string[]) {
  const models = await db.select({ commands: deviceModels.commands }).from(deviceModels).where(eq(deviceModels.protocolId, protocolId));
  if (models.some((m) => m.commands.some((c) => codes.includes(c)))) throw conflict('device.commandInUse');
}
