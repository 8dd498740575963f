// The gateway's background services: device listeners (TCP watch and GT06, the OsmAnd port, the
// MQTT subscription) with command dispatch between gateway processes, and the demo simulator.
import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../deps.js';
import type { Service } from '../services.js';
import { dispatchLocal } from '../modules/command/delivery.js';
import { TOPICS, type DispatchEvent } from '../pipeline/events.js';
import { startOsmAndServer } from './http.js';
import { startMqtt } from './mqtt.js';
import { startTcpListener, type TcpListener } from './tcp.js';
import { newToken } from '../modules/integration/repo.js';
import { INDOOR_DEMO_INTEGRATION, indoorDemoTags } from '../seed/indoor.js';

export const gatewayService: Service = {
  name: 'gateway',
  roles: ['gateway'],
  async start(deps: AppDeps) {
    const { config, ingest } = deps;
    const stops: (() => Promise<void>)[] = [];
    const stopAll = async () => {
      for (const s of stops.reverse()) await s().catch((err) => deps.log.error({ err }, 'stopping a device listener failed'));
    };
    try {
      // The TCP listeners drain together when the process stops (GATEWAY_DRAIN_SECONDS).
      const tcp: TcpListener[] = [];
      stops.push(() => Promise.all(tcp.map((l) => l.close(config.GATEWAY_DRAIN_SECONDS * 1000))).then(() => undefined));
      if (config.WATCH_PORT !== null) {
        const l = await startTcpListener(deps, 'watch', config.WATCH_PORT);
        ingest.ports.watch = l.port;
        tcp.push(l);
      }
      if (config.GT06_PORT !== null) {
        const l = await startTcpListener(deps, 'gt06', config.GT06_PORT);
        ingest.ports.gt06 = l.port;
        tcp.push(l);
      }
      if (config.OSMAND_PORT !== null) {
        const l = await startOsmAndServer(deps, config.OSMAND_PORT);
        ingest.ports.osmand = l.port;
        stops.push(() => l.close());
      }
      if (config.MQTT_URL) {
        const m = await startMqtt(deps, config.MQTT_URL);
        stops.push(() => m.close());
      }
      // A command saved by another process for a device connected here.
      const off = deps.bus.subscribe<DispatchEvent>(
        TOPICS.dispatch,
        (e) => {
          dispatchLocal(deps, e.commandId, e.deviceId).catch((err) => deps.log.error({ err, ...e }, 'command dispatch failed'));
        },
        { cluster: true },
      );
      stops.push(async () => off());
    } catch (err) {
      await stopAll();
      throw err;
    }
    return stopAll;
  },
  async stop() {},
};

/** Simulated devices in demo mode (SIMULATE, default 50 there): a live console from the first minute. */
/**
 * The demo scene's tags walking the care home (simulator/src/indoor-live.ts), reporting through the
 * demo's HTTP uplink integration, whose token is set afresh for the purpose.
 */
async function startIndoorDemo(deps: AppDeps, app: FastifyInstance, mod: Record<string, unknown>): Promise<{ stop(): Promise<void> } | undefined> {
  const start = mod.startIndoorSimulator as ((o: Record<string, unknown>) => Promise<{ stop(): Promise<void> }>) | undefined;
  const address = app.server.address();
  if (typeof start !== 'function' || !address || typeof address === 'string') return undefined;
  const tags = indoorDemoTags();
  const known = await deps.database.query<{ imei: string }>(`SELECT imei FROM devices WHERE imei = ANY($1::text[])`, [tags.map((t) => t.imei)]);
  const present = new Set(known.map((r) => r.imei));
  const { token, hash } = newToken();
  const updated = await deps.database.query(`UPDATE integrations SET token_hash = $2, enabled = true WHERE name = $1 RETURNING id`, [INDOOR_DEMO_INTEGRATION, hash]);
  if (!updated.length || !present.size) return undefined;
  const host = address.address.includes(':') ? `[${address.address === '::' ? '::1' : address.address}]` : address.address === '0.0.0.0' ? '127.0.0.1' : address.address;
  const sim = await start({
    tags: tags.filter((t) => present.has(t.imei)).map((t) => ({ id: t.id, kind: t.kind })),
    http: { url: `http://${host}:${address.port}/api/ingest/${INDOOR_DEMO_INTEGRATION}`, token },
  });
  deps.log.info({ tags: present.size }, 'simulated indoor tags started');
  return sim;
}

export const simulatorService: Service = {
  name: 'simulator',
  roles: ['gateway'],
  async start(deps, app, { demo }) {
    const count = deps.config.SIMULATE ?? (demo ? 50 : 0);
    if (!demo || count === 0) return;
    let mod: Record<string, unknown>;
    try {
      mod = (await import('@wt/simulator')) as Record<string, unknown>;
    } catch (err) {
      deps.log.warn({ err }, 'the device simulator is not available: no simulated devices');
      return;
    }
    const start = mod.startSimulator as ((opts: Record<string, unknown>) => Promise<{ stop(): Promise<void> }>) | undefined;
    if (typeof start !== 'function') {
      deps.log.warn('the device simulator does not export startSimulator: no simulated devices');
      return;
    }
    const { ports } = deps.ingest;
    // Simulate the demo devices as what they are (watches or GT06 trackers), first IMEIs first.
    const rows = await deps.database.query<{ imei: string; protocol: string }>(
      `SELECT imei, protocol FROM devices WHERE protocol IN ('watch', 'gt06', 'osmand') ORDER BY imei LIMIT $1`,
      [count],
    );
    const usable = rows.filter((r) => (r.protocol === 'watch' && ports.watch) || (r.protocol === 'gt06' && ports.gt06) || (r.protocol === 'osmand' && ports.osmand));
    if (!usable.length) {
      deps.log.warn('no devices to simulate (no demo devices, or their listeners are off)');
      return;
    }
    const sim = await start({
      devices: usable.map((r) => ({ imei: r.imei, protocol: r.protocol })),
      host: '127.0.0.1',
      ports: { watch: ports.watch ?? 0, gt06: ports.gt06 ?? 0, http: ports.osmand ?? 0 },
    });
    deps.log.info({ devices: usable.length }, 'simulated devices started');
    const indoor = await startIndoorDemo(deps, app, mod).catch((err: unknown) => {
      deps.log.warn({ err }, 'the indoor demo simulation did not start');
      return undefined;
    });
    return async () => {
      await indoor?.stop();
      await sim.stop();
    };
  },
  async stop() {},
};
