// The day detail's timeline: intervals and schedule windows placed on the owner's 24-hour axis, a
// window past midnight cut at the day's end and marked as continuing, and figures written for people.
import { beforeAll, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import i18n from '../src/i18n';
import { axisTicks, dayStartMs, daySegments, isoOffset, ownerClock } from '../src/pages/account/attendance/timeline';
import { formatMinutes, formatOwnerTime, offsetText } from '../src/pages/account/attendance/format';
import { currentWeek, filtersOf } from '../src/pages/account/attendance/AttendancePanel';

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

const t = i18n.t.bind(i18n);

describe('attendance timeline', () => {
  // 2026-11-24 in UTC+8: the owner's day runs from 2026-11-23T16:00Z to 2026-11-24T16:00Z.
  const day = '2026-11-24';
  const tz = 480;

  it('starts the owner’s day at the owner’s midnight', () => {
    expect(new Date(dayStartMs(day, tz)).toISOString()).toBe('2026-11-23T16:00:00.000Z');
    expect(new Date(dayStartMs(day, -300)).toISOString()).toBe('2026-11-24T05:00:00.000Z');
  });

  it('cuts a window past midnight at the end of the day and says it continues', () => {
    const windows = daySegments(
      day,
      tz,
      [
        { Start: '2026-11-24T08:30:00+08:00', End: '2026-11-24T12:00:00+08:00' },
        // 22:00 to 06:00 the next morning, written in UTC.
        { Start: '2026-11-24T14:00:00Z', End: '2026-11-24T22:00:00Z' },
      ],
      'window',
    );
    expect(windows).toEqual([
      { kind: 'window', from: 510, to: 720, start: '08:30', end: '12:00', before: false, after: false },
      { kind: 'window', from: 1320, to: 1440, start: '22:00', end: '06:00', before: false, after: true },
    ]);
  });

  it('places inside, outside and unknown intervals and leaves out what lies beyond the day', () => {
    const segments = daySegments(day, tz, [
      // From before the day (yesterday's night shift) to 07:50.
      { Start: '2026-11-23T21:00:00+08:00', End: '2026-11-24T07:50:00+08:00', State: 'unknown' },
      { Start: '2026-11-24T07:50:00+08:00', End: '2026-11-24T08:42:00+08:00', State: 'outside' },
      { Start: '2026-11-24T08:42:00+08:00', End: '2026-11-24T22:05:00+08:00', State: 'inside' },
      { Start: '2026-11-24T22:05:00+08:00', End: '2026-11-25T05:30:00+08:00', State: 'outside' },
      // Wholly on the next day: not on this day's axis.
      { Start: '2026-11-25T05:30:00+08:00', End: '2026-11-25T06:00:00+08:00', State: 'inside' },
      // Empty or reversed: nothing to draw.
      { Start: '2026-11-24T10:00:00+08:00', End: '2026-11-24T10:00:00+08:00', State: 'inside' },
    ]);
    expect(segments.map((s) => [s.kind, s.from, s.to, s.before, s.after])).toEqual([
      ['unknown', 0, 470, true, false],
      ['outside', 470, 522, false, false],
      ['inside', 522, 1325, false, false],
      ['outside', 1325, 1440, false, true],
    ]);
    // Drawn end to end, they cover the day without overlapping.
    for (let i = 1; i < segments.length; i++) expect(segments[i]!.from).toBe(segments[i - 1]!.to);
  });

  it('reads the same instants in another time zone', () => {
    const segments = daySegments('2026-11-24', -300, [{ Start: '2026-11-24T14:00:00Z', End: '2026-11-24T22:00:00Z', State: 'inside' }]);
    expect(segments).toEqual([{ kind: 'inside', from: 540, to: 1020, start: '09:00', end: '17:00', before: false, after: false }]);
  });

  it('ticks every two hours from 00:00 to 24:00', () => {
    const ticks = axisTicks(2);
    expect(ticks).toHaveLength(13);
    expect(ticks[0]).toEqual({ minute: 0, label: '00:00' });
    expect(ticks[4]).toEqual({ minute: 480, label: '08:00' });
    expect(ticks.at(-1)).toEqual({ minute: 1440, label: '24:00' });
  });
});

describe('attendance figures', () => {
  it('writes long minutes as hours and minutes in each language', async () => {
    expect(formatMinutes(t, 45)).toBe('45 min');
    expect(formatMinutes(t, 425)).toBe('7 h 05 min');
    expect(formatMinutes(t, 600)).toBe('10 h 00 min');
    await i18n.changeLanguage('zh-CN');
    expect(formatMinutes(t, 425)).toBe('7 小时 05 分');
    await i18n.changeLanguage('zh-TW');
    expect(formatMinutes(t, 425)).toBe('7 小時 05 分');
    await i18n.changeLanguage('en');
  });

  it('shows instants on the owner’s clock, marking the next day', () => {
    expect(ownerClock('2026-11-24T00:03:00Z', 480)).toEqual({ day: '2026-11-24', time: '08:03' });
    expect(isoOffset('2026-11-24T08:03:00+08:00')).toBe(480);
    expect(isoOffset('2026-11-24T08:03:00.000-05:30')).toBe(-330);
    expect(isoOffset('2026-11-24T00:03:00Z')).toBeUndefined();
    // Z names no owner: the fallback offset is used; a written offset is taken as it is.
    expect(formatOwnerTime(t, '2026-11-24T00:03:00Z', '2026-11-24', 480)).toBe('08:03');
    expect(formatOwnerTime(t, '2026-11-24T08:03:00+08:00', '2026-11-24', 0)).toBe('08:03');
    expect(formatOwnerTime(t, '2026-11-24T22:10:00Z', '2026-11-24', 480)).toBe('06:10 (next day)');
    expect(formatOwnerTime(t, null, '2026-11-24', 480)).toBe('—');
    expect(offsetText(480)).toBe('+08:00');
    expect(offsetText(-330)).toBe('-05:30');
  });

  it('defaults to this week up to today, Monday first', () => {
    const [from, to] = currentWeek(dayjs('2026-11-25T15:00:00'));
    expect([from.format('YYYY-MM-DD'), to.format('YYYY-MM-DD')]).toEqual(['2026-11-23', '2026-11-25']);
    const [sFrom, sTo] = currentWeek(dayjs('2026-11-29T09:00:00'));
    expect([sFrom.format('YYYY-MM-DD'), sTo.format('YYYY-MM-DD')]).toEqual(['2026-11-23', '2026-11-29']);
    expect(filtersOf({ Imei: ' 865000000000001 ', FenceId: 3 }, dayjs('2026-11-25'))).toEqual({
      From: '2026-11-23',
      To: '2026-11-25',
      FenceId: 3,
      Imei: '865000000000001',
    });
  });
});
