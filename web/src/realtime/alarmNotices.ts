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

/** Pop-ups of lesser alarms (all but SOS and fall) open at once; older ones fold into a counter. */
export const MAX_LESSER_NOTICES = 3;
/** The key of the counter that stands for the lesser pop-ups folded away. */
export const MORE_NOTICE_KEY = 'alarm-more';

/** Open lesser pop-ups, oldest first. */
const lesser: string[] = [];
let folded = 0;

/**
 * Where an alarm's pop-up goes and what it displaces. An urgent alarm (SOS, fall: `urgent`) has its
 * own pop-up at the top right, under the header, and is never folded away. Any other alarm opens at
 * the bottom right, above the map's zoom buttons; when `MAX_LESSER_NOTICES` of them are open, the
 * oldest closes and the counter counts it (`folded`), so lesser alarms never pile up over the map or
 * push an SOS off the screen. The bell and the alarm records keep every one.
 */
export function admitNotice(key: string, urgent: boolean): { placement: 'topRight' | 'bottomRight'; evict: string[]; folded: number } {
  if (urgent) return { placement: 'topRight', evict: [], folded };
  for (let i = lesser.length - 1; i >= 0; i--) if (!open.has(lesser[i]!)) lesser.splice(i, 1);
  const evict: string[] = [];
  while (lesser.length >= MAX_LESSER_NOTICES) {
    evict.push(lesser.shift()!);
    folded += 1;
  }
  lesser.push(key);
  return { placement: 'bottomRight', evict, folded };
}

/** Closes pop-ups by key (those folded into the counter). */
export function closeNoticeKeys(keys: string[]): void {
  for (const key of keys) {
    destroy(key);
    noticeClosed(key);
  }
}

/** The counter closed (by the user, or by opening the records): it counts from zero again. */
export function moreNoticeClosed(): void {
  folded = 0;
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
