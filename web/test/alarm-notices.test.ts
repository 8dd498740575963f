// @vitest-environment jsdom
// Where alarm pop-ups go: SOS and fall each their own at the top, never folded; lesser alarms at the
// bottom, at most MAX_LESSER_NOTICES open, older ones folded into one counter.
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_LESSER_NOTICES, admitNotice, closeNoticeKeys, closeNotices, moreNoticeClosed, noticeClosed, noticeOpened, setNoticeCloser } from '../src/realtime/alarmNotices';

const destroyed: string[] = [];
const n = (deviceId: number, type: number) => ({ deviceId, imei: String(deviceId), type });

/** Opens a pop-up as the realtime provider does: admit, close what it displaces, open. */
function popUp(key: string, type: number, urgent: boolean) {
  const slot = admitNotice(key, urgent);
  closeNoticeKeys(slot.evict);
  noticeOpened(key, n(1, type));
  return slot;
}

beforeEach(() => {
  setNoticeCloser((key) => destroyed.push(key));
  closeNotices();
  moreNoticeClosed();
  destroyed.length = 0;
});

describe('alarm pop-ups', () => {
  it('an SOS goes to the top and is never folded away, however many lesser alarms follow', () => {
    expect(popUp('sos-1', 5, true)).toEqual({ placement: 'topRight', evict: [], folded: 0 });
    for (let i = 0; i < 10; i++) expect(popUp(`loc-${i}`, 60, false).placement).toBe('bottomRight');
    expect(destroyed).not.toContain('sos-1');
    expect(destroyed).toEqual(['loc-0', 'loc-1', 'loc-2', 'loc-3', 'loc-4', 'loc-5', 'loc-6']);
  });

  it('folds the oldest lesser pop-up into the counter once the limit is open, and counts each', () => {
    for (let i = 0; i < MAX_LESSER_NOTICES; i++) expect(popUp(`loc-${i}`, 60, false)).toMatchObject({ evict: [], folded: 0 });
    expect(popUp('loc-x', 60, false)).toEqual({ placement: 'bottomRight', evict: ['loc-0'], folded: 1 });
    expect(popUp('loc-y', 60, false)).toMatchObject({ evict: ['loc-1'], folded: 2 });
  });

  it('a lesser pop-up the user closed frees its place, and a closed counter counts from zero', () => {
    for (let i = 0; i < MAX_LESSER_NOTICES + 1; i++) popUp(`loc-${i}`, 60, false);
    noticeClosed('loc-2');
    expect(popUp('loc-z', 60, false)).toMatchObject({ evict: [], folded: 1 });
    moreNoticeClosed();
    expect(popUp('loc-w', 60, false)).toMatchObject({ evict: ['loc-1'], folded: 1 });
  });
});
