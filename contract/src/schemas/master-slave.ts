// Master-slave binding (SPEC §3): a master device (a caregiver's or parent's watch, by IMEI) and
// the slave tags (by MAC) it should keep near. The master reports the slaves it hears; a slave not
// heard for the binding's timeout raises "separated" on the master, and "back" when heard again.
// While heard, a slave that is itself a device is placed at its master's position. A slave belongs
// to one master at a time.
//
// Calls:
// - /Bluetooth/addBTMasterSlaveInfo, updateMasterSlaveInfo   bind / rebind a master's slaves.
// - /Bluetooth/updateMasterSlaveDel                         delete bindings.
// - /Bluetooth/allMasterSlaveList                           the subtree's bindings, paged, with
//                                                            each slave's last hearing and state.
// - /Bluetooth/searchMasterSlaveListById                    one binding, by id or master IMEI.
// - /Bluetooth/bindDeviceListByUserId                       devices that may be made masters.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { IMEI } from '../rules.js';
import { id, int, optionalId, text } from './common.js';
import { batchResultResponse } from './device.js';
import { MAC_ADDRESS } from './scene.js';

export const MAX_SLAVES = 20;
export const SLAVE_TIMEOUT_MIN = 10;
export const SLAVE_TIMEOUT_MAX = 86_400;

export const slaveSchema = z.object({
  Mac: z.string(),
  Name: z.string(),
  /** Last time the master heard it; null: not yet. */
  LastHeard: z.string().nullable(),
  Rssi: z.number().nullable(),
  Separated: z.boolean(),
  /** The slave as a device of the platform (a tag registered by this MAC), if it is one. */
  DeviceId: z.number().nullable(),
});
export const bindingSchema = z.object({
  BindingId: z.number(),
  AccountId: z.number(),
  AccountName: z.string(),
  DeviceId: z.number(),
  Imei: z.string(),
  MasterName: z.string(),
  TimeoutSeconds: z.number(),
  Slaves: z.array(slaveSchema),
  /** The master's last position: where its slaves are shown while heard. */
  Lat: z.number().nullable(),
  Lon: z.number().nullable(),
  Accuracy: z.number().nullable(),
  UpdatedAt: z.string(),
});
export type Binding = z.infer<typeof bindingSchema>;

const slaveInput = z.object({
  Mac: z.string({ error: 'bind.slaveMacRequired' }).trim().regex(MAC_ADDRESS, { error: 'bind.slaveMacInvalid' }),
  Name: text(64).default(''),
});
const bindingFields = {
  Imei: z.string({ error: 'bind.imeiRequired' }).trim().regex(IMEI, { error: 'validation.imeiInvalid' }),
  Slaves: z
    .array(slaveInput, { error: 'bind.slavesRequired' })
    .min(1, { error: 'bind.slavesRequired' })
    .max(MAX_SLAVES, { error: 'bind.slavesMax' }),
  /** Seconds without a hearing before "separated"; the platform's SLAVE_TIMEOUT_SECONDS when absent. */
  TimeoutSeconds: int(SLAVE_TIMEOUT_MIN, SLAVE_TIMEOUT_MAX).optional(),
};
export const addBindingRequest = z.object(bindingFields);
export const updateBindingRequest = z.object({ BindingId: id, ...bindingFields });
export const bindingIdResponse = ok({ BindingId: z.number() });
export const deleteBindingsRequest = z.object({
  BindingIds: z.array(id).min(1, { error: 'validation.required' }).max(1000, { error: 'validation.tooMany' }),
});
export const bindingListRequest = z.object({
  ...pageRequest,
  UserId: optionalId,
  /** Master IMEI or name, or a slave MAC, contains. */
  Keyword: text(64).optional(),
});
export const bindingListResponse = pageOf(bindingSchema);
export const bindingSearchRequest = z
  .object({ BindingId: optionalId, Imei: z.string().trim().regex(IMEI, { error: 'validation.imeiInvalid' }).optional() })
  .refine((v) => v.BindingId !== undefined || v.Imei !== undefined, { error: 'bind.searchRequired', path: ['BindingId'] });
export const bindingSearchResponse = ok({ Item: bindingSchema });
export const masterCandidatesRequest = z.object({ UserId: optionalId, Keyword: text(64).optional() });
export const masterCandidatesResponse = ok({
  Items: z.array(z.object({ DeviceId: z.number(), Imei: z.string(), Name: z.string(), Bound: z.boolean() })),
});

export const masterSlaveSchemas = {
  '/Bluetooth/addBTMasterSlaveInfo': { request: addBindingRequest, response: bindingIdResponse },
  '/Bluetooth/updateMasterSlaveInfo': { request: updateBindingRequest, response: bindingIdResponse },
  '/Bluetooth/updateMasterSlaveDel': { request: deleteBindingsRequest, response: batchResultResponse },
  '/Bluetooth/allMasterSlaveList': { request: bindingListRequest, response: bindingListResponse },
  '/Bluetooth/searchMasterSlaveListById': { request: bindingSearchRequest, response: bindingSearchResponse },
  '/Bluetooth/bindDeviceListByUserId': { request: masterCandidatesRequest, response: masterCandidatesResponse },
};
