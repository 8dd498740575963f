// The log-distance path-loss model used to turn RSSI into distance and back:
//   rssi(d) = rssi1m - 10 n log10(d)   <=>   d = 10^((rssi1m - rssi) / (10 n))
// and the spread of a distance estimate when RSSI carries log-normal shadowing of sigma dB.

/** Readings outside this window are not radio (firmware placeholders, overflowed bytes) and are ignored. */
export const MIN_RSSI = -120;
export const MAX_RSSI = 0;
/** Distances are kept within this span: below 10 cm the model is meaningless, above 200 m no BLE anchor is heard. */
export const MIN_DISTANCE = 0.1;
export const MAX_DISTANCE = 200;

export function isPlausibleRssi(rssi: unknown): rssi is number {
  return typeof rssi === 'number' && Number.isFinite(rssi) && rssi >= MIN_RSSI && rssi <= MAX_RSSI;
}

/** Distance in metres (slant, anchor to tag) for an RSSI, bounded to [MIN_DISTANCE, MAX_DISTANCE]. */
export function distanceFromRssi(rssi: number, rssi1m: number, exponent: number): number {
  const d = Math.pow(10, (rssi1m - rssi) / (10 * exponent));
  return Math.min(MAX_DISTANCE, Math.max(MIN_DISTANCE, d));
}

/** The RSSI the model expects at a distance (metres, bounded below by MIN_DISTANCE). */
export function rssiAtDistance(distance: number, rssi1m: number, exponent: number): number {
  return rssi1m - 10 * exponent * Math.log10(Math.max(MIN_DISTANCE, distance));
}

/**
 * Standard deviation, m, of a distance estimated from an RSSI whose own standard deviation is
 * `sigmaDb`: the estimate is log-normal, ln d has sd sigma ln10 / (10 n), and to first order
 * sd(d) = d * sigma ln10 / (10 n).
 */
export function distanceSigma(distance: number, sigmaDb: number, exponent: number): number {
  return (distance * sigmaDb * Math.LN10) / (10 * exponent);
}
