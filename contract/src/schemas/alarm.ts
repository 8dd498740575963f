// Schemas of the Alarm area (ExceptionMessage calls): alarm types, records, thresholds, per-user
// alarm settings and alarm contacts (SPEC §3, §4, §5, §7).
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { flag } from '../commands.js';
import { EMAIL, IMEI, PHONE } from '../rules.js';
import { scheduleSchema } from './account-fence.js';
import { dateInput, float, id, int, num as numberIn, optionalDate, optionalId, requiredText, text } from './common.js';

const num = z.number().nullable();
const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
/** Alarm type threshold values (heart rate, temperature ...): far beyond any measure, never beyond a column. */
const THRESHOLD_VALUE = 1_000_000;

// ---- alarm types -------------------------------------------------------------------------------
export const alarmTypeSchema = z.object({
  Id: z.number(),
  Code: z.number(),
  NameZh: z.string(),
  NameEn: z.string(),
  DescriptionZh: z.string(),
  DescriptionEn: z.string(),
  /** Name and description in the caller's language (zh-TW: the traditional form of the Chinese texts). */
  Name: z.string(),
  Description: z.string(),
  Category: z.string(),
  /** 1 normal, 2 important, 3 severe. */
  Level: z.number(),
  MinValue: num,
  MaxValue: num,
  /** 1 keep ringing, 2 a few sounds, 3 silent. */
  RingType: z.number(),
  /** 1 shown as a pop-up on the consoles, 2 not. */
  PagePush: z.number(),
  /** 1 enabled, 2 invalid (no alarms of this type are raised). */
  Enabled: z.number(),
});
export type AlarmType = z.infer<typeof alarmTypeSchema>;

export const alarmTypeListRequest = z.object({
  ...pageRequest,
  Keyword: text(64).optional(),
  Level: z.preprocess(blankToUndefined, int(1, 3).optional()),
  Enabled: z.preprocess(blankToUndefined, int(1, 2).optional()),
});
export const alarmTypeListResponse = pageOf(alarmTypeSchema);
export const alarmTypeOptionsResponse = ok({ Items: z.array(alarmTypeSchema) });

const level = int(1, 3, 'alarm.levelRequired');
const ring = int(1, 3, 'alarm.ringRequired');
const flag12Of = (key: string) => int(1, 2, key);

/** SPEC §5 "Alarm: type, level, ring mode, push and threshold required; minimum below maximum". */
export const saveAlarmTypeRequest = z
  .object({
    Id: optionalId,
    Code: int(1, 9999, 'validation.numberRequired'),
    NameZh: requiredText('alarm.nameRequired', 64),
    NameEn: requiredText('alarm.nameRequired', 64),
    DescriptionZh: text(256).default(''),
    DescriptionEn: text(256).default(''),
    Category: z.enum(['sos', 'health', 'fence', 'device']).default('device'),
    Level: level,
    MinValue: numberIn(-THRESHOLD_VALUE, THRESHOLD_VALUE).nullable().default(null),
    MaxValue: numberIn(-THRESHOLD_VALUE, THRESHOLD_VALUE).nullable().default(null),
    RingType: ring,
    PagePush: flag12Of('alarm.pushRequired'),
    Enabled: flag12Of('validation.required').default(1),
  })
  .refine((v) => (v.MinValue === null) === (v.MaxValue === null), { path: ['MaxValue'], error: 'validation.thresholdBoth' })
  .refine((v) => v.MinValue === null || v.MaxValue === null || v.MinValue < v.MaxValue, { path: ['MinValue'], error: 'validation.minBelowMax' });

export const alarmIdRequest = z.object({ Id: id });

// ---- the alarm's life -------------------------------------------------------------------------
/**
 * open: raised, nobody acknowledged it; acknowledged: someone took it (the console's "confirm");
 * resolved: closed by a person with a cause; cleared: the platform saw the condition end (after an
 * acknowledgement, or before one: clearedUnacknowledged, kept visible as such).
 */
export const ALARM_STATES = ['open', 'acknowledged', 'resolved', 'cleared', 'clearedUnacknowledged'] as const;
export type AlarmState = (typeof ALARM_STATES)[number];
/** Why an alarm was resolved: keys rendered in the reader's language. */
export const ALARM_RESOLVE_CAUSES = ['handled', 'falseAlarm', 'test', 'deviceFault', 'other'] as const;
export type AlarmResolveCause = (typeof ALARM_RESOLVE_CAUSES)[number];
/** What a timeline holds. */
export const ALARM_EVENT_KINDS = ['raised', 'repeated', 'acknowledged', 'assigned', 'comment', 'resolved', 'cleared', 'notified', 'escalated'] as const;
/**
 * What became of one send of an escalation step (an `escalated` event's `status`): delivered (queued
 * for its channel), held back by the contact's quiet hours, or failed (refused: no message service,
 * no partner ...; `error` is the reason's message key).
 */
export const ESCALATION_SEND_STATUSES = ['sent', 'held', 'failed'] as const;
export type EscalationSendStatus = (typeof ESCALATION_SEND_STATUSES)[number];
export const ALARM_NOTE_MAX = 500;

export const resolveAlarmRequest = z.object({
  Id: id,
  Cause: z.enum(ALARM_RESOLVE_CAUSES, { error: 'alarm.causeRequired' }),
  Note: text(ALARM_NOTE_MAX).default(''),
});
export const assignAlarmRequest = z.object({
  Id: id,
  /** The account to handle it: the alarm's account or one above it; null takes the assignment back. */
  AssigneeId: id.nullable(),
});
export const commentAlarmRequest = z.object({
  Id: id,
  Text: requiredText('alarm.commentRequired', ALARM_NOTE_MAX),
});
export const alarmEventSchema = z.object({
  Id: z.number(),
  /** In the viewer's zone. */
  At: z.string(),
  Kind: z.string(),
  /** Login name of who did it; null for the platform. */
  Actor: z.string().nullable(),
  Params: z.record(z.string(), z.unknown()),
});
export type AlarmEvent = z.infer<typeof alarmEventSchema>;
export const alarmTimelineResponse = ok({ Items: z.array(alarmEventSchema) });
export const alarmAssigneesResponse = ok({ Items: z.array(z.object({ Id: z.number(), Name: z.string() })) });

// ---- alarm records -----------------------------------------------------------------------------
export const alarmRecordSchema = z.object({
  Id: z.number(),
  Type: z.number(),
  DeviceId: z.number(),
  Imei: z.string(),
  DeviceName: z.string(),
  AccountId: z.number(),
  AccountName: z.string(),
  Model: z.string(),
  /** 0 unconfirmed, 1 confirmed. */
  Status: z.number(),
  Remark: z.string(),
  /** What happened, in the server's words for the type (fence name, measured value ...). */
  /** The content in the caller's language; `MessageKey` and `MessageParams` are what is stored. */
  Message: z.string(),
  MessageKey: z.string(),
  MessageParams: z.record(z.string(), z.unknown()),
  Value: num,
  Lat: num,
  Lon: num,
  /** How many times it was raised while unconfirmed (repeated SOS frames). */
  Count: z.number(),
  /** First raised. */
  Created: z.string(),
  /** Last raised. */
  LastTime: z.string(),
  ConfirmedAt: z.string().nullable(),
  /** Login name of the account that confirmed it (null while unconfirmed). */
  ConfirmedBy: z.string().nullable(),
  /** Where it is in its life (ALARM_STATES): confirming is acknowledging. */
  State: z.enum(['open', 'acknowledged', 'resolved', 'cleared', 'clearedUnacknowledged']),
  ResolvedAt: z.string().nullable(),
  ResolvedBy: z.string().nullable(),
  /** A key of ALARM_RESOLVE_CAUSES. */
  ResolveCause: z.string().nullable(),
  ResolveNote: z.string(),
  /** When the platform saw the condition end. */
  ClearedAt: z.string().nullable(),
  AssigneeId: z.number().nullable(),
  AssigneeName: z.string().nullable(),
});
export type AlarmRecord = z.infer<typeof alarmRecordSchema>;

const typeFilter = z.preprocess(
  (v) => (v === '' || v === null ? undefined : typeof v === 'number' || typeof v === 'string' ? [v] : v),
  z.array(int(0, 9999)).max(1000).optional(),
);

export const alarmRecordFilter = {
  StartTime: optionalDate,
  EndTime: optionalDate,
  Type: typeFilter,
  /** 0 unconfirmed, 1 confirmed. */
  Status: z.preprocess(blankToUndefined, int(0, 1).optional()),
  DeviceId: optionalId,
  /** Whole IMEI, or a part of it, or of the device name. */
  Imei: text(64).optional(),
  /** An account of the caller's subtree: its alarms and those of the accounts below it. */
  AccountId: optionalId,
  /** Where the alarms are in their life; "cleared" takes both cleared states. */
  State: z.preprocess(blankToUndefined, z.enum(ALARM_STATES).optional()),
  /** Only the alarms assigned to this account. */
  AssigneeId: optionalId,
};
export const alarmRecordPageRequest = z.object({ ...pageRequest, ...alarmRecordFilter });
export const alarmRecordPageResponse = pageOf(alarmRecordSchema);

/**
 * Confirms unconfirmed alarms with a remark: the listed ones (Ids), or all of today's of one device
 * (DeviceId or Imei), or all of today's of the caller's subtree, which must be asked for explicitly
 * (AllToday: true). A body that names none of these confirms nothing: an empty request is refused.
 */
export const confirmAlarmsRequest = z
  .object({
    Remark: text(500).default(''),
    Ids: z.array(id).max(1000, { error: 'validation.tooMany' }).optional(),
    /** Confirm every unconfirmed alarm of today of the caller's subtree (or of the device named). */
    AllToday: z.boolean().optional(),
    /** Only this device's alarms (of the caller's subtree). */
    DeviceId: optionalId,
    /** Only the alarms of the device with this whole IMEI (of the caller's subtree). */
    Imei: z.preprocess((v) => (v === '' || v === null ? undefined : v), z.string().trim().regex(IMEI, { error: 'validation.imeiInvalid' }).optional()),
    /** Start of "today" in the caller's time zone; default: the account's local midnight. */
    Since: dateInput.optional(),
  })
  .refine((v) => Boolean(v.Ids?.length) || v.DeviceId !== undefined || v.Imei !== undefined || v.AllToday === true, {
    path: ['AllToday'],
    error: 'alarm.confirmScopeRequired',
  });
export const confirmAlarmsResponse = ok({ Count: z.number() });

export const confirmAlarmRequest = z.object({
  Id: id,
  Remark: text(500).default(''),
});

// ---- thresholds --------------------------------------------------------------------------------
/** A bound: a number in range, null (empty: not checked), or absent (keep the value in force). */
const bounded = (min: number, max: number) =>
  z.preprocess(
    (v) => (v === '' ? null : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v),
    float(z.number({ error: 'validation.number' }).refine((v) => v >= min && v <= max, { error: 'validation.thresholdRange', params: { min, max } }))
      .nullable()
      .optional(),
  );
/**
 * Platform-side limits. The device-side threshold commands keep SPEC §5's narrower ranges; the
 * platform's blood pressure bounds go above 100 mmHg because its default systolic limit is 140.
 */
export const THRESHOLD_LIMITS = {
  heartRate: { min: 20, max: 200 },
  bloodPressure: { min: 20, max: 250 },
  temperature: { min: 16, max: 60 },
  bloodOxygen: { min: 80, max: 100 },
  /** km/h. */
  speed: { min: 1, max: 400 },
  /** Minutes without motion. */
  noMotionMinutes: { min: 5, max: 1440 },
} as const;
const L = THRESHOLD_LIMITS;
export const thresholdsSchema = z.object({
  heartRateMin: bounded(L.heartRate.min, L.heartRate.max),
  heartRateMax: bounded(L.heartRate.min, L.heartRate.max),
  systolicMin: bounded(L.bloodPressure.min, L.bloodPressure.max),
  systolicMax: bounded(L.bloodPressure.min, L.bloodPressure.max),
  diastolicMin: bounded(L.bloodPressure.min, L.bloodPressure.max),
  diastolicMax: bounded(L.bloodPressure.min, L.bloodPressure.max),
  bodyTempMax: bounded(L.temperature.min, L.temperature.max),
  wristTempMax: bounded(L.temperature.min, L.temperature.max),
  bloodOxygenMin: bounded(L.bloodOxygen.min, L.bloodOxygen.max),
  speedLimit: bounded(L.speed.min, L.speed.max),
  noMotionMinutes: z.preprocess((v) => (v === '' ? null : v), int(L.noMotionMinutes.min, L.noMotionMinutes.max).nullable().optional()),
  noMotionSchedule: scheduleSchema.nullable().optional(),
});
const pairs = [
  ['heartRateMin', 'heartRateMax'],
  ['systolicMin', 'systolicMax'],
  ['diastolicMin', 'diastolicMax'],
] as const;

export const thresholdTarget = {
  /** A device of the caller's subtree; without it the thresholds are the account's. */
  DeviceId: optionalId,
  Imei: text(15).optional(),
  AccountId: optionalId,
};
export const thresholdRequest = z.object(thresholdTarget);
export const thresholdResponse = ok({
  /** The thresholds in force. */
  Item: z.object({
    heartRateMin: num,
    heartRateMax: num,
    systolicMin: num,
    systolicMax: num,
    diastolicMin: num,
    diastolicMax: num,
    bodyTempMax: num,
    wristTempMax: num,
    bloodOxygenMin: num,
    speedLimit: num,
    noMotionMinutes: num,
    noMotionSchedule: z.object({ Days: z.array(z.number()), Windows: z.array(z.object({ Start: z.string(), End: z.string() })) }).nullable(),
  }),
  /** Where they come from: device, account, ancestor or default. */
  Source: z.enum(['device', 'account', 'ancestor', 'default']),
});
export const saveThresholdRequest = z
  .object({
    ...thresholdTarget,
    ...thresholdsSchema.shape,
    /** Drop the own values, so the thresholds are inherited again. */
    Inherit: flag.optional(),
  })
  .superRefine((v, ctx) => {
    for (const [lo, hi] of pairs) {
      const a = v[lo];
      const b = v[hi];
      if (typeof a === 'number' && typeof b === 'number' && a >= b) ctx.addIssue({ code: 'custom', path: [lo], message: 'validation.minBelowMax' });
    }
  });

// ---- per-user alarm settings (pop-ups) ---------------------------------------------------------
export const alarmSettingSchema = z.object({
  Id: z.number(),
  UserId: z.number(),
  ExceptionTypeId: z.number(),
  /** The type's code, for the pop-ups which receive codes. */
  Code: z.number(),
  /** 1 pop-up on for new alarms of this type, 2 off. */
  NewState: z.number(),
  /** 1 no auto-close, 2 auto-close, 3 ring. */
  RingType: z.number(),
  /** 1 valid. */
  State: z.number(),
});
export type AlarmSetting = z.infer<typeof alarmSettingSchema>;
export const alarmSettingsRequest = z.object({ UserId: optionalId });
export const alarmSettingsResponse = ok({ Items: z.array(alarmSettingSchema) });
export const saveAlarmSettingRequest = z.object({
  Id: optionalId,
  UserId: optionalId,
  ExceptionTypeId: id,
  NewState: flag12Of('validation.required').default(1),
  RingType: ring,
});
export const saveAlarmSettingResponse = ok({ Id: z.number() });

// ---- alarm contacts ----------------------------------------------------------------------------
/** A time of day for quiet hours: HH:mm, 00:00-23:59, or '' for none. */
const QUIET_TIME = /^(?:(?:[01]\d|2[0-3]):[0-5]\d)?$/;

export const alarmContactSchema = z.object({
  Id: z.number(),
  UserId: z.number(),
  Name: z.string(),
  Phone: z.string(),
  Email: z.string(),
  /** 1 on, 2 off. */
  NotifySms: z.number(),
  NotifyEmail: z.number(),
  /** Alarm type codes to tell; empty means all. */
  Types: z.array(z.number()),
  /** Quiet hours, HH:mm in the contact's account zone ('' for none): escalation holds the contact's texts and mails then, except for SOS and falls. */
  QuietFrom: z.string(),
  QuietTo: z.string(),
  Created: z.string(),
});
export type AlarmContact = z.infer<typeof alarmContactSchema>;
export const alarmContactsRequest = z.object({ UserId: optionalId });
export const alarmContactsResponse = ok({ Items: z.array(alarmContactSchema) });
export const saveAlarmContactRequest = z
  .object({
    Id: optionalId,
    UserId: optionalId,
    Name: requiredText('alarm.contactNameRequired', 64),
    Phone: text(32).regex(new RegExp(`^(${PHONE.source.slice(1, -1)})?$`), { error: 'validation.phoneInvalid' }).default(''),
    Email: text(128).regex(new RegExp(`^(${EMAIL.source.slice(1, -1)})?$`), { error: 'validation.emailInvalid' }).default(''),
    NotifySms: flag12Of('validation.required').default(1),
    NotifyEmail: flag12Of('validation.required').default(1),
    Types: z.array(int(1, 9999)).max(1000).default([]),
    QuietFrom: text(5).regex(QUIET_TIME, { error: 'alarm.quietTimeInvalid' }).default(''),
    QuietTo: text(5).regex(QUIET_TIME, { error: 'alarm.quietTimeInvalid' }).default(''),
  })
  .refine((v) => v.Phone !== '' || v.Email !== '', { path: ['Phone'], error: 'alarm.contactNeedsPhoneOrEmail' })
  .refine((v) => (v.QuietFrom === '') === (v.QuietTo === ''), { path: ['QuietTo'], error: 'alarm.quietBoth' })
  .refine((v) => v.QuietFrom === '' || v.QuietFrom !== v.QuietTo, { path: ['QuietTo'], error: 'alarm.quietSame' });

/** Minutes after midnight of an HH:mm quiet-hours time, null for ''. */
export const quietMinutes = (hhmm: string): number | null => (hhmm ? Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5)) : null);
/** The HH:mm of minutes after midnight, '' for null. */
export const quietText = (minutes: number | null): string =>
  minutes === null ? '' : `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
export const alarmSaveIdResponse = ok({ Id: z.number() });

export const alarmSchemas = {
  '/ExceptionMessage/ExceptionType': { request: alarmTypeListRequest, response: alarmTypeListResponse },
  '/ExceptionMessage/ExcdeptionListWhitoutCode': { request: z.object({}), response: alarmTypeOptionsResponse },
  '/ExceptionMessage/saveExceptionType': { request: saveAlarmTypeRequest, response: alarmSaveIdResponse },
  '/ExceptionMessage/DeleteExceptionType': { request: alarmIdRequest, response: ok({}) },
  '/ExceptionMessage/allExceptionMsgPage': { request: alarmRecordPageRequest, response: alarmRecordPageResponse },
  '/ExceptionMessage/UpdateExceptionMessageStatus': { request: confirmAlarmsRequest, response: confirmAlarmsResponse },
  '/ExceptionMessage/updateExceptionByID': { request: confirmAlarmRequest, response: ok({}) },
  '/ExceptionMessage/allExceptionThreshold': { request: thresholdRequest, response: thresholdResponse },
  '/ExceptionMessage/actionThresholdValue': { request: saveThresholdRequest, response: thresholdResponse },
  '/ExceptionMessage/AlarmRulesByUserId': { request: alarmSettingsRequest, response: alarmSettingsResponse },
  '/ExceptionMessage/saveAlarmRules': { request: saveAlarmSettingRequest, response: saveAlarmSettingResponse },
  '/ExceptionMessage/DeleteAlarmSetById': { request: alarmIdRequest, response: ok({}) },
  '/ExceptionMessage/AlarmContactPersonByUserId': { request: alarmContactsRequest, response: alarmContactsResponse },
  '/ExceptionMessage/actionForAlarmContactPeople': { request: saveAlarmContactRequest, response: alarmSaveIdResponse },
  '/ExceptionMessage/DeleteAlarmContactPerson': { request: alarmIdRequest, response: ok({}) },
  '/AlarmRecord/Resolve': { request: resolveAlarmRequest, response: ok({}) },
  '/AlarmRecord/Assign': { request: assignAlarmRequest, response: ok({}) },
  '/AlarmRecord/Comment': { request: commentAlarmRequest, response: ok({}) },
  '/AlarmRecord/Timeline': { request: alarmIdRequest, response: alarmTimelineResponse },
  '/AlarmRecord/Assignees': { request: alarmIdRequest, response: alarmAssigneesResponse },
} as const;
