// Schedules of account fences, pure: days of the week and "HH:mm" windows in the owner account's time
// zone (a fixed offset, minutes east of UTC). A window belongs to the day it starts on; one whose end
// is not after its start ends on the next day (a night shift 22:00-06:00 that starts on Friday runs
// into Saturday morning).

export interface ScheduleWindow {
  start: string;
  end: string;
}
export interface Schedule {
  /** 0 Sunday ... 6 Saturday. */
  days: number[];
  windows: ScheduleWindow[];
}

const DAY_MS = 86_400_000;
const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The local day (YYYY-MM-DD) of an instant, in a zone `offsetMin` minutes east of UTC. */
export function localDay(timeMs: number, offsetMin: number): string {
  return new Date(timeMs + offsetMin * 60_000).toISOString().slice(0, 10);
}

/** The instant a local day starts, in a zone `offsetMin` minutes east of UTC. */
export function dayStart(day: string, offsetMin: number): number {
  return Date.parse(`${day}T00:00:00Z`) - offsetMin * 60_000;
}

export function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

export function weekdayOf(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}

/** The days from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = nextDay(d)) out.push(d);
  return out;
}

/** The windows that start on a local day, as instants [start, end) (the end may fall on the next day). */
export function windowsOn(schedule: Schedule | null, day: string, offsetMin: number): { start: number; end: number }[] {
  if (!schedule || !schedule.days.includes(weekdayOf(day))) return [];
  const base = dayStart(day, offsetMin);
  return schedule.windows
    .map((w) => {
      const s = minutesOf(w.start);
      let e = minutesOf(w.end);
      if (e <= s) e += 24 * 60;
      return { start: base + s * 60_000, end: base + e * 60_000 };
    })
    .sort((a, b) => a.start - b.start);
}

/** Is the fence active at an instant? Always without a schedule; else inside one of its windows (the day's or the previous day's running past midnight). */
export function activeAt(schedule: Schedule | null, timeMs: number, offsetMin: number): boolean {
  if (!schedule) return true;
  const day = localDay(timeMs, offsetMin);
  const prev = localDay(timeMs - DAY_MS, offsetMin);
  return [...windowsOn(schedule, prev, offsetMin), ...windowsOn(schedule, day, offsetMin)].some((w) => timeMs >= w.start && timeMs < w.end);
}
