// Alarm type codes (SPEC §3 "Alarm type", §4 "Alarm notification", §9). The console's pop-ups treat
// 5, 150 and 151 as sticky when the user has no setting for them: 5 is SOS (fixed by the spec), and
// we give 150 and 151 to the two other alarms that need someone to act at once, a fall and a
// watch taken off the wrist. 56 triggers a data refresh in the console (it is not stored as an
// alarm). The rest are ours; every installation is seeded with this list and administrators may
// edit the texts, level, ring and push, or mark a type invalid (closing it stops those alarms).
// The built-in names and descriptions are the message catalogue's (`alarm.types.*`), in the three
// console languages.
import { MESSAGES, type Locale, type MessageTree } from './messages.js';

export const ALARM_LEVELS = { normal: 1, important: 2, severe: 3 } as const;
export type AlarmLevel = (typeof ALARM_LEVELS)[keyof typeof ALARM_LEVELS];

/** Ring type of an alarm type: keep ringing, a few sounds, silent. */
export const ALARM_RINGS = { keep: 1, few: 2, silent: 3 } as const;
export type AlarmRing = (typeof ALARM_RINGS)[keyof typeof ALARM_RINGS];

/** Ring type of a user's alarm setting (SPEC §3): 1 no auto-close, 2 auto-close, 3 ring. */
export const SETTING_RINGS = { noAutoClose: 1, autoClose: 2, ring: 3 } as const;

export const ALARM_CODES = {
  sos: 5,
  lowBattery: 10,
  powerOff: 11,
  deviceFenceIn: 20,
  deviceFenceOut: 21,
  accountFenceIn: 22,
  accountFenceOut: 23,
  heartRateHigh: 30,
  heartRateLow: 31,
  bloodPressureHigh: 32,
  bloodPressureLow: 33,
  bodyTempHigh: 34,
  wristTempHigh: 35,
  bloodOxygenLow: 36,
  offline: 40,
  /** Not an alarm: tells the console to refresh its data. */
  refresh: 56,
  fall: 150,
  removal: 151,
  locationIn: 60,
  locationOut: 61,
  slaveSeparated: 62,
  slaveBack: 63,
  overspeed: 64,
  noMotion: 65,
  stayedTooLong: 66,
} as const;
export type AlarmCodeName = keyof typeof ALARM_CODES;

/** What a record belongs to (SPEC §3 "Alarm record: type (SOS, abnormal health, fence)"). */
export type AlarmCategory = 'sos' | 'health' | 'fence' | 'device';

export interface AlarmTypeSeed {
  code: number;
  name: AlarmCodeName;
  category: AlarmCategory;
  /** Built-in name and description per language (the `alarm.types.*` and `alarm.typeDescriptions.*` messages). */
  zh: string;
  zhTW: string;
  en: string;
  zhDescription: string;
  zhTWDescription: string;
  enDescription: string;
  level: AlarmLevel;
  ring: AlarmRing;
  /** Shown as a pop-up on the consoles. */
  pagePush: boolean;
  /** Range the alarm's value is checked against, where one applies. */
  min: number | null;
  max: number | null;
}

function text(locale: Locale, group: 'types' | 'typeDescriptions', name: AlarmCodeName): string {
  const alarm = MESSAGES[locale].alarm as MessageTree;
  const v = (alarm[group] as MessageTree)[name];
  if (typeof v !== 'string') throw new Error(`alarm.${group}.${name} is missing in ${locale}`);
  return v;
}

const t = (
  name: AlarmCodeName,
  category: AlarmCategory,
  level: AlarmLevel,
  ring: AlarmRing,
  min: number | null = null,
  max: number | null = null,
): AlarmTypeSeed => ({
  code: ALARM_CODES[name],
  name,
  category,
  zh: text('zh-CN', 'types', name),
  zhTW: text('zh-TW', 'types', name),
  en: text('en', 'types', name),
  zhDescription: text('zh-CN', 'typeDescriptions', name),
  zhTWDescription: text('zh-TW', 'typeDescriptions', name),
  enDescription: text('en', 'typeDescriptions', name),
  level,
  ring,
  pagePush: true,
  min,
  max,
});

const { normal, important, severe } = ALARM_LEVELS;
const { keep, few, silent } = ALARM_RINGS;

export const ALARM_TYPES: readonly AlarmTypeSeed[] = [
  t('sos', 'sos', severe, keep),
  t('fall', 'sos', severe, keep),
  t('removal', 'device', important, keep),
  t('lowBattery', 'device', normal, few),
  t('powerOff', 'device', important, few),
  t('deviceFenceIn', 'fence', important, few),
  t('deviceFenceOut', 'fence', important, few),
  t('accountFenceIn', 'fence', important, few),
  t('accountFenceOut', 'fence', important, few),
  t('heartRateHigh', 'health', important, few, 50, 120),
  t('heartRateLow', 'health', important, few, 50, 120),
  t('bloodPressureHigh', 'health', important, few, 90, 140),
  t('bloodPressureLow', 'health', important, few, 60, 90),
  t('bodyTempHigh', 'health', important, few, 35, 37.3),
  t('wristTempHigh', 'health', normal, few, 30, 37.3),
  t('bloodOxygenLow', 'health', severe, keep, 90, 100),
  t('offline', 'device', normal, silent),
  t('locationIn', 'fence', important, few),
  t('locationOut', 'fence', important, few),
  t('slaveSeparated', 'device', important, keep),
  t('slaveBack', 'device', normal, few),
  t('overspeed', 'device', important, few),
  t('noMotion', 'health', important, keep),
  t('stayedTooLong', 'fence', important, few),
];

/** The built-in name of a type in a language, where the code is one of ours. */
export function builtInAlarmTypeName(locale: Locale, code: number): string | undefined {
  const seed = alarmTypeByCode(code);
  return seed && (locale === 'en' ? seed.en : locale === 'zh-TW' ? seed.zhTW : seed.zh);
}

/** The built-in description of a type in a language, where the code is one of ours. */
export function builtInAlarmTypeDescription(locale: Locale, code: number): string | undefined {
  const seed = alarmTypeByCode(code);
  return seed && (locale === 'en' ? seed.enDescription : locale === 'zh-TW' ? seed.zhTWDescription : seed.zhDescription);
}

export const STICKY_ALARM_CODES: readonly number[] = [ALARM_CODES.sos, ALARM_CODES.fall, ALARM_CODES.removal];

/**
 * Types that cannot be closed, deleted or renumbered: a person in danger must raise an alarm
 * whatever the settings say. Their sound, texts, level and push may change.
 */
export const ALWAYS_ON_ALARM_CODES: readonly number[] = [ALARM_CODES.sos, ALARM_CODES.fall];

export function alarmTypeByCode(code: number): AlarmTypeSeed | undefined {
  return ALARM_TYPES.find((a) => a.code === code);
}

/**
 * Health thresholds: an alarm fires when a value is strictly beyond a bound (a value exactly at
 * the limit is normal). A bound left null is not checked. Resolved device → account → nearest
 * ancestor → these defaults.
 */
export interface HealthThresholds {
  heartRateMin: number | null;
  heartRateMax: number | null;
  systolicMin: number | null;
  systolicMax: number | null;
  diastolicMin: number | null;
  diastolicMax: number | null;
  bodyTempMax: number | null;
  wristTempMax: number | null;
  bloodOxygenMin: number | null;
  /** Speed limit in km/h (vehicle trackers): an overspeed alarm after consecutive fixes above it. */
  speedLimit: number | null;
  /** No motion for this many minutes (inside the schedule's windows) raises a no-motion alarm. */
  noMotionMinutes: number | null;
  /** When no motion is watched, in the account's zone; null: always. */
  noMotionSchedule: { Days: number[]; Windows: { Start: string; End: string }[] } | null;
}

export const DEFAULT_THRESHOLDS: HealthThresholds = {
  heartRateMin: 50,
  heartRateMax: 120,
  systolicMin: 90,
  systolicMax: 140,
  diastolicMin: 60,
  diastolicMax: 90,
  bodyTempMax: 37.3,
  wristTempMax: 37.3,
  bloodOxygenMin: 90,
  speedLimit: null,
  noMotionMinutes: null,
  noMotionSchedule: null,
};

export const THRESHOLD_FIELDS = Object.keys(DEFAULT_THRESHOLDS) as (keyof HealthThresholds)[];

/**
 * The parameters of a stored alarm message (`alarm.msg.*`) ready to be put into its text: the
 * measure named in the reader's language, the battery level as " 15%" (nothing when unknown).
 * The server's renderer and the console's pop-ups share it, so both say the same.
 */
export function alarmMessageParams(params: Record<string, unknown> | null | undefined, measureName: (measure: string) => string): Record<string, unknown> {
  const p = { ...(params ?? {}) };
  if (typeof p.measure === 'string') p.measure = measureName(p.measure);
  if (typeof p.battery === 'number') p.battery = ` ${p.battery}%`;
  else if (p.battery === undefined) p.battery = '';
  return p;
}
