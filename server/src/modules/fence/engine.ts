// Evaluates fences on every committed position. Device fences: keeps each device's inside/outside
// state per fence (in memory, persisted in device_fence_state) and publishes fence.transition events
// for the alarm engine when a device enters or leaves one. Account fences (the fences of accounts
// over all the devices they watch, with debounced sides and schedules) are evaluated in the same
// per-device order by AccountFenceWatch (modules/account-fence/watch.ts).
import { sql } from 'drizzle-orm';
import { accountFence as accountFenceSchemas, fence as fenceSchemas } from '@wt/contract';
import type { AppDeps } from '../../deps.js';
import { rows } from '../../lib/sql.js';
import { TOPICS, type DeviceChangedEvent, type PositionEvent } from '../../pipeline/events.js';
import { step, type FenceShape, type FenceStateEntry } from '../../rules/fence.js';
import type { Service } from '../../services.js';
import { REALTIME_TOPICS, type AccountsMovedEvent } from '../../realtime/topics.js';
import { AccountFenceWatch } from '../account-fence/watch.js';
import { FENCES_CHANGED_TOPIC } from './routes.js';

interface LoadedFence {
  id: number;
  name: string;
  shape: FenceShape;
}
interface DeviceFences {
  fences: LoadedFence[];
  state: Map<number, FenceStateEntry>;
}

export class FenceEngine {
  private devices = new Map<number, Promise<DeviceFences>>();
  /**
   * Devices that may have fences (loaded at start, joined by any device whose fences change, left
   * by one found to have none). Positions of the others cost nothing: no query on first contact,
   * no promise per position. Null until loaded: then every device is looked up.
   */
  private mayHaveFences: Set<number> | null = null;
  /** Positions of one device are evaluated in order. */
  private chains = new Map<number, Promise<void>>();
  private unsubscribe: (() => void)[] = [];
  readonly accountFences: AccountFenceWatch;

  constructor(private readonly deps: AppDeps) {
    this.accountFences = new AccountFenceWatch(deps);
  }

  async start() {
    this.unsubscribe.push(
      this.deps.bus.subscribe<PositionEvent>(TOPICS.position, (e) => this.enqueue(e)),
      // Fences are edited in whichever process serves the console: hear every process.
      this.deps.bus.subscribe<{ deviceId: number }>(FENCES_CHANGED_TOPIC, (e) => this.forget(e.deviceId), { cluster: true }),
      this.deps.bus.subscribe<DeviceChangedEvent>(
        TOPICS.changed,
        (e) => {
          if (!e.deviceId) return;
          this.forget(e.deviceId);
          this.accountFences.forgetDevice(e.deviceId);
        },
        { cluster: true },
      ),
      this.deps.bus.subscribe(accountFenceSchemas.ACCOUNT_FENCES_CHANGED_TOPIC, () => void this.accountFences.reload(), { cluster: true }),
      // Watched accounts are found from the device's account path: a moved subtree changes them.
      this.deps.bus.subscribe<AccountsMovedEvent>(REALTIME_TOPICS.accountsMoved, () => this.accountFences.pathsChanged(), { cluster: true }),
    );
    await this.accountFences.start();
    const fenced = await rows<{ device_id: number }>(this.deps.database.db, sql`SELECT DISTINCT device_id FROM device_fences`);
    const set = new Set(fenced.map((r) => Number(r.device_id)));
    // Fences changed while the list loaded: keep those devices in.
    for (const id of this.devices.keys()) set.add(id);
    this.mayHaveFences = set;
  }

  async stop() {
    for (const u of this.unsubscribe.splice(0)) u();
    await Promise.all(this.chains.values());
    await this.accountFences.stop();
  }

  forget(deviceId: number) {
    this.devices.delete(deviceId);
    this.mayHaveFences?.add(deviceId);
  }

  /** Resolves when every position received so far has been evaluated and its account fence sides written. */
  async idle(): Promise<void> {
    while (this.chains.size) await Promise.all(this.chains.values());
    await this.accountFences.flush();
  }

  enqueue(e: PositionEvent) {
    if (e.lat === null || e.lon === null || !Number.isFinite(e.lat) || !Number.isFinite(e.lon) || e.valid === false) return;
    const device = !this.mayHaveFences || this.mayHaveFences.has(e.deviceId) || (this.chains.has(e.deviceId) && this.devices.has(e.deviceId));
    const account = this.accountFences.wants(e);
    if (!device && !account) return;
    // Account fences alone, nothing queued for the device: evaluated at once when nothing is awaited.
    if (!device && !this.chains.has(e.deviceId) && this.accountFences.evaluateNow(e)) return;
    const prev = this.chains.get(e.deviceId) ?? Promise.resolve();
    const next = prev
      .then(() => this.run(e, device, account))
      .finally(() => {
        if (this.chains.get(e.deviceId) === next) this.chains.delete(e.deviceId);
      });
    this.chains.set(e.deviceId, next);
  }

  private async run(e: PositionEvent, device: boolean, account: boolean) {
    if (device) {
      try {
        await this.evaluate(e);
      } catch (err) {
        this.deps.log.error({ err, deviceId: e.deviceId }, 'fence evaluation failed');
      }
    }
    if (account) {
      try {
        await this.accountFences.evaluate(e);
      } catch (err) {
        this.deps.log.error({ err, deviceId: e.deviceId }, 'account fence evaluation failed');
      }
    }
  }

  private load(deviceId: number): Promise<DeviceFences> {
    let p = this.devices.get(deviceId);
    if (!p) {
      p = (async () => {
        const { db } = this.deps.database;
        const fences = await rows<{ id: number; name: string; kind: string; lat: number; lon: number; radius: number; points: [number, number][] }>(
          db,
          sql`SELECT id, name, kind, lat, lon, radius, points FROM device_fences WHERE device_id = ${deviceId}`,
        );
        const state = new Map<number, FenceStateEntry>();
        if (fences.length) {
          for (const s of await rows<{ fence_id: number; inside: boolean; time: Date }>(db, sql`SELECT fence_id, inside, time FROM device_fence_state WHERE device_id = ${deviceId}`)) {
            state.set(s.fence_id, { inside: s.inside, time: new Date(s.time).getTime() });
          }
        }
        if (fences.length === 0 && this.devices.get(deviceId) === p) this.mayHaveFences?.delete(deviceId);
        return {
          fences: fences.map((f) => ({
            id: f.id,
            name: f.name,
            shape: f.kind === 'circle' ? { kind: 'circle', center: { lat: f.lat, lon: f.lon }, radius: f.radius } : { kind: 'polygon', points: f.points.map(([lat, lon]) => ({ lat, lon })) },
          })),
          state,
        };
      })();
      this.devices.set(deviceId, p);
      p.catch(() => this.devices.delete(deviceId));
    }
    return p;
  }

  private async evaluate(e: PositionEvent) {
    const dev = await this.load(e.deviceId);
    if (dev.fences.length === 0) return;
    const time = new Date(e.time).getTime();
    const { transitions, changed } = step(dev.fences, dev.state, { lat: e.lat!, lon: e.lon! }, time);
    if (changed.length) {
      const values = changed.map((id) => sql`(${e.deviceId}, ${id}, ${dev.state.get(id)!.inside}, ${new Date(time).toISOString()}::timestamptz)`);
      await this.deps.database.db.execute(sql`INSERT INTO device_fence_state (device_id, fence_id, inside, time) VALUES ${sql.join(values, sql`, `)}
        ON CONFLICT (device_id, fence_id) DO UPDATE SET inside = excluded.inside, time = excluded.time`);
    }
    for (const t of transitions) {
      const fence = dev.fences.find((f) => f.id === t.fenceId)!;
      this.deps.bus.publish(fenceSchemas.FENCE_TRANSITION_TOPIC, {
        deviceId: e.deviceId,
        imei: e.imei,
        fenceId: t.fenceId,
        fenceName: fence.name,
        kind: t.kind,
        time: new Date(time).toISOString(),
        lat: e.lat!,
        lon: e.lon!,
        accountId: e.accountId,
        accountPath: e.accountPath,
      } satisfies fenceSchemas.FenceTransitionEvent);
    }
  }
}

/** The engine of each running platform, for tests and for whoever needs to wait on it. */
export const fenceEngines = new WeakMap<AppDeps, FenceEngine>();

export const fenceService: Service = {
  name: 'device-fences',
  roles: ['worker'],
  async start(deps) {
    const engine = new FenceEngine(deps);
    await engine.start();
    fenceEngines.set(deps, engine);
    return async () => {
      await engine.stop();
      fenceEngines.delete(deps);
    };
  },
  async stop() {},
};
