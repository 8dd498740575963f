// Times as the account reads them: the platform stores instants and shows them in the zone of the
// logged-in account (its timeZoneOffset, minutes east of UTC), not the browser's. A time the user
// picks is sent as wall-clock text without a zone, which the server reads in the account's zone.
import { useCallback } from 'react';
import dayjs, { type Dayjs } from 'dayjs';
import { formatDateTime } from '@wt/contract';
import { useSession } from '../stores/session';

type Value = Date | number | string | null | undefined;

/** The browser's own offset, only until the account's information has arrived. */
const browserOffset = () => -new Date().getTimezoneOffset();

/** The account's offset (minutes east of UTC). */
export function viewerOffset(info: { timeZoneOffset?: number | null } | null | undefined): number {
  return typeof info?.timeZoneOffset === 'number' ? info.timeZoneOffset : browserOffset();
}

/** The logged-in account's offset. */
export function useViewerOffset(): number {
  return useSession((s) => viewerOffset(s.userInfo));
}

/** Text the server already wrote in the account's zone: shown as it is. */
const SHOWN = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** `YYYY-MM-DD HH:mm:ss` at an offset: an instant converted, a time the server already wrote kept ('' for none). */
export function shownAt(value: Value, offset: number): string {
  if (typeof value === 'string' && SHOWN.test(value)) return value;
  return formatDateTime(value, offset);
}

/** An instant from the server in the logged-in account's zone (outside React: the session's current account). */
export function shownTime(value: Value): string {
  return shownAt(value, viewerOffset(useSession.getState().userInfo));
}

/** As `shownTime`, re-rendering when the account's zone changes. */
export function useShownTime(): (value: Value) => string {
  const offset = useViewerOffset();
  return useCallback((value: Value) => shownAt(value, offset), [offset]);
}

/** A picked date and time as the text the server reads in the account's zone (no zone of its own). */
export function wallClock(d: Dayjs): string {
  return d.format('YYYY-MM-DD HH:mm:ss.SSS');
}

/**
 * Now as the account's wall clock: a picker value whose date and time read as they do in the
 * account's zone (a range picker starts at the account's today, whatever the browser's zone).
 * Picked values go back to the server with `wallClock`, never as browser instants.
 */
export function viewerNow(offset: number, now: number = Date.now()): Dayjs {
  return dayjs(formatDateTime(now, offset));
}

/** `viewerNow` at the logged-in account's offset. */
export function accountNow(): Dayjs {
  return viewerNow(viewerOffset(useSession.getState().userInfo));
}
