// Locations on committed positions and beacon hearings (rules/location.ts): each device's debounced
// side of each location it is supervised by lives in memory and is written to
// beacon_location_presence when the side or the candidate changes. A confirmed entry or exit is
// written to beacon_location_events in the same transaction, marked pending when an alarm is owed
// (entering; leaving too when the location asks; inside its schedule), then raised through the
// alarm engine with the location's name and the mark cleared. Pending events left by a crash are
// raised at start and every few seconds. Writes of many devices go in one statement, every
// FLUSH_MS.
import { ALARM_CODES, location as locationSchemas } from '@wt/contract';
import type { AppDeps } from '../../deps.js';
import { anchorKey } from '../../indoor/index.js';
import { TOPICS, type BeaconEvent, type PositionEvent } from '../../pipeline/events.js';
import { deviceInfoOf, type DeviceInfo } from '../../rules/alarm-engine.js';
import { alarmEngines } from '../../rules/services.js';
import { PresenceTracker, closeRing, type PresenceChange, type TrackedLocation } from '../../rules/location.js';
import { activeAt, type Schedule } from '../../rules/schedule.js';
import type { Service } from '../../services.js';

const FLUSH_MS = 200;
const REPLAY_MS = 5000;

interface WatchedLocation extends TrackedLocation {
  name: string;
  ownerPath: string;
  event: number;
  deviceIds: Set<number>;
  accountIds: Set<number>;
  schedule: Schedule | null;
  tz: number;
  version: string;
  /** Longest stay allowed (minutes); null: no limit. */
  maxStay: number | null;
}

interface LocationRow {
  id: number;
  name: string;
  event: number;
  kind: number;
  floor_id: number | null;
  points: [number, number][] | null;
  beacon_ids: number[];
  device_ids: number[];
  account_ids: number[];
  schedule: Schedule | null;
  owner_path: string;
  tz: number;
  version: string;
  max_stay_minutes: number | null;
}

interface EventWrite {
  locationId: number;
  deviceId: number;
  inside: boolean;
  time: number;
  lat: number | null;
  lon: number | null;
  pending: boolean;
}

export class LocationWatch {
  private locations: WatchedLocation[] = [];
  private beaconLocationIds = new Set<number>();
  readonly tracker: PresenceTracker;
  /** Device id -> who it is, for alarms (from its last sample). */
  private devices = new Map<number, DeviceInfo & { lat: number | null; lon: number | null }>();
  private presence = new Map<string, PresenceChange>();
  private events: EventWrite[] = [];
  private timer: NodeJS.Timeout | undefined;
  private replayTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void)[] = [];
  private flushing: Promise<void> = Promise.resolve();
  /** `${locationId}:${deviceId}` -> the start (ms) of the stay whose stayedTooLong alarm was raised. */
  private overstays = new Map<string, number>();
  private loading: Promise<void> = Promise.resolve();
  private stopped = false;
  readonly counters = { samples: 0, crossings: 0, alarms: 0 };

  constructor(private readonly deps: AppDeps) {
    const c = deps.config;
    this.tracker = new PresenceTracker({
      enter: { fixes: c.LOCATION_ENTER_FIXES, ms: c.LOCATION_ENTER_SECONDS * 1000 },
      leave: { fixes: c.LOCATION_LEAVE_FIXES, ms: c.LOCATION_LEAVE_SECONDS * 1000 },
      beaconTimeoutMs: c.LOCATION_BEACON_TIMEOUT_SECONDS * 1000,
    });
  }

  async start() {
    await this.reload();
    await this.loadPresence();
    this.unsubscribe.push(
      this.deps.bus.subscribe<PositionEvent>(TOPICS.position, (e) => this.onPosition(e)),
      this.deps.bus.subscribe<BeaconEvent>(TOPICS.beacon, (e) => this.onBeacon(e)),
      this.deps.bus.subscribe(locationSchemas.LOCATIONS_CHANGED_TOPIC, () => void this.reload(), { cluster: true }),
    );
    this.timer = setInterval(() => void this.flush(), FLUSH_MS);
    this.timer.unref();
    this.replayTimer = setInterval(() => void this.replay(), REPLAY_MS);
    this.replayTimer.unref();
    void this.replay();
  }

  async stop() {
    this.stopped = true;
    for (const u of this.unsubscribe.splice(0)) u();
    clearInterval(this.timer);
    clearInterval(this.replayTimer);
    await this.flush();
  }

  /** Resolves when everything observed so far is written and its alarms raised (tests). */
  async settled() {
    await this.loading;
    await this.flush();
  }

  reload(): Promise<void> {
    this.loading = this.loading.then(async () => {
      try {
        const rows = await this.deps.database.query<LocationRow>(
          `SELECT l.id, l.name, l.event, l.kind, l.floor_id, l.points, l.beacon_ids, l.device_ids, l.account_ids, l.schedule, l.max_stay_minutes,
                  a.path AS owner_path, a.time_zone_offset AS tz, l.updated_at::text AS version
             FROM beacon_locations l JOIN accounts a ON a.id = l.owner_id WHERE l.status = 1`,
        );
        const beaconIds = [...new Set(rows.flatMap((r) => r.beacon_ids ?? []))];
        const keysOf = new Map<number, string[]>();
        if (beaconIds.length) {
          const anchors = await this.deps.database.query<{ id: number; mac: string | null; code: string | null; major: number | null; minor: number | null }>(
            `SELECT id, mac, code, major, minor FROM scene_anchors WHERE id = ANY($1::int[]) AND state = 1`,
            [beaconIds],
          );
          for (const a of anchors) {
            const keys = [anchorKey({ mac: a.mac }), anchorKey({ uuid: a.code, major: a.major, minor: a.minor })].filter((k): k is string => !!k);
            keysOf.set(Number(a.id), keys);
          }
        }
        const before = new Map(this.locations.map((l) => [l.id, l.version]));
        this.locations = rows.map((r) => ({
          id: Number(r.id),
          name: r.name,
          kind: Number(r.kind) === 1 ? 'zone' : 'beacons',
          ...(r.floor_id !== null ? { floorId: Number(r.floor_id) } : {}),
          ...(r.points ? { ring: closeRing(r.points) } : {}),
          keys: new Set((r.beacon_ids ?? []).flatMap((id) => keysOf.get(Number(id)) ?? [])),
          ownerPath: r.owner_path,
          event: Number(r.event),
          deviceIds: new Set((r.device_ids ?? []).map(Number)),
          accountIds: new Set((r.account_ids ?? []).map(Number)),
          schedule: r.schedule,
          tz: Number(r.tz),
          version: r.version,
          maxStay: r.max_stay_minutes === null ? null : Number(r.max_stay_minutes),
        }));
        this.beaconLocationIds = new Set(this.locations.filter((l) => l.kind === 'beacons').map((l) => l.id));
        // Gone, switched off or changed (its stored presence was cleared): its sides start afresh.
        const now = new Map(this.locations.map((l) => [l.id, l.version]));
        for (const [id, version] of before) if (now.get(id) !== version) this.tracker.forgetLocation(id);
      } catch (err) {
        this.deps.log.error({ err }, 'loading the locations failed');
      }
    });
    return this.loading;
  }

  /** The sides written before (a restart continues where it was). */
  private async loadPresence() {
    const rows = await this.deps.database.query<{ location_id: number; device_id: number; inside: boolean; since: Date; time: Date; pending_since: Date | null; pending_count: number }>(
      `SELECT location_id, device_id, inside, since, time, pending_since, pending_count FROM beacon_location_presence`,
    );
    const now = Date.now();
    for (const r of rows) {
      const loc = Number(r.location_id);
      // A beacon location's clock restarts: the devices heard before the restart get a full timeout.
      const time = this.beaconLocationIds.has(loc) ? now : new Date(r.time).getTime();
      this.tracker.states.set(`${loc}:${r.device_id}`, {
        inside: r.inside,
        since: new Date(r.since).getTime(),
        time,
        pendingSince: r.pending_since ? new Date(r.pending_since).getTime() : null,
        pendingCount: Number(r.pending_count),
      });
    }
  }

  /** The locations supervising a device: its own listing, its account's, or the owner's whole subtree. */
  private locationsOf(e: { deviceId: number; accountId: number; accountPath: string }, kind: 'zone' | 'beacons') {
    return this.locations.filter(
      (l) =>
        l.kind === kind &&
        e.accountPath.startsWith(l.ownerPath) &&
        (l.deviceIds.has(e.deviceId) || l.accountIds.has(e.accountId) || (l.deviceIds.size === 0 && l.accountIds.size === 0)),
    );
  }

  private remember(e: PositionEvent | BeaconEvent, lat: number | null, lon: number | null) {
    this.devices.set(e.deviceId, { id: e.deviceId, imei: e.imei, name: e.name, accountId: e.accountId, accountPath: e.accountPath, lat, lon });
  }

  onPosition(e: PositionEvent) {
    if (this.stopped || !this.locations.length) return;
    const locs = this.locationsOf(e, 'zone');
    if (!locs.length) return;
    this.counters.samples += 1;
    this.remember(e, e.lat, e.lon);
    const time = Date.parse(e.time);
    const i = e.indoor;
    this.apply(this.tracker.observe(e.deviceId, locs, { kind: 'position', time, floorId: i?.floorId ?? null, x: i?.x ?? null, y: i?.y ?? null }));
  }

  onBeacon(e: BeaconEvent) {
    if (this.stopped || !this.beaconLocationIds.size) return;
    const b = e.beacon;
    const heard = b.kind === 'ble' && b.gatewayId ? [anchorKey({ mac: b.gatewayId })] : (b.beacons ?? []).map((x) => anchorKey(x));
    const keys = heard.filter((k): k is string => !!k);
    if (!keys.length) return;
    const locs = this.locationsOf(e, 'beacons');
    if (!locs.length) return;
    this.counters.samples += 1;
    const prev = this.devices.get(e.deviceId);
    this.remember(e, prev?.lat ?? null, prev?.lon ?? null);
    this.apply(this.tracker.observe(e.deviceId, locs, { kind: 'heard', time: Date.parse(e.time), keys }));
  }

  /** Beacon-defined locations left by timeout (called by the flush timer, and by tests with a clock). */
  sweep(now = Date.now()) {
    if (this.beaconLocationIds.size) this.apply(this.tracker.expire(now, this.beaconLocationIds));
  }

  private apply(changes: PresenceChange[]) {
    for (const c of changes) {
      this.presence.set(`${c.locationId}:${c.deviceId}`, c);
      if (!c.crossing) continue;
      this.counters.crossings += 1;
      const loc = this.locations.find((l) => l.id === c.locationId);
      const dev = this.devices.get(c.deviceId);
      const owed = !!loc && (c.crossing.inside || loc.event === 2) && activeAt(loc.schedule, c.crossing.time, loc.tz);
      this.events.push({ locationId: c.locationId, deviceId: c.deviceId, inside: c.crossing.inside, time: c.crossing.time, lat: dev?.lat ?? null, lon: dev?.lon ?? null, pending: owed });
    }
  }

  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushOnce()).catch((err) => this.deps.log.error({ err }, 'writing location presence failed'));
    return this.flushing;
  }

  private async flushOnce(now = Date.now()) {
    this.sweep(now);
    await this.flushWrites();
    await this.raiseOverstays(now);
  }

  /**
   * Devices inside a location with a maximum stay for longer than it raise one stayedTooLong alarm
   * per stay, dated when the stay went over (called by the flush timer; tests pass a clock).
   */
  checkStays(now = Date.now()): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushOnce(now)).catch((err) => this.deps.log.error({ err }, 'checking location stays failed'));
    return this.flushing;
  }

  private async raiseOverstays(now: number) {
    const engine = alarmEngines.get(this.deps);
    if (!engine) return;
    const limited = new Map(this.locations.filter((l) => l.maxStay !== null).map((l) => [l.id, l]));
    if (!limited.size) return;
    for (const [key, s] of this.tracker.states) {
      if (!s.inside || this.stopped) continue;
      const [locId, deviceId] = key.split(':').map(Number) as [number, number];
      const loc = limited.get(locId);
      if (!loc || this.overstays.get(key) === s.since) continue;
      const over = s.since + loc.maxStay! * 60_000;
      if (now <= over) continue;
      this.overstays.set(key, s.since);
      if (!activeAt(loc.schedule, over, loc.tz)) continue;
      const device = await this.deviceInfo(deviceId);
      if (!device) continue;
      // Raised for this stay before a restart: not again.
      const before = await this.deps.database.query(
        `SELECT 1 FROM alarms WHERE device_id = $1 AND type = $2 AND message_params->>'locationId' = $3 AND created_at >= $4 LIMIT 1`,
        [deviceId, ALARM_CODES.stayedTooLong, String(locId), new Date(s.since)],
      );
      if (before.length) continue;
      await engine.raise({
        code: ALARM_CODES.stayedTooLong,
        device,
        time: new Date(over),
        messageKey: 'alarm.msg.stayedTooLong',
        params: { location: loc.name, locationId: locId, minutes: loc.maxStay },
        value: loc.maxStay,
        lat: this.devices.get(deviceId)?.lat ?? null,
        lon: this.devices.get(deviceId)?.lon ?? null,
      });
      this.counters.alarms += 1;
    }
    if (this.overstays.size > 100_000) this.overstays.clear();
  }

  private async deviceInfo(id: number): Promise<DeviceInfo | undefined> {
    return this.devices.get(id) ?? deviceInfoOf(this.deps.database.query.bind(this.deps.database), id);
  }

  private async flushWrites() {
    if (!this.presence.size && !this.events.length) return;
    const presence = [...this.presence.values()];
    const events = this.events;
    this.presence = new Map();
    this.events = [];
    const ts = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const keep = presence.filter((p) => p.state);
    const drop = presence.filter((p) => !p.state);
    const written = await this.deps.database.transaction(async (q) => {
      if (keep.length)
        await q(
          `INSERT INTO beacon_location_presence (location_id, device_id, inside, since, time, pending_since, pending_count)
           SELECT l, d, i, s, t, ps, pc FROM json_to_recordset($1::json) AS x(l int, d int, i boolean, s timestamptz, t timestamptz, ps timestamptz, pc int)
           ON CONFLICT (location_id, device_id) DO UPDATE SET inside = EXCLUDED.inside, since = EXCLUDED.since, time = EXCLUDED.time,
             pending_since = EXCLUDED.pending_since, pending_count = EXCLUDED.pending_count`,
          [JSON.stringify(keep.map((p) => ({ l: p.locationId, d: p.deviceId, i: p.state!.inside, s: ts(p.state!.since), t: ts(p.state!.time), ps: ts(p.state!.pendingSince), pc: p.state!.pendingCount })))],
        );
      if (drop.length)
        await q(
          `DELETE FROM beacon_location_presence p USING json_to_recordset($1::json) AS x(l int, d int) WHERE p.location_id = x.l AND p.device_id = x.d`,
          [JSON.stringify(drop.map((p) => ({ l: p.locationId, d: p.deviceId })))],
        );
      if (!events.length) return [];
      return q<{ id: number; location_id: number; device_id: number; inside: boolean; time: Date; lat: number | null; lon: number | null; pending: boolean }>(
        `INSERT INTO beacon_location_events (location_id, device_id, inside, time, lat, lon, pending)
         SELECT l, d, i, t, la, lo, p FROM json_to_recordset($1::json) AS x(l int, d int, i boolean, t timestamptz, la float8, lo float8, p boolean)
         RETURNING id, location_id, device_id, inside, time, lat, lon, pending`,
        [JSON.stringify(events.map((e) => ({ l: e.locationId, d: e.deviceId, i: e.inside, t: ts(e.time), la: e.lat, lo: e.lon, p: e.pending })))],
      );
    });
    for (const ev of written.filter((w) => w.pending)) await this.raise(ev);
    // Left: a stay that went over has ended.
    const engine = alarmEngines.get(this.deps);
    for (const ev of written.filter((w) => !w.inside)) {
      this.overstays.delete(`${ev.location_id}:${ev.device_id}`);
      if (engine && this.locations.some((l) => l.id === Number(ev.location_id) && l.maxStay !== null))
        await engine.clear(`device_id = $1 AND type = $2 AND message_params->>'locationId' = $3`, [ev.device_id, ALARM_CODES.stayedTooLong, String(ev.location_id)], 'left', ev.time);
    }
  }

  /** Raises the alarm of a pending event and clears its mark. */
  private async raise(ev: { id: number; location_id: number; device_id: number; inside: boolean; time: Date | string; lat: number | null; lon: number | null }) {
    const engine = alarmEngines.get(this.deps);
    if (!engine) return;
    const device = await this.deviceInfo(Number(ev.device_id));
    const [loc] = await this.deps.database.query<{ name: string }>(`SELECT name FROM beacon_locations WHERE id = $1`, [ev.location_id]);
    if (device && loc) {
      await engine.raise({
        code: ev.inside ? ALARM_CODES.locationIn : ALARM_CODES.locationOut,
        device,
        time: new Date(ev.time),
        messageKey: ev.inside ? 'alarm.msg.locationIn' : 'alarm.msg.locationOut',
        params: { location: loc.name, locationId: Number(ev.location_id) },
        lat: ev.lat,
        lon: ev.lon,
      });
      this.counters.alarms += 1;
    }
    await this.deps.database.query(`UPDATE beacon_location_events SET pending = false WHERE id = $1`, [ev.id]);
  }

  /**
   * Events whose alarm a crash (or a failed raise) left pending. Runs in the flush chain, so it never
   * races the live path of this process.
   */
  replay(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const rows = await this.deps.database.query<{ id: number; location_id: number; device_id: number; inside: boolean; time: Date; lat: number | null; lon: number | null }>(
        `SELECT id, location_id, device_id, inside, time, lat, lon FROM beacon_location_events WHERE pending ORDER BY id LIMIT 200`,
      );
      for (const r of rows) if (!this.stopped) await this.raise(r);
    }).catch((err) => this.deps.log.error({ err }, 'raising pending location alarms failed'));
    return this.flushing;
  }
}

export const locationWatches = new WeakMap<AppDeps, LocationWatch>();

export const locationService: Service = {
  name: 'beacon-locations',
  roles: ['worker'],
  async start(deps) {
    const watch = new LocationWatch(deps);
    await watch.start();
    locationWatches.set(deps, watch);
    return async () => {
      await watch.stop();
      locationWatches.delete(deps);
    };
  },
  async stop() {},
};
