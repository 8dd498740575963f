// One device's day at one account fence, pure: the same dwell-debounced replay the fence engine runs
// live (rules/dwell.ts), over the day's stored fixes, so attendance and alarms agree.
//
// Semantics
// - The day is the local day in the fence owner's time zone: [00:00, next 00:00). Fixes are the
//   device's usable positions (valid, with coordinates, accuracy not poorer than
//   FENCE_MAX_ACCURACY_M or unknown), each already tested against the area, in device-time order.
// - The replay starts from the previous day's end state (side and pending crossing), or unknown when
//   there is none. A confirmed crossing is dated by its first fix on the new side (dwellStep), and
//   counts on the day whose fixes confirmed it; a crossing started before midnight and confirmed
//   after it is clamped to 00:00. The first fix ever seen only sets the side: not an entry or exit.
// - Intervals: before the first known side of the day the carried side holds from 00:00; where
//   nothing is known the day is unknown. A day with no fix at all (in its span, below) is unknown
//   from end to end, whatever was carried: a device that sent nothing has no attendance that day
//   (on a scheduled day it is absent); its end state is still carried on unchanged. Intervals end at
//   `now` for the current day.
// - First entry: the start of the first inside interval of the day (00:00 when the day starts
//   inside, the first fix when the first fix ever is inside). Last exit: the time of the last exit
//   crossing of the day, null when none (also when the day ends inside after an earlier exit, the
//   earlier exit is the last exit). Time inside: seconds inside within the day. Entries/exits:
//   confirmed crossings in/out.
// - Schedule: the windows that start on the day (a night shift 22:00-06:00 belongs to the day it
//   starts, so its day's span runs to 06:00 next morning and takes those fixes too; the end state
//   carried to the next day is still the one at midnight). Per window: late minutes from its start
//   to the first inside moment in it (whole minutes, floor: under a minute is on time); early minutes
//   from the end of the last inside interval in it to its end, when the device is not inside at the
//   end; a window never inside is missed (neither late nor early). Figures sum over the windows;
//   `late`/`early` say some window was. Absent: a scheduled day whose windows have all ended without
//   an inside moment. Windows not over yet count only what has happened (no absence, no early).
// - Without a schedule (or on a day of the week outside it): presence figures only.
import { dwellStep, type DwellConfig, type DwellState } from '../../../rules/dwell.js';
import { dayStart, nextDay, windowsOn, type Schedule } from '../../../rules/schedule.js';

export type Side = 'inside' | 'outside' | 'unknown';

export interface Fix {
  /** Device time, ms. */
  time: number;
  inside: boolean;
}

/** The side and pending crossing a day starts from (the previous day's end). */
export interface CarriedState {
  inside: boolean | null;
  pendingSince: number | null;
  pendingCount: number;
}

export interface DayInput {
  day: string;
  /** Owner's time zone, minutes east of UTC. */
  tz: number;
  schedule: Schedule | null;
  dwell: DwellConfig;
  start: CarriedState | null;
  /** The device's usable fixes in device-time order; those outside the day's span are ignored. */
  fixes: Fix[];
  /** Now, ms: nothing is known after it. */
  now: number;
}

export interface Interval {
  start: number;
  end: number;
  state: Side;
}

export interface DayResult {
  day: string;
  firstIn: number | null;
  lastOut: number | null;
  insideSeconds: number;
  entries: number;
  exits: number;
  lateMinutes: number;
  earlyMinutes: number;
  late: boolean;
  early: boolean;
  absent: boolean;
  scheduled: boolean;
  /** The state at midnight, which the next day starts from. */
  end: CarriedState;
  /** Inside/outside/unknown over the day, up to `now`. */
  intervals: Interval[];
  windows: { start: number; end: number }[];
}

export interface DaySpan {
  /** 00:00 of the day. */
  start: number;
  /** 00:00 of the next day. */
  dayEnd: number;
  /** The later of the day's end and the end of its last window (a window may run into the next day). */
  end: number;
}

export function spanOf(day: string, tz: number, schedule: Schedule | null): DaySpan {
  const start = dayStart(day, tz);
  const dayEnd = dayStart(nextDay(day), tz);
  const end = Math.max(dayEnd, ...windowsOn(schedule, day, tz).map((w) => w.end));
  return { start, dayEnd, end };
}

/** Two carried states are the same (the next days then come out the same from the same fixes). */
export function sameCarried(a: CarriedState | null, b: CarriedState | null): boolean {
  const x = a ?? { inside: null, pendingSince: null, pendingCount: 0 };
  const y = b ?? { inside: null, pendingSince: null, pendingCount: 0 };
  return x.inside === y.inside && x.pendingSince === y.pendingSince && x.pendingCount === y.pendingCount;
}

const sideOf = (inside: boolean): Side => (inside ? 'inside' : 'outside');

/** Clips a timeline to [from, to), dropping empty pieces. */
export function clip(timeline: Interval[], from: number, to: number): Interval[] {
  const out: Interval[] = [];
  for (const i of timeline) {
    const s = Math.max(i.start, from);
    const e = Math.min(i.end, to);
    if (e > s) out.push({ start: s, end: e, state: i.state });
  }
  return out;
}

export function computeDay(input: DayInput): DayResult {
  const { day, tz, schedule, dwell, now } = input;
  const span = spanOf(day, tz, schedule);
  const limit = Math.min(span.end, now);
  const dayLimit = Math.min(span.dayEnd, now);
  const fixes = input.fixes.filter((f) => f.time >= span.start && f.time < limit);
  const carried = input.start && input.start.inside !== null ? input.start : null;

  let state: DwellState | null = carried
    ? { inside: carried.inside!, since: span.start, time: span.start - 1, pendingSince: carried.pendingSince, pendingCount: carried.pendingCount }
    : null;
  // Change points of the side, in time order; the first holds from 00:00.
  const changes: { time: number; side: Side }[] = [{ time: span.start, side: carried && fixes.length > 0 ? sideOf(carried.inside!) : 'unknown' }];
  let entries = 0;
  let exits = 0;
  let lastOut: number | null = null;
  let endState: DwellState | null | undefined;
  for (const fix of fixes) {
    if (endState === undefined && fix.time >= span.dayEnd) endState = state;
    const r = dwellStep(state, fix.inside, fix.time, dwell);
    if (r.stale) continue;
    state = r.state;
    const c = r.crossing;
    if (!c) continue;
    const at = Math.max(c.time, span.start);
    changes.push({ time: at, side: sideOf(c.inside) });
    if (c.initial || fix.time >= span.dayEnd) continue;
    if (c.inside) entries += 1;
    else {
      exits += 1;
      lastOut = at;
    }
  }
  if (endState === undefined) endState = state;

  const timeline: Interval[] = [];
  changes.forEach((c, i) => {
    const end = i + 1 < changes.length ? changes[i + 1]!.time : limit;
    const last = timeline[timeline.length - 1];
    if (end <= c.time) return;
    if (last && last.state === c.side && last.end === c.time) last.end = end;
    else timeline.push({ start: c.time, end, state: c.side });
  });

  const intervals = clip(timeline, span.start, dayLimit);
  const inside = intervals.filter((i) => i.state === 'inside');
  const insideSeconds = Math.floor(inside.reduce((s, i) => s + (i.end - i.start), 0) / 1000);

  const windows = windowsOn(schedule, day, tz);
  let lateMinutes = 0;
  let earlyMinutes = 0;
  let late = false;
  let early = false;
  let attended = false;
  let allOver = true;
  for (const w of windows) {
    if (w.end > now) allOver = false;
    if (w.start >= now) continue;
    const inWindow = clip(timeline, w.start, Math.min(w.end, now)).filter((i) => i.state === 'inside');
    if (inWindow.length === 0) continue;
    attended = true;
    const lateBy = Math.floor((inWindow[0]!.start - w.start) / 60_000);
    if (lateBy > 0) {
      late = true;
      lateMinutes += lateBy;
    }
    if (w.end <= now) {
      const earlyBy = Math.floor((w.end - inWindow[inWindow.length - 1]!.end) / 60_000);
      if (earlyBy > 0) {
        early = true;
        earlyMinutes += earlyBy;
      }
    }
  }

  return {
    day,
    firstIn: inside[0]?.start ?? null,
    lastOut,
    insideSeconds,
    entries,
    exits,
    lateMinutes,
    earlyMinutes,
    late,
    early,
    absent: windows.length > 0 && allOver && !attended,
    scheduled: windows.length > 0,
    end: endState ? { inside: endState.inside, pendingSince: endState.pendingSince, pendingCount: endState.pendingCount } : { inside: null, pendingSince: null, pendingCount: 0 },
    intervals,
    windows,
  };
}
