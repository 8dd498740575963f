// Device fences (SPEC §3 Device fence, §5 "polygon at least 3 points; at most 10 fences"): a circle
// (centre and radius in metres) or a polygon around one device. Entering and leaving are evaluated
// on every committed position (a position on the boundary counts as inside).
// - /Geofence/addDeviceGeofence     add a fence to a device.
// - /Geofence/updateDeviceGeofence  change a fence (FenceId required).
// - /Geofence/GeofenceList          paged list of the device fences in scope (filter by IMEI, name).
// - /Geofence/DeleteGeofence        delete device fences.
// - /Geofence/fenceGeoList          every fence of one device (or of all devices in scope), with
//                                   geometry and the device's inside/outside state, for the map.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { LIMITS } from '../rules.js';
import { float, id, num, optionalId, requiredText, text } from './common.js';
import { imeiField } from './device.js';

export const MAX_FENCES_PER_DEVICE = LIMITS.fencesPerDevice;
/** Largest circle radius, metres. */
export const MAX_FENCE_RADIUS = 100_000;
/** Most vertices of a polygon fence. */
export const MAX_FENCE_POINTS = 1000;

export const latField = float(z.coerce.number({ error: 'device.latLonInvalid' }).min(-90, { error: 'device.latLonInvalid' }).max(90, { error: 'device.latLonInvalid' }));
export const lonField = float(z.coerce.number({ error: 'device.latLonInvalid' }).min(-180, { error: 'device.latLonInvalid' }).max(180, { error: 'device.latLonInvalid' }));
export const pointSchema = z.object({ Lat: latField, Lon: lonField });

const fenceBody = z.object({
  Name: requiredText('device.fenceNameRequired', 64),
  Description: text(256).default(''),
  Type: z.enum(['circle', 'polygon'], { error: 'device.fenceTypeRequired' }),
  /** Circle centre. */
  Lat: latField.optional(),
  Lon: lonField.optional(),
  /** Circle radius, metres. */
  Radius: num(-MAX_FENCE_RADIUS, MAX_FENCE_RADIUS).optional(),
  /** Polygon vertices, in order; the ring closes by itself. */
  Points: z.array(pointSchema).max(MAX_FENCE_POINTS).optional(),
});
type FenceBody = z.infer<typeof fenceBody>;

function checkGeometry(v: FenceBody, ctx: z.RefinementCtx) {
  if (v.Type === 'circle') {
    if (v.Lat === undefined) ctx.addIssue({ code: 'custom', path: ['Lat'], message: 'device.latLonInvalid' });
    if (v.Lon === undefined) ctx.addIssue({ code: 'custom', path: ['Lon'], message: 'device.latLonInvalid' });
    if (v.Radius === undefined || !(v.Radius > 0) || v.Radius > MAX_FENCE_RADIUS) {
      ctx.addIssue({ code: 'custom', path: ['Radius'], message: 'device.fenceRadius', params: { max: MAX_FENCE_RADIUS } });
    }
  } else if (!v.Points || v.Points.length < 3) {
    ctx.addIssue({ code: 'custom', path: ['Points'], message: 'device.polygonPoints' });
  }
}

export const addFenceRequest = fenceBody.extend({ Imei: imeiField }).superRefine(checkGeometry);
export const updateFenceRequest = fenceBody.extend({ FenceId: id }).superRefine(checkGeometry);

export const fenceSchema = z.object({
  FenceId: z.number(),
  DeviceId: z.number(),
  Imei: z.string(),
  DeviceName: z.string(),
  Name: z.string(),
  Description: z.string(),
  Type: z.enum(['circle', 'polygon']),
  Lat: z.number().nullable(),
  Lon: z.number().nullable(),
  Radius: z.number().nullable(),
  Points: z.array(z.object({ Lat: z.number(), Lon: z.number() })),
  /** Where the device was at its last position: inside, outside, or null before any position. */
  Inside: z.boolean().nullable(),
  CreatedAt: z.string(),
});
export type Fence = z.infer<typeof fenceSchema>;
export const fenceResponse = ok({ Item: fenceSchema });
export const fenceListRequest = z.object({
  ...pageRequest,
  UserId: optionalId,
  Imei: text(15).optional(),
  Name: text(64).optional(),
});
export const fenceListResponse = pageOf(fenceSchema);
export const deleteFencesRequest = z.object({ FenceIds: z.array(id).min(1, { error: 'validation.required' }).max(1000) });
export const fenceGeoListRequest = z.object({ Imei: imeiField.optional(), UserId: optionalId });
export const fenceGeoListResponse = ok({ Items: z.array(fenceSchema) });

/** Published on the bus when a device enters or leaves one of its fences. */
export const FENCE_TRANSITION_TOPIC = 'fence.transition';
export interface FenceTransitionEvent {
  deviceId: number;
  imei: string;
  fenceId: number;
  fenceName: string;
  kind: 'enter' | 'exit';
  /** Device time of the position (ISO). */
  time: string;
  lat: number;
  lon: number;
  accountId: number;
  accountPath: string;
}
