// Device simulator: thousands of watches, trackers, phones and NB-IoT devices moving around a city
// and speaking the real protocols over real sockets. Runs in-process (the server's demo mode) or
// from the CLI (cli.ts).
import http from 'node:http';
import { getCity, type City } from './cities.js';
import { SimDevice, type Engine, type EngineOptions, type SimProtocol } from './device.js';
import { DEFAULT_EVENT_RATES, type EventRates, type SimEvent } from './model.js';
import type { MotionKind } from './movement.js';
import { hash32 } from './rng.js';
import { Clock, Counters, type SimStats } from './stats.js';
import { Gt06Device } from './transports/gt06.js';
import { MqttDevice, MqttHub } from './transports/mqtt.js';
import { OsmAndDevice } from './transports/osmand.js';
import { WatchDevice } from './transports/watch.js';
import { TimerWheel } from './wheel.js';

export { CITIES, getCity, type City } from './cities.js';
export { SimDevice, type SimProtocol } from './device.js';
export { DeviceModel, DEFAULT_EVENT_RATES, type EventRates, type SimEvent } from './model.js';
export { Mover, type MotionKind, type MotionFix } from './movement.js';
export { Health, type HealthSnapshot, type SleepStage } from './health.js';
export { Rng } from './rng.js';
export * from './indoor/index.js';
export { startIndoorSimulator, type IndoorSimulator, type IndoorSimulatorOptions, type IndoorTag, type IndoorTagKind } from './indoor-live.js';
export type { SimStats } from './stats.js';

export const PROTOCOLS: readonly SimProtocol[] = ['watch', 'gt06', 'osmand', 'mqtt'];
export const DEFAULT_FIRST_IMEI = '865000000000001';

export interface DeviceSpec {
  imei: string;
  protocol?: SimProtocol;
  motion?: MotionKind;
}

export interface SimulatorOptions {
  /** A count (IMEIs counted up from `firstImei`) or the exact devices. Default 10. */
  devices?: number | DeviceSpec[];
  firstImei?: string;
  /** Protocol of devices that do not name one; a list is dealt out in turn. Default watch. */
  protocol?: SimProtocol | SimProtocol[];
  /** Server host. Default 127.0.0.1. */
  host?: string;
  ports?: Partial<EngineOptions['ports']>;
  /** Broker for MQTT devices. Default mqtt://127.0.0.1:1883. */
  mqttUrl?: string;
  /** shenzhen (default), beijing, shanghai, hongkong, london, newyork, or a City. */
  city?: string | City;
  /** Simulated seconds between position reports. Default 10. */
  interval?: number;
  /** Spread of every period, as a fraction (default 0.1 = ±10 %). */
  jitter?: number;
  /** Simulated seconds between keep-alives (watch LK, GT06 heartbeat). Default 180. */
  keepalive?: number;
  /** Simulated seconds between watch heart-rate measurements (0: only on command). Default 300. */
  healthInterval?: number;
  /** Simulated time runs this many times faster than the wall clock (movement, reports, days). Default 1. */
  speedup?: number;
  /** Same seed, same people, homes and routes. Default: random. */
  seed?: number;
  /** Spontaneous events per device per day. */
  rates?: Partial<EventRates>;
  /** Simulated start time (default: now). Frames carry simulated time. */
  startTime?: Date | number;
  /** Connections are opened over this many seconds. Default: 2 ms per device, at most 10 s. */
  rampSeconds?: number;
  /** Wall ms to wait for a server reply before counting a timeout (and for connect/login). Default 15000. */
  ackTimeoutMs?: number;
  /** Watch identity in frames: the full IMEI (default) or its last 10 digits. */
  watchId?: 'imei' | 'last10';
  /** Who moves how. Default: watches, phones and NB-IoT devices walk, GT06 trackers drive. */
  motion?: MotionKind;
  /** Timer-wheel resolution in ms. Default 50. */
  tickMs?: number;
}

export interface Simulator {
  devices: SimDevice[];
  stats(): SimStats;
  /** The device with this IMEI, if simulated. */
  device(imei: string): SimDevice | undefined;
  /** Makes a device raise an alarm now (sos, fall, removal) or start a high heart-rate episode. */
  trigger(imei: string, event: SimEvent): void;
  stop(): Promise<void>;
}

/** IMEIs counted up from `first`, keeping its width (the demo tenant uses 865000000000001 onwards). */
export function imeiRange(first: string, count: number): string[] {
  const width = first.length;
  const start = BigInt(first);
  return Array.from({ length: count }, (_, i) => (start + BigInt(i)).toString().padStart(width, '0'));
}

function defaultMotion(p: SimProtocol, imei: string, seed: number): MotionKind {
  if (p === 'gt06') return 'drive';
  // Phones ride in cars now and then; most are carried on foot.
  if (p === 'osmand') return hash32(imei, seed) % 10 < 3 ? 'drive' : 'walk';
  return 'walk';
}

export async function startSimulator(opts: SimulatorOptions = {}): Promise<Simulator> {
  const seed = (opts.seed ?? Math.floor(Math.random() * 2 ** 31)) >>> 0;
  const protocols = Array.isArray(opts.protocol) ? opts.protocol : [opts.protocol ?? 'watch'];
  for (const p of protocols) if (!PROTOCOLS.includes(p)) throw new Error(`unknown protocol ${p}`);
  const specs: DeviceSpec[] = Array.isArray(opts.devices)
    ? opts.devices
    : imeiRange(opts.firstImei ?? DEFAULT_FIRST_IMEI, opts.devices ?? 10).map((imei) => ({ imei }));
  const speedup = opts.speedup ?? 1;
  if (!(speedup > 0)) throw new Error('speedup must be positive');
  const interval = opts.interval ?? 10;
  if (!(interval > 0)) throw new Error('interval must be positive');
  const startTime = opts.startTime === undefined ? undefined : new Date(opts.startTime).getTime();

  const options: EngineOptions = {
    host: opts.host ?? '127.0.0.1',
    ports: { watch: 5093, gt06: 5023, http: 8080, ...opts.ports },
    mqttUrl: opts.mqttUrl ?? 'mqtt://127.0.0.1:1883',
    interval,
    jitter: Math.max(0, Math.min(0.9, opts.jitter ?? 0.1)),
    keepalive: opts.keepalive ?? 180,
    healthInterval: opts.healthInterval ?? 300,
    ackTimeoutMs: opts.ackTimeoutMs ?? 15_000,
    watchId: opts.watchId ?? 'imei',
    watchVendor: '3G',
  };
  const clock = new Clock(speedup, startTime);
  const wheel = new TimerWheel(opts.tickMs ?? 50);
  const engine: Engine = {
    clock,
    wheel,
    counters: new Counters(),
    options,
    city: getCity(opts.city),
    stopping: false,
  };
  const rates: EventRates = { ...DEFAULT_EVENT_RATES, ...opts.rates };

  const rampMs = (opts.rampSeconds ?? Math.min(10, specs.length * 0.002)) * 1000;
  let hub: MqttHub | undefined;
  let agent: http.Agent | undefined;
  const devices: SimDevice[] = [];
  const byImei = new Map<string, SimDevice>();
  const t0 = clock.realNow();
  specs.forEach((spec, i) => {
    if (byImei.has(spec.imei)) throw new Error(`duplicate IMEI ${spec.imei}`);
    const protocol = spec.protocol ?? protocols[i % protocols.length];
    const motion = spec.motion ?? opts.motion ?? defaultMotion(protocol, spec.imei, seed);
    const devSeed = hash32(spec.imei, seed);
    const at = t0 + (specs.length > 1 ? (rampMs * i) / (specs.length - 1) : 0);
    let d: SimDevice;
    if (protocol === 'watch') d = new WatchDevice(spec.imei, protocol, motion, engine, devSeed, rates, at);
    else if (protocol === 'gt06') d = new Gt06Device(spec.imei, protocol, motion, engine, devSeed, rates, at);
    else if (protocol === 'osmand') {
      agent ??= new http.Agent({ keepAlive: true, maxSockets: 256 });
      const o = new OsmAndDevice(spec.imei, protocol, motion, engine, devSeed, rates, at);
      o.agent = agent;
      d = o;
    } else {
      hub ??= new MqttHub(options.mqttUrl, engine);
      const m = new MqttDevice(spec.imei, protocol, motion, engine, devSeed, rates, at);
      m.hub = hub;
      hub.devices.set(spec.imei, m);
      d = m;
    }
    devices.push(d);
    byImei.set(spec.imei, d);
  });
  wheel.start();
  // The wheel's timer is unref'd; keep the process alive while a run is active.
  const keepAlive = setInterval(() => {}, 1 << 30);

  let stopped: Promise<void> | undefined;
  return {
    devices,
    device: (imei) => byImei.get(imei),
    trigger(imei, event) {
      const d = byImei.get(imei);
      if (!d) throw new Error(`no simulated device ${imei}`);
      d.trigger(event);
    },
    stats(): SimStats {
      const c = engine.counters;
      let connected = 0;
      let online = 0;
      for (const d of devices) {
        if (d.connected) connected++;
        if (d.online) online++;
      }
      return {
        devices: devices.length,
        connected,
        online,
        sent: c.sent,
        acked: c.acked,
        ackTimeouts: c.ackTimeouts,
        ackLatencyMs: c.latency(),
        commands: c.commands,
        commandReplies: c.commandReplies,
        alarms: c.alarms,
        connects: c.connects,
        reconnects: c.reconnects,
        errors: c.errors,
        bytesOut: c.bytesOut,
        bytesIn: c.bytesIn,
        simTime: new Date(clock.sim()).toISOString(),
      };
    },
    stop() {
      stopped ??= (async () => {
        engine.stopping = true;
        wheel.stop();
        clearInterval(keepAlive);
        await Promise.all(devices.map((d) => d.close()));
        if (hub) await hub.close();
        agent?.destroy();
      })();
      return stopped;
    },
  };
}
