// Date helpers of SPEC §9, shared so the console and exports format alike.

/** A 10-digit number is read as seconds, otherwise milliseconds; strings are parsed as dates. */
export function toDate(value: Date | number | string | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'number' || /^\d+$/.test(value)) {
    const n = Number(value);
    const ms = String(Math.trunc(Math.abs(n))).length === 10 ? n * 1000 : n;
    const d = new Date(ms);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** year-month-day hour:minute:second in local time (or a fixed offset in minutes east of UTC). */
export function formatDateTime(value: Date | number | string | null | undefined, offsetMinutes?: number): string {
  const d = toDate(value);
  if (!d) return '';
  if (offsetMinutes === undefined) {
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }
  const s = new Date(d.getTime() + offsetMinutes * 60_000);
  return `${s.getUTCFullYear()}-${pad(s.getUTCMonth() + 1)}-${pad(s.getUTCDate())} ${pad(s.getUTCHours())}:${pad(s.getUTCMinutes())}:${pad(s.getUTCSeconds())}`;
}

export type RelativeTime =
  | { key: 'justNow' }
  | { key: 'minutesAgo'; count: number }
  | { key: 'hoursAgo'; count: number }
  | { key: 'oneDayAgo' }
  | { key: 'date'; text: string };

/**
 * Relative time of SPEC §9: under 30 s just now; under 1 h minutes; under 1 day hours; under 2 days
 * '1 day ago'; older is the formatted date.
 */
export function relativeTime(value: Date | number | string, now: number = Date.now()): RelativeTime {
  const d = toDate(value);
  if (!d) return { key: 'date', text: '' };
  const diff = (now - d.getTime()) / 1000;
  if (diff < 30) return { key: 'justNow' };
  if (diff < 3600) return { key: 'minutesAgo', count: Math.ceil(diff / 60) };
  if (diff < 86400) return { key: 'hoursAgo', count: Math.ceil(diff / 3600) };
  if (diff < 2 * 86400) return { key: 'oneDayAgo' };
  return { key: 'date', text: formatDateTime(d) };
}
