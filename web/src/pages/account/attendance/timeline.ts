// Attendance times as the fence owner reads them: days and clocks in the owner's time zone (a
// fixed offset, minutes east of UTC), whatever the browser's. The day detail's timeline is a 24-hour
// axis of that day; intervals and schedule windows are cut to it, and a window past midnight says
// that it continues on the next day.

export const DAY_MINUTES = 24 * 60;
const MINUTE_MS = 60_000;

export type IntervalState = 'inside' | 'outside' | 'unknown';

/** A piece of the day on the axis, in minutes from the owner's midnight (0 to 1440). */
export interface Segment {
  /** 'window': a schedule window, drawn as a band behind the intervals. */
  kind: IntervalState | 'window';
  /** Minutes from the day's start, cut to the day. */
  from: number;
  to: number;
  /** Owner clock of the real bounds, "HH:mm" (the end of a window past midnight reads as it is: "06:00"). */
  start: string;
  end: string;
  /** The real interval started before the day / ends after it. */
  before: boolean;
  after: boolean;
}

/** Milliseconds of the owner's midnight that starts `day` (YYYY-MM-DD). */
export function dayStartMs(day: string, offsetMinutes: number): number {
  return Date.parse(`${day}T00:00:00Z`) - offsetMinutes * MINUTE_MS;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The owner's wall clock of an instant: { day: 'YYYY-MM-DD', time: 'HH:mm' }. */
export function ownerClock(iso: string, offsetMinutes: number): { day: string; time: string } {
  const d = new Date(Date.parse(iso) + offsetMinutes * MINUTE_MS);
  return {
    day: `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`,
    time: `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`,
  };
}

/** The numeric offset an ISO time is written with (minutes east of UTC); undefined for Z or none. */
export function isoOffset(iso: string): number | undefined {
  const m = /([+-])(\d{2}):?(\d{2})$/.exec(iso.slice(19));
  if (!m) return undefined;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/**
 * Cuts intervals (ISO bounds) to the owner's day: what lies wholly outside it is left out, the rest
 * positioned in minutes from the day's start, in the order given.
 */
export function daySegments(
  day: string,
  offsetMinutes: number,
  items: readonly { Start: string; End: string; State?: IntervalState }[],
  kind?: 'window',
): Segment[] {
  const start = dayStartMs(day, offsetMinutes);
  const end = start + DAY_MINUTES * MINUTE_MS;
  const out: Segment[] = [];
  for (const it of items) {
    const a = Date.parse(it.Start);
    const b = Date.parse(it.End);
    if (!Number.isFinite(a) || !Number.isFinite(b) || b <= start || a >= end || b <= a) continue;
    out.push({
      kind: kind ?? it.State ?? 'unknown',
      from: (Math.max(a, start) - start) / MINUTE_MS,
      to: (Math.min(b, end) - start) / MINUTE_MS,
      start: ownerClock(it.Start, offsetMinutes).time,
      end: ownerClock(it.End, offsetMinutes).time,
      before: a < start,
      after: b > end,
    });
  }
  return out;
}

/** The ticks of the axis: every `step` hours from 0 to 24, as minutes and labels. */
export function axisTicks(step = 2): { minute: number; label: string }[] {
  const out: { minute: number; label: string }[] = [];
  for (let h = 0; h <= 24; h += step) out.push({ minute: h * 60, label: `${pad(h)}:00` });
  return out;
}

/** Minutes as hours and minutes: { h: 7, m: '05' } from 425, { m: '45' } under an hour. */
export function splitMinutes(total: number): { h?: number; m: string } {
  const n = Math.max(0, Math.round(total));
  if (n < 60) return { m: String(n) };
  return { h: Math.floor(n / 60), m: pad(n % 60) };
}
