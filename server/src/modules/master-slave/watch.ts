// Master-slave separation on committed beacon scans: a master's scan that names a slave's MAC is a
// hearing; a slave not heard for its binding's timeout is separated (an alarm on the master), and
// heard again it is back (an event on the master). While heard, a slave that is itself a device is
// placed at its master's last position with the master's accuracy (written through the pipeline).
// Hearings are kept in memory and written at most every LAST_HEARD_WRITE_MS per slave; a
// separation is raised before it is stored, so a crash between the two raises it again (a repeat of
// the open alarm), never loses it. After a restart each slave gets a full timeout from the start.
import { ALARM_CODES } from '@wt/contract';
import type { DeviceMessage } from '@wt/protocols';
import type { AppDeps } from '../../deps.js';
import { normalizeMac } from '../../indoor/keys.js';
import { TOPICS, type BeaconEvent, type PositionEvent } from '../../pipeline/events.js';
import { deviceInfoOf, type DeviceInfo } from '../../rules/alarm-engine.js';
import { alarmEngines } from '../../rules/services.js';
import { separationStep, type SlaveState } from '../../rules/separation.js';
import type { Service } from '../../services.js';
import { BINDINGS_CHANGED_TOPIC } from './service.js';

const SWEEP_MS = 1000;
const LAST_HEARD_WRITE_MS = 30_000;

interface Slave extends SlaveState {
  mac: string;
  name: string;
  rssi: number | null;
  /** The slave as a device (a tag registered by this MAC): its identity for the pipeline. */
  deviceKey: string | null;
  written: number;
}
interface Binding {
  id: number;
  masterId: number;
  timeoutMs: number;
  slaves: Map<string, Slave>;
}

export class SeparationWatch {
  private byMaster = new Map<number, Binding>();
  private masters = new Map<number, DeviceInfo>();
  private fixes = new Map<number, { lat: number; lon: number; accuracy: number | undefined }>();
  private unsubscribe: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly deps: AppDeps) {}

  async start() {
    await this.reload();
    this.unsubscribe.push(
      this.deps.bus.subscribe<BeaconEvent>(TOPICS.beacon, (e) => this.onBeacon(e)),
      this.deps.bus.subscribe<PositionEvent>(TOPICS.position, (e) => this.onPosition(e)),
      this.deps.bus.subscribe(BINDINGS_CHANGED_TOPIC, () => void this.reload(), { cluster: true }),
    );
    this.timer = setInterval(() => void this.sweep(), SWEEP_MS);
    this.timer.unref();
  }

  async stop() {
    this.stopped = true;
    for (const u of this.unsubscribe.splice(0)) u();
    clearInterval(this.timer);
    await this.chain;
  }

  /** Resolves when everything so far is handled (tests). */
  async settled() {
    await this.chain;
  }

  private queue(work: () => Promise<void>): Promise<void> {
    this.chain = this.chain.then(work).catch((err) => this.deps.log.error({ err }, 'master-slave: handling failed'));
    return this.chain;
  }

  reload(): Promise<void> {
    return this.queue(async () => {
      const rows = await this.deps.database.query<{ id: number; master_device_id: number; timeout_seconds: number; mac: string; name: string; last_heard: Date | null; separated: boolean; device_key: string | null }>(
        `SELECT b.id, b.master_device_id, b.timeout_seconds, s.mac, s.name, s.last_heard, s.separated,
                (SELECT d.ext_id FROM devices d WHERE d.ext_id IN (lower(s.mac), lower(replace(s.mac, ':', ''))) LIMIT 1) AS device_key
           FROM master_slave_bindings b JOIN master_slaves s ON s.binding_id = b.id`,
      );
      const now = Date.now();
      const next = new Map<number, Binding>();
      for (const r of rows) {
        const masterId = Number(r.master_device_id);
        let b = next.get(masterId);
        if (!b) next.set(masterId, (b = { id: Number(r.id), masterId, timeoutMs: Number(r.timeout_seconds) * 1000, slaves: new Map() }));
        const known = this.byMaster.get(masterId)?.slaves.get(r.mac);
        const heard = r.last_heard ? new Date(r.last_heard).getTime() : null;
        b.slaves.set(r.mac, {
          mac: r.mac,
          name: r.name,
          rssi: known?.rssi ?? null,
          deviceKey: r.device_key,
          // What this process heard is newer than what was written; a slave it never heard gets a full timeout from now.
          lastHeard: known?.lastHeard ?? heard,
          watchedSince: known?.watchedSince ?? now,
          separated: known?.separated ?? r.separated,
          written: known?.written ?? heard ?? 0,
        });
      }
      this.byMaster = next;
    });
  }

  onPosition(e: PositionEvent) {
    if (!this.byMaster.has(e.deviceId) || e.lat === null || e.lon === null || !e.valid) return;
    this.fixes.set(e.deviceId, { lat: e.lat, lon: e.lon, accuracy: e.accuracy });
  }

  onBeacon(e: BeaconEvent) {
    if (this.stopped) return;
    const b = this.byMaster.get(e.deviceId);
    // The master's own scan (a gateway's report is the gateway hearing the master, not the reverse).
    if (!b || e.beacon.gatewayId || !e.beacon.beacons?.length) return;
    this.masters.set(e.deviceId, { id: e.deviceId, imei: e.imei, name: e.name, accountId: e.accountId, accountPath: e.accountPath });
    const time = Date.parse(e.time);
    const back: Slave[] = [];
    const placed: Slave[] = [];
    for (const x of e.beacon.beacons) {
      const s = b.slaves.get(normalizeMac(x.mac) ?? '');
      if (!s) continue;
      const r = separationStep(s, { heardAt: time }, b.timeoutMs);
      Object.assign(s, r.state);
      s.rssi = Math.max(-128, Math.min(127, Math.round(x.rssi)));
      if (r.change === 'back') back.push(s);
      if (s.deviceKey) placed.push(s);
    }
    const fix = this.fixes.get(e.deviceId);
    if (fix && placed.length) this.place(placed, fix, time);
    if (back.length) void this.queue(() => this.tell(b, back, 'back', time));
    const due = [...b.slaves.values()].filter((s) => s.lastHeard !== null && s.lastHeard - s.written >= LAST_HEARD_WRITE_MS);
    if (due.length) void this.queue(() => this.writeHeard(b, due));
  }

  /** Slaves heard now are where their master is. */
  private place(slaves: Slave[], fix: { lat: number; lon: number; accuracy: number | undefined }, time: number) {
    const t = new Date(time);
    const messages: DeviceMessage[] = slaves.map((s) => ({
      deviceId: s.deviceKey!,
      protocol: 'uplink',
      kind: 'position',
      type: 'slave',
      time: t,
      fix: { time: t, valid: true, lat: fix.lat, lon: fix.lon, ...(fix.accuracy !== undefined ? { accuracy: fix.accuracy } : {}) },
    }));
    this.deps.ingest.ingest(messages, { transport: 'indoor', remote: 'master-slave', mode: 'short' }).catch((err: unknown) => this.deps.log.error({ err }, 'master-slave: placing slaves failed'));
  }

  /** Slaves whose timeout ran out are separated (tests pass a clock). */
  sweep(now = Date.now()): Promise<void> {
    const due: [Binding, Slave[]][] = [];
    for (const b of this.byMaster.values()) {
      const gone = [...b.slaves.values()].filter((s) => {
        const r = separationStep(s, { now }, b.timeoutMs);
        if (r.change !== 'separated') return false;
        Object.assign(s, r.state);
        return true;
      });
      if (gone.length) due.push([b, gone]);
    }
    if (!due.length) return this.chain;
    return this.queue(async () => {
      for (const [b, gone] of due) await this.tell(b, gone, 'separated', now);
    });
  }

  private async master(id: number): Promise<DeviceInfo | undefined> {
    return this.masters.get(id) ?? deviceInfoOf(this.deps.database.query.bind(this.deps.database), id);
  }

  /** Raises the alarm (separated) or event (back) of each slave on its master, then stores the state. */
  private async tell(b: Binding, slaves: Slave[], change: 'separated' | 'back', time: number) {
    const engine = alarmEngines.get(this.deps);
    const device = await this.master(b.masterId);
    for (const s of slaves) {
      if (engine && device)
        await engine.raise({
          code: change === 'separated' ? ALARM_CODES.slaveSeparated : ALARM_CODES.slaveBack,
          device,
          time: new Date(change === 'separated' ? time : (s.lastHeard ?? time)),
          messageKey: change === 'separated' ? 'alarm.msg.slaveSeparated' : 'alarm.msg.slaveBack',
          params: { slave: s.name || s.mac, mac: s.mac, seconds: Math.round(b.timeoutMs / 1000) },
          ...(this.fixes.get(b.masterId) ? { lat: this.fixes.get(b.masterId)!.lat, lon: this.fixes.get(b.masterId)!.lon } : {}),
        });
    }
    await this.writeHeard(b, slaves);
  }

  private async writeHeard(b: Binding, slaves: Slave[]) {
    const list = slaves.map((s) => ({ m: s.mac, h: s.lastHeard === null ? null : new Date(s.lastHeard).toISOString(), r: s.rssi, s: s.separated }));
    await this.deps.database.query(
      `UPDATE master_slaves t SET last_heard = COALESCE(x.h, t.last_heard), rssi = COALESCE(x.r, t.rssi), separated = x.s
         FROM json_to_recordset($1::json) AS x(m text, h timestamptz, r int, s boolean) WHERE t.binding_id = $2 AND t.mac = x.m`,
      [JSON.stringify(list), b.id],
    );
    for (const s of slaves) s.written = s.lastHeard ?? s.written;
  }
}

export const separationWatches = new WeakMap<AppDeps, SeparationWatch>();

export const separationService: Service = {
  name: 'master-slave',
  roles: ['worker'],
  async start(deps) {
    const watch = new SeparationWatch(deps);
    await watch.start();
    separationWatches.set(deps, watch);
    return async () => {
      await watch.stop();
      separationWatches.delete(deps);
    };
  },
  async stop() {},
};
