// The positioning service: turns what devices and gateways heard (committed beacon events) into
// indoor positions, and writes those through the ingest pipeline like any device fix, so they get
// the batch writer's guarantees (committed before anything is published), land in the positions
// time series and device state with their scene, floor and plan coordinates, and reach the live
// maps, fences and alarm rules as ordinary positions with WGS-84 coordinates.
//
// Inputs (see protocols/src/uplink/decoder.ts):
// - a BLE gateway heard a tag: one observation (gateway = anchor, by MAC), gathered per tag over a
//   short window of device time by the engine and solved when a later report of the tag closes it,
//   or when nothing more has arrived for it (flushed every FLUSH_MS);
// - a wearable heard beacons: one scan, solved at once;
// - a UWB engine's coordinates in the frame of its anchor's floor: passed through;
// - AOA angles at two or more locators: bearings intersected.
// A wearable's scan that gives no indoor solution (its beacons are on no floor plan) places the
// device at the loudest registered beacon with a latitude and longitude, unless a valid GNSS fix or
// an indoor solution is recent (rules/beacon-fix.ts): a position of method "beacon".
// The engine works on the reports' device times, so reports uploaded late give the positions they
// would have given live; the wall clock only tells it when reports arrive (the last window of a
// burst, tags idle long enough to leave memory).
// The configuration (enabled scenes, their floors with a scale, valid anchors) is read from the
// database at start and again whenever scenes change anywhere in the cluster (SCENES_CHANGED_TOPIC).
import { sql } from 'drizzle-orm';
import { scene as sceneSchemas } from '@wt/contract';
import type { DeviceMessage } from '@wt/protocols';
import type { AppDeps } from '../../deps.js';
import { anchorKey, IndoorEngine, type IndoorFix, type SceneModel } from '../../indoor/index.js';
import { rows } from '../../lib/sql.js';
import { TOPICS, type BeaconEvent, type PositionEvent, type UnknownBeaconEvent } from '../../pipeline/events.js';
import { betterFixRecent, chooseBeacon, type BeaconFix, type PlacedBeacon } from '../../rules/beacon-fix.js';
import type { Service } from '../../services.js';

/** How often gathered gateway observations are solved. */
const FLUSH_MS = 500;
/** A burst of scene changes reloads once. */
const RELOAD_DELAY_MS = 200;

interface SceneRow {
  id: number;
  lat: number;
  lon: number;
  method: number;
  owner_path: string;
}

/** An anchor as the calibration's hearings name it. */
interface AnchorRef {
  id: number;
  floorId: number;
  ownerPath: string;
}

/** Hearings of one anchor by another within one minute, gathered before they are written. */
interface Hearing {
  fromId: number;
  toId: number;
  floorId: number;
  minute: number;
  count: number;
  rssiSum: number;
}

/** How often gathered hearings are written, and how long they are kept. */
const HEARINGS_FLUSH_MS = 10_000;
const HEARINGS_KEEP_HOURS = 24;
/** Hearings gathered in memory at most (a flood of gateway reports must not grow it). */
const HEARINGS_MAX = 50_000;
interface FloorRow {
  id: number;
  scene_id: number;
  floor_no: number;
  exponent: number;
  metres_per_pixel: number | null;
  origin_lat: number | null;
  origin_lon: number | null;
  rotation: number | null;
}
interface AnchorRow {
  id: number;
  floor_id: number;
  mac: string;
  code: string;
  major: number;
  minor: number;
  kind: number;
  x: number;
  y: number;
  height: number;
  heading: number;
  rssi_1m: number;
}

/** Registered beacons (valid) with a latitude and longitude, by MAC and by UUID/major/minor. */
export async function loadPlacedBeacons(deps: AppDeps): Promise<Map<string, PlacedBeacon>> {
  const found = await rows<{ id: number; mac: string | null; code: string | null; major: number | null; minor: number | null; lat: number; lon: number }>(
    deps.database.db,
    sql`SELECT id, mac, code, major, minor, lat, lon FROM scene_anchors WHERE state = 1 AND lat IS NOT NULL AND lon IS NOT NULL`,
  );
  const out = new Map<string, PlacedBeacon>();
  for (const b of found) {
    const placed = { id: Number(b.id), lat: Number(b.lat), lon: Number(b.lon) };
    for (const key of [anchorKey({ mac: b.mac }), anchorKey({ uuid: b.code, major: b.major, minor: b.minor })]) if (key) out.set(key, placed);
  }
  return out;
}

/** How often the registry's places are read again (beacons are registered and moved through their own calls). */
const BEACONS_RELOAD_MS = 30_000;

/** The scenes as the engine takes them: enabled scenes, their floors and valid anchors. */
export async function loadSceneModels(
  deps: AppDeps,
): Promise<{ models: SceneModel[]; places: Map<number, { lat: number; lon: number }>; anchors: Map<string, AnchorRef> }> {
  const db = deps.database.db;
  const scenes = await rows<SceneRow>(db, sql`SELECT s.id, s.lat, s.lon, s.method, a.path AS owner_path FROM scenes s JOIN accounts a ON a.id = s.owner_id WHERE s.enabled`);
  const places = new Map(scenes.map((s) => [Number(s.id), { lat: Number(s.lat), lon: Number(s.lon) }]));
  const refs = new Map<string, AnchorRef>();
  if (!scenes.length) return { models: [], places, anchors: refs };
  const pathOf = new Map(scenes.map((s) => [Number(s.id), s.owner_path]));
  const ids = scenes.map((s) => Number(s.id));
  const list = sql.raw(`'{${ids.join(',')}}'::int[]`);
  const floors = await rows<FloorRow>(
    db,
    sql`SELECT id, scene_id, floor_no, exponent, metres_per_pixel, origin_lat, origin_lon, rotation FROM floors WHERE scene_id = ANY(${list})`,
  );
  const anchors = await rows<AnchorRow & { scene_id: number }>(
    db,
    sql`SELECT id, scene_id, floor_id, mac, code, major, minor, kind, x, y, height, heading, rssi_1m FROM scene_anchors
        WHERE scene_id = ANY(${list}) AND state = 1`,
  );
  const models: SceneModel[] = scenes.map((s) => {
    const sceneId = Number(s.id);
    const own = floors.filter((f) => Number(f.scene_id) === sceneId);
    const floorIds = new Set(own.map((f) => Number(f.id)));
    const mine = anchors.filter((a) => floorIds.has(Number(a.floor_id)));
    for (const a of mine) {
      const key = anchorKey({ mac: a.mac });
      if (key) refs.set(key, { id: Number(a.id), floorId: Number(a.floor_id), ownerPath: pathOf.get(sceneId) ?? '' });
    }
    return {
      sceneId: String(sceneId),
      method: Number(s.method) === 2 ? 'nearest' : 'triangular',
      floors: own.map((f) => ({
        floorId: String(f.id),
        level: Number(f.floor_no),
        exponent: Number(f.exponent),
        geo:
          f.origin_lat !== null && f.origin_lon !== null && f.metres_per_pixel !== null
            ? { originLat: Number(f.origin_lat), originLon: Number(f.origin_lon), rotation: Number(f.rotation ?? 0), metresPerPixel: Number(f.metres_per_pixel) }
            : null,
      })),
      anchors: mine
        .filter((a) => Number(a.kind) !== 3)
        .flatMap((a) => {
          const base = { floorId: String(a.floor_id), x: Number(a.x), y: Number(a.y), height: Number(a.height), rssi1m: Number(a.rssi_1m), kind: Number(a.kind) === 2 ? ('uwb' as const) : ('ble' as const) };
          // An anchor is known by its MAC and, for an iBeacon, by its UUID, major and minor too.
          const keys = [anchorKey({ mac: a.mac }), anchorKey({ uuid: a.code, major: Number(a.major), minor: Number(a.minor) })].filter((k): k is string => !!k);
          return [...new Set(keys)].map((key) => ({ key, ...base }));
        }),
      locators: mine
        .filter((a) => Number(a.kind) === 3)
        .flatMap((a) => {
          const key = anchorKey({ mac: a.mac });
          return key ? [{ key, floorId: String(a.floor_id), x: Number(a.x), y: Number(a.y), height: Number(a.height), heading: Number(a.heading) }] : [];
        }),
    };
  });
  return { models, places, anchors: refs };
}

export class IndoorPositioning {
  readonly engine = new IndoorEngine({}, () => Date.now());
  private places = new Map<number, { lat: number; lon: number }>();
  private anchors = new Map<string, AnchorRef>();
  private hearings = new Map<string, Hearing>();
  private hearingsTimer: NodeJS.Timeout | undefined;
  private lastPrune = 0;
  /** Registered beacons with a place (beacon-assisted positioning). */
  private placed = new Map<string, PlacedBeacon>();
  /** Device id -> when it last had a valid GNSS fix and an indoor solution (ms). */
  private lastFix = new Map<number, { gnss?: number; indoor?: number }>();
  private beaconsTimer: NodeJS.Timeout | undefined;
  /** Device id (the engine's tag) -> IMEI (the identity the pipeline resolves). */
  private imeis = new Map<string, string>();
  private unsubscribe: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private reloadTimer: NodeJS.Timeout | undefined;
  private loading: Promise<void> = Promise.resolve();
  /** Fixes submitted and not yet committed (for tests and shutdown). */
  private inflight = new Set<Promise<unknown>>();
  private stopped = false;
  readonly counters = { observations: 0, fixes: 0, written: 0, failed: 0 };

  constructor(private readonly deps: AppDeps) {}

  async start() {
    await this.reload();
    this.unsubscribe.push(
      this.deps.bus.subscribe<BeaconEvent>(TOPICS.beacon, (e) => this.onBeacon(e)),
      this.deps.bus.subscribe(sceneSchemas.SCENES_CHANGED_TOPIC, () => this.scheduleReload(), { cluster: true }),
      this.deps.bus.subscribe<UnknownBeaconEvent>(TOPICS.beaconUnknown, (e) => this.onAnchorHeard(e)),
      this.deps.bus.subscribe<PositionEvent>(TOPICS.position, (e) => this.onPosition(e)),
    );
    this.beaconsTimer = setInterval(() => void this.reload(), BEACONS_RELOAD_MS);
    this.beaconsTimer.unref();
    this.hearingsTimer = setInterval(() => void this.writeHearings(), HEARINGS_FLUSH_MS);
    this.hearingsTimer.unref();
    this.timer = setInterval(() => this.write(this.engine.flush(Date.now())), FLUSH_MS);
    this.timer.unref();
  }

  async stop() {
    this.stopped = true;
    for (const u of this.unsubscribe.splice(0)) u();
    clearInterval(this.timer);
    clearInterval(this.hearingsTimer);
    clearInterval(this.beaconsTimer);
    clearTimeout(this.reloadTimer);
    await this.writeHearings();
    // What was gathered is solved and written before the pipeline closes.
    this.write(this.engine.flush(Number.MAX_SAFE_INTEGER), true);
    await this.settled();
  }

  /** Resolves when every fix submitted so far is committed (or failed). */
  async settled() {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  reload(): Promise<void> {
    this.loading = this.loading.then(async () => {
      try {
        const { models, places, anchors } = await loadSceneModels(this.deps);
        this.engine.setScenes(models);
        this.places = places;
        this.anchors = anchors;
        this.placed = await loadPlacedBeacons(this.deps);
      } catch (err) {
        this.deps.log.error({ err }, 'loading the indoor scenes failed');
      }
    });
    return this.loading;
  }

  private scheduleReload() {
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => void this.reload(), RELOAD_DELAY_MS);
    this.reloadTimer.unref();
  }

  private onBeacon(e: BeaconEvent) {
    if (this.stopped) return;
    const b = e.beacon;
    const tag = String(e.deviceId);
    const time = Date.parse(e.time);
    this.imeis.set(tag, e.imei);
    this.counters.observations += 1;
    const fixes: (IndoorFix | null)[] = [];
    if (b.kind === 'ble' && b.gatewayId) {
      const anchor = anchorKey({ mac: b.gatewayId });
      const rssi = b.beacons?.[0]?.rssi;
      if (anchor && rssi !== undefined) fixes.push(this.engine.observe(tag, anchor, rssi, time));
    } else if (b.kind === 'ble' && b.beacons?.length) {
      const heard = b.beacons.flatMap((x) => {
        const anchor = anchorKey(x);
        return anchor ? [{ anchor, rssi: x.rssi }] : [];
      });
      if (heard.length) fixes.push(this.engine.scan(tag, heard, time));
    } else if (b.kind === 'uwb' && b.x !== undefined && b.y !== undefined && b.gatewayId) {
      const anchor = anchorKey({ mac: b.gatewayId });
      if (anchor) fixes.push(this.engine.uwb(tag, { anchor, x: b.x, y: b.y, ...(b.z !== undefined ? { z: b.z } : {}), ...(b.quality !== undefined ? { quality: b.quality } : {}) }, time));
    } else if (b.kind === 'aoa' && b.angles?.length) {
      const readings = b.angles.flatMap((a) => {
        const locator = anchorKey({ mac: a.locator });
        return locator ? [{ locator, azimuth: a.azimuth, ...(a.elevation !== undefined ? { elevation: a.elevation } : {}) }] : [];
      });
      if (readings.length) fixes.push(this.engine.aoa(tag, readings, time));
    }
    const done = fixes.filter((f): f is IndoorFix => !!f);
    if (done.length) this.write(done);
    else if (b.kind === 'ble' && !b.gatewayId && b.beacons?.length && !betterFixRecent(this.lastFix.get(e.deviceId), time)) {
      const heard = b.beacons.flatMap((x) => {
        const key = anchorKey(x);
        return key ? [{ key, rssi: x.rssi }] : [];
      });
      const fix = chooseBeacon(heard, this.placed);
      if (fix) this.writeBeaconFix(e.imei, fix, time);
    }
  }

  /** What the device's positions say about better fixes than a beacon's. */
  private onPosition(e: PositionEvent) {
    const time = Date.parse(e.time);
    if (!Number.isFinite(time)) return;
    const last = this.lastFix.get(e.deviceId) ?? {};
    if (e.indoor) last.indoor = Math.max(last.indoor ?? 0, time);
    else if (e.valid && e.lat !== null && e.method !== 'beacon') last.gnss = Math.max(last.gnss ?? 0, time);
    else return;
    this.lastFix.set(e.deviceId, last);
  }

  private writeBeaconFix(imei: string, f: BeaconFix, ms: number) {
    const time = new Date(ms);
    this.submit([{ deviceId: imei, protocol: 'uplink', kind: 'position', type: 'beacon', time, fix: { time, valid: true, lat: f.lat, lon: f.lon, accuracy: f.accuracy, method: 'beacon' } }]);
  }

  /** A gateway (an anchor) heard another anchor of its floor: gathered for the calibration. */
  private onAnchorHeard(e: UnknownBeaconEvent) {
    const from = e.beacon.gatewayId ? this.anchors.get(anchorKey({ mac: e.beacon.gatewayId }) ?? '') : undefined;
    const heard = e.beacon.beacons?.[0];
    const to = heard ? this.anchors.get(anchorKey(heard) ?? anchorKey({ mac: e.identity }) ?? '') : undefined;
    if (!from || !to || !heard || from.id === to.id || from.floorId !== to.floorId) return;
    // An integration reports only for its own subtree's anchors.
    if (e.scopePath && !(from.ownerPath.startsWith(e.scopePath) && to.ownerPath.startsWith(e.scopePath))) return;
    const minute = Math.floor(Date.parse(e.time) / 60_000) * 60_000;
    if (!Number.isFinite(minute)) return;
    const key = `${from.id}:${to.id}:${minute}`;
    const h = this.hearings.get(key);
    if (h) {
      h.count += 1;
      h.rssiSum += heard.rssi;
    } else if (this.hearings.size < HEARINGS_MAX) {
      this.hearings.set(key, { fromId: from.id, toId: to.id, floorId: from.floorId, minute, count: 1, rssiSum: heard.rssi });
    }
  }

  async writeHearings() {
    if (!this.hearings.size) return;
    const list = [...this.hearings.values()];
    this.hearings.clear();
    const json = JSON.stringify(list.map((h) => ({ f: h.fromId, t: h.toId, fl: h.floorId, m: new Date(h.minute).toISOString(), n: h.count, s: h.rssiSum })));
    try {
      await this.deps.database.query(
        `INSERT INTO anchor_hearings (from_id, to_id, floor_id, minute, count, rssi_sum)
         SELECT f, t, fl, m, n, s FROM json_to_recordset($1::json) AS x(f int, t int, fl int, m timestamptz, n int, s float8)
         ON CONFLICT (from_id, to_id, minute) DO UPDATE SET count = anchor_hearings.count + EXCLUDED.count, rssi_sum = anchor_hearings.rssi_sum + EXCLUDED.rssi_sum`,
        [json],
      );
      if (Date.now() - this.lastPrune > 3_600_000) {
        this.lastPrune = Date.now();
        await this.deps.database.query(`DELETE FROM anchor_hearings WHERE minute < now() - make_interval(hours => $1)`, [HEARINGS_KEEP_HOURS]);
      }
    } catch (err) {
      this.deps.log.error({ err }, 'writing anchor hearings failed');
    }
  }

  /** The fixes as position messages of their devices, through the pipeline. */
  private write(fixes: IndoorFix[], closing = false) {
    if (!fixes.length || (this.stopped && !closing)) return;
    const messages: DeviceMessage[] = [];
    for (const f of fixes) {
      const imei = this.imeis.get(f.tag);
      if (!imei) continue;
      // A floor not yet placed on the earth gives its building's place.
      const place = f.lat !== undefined && f.lon !== undefined ? { lat: f.lat, lon: f.lon } : this.places.get(Number(f.sceneId));
      if (!place) continue;
      const time = new Date(f.time);
      messages.push({
        deviceId: imei,
        protocol: 'uplink',
        kind: 'position',
        type: 'indoor',
        time,
        fix: {
          time,
          valid: true,
          lat: place.lat,
          lon: place.lon,
          accuracy: f.accuracy,
          indoor: { sceneId: Number(f.sceneId), floorId: Number(f.floorId), x: f.x, y: f.y, method: f.method },
        },
      });
    }
    this.submit(messages);
  }

  /** Positions through the pipeline, counted and awaited by `settled`. */
  private submit(messages: DeviceMessage[]) {
    if (!messages.length) return;
    this.counters.fixes += messages.length;
    const p = this.deps.ingest.ingest(messages, { transport: 'indoor', remote: 'positioning', mode: 'short' }).then(
      (r) => {
        this.counters.written += r.stored;
      },
      (err: unknown) => {
        this.counters.failed += messages.length;
        this.deps.log.error({ err, count: messages.length }, 'writing indoor positions failed');
      },
    );
    this.inflight.add(p);
    void p.finally(() => this.inflight.delete(p));
  }
}

/** The positioning of each running platform, for tests and the calibration calls. */
export const indoorPositionings = new WeakMap<AppDeps, IndoorPositioning>();

export const indoorService: Service = {
  name: 'indoor-positioning',
  // Beacon events are published in the process that received them, like the positions the fence
  // engine evaluates: it runs beside the gateway.
  roles: ['gateway'],
  async start(deps) {
    const positioning = new IndoorPositioning(deps);
    await positioning.start();
    indoorPositionings.set(deps, positioning);
    return async () => {
      await positioning.stop();
      indoorPositionings.delete(deps);
    };
  },
  async stop() {},
};
