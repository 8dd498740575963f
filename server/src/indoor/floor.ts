// Which floor a tag is on. Each scan scores the floors whose anchors were heard (the loudest anchor
// relative to its own power, averaged with the next two so one stray beacon through a stairwell does
// not decide); the tag switches floor only when another floor beats the current one by `marginDb`
// for `scans` consecutive scans. A tag whose current floor is not heard at all switches at once.

export interface FloorChoiceOptions {
  /** dB by which another floor's score must beat the current floor's (default 6). */
  marginDb: number;
  /** Consecutive scans the other floor must win before switching (default 2). */
  scans: number;
}

export const DEFAULT_FLOOR_CHOICE: FloorChoiceOptions = { marginDb: 6, scans: 2 };

export interface FloorState {
  /** `sceneId/floorId` currently chosen, or null before the first scan. */
  current: string | null;
  candidate: string | null;
  count: number;
}

export function newFloorState(): FloorState {
  return { current: null, candidate: null, count: 0 };
}

/**
 * Score of a floor from the relative loudness (rssi - rssi1m, dB) of its anchors heard in a scan:
 * the mean of the loudest three, with missing places counted as 10 dB below the quietest heard.
 */
export function floorScore(relative: number[]): number {
  if (!relative.length) return -Infinity;
  relative.sort((a, b) => b - a);
  const floor = relative[relative.length - 1] - 10;
  let s = 0;
  for (let i = 0; i < 3; i++) s += i < relative.length ? relative[i] : floor;
  return s / 3;
}

/** Updates the state from this scan's scores (by `sceneId/floorId`) and returns the chosen floor. */
export function chooseFloor(state: FloorState, scores: ReadonlyMap<string, number>, o: FloorChoiceOptions): string | null {
  let best: string | null = null;
  let bestScore = -Infinity;
  for (const [f, s] of scores) {
    if (s > bestScore) {
      best = f;
      bestScore = s;
    }
  }
  if (best === null) return state.current;
  const currentScore = state.current === null ? undefined : scores.get(state.current);
  if (state.current === null || currentScore === undefined) {
    state.current = best;
    state.candidate = null;
    state.count = 0;
    return best;
  }
  if (best === state.current || bestScore - currentScore < o.marginDb) {
    state.candidate = null;
    state.count = 0;
    return state.current;
  }
  if (state.candidate === best) state.count++;
  else {
    state.candidate = best;
    state.count = 1;
  }
  if (state.count >= o.scans) {
    state.current = best;
    state.candidate = null;
    state.count = 0;
  }
  return state.current;
}
