// Account fences on committed positions, for the fence engine (modules/fence/engine.ts): every fence
// is loaded at start with the accounts it watches, and the fences a device's position is tested
// against are found from its owner's account path (the account itself, or an ancestor watched with
// IncludeChildren), cached per path. Each device's debounced side per fence (rules/dwell.ts) lives in
// memory and is written to account_fence_state only when the side or the candidate crossing changes;
// crossings and first sightings go to account_fence_transitions, and the ones the fence's alarm type
// and schedule allow are published for the alarm engine. Writes of many devices go in one statement.
// Devices watched get marked for the attendance job with the earliest position time seen.
import { sql } from 'drizzle-orm';
import { accountFence, type fence as fenceSchemas } from '@wt/contract';
import type { AppDeps } from '../../deps.js';
import { rows } from '../../lib/sql.js';
import type { PositionEvent } from '../../pipeline/events.js';
import { activeAt } from '../../rules/schedule.js';
import { dwellStep, type DwellConfig, type DwellState } from '../../rules/dwell.js';
import type { Area } from '../../rules/area.js';
import type { StoredSchedule } from '../../db/schema/index.js';
import { fenceArea, type CompiledFence } from './areas.js';
import { districtPolygons } from './districts.js';

export interface WatchingFence extends CompiledFence {
  /** Accounts named by the fence. */
  accounts: Set<number>;
  includeChildren: boolean;
  /** The fence's updated_at as the database writes it: a state or crossing of another version is not stored. */
  version: string;
}

interface FenceLoadRow {
  id: number;
  name: string;
  owner_id: number;
  alarm_type: number;
  kind: string;
  lat: number | null;
  lon: number | null;
  radius: number | null;
  points: [number, number][] | null;
  district_code: string | null;
  include_children: boolean;
  schedule: StoredSchedule | null;
  version: string;
  tz: number;
  accounts: number[] | null;
}

interface StateWrite {
  deviceId: number;
  fence: WatchingFence;
  state: DwellState;
}
interface TransitionWrite {
  deviceId: number;
  fence: WatchingFence;
  inside: boolean;
  time: number;
  confirmedAt: number;
  lat: number;
  lon: number;
  initial: boolean;
  alarmed: boolean;
}

/** How often devices marked for attendance are written. */
const ATTENDANCE_FLUSH_MS = 2000;
const ts = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Account ids of a path '/1/5/9/', root first. */
const pathIds = (path: string) =>
  path
    .split('/')
    .filter(Boolean)
    .map(Number);

export class AccountFenceWatch {
  private fences: WatchingFence[] = [];
  private byPath = new Map<string, WatchingFence[]>();
  private areas = new Map<number, { version: string; area: Area }>();
  private reloading: Promise<void> | null = null;
  private reloadAgain = false;
  /** Each device's side per fence, loaded from account_fence_state on first contact. */
  private states = new Map<number, Map<number, DwellState>>();
  private loading = new Map<number, Promise<Map<number, DwellState>>>();
  private stateWrites = new Map<string, StateWrite>();
  private transitionWrites: TransitionWrite[] = [];
  private writing: Promise<void> = Promise.resolve();
  private writeScheduled = false;
  /** Device → earliest position time (ms) seen since the last flush into attendance_dirty. */
  private dirty = new Map<number, number>();
  private dirtyFlush: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly dwell: DwellConfig;
  private readonly maxAccuracy: number;

  constructor(private readonly deps: AppDeps) {
    this.dwell = { fixes: deps.config.FENCE_DWELL_FIXES, ms: deps.config.FENCE_DWELL_SECONDS * 1000 };
    this.maxAccuracy = deps.config.FENCE_MAX_ACCURACY_M;
  }

  start() {
    this.timer = setInterval(() => void this.flushDirty(), ATTENDANCE_FLUSH_MS);
    this.timer.unref();
    return this.reload();
  }

  async stop() {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  /** Loads the fences again (coalesced: one load runs, one more follows if asked meanwhile). */
  reload(): Promise<void> {
    if (this.reloading) {
      this.reloadAgain = true;
      return this.reloading;
    }
    this.reloading = (async () => {
      do {
        this.reloadAgain = false;
        await this.load();
      } while (this.reloadAgain);
    })().finally(() => {
      this.reloading = null;
    });
    this.reloading.catch((err) => this.deps.log.error({ err }, 'account fences: loading failed'));
    return this.reloading;
  }

  /** Account paths changed (a subtree moved): the candidates are found again. */
  pathsChanged() {
    this.byPath.clear();
  }

  /** A device changed (owner, deletion): its sides are read again from the database. */
  forgetDevice(deviceId: number) {
    this.states.delete(deviceId);
    this.loading.delete(deviceId);
  }

  /** Whether a position needs evaluating (cheap, synchronous: most positions answer no at once). */
  wants(e: PositionEvent): boolean {
    if (this.reloading) return true;
    if (!this.fences.length) return false;
    return this.candidates(e.accountPath).length > 0;
  }

  /** Evaluates one position (a device's positions one after the other). */
  async evaluate(e: PositionEvent): Promise<void> {
    if (this.reloading) await this.reloading.catch(() => undefined);
    const fences = this.candidates(e.accountPath);
    if (!fences.length) return;
    this.step(e, fences, this.states.get(e.deviceId) ?? (await this.statesOf(e.deviceId)));
  }

  /**
   * Evaluates a position at once when nothing is to be awaited (no reload running, the device's
   * sides read): the common case costs no promise. False: the caller queues `evaluate`.
   */
  evaluateNow(e: PositionEvent): boolean {
    if (this.reloading) return false;
    const states = this.states.get(e.deviceId);
    if (!states) return false;
    this.step(e, this.candidates(e.accountPath), states);
    return true;
  }

  private step(e: PositionEvent, fences: WatchingFence[], states: Map<number, DwellState>) {
    if (!fences.length) return;
    if (e.accuracy !== undefined && e.accuracy !== null && e.accuracy > this.maxAccuracy) return;
    const time = Date.parse(e.time);
    if (!Number.isFinite(time)) return;
    // Late positions too: the attendance job recomputes the days from the stored positions.
    const seen = this.dirty.get(e.deviceId);
    if (seen === undefined || time < seen) this.dirty.set(e.deviceId, time);
    const point = { lat: e.lat!, lon: e.lon! };
    for (const fence of fences) {
      const prev = states.get(fence.id);
      const inside = fence.area.contains(point);
      // Nearly every fix stays on its side with nothing pending: only its time moves (what
      // dwellStep would answer, without a new object per fix and fence).
      if (prev && inside === prev.inside && prev.pendingSince === null && time > prev.time) {
        prev.time = time;
        continue;
      }
      const r = dwellStep(prev, inside, time, this.dwell);
      if (r.stale) continue;
      states.set(fence.id, r.state);
      const c = r.crossing;
      if (c || !prev || prev.pendingSince !== r.state.pendingSince || prev.pendingCount !== r.state.pendingCount) {
        this.stateWrites.set(`${e.deviceId}:${fence.id}`, { deviceId: e.deviceId, fence, state: r.state });
      }
      if (c) {
        const wanted = c.inside ? fence.alarmType !== 2 : fence.alarmType !== 1;
        const alarmed = !c.initial && wanted && activeAt(fence.schedule, c.time, fence.tz);
        this.transitionWrites.push({ deviceId: e.deviceId, fence, inside: c.inside, time: c.time, confirmedAt: c.confirmedAt, lat: point.lat, lon: point.lon, initial: c.initial, alarmed });
        if (alarmed) {
          this.deps.bus.publish(accountFence.ACCOUNT_FENCE_TRANSITION_TOPIC, {
            deviceId: e.deviceId,
            imei: e.imei,
            fenceId: fence.id,
            fenceName: fence.name,
            kind: c.inside ? 'enter' : 'exit',
            time: new Date(c.time).toISOString(),
            lat: point.lat,
            lon: point.lon,
            accountId: e.accountId,
            accountPath: e.accountPath,
          } satisfies fenceSchemas.FenceTransitionEvent);
        }
      }
    }
    this.scheduleWrite();
  }

  /** Writes everything evaluated so far: sides, crossings and devices marked for attendance. */
  async flush(): Promise<void> {
    if (this.reloading) await this.reloading.catch(() => undefined);
    await this.write();
    await this.flushDirty();
  }

  // ---- fences ---------------------------------------------------------------------------------

  private candidates(path: string): WatchingFence[] {
    let found = this.byPath.get(path);
    if (!found) {
      const ids = pathIds(path);
      const own = ids[ids.length - 1];
      found = this.fences.filter((f) => (own !== undefined && f.accounts.has(own)) || (f.includeChildren && ids.some((id) => f.accounts.has(id))));
      this.byPath.set(path, found);
    }
    return found;
  }

  private async load() {
    const loaded = await rows<FenceLoadRow>(
      this.deps.database.db,
      sql`SELECT f.id, f.name, f.owner_id, f.alarm_type, f.kind, f.lat, f.lon, f.radius, f.points, f.district_code, f.include_children,
          f.schedule, f.updated_at::text AS version, o.time_zone_offset AS tz,
          (SELECT json_agg(fa.account_id) FROM account_fence_accounts fa WHERE fa.fence_id = f.id) AS accounts
        FROM account_fences f JOIN accounts o ON o.id = f.owner_id ORDER BY f.id`,
    );
    const next: WatchingFence[] = [];
    for (const r of loaded) {
      const id = Number(r.id);
      let compiled = this.areas.get(id);
      if (!compiled || compiled.version !== r.version) {
        compiled = { version: r.version, area: await fenceArea(r, districtPolygons) };
        this.areas.set(id, compiled);
      }
      next.push({
        id,
        name: r.name,
        ownerId: Number(r.owner_id),
        alarmType: Number(r.alarm_type),
        schedule: r.schedule,
        tz: Number(r.tz),
        area: compiled.area,
        accounts: new Set((r.accounts ?? []).map(Number)),
        includeChildren: r.include_children,
        version: r.version,
      });
    }
    // A fence gone or of a new shape or schedule: the sides kept for it are dropped (its rows were).
    const kept = new Map(next.map((f) => [f.id, f.version]));
    const stale = this.fences.filter((f) => kept.get(f.id) !== f.version).map((f) => f.id);
    for (const id of this.areas.keys()) if (!kept.has(id)) this.areas.delete(id);
    if (stale.length) for (const m of this.states.values()) for (const id of stale) m.delete(id);
    // Sides being read now may hold rows the change deleted: read them again.
    this.loading.clear();
    this.fences = next;
    this.byPath.clear();
  }

  // ---- state ----------------------------------------------------------------------------------

  private statesOf(deviceId: number): Promise<Map<number, DwellState>> {
    let p = this.loading.get(deviceId);
    if (!p) {
      const loading = rows<{ fence_id: number; inside: boolean; since: Date; time: Date; pending_since: Date | null; pending_count: number }>(
        this.deps.database.db,
        sql`SELECT fence_id, inside, since, time, pending_since, pending_count FROM account_fence_state WHERE device_id = ${deviceId}`,
      ).then((found) => {
        const m = new Map(
          found.map((s) => [
            Number(s.fence_id),
            {
              inside: s.inside,
              since: new Date(s.since).getTime(),
              time: new Date(s.time).getTime(),
              pendingSince: s.pending_since === null ? null : new Date(s.pending_since).getTime(),
              pendingCount: Number(s.pending_count),
            },
          ]),
        );
        // Kept unless the device or the fences changed meanwhile (then read again next time).
        if (this.loading.get(deviceId) === loading) {
          this.states.set(deviceId, m);
          this.loading.delete(deviceId);
        }
        return m;
      });
      p = loading;
      this.loading.set(deviceId, p);
      p.catch(() => this.loading.delete(deviceId));
    }
    return p;
  }

  private scheduleWrite() {
    if (this.writeScheduled || (!this.stateWrites.size && !this.transitionWrites.length)) return;
    this.writeScheduled = true;
    // The positions of one committed batch are evaluated together: their writes share statements.
    setImmediate(() => {
      this.writeScheduled = false;
      void this.write();
    });
  }

  /** Writes what is queued (one write at a time, so a later side never lands before an earlier one). */
  private write(): Promise<void> {
    const states = [...this.stateWrites.values()];
    const transitions = this.transitionWrites;
    this.stateWrites = new Map();
    this.transitionWrites = [];
    if (!states.length && !transitions.length) return this.writing;
    this.writing = this.writing
      .then(() => this.store(states, transitions))
      .catch((err) => this.deps.log.error({ err }, 'account fences: writing sides failed'));
    return this.writing;
  }

  private async store(states: StateWrite[], transitions: TransitionWrite[]) {
    const { db } = this.deps.database;
    // Rows are stored only while their fence is the version they were evaluated against.
    if (states.length) {
      const values = states.map(
        (w) =>
          sql`(${w.deviceId}::int, ${w.fence.id}::int, ${w.state.inside}::boolean, ${ts(w.state.since)}::timestamptz, ${ts(w.state.time)}::timestamptz,
            ${ts(w.state.pendingSince)}::timestamptz, ${w.state.pendingCount}::smallint, ${w.fence.version}::timestamptz)`,
      );
      await db.execute(sql`INSERT INTO account_fence_state (device_id, fence_id, inside, since, time, pending_since, pending_count)
        SELECT v.d, v.f, v.i, v.s, v.t, v.ps, v.pc FROM (VALUES ${sql.join(values, sql`, `)}) AS v (d, f, i, s, t, ps, pc, ver)
          JOIN account_fences af ON af.id = v.f AND af.updated_at = v.ver
        ON CONFLICT (device_id, fence_id) DO UPDATE SET inside = excluded.inside, since = excluded.since, time = excluded.time,
          pending_since = excluded.pending_since, pending_count = excluded.pending_count`);
    }
    if (transitions.length) {
      const values = transitions.map(
        (t) =>
          sql`(${t.fence.id}::int, ${t.deviceId}::int, ${t.inside}::boolean, ${ts(t.time)}::timestamptz, ${ts(t.confirmedAt)}::timestamptz,
            ${t.lat}::float8, ${t.lon}::float8, ${t.initial}::boolean, ${t.alarmed}::boolean, ${t.fence.version}::timestamptz)`,
      );
      await db.execute(sql`INSERT INTO account_fence_transitions (fence_id, device_id, inside, time, confirmed_at, lat, lon, initial, alarmed)
        SELECT v.f, v.d, v.i, v.t, v.c, v.lat, v.lon, v.init, v.al FROM (VALUES ${sql.join(values, sql`, `)}) AS v (f, d, i, t, c, lat, lon, init, al, ver)
          JOIN account_fences af ON af.id = v.f AND af.updated_at = v.ver`);
    }
  }

  private flushDirty(): Promise<void> {
    if (!this.dirty.size) return this.dirtyFlush;
    const marks = [...this.dirty];
    this.dirty = new Map();
    this.dirtyFlush = this.dirtyFlush
      .then(async () => {
        const values = marks.map(([id, ms]) => sql`(${id}::int, ${ts(ms)}::timestamptz)`);
        await this.deps.database.db.execute(sql`INSERT INTO attendance_dirty (device_id, since) VALUES ${sql.join(values, sql`, `)}
          ON CONFLICT (device_id) DO UPDATE SET since = LEAST(attendance_dirty.since, excluded.since), marked_at = now()`);
      })
      .catch((err) => {
        // Kept for the next flush.
        for (const [id, ms] of marks) {
          const seen = this.dirty.get(id);
          if (seen === undefined || ms < seen) this.dirty.set(id, ms);
        }
        this.deps.log.error({ err }, 'account fences: marking attendance failed');
      });
    return this.dirtyFlush;
  }
}
