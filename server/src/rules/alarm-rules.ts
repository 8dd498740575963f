// The pure part of the alarm engine: which alarm a device report or a health reading means, and
// which thresholds apply. No I/O, so every boundary is unit-tested.
import { ALARM_CODES, DEFAULT_THRESHOLDS, THRESHOLD_FIELDS, type HealthThresholds } from '@wt/contract';
import type { AlarmKind, HealthReading } from '@wt/protocols';

/** Alarm code of an alarm the device itself reported; null for kinds that raise no alarm. */
export function codeOfDeviceAlarm(kind: AlarmKind): number | null {
  switch (kind) {
    case 'sos':
      return ALARM_CODES.sos;
    case 'fall':
      return ALARM_CODES.fall;
    case 'removal':
      return ALARM_CODES.removal;
    case 'lowBattery':
      return ALARM_CODES.lowBattery;
    case 'powerOff':
    case 'powerCut':
      return ALARM_CODES.powerOff;
    // Trackers with fences of their own (GT06) report crossings themselves.
    case 'fenceIn':
      return ALARM_CODES.deviceFenceIn;
    case 'fenceOut':
      return ALARM_CODES.deviceFenceOut;
    default:
      return null;
  }
}

/** i18n key of the record's description for a device-reported alarm. */
export function messageOfDeviceAlarm(kind: AlarmKind): string {
  switch (kind) {
    case 'fenceIn':
      return 'alarm.msg.fenceIn';
    case 'fenceOut':
      return 'alarm.msg.fenceOut';
    case 'powerCut':
      return 'alarm.msg.powerOff';
    default:
      return `alarm.msg.${kind}`;
  }
}

export type Measure = 'heartRate' | 'systolic' | 'diastolic' | 'bodyTemp' | 'wristTemp' | 'bloodOxygen';

export interface HealthViolation {
  code: number;
  measure: Measure;
  value: number;
  limit: number;
  direction: 'above' | 'below';
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Health alarms of one reading. A value exactly at a bound is normal; only a value strictly beyond
 * it is an alarm. Systolic and diastolic share one alarm type per direction (systolic checked
 * first, it is the one clinicians read first).
 */
/** Whether a reading holds any measure a threshold applies to (steps or calories alone do not). */
export function hasCheckedMeasure(reading: HealthReading): boolean {
  return [reading.heartRate, reading.systolic, reading.diastolic, reading.bodyTemp, reading.wristTemp, reading.bloodOxygen].some(isNum);
}

export function evaluateHealth(reading: HealthReading, th: HealthThresholds): HealthViolation[] {
  const out: HealthViolation[] = [];
  const check = (measure: Measure, value: number | undefined, min: number | null, max: number | null, high: number | null, low: number | null) => {
    if (!isNum(value)) return false;
    if (high !== null && max !== null && value > max) {
      out.push({ code: high, measure, value, limit: max, direction: 'above' });
      return true;
    }
    if (low !== null && min !== null && value < min) {
      out.push({ code: low, measure, value, limit: min, direction: 'below' });
      return true;
    }
    return false;
  };
  const C = ALARM_CODES;
  check('heartRate', reading.heartRate, th.heartRateMin, th.heartRateMax, C.heartRateHigh, C.heartRateLow);
  // One blood-pressure alarm per direction: diastolic only counts when systolic did not already.
  const sysHigh = check('systolic', reading.systolic, null, th.systolicMax, C.bloodPressureHigh, null);
  if (!sysHigh) check('diastolic', reading.diastolic, null, th.diastolicMax, C.bloodPressureHigh, null);
  const sysLow = check('systolic', reading.systolic, th.systolicMin, null, null, C.bloodPressureLow);
  if (!sysLow) check('diastolic', reading.diastolic, th.diastolicMin, null, null, C.bloodPressureLow);
  check('bodyTemp', reading.bodyTemp, null, th.bodyTempMax, C.bodyTempHigh, null);
  check('wristTemp', reading.wristTemp, null, th.wristTempMax, C.wristTempHigh, null);
  check('bloodOxygen', reading.bloodOxygen, th.bloodOxygenMin, null, null, C.bloodOxygenLow);
  return out;
}

export type ThresholdSource = 'device' | 'account' | 'ancestor' | 'default';

/** A health alarm type's threshold range as the alarm type list stores it. */
export interface TypeRange {
  code: number;
  minValue: number | null;
  maxValue: number | null;
}

/**
 * The platform's default thresholds: the threshold ranges of the health alarm types, each the normal
 * range of its measure. Heart rate high gives the upper and heart rate low the lower limit; the
 * blood pressure high type's range is the systolic range and the low type's the diastolic one; body
 * and wrist temperature high give their upper limits, blood oxygen low its lower limit. A range left
 * empty checks nothing; a type that is not there (deleted) leaves the built-in default.
 */
export function thresholdsOfTypes(types: readonly TypeRange[]): HealthThresholds {
  const C = ALARM_CODES;
  const by = new Map(types.map((t) => [t.code, t]));
  const bound = (code: number, side: 'minValue' | 'maxValue', fallback: number | null) => {
    const t = by.get(code);
    if (!t) return fallback;
    const v = t[side];
    return v === null || v === undefined ? null : Number(v);
  };
  const D = DEFAULT_THRESHOLDS;
  return {
    heartRateMin: bound(C.heartRateLow, 'minValue', D.heartRateMin),
    heartRateMax: bound(C.heartRateHigh, 'maxValue', D.heartRateMax),
    systolicMin: bound(C.bloodPressureHigh, 'minValue', D.systolicMin),
    systolicMax: bound(C.bloodPressureHigh, 'maxValue', D.systolicMax),
    diastolicMin: bound(C.bloodPressureLow, 'minValue', D.diastolicMin),
    diastolicMax: bound(C.bloodPressureLow, 'maxValue', D.diastolicMax),
    bodyTempMax: bound(C.bodyTempHigh, 'maxValue', D.bodyTempMax),
    wristTempMax: bound(C.wristTempHigh, 'maxValue', D.wristTempMax),
    bloodOxygenMin: bound(C.bloodOxygenLow, 'minValue', D.bloodOxygenMin),
    // A platform-wide speed limit is the overspeed type's maximum (none when it has none).
    speedLimit: bound(C.overspeed, 'maxValue', D.speedLimit),
    noMotionMinutes: null,
    noMotionSchedule: null,
  };
}

/** The codes whose threshold ranges are the default thresholds. */
export const THRESHOLD_TYPE_CODES: readonly number[] = [
  ALARM_CODES.heartRateHigh,
  ALARM_CODES.heartRateLow,
  ALARM_CODES.bloodPressureHigh,
  ALARM_CODES.bloodPressureLow,
  ALARM_CODES.bodyTempHigh,
  ALARM_CODES.wristTempHigh,
  ALARM_CODES.bloodOxygenLow,
  ALARM_CODES.overspeed,
];

/**
 * The thresholds in force: the device's own row, else its account's, else the nearest ancestor's
 * (`accountRows` ordered from the account up to the root), else the defaults (the alarm types'
 * threshold ranges, thresholdsOfTypes). A row is taken whole: a bound left empty in it means "not
 * checked", not "inherit".
 */
export function resolveThresholds(
  deviceRow: HealthThresholds | null,
  accountRows: (HealthThresholds | null)[],
  defaults: HealthThresholds = DEFAULT_THRESHOLDS,
): { thresholds: HealthThresholds; source: ThresholdSource } {
  if (deviceRow) return { thresholds: pick(deviceRow), source: 'device' };
  for (let i = 0; i < accountRows.length; i++) {
    const row = accountRows[i];
    if (row) return { thresholds: pick(row), source: i === 0 ? 'account' : 'ancestor' };
  }
  return { thresholds: { ...defaults }, source: 'default' };
}

function pick(row: HealthThresholds): HealthThresholds {
  return Object.fromEntries(THRESHOLD_FIELDS.map((f) => [f, row[f] ?? null])) as unknown as HealthThresholds;
}

/** Account ids of a materialized path, from the account itself up to the root ('/1/5/12/' → [12, 5, 1]). */
export function pathIdsUpward(path: string): number[] {
  return path.split('/').filter(Boolean).map(Number).reverse();
}

/** Delay before the next delivery attempt: base, 2×base, 4×base ... capped at one hour. */
export function backoffMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 3600_000);
}

/** The measures whose readings decide whether a health alarm's condition has ended. */
export const MEASURES_OF_HEALTH_CODE: ReadonlyMap<number, readonly Measure[]> = new Map<number, readonly Measure[]>([
  [ALARM_CODES.heartRateHigh, ['heartRate']],
  [ALARM_CODES.heartRateLow, ['heartRate']],
  [ALARM_CODES.bloodPressureHigh, ['systolic', 'diastolic']],
  [ALARM_CODES.bloodPressureLow, ['systolic', 'diastolic']],
  [ALARM_CODES.bodyTempHigh, ['bodyTemp']],
  [ALARM_CODES.wristTempHigh, ['wristTemp']],
  [ALARM_CODES.bloodOxygenLow, ['bloodOxygen']],
]);

/**
 * Whether a health alarm's condition has ended: the latest `n` readings holding its measure (newest
 * first, taken after the alarm's last raise) are all in range. Fewer than `n` readings: not yet.
 */
export function healthBackInRange(code: number, readings: readonly HealthReading[], th: HealthThresholds, n: number): boolean {
  const measures = MEASURES_OF_HEALTH_CODE.get(code);
  if (!measures) return false;
  const relevant = readings.filter((r) => measures.some((m) => isNum(r[m]))).slice(0, n);
  return relevant.length >= n && relevant.every((r) => !evaluateHealth(r, th).some((v) => v.code === code));
}
