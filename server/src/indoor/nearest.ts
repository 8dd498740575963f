// Nearest beacon with hysteresis: the tag is placed at the anchor that looks closest, but a tag
// already placed at an anchor stays there until another anchor looks closer by `marginDb`, so a
// still tag between two beacons does not flip on every scan.

export interface NearestCandidate {
  key: string;
  /**
   * Loudness relative to the anchor's own power, dB: rssi - rssi1m (= -10 n log10 d). Comparing this
   * rather than raw RSSI keeps a strong beacon from winning over a closer weak one.
   */
  score: number;
}

/** Index of the chosen candidate, or -1 when there is none. */
export function chooseNearest(candidates: readonly NearestCandidate[], current: string | null, marginDb: number): number {
  let best = -1;
  let cur = -1;
  for (let i = 0; i < candidates.length; i++) {
    if (best < 0 || candidates[i].score > candidates[best].score) best = i;
    if (candidates[i].key === current) cur = i;
  }
  if (best < 0 || cur < 0 || cur === best) return best;
  return candidates[best].score - candidates[cur].score >= marginDb ? best : cur;
}
