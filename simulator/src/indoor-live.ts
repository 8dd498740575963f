// The simulator's indoor mode: people and assets walking the demo care home's corridors and rooms,
// reported as the hardware would report them, over the platform's real uplink paths (the HTTP uplink
// of an integration, or MQTT `devices/<id>/up`):
// - wearables (watches) report the BLE beacons they hear: `{ imei, battery, beacons: [{ mac, rssi }] }`;
// - asset tags are heard by the fixed BLE gateways (the anchors): one `{ gatewayId, tags: [...] }`
//   report per gateway and tick, with every tag it heard;
// - UWB tags report the UWB engine's coordinates in the west wing (`{ tagId, gatewayId, x, y, z,
//   quality }`) and fall back to BLE scans elsewhere;
// - AOA tags are seen by the hall's locators (`{ tagId, angles }`) and fall back to BLE scans;
// - now and then the gateways report hearing each other, which the platform's calibration uses.
// Radio figures come from ./indoor/radio.ts (log-normal shadowing, UWB and AOA noise).
import mqtt, { type MqttClient } from 'mqtt';
import { Rng } from './rng.js';
import { anchorPairReadings, aoaReadings, bleScan, CARE_HOME, uwbFix, Walker, WalkGraph, type Building, type RadioOptions } from './indoor/index.js';

export type IndoorTagKind = 'wearable' | 'asset' | 'uwb' | 'aoa';

export interface IndoorTag {
  /** The identity the tag reports with: an IMEI (wearables, UWB and AOA tags) or its MAC (asset tags). */
  id: string;
  kind: IndoorTagKind;
}

export interface IndoorSimulatorOptions {
  tags: IndoorTag[];
  building?: Building;
  /** HTTP uplink: `http://host:port/api/ingest/<integration>` and its bearer token. */
  http?: { url: string; token: string };
  /** MQTT broker: reports published to `devices/<id>/up`. */
  mqttUrl?: string;
  /** Milliseconds between reports of each tag (default 1000). */
  intervalMs?: number;
  /** Seconds between the gateways' reports of each other (default 60; 0: never). */
  calibrationEverySeconds?: number;
  radio?: RadioOptions;
  seed?: number;
}

export interface IndoorSimulator {
  /** Reports sent and failed. */
  readonly counters: { sent: number; failed: number };
  /** Ground truth of a tag now (for tests). */
  truth(id: string): { floorId: string; x: number; y: number; roomId: string } | undefined;
  /** Sends one round of reports at once (the timer does it every interval). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

type Report = Record<string, unknown> & { _id: string };

export async function startIndoorSimulator(o: IndoorSimulatorOptions): Promise<IndoorSimulator> {
  const building = o.building ?? CARE_HOME;
  const graph = new WalkGraph(building);
  const rng = new Rng(o.seed ?? 7);
  const start = Date.now();
  const walkers = new Map(o.tags.map((t, i) => [t.id, { tag: t, walker: new Walker(graph, (o.seed ?? 7) * 1000 + i, start) }]));
  const counters = { sent: 0, failed: 0 };
  let client: MqttClient | undefined;
  if (o.mqttUrl) client = await mqtt.connectAsync(o.mqttUrl, { clientId: `wt-indoor-sim-${process.pid}-${Math.floor(Math.random() * 1e9).toString(36)}` });
  let lastCalibration = 0;
  let stopped = false;
  let running: Promise<void> = Promise.resolve();

  const battery = new Map<string, number>();
  const reportsAt = (now: number): Report[] => {
    const out: Report[] = [];
    const byGateway = new Map<string, { mac: string; rssi: number }[]>();
    for (const { tag, walker } of walkers.values()) {
      const truth = walker.truth(now);
      const scan = () => {
        const heard = bleScan(building, truth, rng, o.radio);
        if (!heard.length) return;
        const b = (battery.get(tag.id) ?? 60 + rng.int(0, 40)) - (rng.next() < 0.002 ? 1 : 0);
        battery.set(tag.id, Math.max(5, b));
        out.push({ _id: tag.id, imei: tag.id, battery: battery.get(tag.id), time: now, beacons: heard.map((h) => ({ mac: h.anchor, rssi: h.rssi })) });
      };
      if (tag.kind === 'asset') {
        for (const h of bleScan(building, truth, rng, o.radio)) {
          const list = byGateway.get(h.anchor) ?? [];
          list.push({ mac: tag.id, rssi: h.rssi });
          byGateway.set(h.anchor, list);
        }
      } else if (tag.kind === 'uwb') {
        const u = uwbFix(building, truth, rng);
        if (u) out.push({ _id: tag.id, tagId: tag.id, gatewayId: u.anchor, x: round(u.x), y: round(u.y), z: round(u.z), quality: u.quality, time: now });
        else scan();
      } else if (tag.kind === 'aoa') {
        const angles = aoaReadings(building, truth, rng);
        if (angles.length >= 2) out.push({ _id: tag.id, tagId: tag.id, time: now, angles: angles.map((a) => ({ locator: a.locator, azimuth: round(a.azimuth), elevation: round(a.elevation) })) });
        else scan();
      } else scan();
    }
    for (const [gatewayId, tags] of byGateway) out.push({ _id: gatewayId, gatewayId, time: now, tags });
    const every = (o.calibrationEverySeconds ?? 60) * 1000;
    if (every > 0 && now - lastCalibration >= every) {
      lastCalibration = now;
      const byReceiver = new Map<string, { mac: string; rssi: number }[]>();
      for (const r of anchorPairReadings(building, rng, 1, o.radio)) {
        const list = byReceiver.get(r.to) ?? [];
        list.push({ mac: r.from, rssi: r.rssi });
        byReceiver.set(r.to, list);
      }
      for (const [gatewayId, tags] of byReceiver) out.push({ _id: gatewayId, gatewayId, time: now, tags });
    }
    return out;
  };

  const send = async (reports: Report[]) => {
    if (!reports.length) return;
    const bodies = reports.map(({ _id, ...rest }) => ({ id: _id, body: rest }));
    if (client) {
      await Promise.all(
        bodies.map((b) =>
          client!.publishAsync(`devices/${b.id}/up`, JSON.stringify(b.body), { qos: 1 }).then(
            () => void (counters.sent += 1),
            () => void (counters.failed += 1),
          ),
        ),
      );
    }
    if (o.http) {
      try {
        const res = await fetch(o.http.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${o.http.token}` },
          body: JSON.stringify(bodies.map((b) => b.body)),
        });
        if (res.ok) counters.sent += bodies.length;
        else counters.failed += bodies.length;
      } catch {
        counters.failed += bodies.length;
      }
    }
  };

  const tick = () => {
    running = running.then(() => (stopped ? undefined : send(reportsAt(Date.now()))));
    return running;
  };
  const timer = setInterval(() => void tick(), o.intervalMs ?? 1000);
  timer.unref();

  return {
    counters,
    truth(id) {
      const w = walkers.get(id);
      if (!w) return undefined;
      const t = w.walker.truth(Date.now());
      return { floorId: t.floorId, x: t.x, y: t.y, roomId: t.roomId };
    },
    tick,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
      await client?.endAsync();
    },
  };
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
