// The pipeline as the transports see it: resolve the device of each decoded message, queue it for
// the batch writer, and after the commit keep the live state and publish the domain events.
// One instance per platform, created before the HTTP app so that its routes can use it.
import type { Logger } from 'pino';
import type { DeviceMessage } from '@wt/protocols';
import { toHex } from '@wt/protocols';
import { inNetworks, parseNetworks } from '@wt/contract';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import type { Bus } from '../realtime/bus.js';
import { REALTIME_TOPICS, movedPath, type AccountsMovedEvent } from '../realtime/topics.js';
import { DeviceDirectory, type DeviceRef } from './directory.js';
import {
  TOPICS,
  type AlarmEvent,
  type BeaconEvent,
  type UnknownBeaconEvent,
  type DeviceChangedEvent,
  type DeviceRefEvent,
  type HealthEvent,
  type PositionEvent,
  type StatusEvent,
} from './events.js';
import { Metrics, RateLimitedLog } from './metrics.js';
import { DeviceSessions } from './sessions.js';
import { mergeDelta, newLive, type ConnectionMode, type LiveState } from './state.js';
import { BatchWriter, type CommittedBatch, type WriteItem } from './writer.js';

/** 'indoor': positions the positioning engine computed from what a device or a gateway heard. */
export type Transport = 'watch' | 'gt06' | 'osmand' | 'mqtt' | 'http' | 'indoor';

export interface Source {
  transport: Transport;
  /** Remote address (for logs). */
  remote: string;
  /**
   * The device's own IP address, on transports where the device itself connects (watch, GT06,
   * OsmAnd): its device's allowed networks are checked against it.
   */
  address?: string;
  mode: ConnectionMode;
  /** Only devices of this account subtree may be written (HTTP integrations). */
  scopePath?: string;
}

export type { DeviceSession } from './sessions.js';

export interface IngestResult {
  /** Messages committed. */
  stored: number;
  /** Identities no device has (or outside the source's scope). */
  unknown: string[];
  /** Messages refused because the source is outside their device's allowed networks. */
  outside: number;
  /** The device of the last stored message. */
  device?: DeviceRef;
}

export class Ingest {
  readonly metrics = new Metrics();
  readonly directory: DeviceDirectory;
  readonly writer: BatchWriter;
  /** Live state per device id, for the map. */
  readonly live = new Map<number, LiveState>();
  /** The TCP connection that carries each device's commands. */
  readonly sessions: DeviceSessions;
  /** Bound ports of the listeners (0 in the configuration means "any free port"). */
  readonly ports: { watch?: number; gt06?: number; osmand?: number } = {};
  private readonly unknownLog = new RateLimitedLog(30);
  private readonly malformedLog = new RateLimitedLog(30);
  private readonly outsideLog = new RateLimitedLog(30);
  private readonly refs = new Map<number, DeviceRef>();
  private sweeper: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void)[] = [];
  private readonly offlineMs: number;

  constructor(
    private readonly deps: { config: Config; database: Database; log: Logger; bus: Bus },
  ) {
    const { config, database, log } = deps;
    this.offlineMs = config.OFFLINE_TIMEOUT_SECONDS * 1000;
    this.directory = new DeviceDirectory(database, config, log, this.metrics);
    this.sessions = new DeviceSessions({ quietMs: config.GATEWAY_SESSION_QUIET_SECONDS * 1000, log, metrics: this.metrics });
    this.writer = new BatchWriter(database, this.metrics, log, {
      maxRows: config.BATCH_MAX_ROWS,
      maxWaitMs: config.BATCH_MAX_WAIT_MS,
      maxInflight: database.kind === 'postgres' ? 2 : 1,
      onCommitted: (b) => this.committed(b),
    });
  }

  /** Loads who was online at the last stop and starts the offline sweep. */
  async start(): Promise<void> {
    const rows = await this.deps.database.query<{ id: number; ls: Date | string; m: string | null }>(
      `SELECT device_id AS id, last_seen AS ls, connection_mode AS m FROM device_state WHERE online`,
    );
    for (const r of rows) {
      this.live.set(r.id, newLive(r.id, new Date(r.ls).getTime(), (r.m as ConnectionMode) ?? 'long', true));
    }
    // After a restart every device reconnects within seconds: find them all in memory.
    if (this.deps.config.ROLES.has('gateway')) {
      const started = performance.now();
      const n = await this.directory.preload();
      this.deps.log.info({ devices: n, ms: Math.round(performance.now() - started) }, 'device directory loaded');
    }
    this.unsubscribe.push(
      // Devices are edited in whichever process serves the console: hear every process.
      this.deps.bus.subscribe<DeviceChangedEvent>(
        TOPICS.changed,
        (e) => {
          this.directory.invalidate(e);
          if (!e.deviceId) return;
          this.refs.delete(e.deviceId);
          this.recheckSessions(e.deviceId).catch((err) => this.deps.log.error({ err, deviceId: e.deviceId }, 'checking device connections failed'));
        },
        { cluster: true },
      ),
      // Accounts are moved in whichever process serves the console; devices follow their owner's path.
      this.deps.bus.subscribe<AccountsMovedEvent>(
        REALTIME_TOPICS.accountsMoved,
        (e) => {
          this.directory.moved(e);
          for (const [id, ref] of this.refs) if (ref.accountPath.startsWith(e.from)) this.refs.set(id, { ...ref, accountPath: movedPath(ref.accountPath, e) });
        },
        { cluster: true },
      ),
    );
    const every = Math.min(5000, Math.max(500, this.offlineMs / 10));
    this.sweeper = setInterval(() => void this.sweep().catch((err) => this.deps.log.error({ err }, 'offline sweep failed')), every);
    this.sweeper.unref();
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    for (const u of this.unsubscribe.splice(0)) u();
    await this.writer.close();
  }

  /**
   * Stores decoded messages and resolves once they are committed. Messages of unknown devices are
   * counted and skipped; the rest are written together.
   */
  ingest(messages: DeviceMessage[], source: Source): Promise<IngestResult> {
    return new Promise((resolve, reject) => this.submit(messages, source, (err, result) => (err ? reject(err) : resolve(result!))));
  }

  /**
   * ingest() with a callback, called once after the commit (or the failure). Devices found in the
   * directory's memory are resolved at once: a TCP frame then costs no promise at all.
   */
  submit(messages: DeviceMessage[], source: Source, done: (err: Error | null, result?: IngestResult) => void): void {
    for (const msg of messages) {
      if (this.directory.cached(msg.deviceId) !== undefined) continue;
      // Some device is not in memory: look them all up first (each lookup is remembered).
      Promise.all(messages.map((m) => this.directory.resolve(m.deviceId, m.protocol))).then(
        () => this.store(messages, source, done),
        (err: Error) => done(err),
      );
      return;
    }
    this.store(messages, source, done);
  }

  private store(messages: DeviceMessage[], source: Source, done: (err: Error | null, result?: IngestResult) => void): void {
    const receivedAt = Date.now();
    const receivedIso = new Date(receivedAt).toISOString();
    this.metrics.received += messages.length;
    const items: WriteItem[] = [];
    const unknown: string[] = [];
    let outside = 0;
    for (const msg of messages) {
      // Always through the directory (a map lookup), so an owner change published on the bus
      // applies to connections that are already open.
      const r = this.directory.cached(msg.deviceId);
      const ref = r && (!source.scopePath || r.accountPath.startsWith(source.scopePath)) ? r : null;
      if (!ref) {
        // A gateway that heard something no device is (another anchor, for calibration): said, not
        // stored, and not an unknown device talking to us.
        if (!msg.beacon?.gatewayId) this.noteUnknown(msg.deviceId, source);
        else this.metrics.heardUnknown++;
        if (msg.beacon?.gatewayId) {
          const e: UnknownBeaconEvent = { identity: msg.deviceId, beacon: msg.beacon, time: (msg.time ?? new Date(receivedAt)).toISOString() };
          if (source.scopePath) e.scopePath = source.scopePath;
          this.deps.bus.publish(TOPICS.beaconUnknown, e);
        }
        unknown.push(msg.deviceId);
        continue;
      }
      if (ref.networks && source.address !== undefined && !inNetworks(source.address, ref.networks)) {
        outside++;
        this.noteOutside(ref, source);
        continue;
      }
      items.push({ ref, msg, receivedAt, receivedIso, mode: source.mode });
    }
    const result: IngestResult = { stored: items.length, unknown, outside, device: items[items.length - 1]?.ref };
    if (!items.length) return done(null, result);
    this.writer.submit(items, (err) => (err ? done(err) : done(null, result)));
  }

  noteUnknown(identity: string, source: Source): void {
    this.metrics.unknown++;
    const l = this.unknownLog.allow();
    if (l.ok) this.deps.log.warn({ identity, transport: source.transport, remote: source.remote, suppressed: l.suppressed || undefined }, 'message from an unknown device ignored');
  }

  /** A device's allowed networks changed: its connections from elsewhere no longer carry its commands. */
  private async recheckSessions(deviceId: number): Promise<void> {
    const held = this.sessions.connections(deviceId);
    if (!held.length) return;
    const [row] = await this.deps.database.query<{ networks: string[] | null }>(`SELECT allowed_networks AS networks FROM devices WHERE id = $1`, [deviceId]);
    if (!row?.networks?.length) return;
    const ranges = parseNetworks(row.networks);
    for (const s of held) if (s.address !== undefined && !inNetworks(s.address, ranges)) this.sessions.leave(s, deviceId);
  }

  /** A message of a device from outside its allowed networks: counted, logged, not stored. */
  private noteOutside(ref: DeviceRef, source: Source): void {
    this.metrics.outsideNetwork++;
    const l = this.outsideLog.allow();
    if (l.ok) {
      this.deps.log.warn(
        { imei: ref.imei, deviceId: ref.id, address: source.address, remote: source.remote, transport: source.transport, suppressed: l.suppressed || undefined },
        'message refused: the device may not connect from this address',
      );
    }
  }

  /** Counts and logs undecodable input, with the bytes in hex. */
  malformed(source: Pick<Source, 'transport' | 'remote'>, bytes: Uint8Array | string, reason: string, identity?: string): void {
    this.metrics.malformed++;
    const l = this.malformedLog.allow();
    if (!l.ok) return;
    const buf = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
    const hex = toHex(buf.subarray(0, 512)) + (buf.length > 512 ? `... (${buf.length} bytes)` : '');
    this.deps.log.warn({ transport: source.transport, remote: source.remote, identity, reason, hex, suppressed: l.suppressed || undefined }, 'malformed device input');
  }

  /** The owner and identity of a device id (for command events). */
  async refOf(deviceId: number): Promise<DeviceRef | null> {
    const hit = this.refs.get(deviceId);
    if (hit) return hit;
    const rows = await this.deps.database.query<DeviceRef>(
      `SELECT d.id, d.imei, d.name, d.account_id AS "accountId", a.path AS "accountPath", d.protocol
       FROM devices d JOIN accounts a ON a.id = d.account_id WHERE d.id = $1`,
      [deviceId],
    );
    if (rows[0]) this.refs.set(deviceId, rows[0]);
    return rows[0] ?? null;
  }

  snapshot() {
    return this.metrics.snapshot(this.gauges());
  }

  /** What the pipeline holds now: messages waiting for their batch, live command sessions, devices online. */
  gauges() {
    return { queued: this.writer.pending, sessions: this.sessions.size, online: this.onlineCount() };
  }

  private onlineCount(): number {
    let n = 0;
    for (const s of this.live.values()) if (s.online) n++;
    return n;
  }

  private base(ref: DeviceRef, it: WriteItem): DeviceRefEvent {
    const receivedAt = (it.receivedIso ??= new Date(it.receivedAt).toISOString());
    return {
      deviceId: ref.id,
      imei: ref.imei,
      name: ref.name,
      accountId: ref.accountId,
      accountPath: ref.accountPath,
      protocol: it.msg.protocol,
      time: it.timeIso ?? receivedAt,
      receivedAt,
    };
  }

  private committed(batch: CommittedBatch): void {
    const bus = this.deps.bus;
    const cameOnline = new Map<number, WriteItem | undefined>();
    for (const [id, d] of batch.deltas) {
      let live = this.live.get(id);
      if (!live) {
        live = { ...d, online: false };
        this.live.set(id, live);
      } else mergeDelta(live, d);
      if (!live.online) {
        live.online = true;
        cameOnline.set(id, undefined);
      }
    }
    for (const it of batch.items) {
      const id = it.ref.id;
      if (this.refs.get(id) !== it.ref) this.refs.set(id, it.ref);
      if (cameOnline.size && cameOnline.has(id) && !cameOnline.get(id)) cameOnline.set(id, it);
    }
    for (const it of cameOnline.values()) {
      if (!it) continue;
      const live = this.live.get(it.ref.id)!;
      const e: StatusEvent = { ...this.base(it.ref, it), online: true, connectionMode: live.mode };
      if (live.battery !== undefined) e.status = { battery: live.battery, ...(live.signal !== undefined ? { signal: live.signal } : {}) };
      bus.publish(TOPICS.status, e);
    }
    for (const it of batch.items) {
      const { msg, ref } = it;
      if (msg.fix || msg.cells?.length || msg.wifi?.length) {
        const f = msg.fix;
        const receivedAt = (it.receivedIso ??= new Date(it.receivedAt).toISOString());
        // One literal of one shape for every position (absent values stay undefined and are
        // dropped when the event is serialised): the hottest object of the pipeline.
        const e: PositionEvent = {
          deviceId: ref.id,
          imei: ref.imei,
          name: ref.name,
          accountId: ref.accountId,
          accountPath: ref.accountPath,
          protocol: msg.protocol,
          time: it.timeIso ?? receivedAt,
          receivedAt,
          lat: f?.lat ?? null,
          lon: f?.lon ?? null,
          valid: f?.valid ?? false,
          speed: f?.speed,
          course: f?.course,
          altitude: f?.altitude,
          accuracy: f?.accuracy,
          satellites: f?.satellites,
          cells: msg.cells?.length ? msg.cells : undefined,
          wifi: msg.wifi?.length ? msg.wifi : undefined,
          status: msg.status,
          buffered: msg.buffered || undefined,
          indoor: f?.indoor,
          ...(f?.method ? { method: f.method } : {}),
        };
        bus.publish(TOPICS.position, e);
      } else if (msg.status && (msg.kind === 'heartbeat' || msg.kind === 'alarm')) {
        const e: StatusEvent = { ...this.base(ref, it), online: true, connectionMode: it.mode, status: msg.status };
        bus.publish(TOPICS.status, e);
      }
      if (msg.health && Object.keys(msg.health).length) bus.publish(TOPICS.health, { ...this.base(ref, it), health: msg.health } satisfies HealthEvent);
      if (msg.alarms?.length) {
        const ids = batch.alarmIds.get(it) ?? [];
        const base = this.base(ref, it);
        msg.alarms.forEach((alarm, i) => {
          const e: AlarmEvent = { ...base, alarm, eventId: ids[i]! };
          if (msg.fix) Object.assign(e, { lat: msg.fix.lat, lon: msg.fix.lon, valid: msg.fix.valid });
          bus.publish(TOPICS.alarm, e);
        });
      }
      if (msg.beacon) bus.publish(TOPICS.beacon, { ...this.base(ref, it), beacon: msg.beacon } satisfies BeaconEvent);
    }
    for (const a of batch.answered) {
      const { ref } = a.item;
      bus.publish(TOPICS.command, {
        deviceId: ref.id, imei: ref.imei, name: ref.name, accountId: ref.accountId, accountPath: ref.accountPath, protocol: ref.protocol,
        commandId: a.commandId, code: a.code, status: 'answered', reply: a.reply, at: new Date().toISOString(),
      });
    }
  }

  /** Marks devices silent for longer than OFFLINE_TIMEOUT_SECONDS offline. */
  async sweep(now = Date.now()): Promise<void> {
    const gone: LiveState[] = [];
    for (const s of this.live.values()) if (s.online && now - s.lastSeen > this.offlineMs) gone.push(s);
    if (!gone.length) return;
    const cutoff = new Date(now - this.offlineMs).toISOString();
    const ids = gone.map((s) => s.deviceId);
    const rows = await this.deps.database.query<{ id: number }>(
      `UPDATE device_state SET online = false, updated_at = now()
       WHERE device_id IN (SELECT (json_array_elements_text($1::json))::int) AND online AND last_seen < $2::timestamptz RETURNING device_id AS id`,
      [JSON.stringify(ids), cutoff],
    );
    const changed = new Set(rows.map((r) => r.id));
    for (const s of gone) {
      // A message may have arrived while the update ran.
      if (now - s.lastSeen <= this.offlineMs) continue;
      s.online = false;
      if (!changed.has(s.deviceId)) continue;
      const ref = await this.refOf(s.deviceId);
      if (!ref) continue;
      const at = new Date(s.lastSeen).toISOString();
      const e: StatusEvent = {
        deviceId: ref.id, imei: ref.imei, name: ref.name, accountId: ref.accountId, accountPath: ref.accountPath, protocol: ref.protocol,
        time: at, receivedAt: at, online: false, connectionMode: s.mode,
      };
      this.deps.bus.publish(TOPICS.status, e);
    }
  }
}
