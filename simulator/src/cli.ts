// Command line: `npm run simulate -- --devices 500 --protocol watch --city shenzhen --interval 10`.
// Prints a line of figures every few seconds; Ctrl-C closes every connection before exiting.
import { parseArgs } from 'node:util';
import {
  CITIES,
  DEFAULT_FIRST_IMEI,
  PROTOCOLS,
  startSimulator,
  type SimProtocol,
  type SimStats,
} from './index.js';

const HELP = `Usage: npm run simulate -- [options]

  --devices N            number of devices (default 10)
  --first-imei IMEI      first IMEI, counted up (default ${DEFAULT_FIRST_IMEI})
  --protocol P[,P...]    ${PROTOCOLS.join('|')}; a list is dealt out in turn (default watch)
  --host HOST            server host (default 127.0.0.1)
  --watch-port N         watch TCP port (default 5093)
  --gt06-port N          GT06 TCP port (default 5023)
  --http-port N          OsmAnd HTTP port, path /osmand (default 8080)
  --mqtt-url URL         MQTT broker (default mqtt://127.0.0.1:1883)
  --city NAME            ${Object.keys(CITIES).join('|')} (default shenzhen)
  --interval S           seconds between position reports (default 10)
  --jitter F             spread of every period, 0.1 = ±10 % (default 0.1)
  --keepalive S          seconds between LK / heartbeats (default 180)
  --health-interval S    seconds between heart-rate measurements, 0 = on command only (default 300)
  --speedup F            simulated time runs F times faster (default 1)
  --seed N               repeatable people, homes and routes
  --start-time ISO       simulated start time (default now)
  --sos-rate R           SOS alarms per device per day (default 0.05)
  --fall-rate R          falls per device per day (default 0.02)
  --removal-rate R       watch removals per device per day (default 0.1)
  --hhr-rate R           high heart-rate episodes per device per day (default 0.1)
  --motion walk|drive    force one kind of movement for all devices
  --watch-id imei|last10 identity in watch frames (default imei)
  --ramp S               open connections over S seconds
  --ack-timeout MS       wall ms to wait for a reply (default 15000)
  --stats-every S        seconds between stats lines (default 5)
  --duration S           stop after S seconds (default: run until Ctrl-C)
  --json                 print stats lines as JSON
  --help`;

function num(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) {
    console.error(`--${name} needs a number, got ${v}`);
    process.exit(2);
  }
  return n;
}

const { values } = parseArgs({
  options: {
    devices: { type: 'string' },
    'first-imei': { type: 'string' },
    protocol: { type: 'string' },
    host: { type: 'string' },
    'watch-port': { type: 'string' },
    'gt06-port': { type: 'string' },
    'http-port': { type: 'string' },
    'mqtt-url': { type: 'string' },
    city: { type: 'string' },
    interval: { type: 'string' },
    jitter: { type: 'string' },
    keepalive: { type: 'string' },
    'health-interval': { type: 'string' },
    speedup: { type: 'string' },
    seed: { type: 'string' },
    'start-time': { type: 'string' },
    'sos-rate': { type: 'string' },
    'fall-rate': { type: 'string' },
    'removal-rate': { type: 'string' },
    'hhr-rate': { type: 'string' },
    motion: { type: 'string' },
    'watch-id': { type: 'string' },
    ramp: { type: 'string' },
    'ack-timeout': { type: 'string' },
    'stats-every': { type: 'string' },
    duration: { type: 'string' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  },
  strict: true,
});

if (values.help) {
  console.log(HELP);
  process.exit(0);
}

const protocols = (values.protocol ?? 'watch').split(',').map((p) => p.trim().toLowerCase()) as SimProtocol[];
const rates: Record<string, number> = {};
for (const [flag, key] of [
  ['sos-rate', 'sos'],
  ['fall-rate', 'fall'],
  ['removal-rate', 'removal'],
  ['hhr-rate', 'highHeartRate'],
] as const) {
  const v = num(values[flag], flag);
  if (v !== undefined) rates[key] = v;
}
const motion = values.motion as 'walk' | 'drive' | undefined;
if (motion !== undefined && motion !== 'walk' && motion !== 'drive') {
  console.error('--motion is walk or drive');
  process.exit(2);
}
const watchId = values['watch-id'] as 'imei' | 'last10' | undefined;

let sim;
try {
  sim = await startSimulator({
    devices: num(values.devices, 'devices') ?? 10,
    firstImei: values['first-imei'],
    protocol: protocols,
    host: values.host,
    ports: {
      ...(values['watch-port'] ? { watch: num(values['watch-port'], 'watch-port') } : {}),
      ...(values['gt06-port'] ? { gt06: num(values['gt06-port'], 'gt06-port') } : {}),
      ...(values['http-port'] ? { http: num(values['http-port'], 'http-port') } : {}),
    },
    mqttUrl: values['mqtt-url'],
    city: values.city,
    interval: num(values.interval, 'interval'),
    jitter: num(values.jitter, 'jitter'),
    keepalive: num(values.keepalive, 'keepalive'),
    healthInterval: num(values['health-interval'], 'health-interval'),
    speedup: num(values.speedup, 'speedup'),
    seed: num(values.seed, 'seed'),
    startTime: values['start-time'] ? new Date(values['start-time']) : undefined,
    rates,
    motion,
    watchId,
    rampSeconds: num(values.ramp, 'ramp'),
    ackTimeoutMs: num(values['ack-timeout'], 'ack-timeout'),
  });
} catch (err) {
  console.error((err as Error).message);
  process.exit(2);
}
const s = sim;

const target = values.host ?? '127.0.0.1';
console.log(
  `simulating ${s.devices.length} device(s) (${protocols.join(', ')}) in ${values.city ?? 'shenzhen'} against ${target}; Ctrl-C to stop`,
);

let prev: SimStats | undefined;
let prevAt = Date.now();
function line(): void {
  const st = s.stats();
  const now = Date.now();
  const secs = Math.max(0.001, (now - prevAt) / 1000);
  const rate = prev ? Math.round((st.sent - prev.sent) / secs) : 0;
  prev = st;
  prevAt = now;
  if (values.json) {
    console.log(JSON.stringify({ ...st, sentPerSecond: rate }));
    return;
  }
  const l = st.ackLatencyMs;
  console.log(
    `${new Date().toISOString().slice(11, 19)} connected ${st.connected}/${st.devices} online ${st.online}` +
      ` sent ${st.sent} (${rate}/s) acked ${st.acked} timeouts ${st.ackTimeouts}` +
      ` ack ms avg ${l.avg} p95 ${l.p95} max ${l.max} commands ${st.commands} alarms ${st.alarms}` +
      ` reconnects ${st.reconnects} errors ${st.errors} sim ${st.simTime.slice(0, 16).replace('T', ' ')}Z`,
  );
}
const every = (num(values['stats-every'], 'stats-every') ?? 5) * 1000;
const timer = setInterval(line, every);

let stopping = false;
async function shutdown(): Promise<void> {
  if (stopping) return;
  stopping = true;
  clearInterval(timer);
  line();
  await s.stop();
  console.log('stopped');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
const duration = num(values.duration, 'duration');
if (duration !== undefined) setTimeout(() => void shutdown(), duration * 1000);
