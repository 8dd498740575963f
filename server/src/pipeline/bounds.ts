// Column bounds of the batch writer: one helper per column type, applied to every value from a
// device as its row is built. The decoders already bound what devices say (protocols/src/bounds.ts);
// this is the writer's own guarantee, so that a decoder mistake or a message built elsewhere
// (simulator, tests, a future transport) cannot make a shared batch fail for every device in it.
// A value a column cannot take becomes NULL (or is cut to size), never an error.
import { DEVICE_LIMITS, cleanText } from '@wt/protocols';

const REAL_MAX = 3.4028234e38;
/** Below this PostgreSQL's real input underflows (an error, not zero). */
const REAL_TINY = 1.2e-38;
const INT2 = 32_767;
const INT4 = 2_147_483_647;

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** real (float4): finite and within ±3.4e38; magnitudes too small for it become 0. */
export function boundReal(v: unknown): number | null {
  if (!finite(v) || v > REAL_MAX || v < -REAL_MAX) return null;
  return v !== 0 && v < REAL_TINY && v > -REAL_TINY ? 0 : v;
}

/** double precision: finite. */
export function boundDouble(v: unknown): number | null {
  return finite(v) ? v : null;
}

/** smallint: rounded, within ±32767. */
export function boundSmallint(v: unknown): number | null {
  if (!finite(v)) return null;
  const n = Math.round(v);
  return n >= -INT2 - 1 && n <= INT2 ? n : null;
}

/** integer: rounded, within ±2^31. */
export function boundInt(v: unknown): number | null {
  if (!finite(v)) return null;
  const n = Math.round(v);
  return n >= -INT4 - 1 && n <= INT4 ? n : null;
}

/**
 * A device time (ms) we store: from 2000 to a day past the receive time (the decoders' policy);
 * anything else, an invalid date included, is undefined and the caller falls back.
 */
export function boundMs(ms: number | undefined, receivedAt: number): number | undefined {
  return ms !== undefined && ms >= DEVICE_LIMITS.timeMin && ms <= receivedAt + DEVICE_LIMITS.futureMs
    ? ms
    : undefined; // NaN fails both
}

/** timestamptz as ISO text, or null when the time is not one we store. */
export function boundTime(t: Date | number | undefined, receivedAt: number): string | null {
  const ms = boundMs(t instanceof Date ? t.getTime() : t, receivedAt);
  return ms === undefined ? null : new Date(ms).toISOString();
}

/** text: no NUL, no lone surrogate, at most `max` characters. */
export function boundText(v: unknown, max: number): string | null {
  if (v === null || v === undefined) return null;
  return cleanText(typeof v === 'string' ? v : String(v), max);
}

const JSON_DEPTH = 8;
const JSON_TEXT = 4096;
const JSON_ENTRIES = 256;
// eslint-disable-next-line no-control-regex
const UNSTORABLE_TEXT = /[\u0000\uD800-\uDFFF]/;

/** True when jsonb takes v exactly as JSON.stringify writes it (the common case: no copy). */
function storable(v: unknown, depth: number): boolean {
  if (v === null || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v);
  if (typeof v === 'string') return v.length <= JSON_TEXT && !UNSTORABLE_TEXT.test(v);
  if (typeof v !== 'object' || depth >= JSON_DEPTH) return false;
  if (Array.isArray(v)) {
    if (v.length > JSON_ENTRIES) return false;
    for (const x of v) if (!storable(x, depth + 1)) return false;
    return true;
  }
  if (v instanceof Date) return false;
  let n = 0;
  for (const k in v) {
    if (++n > JSON_ENTRIES || UNSTORABLE_TEXT.test(k) || k.length > 128) return false;
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined && typeof x !== 'function' && !storable(x, depth + 1)) return false;
  }
  return true;
}

function rebuild(v: unknown, depth: number): unknown {
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v === 'string') return cleanText(v, JSON_TEXT);
  if (v instanceof Date) return Number.isFinite(v.getTime()) ? v.toISOString() : null;
  if (typeof v !== 'object' || depth >= JSON_DEPTH) return null;
  if (Array.isArray(v)) return v.slice(0, JSON_ENTRIES).map((x) => rebuild(x, depth + 1) ?? null);
  const out: Record<string, unknown> = {};
  let n = 0;
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined || typeof x === 'function') continue;
    if (++n > JSON_ENTRIES) break;
    const key = cleanText(k, 128);
    if (key) out[key] = rebuild(x, depth + 1);
  }
  return out;
}

/**
 * jsonb: no NUL or lone surrogate in any string or key, finite numbers only, bounded depth, size
 * and text length. Returns v itself when it is already storable.
 */
export function boundJson(v: unknown): unknown {
  if (v === undefined) return null;
  return storable(v, 0) ? v : rebuild(v, 0);
}
