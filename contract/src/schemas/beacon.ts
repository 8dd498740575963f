// The beacon registry (SPEC §3 Beacon, §5, §8): the Bluetooth and UWB beacons an account owns,
// known by either identity model: UUID model (code of at least 14 digits, major, minor; a MAC
// optional) or MAC model (MAC only). A beacon placed indoors is a scene anchor: the registry and
// the scene pages read and write the same rows, so one physical beacon is described once, and a
// registry beacon placed on a floor is what the positioning engine uses.
//
// Calls:
// - /Bluetooth/addBTDeviceInfo, updateBeaconInfo, removeBT           UUID-model beacons.
// - /Bluetooth/addBTDeviceInfoMac, updateBeaconInfoMac, removeBTMac  MAC-model beacons.
// - /Bluetooth/btDeviceListByUserId, btMacDevicesByUserId            the subtree's beacons of a model, paged.
// - /Bluetooth/allBTDeviceInfo                                      every beacon in reach (the
//                                                                   administrator's: the platform's).
// - /Bluetooth/searchBTByIdentifier                                 beacons by code, UUID+major+minor or MAC.
// - /Bluetooth/updateBTBindStatus                                   beacons valid or invalid.
// - /Bluetooth/batchDelBTBindStatus                                 delete beacons of either model.
// - /Bluetooth/removeInnerBT                                        take beacons off their floor plan
//                                                                   (they stay registered).
// - /Beacon/Import (ours)                                           an .xlsx of beacons, checked row
//                                                                   by row, imported whole or not at all.
// - /Beacon/Export (ours)                                           the beacons in reach as an .xlsx.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { STORABLE, id, int, num, optionalId, text } from './common.js';
import { batchResultResponse } from './device.js';
import { BEACON_CODE, MAC_ADDRESS, choice, planCoordinate } from './scene.js';

/** 1 UUID model (code + major + minor), 2 MAC model. */
export const BEACON_MODELS = [1, 2] as const;
/** 1 Bluetooth, 2 UWB (a placed anchor may also be 3, an AOA locator). */
export const BEACON_TYPES = [1, 2] as const;
/** 1 valid, 2 invalid. */
export const BEACON_STATES = [1, 2] as const;
/** Beacons one call names at most. */
export const MAX_BEACON_IDS = 1000;
/** Rows an import takes, and beacons an export writes, at most. */
export const BEACON_IMPORT_MAX_ROWS = 10_000;
export const BEACON_EXPORT_MAX_ROWS = 100_000;
/** The import's columns, in the template's order. */
export const BEACON_IMPORT_COLUMNS = ['Code', 'Major', 'Minor', 'Mac', 'Name', 'Address', 'Longitude', 'Latitude', 'Type', 'State'] as const;

export const beaconSchema = z.object({
  BeaconId: z.number(),
  AccountId: z.number(),
  AccountName: z.string(),
  Model: z.number(),
  Code: z.string().nullable(),
  Major: z.number().nullable(),
  Minor: z.number().nullable(),
  Mac: z.string().nullable(),
  Name: z.string(),
  Address: z.string(),
  Lon: z.number().nullable(),
  Lat: z.number().nullable(),
  State: z.number(),
  Type: z.number(),
  /** Where it is placed indoors; null when it is not on a plan. */
  SceneId: z.number().nullable(),
  SceneName: z.string().nullable(),
  FloorId: z.number().nullable(),
  FloorName: z.string().nullable(),
  X: z.number().nullable(),
  Y: z.number().nullable(),
  CreatedAt: z.string(),
});
export type Beacon = z.infer<typeof beaconSchema>;

const mac = z.string({ error: 'beacon.macRequired' }).trim().regex(MAC_ADDRESS, { error: 'beacon.macInvalid' });
const code = z.string({ error: 'beacon.codeRequired' }).trim().regex(BEACON_CODE, { error: 'beacon.codeInvalid' });
/** Longitude/latitude of the beacon (both or neither): where a device hearing it is placed. */
const lon = num(-180, 180).nullable().optional();
const lat = num(-90, 90).nullable().optional();

const commonFields = {
  /** The owner; the caller when absent on create, unchanged on update. */
  UserId: optionalId,
  Name: text(64).default(''),
  Address: text(200).default(''),
  Lon: lon,
  Lat: lat,
  State: choice(BEACON_STATES, 'validation.required', 'beacon.stateInvalid').default(1),
  Type: choice(BEACON_TYPES, 'beacon.typeRequired', 'beacon.typeInvalid').default(1),
};
const bothOrNeither = (v: { Lon?: number | null; Lat?: number | null }) => (v.Lon === undefined || v.Lon === null) === (v.Lat === undefined || v.Lat === null);
const lonLatRule = { error: 'beacon.lonLatBoth', path: ['Lat'] };

const uuidFields = {
  ...commonFields,
  Code: code,
  Major: int(0, 65535, 'beacon.majorRequired'),
  Minor: int(0, 65535, 'beacon.minorRequired'),
  Mac: z.union([z.literal(''), mac]).nullable().optional(),
};
const macFields = { ...commonFields, Mac: mac };

export const addUuidBeaconRequest = z.object(uuidFields).refine(bothOrNeither, lonLatRule);
export const updateUuidBeaconRequest = z.object({ BeaconId: id, ...uuidFields }).refine(bothOrNeither, lonLatRule);
export const addMacBeaconRequest = z.object(macFields).refine(bothOrNeither, lonLatRule);
export const updateMacBeaconRequest = z.object({ BeaconId: id, ...macFields }).refine(bothOrNeither, lonLatRule);
export const beaconIdResponse = ok({ BeaconId: z.number() });

export const beaconIdsRequest = z.object({
  BeaconIds: z.array(id).min(1, { error: 'validation.required' }).max(MAX_BEACON_IDS, { error: 'validation.tooMany' }),
});
export const beaconStatusRequest = z.object({
  BeaconIds: z.array(id).min(1, { error: 'validation.required' }).max(MAX_BEACON_IDS, { error: 'validation.tooMany' }),
  State: choice(BEACON_STATES, 'validation.required', 'beacon.stateInvalid'),
});

export const beaconListRequest = z.object({
  ...pageRequest,
  /** A sub-account whose subtree is listed; the caller's own subtree when absent. */
  UserId: optionalId,
  /** Code, MAC, name or address contains. */
  Keyword: text(64).optional(),
  State: choice(BEACON_STATES, 'validation.required', 'beacon.stateInvalid').optional(),
  Type: choice([1, 2, 3] as const, 'beacon.typeRequired', 'beacon.typeInvalid').optional(),
  /** allBTDeviceInfo only: one model. */
  Model: choice(BEACON_MODELS, 'validation.required', 'beacon.modelInvalid').optional(),
  /** true: only beacons on a plan; false: only those that are not. */
  Placed: z.boolean().optional(),
});
export const beaconListResponse = pageOf(beaconSchema);

export const searchBeaconRequest = z.object({
  /** A MAC (any spelling), a code, or `code:major:minor`. */
  Identifier: z.string({ error: 'beacon.identifierRequired' }).trim().min(1, { error: 'beacon.identifierRequired' }).max(80, { error: 'validation.tooLong' }).check(...STORABLE),
});
export const searchBeaconResponse = ok({ Items: z.array(beaconSchema) });

/** Places a registered beacon on a floor plan (what removeInnerBT undoes). */
export const placeBeaconRequest = z.object({ BeaconId: id, FloorId: id, X: planCoordinate, Y: planCoordinate });

export const beaconImportRequest = z.object({
  FileName: text(255).optional(),
  Content: z.string({ error: 'beacon.importFileRequired' }).trim().min(1, { error: 'beacon.importFileRequired' }).max(14 * 1024 * 1024, { error: 'beacon.importTooLarge' }).check(...STORABLE),
  /** The owner of the beacons imported; the caller when absent. */
  UserId: optionalId,
  DryRun: z.boolean().default(false),
});
export const beaconImportFailureSchema = z.object({
  Row: z.number(),
  Column: z.string(),
  Value: z.string(),
  Message: z.string(),
  Params: z.record(z.string(), z.unknown()).optional(),
});
export const beaconImportResponse = ok({
  Imported: z.boolean(),
  Rows: z.number(),
  /** Rows of each model (imported, or that would be). */
  Uuid: z.number(),
  Mac: z.number(),
  Failed: z.array(beaconImportFailureSchema),
});
export const beaconExportRequest = beaconListRequest.omit({ PageNo: true, PageCount: true });
export const beaconExportResponse = ok({ FileName: z.string(), Content: z.string(), Rows: z.number() });
export const beaconTemplateResponse = ok({ FileName: z.string(), Content: z.string() });

export const beaconSchemas = {
  '/Bluetooth/addBTDeviceInfo': { request: addUuidBeaconRequest, response: beaconIdResponse },
  '/Bluetooth/updateBeaconInfo': { request: updateUuidBeaconRequest, response: beaconIdResponse },
  '/Bluetooth/removeBT': { request: beaconIdsRequest, response: batchResultResponse },
  '/Bluetooth/addBTDeviceInfoMac': { request: addMacBeaconRequest, response: beaconIdResponse },
  '/Bluetooth/updateBeaconInfoMac': { request: updateMacBeaconRequest, response: beaconIdResponse },
  '/Bluetooth/removeBTMac': { request: beaconIdsRequest, response: batchResultResponse },
  '/Bluetooth/btDeviceListByUserId': { request: beaconListRequest, response: beaconListResponse },
  '/Bluetooth/btMacDevicesByUserId': { request: beaconListRequest, response: beaconListResponse },
  '/Bluetooth/allBTDeviceInfo': { request: beaconListRequest, response: beaconListResponse },
  '/Bluetooth/searchBTByIdentifier': { request: searchBeaconRequest, response: searchBeaconResponse },
  '/Bluetooth/updateBTBindStatus': { request: beaconStatusRequest, response: batchResultResponse },
  '/Bluetooth/batchDelBTBindStatus': { request: beaconIdsRequest, response: batchResultResponse },
  '/Bluetooth/removeInnerBT': { request: beaconIdsRequest, response: batchResultResponse },
  '/Beacon/Place': { request: placeBeaconRequest, response: beaconIdResponse },
  '/Beacon/Import': { request: beaconImportRequest, response: beaconImportResponse },
  '/Beacon/Export': { request: beaconExportRequest, response: beaconExportResponse },
  '/Beacon/ImportTemplate': { request: z.object({}), response: beaconTemplateResponse },
};
