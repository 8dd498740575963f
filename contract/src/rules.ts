// Validation rules and business limits of SPEC §5 and §9, shared by the console's forms and the
// server. Every message is an i18n key of the `messages` catalogue.
import { z } from 'zod';

export const LIMITS = {
  passwordMin: 6,
  passwordMax: 30,
  imeiLength: 15,
  beaconCodeMin: 14,
  portMin: 1,
  portMax: 65535,
  ageMax: 120,
  intervalMin: 2,
  intervalMax: 660,
  fencesPerDevice: 10,
  sceneMaps: 5,
  sceneMapBytes: 6 * 1024 * 1024,
  deviceRoles: 30,
  permissionSets: 30,
  exportsPerSelection: 3,
  exportWindowMs: 24 * 3600 * 1000,
  requestTimeoutMs: 900_000,
  tokenRefreshMs: 300_000,
  logoutDelayMs: 1500,
  alarmListKept: 10,
  notificationMs: 4500,
  stickyAlarmTypes: [5, 150, 151],
  sidebarWidth: 210,
  mobileBreakpoint: 992,
  contextMenuWidth: 105,
  themeColor: '#409EFF',
} as const;

export const THRESHOLDS = {
  temperature: { min: 16, max: 60 },
  bloodOxygen: { min: 80, max: 100 },
  heartRate: { min: 20, max: 200 },
  bloodPressure: { min: 20, max: 100 },
} as const;

export const FALL_HEIGHTS = [0.5, 1, 1.5, 2, 2.5] as const;

/** A required string: missing or blank gives `key`. */
export function requiredString(key = 'validation.required') {
  return z.string({ error: key }).trim().min(1, { error: key });
}

export const ALNUM = /^[A-Za-z0-9]+$/;
export const IMEI = /^\d{15}$/;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Mobile or landline, with optional country code, spaces and dashes. */
export const PHONE = /^\+?[0-9][0-9\- ]{4,19}$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const DOMAIN = /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export function isIpOrDomain(v: string): boolean {
  return IPV4.test(v) || DOMAIN.test(v);
}

/** Login form: account and password required; password at least 6 letters or digits. */
export const loginPassword = requiredString('validation.passwordRequired')
  .min(LIMITS.passwordMin, { error: 'validation.passwordMin' })
  .regex(ALNUM, { error: 'validation.passwordAlnum' });

/** Change-password form: 6-30 letters and digits with a digit, an uppercase and a lowercase. */
export const strongPassword = z
  .string({ error: 'validation.newPasswordRequired' })
  .min(1, { error: 'validation.newPasswordRequired' })
  .min(LIMITS.passwordMin, { error: 'validation.passwordMin' })
  .max(LIMITS.passwordMax, { error: 'validation.passwordComplex' })
  .regex(/^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9]+$/, { error: 'validation.passwordComplex' });

export const email = requiredString('validation.emailRequired').regex(EMAIL, { error: 'validation.emailInvalid' });
export const phone = z.string().trim().regex(PHONE, { error: 'validation.phoneInvalid' });
export const imei = requiredString('validation.imeiRequired').regex(IMEI, { error: 'validation.imeiInvalid' });
export const age = z.coerce.number().int().min(0).max(LIMITS.ageMax, { error: 'validation.ageMax' });
export const port = z.coerce
  .number({ error: 'validation.portRange' })
  .int({ error: 'validation.portRange' })
  .min(LIMITS.portMin, { error: 'validation.portRange' })
  .max(LIMITS.portMax, { error: 'validation.portRange' });
export const ipOrDomain = requiredString().refine(isIpOrDomain, { error: 'validation.ipOrDomainInvalid' });

/** IMEI count must equal ICCID count when both are entered. */
export function imeiIccidCountsMatch(imeis: string[], iccids: string[]): boolean {
  return iccids.length === 0 || imeis.length === iccids.length;
}
