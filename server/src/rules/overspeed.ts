// Overspeed, pure: a device's reported speed above its limit for `fixes` consecutive fixes raises
// once (a single spike, a GPS jump, raises nothing); the first fix at or under the limit ends it.
// A fix without a usable speed says nothing.

export interface OverspeedState {
  /** Consecutive fixes above the limit so far. */
  over: number;
  /** An alarm stands for this episode; null: not known (the process started since). */
  raised: boolean | null;
}

export const OVERSPEED_START: OverspeedState = { over: 0, raised: null };

/** Fastest speed (km/h) taken as a reading; anything beyond is a broken report, not a speed. */
export const MAX_SPEED_KMH = 1000;

/** A reported speed as a reading, or null when it is none (missing, negative, not finite, absurd). */
export function speedReading(v: unknown): number | null {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > MAX_SPEED_KMH) return null;
  return Math.round(v * 10) / 10;
}

export function overspeedStep(s: OverspeedState, speed: number, limit: number, fixes: number): { state: OverspeedState; change: 'raise' | 'clear' | null } {
  if (speed > limit) {
    const over = s.over + 1;
    if (over >= Math.max(1, fixes) && s.raised !== true) return { state: { over, raised: true }, change: 'raise' };
    return { state: { over, raised: s.raised }, change: null };
  }
  // Back under the limit: an alarm standing (or possibly standing, after a restart) has ended.
  return { state: { over: 0, raised: false }, change: s.raised === false ? null : 'clear' };
}
