// What every simulated device does whatever its protocol: advance its model when it wakes, send
// what is due (reports, keep-alives, health measurements, alarms), then sleep until the next thing.
// Protocol subclasses only say how to connect and how each message looks on the wire.
import type { City } from './cities.js';
import { DeviceModel, type EventRates, type SimEvent } from './model.js';
import type { MotionKind } from './movement.js';
import { Rng } from './rng.js';
import type { Clock, Counters } from './stats.js';
import type { TimerWheel, Wakeable } from './wheel.js';

export type SimProtocol = 'watch' | 'gt06' | 'osmand' | 'mqtt';

export interface EngineOptions {
  host: string;
  ports: { watch: number; gt06: number; http: number };
  mqttUrl: string;
  /** Seconds (simulated) between position reports. */
  interval: number;
  /** Relative spread of each interval (0.1 = ±10 %). */
  jitter: number;
  /** Seconds (simulated) between keep-alives (watch LK, GT06 heartbeat). */
  keepalive: number;
  /** Seconds (simulated) between heart-rate measurements; blood pressure, temperature and SpO2 take turns after each. */
  healthInterval: number;
  /** Wall-clock ms to wait for a reply before counting a timeout. */
  ackTimeoutMs: number;
  /** Watch identity on the wire: the full IMEI or its last 10 digits (the code printed on many watches). */
  watchId: 'imei' | 'last10';
  watchVendor: string;
}

/** What devices share: the clock, the timer wheel, the counters and the settings. */
export interface Engine {
  clock: Clock;
  wheel: TimerWheel;
  counters: Counters;
  options: EngineOptions;
  city: City;
  stopping: boolean;
}

interface Pending {
  key: string | number;
  at: number;
}

const MAX_PENDING = 256;

export abstract class SimDevice implements Wakeable {
  wakeGen = 0;
  readonly model: DeviceModel;
  /** Seconds (simulated) between reports; commands may change it. */
  interval: number;
  /** Connection state: link up (socket open / session up) and logged in (ready to report). */
  connected = false;
  online = false;
  commandsReceived = 0;
  lastCommand: string | undefined;
  /** Texts received with MESSAGE commands (newest last, a few kept). */
  messages: string[] = [];
  /** Phone numbers set by SOS/CENTER commands. */
  phoneBook: Record<string, string> = {};
  /** Seconds (simulated) between heart-rate measurements; 0 stops them (hrtstart,0). */
  healthInterval: number;
  /** Simulated time until which the device is switched off (POWEROFF). */
  poweredOffUntil = 0;
  sentCount = 0;
  ackedCount = 0;

  protected readonly jitterRng: Rng;
  protected nextReport = 0;
  protected nextKeepalive = 0;
  protected nextHealth = 0;
  protected healthRound = 0;
  protected nextConnectAt = 0;
  protected attempts = 0;
  /** Wall time the current connect/login began; 0 when none is in progress. */
  protected linkStartedAt = 0;
  protected pending: Pending[] = [];
  protected readonly forced: SimEvent[] = [];

  constructor(
    readonly imei: string,
    readonly protocol: SimProtocol,
    readonly motion: MotionKind,
    protected readonly engine: Engine,
    seed: number,
    rates: EventRates,
    firstConnectAt: number,
  ) {
    const sim = engine.clock.sim(firstConnectAt);
    this.model = new DeviceModel(motion, engine.city, seed, engine.clock.sim(), rates);
    this.jitterRng = new Rng(seed ^ 0x9e3779b9);
    this.interval = engine.options.interval;
    this.healthInterval = engine.options.healthInterval;
    this.nextConnectAt = firstConnectAt;
    this.nextReport = sim;
    this.nextKeepalive = sim + engine.options.keepalive * 1000;
    this.nextHealth = sim + this.jitterRng.range(0, engine.options.healthInterval * 1000);
    engine.wheel.schedule(this, firstConnectAt);
  }

  // ---- protocol hooks -----------------------------------------------------------------------------

  /** Opens the link (and starts the login); sets `connected`/`online` as it progresses. */
  protected abstract open(): void;
  /** Drops a link that does not come up (connect or login unanswered). */
  protected abstract abort(): void;
  /** Closes the link without reconnecting. Resolves when closed. */
  abstract close(): Promise<void>;
  protected abstract sendReport(sim: number): void;
  protected abstract sendKeepalive(sim: number): void;
  protected abstract sendHealth(sim: number, round: number): void;
  protected abstract sendAlarm(sim: number, event: SimEvent): void;
  /** True when the protocol carries a keep-alive of its own. */
  protected get hasKeepalive(): boolean {
    return true;
  }
  protected get hasHealth(): boolean {
    return false;
  }

  // ---- scheduling --------------------------------------------------------------------------------

  wake(now: number): void {
    const e = this.engine;
    if (e.stopping) return;
    const sim = e.clock.sim(now);
    this.model.advance(sim);
    if (this.poweredOffUntil) {
      if (sim < this.poweredOffUntil) return this.sleepUntil(e.clock.toReal(this.poweredOffUntil));
      this.poweredOffUntil = 0;
      this.nextConnectAt = now;
      this.attempts = 0;
    }
    if (!this.online) {
      if (this.linkStartedAt) {
        // Connecting or logging in: give up after the ack timeout, the close schedules a retry.
        if (now - this.linkStartedAt > e.options.ackTimeoutMs) {
          this.expireAcks(now);
          this.linkStartedAt = 0;
          this.abort();
          return;
        }
        this.expireAcks(now);
        return this.sleepUntil(now + 1000);
      }
      if (now < this.nextConnectAt) return this.sleepUntil(this.nextConnectAt);
      this.linkStartedAt = now;
      this.nextConnectAt = Number.POSITIVE_INFINITY; // until the link fails and schedules a retry
      this.open();
      if (!this.online && this.linkStartedAt) this.sleepUntil(now + 1000);
      return;
    }
    for (const ev of this.forced.splice(0)) this.raise(sim, ev);
    for (const ev of this.model.takeEvents()) this.raise(sim, ev);
    if (sim >= this.nextReport) {
      this.sendReport(sim);
      this.nextReport = sim + this.spread(this.interval * 1000);
    }
    if (this.hasKeepalive && sim >= this.nextKeepalive) {
      this.sendKeepalive(sim);
      this.nextKeepalive = sim + this.spread(e.options.keepalive * 1000);
    }
    if (this.hasHealth && this.healthInterval > 0 && sim >= this.nextHealth) {
      this.sendHealth(sim, this.healthRound++);
      this.nextHealth = sim + this.spread(this.healthInterval * 1000);
    }
    this.expireAcks(now);
    let next = this.nextReport;
    if (this.hasKeepalive) next = Math.min(next, this.nextKeepalive);
    if (this.hasHealth && this.healthInterval > 0) next = Math.min(next, this.nextHealth);
    // Wake at least every few seconds of wall time so ack timeouts and events stay timely.
    this.sleepUntil(Math.min(e.clock.toReal(next), now + 5_000));
  }

  protected sleepUntil(real: number): void {
    this.engine.wheel.schedule(this, real);
  }

  /** Wakes the device at once (a command, a login answer, a forced event). */
  protected wakeSoon(): void {
    this.engine.wheel.schedule(this, this.engine.clock.realNow());
  }

  protected spread(ms: number): number {
    const j = this.engine.options.jitter;
    return Math.max(200, ms * (1 + this.jitterRng.range(-j, j)));
  }

  private raise(sim: number, ev: SimEvent): void {
    if (ev !== 'highHeartRate') this.engine.counters.alarms++;
    this.sendAlarm(sim, ev);
  }

  /** Forces an alarm now (tests and demos). */
  trigger(event: SimEvent): void {
    if (event === 'highHeartRate') this.model.health.startHighHeartRate();
    this.forced.push(event);
    if (this.online) this.wakeSoon();
  }

  /** Sends the next position report at the next wake-up (CR / WHERE / locate commands). */
  reportNow(): void {
    this.nextReport = 0;
    this.wakeSoon();
  }

  /** Changes the measurement period (0 stops periodic measurements). */
  setHealthInterval(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) return;
    this.healthInterval = seconds;
    if (seconds > 0) {
      this.nextHealth = this.engine.clock.sim() + seconds * 1000;
      this.wakeSoon();
    }
  }

  setInterval(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds <= 0) return;
    this.interval = seconds;
    // The firmware restarts its report timer with the new period.
    this.nextReport = this.engine.clock.sim() + seconds * 1000;
    this.wakeSoon();
  }

  // ---- link bookkeeping used by the transports ----------------------------------------------------

  protected linkUp(): void {
    this.connected = true;
    this.engine.counters.connects++;
  }

  protected loggedIn(): void {
    this.online = true;
    this.linkStartedAt = 0;
    this.attempts = 0;
    const sim = this.engine.clock.sim();
    // First report soon after login, spread so a reconnect storm does not arrive in lockstep.
    this.nextReport = sim + this.jitterRng.range(0, Math.min(this.interval, 5) * 1000);
    this.wakeSoon();
  }

  /** The link went down: schedule a reconnect with exponential backoff (1 s .. 60 s, ±50 %). */
  protected linkDown(reconnectAfterMs?: number): void {
    const wasUp = this.connected || this.online;
    this.connected = false;
    this.online = false;
    this.linkStartedAt = 0;
    this.pending = [];
    if (this.engine.stopping) return;
    if (wasUp || this.attempts > 0) this.engine.counters.reconnects++;
    const base = reconnectAfterMs ?? Math.min(60_000, 1000 * 2 ** this.attempts);
    this.attempts = Math.min(this.attempts + 1, 10);
    const now = this.engine.clock.realNow();
    this.nextConnectAt = now + base * this.jitterRng.range(0.5, 1.5);
    this.sleepUntil(this.nextConnectAt);
  }

  protected sent(bytes: number, ackKey?: string | number): void {
    const c = this.engine.counters;
    c.sent++;
    c.bytesOut += bytes;
    this.sentCount++;
    if (ackKey !== undefined) {
      if (this.pending.length >= MAX_PENDING) {
        this.pending.shift();
        c.ackTimeouts++;
      }
      this.pending.push({ key: ackKey, at: this.engine.clock.realNow() });
    }
  }

  /** Matches a reply to the oldest outstanding message with that key; false when none waits. */
  protected acked(key: string | number): boolean {
    const i = this.pending.findIndex((p) => p.key === key);
    if (i < 0) return false;
    const p = this.pending[i];
    this.pending.splice(i, 1);
    this.engine.counters.ack(this.engine.clock.realNow() - p.at);
    this.ackedCount++;
    return true;
  }

  protected expireAcks(now: number): void {
    const limit = now - this.engine.options.ackTimeoutMs;
    let n = 0;
    while (n < this.pending.length && this.pending[n].at < limit) n++;
    if (n) {
      this.pending.splice(0, n);
      this.engine.counters.ackTimeouts += n;
    }
  }

  protected commandReceived(text: string): void {
    this.commandsReceived++;
    this.lastCommand = text;
    this.engine.counters.commands++;
  }

  /** Everything a console would want to look at, as plain data. */
  snapshot() {
    const m = this.model;
    const pos = m.mover.position();
    const h = m.health;
    return {
      imei: this.imei,
      protocol: this.protocol,
      motion: this.motion,
      connected: this.connected,
      online: this.online,
      lat: pos.lat,
      lon: pos.lon,
      speed: Math.round(m.mover.speedMs * 36) / 10,
      indoor: m.mover.indoor,
      atHome: m.mover.atHome,
      interval: this.interval,
      battery: h.batteryPercent(),
      charging: h.charging,
      steps: h.steps,
      sleep: h.sleep,
      sent: this.sentCount,
      acked: this.ackedCount,
      commands: this.commandsReceived,
      lastCommand: this.lastCommand,
      messages: [...this.messages],
      phoneBook: { ...this.phoneBook },
      simTime: new Date(m.time).toISOString(),
    };
  }
}
