// Fitting the radio model to a building: RSSI@1m per anchor and the path-loss exponent n of a floor,
// from readings at known distances. Two sources give those readings:
//   - anchors hearing each other (their distance is known from where they are placed), and
//   - a short walk with a phone or tag held at known points of the plan.
// The model rssi = A_anchor - 10 n log10(d) is linear in (A_anchor..., n): for a given n each A is
// the mean of rssi + 10 n log10 d over that anchor's readings, which leaves n as a one-variable
// least-squares problem on the readings centred per anchor. The fit error is returned in dB and in
// metres (the distance the fitted model gives for each reading against the true one) so it can be
// looked at before it is applied.
import { isPlausibleRssi, MIN_DISTANCE } from './radio.js';

export interface CalibrationSample {
  /** The transmitting anchor whose RSSI@1m is fitted. */
  anchor: string;
  rssi: number;
  /** True slant distance, m. */
  distance: number;
}

export interface CalibrationOptions {
  /** Fix n instead of fitting it (e.g. too few distinct distances). */
  exponent?: number;
  /** Bounds of a believable fit; outside them the fit is clamped (n in [1.4, 5], RSSI@1m in [-90, -30]). */
  exponentRange?: [number, number];
  rssi1mRange?: [number, number];
  /**
   * Readings at longer distances are left out, m (default 15): far readings sit near the hearing
   * threshold, where only the lucky ones are heard, and would bias n low and RSSI@1m high.
   */
  maxDistance?: number;
}

export interface CalibrationResult {
  /** Fitted RSSI@1m per anchor key (only anchors with readings). */
  rssi1m: Record<string, number>;
  exponent: number;
  /** RMS of (reading - model), dB. */
  rmsDb: number;
  /** RMS of (model distance for the reading - true distance), m. */
  rmsMetres: number;
  samples: number;
}

export interface PlacedAnchor {
  key: string;
  x: number;
  y: number;
  /** Height above the floor, m (default 2.5). */
  height?: number;
}

/** Samples from anchors hearing each other: `from` transmits, `to` receives; distance from their placement. */
export function samplesFromAnchorPairs(readings: readonly { from: string; to: string; rssi: number }[], anchors: readonly PlacedAnchor[]): CalibrationSample[] {
  const at = new Map(anchors.map((a) => [a.key, a]));
  const out: CalibrationSample[] = [];
  for (const r of readings) {
    const a = at.get(r.from);
    const b = at.get(r.to);
    if (!a || !b || a === b) continue;
    const d = Math.hypot(a.x - b.x, a.y - b.y, (a.height ?? 2.5) - (b.height ?? 2.5));
    out.push({ anchor: r.from, rssi: r.rssi, distance: d });
  }
  return out;
}

/** Samples from a walk: at each known point (plan metres, held at `tagHeight`) the anchors heard. */
export function samplesFromWalk(points: readonly { x: number; y: number; heard: readonly { anchor: string; rssi: number }[] }[], anchors: readonly PlacedAnchor[], tagHeight = 1.2): CalibrationSample[] {
  const at = new Map(anchors.map((a) => [a.key, a]));
  const out: CalibrationSample[] = [];
  for (const p of points) {
    for (const h of p.heard) {
      const a = at.get(h.anchor);
      if (!a) continue;
      out.push({ anchor: h.anchor, rssi: h.rssi, distance: Math.hypot(a.x - p.x, a.y - p.y, (a.height ?? 2.5) - tagHeight) });
    }
  }
  return out;
}

export function fitRadioModel(samples: readonly CalibrationSample[], o: CalibrationOptions = {}): CalibrationResult | null {
  const [nMin, nMax] = o.exponentRange ?? [1.4, 5];
  const [aMin, aMax] = o.rssi1mRange ?? [-90, -30];
  const ok = samples.filter((s) => isPlausibleRssi(s.rssi) && Number.isFinite(s.distance) && s.distance >= MIN_DISTANCE && s.distance <= (o.maxDistance ?? 15) && typeof s.anchor === 'string');
  if (!ok.length) return null;
  const groups = new Map<string, { r: number; l: number }[]>();
  for (const s of ok) {
    let g = groups.get(s.anchor);
    if (!g) groups.set(s.anchor, (g = []));
    g.push({ r: s.rssi, l: Math.log10(s.distance) });
  }
  let n = o.exponent;
  if (n === undefined) {
    // Centred per anchor: r - r̄ = -10 n (l - l̄) + noise.
    let sxy = 0;
    let sxx = 0;
    for (const g of groups.values()) {
      const rm = g.reduce((a, b) => a + b.r, 0) / g.length;
      const lm = g.reduce((a, b) => a + b.l, 0) / g.length;
      for (const p of g) {
        sxy += (p.r - rm) * (p.l - lm);
        sxx += (p.l - lm) ** 2;
      }
    }
    // Without distinct distances n is not observable: keep the usual free-space-like 2.
    n = sxx > 1e-6 ? -sxy / (10 * sxx) : 2;
  }
  n = Math.min(nMax, Math.max(nMin, n));
  const rssi1m: Record<string, number> = {};
  let se = 0;
  let sm = 0;
  for (const [key, g] of groups) {
    const a = Math.min(aMax, Math.max(aMin, g.reduce((acc, p) => acc + p.r + 10 * n * p.l, 0) / g.length));
    rssi1m[key] = a;
    for (const p of g) {
      const e = p.r - (a - 10 * n * p.l);
      se += e * e;
      const dModel = Math.pow(10, (a - p.r) / (10 * n));
      sm += (dModel - Math.pow(10, p.l)) ** 2;
    }
  }
  return { rssi1m, exponent: n, rmsDb: Math.sqrt(se / ok.length), rmsMetres: Math.sqrt(sm / ok.length), samples: ok.length };
}
