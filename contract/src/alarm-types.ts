// Alarm type codes (SPEC §3 "Alarm type", §4 "Alarm notification", §9). The console's pop-ups treat
// 5, 150 and 151 as sticky when the user has no setting for them: 5 is SOS (fixed by the spec), and
// we give 150 and 151 to the two other alarms that need someone to act at once, a fall and a
// watch taken off the wrist. 56 triggers a data refresh in the console (it is not stored as an
// alarm). The rest are ours; every installation is seeded with this list and administrators may
// edit the texts, level, ring and push, or mark a type invalid (closing it stops those alarms).
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
} as const;
export type AlarmCodeName = keyof typeof ALARM_CODES;

/** What a record belongs to (SPEC §3 "Alarm record: type (SOS, abnormal health, fence)"). */
export type AlarmCategory = 'sos' | 'health' | 'fence' | 'device';

export interface AlarmTypeSeed {
  code: number;
  name: AlarmCodeName;
  category: AlarmCategory;
  zh: string;
  en: string;
  zhDescription: string;
  enDescription: string;
  level: AlarmLevel;
  ring: AlarmRing;
  /** Shown as a pop-up on the consoles. */
  pagePush: boolean;
  /** Range the alarm's value is checked against, where one applies. */
  min: number | null;
  max: number | null;
}

const t = (
  name: AlarmCodeName,
  category: AlarmCategory,
  zh: string,
  en: string,
  zhDescription: string,
  enDescription: string,
  level: AlarmLevel,
  ring: AlarmRing,
  min: number | null = null,
  max: number | null = null,
): AlarmTypeSeed => ({ code: ALARM_CODES[name], name, category, zh, en, zhDescription, enDescription, level, ring, pagePush: true, min, max });

const { normal, important, severe } = ALARM_LEVELS;
const { keep, few, silent } = ALARM_RINGS;

export const ALARM_TYPES: readonly AlarmTypeSeed[] = [
  t('sos', 'sos', 'SOS求救', 'SOS', '佩戴者按下了SOS键', 'The wearer pressed the SOS button', severe, keep),
  t('fall', 'sos', '跌倒报警', 'Fall', '设备检测到佩戴者跌倒', 'The device detected that the wearer fell', severe, keep),
  t('removal', 'device', '脱腕报警', 'Watch removed', '手表被从手腕上取下', 'The watch was taken off the wrist', important, keep),
  t('lowBattery', 'device', '低电报警', 'Low battery', '设备电量过低', 'The device battery is low', normal, few),
  t('powerOff', 'device', '关机报警', 'Power off', '设备已关机', 'The device was switched off', important, few),
  t('deviceFenceIn', 'fence', '进入设备围栏', 'Entered device fence', '设备进入了它的电子围栏', 'The device entered one of its fences', important, few),
  t('deviceFenceOut', 'fence', '离开设备围栏', 'Left device fence', '设备离开了它的电子围栏', 'The device left one of its fences', important, few),
  t('accountFenceIn', 'fence', '进入账户围栏', 'Entered account fence', '设备进入了账户围栏', 'The device entered an account fence', important, few),
  t('accountFenceOut', 'fence', '离开账户围栏', 'Left account fence', '设备离开了账户围栏', 'The device left an account fence', important, few),
  t('heartRateHigh', 'health', '心率过高', 'Heart rate high', '心率高于设定上限', 'The heart rate is above the upper limit', important, few, 50, 120),
  t('heartRateLow', 'health', '心率过低', 'Heart rate low', '心率低于设定下限', 'The heart rate is below the lower limit', important, few, 50, 120),
  t('bloodPressureHigh', 'health', '血压过高', 'Blood pressure high', '收缩压或舒张压高于设定上限', 'The systolic or diastolic pressure is above the upper limit', important, few, 90, 140),
  t('bloodPressureLow', 'health', '血压过低', 'Blood pressure low', '收缩压或舒张压低于设定下限', 'The systolic or diastolic pressure is below the lower limit', important, few, 60, 90),
  t('bodyTempHigh', 'health', '体温过高', 'Body temperature high', '体温高于设定上限', 'The body temperature is above the upper limit', important, few, 35, 37.3),
  t('wristTempHigh', 'health', '腕温过高', 'Wrist temperature high', '腕温高于设定上限', 'The wrist temperature is above the upper limit', normal, few, 30, 37.3),
  t('bloodOxygenLow', 'health', '血氧过低', 'Blood oxygen low', '血氧低于设定下限', 'The blood oxygen is below the lower limit', severe, keep, 90, 100),
  t('offline', 'device', '设备离线', 'Device offline', '设备超过设定时间未通讯', 'The device has not communicated for longer than the timeout', normal, silent),
];

export const STICKY_ALARM_CODES: readonly number[] = [ALARM_CODES.sos, ALARM_CODES.fall, ALARM_CODES.removal];

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
};

export const THRESHOLD_FIELDS = Object.keys(DEFAULT_THRESHOLDS) as (keyof HealthThresholds)[];
