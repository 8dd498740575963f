// Bounded building blocks of every request schema. Whatever a call accepts fits the column it ends
// up in: ids and integers fit an int4, fractional numbers have a range and fit a float4 (no
// magnitude a `real` column underflows on), texts have a length limit and no NUL nor lone surrogate
// (PostgreSQL refuses the first in text and both in json/jsonb), dates parse and fall between 1970
// and 2100. Each failure is an i18n key of `validation.*` whose parameters (min, max ...) the field
// error carries (see issues.ts).
import { z } from 'zod';
import { loginPassword } from '../rules.js';
import { sentTime } from '../time.js';

export const INT4_MIN = -2_147_483_648;
export const INT4_MAX = 2_147_483_647;
/** The dates a call accepts, inclusive (UTC). */
export const DATE_MIN = '1970-01-01';
export const DATE_MAX = '2100-12-31';
const DATE_MIN_MS = Date.parse(`${DATE_MIN}T00:00:00Z`);
const DATE_MAX_MS = Date.parse(`${DATE_MAX}T23:59:59.999Z`);

/** No NUL character: PostgreSQL text cannot hold it. */
// eslint-disable-next-line no-control-regex -- the NUL is the character refused
export const NO_NUL = /^[^\u0000]*$/;
/**
 * Well-formed UTF-16: no unpaired surrogate code unit (`"x\ud800y"` in JSON). Read by code points
 * (`u`), so a pair is one character outside the range and only a lone half matches it. PostgreSQL
 * refuses the escape JSON gives such a unit in json/jsonb, and text would keep a U+FFFD instead.
 */
export const NO_LONE_SURROGATE = /^[^\uD800-\uDFFF]*$/u;

/** The message key of what a text cannot hold (NUL, a lone surrogate), or null when it is storable. */
export function unstorableText(s: string): 'validation.nul' | 'validation.badCharacter' | null {
  if (s.includes('\u0000')) return 'validation.nul';
  return NO_LONE_SURROGATE.test(s) ? null : 'validation.badCharacter';
}

/** The checks every text field ends with (`.check(...STORABLE)`): no NUL, no lone surrogate. */
export const STORABLE = [z.regex(NO_NUL, { error: 'validation.nul' }), z.regex(NO_LONE_SURROGATE, { error: 'validation.badCharacter' })] as const;
const storable = (s: z.ZodString) => s.check(...STORABLE);

/**
 * The smallest magnitude besides 0 a fractional number may have: float4's smallest normal value
 * (1.18e-38) rounded up. A `real` column refuses what rounds to 0 (5e-324: "out of range") and
 * keeps smaller ones as denormals without their precision; no quantity a call takes is that small.
 */
export const FLOAT_MIN = 1.2e-38;

/**
 * What every fractional number of a request passes (a float column, `real` or `double precision`,
 * behind it or not): finite (zod's number already is), and 0 or at least FLOAT_MIN in magnitude.
 * The range of the field (metres, degrees ...) is the schema's own, well inside a float4's 3.4e38.
 */
export function float<T extends z.ZodType<number>>(n: T, key = 'validation.nearZero'): T {
  return n.refine((v) => v === 0 || Math.abs(v) >= FLOAT_MIN, { error: key, params: { min: FLOAT_MIN } }) as T;
}

/** Numbers arrive as JSON numbers or, from older clients and forms, as numeric strings. */
const numeric = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
const numberKey = (iss: { input?: unknown }) => (iss.input === undefined ? 'validation.required' : 'validation.number');
const textKey = (iss: { input?: unknown }) => (iss.input === undefined ? 'validation.required' : 'validation.string');

/**
 * An integer from `min` to `max` (an int4 by default); numeric strings are read as numbers.
 * `requiredKey` names what is missing when the field is absent.
 */
export function int(min: number = INT4_MIN, max: number = INT4_MAX, requiredKey = 'validation.required') {
  return z.preprocess(
    numeric,
    z
      .number({ error: (iss) => (iss.input === undefined ? requiredKey : 'validation.number') })
      .min(min, { error: 'validation.min' })
      .max(max, { error: 'validation.max' })
      .int({ error: 'validation.integer' }),
  );
}

/** A number (fractions allowed) from `min` to `max`, that a float column holds (`float`). */
export function num(min: number, max: number) {
  return z.preprocess(numeric, float(z.number({ error: numberKey }).min(min, { error: 'validation.min' }).max(max, { error: 'validation.max' })));
}

/** A row id: a positive int4. Ids arrive as numbers or numeric strings from older clients. */
export const id = int(1, INT4_MAX);
export const optionalId = id.optional();

/** Toggle values used by the spec's user flags (1 on, 2 off). */
export const flag12 = z.preprocess(numeric, z.union([z.literal(1), z.literal(2)], { error: 'validation.flag12' }));

/** Trimmed text of at most `max` characters, without NUL or lone surrogate; may be empty. */
export function text(max: number) {
  return storable(z.string({ error: textKey }).trim().max(max, { error: 'validation.tooLong' }));
}

/** Text kept as sent (passwords, tokens, file contents), at most `max` characters, without NUL or lone surrogate. */
export function rawText(max: number) {
  return storable(z.string({ error: textKey }).max(max, { error: 'validation.tooLong' }));
}

/** Trimmed text that must not be blank (`key` says what is missing), at most `max` characters, without NUL or lone surrogate. */
export function requiredText(key: string, max: number) {
  return storable(z.string({ error: key }).trim().min(1, { error: key }).max(max, { error: 'validation.tooLong' }));
}

/** A login password (SPEC §5: at least 6 letters or digits), at most 64. */
export const password = loginPassword.max(64, { error: 'validation.tooLong' });

/** A console language tag (zh-CN, zh-TW, en ...). */
export const languageTag = text(35).optional();

/**
 * A date and time: ISO text with a zone, or epoch seconds (10 digits) or milliseconds, is an
 * instant; `YYYY-MM-DD[ HH:mm[:ss]]` without a zone is a wall-clock time of the sender's account
 * zone. From 1970-01-01 to 2100-12-31. Answered to the handler as a `SentTime`, whose instant needs
 * the account's offset, so no area reads it in the server's zone.
 */
export const dateInput = z
  .union([rawText(64), z.number({ error: 'validation.date' })], { error: (iss) => (iss.input === undefined ? 'validation.required' : 'validation.date') })
  .transform((v, ctx) => {
    const epoch = typeof v === 'number' || /^\s*\d+\s*$/.test(v);
    const d = epoch && !Number.isInteger(Number(v)) ? null : sentTime(typeof v === 'string' ? v.trim() : v);
    if (!d) {
      ctx.issues.push({ code: 'custom', input: v, message: v === '' ? 'validation.required' : 'validation.date' });
      return z.NEVER;
    }
    if (d.approxMs() < DATE_MIN_MS || d.approxMs() > DATE_MAX_MS) {
      ctx.issues.push({ code: 'custom', input: v, message: 'validation.dateRange', params: { min: DATE_MIN, max: DATE_MAX } });
      return z.NEVER;
    }
    return d;
  });

/** An optional date: absent, '' and null all mean "no date". */
export const optionalDate = z.preprocess((v) => (v === '' || v === null ? undefined : v), dateInput.optional());

export const nullableString = z.string().nullable();

/** The strings (record keys and free JSON included) that no column can hold, with their paths and message keys. */
function unstorablePaths(v: unknown, path: (string | number)[], out: { path: (string | number)[]; key: string }[]) {
  if (typeof v === 'string') {
    const key = unstorableText(v);
    if (key) out.push({ path, key });
  } else if (Array.isArray(v)) {
    v.forEach((x, i) => unstorablePaths(x, [...path, i], out));
  } else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const key = unstorableText(k);
      if (key) out.push({ path: [...path, k], key });
      unstorablePaths(x, [...path, k], out);
    }
  }
  return out;
}

/**
 * A request schema that also refuses NUL and lone surrogates in every string it lets through,
 * whatever its fields say: the call registry applies it to every call. `allow` names fields that
 * keep them because the handler treats them itself (the login counts such a name as a failed login).
 */
export function refusingUnstorableText<T extends z.ZodType>(schema: T, allow: readonly string[] = []): T {
  return schema.superRefine((value, ctx) => {
    for (const { path, key } of unstorablePaths(value, [], [])) {
      if (allow.includes(path.join('.'))) continue;
      ctx.addIssue({ code: 'custom', path, message: key });
    }
  }) as unknown as T;
}

/**
 * An update that must change something: refused (at the first of `fields`, the message listing
 * them) when none of `fields` is given, rather than reaching the handler with nothing to write.
 */
export function changingOneOf<T extends z.ZodObject>(schema: T, fields: readonly (keyof z.output<T> & string)[], key = 'validation.nothingToChange'): T {
  return schema.refine((v: Record<string, unknown>) => fields.some((f) => v[f] !== undefined), {
    error: key,
    path: [fields[0]!],
    params: { fields: fields.join(', ') },
  }) as unknown as T;
}
