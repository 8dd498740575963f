// The alarm engine: turns committed device events into alarms. Sources are the pipeline's device
// alarms and health readings, fence crossings (device fences, and account fences through any
// TransitionSource), and a periodic offline check. Every alarm is stored (one open alarm per
// device and type, repeats counted), published for the consoles, queued for partner companies and
// told to the alarm contacts.
//
// Durability: the pipeline writes a device's alarm (device_events) and a health reading with a
// checked measure (health_readings) as pending, in the transaction it acknowledges them after. The
// engine clears that mark in the same transaction as the alarm record, its partner pushes and its
// alarm contacts' notices (SMS, e-mail), so an event is raised exactly once; what a crash (or a
// process without the engine) left pending is replayed at start and every few seconds.
import { ALARM_CODES, ALARM_TYPES, ALWAYS_ON_ALARM_CODES, DEFAULT_LOCALE, alarmTypeByCode, formatInZone, translate, type HealthThresholds } from '@wt/contract';
import type { QueryFn } from '../db/client.js';
import type { AppDeps } from '../deps.js';
import { alarmTypes } from '../db/schema/index.js';
import { TOPICS, type AlarmEvent, type HealthEvent, type PositionEvent } from '../pipeline/events.js';
import { OVERSPEED_START, overspeedStep, speedReading, type OverspeedState } from './overspeed.js';
import { motionStart, motionStep, noMotionDue, type MotionSample, type MotionState } from './no-motion.js';
import { REALTIME_TOPICS, movedPath, type AccountsMovedEvent, type AlarmClearedEvent, type AlarmRaisedEvent } from '../realtime/topics.js';
import { alarmTypeName, renderAlarmMessage } from '../modules/alarm/format.js';
import type { AlarmKind, HealthReading } from '@wt/protocols';
import {
  codeOfDeviceAlarm,
  evaluateHealth,
  hasCheckedMeasure,
  healthBackInRange,
  messageOfDeviceAlarm,
  MEASURES_OF_HEALTH_CODE,
  pathIdsUpward,
  resolveThresholds,
  thresholdsOfTypes,
  THRESHOLD_TYPE_CODES,
  type TypeRange,
  type Measure,
  type ThresholdSource,
} from './alarm-rules.js';
import { NOTICE_TOPICS, enqueueAlarmNotices } from '../modules/sms/notices.js';
import { smsSends } from '../modules/sms/providers.js';
import { PUSH_TOPICS, enqueuePush } from '../modules/push/outbox.js';
import { ESCALATION_TOPICS, scheduleEscalation } from '../modules/escalation/engine.js';

/** Bus topics of the alarm area. */
export const ALARM_TOPICS = {
  /** Device fence crossings (rules/fence.ts). */
  deviceFence: 'fence.transition',
  /** Account fence crossings, published by the account fence rules the same way. */
  accountFence: 'account-fence.transition',
  /** Alarm types were edited: reload them. */
  typesChanged: 'alarm.types.changed',
  /** Thresholds were edited: drop cached ones. */
  thresholdsChanged: 'alarm.thresholds.changed',
} as const;

export interface FenceTransition {
  deviceId: number;
  fenceId: number;
  kind: 'enter' | 'exit';
  time: string;
  lat: number;
  lon: number;
  accountPath: string;
  fenceName?: string;
}

/** Anything that reports fence crossings: device fences, account fences, or a future kind. */
export interface TransitionSource {
  readonly scope: 'device' | 'account';
  subscribe(handler: (t: FenceTransition) => void): () => void;
}

/** A source fed by a bus topic (how both fence rule sets publish). */
export function busTransitionSource(bus: AppDeps['bus'], topic: string, scope: 'device' | 'account'): TransitionSource {
  return { scope, subscribe: (handler) => bus.subscribe<FenceTransition>(topic, handler) };
}

export interface DeviceInfo {
  id: number;
  imei: string;
  name: string;
  accountId: number;
  accountPath: string;
}

/** A device as an alarm names it (its owner's path for the scope), read when no cache holds it. */
export async function deviceInfoOf(q: QueryFn, id: number): Promise<DeviceInfo | undefined> {
  const [d] = await q<{ imei: string; name: string; account_id: number; path: string }>(
    `SELECT d.imei, d.name, d.account_id, a.path FROM devices d JOIN accounts a ON a.id = d.account_id WHERE d.id = $1`,
    [id],
  );
  return d ? { id, imei: d.imei, name: d.name, accountId: Number(d.account_id), accountPath: d.path } : undefined;
}

export interface RaiseInput {
  code: number;
  device: DeviceInfo;
  time?: Date | string;
  messageKey: string;
  params?: Record<string, unknown>;
  value?: number | null;
  lat?: number | null;
  lon?: number | null;
}

export interface RaisedAlarm {
  id: number;
  code: number;
  count: number;
  inserted: boolean;
  created: Date;
  lastAt: Date;
}

const THRESHOLD_TTL_MS = 60_000;
const DEVICE_TTL_MS = 60_000;
/** A repeat of an open alarm is shown again on the consoles at most this often. */
const REPUBLISH_MS = 60_000;
/** How often events left pending are looked for (an indexed look at a nearly empty set). */
const REPLAY_EVERY_MS = 5000;
/** Events younger than this are left to the live path of the process that committed them. */
const REPLAY_SETTLE_SECONDS = 5;
const REPLAY_BATCH = 200;

/** What one transaction of the engine wrote, told to the consoles and partners after the commit. */
interface Stored {
  raised: RaisedAlarm;
  input: RaiseInput;
  queued: number;
  /** Alarm contacts' notices queued. */
  notices: number;
  /** Its first escalation step was scheduled. */
  escalates: boolean;
}

type Row = Record<string, unknown>;

/**
 * Clears a device event's pending mark, returning its id if this call cleared it. The row's time
 * (the event's, to the millisecond) names its day: only that day's partition of device_events is
 * planned and touched, not a year of them. The bounds are plain values (`claimParams`), so that the
 * planner prunes; an expression such as `$2 - interval '1 second'` would only be pruned at run time,
 * after every partition had been planned.
 */
export const CLAIM_DEVICE_EVENT_SQL = `UPDATE device_events SET pending = false WHERE id = $1 AND pending AND time BETWEEN $2 AND $3 RETURNING id`;

/** The parameters of CLAIM_DEVICE_EVENT_SQL: the id, and a second either side of the event's time. */
export function claimParams(id: number | string, time: string | Date): [number | string, string, string] {
  const t = new Date(time).getTime();
  return [id, new Date(t - 1000).toISOString(), new Date(t + 1000).toISOString()];
}

export class AlarmEngine {
  private types = new Map<number, { enabled: boolean; nameZh: string; nameEn: string; category: string; pagePush: boolean }>();
  private thresholds = new Map<number, { th: HealthThresholds; source: ThresholdSource; at: number }>();
  private devices = new Map<number, { info: DeviceInfo | null; at: number }>();
  private published = new Map<number, number>();
  /** Overspeed episode per device (only devices that reported a speed while a limit applies). */
  private overspeed = new Map<number, OverspeedState>();
  /** Each device's fixes are judged in order: the tail of its chain. */
  private speedChains = new Map<number, Promise<unknown>>();
  /** Whether any speed limit is set at all (most installations have none: positions cost nothing then). */
  private speedLimits: Promise<boolean> | undefined;
  /** Devices heard since the start whose thresholds watch for no motion: their motion, and the zone of their account. */
  private motion = new Map<number, { s: MotionState; device: DeviceInfo; tz: number }>();
  /** Whether any no-motion watch is set at all. */
  private motionWatched: Promise<boolean> | undefined;
  private unsubscribe: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private replayTimer: NodeJS.Timeout | undefined;
  private replaying: Promise<number> | undefined;
  private pending = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly sources: TransitionSource[] = [
      busTransitionSource(deps.bus, ALARM_TOPICS.deviceFence, 'device'),
      busTransitionSource(deps.bus, ALARM_TOPICS.accountFence, 'account'),
    ],
  ) {
  }

  async start(opts: { offlineCheck?: boolean } = {}): Promise<void> {
    await ensureAlarmTypes(this.deps);
    await this.loadTypes();
    const { bus } = this.deps;
    this.unsubscribe.push(
      bus.subscribe<AlarmEvent>(TOPICS.alarm, (e) => this.track(this.onDeviceAlarm(e))),
      bus.subscribe<HealthEvent>(TOPICS.health, (e) => {
        if (hasCheckedMeasure(e.health)) this.track(this.onHealth(e));
      }),
      bus.subscribe(
        ALARM_TOPICS.typesChanged,
        () => {
          // The types' threshold ranges are the default thresholds.
          this.thresholds.clear();
          this.speedLimits = undefined;
          this.track(this.loadTypes());
        },
        { cluster: true },
      ),
      bus.subscribe(
        ALARM_TOPICS.thresholdsChanged,
        () => {
          this.thresholds.clear();
          this.speedLimits = undefined;
          this.motionWatched = undefined;
        },
        { cluster: true },
      ),
      bus.subscribe<PositionEvent>(TOPICS.position, (e) => {
        if (speedReading(e.speed) !== null) this.track(this.onPosition(e));
        const i = e.indoor;
        this.track(this.onMotion(e, { kind: 'position', time: Date.parse(e.time), lat: e.valid ? e.lat : null, lon: e.valid ? e.lon : null, floorId: i?.floorId ?? null, x: i?.x ?? null, y: i?.y ?? null }));
      }),
      bus.subscribe<HealthEvent>(TOPICS.health, (e) => {
        if (typeof e.health.steps === 'number') this.track(this.onMotion(e, { kind: 'steps', time: Date.parse(e.time), steps: e.health.steps }));
      }),
      // A moved subtree: its devices' owners have new paths, and inherit other thresholds.
      bus.subscribe<AccountsMovedEvent>(
        REALTIME_TOPICS.accountsMoved,
        (e) => {
          for (const [id, hit] of this.devices) {
            if (hit.info?.accountPath.startsWith(e.from)) this.devices.set(id, { ...hit, info: { ...hit.info, accountPath: movedPath(hit.info.accountPath, e) } });
          }
          this.thresholds.clear();
        },
        { cluster: true },
      ),
      ...this.sources.map((s) => s.subscribe((t) => this.track(this.onTransition(s.scope, t)))),
    );
    if (opts.offlineCheck !== false) {
      const every = this.deps.config.ALARM_OFFLINE_CHECK_SECONDS * 1000;
      this.timer = setInterval(() => {
        this.track(this.checkOffline());
        this.track(this.checkNoMotion());
        this.track(this.clearEnded());
      }, every);
      this.timer.unref();
    }
    // What the last run acknowledged but did not raise (a crash, a stop), then whatever a process
    // without the engine commits.
    this.track(this.replay({ settleSeconds: 0 }));
    this.replayTimer = setInterval(() => this.track(this.replay()), REPLAY_EVERY_MS);
    this.replayTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const u of this.unsubscribe.splice(0)) u();
    if (this.timer) clearInterval(this.timer);
    if (this.replayTimer) clearInterval(this.replayTimer);
    await this.idle();
  }

  /** Resolves when every event received so far has been handled (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.allSettled([...this.pending]);
  }

  private track(p: Promise<unknown>): void {
    const q = p.catch((err) => this.deps.log.error({ err }, 'alarm engine: handling an event failed')).finally(() => this.pending.delete(q));
    this.pending.add(q);
  }

  private async loadTypes(): Promise<void> {
    const rows = await this.deps.database.db.select().from(alarmTypes);
    this.types = new Map(
      rows.map((r) => [r.code, { enabled: r.enabled === 1, nameZh: r.nameZh, nameEn: r.nameEn, category: r.category, pagePush: r.pagePush === 1 }]),
    );
  }

  // ---- sources ---------------------------------------------------------------------------------

  /** A device's own alarm, as committed by the pipeline (its device_events row is pending). */
  async onDeviceAlarm(e: AlarmEvent): Promise<RaisedAlarm | null> {
    // Kinds that raise nothing are not left pending by the pipeline: nothing to clear.
    if (codeOfDeviceAlarm(e.alarm) === null) return null;
    return (await this.handleDeviceAlarm(e))[0] ?? null;
  }

  private handleDeviceAlarm(e: AlarmEvent): Promise<RaisedAlarm[]> {
    const code = codeOfDeviceAlarm(e.alarm);
    const device: DeviceInfo = { id: e.deviceId, imei: e.imei, name: e.name, accountId: e.accountId, accountPath: e.accountPath };
    return this.commit(device.id, async (q, cleared) => {
      // Handled once: whoever clears the mark raises the alarm, in this transaction.
      const claimed = await q(CLAIM_DEVICE_EVENT_SQL, claimParams(e.eventId, e.time));
      if (!claimed.length || code === null) return [];
      // A tracker reporting itself back inside its own fence ends its own fence-out alarm.
      if (e.alarm === 'fenceIn') {
        await clearLive(q, `device_id = $1 AND type = $2 AND NOT (message_params ? 'fenceId')`, [device.id, ALARM_CODES.deviceFenceOut], 'backInside', e.time, cleared);
      }
      return [
        {
          code,
          device,
          time: e.time,
          messageKey: messageOfDeviceAlarm(e.alarm),
          params: e.alarm === 'fenceIn' || e.alarm === 'fenceOut' ? { fence: '' } : {},
          lat: e.lat ?? null,
          lon: e.lon ?? null,
        },
      ];
    });
  }

  /**
   * A committed fix with a speed: ALARM_OVERSPEED_FIXES consecutive fixes above the device's speed
   * limit raise one overspeed alarm; the first fix at or under it clears the alarm. A device's
   * fixes are judged one after the other, in the order they were committed.
   */
  onPosition(e: PositionEvent): Promise<RaisedAlarm | null> {
    const prev = this.speedChains.get(e.deviceId) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(() => this.judgeSpeed(e));
    this.speedChains.set(e.deviceId, next);
    void next.finally(() => {
      if (this.speedChains.get(e.deviceId) === next) this.speedChains.delete(e.deviceId);
    }).catch(() => undefined);
    return next;
  }

  private async judgeSpeed(e: PositionEvent): Promise<RaisedAlarm | null> {
    const speed = speedReading(e.speed);
    if (speed === null) return null;
    this.speedLimits ??= this.deps.database
      .query<Row>(
        `SELECT EXISTS (SELECT 1 FROM health_thresholds WHERE speed_limit IS NOT NULL)
             OR EXISTS (SELECT 1 FROM alarm_types WHERE code = $1 AND max_value IS NOT NULL) AS "any"`,
        [ALARM_CODES.overspeed],
      )
      .then((r) => r[0]?.any === true);
    if (!(await this.speedLimits)) return null;
    const device: DeviceInfo = { id: e.deviceId, imei: e.imei, name: e.name, accountId: e.accountId, accountPath: e.accountPath };
    const limit = (await this.thresholdsFor(device)).th.speedLimit;
    if (limit === null || limit === undefined) {
      this.overspeed.delete(device.id);
      return null;
    }
    const r = overspeedStep(this.overspeed.get(device.id) ?? OVERSPEED_START, speed, Number(limit), this.deps.config.ALARM_OVERSPEED_FIXES);
    if (r.state.over === 0 && r.state.raised === false) this.overspeed.delete(device.id);
    else {
      if (this.overspeed.size > 100_000) this.overspeed.clear();
      this.overspeed.set(device.id, r.state);
    }
    if (r.change === 'clear') {
      await this.clear(`device_id = $1 AND type = $2`, [device.id, ALARM_CODES.overspeed], 'underLimit', e.time);
      return null;
    }
    if (r.change !== 'raise') return null;
    return this.raise({
      code: ALARM_CODES.overspeed,
      device,
      time: e.time,
      messageKey: 'alarm.msg.overspeed',
      params: { speed, limit: Number(limit) },
      value: speed,
      lat: e.lat,
      lon: e.lon,
    });
  }

  /**
   * A sample of a device's motion (a step count, a position), for the no-motion watch of its
   * thresholds. Motion clears a standing no-motion alarm.
   */
  async onMotion(e: { deviceId: number; imei: string; name: string; accountId: number; accountPath: string }, m: MotionSample): Promise<void> {
    this.motionWatched ??= this.deps.database
      .query<Row>(`SELECT EXISTS (SELECT 1 FROM health_thresholds WHERE no_motion_minutes IS NOT NULL) AS "any"`, [])
      .then((r) => r[0]?.any === true);
    if (!(await this.motionWatched)) {
      this.motion.clear();
      return;
    }
    const device: DeviceInfo = { id: e.deviceId, imei: e.imei, name: e.name, accountId: e.accountId, accountPath: e.accountPath };
    let hit = this.motion.get(device.id);
    if (!hit) {
      if ((await this.thresholdsFor(device)).th.noMotionMinutes == null) return;
      const [a] = await this.deps.database.query<Row>(`SELECT time_zone_offset AS tz FROM accounts WHERE id = $1`, [device.accountId]);
      hit = { s: motionStart(Date.now()), device, tz: Number(a?.tz ?? 0) };
      if (this.motion.size > 100_000) this.motion.clear();
      this.motion.set(device.id, hit);
    }
    hit.device = device;
    const r = motionStep(hit.s, m);
    hit.s = r.state;
    if (r.moved && hit.s.open) {
      hit.s = { ...hit.s, open: false };
      await this.clear(`device_id = $1 AND type = $2`, [device.id, ALARM_CODES.noMotion], 'moved', new Date(m.time));
    }
  }

  /** Devices watched for no motion that have not moved for their minutes inside a window: one alarm per window occurrence. */
  async checkNoMotion(now = Date.now()): Promise<RaisedAlarm[]> {
    const out: RaisedAlarm[] = [];
    for (const hit of [...this.motion.values()]) {
      if (this.stopped) break;
      const { th } = await this.thresholdsFor(hit.device);
      const minutes = th.noMotionMinutes;
      if (minutes == null) {
        this.motion.delete(hit.device.id);
        continue;
      }
      const sch = th.noMotionSchedule ? { days: th.noMotionSchedule.Days, windows: th.noMotionSchedule.Windows.map((w) => ({ start: w.Start, end: w.End })) } : null;
      const due = noMotionDue(hit.s, now, minutes, sch, hit.tz);
      if (!due) continue;
      hit.s = { ...hit.s, alarmed: due.key, open: true };
      const raised = await this.raise({
        code: ALARM_CODES.noMotion,
        device: hit.device,
        time: new Date(due.since + minutes * 60_000),
        messageKey: 'alarm.msg.noMotion',
        params: { minutes },
        value: minutes,
      });
      if (raised) out.push(raised);
    }
    return out;
  }

  /** A health reading, as committed by the pipeline (its health_readings row is pending). */
  async onHealth(e: HealthEvent): Promise<RaisedAlarm[]> {
    // Most readings (step counts with every heartbeat) have nothing a threshold applies to.
    if (!hasCheckedMeasure(e.health)) return [];
    const device: DeviceInfo = { id: e.deviceId, imei: e.imei, name: e.name, accountId: e.accountId, accountPath: e.accountPath };
    return this.handleReadings(device, e.time, e.receivedAt);
  }

  /**
   * Evaluates the pending readings of a device at one time (one message), once. `time` and
   * `receivedAt` name the rows exactly (ISO text, or PostgreSQL's own text); `at` is the alarm time.
   */
  private async handleReadings(device: DeviceInfo, time: string, receivedAt: string, at = time): Promise<RaisedAlarm[]> {
    const { th } = await this.thresholdsFor(device);
    return this.commit(device.id, async (q, cleared) => {
      const rows = await q<Record<Measure, number | null>>(
        `UPDATE health_readings SET pending = false
          WHERE device_id = $1 AND time = $2::timestamptz AND received_at = $3::timestamptz AND pending
          RETURNING heart_rate AS "heartRate", systolic, diastolic, body_temp AS "bodyTemp", wrist_temp AS "wristTemp", blood_oxygen AS "bloodOxygen"`,
        [device.id, time, receivedAt],
      );
      const inputs: RaiseInput[] = [];
      for (const row of rows) {
        const reading: HealthReading = {};
        for (const [k, v] of Object.entries(row) as [Measure, number | null][]) if (v !== null) reading[k] = Number(v);
        for (const v of evaluateHealth(reading, th)) {
          inputs.push({
            code: v.code,
            device,
            time: at,
            messageKey: `alarm.msg.${v.direction}`,
            params: { measure: v.measure, value: v.value, limit: v.limit },
            value: v.value,
          });
        }
      }
      if (rows.length) await this.clearHealth(q, device, th, new Set(inputs.map((i) => i.code)), at, cleared);
      return inputs;
    });
  }

  /**
   * Clears the device's health alarms whose measure is back in range for ALARM_HEALTH_CLEAR_READINGS
   * consecutive readings since the alarm was last raised (those being raised now are left alone).
   */
  private async clearHealth(q: QueryFn, device: DeviceInfo, th: HealthThresholds, raising: Set<number>, at: string, cleared: ClearedAlarm[]): Promise<void> {
    const live = await q<Row>(
      `SELECT id, type, last_at AS "lastAt" FROM alarms WHERE device_id = $1 AND type = ANY($2::int[]) AND cleared_at IS NULL AND resolved_at IS NULL`,
      [device.id, [...MEASURES_OF_HEALTH_CODE.keys()]],
    );
    const n = this.deps.config.ALARM_HEALTH_CLEAR_READINGS;
    for (const a of live) {
      const code = Number(a.type);
      if (raising.has(code)) continue;
      const measures = MEASURES_OF_HEALTH_CODE.get(code)!;
      const readings = await q<Record<Measure, number | null>>(
        `SELECT heart_rate AS "heartRate", systolic, diastolic, body_temp AS "bodyTemp", wrist_temp AS "wristTemp", blood_oxygen AS "bloodOxygen"
           FROM health_readings WHERE device_id = $1 AND time > $2 AND (${measures.map((m) => `${MEASURE_COLUMNS[m]} IS NOT NULL`).join(' OR ')})
          ORDER BY time DESC LIMIT $3`,
        [device.id, a.lastAt, n],
      );
      const asReadings = readings.map((r) => {
        const reading: HealthReading = {};
        for (const [k, v] of Object.entries(r) as [Measure, number | null][]) if (v !== null) reading[k] = Number(v);
        return reading;
      });
      if (healthBackInRange(code, asReadings, th, n)) await clearLive(q, `id = $1`, [a.id], 'backInRange', at, cleared);
    }
  }

  /**
   * The platform sees conditions end that no event reports: an offline device that communicated
   * again after its alarm, a low battery reported above ALARM_BATTERY_CLEAR_PERCENT after its alarm.
   * Runs with the offline check. Returns the ids cleared.
   */
  async clearEnded(now = new Date()): Promise<number[]> {
    const cleared: ClearedAlarm[] = [];
    const ids = await this.deps.database.transaction(async (q) => {
      cleared.length = 0;
      const online = await clearLive(
        q,
        `type = $1 AND EXISTS (SELECT 1 FROM device_state s WHERE s.device_id = alarms.device_id AND s.last_seen > alarms.last_at)`,
        [ALARM_CODES.offline],
        'backOnline',
        now,
        cleared,
      );
      const charged = await clearLive(
        q,
        `type = $1 AND EXISTS (SELECT 1 FROM device_state s WHERE s.device_id = alarms.device_id AND s.last_seen > alarms.last_at AND s.battery > $2)`,
        [ALARM_CODES.lowBattery, this.deps.config.ALARM_BATTERY_CLEAR_PERCENT],
        'charged',
        now,
        cleared,
      );
      return [...online, ...charged];
    });
    this.publishCleared(cleared);
    return ids;
  }

  /** Clears the live alarms matching `where` (see clearLive) in a transaction of its own, telling the consoles. */
  async clear(where: string, params: unknown[], reason: string, at: Date | string): Promise<number[]> {
    const cleared: ClearedAlarm[] = [];
    const ids = await this.deps.database.transaction(async (q) => {
      cleared.length = 0;
      return clearLive(q, where, params, reason, at, cleared);
    });
    this.publishCleared(cleared);
    return ids;
  }

  /** Tells the consoles which alarms the platform cleared, per device, once their transaction committed. */
  private publishCleared(cleared: readonly ClearedAlarm[]): void {
    const byDevice = new Map<number, AlarmClearedEvent>();
    for (const c of cleared) {
      if (c.accountPath === null) continue;
      const e = byDevice.get(c.deviceId) ?? { deviceId: c.deviceId, accountPath: c.accountPath, alarms: [] };
      e.alarms.push({ id: c.id, type: c.type });
      byDevice.set(c.deviceId, e);
    }
    for (const e of byDevice.values()) this.deps.bus.publish(REALTIME_TOPICS.alarmCleared, e);
  }

  /**
   * Raises what was committed and never handled: at start (what a crash or a stop left), and every
   * few seconds (events committed by a process that runs no engine, or whose handling failed).
   * Returns how many events and readings it looked at.
   */
  replay(opts: { settleSeconds?: number } = {}): Promise<number> {
    this.replaying ??= this.replayPass(opts.settleSeconds ?? REPLAY_SETTLE_SECONDS).finally(() => (this.replaying = undefined));
    return this.replaying;
  }

  private async replayPass(settleSeconds: number): Promise<number> {
    const q = (text: string, params: unknown[]) => this.deps.database.query<Row>(text, params);
    let seen = 0;
    // A row that stays pending after its turn (its handling failed) is left to the next pass.
    const tried = new Set<string>();
    const fresh = (key: string) => !tried.has(key) && !!tried.add(key);
    for (let more = true; more && !this.stopped; ) {
      const rows = await q(
        `SELECT e.id, e.kind, e.time, e.received_at AS "receivedAt", e.payload, d.id AS "deviceId", d.imei, d.name,
                d.account_id AS "accountId", a.path AS "accountPath", d.protocol
           FROM device_events e LEFT JOIN devices d ON d.id = e.device_id LEFT JOIN accounts a ON a.id = d.account_id
          WHERE e.pending AND e.received_at < now() - make_interval(secs => $1) ORDER BY e.id LIMIT $2`,
        [settleSeconds, REPLAY_BATCH],
      );
      more = rows.length === REPLAY_BATCH;
      for (const r of rows) {
        if (this.stopped) break;
        if (!fresh(`e${r.id}`)) {
          more = false;
          continue;
        }
        // Written for a device deleted meanwhile: nothing to raise.
        if (r.deviceId === null) {
          await q(CLAIM_DEVICE_EVENT_SQL, claimParams(r.id as number, r.time as string));
          continue;
        }
        const payload = (r.payload ?? {}) as { lat?: number; lon?: number; valid?: boolean };
        const e: AlarmEvent = {
          ...refOf(r),
          protocol: String(r.protocol),
          time: new Date(r.time as string).toISOString(),
          receivedAt: new Date(r.receivedAt as string).toISOString(),
          alarm: r.kind as AlarmKind,
          eventId: Number(r.id),
          ...(typeof payload.lat === 'number' && typeof payload.lon === 'number' ? { lat: payload.lat, lon: payload.lon, valid: payload.valid === true } : {}),
        };
        await this.handleDeviceAlarm(e);
        seen++;
      }
    }
    for (let more = true; more && !this.stopped; ) {
      const rows = await q(
        `SELECT h.device_id AS "readingDevice", h.time, h.received_at AS "receivedAt", h.time::text AS "timeText",
                h.received_at::text AS "receivedText", d.id AS "deviceId", d.imei, d.name,
                d.account_id AS "accountId", a.path AS "accountPath"
           FROM (SELECT DISTINCT device_id, time, received_at FROM health_readings
                  WHERE pending AND received_at < now() - make_interval(secs => $1) LIMIT $2) h
           LEFT JOIN devices d ON d.id = h.device_id LEFT JOIN accounts a ON a.id = d.account_id
          ORDER BY h.received_at`,
        [settleSeconds, REPLAY_BATCH],
      );
      more = rows.length === REPLAY_BATCH;
      for (const r of rows) {
        if (this.stopped) break;
        if (!fresh(`h${r.readingDevice}|${r.timeText}|${r.receivedText}`)) {
          more = false;
          continue;
        }
        if (r.deviceId === null) {
          await q(`UPDATE health_readings SET pending = false WHERE device_id = $1 AND pending`, [r.readingDevice]);
          continue;
        }
        // The rows are named by the database's own text of their times: exact to the microsecond.
        await this.handleReadings(refInfo(r), String(r.timeText), String(r.receivedText), new Date(r.time as string).toISOString());
        seen++;
      }
    }
    if (seen) this.deps.log.info({ handled: seen }, 'alarm engine: raised what was committed but not yet handled');
    return seen;
  }

  async onTransition(scope: 'device' | 'account', t: FenceTransition): Promise<RaisedAlarm | null> {
    const device = await this.device(t.deviceId);
    if (!device) return null;
    const C = ALARM_CODES;
    const code = scope === 'device' ? (t.kind === 'enter' ? C.deviceFenceIn : C.deviceFenceOut) : t.kind === 'enter' ? C.accountFenceIn : C.accountFenceOut;
    const input: RaiseInput = {
      code,
      device,
      time: t.time,
      messageKey: t.kind === 'enter' ? 'alarm.msg.fenceIn' : 'alarm.msg.fenceOut',
      params: { fence: t.fenceName ?? `#${t.fenceId}`, fenceId: t.fenceId },
      lat: t.lat,
      lon: t.lon,
    };
    const raised = await this.commit(device.id, async (q, cleared) => {
      // Back inside: the fence-out alarm of this fence has ended.
      if (t.kind === 'enter') {
        const out = scope === 'device' ? C.deviceFenceOut : C.accountFenceOut;
        await clearLive(q, `device_id = $1 AND type = $2 AND message_params->>'fenceId' = $3`, [device.id, out, String(t.fenceId)], 'backInside', t.time, cleared);
      }
      return [input];
    });
    return raised[0] ?? null;
  }

  /**
   * Devices silent for longer than OFFLINE_TIMEOUT_SECONDS get one offline alarm per silence: none
   * is raised again until the device has communicated after the last one.
   */
  async checkOffline(now = new Date()): Promise<RaisedAlarm[]> {
    const timeout = this.deps.config.OFFLINE_TIMEOUT_SECONDS;
    const rows = await this.deps.database.query<Row>(
      `SELECT d.id, d.imei, d.name, d.account_id AS "accountId", a.path AS "accountPath", s.last_seen AS "lastSeen"
         FROM device_state s JOIN devices d ON d.id = s.device_id JOIN accounts a ON a.id = d.account_id
        WHERE s.last_seen IS NOT NULL AND s.last_seen < $1
          AND NOT EXISTS (SELECT 1 FROM alarms al WHERE al.device_id = d.id AND al.type = $2 AND al.last_at >= s.last_seen)
        LIMIT 5000`,
      [new Date(now.getTime() - timeout * 1000), ALARM_CODES.offline],
    );
    const out: RaisedAlarm[] = [];
    for (const r of rows) {
      if (this.stopped) break;
      const raised = await this.raise({
        code: ALARM_CODES.offline,
        device: { id: Number(r.id), imei: String(r.imei), name: String(r.name), accountId: Number(r.accountId), accountPath: String(r.accountPath) },
        time: now,
        messageKey: 'alarm.msg.offline',
        params: { minutes: Math.round(timeout / 60) },
      });
      if (raised) out.push(raised);
    }
    return out;
  }

  // ---- raising ---------------------------------------------------------------------------------

  /** Raises one alarm that no stored event stands for (fence crossings, offline, tests). */
  async raise(input: RaiseInput): Promise<RaisedAlarm | null> {
    return (await this.commit(input.device.id, async () => [input]))[0] ?? null;
  }

  /**
   * One transaction: the device is locked against a concurrent deletion (which takes its alarms
   * along), `work` claims what it handles and names the alarms, and each alarm is stored with its
   * partner pushes. Consoles, partners and contacts are told after the commit.
   */
  private async commit(deviceId: number, work: (q: QueryFn, cleared: ClearedAlarm[]) => Promise<RaiseInput[]>): Promise<RaisedAlarm[]> {
    // What the work clears, told to the consoles once committed (a retried transaction starts it afresh).
    const cleared: ClearedAlarm[] = [];
    const stored = await this.deps.database.transaction(async (q) => {
      cleared.length = 0;
      // The device first, then the event: the same order as a deletion, so the two never deadlock.
      const present = await q(`SELECT id FROM devices WHERE id = $1 FOR KEY SHARE`, [deviceId]);
      if (!present.length) return [];
      const out: Stored[] = [];
      for (const input of await work(q, cleared)) {
        const s = await this.store(q, input);
        if (s) out.push(s);
      }
      return out;
    });
    this.publishCleared(cleared);
    for (const s of stored) {
      try {
        await this.fanOut(s.raised, s.input, this.types.get(s.input.code)?.pagePush ?? true, s.queued, s.notices, s.escalates);
      } catch (err) {
        this.deps.log.error({ err, alarmId: s.raised.id }, 'alarm engine: telling of a stored alarm failed');
      }
    }
    return stored.map((s) => s.raised);
  }

  private async store(q: QueryFn, input: RaiseInput): Promise<Stored | null> {
    const type = this.types.get(input.code);
    // A type marked invalid raises nothing (SPEC §4 "closing makes the alarm invalid"), except the
    // types a person in danger raises, which no setting closes (a row closed before that rule).
    if (type && !type.enabled && !ALWAYS_ON_ALARM_CODES.includes(input.code)) return null;
    if (!type && !alarmTypeByCode(input.code)) return null;
    const now = new Date();
    let time = input.time ? new Date(input.time) : now;
    // A device clock ahead of ours must not put alarms in the future.
    if (Number.isNaN(time.getTime()) || time > now) time = now;
    // An open alarm silent for longer than the window takes no more repeats: this one opens a new alarm.
    const windowMs = this.deps.config.ALARM_REPEAT_WINDOW_SECONDS * 1000;
    await q(`UPDATE alarms SET takes_repeats = false WHERE device_id = $1 AND type = $2 AND takes_repeats AND last_at < $3`, [
      input.device.id,
      input.code,
      new Date(time.getTime() - windowMs),
    ]);
    const [row] = await q<Row>(
      `INSERT INTO alarms (type, device_id, account_id, message_key, message_params, value, lat, lon, created_at, last_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $9)
       ON CONFLICT (device_id, type) WHERE takes_repeats AND status = 0 DO UPDATE SET
         count = alarms.count + 1,
         last_at = GREATEST(alarms.last_at, EXCLUDED.last_at),
         account_id = EXCLUDED.account_id,
         message_key = EXCLUDED.message_key,
         message_params = EXCLUDED.message_params,
         value = COALESCE(EXCLUDED.value, alarms.value),
         lat = COALESCE(EXCLUDED.lat, alarms.lat),
         lon = COALESCE(EXCLUDED.lon, alarms.lon)
       RETURNING id, count, created_at AS "created", last_at AS "lastAt", (xmax = 0) AS "inserted"`,
      [
        input.code,
        input.device.id,
        input.device.accountId,
        input.messageKey,
        JSON.stringify(input.params ?? {}),
        input.value ?? null,
        input.lat ?? null,
        input.lon ?? null,
        time,
      ],
    );
    const raised: RaisedAlarm = {
      id: Number(row!.id),
      code: input.code,
      count: Number(row!.count),
      inserted: row!.inserted === true,
      created: new Date(row!.created as string),
      lastAt: new Date(row!.lastAt as string),
    };
    await q(`INSERT INTO alarm_events (alarm_id, at, kind, params) VALUES ($1, $2, $3, $4::jsonb)`, [
      raised.id,
      time,
      raised.inserted ? 'raised' : 'repeated',
      JSON.stringify(raised.inserted ? {} : { count: raised.count }),
    ]);
    // Partners and alarm contacts hear of an alarm once, when it opens; repeats only update the record.
    let queued = 0;
    let notices = 0;
    let escalates = false;
    if (raised.inserted) {
      const category = type?.category ?? alarmTypeByCode(raised.code)?.category ?? 'device';
      queued = await enqueuePush(
        this.deps,
        {
          alarmId: raised.id,
          code: raised.code,
          category,
          device: input.device,
          message: renderAlarmMessage(DEFAULT_LOCALE, input.messageKey, input.params),
          messageKey: input.messageKey,
          params: input.params,
          created: raised.created,
          value: input.value ?? null,
          lat: input.lat ?? null,
          lon: input.lon ?? null,
        },
        q,
      );
      notices = await this.queueContactNotices(q, raised, input);
      escalates = await scheduleEscalation(q, { id: raised.id, code: raised.code, accountPath: input.device.accountPath, created: raised.created });
    }
    return { raised, input, queued, notices, escalates };
  }

  private async fanOut(alarm: RaisedAlarm, input: RaiseInput, pagePush: boolean, queued = 0, notices = 0, escalates = false): Promise<void> {
    const nowMs = Date.now();
    const last = this.published.get(alarm.id);
    const fresh = alarm.inserted;
    // Each SOS and fall pops up, repeats too (on the same record): a person may be in danger.
    const always = ALWAYS_ON_ALARM_CODES.includes(alarm.code);
    if (pagePush && (fresh || always || last === undefined || nowMs - last >= REPUBLISH_MS)) {
      this.published.set(alarm.id, nowMs);
      if (this.published.size > 50_000) this.published.clear();
      const message = renderAlarmMessage(DEFAULT_LOCALE, input.messageKey, input.params);
      const event: AlarmRaisedEvent & { Imei: string; AccountPath: string; AlarmId: number; DeviceId: number; Count: number } = {
        NotificationType: alarm.code,
        DeviceID: input.device.imei,
        Nickname: input.device.name,
        Message: message,
        MessageKey: input.messageKey,
        MessageParams: input.params ?? {},
        // An instant: each console shows it in its account's zone.
        Created: alarm.lastAt.toISOString(),
        deviceId: input.device.id,
        accountPath: input.device.accountPath,
        Imei: input.device.imei,
        AccountPath: input.device.accountPath,
        AlarmId: alarm.id,
        DeviceId: input.device.id,
        Count: alarm.count,
      };
      this.deps.bus.publish(REALTIME_TOPICS.alarmRaised, event);
    }
    // The partner pushes and the contacts' notices were queued in the alarm's transaction: wake their workers.
    if (!fresh) return;
    if (queued > 0) this.deps.bus.publish(PUSH_TOPICS.enqueued, { count: queued });
    if (notices > 0) this.deps.bus.publish(NOTICE_TOPICS.enqueued, { count: notices });
    if (escalates) this.deps.bus.publish(ESCALATION_TOPICS.enqueued, {});
  }

  /** The alarm contacts' SMS and e-mails, in the alarm's transaction, each in its account's language. */
  private queueContactNotices(q: QueryFn, alarm: RaisedAlarm, input: RaiseInput): Promise<number> {
    const type = this.types.get(alarm.code);
    const device = input.device.name || input.device.imei;
    return enqueueAlarmNotices(q, this.deps.log, {
      alarmId: alarm.id,
      code: alarm.code,
      imei: input.device.imei,
      accountPath: input.device.accountPath,
      render: (locale, offset) => {
        const typeName = alarmTypeName(locale, alarm.code, type);
        return {
          subject: translate(locale, 'alarm.notifySubject', { platform: this.deps.config.PLATFORM_TITLE, type: typeName, device }),
          text: translate(locale, 'alarm.notifyText', {
            time: formatInZone(alarm.lastAt, offset),
            device,
            imei: input.device.imei,
            type: typeName,
            message: renderAlarmMessage(locale, input.messageKey, input.params),
          }),
        };
      },
    }, { sends: smsSends(this.deps.config) });
  }

  // ---- lookups ---------------------------------------------------------------------------------

  async thresholdsFor(device: Pick<DeviceInfo, 'id' | 'accountPath'>): Promise<{ th: HealthThresholds; source: ThresholdSource }> {
    const hit = this.thresholds.get(device.id);
    if (hit && Date.now() - hit.at < THRESHOLD_TTL_MS) return hit;
    const resolved = await loadThresholds(this.deps, device.id, device.accountPath);
    const entry = { th: resolved.thresholds, source: resolved.source, at: Date.now() };
    if (this.thresholds.size > 100_000) this.thresholds.clear();
    this.thresholds.set(device.id, entry);
    return entry;
  }

  private async device(id: number): Promise<DeviceInfo | null> {
    const hit = this.devices.get(id);
    if (hit && Date.now() - hit.at < DEVICE_TTL_MS) return hit.info;
    const [r] = await this.deps.database.query<Row>(
      `SELECT d.id, d.imei, d.name, d.account_id AS "accountId", a.path AS "accountPath"
         FROM devices d JOIN accounts a ON a.id = d.account_id WHERE d.id = $1`,
      [id],
    );
    const info = r ? { id: Number(r.id), imei: String(r.imei), name: String(r.name), accountId: Number(r.accountId), accountPath: String(r.accountPath) } : null;
    if (this.devices.size > 100_000) this.devices.clear();
    this.devices.set(id, { info, at: Date.now() });
    return info;
  }
}

const MEASURE_COLUMNS: Record<Measure, string> = {
  heartRate: 'heart_rate',
  systolic: 'systolic',
  diastolic: 'diastolic',
  bodyTemp: 'body_temp',
  wristTemp: 'wrist_temp',
  bloodOxygen: 'blood_oxygen',
};

/** An alarm the platform cleared, with what the consoles need to be told of it. */
export interface ClearedAlarm {
  id: number;
  type: number;
  deviceId: number;
  accountPath: string | null;
}

/**
 * Clears the alarms matching `where` (on the alarms table, with `params`) that are neither cleared
 * nor resolved: the condition ended at `at`, for `reason`; each gets a "cleared" event. Acknowledged
 * or not, they take no more repeats. Returns the ids cleared.
 */
export async function clearLive(q: QueryFn, where: string, params: unknown[], reason: string, at: Date | string, out?: ClearedAlarm[]): Promise<number[]> {
  const n = params.length;
  const rows = await q<{ id: number; type: number; deviceId: number; accountPath: string | null }>(
    `WITH c AS (
       UPDATE alarms SET cleared_at = $${n + 1}, takes_repeats = false WHERE cleared_at IS NULL AND resolved_at IS NULL AND (${where})
       RETURNING id, type, device_id)
     SELECT c.id, c.type, c.device_id AS "deviceId", a.path AS "accountPath"
       FROM c LEFT JOIN devices d ON d.id = c.device_id LEFT JOIN accounts a ON a.id = d.account_id`,
    [...params, new Date(at)],
  );
  const ids = rows.map((r) => Number(r.id));
  out?.push(...rows.map((r) => ({ id: Number(r.id), type: Number(r.type), deviceId: Number(r.deviceId), accountPath: r.accountPath })));
  if (ids.length) {
    await q(`INSERT INTO alarm_events (alarm_id, at, kind, params) SELECT unnest($1::bigint[]), $2, 'cleared', $3::jsonb`, [ids, new Date(at), JSON.stringify({ reason })]);
  }
  return ids;
}

function refInfo(r: Row): DeviceInfo {
  return { id: Number(r.deviceId), imei: String(r.imei), name: String(r.name), accountId: Number(r.accountId), accountPath: String(r.accountPath) };
}

function refOf(r: Row) {
  const d = refInfo(r);
  return { deviceId: d.id, imei: d.imei, name: d.name, accountId: d.accountId, accountPath: d.accountPath };
}

const THRESHOLD_COLUMNS = `heart_rate_min AS "heartRateMin", heart_rate_max AS "heartRateMax", systolic_min AS "systolicMin",
  systolic_max AS "systolicMax", diastolic_min AS "diastolicMin", diastolic_max AS "diastolicMax",
  body_temp_max AS "bodyTempMax", wrist_temp_max AS "wristTempMax", blood_oxygen_min AS "bloodOxygenMin",
  speed_limit AS "speedLimit", no_motion_minutes AS "noMotionMinutes", no_motion_schedule AS "noMotionSchedule"`;

/** Thresholds of a device (or of an account when deviceId is null), resolved up the tree. */
export async function loadThresholds(deps: AppDeps, deviceId: number | null, accountPath: string) {
  const ids = pathIdsUpward(accountPath);
  const rows = await deps.database.query<Row>(
    `SELECT device_id AS "deviceId", account_id AS "accountId", ${THRESHOLD_COLUMNS} FROM health_thresholds
      WHERE ($1::int IS NOT NULL AND device_id = $1) OR (device_id IS NULL AND account_id = ANY($2::int[]))`,
    [deviceId, ids],
  );
  const asTh = (r: Row | undefined) => (r ? (r as unknown as HealthThresholds) : null);
  const deviceRow = deviceId === null ? null : asTh(rows.find((r) => r.deviceId !== null && Number(r.deviceId) === deviceId));
  const accountRows = ids.map((id) => asTh(rows.find((r) => r.deviceId === null && Number(r.accountId) === id)));
  if (deviceRow || accountRows.some(Boolean)) return resolveThresholds(deviceRow, accountRows);
  // No thresholds of its own or from above: the alarm types' threshold ranges.
  const types = await deps.database.query<Row>(
    `SELECT code, min_value AS "minValue", max_value AS "maxValue" FROM alarm_types WHERE code = ANY($1::int[])`,
    [THRESHOLD_TYPE_CODES],
  );
  return resolveThresholds(null, [], thresholdsOfTypes(types as unknown as TypeRange[]));
}

/** Seeds the built-in alarm types; existing rows (possibly edited by an administrator) are kept. */
export async function ensureAlarmTypes(deps: AppDeps): Promise<void> {
  await deps.database.db
    .insert(alarmTypes)
    .values(
      ALARM_TYPES.map((a) => ({
        code: a.code,
        nameZh: a.zh,
        nameEn: a.en,
        descriptionZh: a.zhDescription,
        descriptionEn: a.enDescription,
        category: a.category,
        level: a.level,
        minValue: a.min,
        maxValue: a.max,
        ringType: a.ring,
        pagePush: a.pagePush ? 1 : 2,
        enabled: 1,
      })),
    )
    .onConflictDoNothing({ target: alarmTypes.code });
}

