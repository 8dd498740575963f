// Attendance figures for people: minutes as hours and minutes, instants as the owner's clock.
import type { TFunction } from 'i18next';
import { isoOffset, ownerClock, splitMinutes } from './timeline';

/** "45 min", "7 h 05 min" (localized). */
export function formatMinutes(t: TFunction, minutes: number): string {
  const { h, m } = splitMinutes(minutes);
  return h === undefined ? t('attendance:duration.minutes', { m }) : t('attendance:duration.hours', { h, m });
}

/**
 * The owner's clock of an instant of `day`: "08:03", or "06:10 (next day)" when it falls on the
 * following day. The offset is the one the time is written with when it names one, else
 * `fallbackOffset` (a time in Z names no owner).
 */
export function formatOwnerTime(t: TFunction, iso: string | null, day: string | null, fallbackOffset: number): string {
  if (!iso) return t('attendance:none');
  const clock = ownerClock(iso, isoOffset(iso) ?? fallbackOffset);
  if (day && clock.day > day) return `${clock.time} (${t('attendance:nextDay')})`;
  if (day && clock.day < day) return `${clock.day} ${clock.time}`;
  return clock.time;
}

/** "+08:00" from 480. */
export function offsetText(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const a = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(a / 60)).padStart(2, '0')}:${String(a % 60).padStart(2, '0')}`;
}
