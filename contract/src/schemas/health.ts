// Schemas of the Health area: the readings list, a device's series for the detail charts, and
// which devices and days have data (SPEC §3 "Health readings", §7 Health calls).
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { dateInput, optionalDate, optionalId, text } from './common.js';
import { alarmRecordSchema, thresholdResponse } from './alarm.js';

const num = z.number().nullable();

export const healthReadingSchema = z.object({
  DeviceId: z.number(),
  Imei: z.string(),
  DeviceName: z.string(),
  AccountName: z.string(),
  Time: z.string(),
  HeartRate: num,
  Systolic: num,
  Diastolic: num,
  BodyTemp: num,
  WristTemp: num,
  BloodOxygen: num,
  Hrv: num,
  Steps: num,
  /** metres */
  Distance: num,
  /** kcal */
  Calories: num,
  Uv: num,
  /** PHO (PPG signal level) and IR (infrared wear sensor level), 0-100. */
  Pho: num,
  Ir: num,
  /** Minutes per stage when the reading carries sleep. */
  Sleep: z.array(z.object({ stage: z.enum(['awake', 'light', 'deep']), minutes: z.number() })).nullable(),
});
export type HealthReadingRow = z.infer<typeof healthReadingSchema>;

export const healthFilter = {
  StartTime: optionalDate,
  EndTime: optionalDate,
  DeviceId: optionalId,
  /** Whole IMEI, or part of it or of the device name. */
  Imei: text(64).optional(),
  AccountId: optionalId,
  /** Only readings that carry this measure. */
  Kind: z.enum(['heartRate', 'bloodPressure', 'temperature', 'bloodOxygen', 'steps', 'sleep']).optional(),
};
export const healthPageRequest = z.object({ ...pageRequest, ...healthFilter });
export const healthPageResponse = pageOf(healthReadingSchema);

/** A device's readings over a range, for the detail charts; `Bucket` averages per hour or day. */
export const healthSeriesRequest = z.object({
  DeviceId: optionalId,
  Imei: text(15).optional(),
  StartTime: dateInput,
  EndTime: dateInput,
  Bucket: z.enum(['raw', 'hour', 'day']).default('raw'),
});
export const sleepNightSchema = z.object({
  /** The date the night ends on (yyyy-mm-dd). */
  Night: z.string(),
  Awake: z.number(),
  Light: z.number(),
  Deep: z.number(),
});
export const healthSeriesResponse = ok({
  Device: z.object({ DeviceId: z.number(), Imei: z.string(), DeviceName: z.string(), Model: z.string(), AccountName: z.string() }),
  Items: z.array(healthReadingSchema),
  Sleep: z.array(sleepNightSchema),
  Thresholds: thresholdResponse.shape.Item,
  /** The device's health alarms in the range, for the same time axis. */
  Alarms: z.array(alarmRecordSchema),
});

export const healthHasDataForDeviceRequest = z.object({
  DeviceId: optionalId,
  Imei: text(15).optional(),
  StartTime: optionalDate,
  EndTime: optionalDate,
});
export const healthHasDataForDeviceResponse = ok({
  HasData: z.boolean(),
  /** Days (yyyy-mm-dd, server time) with at least one reading. */
  Days: z.array(z.string()),
  LastTime: z.string().nullable(),
});

export const healthHasDataForUsersRequest = z.object({ AccountId: optionalId, Keyword: text(64).optional() });
export const healthHasDataForUsersResponse = ok({
  Items: z.array(
    z.object({ DeviceId: z.number(), Imei: z.string(), DeviceName: z.string(), AccountName: z.string(), LastTime: z.string().nullable() }),
  ),
});

export const healthSchemas = {
  '/health/GetHealth2': { request: healthSeriesRequest, response: healthSeriesResponse },
  '/Device/allHealthDataPage': { request: healthPageRequest, response: healthPageResponse },
  '/health/HealthHasDataForDevice': { request: healthHasDataForDeviceRequest, response: healthHasDataForDeviceResponse },
  '/health/HealthHasDataForUsers': { request: healthHasDataForUsersRequest, response: healthHasDataForUsersResponse },
} as const;
