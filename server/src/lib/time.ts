// Times as the caller sees them. Times are stored as instants; what the platform answers or exports
// is written at the viewer's offset (the account's timeZoneOffset, minutes east of UTC, read with the
// session), and a time the viewer sends without a zone is read at that offset. Nothing here, nor
// anywhere on the server, uses the process's zone (server/test/viewer-zone.test.ts scans for it).
import { formatInZone, type SentTime } from '@wt/contract';
import type { AuthUser } from '../calls.js';

type Viewer = Pick<AuthUser, 'timeZoneOffset'>;
type Value = Date | number | string | null | undefined;

/** `YYYY-MM-DD HH:mm:ss` in the viewer's zone ('' for no time). */
export function shownTime(viewer: Viewer, value: Value): string {
  return formatInZone(value, viewer.timeZoneOffset);
}

/** As `shownTime`, null for no time. */
export function shownTimeOrNull(viewer: Viewer, value: Value): string | null {
  return value === null || value === undefined || value === '' ? null : formatInZone(value, viewer.timeZoneOffset);
}

/** The instant of a time the viewer sent (a wall-clock time is read in its zone). */
export function sentInstant(viewer: Viewer, t: SentTime): Date;
export function sentInstant(viewer: Viewer, t: SentTime | undefined): Date | undefined;
export function sentInstant(viewer: Viewer, t: SentTime | undefined): Date | undefined {
  return t?.at(viewer.timeZoneOffset);
}

/** The viewer's calendar day of an instant, YYYY-MM-DD. */
export function viewerDay(viewer: Viewer, value: Value = new Date()): string {
  return formatInZone(value, viewer.timeZoneOffset).slice(0, 10);
}

/** The viewer's calendar day of a time it sent, YYYY-MM-DD (`2024-05-01` stays that day in every zone). */
export function sentDay(viewer: Viewer, t: SentTime): string {
  return viewerDay(viewer, t.at(viewer.timeZoneOffset));
}

/** The instant the viewer's day began, `daysBack` days before today. */
export function viewerDayStart(viewer: Viewer, daysBack: number, now = Date.now()): Date {
  const offset = viewer.timeZoneOffset * 60_000;
  const local = new Date(now + offset);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() - daysBack) - offset);
}
