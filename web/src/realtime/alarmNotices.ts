// The alarm pop-ups open in this console, by notification key, so that handling an alarm (opening
// it on the monitor, confirming it) closes its pop-ups and, with the last one, the alarm sound.
import { useRealtime } from './store';

export interface OpenNotice {
  deviceId: number;
  imei: string;
  type: number;
}

const open = new Map<string, OpenNotice>();
let destroy: (key: string) => void = () => undefined;
let closed: (key: string) => void = () => undefined;

/** Told of every pop-up that closed (its sound stops). */
export function setNoticeClosedListener(fn: (key: string) => void): void {
  closed = fn;
}

/** The shell's notification API closes a pop-up by key (antd's destroy does not call onClose). */
export function setNoticeCloser(fn: (key: string) => void): void {
  destroy = fn;
}

/** A pop-up opened, or one already open shown again with a newer alarm (counted once). */
export function noticeOpened(key: string, notice: OpenNotice): void {
  const fresh = !open.has(key);
  open.set(key, notice);
  if (fresh) useRealtime.getState().notificationOpened();
}

/** The one pop-up the alarms other than SOS share: the latest shown, the others counted. */
export const LESSER_NOTICE_KEY = 'alarm-lesser';
let lesserCount = 0;

/**
 * Where an alarm's pop-up goes (SOS_TYPE: the SOS type code): each SOS its own pop-up at the top
 * right, above everything, never covered; any other alarm replaces the one shared pop-up at the
 * bottom left (clear of the map's zoom buttons at the bottom right), which counts the alarms it
 * stands for since it opened.
 */
export function noticeSlot(type: number, sosType: number, uniqueKey: string): { key: string; placement: 'topRight' | 'bottomLeft'; count: number } {
  if (type === sosType) return { key: uniqueKey, placement: 'topRight', count: 1 };
  lesserCount = open.has(LESSER_NOTICE_KEY) ? lesserCount + 1 : 1;
  return { key: LESSER_NOTICE_KEY, placement: 'bottomLeft', count: lesserCount };
}

/** The pop-up closed by itself or by its close button. */
export function noticeClosed(key: string): void {
  if (!open.delete(key)) return;
  useRealtime.getState().notificationClosed();
  closed(key);
}

/** Closes the open pop-ups that match (all of them without a filter). */
export function closeNotices(match: (n: OpenNotice) => boolean = () => true): void {
  for (const [key, n] of [...open]) {
    if (!match(n)) continue;
    destroy(key);
    noticeClosed(key);
  }
}
