// Schemas of the Devices area (SPEC §3 Device, §4 bound/unbound, §5 device rules, §8 failures).
//
// How the registry's names are read (the console's calls, names kept as other clients call them):
// - /Device/devicesByUserId        the device list: paged, searched, filtered, sorted.
// - /Device/DeviceDetail           (extra call) one device with its person info and model commands.
// - /Device/addDevices             add one device (the Add dialog: model, IMEI, nickname required).
// - /Device/batchDevices           batch add: many IMEIs (and as many ICCIDs when given) of one model.
// - /Device/bindDeviceListAdd      batch bind: unbound devices become bound (optionally to an account).
// - /Device/unbindById             unbind one device, from the account the console has switched to.
// - /Device/unBandByImeis          batch unbind by IMEIs.
// - /Device/BatchDeleteByDeviceId  delete devices by id (the row's Delete button sends one id).
// - /Device/BatchDelDevices        delete devices by IMEI (the batch dialog).
// - /Device/batchMoveDeviceToAccount  move devices to another account of the caller's subtree.
// - /Device/batchDevicesCreateUser    create a sub-account and give it devices (moved or created).
// - /Device/batchDevicesCreateUserByExcel  the same from an .xlsx sheet, all rows or none.
// - /Device/allDictionary          the choices the device forms offer: models, groups, roles, colours.
// - /Device/EditDevice             (extra call) what an administrator sets on one device: the
//                                  networks it may connect from.
// Batch calls answer what succeeded and, per IMEI, why the others were refused.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { IMEI, imeiIccidCountsMatch } from '../rules.js';
import { MAX_ALLOWED_NETWORKS, MAX_NETWORK_LENGTH, canonicalNetwork } from '../networks.js';
import { INT4_MAX, STORABLE, id, int, optionalId, password, requiredText, text } from './common.js';

export const imeiField = z
  .string({ error: 'validation.imeiRequired' })
  .trim()
  .min(1, { error: 'validation.imeiRequired' })
  .max(15, { error: 'validation.imeiInvalid' })
  .regex(IMEI, { error: 'validation.imeiInvalid' });
const nickname = requiredText('validation.nicknameRequired', 64);
const iccid = text(32).regex(/^[0-9A-Za-z]*$/, { error: 'device.iccidInvalid' });
const modelId = int(1, INT4_MAX, 'validation.modelRequired');
const imeiList = z.array(imeiField, { error: 'validation.imeiRequired' }).min(1, { error: 'validation.imeiRequired' }).max(5000);

/** The draw colours and shapes of device roles (SPEC §3 Device role). */
export const ROLE_COLORS = ['blue', 'orange', 'red', 'green', 'yellow'] as const;
export const ROLE_SHAPES = ['circle', 'star', 'square', 'rhombus'] as const;

export const DEVICE_SORT_FIELDS = [
  'Imei', 'Name', 'Model', 'AccountName', 'Bound', 'Online', 'Iccid', 'SoftwareVersion', 'LastCommunication',
  'LastLocationTime', 'StockInTime', 'ActivationTime', 'FenceCount', 'RoleName', 'GroupName', 'CreatedAt',
] as const;

export const deviceListRequest = z.object({
  ...pageRequest,
  /** Account whose devices are listed; the caller's own when absent. */
  UserId: optionalId,
  /** Also list the devices of the account's sub-accounts (default on). */
  IncludeSubAccounts: z.boolean().default(true),
  /** Substring of the IMEI. */
  Imei: text(15).optional(),
  /** Substring of the device name. */
  Name: text(64).optional(),
  ModelId: optionalId,
  /** Substring of the model name. */
  Model: text(64).optional(),
  Status: z.enum(['bound', 'unbound']).optional(),
  Online: z.enum(['online', 'offline']).optional(),
  Iccid: text(32).optional(),
  SoftwareVersion: text(64).optional(),
  GroupId: optionalId,
  RoleId: optionalId,
  SortField: z.enum(DEVICE_SORT_FIELDS).optional(),
  SortOrder: z.enum(['asc', 'desc']).default('desc'),
});

export const lastLocationSchema = z.object({ Lat: z.number(), Lon: z.number(), Time: z.string() });

export const deviceItemSchema = z.object({
  DeviceId: z.number(),
  Imei: z.string(),
  Name: z.string(),
  ModelId: z.number().nullable(),
  Model: z.string(),
  Protocol: z.string(),
  AccountId: z.number(),
  AccountName: z.string(),
  Bound: z.boolean(),
  Online: z.boolean(),
  Iccid: z.string(),
  SoftwareVersion: z.string(),
  /** Last time the device was heard from (ISO), null if never. */
  LastCommunication: z.string().nullable(),
  LastLocation: lastLocationSchema.nullable(),
  StockInTime: z.string().nullable(),
  ActivationTime: z.string().nullable(),
  FenceCount: z.number(),
  RoleId: z.number().nullable(),
  RoleName: z.string().nullable(),
  RoleColor: z.enum(ROLE_COLORS).nullable(),
  RoleShape: z.enum(ROLE_SHAPES).nullable(),
  GroupId: z.number().nullable(),
  GroupName: z.string().nullable(),
  /** Command codes the device's model supports: only these are offered for it. */
  Commands: z.array(z.string()),
  /** The networks the device may connect from (addresses and CIDR ranges); empty: anywhere. */
  AllowedNetworks: z.array(z.string()),
  CreatedAt: z.string(),
});
export type DeviceItem = z.infer<typeof deviceItemSchema>;
export const deviceListResponse = pageOf(deviceItemSchema);

export const deviceDetailRequest = z.object({ Imei: imeiField.optional(), DeviceId: optionalId }).refine((v) => v.Imei || v.DeviceId, {
  path: ['Imei'],
  error: 'validation.imeiRequired',
});
export const deviceDetailResponse = ok({
  Item: deviceItemSchema.extend({
    Battery: z.number().nullable(),
    Signal: z.number().nullable(),
    Steps: z.number().nullable(),
    ModelFunctions: z.record(z.string(), z.boolean()),
  }),
});

export const addDeviceRequest = z.object({
  ModelId: modelId,
  Imei: imeiField,
  Name: nickname,
  Iccid: iccid.optional(),
  SoftwareVersion: text(64).optional(),
  /** Owner account; the caller's own when absent. */
  UserId: optionalId,
  GroupId: optionalId,
  RoleId: optionalId,
  /** Added devices are bound unless said otherwise. */
  Bound: z.boolean().default(true),
});
export const addDeviceResponse = ok({ Item: deviceItemSchema });

/**
 * Addresses and CIDR ranges a device may connect from, stored in canonical form without repeats.
 * An entry that is neither names itself in the refusal.
 */
export const allowedNetworks = z
  .array(
    text(MAX_NETWORK_LENGTH).transform((v, ctx) => {
      const canonical = canonicalNetwork(v);
      if (canonical === null) {
        ctx.issues.push({ code: 'custom', input: v, message: 'device.networkInvalid', params: { value: v.slice(0, MAX_NETWORK_LENGTH) } });
        return z.NEVER;
      }
      return canonical;
    }),
    { error: 'validation.array' },
  )
  .max(MAX_ALLOWED_NETWORKS, { error: 'device.networksTooMany' })
  .transform((list) => [...new Set(list)]);

export const editDeviceRequest = z.object({
  DeviceId: id,
  /** Replaces the list; empty: the device may connect from anywhere. */
  AllowedNetworks: allowedNetworks,
});
export const editDeviceResponse = ok({ Item: deviceItemSchema });

/** One refused IMEI (or Excel row) and why, as a message key. */
export const failureItemSchema = z.object({
  Imei: z.string(),
  Message: z.string(),
  Params: z.record(z.string(), z.unknown()).optional(),
});
export const batchResultResponse = ok({
  /** How many devices the call changed. */
  Succeeded: z.number(),
  Failed: z.array(failureItemSchema),
});

export const batchAddRequest = z
  .object({
    ModelId: modelId,
    Imeis: imeiList,
    /** Same count as Imeis when given (SPEC §5), matched by position. */
    Iccids: z.array(iccid).max(5000).default([]),
    /** Name of each device; the IMEI when absent. */
    NamePrefix: text(48).optional(),
    UserId: optionalId,
    Bound: z.boolean().default(true),
  })
  .refine((v) => imeiIccidCountsMatch(v.Imeis, v.Iccids), { path: ['Iccids'], error: 'validation.imeiIccidCount' });

export const batchBindRequest = z.object({
  Imeis: imeiList,
  /** Account to bind them to (a sub-account of the caller); they stay with their owner when absent. */
  UserId: optionalId,
});

export const unbindRequest = z
  .object({
    DeviceId: optionalId,
    Imei: imeiField.optional(),
    /** The account the console has switched to: the device must belong to it. */
    UserId: optionalId,
  })
  .refine((v) => v.Imei || v.DeviceId, { path: ['Imei'], error: 'validation.imeiRequired' });
export const batchUnbindRequest = z.object({ Imeis: imeiList, UserId: optionalId });

export const deleteByIdsRequest = z.object({ DeviceIds: z.array(id).min(1, { error: 'validation.required' }).max(5000) });
export const deleteByImeisRequest = z.object({ Imeis: imeiList });

export const moveRequest = z.object({
  Imeis: imeiList,
  /** The receiving account: the caller or one of its sub-accounts. */
  TargetUserId: id,
});

const newAccount = {
  LoginName: requiredText('validation.accountRequired', 64),
  Password: password,
  Username: text(64).optional(),
  Email: text(128).optional(),
  /** Parent of the new account; the caller when absent. */
  ParentUserId: optionalId,
};
export const createUserWithDevicesRequest = z
  .object({
    ...newAccount,
    Imeis: imeiList,
    Iccids: z.array(iccid).max(5000).default([]),
    /** Needed only for IMEIs not registered yet, which are created with this model. */
    ModelId: optionalId,
  })
  .refine((v) => imeiIccidCountsMatch(v.Imeis, v.Iccids), { path: ['Iccids'], error: 'validation.imeiIccidCount' });
export const createUserWithDevicesResponse = ok({
  UserId: z.number(),
  LoginName: z.string(),
  Moved: z.number(),
  Created: z.number(),
});

/**
 * Excel import. The sheet has one device per row under a header row: LoginName, Password, Username,
 * Email, IMEI, ICCID, Model, DeviceName (the template: GET /api/device/import-template.xlsx). Rows
 * with the same LoginName make one new sub-account of ParentUserId; an IMEI already registered in
 * the caller's subtree moves to it, an unknown one is created with the row's model. Any refused row
 * means nothing is imported; the answer lists every refused row and why.
 */
export const IMPORT_COLUMNS = ['LoginName', 'Password', 'Username', 'Email', 'IMEI', 'ICCID', 'Model', 'DeviceName'] as const;
export const importExcelRequest = z.object({
  FileName: text(255).optional(),
  /** The .xlsx file, base64 (a data: URL prefix is accepted). */
  Content: z
    .string({ error: 'device.importFileRequired' })
    .trim()
    .min(1, { error: 'device.importFileRequired' })
    .max(14 * 1024 * 1024, { error: 'device.importTooLarge' })
    .check(...STORABLE),
  ParentUserId: optionalId,
  /** Check every row and report, without importing. */
  DryRun: z.boolean().default(false),
});
export const importRowFailureSchema = z.object({
  Row: z.number(),
  Column: z.string().optional(),
  Imei: z.string(),
  Message: z.string(),
  Params: z.record(z.string(), z.unknown()).optional(),
});
export const importExcelResponse = ok({
  Imported: z.boolean(),
  Rows: z.number(),
  Accounts: z.array(z.object({ LoginName: z.string(), UserId: z.number().nullable(), Devices: z.number() })),
  Moved: z.number(),
  Created: z.number(),
  Failed: z.array(importRowFailureSchema),
});

export const dictionaryRequest = z.object({ UserId: optionalId });
export const dictionaryResponse = ok({
  Models: z.array(z.object({ ModelId: z.number(), Name: z.string(), Type: z.string(), Protocol: z.string(), Commands: z.array(z.string()) })),
  Groups: z.array(z.object({ GroupId: z.number(), Name: z.string(), AccountId: z.number() })),
  Roles: z.array(z.object({ RoleId: z.number(), Name: z.string(), Color: z.enum(ROLE_COLORS), Shape: z.enum(ROLE_SHAPES) })),
  Colors: z.array(z.enum(ROLE_COLORS)),
  Shapes: z.array(z.enum(ROLE_SHAPES)),
  SoftwareVersions: z.array(z.string()),
});
