// The model catalogue (SPEC §3 Model, Protocol, Command; admin pages /model/list, /model/protocol,
// /model/command). A protocol has a list of commands; a model speaks one protocol, supports a
// subset of its commands and a set of functions; a device offers only its model's commands.
// - /Command/allModelList                paged models (with protocol, commands, functions).
// - /Command/SaveDeviceModelNew          create, or update when ModelId is given (admin).
// - /Command/DelDeviceModelNew           delete models no device uses (admin).
// - /Command/protocolForPaging           paged protocols with their command lists.
// - /Command/SaveProtocol, DelProtocol   (admin) a protocol used by a model cannot be deleted.
// - /Command/cmdCollectionForPaging      paged commands (filter by protocol, code or name).
// - /Command/SaveCommandDictionary, DelCommandDictionary  (admin) a command a model offers cannot be deleted.
// - /Command/commandDictionaryCollection every command (optionally of one protocol), unpaged, for selects.
// - /Command/deviceProtocolALL           every protocol, unpaged, for selects.
// - /Command/deviceProtocolByCommandValues  the commands of a protocol (ProtocolId), or of a model (ModelId).
// - /Command/FetchHealthConfig           health measurements a model (or a device's model) supports.
// - /Command/FetchAppShowDeviceParams    the app display parameters, and those a model shows.
// - /Command/FetchAPPHomeFx              the app home functions, and those a model enables.
// - /Command/FetchCommandType            command codes with their type, for the command forms.
import { z } from 'zod';
import { COMMAND_CODES } from '../commands.js';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { INT4_MAX, id, int, optionalId, requiredText, text } from './common.js';

export const MODEL_FUNCTIONS = ['Lbs', 'CarLocation', 'DeviceFence', 'Battery', 'AppFunction', 'HealthConfig'] as const;
export const HEALTH_ITEMS = ['heartRate', 'bloodPressure', 'bodyTemp', 'wristTemp', 'bloodOxygen', 'hrv', 'sleep', 'steps'] as const;
export const APP_SHOW_PARAMS = ['battery', 'signal', 'steps', 'heartRate', 'bloodPressure', 'bodyTemp', 'bloodOxygen', 'location', 'online'] as const;
export const APP_HOME_FX = ['location', 'track', 'fence', 'health', 'sos', 'message', 'remind', 'find', 'contacts'] as const;
export const COMMAND_TYPES = ['location', 'control', 'health', 'threshold', 'setting', 'message', 'custom'] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/** The type each command code belongs to (the command forms group them by it). */
export const COMMAND_TYPE_OF: Record<(typeof COMMAND_CODES)[number], CommandType> = {
  UPLOAD: 'location', CENTER: 'setting', SOS: 'setting', RESET: 'control', POWEROFF: 'control', FIND: 'control',
  REMOVE: 'setting', LOWBAT: 'setting', MESSAGE: 'message', LZ: 'setting',
  HEART_RATE: 'health', BLOOD_PRESSURE: 'health', TEMPERATURE: 'health', BLOOD_OXYGEN: 'health',
  HEART_RATE_THRESHOLD: 'threshold', BLOOD_PRESSURE_THRESHOLD: 'threshold', TEMPERATURE_THRESHOLD: 'threshold',
  BLOOD_OXYGEN_THRESHOLD: 'threshold', FALL_HEIGHT: 'setting', IP: 'setting', SILENCETIME: 'setting',
  REMIND: 'setting', WORK_TIME: 'setting', VIBRATION: 'setting', CUSTOM: 'custom', WEATHER: 'message',
};

export const commandCodeField = z.enum(COMMAND_CODES, { error: 'device.commandCodeUnknown' });
const protocolId = int(1, INT4_MAX, 'device.protocolRequired');
const functionsSchema = z.object(Object.fromEntries(MODEL_FUNCTIONS.map((f) => [f, z.boolean()])) as Record<(typeof MODEL_FUNCTIONS)[number], z.ZodBoolean>);
export type ModelFunctions = z.infer<typeof functionsSchema>;

export const modelSchema = z.object({
  ModelId: z.number(),
  Name: z.string(),
  /** Model type shown in lists: 4G watch, GPS tracker ... */
  Type: z.string(),
  ProtocolId: z.number(),
  Protocol: z.string(),
  ProtocolName: z.string(),
  Commands: z.array(z.string()),
  Functions: functionsSchema,
  HealthItems: z.array(z.string()),
  AppShowParams: z.array(z.string()),
  AppHomeFx: z.array(z.string()),
  Description: z.string(),
  DeviceCount: z.number(),
  CreatedAt: z.string(),
});
export type Model = z.infer<typeof modelSchema>;

export const modelListRequest = z.object({ ...pageRequest, Keyword: text(64).optional(), ProtocolId: optionalId });
export const modelListResponse = pageOf(modelSchema);
export const saveModelRequest = z.object({
  ModelId: optionalId,
  Name: requiredText('device.modelNameRequired', 64),
  Type: text(64).default(''),
  ProtocolId: protocolId,
  Commands: z.array(commandCodeField).max(COMMAND_CODES.length).default([]),
  Functions: functionsSchema.partial().default({}),
  HealthItems: z.array(z.enum(HEALTH_ITEMS)).max(HEALTH_ITEMS.length).default([]),
  AppShowParams: z.array(z.enum(APP_SHOW_PARAMS)).max(APP_SHOW_PARAMS.length).default([]),
  AppHomeFx: z.array(z.enum(APP_HOME_FX)).max(APP_HOME_FX.length).default([]),
  Description: text(512).default(''),
});
export const saveModelResponse = ok({ Item: modelSchema });
export const deleteModelsRequest = z.object({ ModelIds: z.array(id).min(1, { error: 'validation.required' }).max(1000) });

export const commandSchema = z.object({
  CommandId: z.number(),
  ProtocolId: z.number(),
  Protocol: z.string(),
  Code: z.string(),
  /** An administrator's name and details for this protocol's command; empty: the catalogue's, by code. */
  Name: z.string(),
  Details: z.string(),
  Type: z.string(),
  CreatedAt: z.string(),
});
export const protocolSchema = z.object({
  ProtocolId: z.number(),
  Code: z.string(),
  Name: z.string(),
  Description: z.string(),
  Commands: z.array(z.object({ CommandId: z.number(), Code: z.string(), Name: z.string() })),
  ModelCount: z.number(),
  CreatedAt: z.string(),
});
export const protocolListRequest = z.object({ ...pageRequest, Keyword: text(64).optional() });
export const protocolListResponse = pageOf(protocolSchema);
export const saveProtocolRequest = z.object({
  ProtocolId: optionalId,
  Code: requiredText('device.protocolCodeRequired', 32).regex(/^[A-Za-z0-9_-]+$/, { error: 'validation.invalid' }),
  Name: requiredText('device.protocolNameRequired', 64),
  Description: text(512).default(''),
});
export const saveProtocolResponse = ok({ Item: protocolSchema });
export const deleteProtocolsRequest = z.object({ ProtocolIds: z.array(id).min(1, { error: 'validation.required' }).max(1000) });

export const commandListRequest = z.object({ ...pageRequest, ProtocolId: optionalId, Keyword: text(64).optional() });
export const commandListResponse = pageOf(commandSchema);
export const saveCommandRequest = z.object({
  CommandId: optionalId,
  ProtocolId: protocolId,
  Code: commandCodeField,
  /** Overrides of the catalogue's name and description for this protocol; empty keeps the catalogue's. */
  Name: text(64).default(''),
  Details: text(1024).default(''),
});
export const saveCommandResponse = ok({ Item: commandSchema });
export const deleteCommandsRequest = z.object({ CommandIds: z.array(id).min(1, { error: 'validation.required' }).max(1000) });
export const commandCollectionRequest = z.object({ ProtocolId: optionalId });
export const commandCollectionResponse = ok({ Items: z.array(commandSchema) });
export const protocolAllResponse = ok({ Items: z.array(protocolSchema) });
export const emptyRequest = z.object({});
export const commandsOfRequest = z
  .object({ ProtocolId: optionalId, ModelId: optionalId })
  .refine((v) => v.ProtocolId || v.ModelId, { path: ['ProtocolId'], error: 'device.protocolRequired' });

/** A model by id or a device's model by IMEI; without either, only the options are answered. */
export const modelOptionsRequest = z.object({ ModelId: optionalId, Imei: text(15).regex(/^\d{15}$/, { error: 'validation.imeiInvalid' }).optional() });
export const optionsResponse = ok({
  Options: z.array(z.string()),
  /** The model's choices, when a model or device was named. */
  Selected: z.array(z.string()).nullable(),
  /** For FetchHealthConfig: whether the model has the health config function. */
  Enabled: z.boolean().nullable(),
});
export const commandTypesResponse = ok({
  Types: z.array(z.string()),
  Items: z.array(z.object({ Code: z.string(), Type: z.string() })),
});
