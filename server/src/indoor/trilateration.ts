// Position from ranges: weighted least squares over anchors with estimated slant distances, solved
// by Gauss-Newton in the plane (the height difference between anchor and tag is part of each
// range). Weights are 1 / sd² of each range, and an accuracy radius comes from the covariance of
// the solution, inflated when the residuals are larger than the range uncertainties claim.
//   1 anchor: the anchor itself, accuracy = its range.
//   2 anchors: the point on the segment between them that splits it in the ratio of the ranges.
//   3+: Gauss-Newton from the range-weighted centroid.
// The 2x2 normal equations are solved in closed form: this runs for every scan of every tag, and a
// general matrix library would allocate far more than the few numbers involved.

export interface Range {
  x: number;
  y: number;
  /** Height difference anchor - tag, m (0 if unknown). */
  dz: number;
  /** Estimated slant distance, m. */
  d: number;
  /** Its standard deviation, m (> 0): a floor under the sd when `relSd` is given. */
  sd: number;
  /**
   * Relative sd of the range (sd / distance), for ranges from RSSI, whose error grows with distance.
   * The weight follows the distance at the current estimate, not the measured one: weighting by the
   * measured range would trust most the ranges whose noise made them short, pulling fixes toward
   * anchors. (A log-domain residual, the textbook fit for log-normal ranges, measured slightly worse
   * here once RSSI is smoothed: the smoothed errors are small and nearly symmetric in metres.)
   */
  relSd?: number;
}

export interface RangeFix {
  x: number;
  y: number;
  accuracy: number;
  /** RMS of range residuals, m. */
  residual: number;
}

export interface TrilaterationOptions {
  /** Gauss-Newton iterations at most (default 8). */
  maxIterations?: number;
  /** The solution is kept within the anchors' bounding box grown by this much, m (default 3). */
  boxMargin?: number;
  /** Starting point (e.g. the previous fix); the weighted centroid otherwise. */
  start?: { x: number; y: number };
}

function horizontal(r: Range): number {
  return Math.sqrt(Math.max(0, r.d * r.d - r.dz * r.dz));
}

export function trilaterate(ranges: readonly Range[], o: TrilaterationOptions = {}): RangeFix | null {
  const m = ranges.length;
  if (m === 0) return null;
  if (m === 1) {
    const r = ranges[0];
    return { x: r.x, y: r.y, accuracy: Math.max(horizontal(r), r.sd), residual: 0 };
  }
  if (m === 2) {
    const [a, b] = ranges;
    const da = horizontal(a);
    const db = horizontal(b);
    const t = da + db > 0 ? da / (da + db) : 0.5;
    const x = a.x + (b.x - a.x) * t;
    const y = a.y + (b.y - a.y) * t;
    const gap = Math.hypot(b.x - a.x, b.y - a.y);
    // Nothing fixes the position across the line between the anchors: the accuracy is at least the
    // shorter horizontal range (and the sd of that range along it).
    const residual = Math.abs(gap - da - db) / 2;
    return { x, y, accuracy: Math.hypot(Math.min(da, db), Math.min(a.sd, b.sd), residual), residual };
  }

  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  let sw = 0, cx = 0, cy = 0;
  for (const r of ranges) {
    if (r.x < minX) minX = r.x;
    if (r.x > maxX) maxX = r.x;
    if (r.y < minY) minY = r.y;
    if (r.y > maxY) maxY = r.y;
    const w = 1 / (r.d * r.d);
    sw += w;
    cx += w * r.x;
    cy += w * r.y;
  }
  const margin = o.boxMargin ?? 3;
  minX -= margin;
  minY -= margin;
  maxX += margin;
  maxY += margin;
  let x = o.start && Number.isFinite(o.start.x) ? o.start.x : cx / sw;
  let y = o.start && Number.isFinite(o.start.y) ? o.start.y : cy / sw;
  x = Math.min(maxX, Math.max(minX, x));
  y = Math.min(maxY, Math.max(minY, y));

  let a11 = 0, a12 = 0, a22 = 0, chi2 = 0, sq = 0;
  const iterations = o.maxIterations ?? 8;
  for (let it = 0; it <= iterations; it++) {
    a11 = a12 = a22 = 0;
    let g1 = 0, g2 = 0;
    chi2 = sq = 0;
    for (const r of ranges) {
      const dx = x - r.x;
      const dy = y - r.y;
      const s = Math.sqrt(dx * dx + dy * dy + r.dz * r.dz) || 1e-6;
      const res = s - r.d;
      const sd = r.relSd === undefined ? r.sd : Math.max(r.sd, r.relSd * s);
      const w = 1 / (sd * sd);
      // Jacobian of the slant distance with respect to (x, y).
      const jx = dx / s;
      const jy = dy / s;
      a11 += w * jx * jx;
      a12 += w * jx * jy;
      a22 += w * jy * jy;
      g1 += w * jx * res;
      g2 += w * jy * res;
      chi2 += w * res * res;
      sq += res * res;
    }
    if (it === iterations) break;
    // Levenberg damping keeps a step sane when the geometry is poor (tag right under an anchor).
    const lambda = 1e-6 * (a11 + a22) + 1e-9;
    const b11 = a11 + lambda;
    const b22 = a22 + lambda;
    const det = b11 * b22 - a12 * a12;
    if (!(det > 0)) break;
    const sx = (b22 * g1 - a12 * g2) / det;
    const sy = (b11 * g2 - a12 * g1) / det;
    x = Math.min(maxX, Math.max(minX, x - sx));
    y = Math.min(maxY, Math.max(minY, y - sy));
    if (sx * sx + sy * sy < 1e-8) {
      // Converged: one more pass to evaluate the normal matrix and residuals at the solution.
      it = iterations - 1;
    }
  }
  const det = a11 * a22 - a12 * a12;
  const scale = m > 2 ? Math.max(1, chi2 / (m - 2)) : 1;
  const trace = det > 1e-12 ? (a11 + a22) / det : Infinity;
  const accuracy = Math.sqrt(trace * scale);
  return { x, y, accuracy: Number.isFinite(accuracy) ? Math.min(accuracy, 50) : 50, residual: Math.sqrt(sq / m) };
}
