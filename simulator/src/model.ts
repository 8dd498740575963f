// The simulated device without any I/O: where it is, how its wearer is, and which events happen.
// Transports read it; tests drive it with explicit times.
import type { City } from './cities.js';
import { Health } from './health.js';
import { Mover, type MotionFix, type MotionKind } from './movement.js';
import { Rng } from './rng.js';

export type SimEvent = 'sos' | 'fall' | 'removal' | 'highHeartRate' | 'lowBattery';

/** Spontaneous events per device per day. */
export interface EventRates {
  sos: number;
  fall: number;
  removal: number;
  highHeartRate: number;
}

export const DEFAULT_EVENT_RATES: EventRates = { sos: 0.05, fall: 0.02, removal: 0.1, highHeartRate: 0.1 };

/** Longest step of one integration: keeps steps, sleep and the midnight reset accurate. */
const CHUNK = 60_000;

export class DeviceModel {
  readonly mover: Mover;
  readonly health: Health;
  readonly rng: Rng;
  time: number;
  private lastOdo = 0;
  private readonly events: SimEvent[] = [];

  constructor(
    readonly kind: MotionKind,
    readonly city: City,
    seed: number,
    startMs: number,
    private readonly rates: EventRates = DEFAULT_EVENT_RATES,
  ) {
    this.rng = new Rng(seed);
    this.mover = new Mover(kind, city, this.rng, startMs);
    this.health = new Health(city, this.rng, startMs);
    this.time = startMs;
  }

  /** Moves the model forward to `toMs`, collecting spontaneous events. */
  advance(toMs: number): void {
    while (this.time < toMs) {
      const t = Math.min(toMs, this.time + CHUNK);
      const dt = t - this.time;
      this.mover.advance(t);
      const walked = this.kind === 'walk' ? this.mover.odometer - this.lastOdo : 0;
      this.lastOdo = this.mover.odometer;
      const low = this.health.advance(t, {
        walked,
        moving: this.mover.moving,
        atHome: this.mover.atHome,
        night: this.mover.isNight(t),
      });
      if (low && this.kind === 'walk') this.events.push('lowBattery');
      const r = this.rng;
      const asleep = this.health.sleep !== 'awake';
      if (!asleep && r.poisson(this.rates.sos, dt)) this.events.push('sos');
      if (this.kind === 'walk') {
        // Falls happen on the move more than at rest; nobody takes the watch off while asleep with it.
        if (r.poisson(this.rates.fall * (this.mover.moving ? 3 : 0.5), dt)) this.events.push('fall');
        if (!asleep && r.poisson(this.rates.removal, dt)) this.events.push('removal');
        if (r.poisson(this.rates.highHeartRate, dt)) this.trigger('highHeartRate');
      }
      this.time = t;
    }
  }

  /** Forces an event now (tests, demos). */
  trigger(event: SimEvent): void {
    if (event === 'highHeartRate') this.health.startHighHeartRate();
    this.events.push(event);
  }

  /** Events since the last call. */
  takeEvents(): SimEvent[] {
    if (!this.events.length) return [];
    return this.events.splice(0, this.events.length);
  }

  fix(): MotionFix {
    return this.mover.fix();
  }
}
