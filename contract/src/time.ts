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

/** Date and time text without a zone: `YYYY-MM-DD`, optionally `[ T]HH:mm[:ss[.fff]]`. */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?$/;

/**
 * A time a client sent. An epoch number or text with a zone (`Z`, `+08:00`) is an instant; text
 * without one (`2024-05-01 08:00`) is a wall-clock time, read in the zone of the account that sent
 * it, never in the server's. `at(offset)` gives the instant; nothing else does, so a handler cannot
 * read a wall-clock time in the process zone by mistake.
 */
export class SentTime {
  /** `ms`: the instant, or for a wall-clock time its fields read as if UTC. */
  private constructor(private readonly ms: number, readonly zoned: boolean) {}

  static instant(ms: number): SentTime {
    return new SentTime(ms, true);
  }

  static wallClock(ms: number): SentTime {
    return new SentTime(ms, false);
  }

  /** The instant, a wall-clock time read in the zone `offsetMinutes` east of UTC. */
  at(offsetMinutes: number): Date {
    return new Date(this.zoned ? this.ms : this.ms - offsetMinutes * 60_000);
  }

  /** The time within a day of slack (for bounds that do not depend on the zone). */
  approxMs(): number {
    return this.ms;
  }

  /** As it was meant: an ISO instant, or the wall-clock time without a zone. */
  toJSON(): string {
    const iso = new Date(this.ms).toISOString();
    return this.zoned ? iso : iso.slice(0, -1);
  }
}

/** Reads what a client sent as a time (see `SentTime`); null when it is not one. */
export function sentTime(value: number | string): SentTime | null {
  if (typeof value === 'string') {
    const m = WALL_CLOCK.exec(value.trim());
    if (m) {
      const [y, mo, d, h, mi, s, f] = m.slice(1).map((x, i) => (i === 6 ? Number((x ?? '0').padEnd(3, '0')) : Number(x ?? 0)));
      const t = new Date(0);
      t.setUTCFullYear(y!, mo! - 1, d!);
      t.setUTCHours(h!, mi!, s!, f!);
      // 2024-02-30 or 25:00 are refused rather than rolled over.
      if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo! - 1 || t.getUTCDate() !== d || t.getUTCHours() !== h || t.getUTCMinutes() !== mi || t.getUTCSeconds() !== s) return null;
      return SentTime.wallClock(t.getTime());
    }
  }
  const d = toDate(value);
  return d ? SentTime.instant(d.getTime()) : null;
}

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

/**
 * year-month-day hour:minute:second at a fixed offset (minutes east of UTC): the only formatter the
 * server uses, with the viewer's offset, so what it answers never depends on the process zone.
 */
export function formatInZone(value: Date | number | string | null | undefined, offsetMinutes: number): string {
  return formatDateTime(value, offsetMinutes);
}

/** year-month-day at a fixed offset (minutes east of UTC). */
export function formatDateInZone(value: Date | number | string | null | undefined, offsetMinutes: number): string {
  return formatDateTime(value, offsetMinutes).slice(0, 10);
}

export type RelativeTime =
  | { key: 'justNow' }
  | { key: 'minutesAgo'; count: number }
  | { key: 'hoursAgo'; count: number }
  | { key: 'oneDayAgo' }
  | { key: 'date'; text: string };

/**
 * Relative time of SPEC §9: under 30 s just now; under 1 h minutes; under 1 day hours; under 2 days
 * '1 day ago'; older is the formatted date (at the reader's offset, minutes east of UTC).
 */
export function relativeTime(value: Date | number | string, now: number = Date.now(), offsetMinutes?: number): RelativeTime {
  const d = toDate(value);
  if (!d) return { key: 'date', text: '' };
  const diff = (now - d.getTime()) / 1000;
  if (diff < 30) return { key: 'justNow' };
  if (diff < 3600) return { key: 'minutesAgo', count: Math.ceil(diff / 60) };
  if (diff < 86400) return { key: 'hoursAgo', count: Math.ceil(diff / 3600) };
  if (diff < 2 * 86400) return { key: 'oneDayAgo' };
  return { key: 'date', text: formatDateTime(d, offsetMinutes) };
}
