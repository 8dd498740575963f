// The debounced side of one device at one account fence, pure. GPS jitter near a boundary must not
// flood alarms: a fix on the other side only starts a candidate crossing, which is confirmed when the
// new side has held for `fixes` consecutive fixes or for `ms` since its first fix, whichever comes
// first (either criterion may be switched off with 0). A fix back on the current side drops the
// candidate. A confirmed crossing is dated by its first fix on the new side: that is when the wearer
// crossed. The first fix ever seen for a fence only sets the side (no crossing: nothing was seen to
// cross), so a device already inside when a fence is created raises nothing.
//
// Fixes must come in device-time order: one not newer than the last evaluated is refused (`stale`);
// the caller decides what a late fix means (attendance recomputes the day from stored positions).

export interface DwellConfig {
  /** Consecutive fixes on the new side that confirm a crossing (0: not a criterion). */
  fixes: number;
  /** Milliseconds on the new side that confirm a crossing (0: not a criterion). */
  ms: number;
}

export interface DwellState {
  inside: boolean;
  /** Device time (ms) of the first fix on the current side. */
  since: number;
  /** Device time (ms) of the last fix evaluated. */
  time: number;
  /** First fix time of a candidate crossing to the other side, or null. */
  pendingSince: number | null;
  pendingCount: number;
}

export interface Crossing {
  /** The side entered. */
  inside: boolean;
  /** First fix on the new side. */
  time: number;
  /** The fix that confirmed it. */
  confirmedAt: number;
  /** The first fix seen: a side, not a crossing. */
  initial: boolean;
}

export type DwellResult = { stale: true } | { stale: false; state: DwellState; crossing: Crossing | null };

export function dwellStep(prev: DwellState | null | undefined, inside: boolean, time: number, cfg: DwellConfig): DwellResult {
  if (!prev) {
    return {
      stale: false,
      state: { inside, since: time, time, pendingSince: null, pendingCount: 0 },
      crossing: { inside, time, confirmedAt: time, initial: true },
    };
  }
  if (time <= prev.time) return { stale: true };
  if (inside === prev.inside) return { stale: false, state: { ...prev, time, pendingSince: null, pendingCount: 0 }, crossing: null };
  const pendingSince = prev.pendingSince ?? time;
  const pendingCount = prev.pendingSince === null ? 1 : prev.pendingCount + 1;
  const held = (cfg.fixes > 0 && pendingCount >= cfg.fixes) || (cfg.ms > 0 && time - pendingSince >= cfg.ms) || (cfg.fixes <= 0 && cfg.ms <= 0);
  if (!held) return { stale: false, state: { ...prev, time, pendingSince, pendingCount }, crossing: null };
  return {
    stale: false,
    state: { inside, since: pendingSince, time, pendingSince: null, pendingCount: 0 },
    crossing: { inside, time: pendingSince, confirmedAt: time, initial: false },
  };
}
