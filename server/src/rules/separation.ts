// A slave tag's separation from its master, pure. The master's scans are hearings; a slave not
// heard for `timeoutMs` (counted from its last hearing, or from when it began to be watched if it
// was never heard) is separated, once; heard again it is back, once. A hearing older than the last
// one does not move the clock back.

export interface SlaveState {
  /** Device time (ms) of the last hearing; null: never heard. */
  lastHeard: number | null;
  /** When watching began (binding made, or the process started). */
  watchedSince: number;
  separated: boolean;
}

export type SeparationInput = { heardAt: number } | { now: number };

export function separationStep(s: SlaveState, input: SeparationInput, timeoutMs: number): { state: SlaveState; change: 'separated' | 'back' | null } {
  if ('heardAt' in input) {
    const lastHeard = s.lastHeard === null ? input.heardAt : Math.max(s.lastHeard, input.heardAt);
    return { state: { ...s, lastHeard, separated: false }, change: s.separated ? 'back' : null };
  }
  if (s.separated) return { state: s, change: null };
  const since = s.lastHeard ?? s.watchedSince;
  if (input.now - since < timeoutMs) return { state: s, change: null };
  return { state: { ...s, separated: true }, change: 'separated' };
}
