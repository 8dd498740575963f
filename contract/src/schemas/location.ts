// Locations (SPEC §3 Location): a zone drawn on a floor plan, or the places where some registered
// beacons are heard, watched over the devices it supervises, raising "entered" (and, when asked,
// "left") alarms with its name. Entering and leaving are debounced (LOCATION_* settings): a tag
// standing in a doorway does not flap.
//
// Calls:
// - /Bluetooth/AddBeaconLocationInfo, updateBeaconLocationInfo   create / change a location.
// - /Bluetooth/allBeaconLocationList                            the subtree's locations, paged, with
//                                                                how many devices are inside now.
// - /Bluetooth/updateBeaconLocationStatus                       locations on or off.
// - /BeaconLocation/Delete (ours)                               delete locations.
// - /BeaconLocation/Detail (ours)                               one location live: who is inside since
//                                                                when, entries and exits today.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { id, int, optionalId, requiredText, text } from './common.js';
import { batchResultResponse } from './device.js';
import { scheduleSchema } from './account-fence.js';
import { choice, planCoordinate } from './scene.js';

/** 1 alarm on entering; 2 alarm on entering and leaving. */
export const LOCATION_EVENTS = [1, 2] as const;
/** 1 a zone on a floor plan; 2 where its beacons are heard. */
export const LOCATION_KINDS = [1, 2] as const;
export const MAX_LOCATION_POINTS = 200;
export const MAX_LOCATION_BEACONS = 100;
export const MAX_LOCATION_DEVICES = 5000;
/** Locations one account owns at most. */
export const MAX_LOCATIONS = 500;
/** Longest maximum stay a location takes (minutes): a day. */
export const MAX_STAY_MINUTES = 1440;
/** Published (cluster-wide) when locations change, so every evaluator reloads them. */
export const LOCATIONS_CHANGED_TOPIC = 'beacon-location.changed';

export const locationSchema = z.object({
  LocationId: z.number(),
  AccountId: z.number(),
  AccountName: z.string(),
  Name: z.string(),
  Description: z.string(),
  Event: z.number(),
  Kind: z.number(),
  FloorId: z.number().nullable(),
  FloorName: z.string().nullable(),
  SceneId: z.number().nullable(),
  SceneName: z.string().nullable(),
  Points: z.array(z.tuple([z.number(), z.number()])).nullable(),
  BeaconIds: z.array(z.number()),
  DeviceIds: z.array(z.number()),
  AccountIds: z.array(z.number()),
  Schedule: z.object({ Days: z.array(z.number()), Windows: z.array(z.object({ Start: z.string(), End: z.string() })) }).nullable(),
  /** Longest stay allowed inside (minutes), a stayedTooLong alarm beyond; null: no limit. */
  MaxStayMinutes: z.number().nullable(),
  Status: z.number(),
  /** Devices inside now. */
  Inside: z.number(),
  UpdatedAt: z.string(),
});
export type Location = z.infer<typeof locationSchema>;

const ids = (max: number) => z.array(id).max(max, { error: 'validation.tooMany' }).default([]);
const locationFields = {
  /** The owner; the caller when absent on create, unchanged on update. */
  UserId: optionalId,
  Name: requiredText('location.nameRequired', 64),
  Description: text(200).default(''),
  Event: choice(LOCATION_EVENTS, 'location.eventRequired', 'location.eventInvalid'),
  Kind: choice(LOCATION_KINDS, 'location.kindRequired', 'location.kindInvalid'),
  FloorId: optionalId,
  Points: z
    .array(z.tuple([planCoordinate, planCoordinate]), { error: 'location.pointsRequired' })
    .max(MAX_LOCATION_POINTS, { error: 'location.pointsMax' })
    .nullable()
    .optional(),
  BeaconIds: ids(MAX_LOCATION_BEACONS),
  DeviceIds: ids(MAX_LOCATION_DEVICES),
  AccountIds: ids(100),
  Schedule: scheduleSchema.nullable().default(null),
  MaxStayMinutes: z.preprocess((v) => (v === '' ? null : v), int(1, MAX_STAY_MINUTES).nullable().default(null)),
};
/** A zone needs a floor and a polygon; beacons need at least one beacon. */
const shapeRule = (v: { Kind: number; FloorId?: number; Points?: [number, number][] | null; BeaconIds: number[] }, ctx: z.RefinementCtx) => {
  if (v.Kind === 1 && !v.FloorId) ctx.addIssue({ code: 'custom', message: 'location.floorRequired', path: ['FloorId'] });
  if (v.Kind === 1 && (!v.Points || v.Points.length < 3)) ctx.addIssue({ code: 'custom', message: 'location.pointsRequired', path: ['Points'] });
  if (v.Kind === 2 && v.BeaconIds.length === 0) ctx.addIssue({ code: 'custom', message: 'location.beaconsRequired', path: ['BeaconIds'] });
};
export const addLocationRequest = z.object(locationFields).superRefine(shapeRule);
export const updateLocationRequest = z.object({ LocationId: id, ...locationFields }).superRefine(shapeRule);
export const locationIdResponse = ok({ LocationId: z.number() });

export const locationListRequest = z.object({
  ...pageRequest,
  UserId: optionalId,
  Name: text(64).optional(),
  Status: choice([1, 2] as const, 'validation.required', 'location.statusInvalid').optional(),
});
export const locationListResponse = pageOf(locationSchema);

export const locationStatusRequest = z.object({
  LocationIds: z.array(id).min(1, { error: 'validation.required' }).max(1000, { error: 'validation.tooMany' }),
  Status: choice([1, 2] as const, 'validation.required', 'location.statusInvalid'),
});
export const deleteLocationsRequest = z.object({
  LocationIds: z.array(id).min(1, { error: 'validation.required' }).max(1000, { error: 'validation.tooMany' }),
});

export const locationDetailRequest = z.object({ LocationId: id });
export const locationDetailResponse = ok({
  Item: locationSchema,
  /** Devices inside now, longest first. */
  Inside: z.array(z.object({ DeviceId: z.number(), Imei: z.string(), Name: z.string(), Since: z.string(), X: z.number().nullable(), Y: z.number().nullable() })),
  /** Entries and exits since the start of today (the owner's time zone), newest first. */
  Events: z.array(z.object({ DeviceId: z.number(), Imei: z.string(), Name: z.string(), Inside: z.boolean(), Time: z.string() })),
  EntriesToday: z.number(),
  ExitsToday: z.number(),
});

export const locationSchemas = {
  '/Bluetooth/AddBeaconLocationInfo': { request: addLocationRequest, response: locationIdResponse },
  '/Bluetooth/updateBeaconLocationInfo': { request: updateLocationRequest, response: locationIdResponse },
  '/Bluetooth/allBeaconLocationList': { request: locationListRequest, response: locationListResponse },
  '/Bluetooth/updateBeaconLocationStatus': { request: locationStatusRequest, response: batchResultResponse },
  '/BeaconLocation/Delete': { request: deleteLocationsRequest, response: batchResultResponse },
  '/BeaconLocation/Detail': { request: locationDetailRequest, response: locationDetailResponse },
};
