// Movement of one device on the city's street grid, advanced lazily to any later time.
//
// People walk (4-6 km/h) between spots of their neighbourhood along the streets, pause there (inside
// a shop, on a bench), and go home for the night. Vehicles drive legs of a few blocks at 20-60 km/h,
// turn at intersections, wait at lights and park now and then. Positions are kept in grid metres
// (u along one street direction, v along the other) so legs are exact; WGS-84 is computed on read.
import { gridBearing, gridToLatLon, localTime, type City } from './cities.js';
import type { Rng } from './rng.js';

export type MotionKind = 'walk' | 'drive';

export interface MotionFix {
  lat: number;
  lon: number;
  /** km/h */
  speed: number;
  /** degrees from north */
  course: number;
  valid: boolean;
  satellites: number;
  /** metres */
  accuracy: number;
  altitude: number;
  indoor: boolean;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export class Mover {
  u = 0;
  v = 0;
  homeU = 0;
  homeV = 0;
  private tu = 0;
  private tv = 0;
  private du = 0;
  private dv = 0;
  /** m/s on the current leg */
  private legSpeed = 0;
  private legLeft = 0;
  private waitLeft = 0;
  private arrived = true;
  private course = 0;
  /** Total metres travelled, read by the health model for steps. */
  odometer = 0;
  indoor = true;
  atHome = true;
  /** Hours (local, fractional) this person goes to bed and gets up. */
  readonly bedHour: number;
  readonly wakeHour: number;
  time: number;

  constructor(
    readonly kind: MotionKind,
    readonly city: City,
    private readonly rng: Rng,
    startMs: number,
  ) {
    this.time = startMs;
    this.bedHour = rng.range(21.5, 23.2);
    this.wakeHour = rng.range(6, 7.6);
    const b = city.block;
    // Homes within 70 % of the radius, on an intersection, so every route follows streets.
    for (;;) {
      const u = Math.round((rng.range(-0.7, 0.7) * city.radius) / b) * b;
      const v = Math.round((rng.range(-0.7, 0.7) * city.radius) / b) * b;
      if (Math.hypot(u, v) <= city.radius * 0.7) {
        this.homeU = this.u = this.tu = u;
        this.homeV = this.v = this.tv = v;
        break;
      }
    }
    if (kind === 'drive') {
      this.indoor = false;
      this.atHome = false;
    } else {
      // Start somewhere in the day: a short random pause before the first decision.
      this.waitLeft = rng.range(0, 20 * 60_000);
    }
    this.course = rng.int(0, 359);
  }

  get moving(): boolean {
    return this.waitLeft <= 0 && this.legLeft > 0;
  }

  /** Current speed in m/s. */
  get speedMs(): number {
    return this.moving ? this.legSpeed : 0;
  }

  isNight(ms: number): boolean {
    const h = localTime(this.city, ms).hour;
    return h >= this.bedHour - 0.5 || h < this.wakeHour;
  }

  /** Advances to `toMs` (earlier times are ignored: the model only goes forward). */
  advance(toMs: number): void {
    let guard = 0;
    while (this.time < toMs && guard++ < 100_000) {
      const left = toMs - this.time;
      if (this.waitLeft > 0) {
        const w = Math.min(this.waitLeft, left);
        this.waitLeft -= w;
        this.time += w;
        continue;
      }
      if (this.legLeft > 0) {
        const need = (this.legLeft / this.legSpeed) * 1000;
        const take = Math.min(need, left);
        const dist = take >= need ? this.legLeft : (this.legSpeed * take) / 1000;
        this.u += this.du * dist;
        this.v += this.dv * dist;
        this.legLeft -= dist;
        this.odometer += dist;
        this.time += take;
        if (this.legLeft <= 1e-6) {
          this.legLeft = 0;
          // Snap to the intersection so float drift never takes a route off the streets.
          const b = this.city.block;
          this.u = Math.round(this.u / b) * b;
          this.v = Math.round(this.v / b) * b;
        }
        continue;
      }
      if (this.kind === 'walk') this.decideWalk();
      else this.decideDrive();
    }
    if (this.time < toMs) this.time = toMs;
  }

  private startLeg(du: number, dv: number, metres: number, speed: number): void {
    this.du = du;
    this.dv = dv;
    this.legLeft = metres;
    this.legSpeed = speed;
    this.course = gridBearing(this.city, du, dv);
  }

  private msUntilHour(hour: number): number {
    const { msOfDay } = localTime(this.city, this.time);
    const d = (hour * HOUR - msOfDay + DAY) % DAY;
    return d < 60_000 ? d + DAY : d;
  }

  private decideWalk(): void {
    const r = this.rng;
    const b = this.city.block;
    if (this.u !== this.tu || this.v !== this.tv) {
      this.indoor = false;
      this.atHome = false;
      // Walk along one street for a few blocks, then possibly switch: a zig-zag route on the grid.
      const alongU = this.u !== this.tu && (this.v === this.tv || r.chance(0.5));
      const gap = alongU ? this.tu - this.u : this.tv - this.v;
      const blocks = Math.min(Math.abs(gap) / b, r.int(1, 4));
      const sign = Math.sign(gap);
      // Pedestrian crossings: now and then a short wait before the next block.
      if (r.chance(0.15)) this.waitLeft = r.range(10_000, 45_000);
      this.startLeg(alongU ? sign : 0, alongU ? 0 : sign, blocks * b, r.range(1.12, 1.66));
      return;
    }
    if (!this.arrived) {
      this.arrived = true;
      const home = this.u === this.homeU && this.v === this.homeV;
      this.atHome = home;
      if (home) {
        this.indoor = true;
        // Home for the night until getting up, otherwise a while before going out again.
        this.waitLeft = this.isNight(this.time)
          ? this.msUntilHour(this.wakeHour + r.range(0, 1))
          : r.range(20, 120) * 60_000;
      } else {
        this.indoor = r.chance(0.55);
        this.waitLeft = r.range(2, 45) * 60_000;
      }
      return;
    }
    this.arrived = false;
    if (this.isNight(this.time)) {
      this.tu = this.homeU;
      this.tv = this.homeV;
      return;
    }
    // A spot in the neighbourhood (about 1.5 km around home), never outside the city.
    const reach = 1500;
    for (let i = 0; i < 20; i++) {
      const tu = this.homeU + Math.round(r.range(-reach, reach) / b) * b;
      const tv = this.homeV + Math.round(r.range(-reach, reach) / b) * b;
      if (Math.hypot(tu, tv) <= this.city.radius * 0.95 && (tu !== this.u || tv !== this.v)) {
        this.tu = tu;
        this.tv = tv;
        return;
      }
    }
    this.tu = this.homeU;
    this.tv = this.homeV;
  }

  private decideDrive(): void {
    const r = this.rng;
    const b = this.city.block;
    const night = this.isNight(this.time);
    if (this.legLeft === 0 && this.du === 0 && this.dv === 0) {
      this.du = 1; // first decision: any heading
    }
    // At an intersection: maybe park, maybe wait at a light, then pick the next leg.
    if (!this.arrived) {
      this.arrived = true;
      if (r.chance(night ? 0.12 : 0.03)) {
        this.waitLeft = (night ? r.range(20, 120) : r.range(3, 25)) * 60_000;
        // Parked in a garage now and then: no sky, no fix.
        this.indoor = r.chance(0.3);
        return;
      }
      if (r.chance(0.35)) {
        this.waitLeft = r.range(15_000, 75_000);
        return;
      }
    }
    this.arrived = false;
    this.indoor = false;
    const dirs: [number, number][] = [
      [this.du, this.dv], // straight
      [-this.dv, this.du], // left
      [this.dv, -this.du], // right
    ];
    const weights = [0.6, 0.2, 0.2];
    const limit = this.city.radius * 0.95;
    for (let i = 0; i < 12; i++) {
      let k = 0;
      const x = r.next();
      if (x > weights[0]) k = x > weights[0] + weights[1] ? 2 : 1;
      const [du, dv] = dirs[k];
      const blocks = r.int(2, 8);
      const eu = this.u + du * blocks * b;
      const ev = this.v + dv * blocks * b;
      if (Math.hypot(eu, ev) <= limit) {
        this.startLeg(du, dv, blocks * b, r.range(5.6, 16.6));
        return;
      }
    }
    // Edge of the city: head back along whichever axis points most towards the centre.
    const alongU = Math.abs(this.u) >= Math.abs(this.v);
    const du = alongU ? -Math.sign(this.u) || 1 : 0;
    const dv = alongU ? 0 : -Math.sign(this.v) || 1;
    this.startLeg(du, dv, 2 * b, r.range(5.6, 16.6));
  }

  /** The fix a receiver would report now, with GPS noise; invalid indoors most of the time. */
  fix(): MotionFix {
    const r = this.rng;
    const noisy = this.indoor ? r.chance(0.9) : r.chance(0.02);
    const acc = noisy ? r.range(30, 120) : r.range(3, 12);
    const n = acc / 2;
    const { lat, lon } = gridToLatLon(this.city, this.u + r.normal(0, n), this.v + r.normal(0, n));
    const speed = this.moving ? Math.max(0, this.legSpeed * 3.6 * r.range(0.94, 1.06)) : 0;
    return {
      lat,
      lon,
      speed,
      course: Math.round(this.course) % 360,
      valid: !noisy,
      satellites: noisy ? r.int(0, 3) : r.int(6, 14),
      accuracy: Math.round(acc),
      altitude: Math.round(r.range(8, 40)),
      indoor: this.indoor,
    };
  }

  /** Exact position without receiver noise (for tests and snapshots). */
  position(): { lat: number; lon: number } {
    return gridToLatLon(this.city, this.u, this.v);
  }
}
