// The day of a device at a fence, computed from its fixes (pure): figures to the minute, the carried
// state, night windows, silent days and time zones.
import { describe, expect, it } from 'vitest';
import { computeDay, sameCarried, spanOf, type Fix } from '../src/modules/account-fence/attendance/compute.js';
import { sliceFixes } from '../src/modules/account-fence/attendance/job.js';

const DWELL = { fixes: 2, ms: 60_000 };
const WORKDAYS = { days: [1, 2, 3, 4, 5], windows: [{ start: '08:00', end: '17:00' }] };
const NIGHT = { days: [1, 2, 3, 4, 5], windows: [{ start: '22:00', end: '06:00' }] };
const MIN = 60_000;
/** 2026-03-02 is a Monday. */
const DAY = '2026-03-02';
/** An instant of a local day in a zone `tz` minutes east of UTC: at('08:12') or at('05:50', 1) the next day. */
const at = (hhmm: string, plusDays = 0, tz = 480, day = DAY) =>
  Date.parse(`${day}T00:00:00Z`) - tz * MIN + plusDays * 86_400_000 + (Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))) * MIN + (hhmm.length > 5 ? Number(hhmm.slice(6)) * 1000 : 0);
const fix = (hhmm: string, inside: boolean, plusDays = 0, tz = 480): Fix => ({ time: at(hhmm, plusDays, tz), inside });
const LATER = at('12:00', 3);
const outside = { inside: false, pendingSince: null, pendingCount: 0 };

describe('a device day at a fence', () => {
  it('measures a scripted working day to the minute: late 12, left 30 early, inside from 08:12 to 16:30', () => {
    const fixes = [
      fix('07:30', false),
      fix('07:45', false),
      fix('08:12', true),
      fix('08:13', true),
      // A single jittery fix outside at noon is dropped by the dwell.
      fix('12:00', false),
      fix('12:00:30', true),
      fix('16:30', false),
      fix('16:31', false),
      fix('18:00', false),
    ];
    const r = computeDay({ day: DAY, tz: 480, schedule: WORKDAYS, dwell: DWELL, start: outside, fixes, now: LATER });
    expect(r).toMatchObject({
      firstIn: at('08:12'),
      lastOut: at('16:30'),
      insideSeconds: (8 * 60 + 18) * 60,
      entries: 1,
      exits: 1,
      lateMinutes: 12,
      earlyMinutes: 30,
      late: true,
      early: true,
      absent: false,
      scheduled: true,
      end: outside,
    });
    expect(r.intervals).toEqual([
      { start: at('00:00'), end: at('08:12'), state: 'outside' },
      { start: at('08:12'), end: at('16:30'), state: 'inside' },
      { start: at('16:30'), end: at('00:00', 1), state: 'outside' },
    ]);
    expect(r.windows).toEqual([{ start: at('08:00'), end: at('17:00') }]);
  });

  it('is on time and stays to the end when inside over the whole window; under a minute late is on time', () => {
    const fixes = [fix('07:59:30', true), fix('08:00:20', true), fix('17:05', false), fix('17:06', false)];
    const r = computeDay({ day: DAY, tz: 480, schedule: WORKDAYS, dwell: DWELL, start: outside, fixes, now: LATER });
    expect(r).toMatchObject({ lateMinutes: 0, earlyMinutes: 0, late: false, early: false, absent: false, entries: 1, exits: 1 });
  });

  it('holds the carried side from 00:00 until the first crossing; the first entry is then 00:00', () => {
    const fixes = [fix('09:00', true), fix('20:00', false), fix('20:01', false)];
    const r = computeDay({ day: DAY, tz: 480, schedule: null, dwell: DWELL, start: { inside: true, pendingSince: null, pendingCount: 0 }, fixes, now: LATER });
    expect(r).toMatchObject({ firstIn: at('00:00'), lastOut: at('20:00'), insideSeconds: 20 * 3600, entries: 0, exits: 1, scheduled: false, late: false, absent: false, lateMinutes: 0 });
    expect(r.end).toEqual(outside);
  });

  it('is unknown before the first fix ever, which sets the side without counting an entry', () => {
    const r = computeDay({ day: DAY, tz: 480, schedule: WORKDAYS, dwell: DWELL, start: null, fixes: [fix('08:30', true), fix('10:00', true)], now: LATER });
    expect(r).toMatchObject({ firstIn: at('08:30'), entries: 0, exits: 0, lateMinutes: 30, late: true, insideSeconds: (15 * 60 + 30) * 60 });
    expect(r.intervals[0]).toEqual({ start: at('00:00'), end: at('08:30'), state: 'unknown' });
    expect(r.end.inside).toBe(true);
  });

  it('counts a silent scheduled day absent and unknown, and carries the side on', () => {
    const carried = { inside: true, pendingSince: null, pendingCount: 0 };
    const r = computeDay({ day: DAY, tz: 480, schedule: WORKDAYS, dwell: DWELL, start: carried, fixes: [], now: LATER });
    expect(r).toMatchObject({ absent: true, scheduled: true, insideSeconds: 0, firstIn: null, entries: 0 });
    expect(r.intervals).toEqual([{ start: at('00:00'), end: at('00:00', 1), state: 'unknown' }]);
    expect(sameCarried(r.end, carried)).toBe(true);
    // Sunday is outside the schedule: neither absent nor scheduled.
    const sunday = computeDay({ day: '2026-03-01', tz: 480, schedule: WORKDAYS, dwell: DWELL, start: carried, fixes: [], now: LATER });
    expect(sunday).toMatchObject({ absent: false, scheduled: false });
  });

  it('is absent when never inside during the window, even if inside outside it', () => {
    const fixes = [fix('06:00', true), fix('06:10', true), fix('07:00', false), fix('07:01', false), fix('18:00', true), fix('18:01', true)];
    const r = computeDay({ day: DAY, tz: 480, schedule: WORKDAYS, dwell: DWELL, start: outside, fixes, now: LATER });
    expect(r).toMatchObject({ absent: true, late: false, early: false, entries: 2, exits: 1, insideSeconds: 60 * 60 + 6 * 3600 });
  });

  it('measures a night window 22:00-06:00 on the day it starts, with the next morning fixes', () => {
    const fixes = [fix('21:00', false), fix('22:05', true), fix('22:06', true), fix('03:00', true, 1), fix('05:50', false, 1), fix('05:51', false, 1)];
    const r = computeDay({ day: DAY, tz: 480, schedule: NIGHT, dwell: DWELL, start: outside, fixes, now: LATER });
    expect(r).toMatchObject({ lateMinutes: 5, earlyMinutes: 10, late: true, early: true, absent: false, entries: 1, exits: 0, firstIn: at('22:05'), lastOut: null });
    expect(r.insideSeconds).toBe(115 * 60);
    // The next day starts from midnight's side: inside.
    expect(r.end).toEqual({ inside: true, pendingSince: null, pendingCount: 0 });
    expect(spanOf(DAY, 480, NIGHT)).toEqual({ start: at('00:00'), dayEnd: at('00:00', 1), end: at('06:00', 1) });
    // The next day counts the exit, and its own night window is missed: absent.
    const next = computeDay({ day: '2026-03-03', tz: 480, schedule: NIGHT, dwell: DWELL, start: r.end, fixes: fixes.filter((f) => f.time >= at('00:00', 1)), now: LATER });
    expect(next).toMatchObject({ exits: 1, lastOut: at('05:50', 1), firstIn: at('00:00', 1), insideSeconds: 350 * 60, absent: true });
  });

  it('counts only what has happened on the current day: no absence or early leave before the window ends', () => {
    const fixes = [fix('07:00', false), fix('07:01', false)];
    const r = computeDay({ day: DAY, tz: 480, schedule: WORKDAYS, dwell: DWELL, start: outside, fixes, now: at('10:00') });
    expect(r).toMatchObject({ absent: false, late: false, early: false });
    expect(r.intervals.at(-1)).toEqual({ start: at('00:00'), end: at('10:00'), state: 'outside' });
    const arrived = computeDay({ day: DAY, tz: 480, schedule: WORKDAYS, dwell: DWELL, start: outside, fixes: [...fixes, fix('08:20', true), fix('08:21', true)], now: at('10:00') });
    expect(arrived).toMatchObject({ lateMinutes: 20, earlyMinutes: 0, absent: false, insideSeconds: 100 * 60 });
  });

  it('carries a crossing pending at midnight into the next day', () => {
    const fixes = [fix('23:59', true)];
    const r = computeDay({ day: DAY, tz: 480, schedule: null, dwell: { fixes: 3, ms: 0 }, start: outside, fixes, now: LATER });
    expect(r.end).toEqual({ inside: false, pendingSince: at('23:59'), pendingCount: 1 });
    expect(r.entries).toBe(0);
    const next = computeDay({ day: '2026-03-03', tz: 480, schedule: null, dwell: { fixes: 3, ms: 0 }, start: r.end, fixes: [fix('00:01', true, 1), fix('00:02', true, 1)], now: LATER });
    expect(next).toMatchObject({ entries: 1, firstIn: at('00:00', 1) });
  });

  it('cuts days at the owner zone midnight: UTC-5 and UTC+8 put the same fixes on different days', () => {
    // 2026-03-02 03:00Z is 11:00 on the 2nd at UTC+8 and 22:00 on the 1st at UTC-5.
    const t = Date.parse('2026-03-02T03:00:00Z');
    const fixes = [{ time: t, inside: true }, { time: t + MIN, inside: true }, { time: t + 2 * 3600_000, inside: false }, { time: t + 2 * 3600_000 + MIN, inside: false }];
    const plus8 = computeDay({ day: DAY, tz: 480, schedule: null, dwell: DWELL, start: outside, fixes, now: LATER });
    expect(plus8).toMatchObject({ entries: 1, exits: 1, insideSeconds: 7200, firstIn: t });
    const minus5Same = computeDay({ day: DAY, tz: -300, schedule: null, dwell: DWELL, start: outside, fixes, now: LATER });
    expect(minus5Same).toMatchObject({ entries: 0, exits: 0, insideSeconds: 0 });
    const minus5Before = computeDay({ day: '2026-03-01', tz: -300, schedule: null, dwell: DWELL, start: outside, fixes, now: LATER });
    expect(minus5Before).toMatchObject({ entries: 1, exits: 0, insideSeconds: 2 * 3600 });
    expect(minus5Before.intervals.at(-1)).toEqual({ start: t, end: Date.parse('2026-03-02T05:00:00Z'), state: 'inside' });
  });

  it('slices time-ordered fixes by binary search', () => {
    const list = [1, 2, 3, 5, 8].map((time) => ({ time, inside: true }));
    expect(sliceFixes(list, 2, 6).map((f) => f.time)).toEqual([2, 3, 5]);
    expect(sliceFixes(list, 9, 10)).toEqual([]);
  });
});
