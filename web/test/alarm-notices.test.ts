// Alarm pop-ups: each SOS gets its own, at the top right; every other alarm shares one pop-up at the
// bottom left that shows the latest and counts the rest; the sound's count of open pop-ups counts
// that shared pop-up once however often it is shown again.
import { beforeEach, describe, expect, it } from 'vitest';
import { closeNotices, LESSER_NOTICE_KEY, noticeClosed, noticeOpened, noticeSlot } from '../src/realtime/alarmNotices';
import { useRealtime } from '../src/realtime/store';

const SOS = 5;
const openCount = () => useRealtime.getState().openNotifications;

beforeEach(() => closeNotices());

describe('alarm pop-up slots', () => {
  it('gives each SOS its own pop-up at the top right', () => {
    expect(noticeSlot(SOS, SOS, 'a')).toEqual({ key: 'a', placement: 'topRight', count: 1 });
    expect(noticeSlot(SOS, SOS, 'b')).toEqual({ key: 'b', placement: 'topRight', count: 1 });
  });

  it('collapses the other alarms into one pop-up at the bottom left that counts them, and starts again once it is closed', () => {
    const first = noticeSlot(60, SOS, 'x');
    expect(first).toEqual({ key: LESSER_NOTICE_KEY, placement: 'bottomLeft', count: 1 });
    const before = openCount();
    noticeOpened(first.key, { deviceId: 1, imei: '1', type: 60 });
    expect(noticeSlot(61, SOS, 'y').count).toBe(2);
    noticeOpened(LESSER_NOTICE_KEY, { deviceId: 2, imei: '2', type: 61 });
    expect(noticeSlot(30, SOS, 'z').count).toBe(3);
    noticeOpened(LESSER_NOTICE_KEY, { deviceId: 2, imei: '2', type: 30 });
    // Shown three times, open once: closing it stops the sound's count.
    expect(openCount()).toBe(before + 1);
    noticeClosed(LESSER_NOTICE_KEY);
    expect(openCount()).toBe(before);
    expect(noticeSlot(60, SOS, 'w').count).toBe(1);
  });
});
