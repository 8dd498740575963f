// Per tag+anchor RSSI smoothing: a one-dimensional Kalman filter on dBm whose uncertainty grows with
// the time since the last reading (a random walk of `processNoise` dB²/s, as the tag moves) and
// shrinks with each reading (measurement noise = shadowing variance). Unlike a fixed-weight moving
// average it copes with irregular scan rates: after a gap the next reading counts for more.
// Entries not refreshed within `maxAgeMs` expire.

export interface SmoothingOptions {
  /** Random-walk variance added per second, dB²/s (how fast the true RSSI may drift as the tag moves). */
  processNoise: number;
  /** Variance of one reading, dB² (shadowing sigma squared). */
  measurementNoise: number;
  /** A reading older than this is no longer used, ms. */
  maxAgeMs: number;
}

export const DEFAULT_SMOOTHING: SmoothingOptions = { processNoise: 3, measurementNoise: 16, maxAgeMs: 4000 };

export interface SmoothedRssi {
  /** Estimate, dBm. */
  value: number;
  /** Its variance, dB². */
  variance: number;
  /** Time of the last reading, ms. */
  time: number;
}

/** The smoothed state of one anchor as heard by one tag; updated in place (no allocation per reading). */
export function smoothRssi(prev: SmoothedRssi | undefined, rssi: number, time: number, o: SmoothingOptions): SmoothedRssi {
  if (!prev || time - prev.time > o.maxAgeMs || time < prev.time - o.maxAgeMs) {
    return { value: rssi, variance: o.measurementNoise, time };
  }
  // Readings slightly out of order (several gateways) count as simultaneous.
  const dt = Math.max(0, time - prev.time) / 1000;
  const p = prev.variance + o.processNoise * dt;
  const k = p / (p + o.measurementNoise);
  prev.value += k * (rssi - prev.value);
  prev.variance = (1 - k) * p;
  prev.time = Math.max(prev.time, time);
  return prev;
}

/** The estimate's variance at `now` (grown by the time since the last reading). */
export function varianceAt(s: SmoothedRssi, now: number, o: SmoothingOptions): number {
  return s.variance + (o.processNoise * Math.max(0, now - s.time)) / 1000;
}

/** Drops the entries of a map older than maxAgeMs at `now`. */
export function expireSmoothed(map: Map<string, SmoothedRssi>, now: number, o: SmoothingOptions): void {
  for (const [k, s] of map) if (now - s.time > o.maxAgeMs) map.delete(k);
}
