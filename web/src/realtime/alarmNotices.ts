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

export function noticeOpened(key: string, notice: OpenNotice): void {
  open.set(key, notice);
  useRealtime.getState().notificationOpened();
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
