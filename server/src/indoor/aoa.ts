// Position from angle-of-arrival bearings: the point minimizing the weighted sum of squared
// perpendicular distances to the bearing lines (a 2x2 linear system). Each line's weight is
// 1 / (range * angle sd)², so a far locator counts less; the accuracy radius comes from the
// solution's covariance, inflated by the residuals when there are more than two lines. Near-parallel
// bearings do not fix a point and are refused, and so is a point behind a locator. A single bearing
// with an elevation gives a point too: the horizontal range is (locator height - tag height) / tan(elevation).

export interface Bearing {
  x: number;
  y: number;
  /** Degrees clockwise on screen from the plan's +x axis (y down). */
  bearing: number;
  /** Locator height above the floor, m, and elevation above horizontal, degrees (optional). */
  height?: number;
  elevation?: number;
}

export interface BearingFix {
  x: number;
  y: number;
  accuracy: number;
  /** RMS perpendicular distance of the point to the lines, m. */
  residual: number;
  lines: number;
}

export interface AoaOptions {
  /** Angle noise of one reading, degrees (default 4). */
  angleSigmaDeg?: number;
  /** Bearings closer than this to parallel (or anti-parallel) do not intersect, degrees (default 10). */
  minCrossingDeg?: number;
  /** Tag height above the floor, m (default 1.2). */
  tagHeight?: number;
  /** Points beyond this range from a locator are refused, m (default 60). */
  maxRange?: number;
}

const RAD = Math.PI / 180;

/**
 * Horizontal range from a locator's height and an elevation, degrees. The locator hangs above the
 * tag, so the tag is always below its horizontal: locators report the angle either as negative
 * ("above horizontal" of a point below) or as a positive depression, and only the magnitude is used.
 */
export function rangeFromElevation(height: number, elevation: number, tagHeight = 1.2): number | null {
  const drop = height - tagHeight;
  const t = Math.tan(Math.abs(elevation) * RAD);
  if (!(drop > 0.05) || !(t > 1e-3)) return null;
  const r = drop / t;
  return r > 0 && r < 200 ? r : null;
}

export function intersectBearings(bearings: readonly Bearing[], o: AoaOptions = {}): BearingFix | null {
  const sigma = (o.angleSigmaDeg ?? 4) * RAD;
  const minCross = (o.minCrossingDeg ?? 10) * RAD;
  const tagHeight = o.tagHeight ?? 1.2;
  const maxRange = o.maxRange ?? 60;
  if (bearings.length === 0) return null;
  if (bearings.length === 1) {
    const b = bearings[0];
    if (b.height === undefined || b.elevation === undefined) return null;
    const r = rangeFromElevation(b.height, b.elevation, tagHeight);
    if (r === null || r > maxRange) return null;
    const a = b.bearing * RAD;
    // Along the line the range error grows fast at shallow elevations: d r / d elevation = r² / drop (+ drop).
    const drop = Math.abs(b.height - tagHeight);
    const along = ((r * r + drop * drop) / drop) * sigma;
    return { x: b.x + r * Math.cos(a), y: b.y + r * Math.sin(a), accuracy: Math.hypot(along, r * sigma), residual: 0, lines: 1 };
  }
  // Directions and the widest crossing angle between any two lines.
  const ux = bearings.map((b) => Math.cos(b.bearing * RAD));
  const uy = bearings.map((b) => Math.sin(b.bearing * RAD));
  let widest = 0;
  for (let i = 0; i < bearings.length; i++) {
    for (let j = i + 1; j < bearings.length; j++) {
      const s = Math.abs(ux[i] * uy[j] - uy[i] * ux[j]);
      widest = Math.max(widest, Math.asin(Math.min(1, s)));
    }
  }
  if (widest < minCross) return null;

  let x = 0, y = 0;
  let a11 = 0, a12 = 0, a22 = 0;
  // Two passes: unit weights first, then weights from each locator's range to the first solution.
  for (let pass = 0; pass < 2; pass++) {
    a11 = a12 = a22 = 0;
    let b1 = 0, b2 = 0;
    for (let i = 0; i < bearings.length; i++) {
      const b = bearings[i];
      const range = pass === 0 ? 1 : Math.max(1, Math.hypot(x - b.x, y - b.y));
      const w = 1 / (range * sigma) ** 2;
      // Normal to the line; the line is {p : n . p = n . p_i}.
      const nx = -uy[i];
      const ny = ux[i];
      const c = nx * b.x + ny * b.y;
      a11 += w * nx * nx;
      a12 += w * nx * ny;
      a22 += w * ny * ny;
      b1 += w * nx * c;
      b2 += w * ny * c;
    }
    const det = a11 * a22 - a12 * a12;
    if (!(det > 0)) return null;
    x = (a22 * b1 - a12 * b2) / det;
    y = (a11 * b2 - a12 * b1) / det;
  }
  let chi2 = 0;
  let sq = 0;
  for (let i = 0; i < bearings.length; i++) {
    const b = bearings[i];
    const along = (x - b.x) * ux[i] + (y - b.y) * uy[i];
    const range = Math.hypot(x - b.x, y - b.y);
    // Behind the locator (beyond what angle noise explains) or out of reach: the lines meet elsewhere than the tag.
    if (along < -Math.max(0.5, 3 * sigma * range) || range > maxRange) return null;
    const perp = -uy[i] * (x - b.x) + ux[i] * (y - b.y);
    chi2 += (perp * perp) / (Math.max(1, range) * sigma) ** 2;
    sq += perp * perp;
  }
  const m = bearings.length;
  const det = a11 * a22 - a12 * a12;
  const scale = m > 2 ? Math.max(1, chi2 / (m - 2)) : 1;
  const accuracy = Math.sqrt(((a11 + a22) / det) * scale);
  return { x, y, accuracy: Math.min(accuracy, 50), residual: Math.sqrt(sq / m), lines: m };
}
