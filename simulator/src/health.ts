// Body and battery of one wearer, advanced with the movement: heart rate with a slow personal drift
// (higher while walking, lower in deep sleep), blood pressure that follows it, body temperature,
// SpO2, steps counted per local day, sleep stages at night, a battery that drains by day and charges
// on the nightstand.
import { localTime, type City } from './cities.js';
import type { Rng } from './rng.js';

export type SleepStage = 'awake' | 'light' | 'deep';

const MIN = 60_000;
const HALF_HOUR = 30 * MIN;

export interface HealthSnapshot {
  heartRate: number;
  systolic: number;
  diastolic: number;
  bodyTemp: number;
  spo2: number;
  steps: number;
  battery: number;
  charging: boolean;
  sleep: SleepStage;
}

export interface ActivityInput {
  /** metres walked since the previous call */
  walked: number;
  moving: boolean;
  atHome: boolean;
  /** local night for this person (bed to wake) */
  night: boolean;
}

export class Health {
  readonly restHr: number;
  private drift = 0;
  private readonly sysBase: number;
  private readonly diaBase: number;
  private readonly tempBase: number;
  private readonly spo2Base: number;
  private readonly stride: number;
  steps = 0;
  private day: number;
  battery: number;
  charging = false;
  private moving = false;
  sleep: SleepStage = 'awake';
  /** When this night's sleep began (ms), 0 when awake. */
  private sleepStart = 0;
  /** Minutes per stage for the current or last night. */
  sleepMinutes = { awake: 0, light: 0, deep: 0 };
  /** End of a tachycardia episode (ms); 0 when none. */
  highHrUntil = 0;
  private highHr = 0;
  private lowBatteryRaised = false;
  time: number;

  constructor(
    readonly city: City,
    private readonly rng: Rng,
    startMs: number,
  ) {
    this.time = startMs;
    this.restHr = rng.range(67, 80);
    this.sysBase = rng.range(106, 130);
    this.diaBase = rng.range(66, 82);
    this.tempBase = rng.range(36.45, 36.75);
    this.spo2Base = rng.range(96.5, 98.3);
    this.stride = rng.range(0.62, 0.78);
    this.battery = rng.range(45, 100);
    this.day = localTime(city, startMs).day;
  }

  /** Advances to `toMs` given what the wearer did meanwhile. Returns true when the battery just went low. */
  advance(toMs: number, a: ActivityInput): boolean {
    const dt = toMs - this.time;
    if (dt <= 0) return false;
    const r = this.rng;
    // Heart-rate drift: mean-reverting random walk with a ~30 min time constant.
    const k = Math.min(1, dt / HALF_HOUR);
    this.drift += -this.drift * k + r.normal(0, 2.5 * Math.sqrt(k));
    this.drift = Math.max(-5, Math.min(5, this.drift));
    this.moving = a.moving;

    // Steps by local day: what was walked after midnight counts for the new day.
    const lt = localTime(this.city, toMs);
    let newSteps = a.walked / this.stride;
    if (!a.moving && !a.night) newSteps += (dt / MIN) * r.range(0, 8); // pottering about indoors
    if (lt.day !== this.day) {
      const share = Math.min(1, lt.msOfDay / dt);
      this.steps = 0;
      this.day = lt.day;
      newSteps *= share;
    }
    this.steps += Math.round(newSteps);

    // Sleep: asleep at home during the night; stages follow ~90 min cycles, deep sleep early on.
    const asleep = a.night && a.atHome && !a.moving;
    if (asleep) {
      if (!this.sleepStart) {
        this.sleepStart = toMs;
        this.sleepMinutes = { awake: 0, light: 0, deep: 0 };
      }
      const m = (toMs - this.sleepStart) / MIN;
      const cycle = m % 90;
      const deep = Math.max(8, 40 - Math.floor(m / 90) * 8);
      this.sleep = cycle < 12 ? 'light' : cycle < 12 + deep ? 'deep' : cycle < 84 ? 'light' : 'awake';
      this.sleepMinutes[this.sleep] += dt / MIN;
    } else {
      this.sleep = 'awake';
      this.sleepStart = 0;
    }

    // Battery: ~3 %/h by day (more with GPS on the move), charges at ~30 %/h on the nightstand.
    const hours = dt / 3_600_000;
    this.charging = asleep;
    if (this.charging) this.battery = Math.min(100, this.battery + 30 * hours);
    else this.battery = Math.max(1, this.battery - (a.moving ? 4.5 : 2.5) * hours);
    let low = false;
    if (this.battery < 15 && !this.lowBatteryRaised) {
      this.lowBatteryRaised = true;
      low = true;
    }
    if (this.battery > 30) this.lowBatteryRaised = false;
    this.time = toMs;
    if (this.highHrUntil && toMs > this.highHrUntil) this.highHrUntil = 0;
    return low;
  }

  /** Starts a tachycardia episode (the console's high heart-rate alarm should fire on it). */
  startHighHeartRate(durationMs = 10 * MIN): void {
    this.highHrUntil = this.time + durationMs;
    this.highHr = this.rng.range(128, 158);
  }

  heartRate(): number {
    const r = this.rng;
    if (this.highHrUntil && this.time <= this.highHrUntil) return Math.round(this.highHr + r.normal(0, 2));
    let hr = this.restHr + this.drift;
    if (this.moving) hr += r.range(22, 32);
    if (this.sleep === 'light') hr -= 6;
    if (this.sleep === 'deep') hr -= 11;
    return Math.round(Math.max(45, Math.min(190, hr + r.normal(0, 1.2))));
  }

  bloodPressure(hr = this.heartRate()): { systolic: number; diastolic: number; heartRate: number } {
    const r = this.rng;
    const dev = hr - this.restHr;
    let sys = this.sysBase + 0.35 * dev + r.normal(0, 3.5);
    let dia = this.diaBase + 0.15 * dev + r.normal(0, 2.5);
    sys = Math.max(90, Math.min(170, sys));
    dia = Math.max(55, Math.min(105, Math.min(dia, sys - 25)));
    return { systolic: Math.round(sys), diastolic: Math.round(dia), heartRate: hr };
  }

  bodyTemp(): number {
    let t = this.tempBase + this.rng.normal(0, 0.1);
    if (this.moving) t += 0.2;
    if (this.sleep === 'deep') t -= 0.2;
    return Math.round(Math.max(35.8, Math.min(37.6, t)) * 10) / 10;
  }

  spo2(): number {
    let s = this.spo2Base + this.rng.normal(0, 0.7);
    if (this.sleep !== 'awake') s -= 0.8;
    return Math.round(Math.max(90, Math.min(100, s)));
  }

  /** Battery level as an integer percent. */
  batteryPercent(): number {
    return Math.round(this.battery);
  }

  snapshot(): HealthSnapshot {
    const hr = this.heartRate();
    const bp = this.bloodPressure(hr);
    return {
      heartRate: hr,
      systolic: bp.systolic,
      diastolic: bp.diastolic,
      bodyTemp: this.bodyTemp(),
      spo2: this.spo2(),
      steps: this.steps,
      battery: this.batteryPercent(),
      charging: this.charging,
      sleep: this.sleep,
    };
  }
}
