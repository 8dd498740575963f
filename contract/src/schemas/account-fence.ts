// Account fences and attendance (SPEC §3 Account fence, §5 Fence, §8, §9). An account fence belongs
// to an owner account (at most 10 per owner) and watches every device of the accounts it names (and,
// with IncludeChildren, of their sub-accounts). Its shape is a polygon, a circle or an administrative
// district (a 6-digit division code: province, prefecture or county). An optional schedule says when
// it is active: outside its windows it raises nothing, and attendance is measured against it.
//
// - /Geofence/CreateGeofence               create a fence of any shape.
// - /Geofence/EditGeofence                 change a fence wholly (shape included).
// - /Geofence/addGeofenceMonitor           create a drawn fence (polygon or circle).
// - /Geofence/addGeofenceMonitorXingzheng  create a district fence (行政区划).
// - /Geofence/updateGeofenceMonitorCustom  change a fence to a drawn shape.
// - /Geofence/updateMonitorGeofence        change what a fence watches (name, accounts, alarm type,
//                                          schedule), keeping its shape.
// - /Geofence/addMonitorFences             let more accounts be watched by fences (batch).
// - /Geofence/DelGeofenceByUserCustom      delete fences.
// - /AccountFence/List                     the fences of an account's subtree, paged, filtered, with
//                                          their shapes on request (the page and the monitor map).
// - /device/fenceMonitorByChildUserId      which devices of an account are inside which fences now.
// - /AccountFence/Attendance               attendance over a date range: totals per device and fence,
//                                          or one row per device, fence and day.
// - /AccountFence/AttendanceDay            one device's day at one fence: inside/outside intervals
//                                          over the schedule windows.
// - /AccountFence/AttendanceExport         the attendance table as a spreadsheet.
import kinks from '@turf/kinks';
import { polygon as turfPolygon } from '@turf/helpers';
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { id, int, num, optionalId, requiredText, text } from './common.js';
import { batchResultResponse } from './device.js';
import { MAX_FENCE_POINTS, MAX_FENCE_RADIUS, latField, lonField, pointSchema } from './fence.js';

/** SPEC §9: at most 10 fences (per owner account). */
export const MAX_ACCOUNT_FENCES = 10;
/** Accounts one fence may watch. */
export const MAX_WATCHED_ACCOUNTS = 200;
/** Windows of a schedule (per day). */
export const MAX_SCHEDULE_WINDOWS = 6;
/** Longest attendance range, days. */
export const MAX_ATTENDANCE_DAYS = 93;

/** 1 entering, 2 leaving, 3 both (SPEC §3 "in, out, in-and-out"). */
export const ACCOUNT_FENCE_ALARM_TYPES = [1, 2, 3] as const;
export type AccountFenceAlarmType = (typeof ACCOUNT_FENCE_ALARM_TYPES)[number];
export const ACCOUNT_FENCE_TYPES = ['polygon', 'circle', 'district'] as const;
export type AccountFenceType = (typeof ACCOUNT_FENCE_TYPES)[number];

const numeric = (v: unknown) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v);
export const alarmTypeField = z.preprocess(
  numeric,
  z.union([z.literal(1), z.literal(2), z.literal(3)], { error: (iss) => (iss.input === undefined ? 'accountFence.alarmTypeRequired' : 'accountFence.alarmTypeInvalid') }),
);

/** "HH:mm", 00:00 to 23:59; a window whose end is not after its start runs past midnight. */
export const clockField = z
  .string({ error: 'accountFence.clockInvalid' })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, { error: 'accountFence.clockInvalid' });
export const scheduleWindowSchema = z
  .object({ Start: clockField, End: clockField })
  .refine((w) => w.Start !== w.End, { error: 'accountFence.windowEmpty', path: ['End'] });
export const scheduleSchema = z.object({
  /** Days of the week a window may start on: 0 Sunday ... 6 Saturday (in the owner's time zone). */
  Days: z
    .array(int(0, 6), { error: 'accountFence.daysRequired' })
    .min(1, { error: 'accountFence.daysRequired' })
    .max(7)
    .transform((d) => [...new Set(d)].sort((a, b) => a - b)),
  Windows: z
    .array(scheduleWindowSchema, { error: 'accountFence.windowsRequired' })
    .min(1, { error: 'accountFence.windowsRequired' })
    .max(MAX_SCHEDULE_WINDOWS, { error: 'accountFence.windowsMax' }),
});
export type Schedule = z.output<typeof scheduleSchema>;

/** A 6-digit administrative division code (GB/T 2260): province 110000, prefecture 440300, county 440304. */
export const DISTRICT_CODE = /^\d{6}$/;

/** True when a closed ring of [lon, lat] crosses itself (edges meeting anywhere but at shared vertices). */
export function ringSelfIntersects(points: { Lat: number; Lon: number }[]): boolean {
  if (points.length < 3) return false;
  const ring = points.map((p) => [p.Lon, p.Lat]);
  const [a, b] = [ring[0]!, ring[ring.length - 1]!];
  if (a[0] !== b[0] || a[1] !== b[1]) ring.push([a[0]!, a[1]!]);
  if (ring.length < 4) return true;
  return kinks(turfPolygon([ring])).features.length > 0;
}

const watch = {
  Name: requiredText('accountFence.nameRequired', 64),
  /** The accounts whose devices are watched (the owner or accounts below it). */
  UserIds: z
    .array(id, { error: 'accountFence.accountsRequired' })
    .min(1, { error: 'accountFence.accountsRequired' })
    .max(MAX_WATCHED_ACCOUNTS, { error: 'accountFence.accountsMax' })
    .transform((ids) => [...new Set(ids)]),
  /** Also the devices of the watched accounts' sub-accounts. */
  IncludeChildren: z.boolean().default(false),
  AlarmType: alarmTypeField,
  /** Null or absent: always active. */
  Schedule: scheduleSchema.nullable().default(null),
};

const shape = {
  Type: z.enum(ACCOUNT_FENCE_TYPES, { error: 'accountFence.typeRequired' }),
  /** Circle centre. */
  Lat: latField.optional(),
  Lon: lonField.optional(),
  /** Circle radius, metres. */
  Radius: num(-MAX_FENCE_RADIUS, MAX_FENCE_RADIUS).optional(),
  /** Polygon vertices, in order; the ring closes by itself. */
  Points: z.array(pointSchema).max(MAX_FENCE_POINTS, { error: 'accountFence.pointsMax' }).optional(),
  DistrictCode: text(6).optional(),
};

type ShapeBody = { Type: AccountFenceType; Lat?: number; Lon?: number; Radius?: number; Points?: { Lat: number; Lon: number }[]; DistrictCode?: string };

function checkShape(v: ShapeBody, ctx: z.RefinementCtx) {
  if (v.Type === 'circle') {
    if (v.Lat === undefined) ctx.addIssue({ code: 'custom', path: ['Lat'], message: 'device.latLonInvalid' });
    if (v.Lon === undefined) ctx.addIssue({ code: 'custom', path: ['Lon'], message: 'device.latLonInvalid' });
    if (v.Radius === undefined || !Number.isFinite(v.Radius) || !(v.Radius > 0) || v.Radius > MAX_FENCE_RADIUS) {
      ctx.addIssue({ code: 'custom', path: ['Radius'], message: 'device.fenceRadius', params: { max: MAX_FENCE_RADIUS } });
    }
  } else if (v.Type === 'polygon') {
    if (!v.Points || v.Points.length < 3) ctx.addIssue({ code: 'custom', path: ['Points'], message: 'device.polygonPoints' });
    else if (ringSelfIntersects(v.Points)) ctx.addIssue({ code: 'custom', path: ['Points'], message: 'accountFence.selfIntersecting' });
  } else if (!v.DistrictCode || !DISTRICT_CODE.test(v.DistrictCode)) {
    ctx.addIssue({ code: 'custom', path: ['DistrictCode'], message: 'accountFence.districtRequired' });
  }
}

function onlyTypes(types: readonly AccountFenceType[]) {
  return (v: { Type: AccountFenceType }, ctx: z.RefinementCtx) => {
    if (!types.includes(v.Type)) ctx.addIssue({ code: 'custom', path: ['Type'], message: 'accountFence.typeNotHere', params: { types: types.join(', ') } });
  };
}

/** The owner account (the caller by default): the fence counts towards its 10. */
const owner = { UserId: optionalId };

export const createAccountFenceRequest = z.object({ ...owner, ...watch, ...shape }).superRefine(checkShape);
export const editAccountFenceRequest = z.object({ FenceId: id, ...watch, ...shape }).superRefine(checkShape);
export const createDrawnFenceRequest = z.object({ ...owner, ...watch, ...shape }).superRefine(onlyTypes(['polygon', 'circle'])).superRefine(checkShape);
export const createDistrictFenceRequest = z
  .object({ ...owner, ...watch, ...shape, Type: z.literal('district').default('district') })
  .superRefine(checkShape);
export const editDrawnFenceRequest = z.object({ FenceId: id, ...watch, ...shape }).superRefine(onlyTypes(['polygon', 'circle'])).superRefine(checkShape);
export const editFenceWatchRequest = z.object({ FenceId: id, ...watch });
export const addFenceAccountsRequest = z.object({
  FenceIds: z.array(id).min(1, { error: 'validation.required' }).max(MAX_ACCOUNT_FENCES * 10),
  UserIds: watch.UserIds,
});
export const deleteAccountFencesRequest = z.object({ FenceIds: z.array(id).min(1, { error: 'validation.required' }).max(1000) });

export const watchedAccountSchema = z.object({ UserId: z.number(), LoginName: z.string(), Name: z.string() });
export const accountFenceSchema = z.object({
  FenceId: z.number(),
  /** Owner account. */
  UserId: z.number(),
  OwnerLoginName: z.string(),
  Name: z.string(),
  AlarmType: z.number(),
  Type: z.enum(ACCOUNT_FENCE_TYPES),
  Lat: z.number().nullable(),
  Lon: z.number().nullable(),
  Radius: z.number().nullable(),
  /** Polygon vertices (only when shapes are asked for, or for one fence). */
  Points: z.array(z.object({ Lat: z.number(), Lon: z.number() })),
  DistrictCode: z.string().nullable(),
  Accounts: z.array(watchedAccountSchema),
  IncludeChildren: z.boolean(),
  Schedule: z.object({ Days: z.array(z.number()), Windows: z.array(z.object({ Start: z.string(), End: z.string() })) }).nullable(),
  /** Devices watched now. */
  DeviceCount: z.number(),
  CreatedAt: z.string(),
});
export type AccountFence = z.infer<typeof accountFenceSchema>;
export const accountFenceResponse = ok({ Item: accountFenceSchema });
export const accountFenceListRequest = z.object({
  ...pageRequest,
  /** Whose subtree: the caller by default. */
  UserId: optionalId,
  Name: text(64).optional(),
  AlarmType: alarmTypeField.optional(),
  Type: z.enum(ACCOUNT_FENCE_TYPES, { error: 'accountFence.typeRequired' }).optional(),
  /** Answer polygon vertices too (the map); without it Points is empty. */
  WithShape: z.boolean().default(false),
});
export const accountFenceListResponse = pageOf(accountFenceSchema);

export const fenceMonitorRequest = z.object({ UserId: optionalId, FenceId: optionalId });
export const fenceMonitorResponse = ok({
  Items: z.array(
    z.object({
      FenceId: z.number(),
      FenceName: z.string(),
      Devices: z.array(z.object({ DeviceId: z.number(), Imei: z.string(), Name: z.string(), Since: z.string() })),
    }),
  ),
});

// ---- attendance ----

/** A day as YYYY-MM-DD, in the owner account's time zone. */
export const dayField = z
  .string({ error: 'accountFence.dayInvalid' })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'accountFence.dayInvalid' })
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), { error: 'accountFence.dayInvalid' });

export const ATTENDANCE_SORTS = ['Imei', 'DeviceName', 'FenceName', 'Day', 'InsideMinutes', 'Entries', 'LateMinutes', 'EarlyMinutes', 'AbsentDays', 'LateDays', 'EarlyDays'] as const;
const attendanceFilter = {
  /** Whose fences and devices: the caller by default. */
  UserId: optionalId,
  FenceId: optionalId,
  Imei: text(15).optional(),
  From: dayField,
  To: dayField,
  /** 'total': a row per device and fence over the range; 'daily': a row per device, fence and day. */
  View: z.enum(['total', 'daily']).default('total'),
  Sort: z.enum(ATTENDANCE_SORTS).optional(),
  Order: z.enum(['asc', 'desc']).default('asc'),
};
function checkRange(v: { From: string; To: string }, ctx: z.RefinementCtx) {
  const days = (Date.parse(v.To) - Date.parse(v.From)) / 86_400_000;
  if (days < 0) ctx.addIssue({ code: 'custom', path: ['To'], message: 'accountFence.rangeReversed' });
  else if (days + 1 > MAX_ATTENDANCE_DAYS) ctx.addIssue({ code: 'custom', path: ['To'], message: 'accountFence.rangeMax', params: { max: MAX_ATTENDANCE_DAYS } });
}
export const attendanceRequest = z.object({ ...pageRequest, ...attendanceFilter }).superRefine(checkRange);
export const attendanceExportRequest = z.object(attendanceFilter).superRefine(checkRange);
export const attendanceRowSchema = z.object({
  DeviceId: z.number(),
  Imei: z.string(),
  DeviceName: z.string(),
  LoginName: z.string(),
  FenceId: z.number(),
  FenceName: z.string(),
  /** The day (daily view), or null (total view). */
  Day: z.string().nullable(),
  /** Days of the range counted (total view), 1 (daily view). */
  Days: z.number(),
  /** First entry and last exit (ISO; daily view), null when none. */
  FirstIn: z.string().nullable(),
  LastOut: z.string().nullable(),
  InsideMinutes: z.number(),
  Entries: z.number(),
  Exits: z.number(),
  LateMinutes: z.number(),
  EarlyMinutes: z.number(),
  LateDays: z.number(),
  EarlyDays: z.number(),
  AbsentDays: z.number(),
  /** The fence owner's time zone offset, minutes east of UTC: FirstIn and LastOut are shown on its clock. */
  TimeZoneOffset: z.number().optional(),
});
export type AttendanceRow = z.infer<typeof attendanceRowSchema>;
export const attendanceResponse = pageOf(attendanceRowSchema);
export const attendanceExportResponse = z.unknown().describe('the .xlsx file');

export const attendanceDayRequest = z.object({ DeviceId: id, FenceId: id, Day: dayField });
export const attendanceDayResponse = ok({
  Row: attendanceRowSchema,
  /** The owner's time zone offset, minutes east of UTC. */
  TimeZoneOffset: z.number(),
  /** Inside/outside over the day (ISO bounds; the last may end now for today). Unknown before the first position. */
  Intervals: z.array(z.object({ Start: z.string(), End: z.string(), State: z.enum(['inside', 'outside', 'unknown']) })),
  /** The schedule's windows that start on this day (ISO bounds), empty without a schedule. */
  Windows: z.array(z.object({ Start: z.string(), End: z.string() })),
});

export const accountFenceSchemas = {
  '/Geofence/CreateGeofence': { request: createAccountFenceRequest, response: accountFenceResponse },
  '/Geofence/EditGeofence': { request: editAccountFenceRequest, response: accountFenceResponse },
  '/Geofence/addGeofenceMonitor': { request: createDrawnFenceRequest, response: accountFenceResponse },
  '/Geofence/addGeofenceMonitorXingzheng': { request: createDistrictFenceRequest, response: accountFenceResponse },
  '/Geofence/updateGeofenceMonitorCustom': { request: editDrawnFenceRequest, response: accountFenceResponse },
  '/Geofence/updateMonitorGeofence': { request: editFenceWatchRequest, response: accountFenceResponse },
  /** Failures name the fence id (in the batch result's Imei field). */
  '/Geofence/addMonitorFences': { request: addFenceAccountsRequest, response: batchResultResponse },
  '/Geofence/DelGeofenceByUserCustom': { request: deleteAccountFencesRequest, response: batchResultResponse },
  '/AccountFence/List': { request: accountFenceListRequest, response: accountFenceListResponse },
  '/device/fenceMonitorByChildUserId': { request: fenceMonitorRequest, response: fenceMonitorResponse },
  '/AccountFence/Attendance': { request: attendanceRequest, response: attendanceResponse },
  '/AccountFence/AttendanceDay': { request: attendanceDayRequest, response: attendanceDayResponse },
  '/AccountFence/AttendanceExport': { request: attendanceExportRequest, response: attendanceExportResponse },
};

/** Published on the bus when a device enters or leaves an account fence (the alarm engine's source). */
export const ACCOUNT_FENCE_TRANSITION_TOPIC = 'account-fence.transition';
/** Published (cluster-wide) when account fences change, so every engine reloads them. */
export const ACCOUNT_FENCES_CHANGED_TOPIC = 'account-fences.changed';
