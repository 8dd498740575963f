// No motion, pure: a device watched for "no motion for N minutes" inside a schedule's windows (in
// the account's zone) raises once per window occurrence when it has not moved for N minutes within
// it; without a schedule, once per still spell. Motion is a step count going up, or a position far
// enough from the last one; a step counter going back (a new day) only sets a new base.
import { haversineMeters } from './fence.js';
import { localDay, windowsOn, type Schedule } from './schedule.js';

const DAY_MS = 86_400_000;
/** Moving less than this (metres) between two fixes is no motion: outdoor fixes wander. */
export const MOTION_OUTDOOR_METRES = 50;
/** Indoor fixes, on one floor: plan metres. */
export const MOTION_INDOOR_METRES = 1.5;

export interface MotionState {
  /** Last motion (ms); the start of watching when none was seen. */
  lastMotion: number;
  steps: number | null;
  lat: number | null;
  lon: number | null;
  floorId: number | null;
  x: number | null;
  y: number | null;
  /** Window occurrence (or still spell) already alarmed, by its start (ms). */
  alarmed: number | null;
  /** An alarm may be standing (raised, or not known after a restart) until motion clears it. */
  open: boolean;
}

export const motionStart = (now: number): MotionState => ({ lastMotion: now, steps: null, lat: null, lon: null, floorId: null, x: null, y: null, alarmed: null, open: true });

export type MotionSample =
  | { kind: 'steps'; time: number; steps: number }
  | { kind: 'position'; time: number; lat: number | null; lon: number | null; floorId?: number | null; x?: number | null; y?: number | null };

/** Folds one sample in; `moved` when it is motion. */
export function motionStep(s: MotionState, m: MotionSample): { state: MotionState; moved: boolean } {
  if (m.kind === 'steps') {
    if (!Number.isFinite(m.steps) || m.steps < 0) return { state: s, moved: false };
    const moved = s.steps !== null && m.steps > s.steps;
    return { state: { ...s, steps: m.steps, lastMotion: moved ? Math.max(s.lastMotion, m.time) : s.lastMotion }, moved };
  }
  if (m.floorId != null && m.x != null && m.y != null) {
    const moved = s.floorId !== null && s.x !== null && s.y !== null && (s.floorId !== m.floorId || Math.hypot(m.x - s.x, m.y - s.y) >= MOTION_INDOOR_METRES);
    return { state: { ...s, floorId: m.floorId, x: m.x, y: m.y, lastMotion: moved ? Math.max(s.lastMotion, m.time) : s.lastMotion }, moved };
  }
  if (m.lat === null || m.lon === null) return { state: s, moved: false };
  const moved = s.lat !== null && s.lon !== null && haversineMeters({ lat: s.lat, lon: s.lon }, { lat: m.lat, lon: m.lon }) >= MOTION_OUTDOOR_METRES;
  // A fix that did not move keeps the base: slow drift does not add up to motion unseen.
  const base = moved || s.lat === null ? { lat: m.lat, lon: m.lon } : { lat: s.lat, lon: s.lon };
  return { state: { ...s, ...base, lastMotion: moved ? Math.max(s.lastMotion, m.time) : s.lastMotion }, moved };
}

/** The window occurrence running at `now` ([start, end)), or null; without a schedule, always. */
export function windowAt(schedule: Schedule | null, now: number, tz: number): { start: number; end: number } | null {
  if (!schedule) return { start: Number.NEGATIVE_INFINITY, end: Number.POSITIVE_INFINITY };
  const days = [localDay(now - DAY_MS, tz), localDay(now, tz)];
  return days.flatMap((d) => windowsOn(schedule, d, tz)).find((w) => now >= w.start && now < w.end) ?? null;
}

/**
 * Is a no-motion alarm due at `now`? Counted from the last motion or the window's start, whichever
 * is later; at most once per occurrence (its key: the window's start, or the still spell's).
 */
export function noMotionDue(s: MotionState, now: number, minutes: number, schedule: Schedule | null, tz: number): { key: number; since: number } | null {
  const w = windowAt(schedule, now, tz);
  if (!w) return null;
  const since = Math.max(s.lastMotion, w.start);
  const key = schedule ? w.start : s.lastMotion;
  if (s.alarmed === key || now - since < minutes * 60_000) return null;
  return { key, since };
}
