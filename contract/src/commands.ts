// Device command catalogue: codes, parameter schemas and the §5 rules for each command kind.
// The console validates its forms with these schemas and the server validates again before
// encoding; messages are i18n keys of `validation.*`.
import { z } from 'zod';
import { FALL_HEIGHTS, LIMITS, PHONE, THRESHOLDS, ipOrDomain, port } from './rules.js';
import { float } from './schemas/common.js';

/**
 * The one list of device command codes. The console's forms, the server's validation and the
 * protocol encoders (@wt/protocols: WATCH_COMMANDS, GT06_COMMANDS) are all keyed by it; a code
 * a protocol cannot carry is rejected by that protocol's encoder, not left out of this list.
 */
export const COMMAND_CODES = [
  'UPLOAD', 'SOS', 'CENTER', 'RESET', 'POWEROFF', 'FIND', 'REMOVE', 'LOWBAT', 'MESSAGE', 'LZ',
  'HEART_RATE', 'BLOOD_PRESSURE', 'TEMPERATURE', 'BLOOD_OXYGEN',
  'HEART_RATE_THRESHOLD', 'BLOOD_PRESSURE_THRESHOLD', 'TEMPERATURE_THRESHOLD', 'BLOOD_OXYGEN_THRESHOLD',
  'FALL_HEIGHT', 'IP', 'SILENCETIME', 'REMIND', 'WORK_TIME', 'VIBRATION', 'CUSTOM', 'WEATHER',
] as const;
export type CommandCode = (typeof COMMAND_CODES)[number];

const K = {
  required: 'validation.required',
  intervalRange: 'validation.intervalRange',
  intervalMoreThanOne: 'validation.intervalMoreThanOne',
  startBeforeEnd: 'validation.startBeforeEnd',
  vibrationPositive: 'validation.vibrationPositive',
  amNotAfterPm: 'validation.amNotAfterPm',
  thresholdRange: 'validation.thresholdRange',
  thresholdBoth: 'validation.thresholdBoth',
  minBelowMax: 'validation.minBelowMax',
  fallHeight: 'validation.fallHeight',
  numberRequired: 'validation.numberRequired',
  messageRequired: 'validation.messageRequired',
  phoneInvalid: 'validation.phoneInvalid',
  invalid: 'validation.invalid',
} as const;

/** Minutes between reports: over 0, at least LIMITS.intervalMin, at most LIMITS.intervalMax. */
export const intervalMinutes = float(z.coerce.number({ error: K.intervalRange })).refine((v) => Number.isFinite(v) && v > 0 && v >= LIMITS.intervalMin && v <= LIMITS.intervalMax, { error: K.intervalRange });

/** An interval sent in one command (health measurement period): more than 1 minute. */
export const commandInterval = float(z.coerce.number({ error: K.intervalMoreThanOne })).refine((v) => Number.isFinite(v) && v > 1, { error: K.intervalMoreThanOne });

const phoneNumber = (key: string = K.numberRequired) =>
  z.string({ error: key }).trim().min(1, { error: key }).regex(PHONE, { error: K.phoneInvalid });
const optionalPhone = z
  .string()
  .trim()
  .optional()
  .refine((v) => v === undefined || v === '' || PHONE.test(v), { error: K.phoneInvalid });

const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const time = z.string({ error: K.required }).trim().regex(HHMM, { error: K.required });
const minutesOf = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));

/** Empty input (undefined, '', null) means "no bound". */
const optionalNumber = z.preprocess(
  (v) => (v === '' || v === null ? undefined : v),
  float(z.coerce.number({ error: K.required })).optional(),
);

/** One bound pair of a threshold command: in range, both or neither (empty: closed), minimum below maximum. */
function checkPair(v: Record<string, number | undefined>, lo: string, hi: string, range: { min: number; max: number }, ctx: z.RefinementCtx) {
  const params = { min: range.min, max: range.max };
  for (const f of [lo, hi]) {
    const x = v[f];
    if (x !== undefined && (x < range.min || x > range.max)) {
      ctx.addIssue({ code: 'custom', path: [f], message: K.thresholdRange, params });
    }
  }
  const a = v[lo];
  const b = v[hi];
  if ((a === undefined) !== (b === undefined)) {
    ctx.addIssue({ code: 'custom', path: [a === undefined ? lo : hi], message: K.thresholdBoth });
  } else if (a !== undefined && b !== undefined && a >= b) {
    ctx.addIssue({ code: 'custom', path: [lo], message: K.minBelowMax });
  }
}

function threshold(range: { min: number; max: number }) {
  return z.object({ min: optionalNumber, max: optionalNumber }).superRefine((v, ctx) => checkPair(v, 'min', 'max', range, ctx));
}

/** The blood pressure bound pairs of BLOOD_PRESSURE_THRESHOLD, in the order the device takes them. */
export const BLOOD_PRESSURE_FIELDS = [
  ['systolicMin', 'systolicMax'],
  ['diastolicMin', 'diastolicMax'],
] as const;

/**
 * Systolic and diastolic limits, each pair on its own (SPEC §5: both 20 to 100). A caller that
 * still sends one `min`/`max` pair means it for both pressures, as the one-pair command did.
 */
const bloodPressureThreshold = z.preprocess(
  (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    if (BLOOD_PRESSURE_FIELDS.flat().some((k) => k in o) || !('min' in o || 'max' in o)) return o;
    const { min, max, ...rest } = o;
    return { ...rest, systolicMin: min, systolicMax: max, diastolicMin: min, diastolicMax: max };
  },
  z
    .object({ systolicMin: optionalNumber, systolicMax: optionalNumber, diastolicMin: optionalNumber, diastolicMax: optionalNumber })
    .superRefine((v, ctx) => {
      for (const [lo, hi] of BLOOD_PRESSURE_FIELDS) checkPair(v, lo, hi, THRESHOLDS.bloodPressure, ctx);
    }),
);

const period = z
  .object({ start: time, end: time })
  .refine((v) => minutesOf(v.start) < minutesOf(v.end), { error: K.startBeforeEnd, path: ['end'] });

/**
 * A switch: true/false, 1/0, "1"/"0", "true"/"false" (any case, trimmed). `z.coerce.boolean()`
 * would turn the string "0" (what a form or a query string sends for "off") into true.
 */
export const flag = z.preprocess((v) => {
  if (typeof v === 'string') {
    const t = v.trim().toLowerCase();
    if (t === '1' || t === 'true') return true;
    if (t === '0' || t === 'false') return false;
    return v;
  }
  if (v === 1) return true;
  if (v === 0) return false;
  return v;
}, z.boolean({ error: (i) => (i.input === undefined ? K.required : K.invalid) }));

const empty = z.object({}).loose();
const onOff = z.object({ enabled: flag });
const measure = z.object({ interval: commandInterval });

export const COMMAND_SCHEMAS = {
  UPLOAD: z.object({ interval: intervalMinutes }),
  SOS: z.object({ sos1: phoneNumber(), sos2: optionalPhone, sos3: optionalPhone }),
  CENTER: z.object({ number: phoneNumber() }),
  RESET: empty,
  POWEROFF: empty,
  FIND: empty,
  REMOVE: onOff,
  LOWBAT: onOff,
  MESSAGE: z.object({ text: z.string({ error: K.messageRequired }).trim().min(1, { error: K.messageRequired }) }),
  LZ: z.object({ language: z.coerce.number().int().min(0), timezone: float(z.coerce.number().min(-12).max(14)) }),
  HEART_RATE: measure,
  BLOOD_PRESSURE: measure,
  TEMPERATURE: measure,
  BLOOD_OXYGEN: measure,
  HEART_RATE_THRESHOLD: threshold(THRESHOLDS.heartRate),
  BLOOD_PRESSURE_THRESHOLD: bloodPressureThreshold,
  TEMPERATURE_THRESHOLD: threshold(THRESHOLDS.temperature),
  BLOOD_OXYGEN_THRESHOLD: threshold(THRESHOLDS.bloodOxygen),
  FALL_HEIGHT: z.object({
    height: z.coerce
      .number({ error: K.fallHeight })
      .refine((v) => (FALL_HEIGHTS as readonly number[]).includes(v), { error: K.fallHeight }),
  }),
  IP: z.object({ host: ipOrDomain, port: z.preprocess((v) => (v === '' ? undefined : v), port) }),
  SILENCETIME: z.object({ periods: z.array(period).min(1, { error: K.required }) }),
  REMIND: z.object({
    reminders: z.array(z.object({ time, enabled: flag.default(true), kind: z.coerce.number().int().min(1).max(3).default(1) })).min(1, { error: K.required }),
  }),
  /** School-mode style AM and PM windows: the AM window may not end after the PM one starts. */
  WORK_TIME: z
    .object({ am: period, pm: period })
    .refine((v) => minutesOf(v.am.end) <= minutesOf(v.pm.start), { error: K.amNotAfterPm, path: ['am', 'end'] }),
  VIBRATION: z.object({ seconds: float(z.coerce.number({ error: K.vibrationPositive })).refine((v) => v > 0, { error: K.vibrationPositive }) }),
  CUSTOM: z.object({ text: z.string({ error: K.required }).trim().min(1, { error: K.required }) }),
  /** The day's forecast for the watch face: date, WMO weather code, lowest and highest °C, and a short text. */
  WEATHER: z.object({
    date: z.string({ error: K.required }).regex(/^\d{4}-\d{2}-\d{2}$/, { error: K.invalid }),
    code: z.coerce.number({ error: K.required }).int({ error: K.invalid }).min(0, { error: K.invalid }).max(99, { error: K.invalid }),
    min: float(z.coerce.number({ error: K.required }).min(-90, { error: K.invalid }).max(60, { error: K.invalid })),
    max: float(z.coerce.number({ error: K.required }).min(-90, { error: K.invalid }).max(60, { error: K.invalid })),
    text: z.string().trim().max(40, { error: K.invalid }).default(''),
  }),
} satisfies Record<CommandCode, z.ZodType>;

export interface CommandFieldError {
  Field: string;
  Message: string;
  Params?: Record<string, unknown>;
}

export type CommandValidation =
  | { ok: true; params: Record<string, unknown> }
  | { ok: false; fields: CommandFieldError[] };

export function isCommandCode(code: string): code is CommandCode {
  return (COMMAND_CODES as readonly string[]).includes(code);
}

export function validateCommand(code: string, params: unknown): CommandValidation {
  if (!isCommandCode(code)) return { ok: false, fields: [{ Field: 'code', Message: 'validation.invalid' }] };
  const r = (COMMAND_SCHEMAS[code] as z.ZodType).safeParse(params ?? {});
  if (r.success) return { ok: true, params: r.data as Record<string, unknown> };
  // One message per field, the first rule that failed (an empty field is "required", not also "invalid").
  const seen = new Set<string>();
  const issues = r.error.issues.filter((i) => {
    const k = i.path.join('.');
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
  return {
    ok: false,
    fields: issues.map((i) => {
      const f: CommandFieldError = { Field: i.path.join('.') || 'params', Message: i.message.startsWith('validation.') ? i.message : K.required };
      const p = (i as { params?: Record<string, unknown> }).params;
      if (p) f.Params = p;
      return f;
    }),
  };
}

/**
 * A command's name and description are the message catalogue's (`command.names.<CODE>`,
 * `command.details.<CODE>`), rendered in the reader's language on every page. The command
 * dictionary stores only what an administrator typed over them for one protocol (empty: none).
 */
export const commandNameKey = (code: string) => `command.names.${code}`;
export const commandDetailsKey = (code: string) => `command.details.${code}`;
