// The model catalogue (SPEC §3 Model, Protocol, Command): protocols with their command lists,
// and models that speak a protocol and offer a subset of its commands.
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';

export const deviceProtocols = pgTable(
  'device_protocols',
  {
    id: serial('id').primaryKey(),
    /** The codec name for built-in ones (watch, gt06, osmand ...). */
    code: text('code').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('device_protocols_code_uq').on(sql`lower(${t.code})`)],
);

export const commandDictionary = pgTable(
  'command_dictionary',
  {
    id: serial('id').primaryKey(),
    protocolId: integer('protocol_id').notNull(),
    /** One of the contract's COMMAND_CODES. */
    code: text('code').notNull(),
    name: text('name').notNull(),
    details: text('details').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('command_dictionary_protocol_code_uq').on(t.protocolId, t.code)],
);

export const deviceModels = pgTable(
  'device_models',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    type: text('type').notNull().default(''),
    protocolId: integer('protocol_id').notNull(),
    /** Command codes offered for devices of this model (a subset of the protocol's). */
    commands: jsonb('commands').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** Supported functions: Lbs, CarLocation, DeviceFence, Battery, AppFunction, HealthConfig. */
    functions: jsonb('functions').$type<Record<string, boolean>>().notNull().default(sql`'{}'::jsonb`),
    healthItems: jsonb('health_items').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    appShowParams: jsonb('app_show_params').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    appHomeFx: jsonb('app_home_fx').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    description: text('description').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('device_models_name_uq').on(sql`lower(${t.name})`), index('device_models_protocol_idx').on(t.protocolId)],
);
