// What indoor radio hardware would report for a tag at a true position: BLE RSSI at each anchor from
// the log-distance model with log-normal shadowing (a fresh draw per reading), a loss per floor
// between tag and anchor, a hearing threshold and the N loudest kept (what a scan or a gateway
// report carries, rounded to whole dBm); UWB coordinates with centimetre noise inside the UWB wing;
// AOA azimuth and elevation with angle noise from locators that see the tag.
import { Rng } from '../rng.js';
import type { Building, BuildingAnchor } from './building.js';
import { UWB_WING } from './building.js';
import type { WalkTruth } from './walk.js';

export interface RadioOptions {
  /** Log-normal shadowing, dB (default 4). */
  sigmaDb?: number;
  /** Loss per floor between tag and anchor, dB (default 15). */
  floorLossDb?: number;
  /** Readings below this are not heard, dBm (default -95). */
  thresholdDbm?: number;
  /** Readings kept per scan, loudest first (default 8). */
  topN?: number;
  /** Tag height above its floor, m (default 1.2). */
  tagHeight?: number;
}

/** Height between floors, m (for the slant distance to anchors on another floor). */
const STOREY = 3.2;

export interface SimHeard {
  anchor: string;
  rssi: number;
}

function levelOf(b: Building, floorId: string): number {
  return b.floors.find((f) => f.floorId === floorId)?.level ?? 0;
}

/** The true mean RSSI an anchor receives from (or a tag receives from) a point, before shadowing. */
export function meanRssi(b: Building, a: BuildingAnchor, floorId: string, x: number, y: number, o: RadioOptions = {}): number {
  const la = levelOf(b, a.floorId);
  const lt = levelOf(b, floorId);
  const dz = a.height + la * STOREY - ((o.tagHeight ?? 1.2) + lt * STOREY);
  const d = Math.max(0.1, Math.hypot(a.x - x, a.y - y, dz));
  const n = b.floors.find((f) => f.floorId === a.floorId)?.exponent ?? 2;
  return a.rssi1m - 10 * n * Math.log10(d) - (o.floorLossDb ?? 15) * Math.abs(la - lt);
}

/** A BLE scan at the truth: the loudest heard anchors (BLE only) with shadowing, whole dBm. */
export function bleScan(b: Building, t: Pick<WalkTruth, 'floorId' | 'x' | 'y'>, rng: Rng, o: RadioOptions = {}): SimHeard[] {
  const sigma = o.sigmaDb ?? 4;
  const threshold = o.thresholdDbm ?? -95;
  const out: SimHeard[] = [];
  for (const a of b.anchors) {
    if (a.kind !== 'ble') continue;
    const rssi = Math.round(meanRssi(b, a, t.floorId, t.x, t.y, o) + rng.normal(0, sigma));
    if (rssi >= threshold) out.push({ anchor: a.key, rssi });
  }
  out.sort((p, q) => q.rssi - p.rssi);
  return out.slice(0, o.topN ?? 8);
}

/**
 * Anchors hearing each other, for calibration: `rounds` readings of every BLE anchor by every other
 * BLE anchor of the same floor that hears it.
 */
export function anchorPairReadings(b: Building, rng: Rng, rounds = 10, o: RadioOptions = {}): { from: string; to: string; rssi: number }[] {
  const sigma = o.sigmaDb ?? 4;
  const threshold = o.thresholdDbm ?? -95;
  const ble = b.anchors.filter((a) => a.kind === 'ble');
  const out: { from: string; to: string; rssi: number }[] = [];
  for (const from of ble) {
    for (const to of ble) {
      if (from === to || from.floorId !== to.floorId) continue;
      for (let r = 0; r < rounds; r++) {
        // The receiver is at its own mounting height: tagHeight = to.height.
        const rssi = Math.round(meanRssi(b, from, to.floorId, to.x, to.y, { ...o, tagHeight: to.height }) + rng.normal(0, sigma));
        if (rssi >= threshold) out.push({ from: from.key, to: to.key, rssi });
      }
    }
  }
  return out;
}

export interface SimUwb {
  anchor: string;
  x: number;
  y: number;
  z: number;
  quality: number;
}

/** A UWB fix when the tag is in the UWB wing: coordinates with 10-30 cm noise (per-fix sd), quality accordingly. */
export function uwbFix(b: Building, t: Pick<WalkTruth, 'floorId' | 'x' | 'y'>, rng: Rng, tagHeight = 1.2): SimUwb | null {
  const w = UWB_WING;
  if (t.floorId !== w.floorId || t.x < w.x0 || t.x > w.x1 || t.y < w.y0 || t.y > w.y1) return null;
  const uwb = b.anchors.filter((a) => a.kind === 'uwb' && a.floorId === t.floorId);
  if (!uwb.length) return null;
  const nearest = uwb.reduce((p, q) => (Math.hypot(q.x - t.x, q.y - t.y) < Math.hypot(p.x - t.x, p.y - t.y) ? q : p));
  const sd = rng.range(0.1, 0.3);
  return {
    anchor: nearest.key,
    x: t.x + rng.normal(0, sd),
    y: t.y + rng.normal(0, sd),
    z: tagHeight + rng.normal(0, sd),
    // The engine reads quality 100 as 0.1 m and 0 as 3 m: report the sd used on that scale.
    quality: Math.round(100 - ((sd * Math.SQRT2 - 0.1) / 2.9) * 100),
  };
}

export interface SimAoa {
  locator: string;
  azimuth: number;
  elevation: number;
}

export interface AoaOptions {
  /** Angle noise, degrees (default 4). */
  sigmaDeg?: number;
  /** Half field of view around the boresight, degrees (default 75). */
  halfFovDeg?: number;
  /** Locators farther than this do not report, m (default 25). */
  maxRange?: number;
  tagHeight?: number;
}

/** AOA readings of the tag by the locators of its floor that see it; azimuth relative to boresight, elevation negative (below the locator). */
export function aoaReadings(b: Building, t: Pick<WalkTruth, 'floorId' | 'x' | 'y'>, rng: Rng, o: AoaOptions = {}): SimAoa[] {
  const sigma = o.sigmaDeg ?? 4;
  const out: SimAoa[] = [];
  for (const l of b.locators) {
    if (l.floorId !== t.floorId) continue;
    const dx = t.x - l.x;
    const dy = t.y - l.y;
    const r = Math.hypot(dx, dy);
    if (r < 0.3 || r > (o.maxRange ?? 25)) continue;
    let az = (Math.atan2(dy, dx) * 180) / Math.PI - l.heading;
    az = ((((az + 180) % 360) + 360) % 360) - 180;
    if (Math.abs(az) > (o.halfFovDeg ?? 75)) continue;
    const el = (-Math.atan2(l.height - (o.tagHeight ?? 1.2), r) * 180) / Math.PI;
    out.push({ locator: l.key, azimuth: az + rng.normal(0, sigma), elevation: el + rng.normal(0, sigma) });
  }
  return out;
}
