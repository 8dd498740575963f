// Beacon-assisted positioning: a device that hears registered beacons with a known latitude and
// longitude, and has no better fix, is placed at the loudest of them (the nearest, as far as RSSI
// tells). Better: a valid GNSS fix or an indoor solution of the last BETTER_FIX_MS. The accuracy is
// the distance the RSSI suggests (1 m power -59 dBm, path-loss exponent 2.5), kept between
// BEACON_FIX_MIN_M and BEACON_FIX_MAX_M: a beacon heard loudly is close, one heard faintly may be
// tens of metres away.
import { distanceFromRssi } from '../indoor/radio.js';

export const BETTER_FIX_MS = 120_000;
export const BEACON_FIX_MIN_M = 5;
export const BEACON_FIX_MAX_M = 50;
const RSSI_1M = -59;
const EXPONENT = 2.5;

export interface PlacedBeacon {
  id: number;
  lat: number;
  lon: number;
}

export interface BeaconFix {
  beaconId: number;
  lat: number;
  lon: number;
  accuracy: number;
}

/** The loudest heard beacon that is registered with a place, as a fix; null when none is. */
export function chooseBeacon(heard: { key: string; rssi: number }[], registry: ReadonlyMap<string, PlacedBeacon>): BeaconFix | null {
  let best: { b: PlacedBeacon; rssi: number } | null = null;
  for (const h of heard) {
    const b = registry.get(h.key);
    if (b && Number.isFinite(h.rssi) && (!best || h.rssi > best.rssi)) best = { b, rssi: h.rssi };
  }
  if (!best) return null;
  const d = distanceFromRssi(best.rssi, RSSI_1M, EXPONENT);
  const accuracy = Math.min(BEACON_FIX_MAX_M, Math.max(BEACON_FIX_MIN_M, Math.round(d * 10) / 10));
  return { beaconId: best.b.id, lat: best.b.lat, lon: best.b.lon, accuracy };
}

/** Whether a better fix than a beacon's is recent: a valid GNSS fix or an indoor solution within BETTER_FIX_MS of `now`. */
export function betterFixRecent(last: { gnss?: number; indoor?: number } | undefined, now: number): boolean {
  if (!last) return false;
  return [last.gnss, last.indoor].some((t) => t !== undefined && now - t < BETTER_FIX_MS && t <= now + BETTER_FIX_MS);
}
