// Reports computed from the stored history (console area /report): trips and stops of a device or a
// group, a summary per device per day of the viewer's zone, and the alarms of a period. Every call reads
// only the devices and alarms of the caller's subtree (a group or device outside it answers "not found").
//
// - /Report/Trips        trips and stops of a device, or of the devices of a group, over a period.
// - /Report/Summary      per device and day: distance, moving and stopped time, max speed, first and
//                        last position, alarms, health extremes (paged by device).
// - /Report/Alarms       alarm counts per type, device and day; time to confirm (p50/p90).
// - /Report/Export       one of these as a spreadsheet (streamed).
// - /Report/Settings     the thresholds of trips and stops in force for an account: its own, those it
//                        inherits (the nearest account above that set each), the built-in defaults.
// - /Report/SaveSettings an administrator sets an account's thresholds (null: follow the level above).
// - /Report/Subscriptions, /Report/SubscriptionSave, /Report/SubscriptionDelete
//                        the caller's scheduled reports: one report of a device, a group or its
//                        subtree, mailed daily, weekly or monthly (the period just ended, in the
//                        caller's language and zone, as a spreadsheet).
import { z } from 'zod';
import { ok, okEmpty, pageRequest } from '../envelope.js';
import { dayField } from './account-fence.js';
import { EMAIL } from '../rules.js';
import { id, int, num, optionalId, text } from './common.js';

/** Longest period of a report, in days. */
export const MAX_REPORT_DAYS = 31;
/** Most devices of a group in one trips report. */
export const MAX_TRIP_DEVICES = 100;

/** Who the report is about: a device (DeviceId or Imei), a group, or (summary, alarms) every device of an account's subtree. */
const subject = {
  /** Whose devices: the caller by default. */
  UserId: optionalId,
  GroupId: optionalId,
  DeviceId: optionalId,
  Imei: text(15).optional(),
};
/** The period as days of the viewer's zone, both included. */
const period = { From: dayField, To: dayField };
function checkPeriod(v: { From: string; To: string }, ctx: z.RefinementCtx) {
  const days = (Date.parse(v.To) - Date.parse(v.From)) / 86_400_000;
  if (days < 0) ctx.addIssue({ code: 'custom', path: ['To'], message: 'report.rangeReversed' });
  else if (days + 1 > MAX_REPORT_DAYS) ctx.addIssue({ code: 'custom', path: ['To'], message: 'report.rangeMax', params: { max: MAX_REPORT_DAYS } });
}
/** Limits of each threshold of trips and stops (a request's and an account's setting alike). */
export const REPORT_THRESHOLD_LIMITS = {
  /** A stop lasts at least this many minutes. */
  StopMinutes: [1, 24 * 60],
  /** Its fixes stay within this many metres of its centre. */
  StopRadius: [10, 5000],
  /** And report no speed above this (km/h). */
  StopSpeed: [0, 100],
  /** A gap in the fixes longer than this (minutes) ends a trip. */
  GapMinutes: [1, 24 * 60],
  /** Trips shorter than this (metres) are dropped. */
  MinTripMeters: [0, 100_000],
} as const;
export const REPORT_THRESHOLD_KEYS = ['StopMinutes', 'StopRadius', 'StopSpeed', 'GapMinutes', 'MinTripMeters'] as const;
export type ReportThresholdKey = (typeof REPORT_THRESHOLD_KEYS)[number];
const threshold = (k: ReportThresholdKey) => num(REPORT_THRESHOLD_LIMITS[k][0], REPORT_THRESHOLD_LIMITS[k][1]);
/**
 * Thresholds of trips and stops; a request that gives none takes the caller's account's (its own or
 * inherited, /Report/Settings), else the built-in defaults (docs/configuration.md, "Reports").
 */
const thresholds = Object.fromEntries(REPORT_THRESHOLD_KEYS.map((k) => [k, threshold(k).optional()])) as Record<
  ReportThresholdKey,
  z.ZodOptional<ReturnType<typeof threshold>>
>;

export const tripsRequest = z.object({ ...subject, ...period, ...thresholds }).superRefine(checkPeriod);
const place = { Lat: z.number(), Lon: z.number(), Address: z.string() };
export const tripSchema = z.object({
  /** ISO instants. */
  Start: z.string(),
  End: z.string(),
  StartPlace: z.object(place),
  EndPlace: z.object(place),
  /** Metres. */
  Distance: z.number(),
  Minutes: z.number(),
  /** km/h. */
  MaxSpeed: z.number(),
  AvgSpeed: z.number(),
});
export const reportStopSchema = z.object({ Start: z.string(), End: z.string(), Minutes: z.number(), ...place });
export const tripsResponse = ok({
  Devices: z.array(
    z.object({
      DeviceId: z.number(),
      Imei: z.string(),
      Name: z.string(),
      Trips: z.array(tripSchema),
      Stops: z.array(reportStopSchema),
    }),
  ),
});

export const summaryRequest = z.object({ ...pageRequest, ...subject, ...period, ...thresholds }).superRefine(checkPeriod);
const fix = z.object({ Time: z.string(), Lat: z.number(), Lon: z.number() }).nullable();
const extreme = z.object({ Min: z.number(), Max: z.number() }).nullable();
export const summaryRowSchema = z.object({
  DeviceId: z.number(),
  Imei: z.string(),
  Name: z.string(),
  /** YYYY-MM-DD in the viewer's zone. */
  Day: z.string(),
  Distance: z.number(),
  MovingMinutes: z.number(),
  StoppedMinutes: z.number(),
  MaxSpeed: z.number(),
  First: fix,
  Last: fix,
  Alarms: z.number(),
  /** Health extremes of the day, null where the device measured none. */
  HeartRate: extreme,
  BloodOxygen: extreme,
  BodyTemp: extreme,
  Systolic: extreme,
});
export type SummaryRow = z.infer<typeof summaryRowSchema>;
/** Total counts devices; Items holds the days of the page's devices. */
export const summaryResponse = ok({ Total: z.number(), Items: z.array(summaryRowSchema) });

export const alarmsReportRequest = z.object({ ...subject, ...period }).superRefine(checkPeriod);
const percentiles = { ConfirmedCount: z.number(), P50Minutes: z.number().nullable(), P90Minutes: z.number().nullable() };
export const alarmsReportResponse = ok({
  Total: z.number(),
  ...percentiles,
  ByType: z.array(z.object({ Type: z.number(), Name: z.string(), Count: z.number(), ...percentiles })),
  ByDevice: z.array(z.object({ DeviceId: z.number(), Imei: z.string(), Name: z.string(), Count: z.number() })),
  ByDay: z.array(z.object({ Day: z.string(), Count: z.number() })),
  /** Per day of the viewer's zone and type (days and types without alarms left out). */
  ByTypeDay: z.array(z.object({ Day: z.string(), Type: z.number(), Count: z.number() })),
});

export const REPORT_KINDS = ['trips', 'stops', 'summary', 'alarms'] as const;
export const reportExportRequest = z
  .object({ Report: z.enum(REPORT_KINDS), ...subject, ...period, ...thresholds, Top: int(1, 1000).optional() })
  .superRefine(checkPeriod);
export const reportExportResponse = z.unknown().describe('the .xlsx file');

export const reportThresholdsSchema = z.object({ StopMinutes: z.number(), StopRadius: z.number(), StopSpeed: z.number(), GapMinutes: z.number(), MinTripMeters: z.number() });
export type ReportThresholds = z.infer<typeof reportThresholdsSchema>;
/** An account's own setting: a value, or null to follow the level above. */
export const reportSettingSchema = z.object({
  StopMinutes: z.number().nullable(),
  StopRadius: z.number().nullable(),
  StopSpeed: z.number().nullable(),
  GapMinutes: z.number().nullable(),
  MinTripMeters: z.number().nullable(),
});
export type ReportSetting = z.infer<typeof reportSettingSchema>;
export const reportSettingsRequest = z.object({ UserId: optionalId });
export const reportSettingsResponse = ok({
  UserId: z.number(),
  /** What the account set itself (null: follows the level above). */
  Own: reportSettingSchema,
  /** What it would follow without its own setting, and what is in force. */
  Inherited: reportThresholdsSchema,
  Effective: reportThresholdsSchema,
  BuiltIn: reportThresholdsSchema,
  /** Whether the caller may change it (an administrator of a subtree holding the account). */
  Editable: z.boolean(),
});
const settingField = (k: ReportThresholdKey) => z.preprocess((v) => (v === '' || v === undefined ? null : v), threshold(k).nullable());
export const saveReportSettingsRequest = z.object({
  UserId: optionalId,
  ...(Object.fromEntries(REPORT_THRESHOLD_KEYS.map((k) => [k, settingField(k)])) as Record<ReportThresholdKey, ReturnType<typeof settingField>>),
});
export type SaveReportSettingsBody = z.infer<typeof saveReportSettingsRequest>;


/** How often a scheduled report is mailed: the day, the week (Monday to Sunday) or the month just ended. */
export const REPORT_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ReportFrequency = (typeof REPORT_FREQUENCIES)[number];
/** Most scheduled reports one account keeps. */
export const MAX_REPORT_SUBSCRIPTIONS = 20;
export const reportSubscriptionSchema = z.object({
  Id: z.number(),
  Report: z.enum(REPORT_KINDS),
  Frequency: z.enum(REPORT_FREQUENCIES),
  Email: z.string(),
  UserId: z.number().nullable(),
  GroupId: z.number().nullable(),
  DeviceId: z.number().nullable(),
  /** What the report is about, as the list shows it (a device's or group's name, else the account's login). */
  Subject: z.string(),
  Enabled: z.boolean(),
  /** Viewer-zone times: the next mailing, the last one ('' before the first). */
  NextAt: z.string(),
  LastSentAt: z.string(),
  /** The period of the last mailing ('From – To', days), and why the last attempt failed (a message). */
  LastPeriod: z.string(),
  LastError: z.string(),
});
export type ReportSubscription = z.infer<typeof reportSubscriptionSchema>;
export const reportSubscriptionsRequest = z.object({});
export const reportSubscriptionsResponse = ok({ Items: z.array(reportSubscriptionSchema) });
export const reportSubscriptionSaveRequest = z.object({
  Id: optionalId,
  Report: z.enum(REPORT_KINDS, { error: 'report.kindInvalid' }),
  Frequency: z.enum(REPORT_FREQUENCIES, { error: 'report.frequencyInvalid' }),
  Email: text(128).regex(EMAIL, { error: 'validation.emailInvalid' }),
  ...subject,
  Enabled: z.boolean().default(true),
});
export const reportSubscriptionSaveResponse = ok({ Item: reportSubscriptionSchema });
export const reportSubscriptionDeleteRequest = z.object({ Id: id });

export const reportSchemas = {
  '/Report/Settings': { request: reportSettingsRequest, response: reportSettingsResponse },
  '/Report/SaveSettings': { request: saveReportSettingsRequest, response: reportSettingsResponse },
  '/Report/Trips': { request: tripsRequest, response: tripsResponse },
  '/Report/Summary': { request: summaryRequest, response: summaryResponse },
  '/Report/Alarms': { request: alarmsReportRequest, response: alarmsReportResponse },
  '/Report/Export': { request: reportExportRequest, response: reportExportResponse },
  '/Report/Subscriptions': { request: reportSubscriptionsRequest, response: reportSubscriptionsResponse },
  '/Report/SubscriptionSave': { request: reportSubscriptionSaveRequest, response: reportSubscriptionSaveResponse },
  '/Report/SubscriptionDelete': { request: reportSubscriptionDeleteRequest, response: okEmpty },
};
