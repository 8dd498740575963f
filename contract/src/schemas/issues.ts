// Turns zod issues into field errors: the field's name (dotted path; `body` when the body itself
// is wrong, an array or a string instead of an object), an i18n key of the message catalogue, and
// the parameters the message needs (the limit that was crossed, the allowed options). The server
// answers these in `Fields`; the console's forms show the same messages for the same schemas.
import type { FieldError } from '../envelope.js';
import { hasMessage } from '../messages.js';

/** What a zod issue carries that a field error needs (zod's own issue objects fit). */
export interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  minimum?: unknown;
  maximum?: unknown;
  origin?: string;
  expected?: string;
  values?: readonly unknown[];
  params?: Record<string, unknown>;
}

/** The field name of a path: `Points.0.Lat`; the body as a whole is `body`. */
export function fieldName(path: readonly PropertyKey[]): string {
  return path.length ? path.map(String).join('.') : 'body';
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const k of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[k];
  }
  return v;
}

const limit = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v);

const TYPE_KEYS: Record<string, string> = {
  number: 'validation.number',
  int: 'validation.integer',
  string: 'validation.string',
  boolean: 'validation.boolean',
  array: 'validation.array',
  object: 'validation.object',
  record: 'validation.object',
  date: 'validation.date',
};

/** The catalogue key of an issue whose message is zod's own text rather than one of our keys. */
function keyOf(issue: IssueLike, input: unknown): string {
  const text = issue.origin === 'string';
  const list = issue.origin === 'array' || issue.origin === 'set';
  switch (issue.code) {
    case 'invalid_type':
      if (valueAt(input, issue.path) === undefined && issue.path.length) return 'validation.required';
      return TYPE_KEYS[issue.expected ?? ''] ?? 'validation.invalid';
    case 'too_big':
      return text ? 'validation.tooLong' : list ? 'validation.tooMany' : 'validation.max';
    case 'too_small':
      if (text && issue.minimum === 1) return 'validation.required';
      return text ? 'validation.tooShort' : list ? 'validation.tooFew' : 'validation.min';
    case 'invalid_value':
      return 'validation.oneOf';
    default:
      return 'validation.invalid';
  }
}

/** One field error of an issue. `input` is the value validated, to tell a missing field from a wrong one. */
export function fieldErrorOf(issue: IssueLike, input?: unknown): FieldError {
  const params: Record<string, unknown> = {};
  if (issue.minimum !== undefined) params.min = limit(issue.minimum);
  if (issue.maximum !== undefined) params.max = limit(issue.maximum);
  if (issue.values?.length) params.options = issue.values.map(String).join(', ');
  if (issue.params) Object.assign(params, issue.params);
  const error: FieldError = {
    Field: fieldName(issue.path),
    Message: hasMessage(issue.message) ? issue.message : keyOf(issue, input),
  };
  if (Object.keys(params).length) error.Params = params;
  return error;
}

/** The field errors of a failed validation, the first issue of each field only. */
export function fieldErrorsOf(issues: readonly IssueLike[], input?: unknown): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const issue of issues) {
    const e = fieldErrorOf(issue, input);
    if (seen.has(e.Field)) continue;
    seen.add(e.Field);
    out.push(e);
  }
  return out;
}
