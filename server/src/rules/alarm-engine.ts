// The alarm engine: turns committed device events into alarms. Sources are the pipeline's device
// alarms and health readings, fence crossings (device fences, and account fences through any
// TransitionSource), and a periodic offline check. Every alarm is stored (one open alarm per
// device and type, repeats counted), published for the consoles, queued for partner companies and
// told to the alarm contacts.
import { ALARM_CODES, ALARM_TYPES, DEFAULT_LOCALE, alarmTypeByCode, formatDateTime, translate, type HealthThresholds } from '@wt/contract';
import type { AppDeps } from '../deps.js';
import { alarmTypes } from '../db/schema/index.js';
import { TOPICS, type AlarmEvent, type HealthEvent } from '../pipeline/events.js';
import { REALTIME_TOPICS, type AlarmRaisedEvent } from '../realtime/topics.js';
import { alarmTypeName, renderAlarmMessage } from '../modules/alarm/format.js';
import { codeOfDeviceAlarm, evaluateHealth, hasCheckedMeasure, messageOfDeviceAlarm, pathIdsUpward, resolveThresholds, type ThresholdSource } from './alarm-rules.js';
import { ContactNotifier, smsProviderFor } from './alarm-notify.js';
import { PUSH_TOPICS, enqueuePush } from '../modules/push/outbox.js';

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

type Row = Record<string, unknown>;

export class AlarmEngine {
  private types = new Map<number, { enabled: boolean; nameZh: string; nameEn: string; category: string; pagePush: boolean }>();
  private thresholds = new Map<number, { th: HealthThresholds; source: ThresholdSource; at: number }>();
  private devices = new Map<number, { info: DeviceInfo | null; at: number }>();
  private published = new Map<number, number>();
  private unsubscribe: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private pending = new Set<Promise<unknown>>();
  private readonly notifier: ContactNotifier;
  private stopped = false;

  constructor(
    private readonly deps: AppDeps,
    private readonly sources: TransitionSource[] = [
      busTransitionSource(deps.bus, ALARM_TOPICS.deviceFence, 'device'),
      busTransitionSource(deps.bus, ALARM_TOPICS.accountFence, 'account'),
    ],
  ) {
    this.notifier = new ContactNotifier(deps.mailer, smsProviderFor(deps.config, deps.log), deps.log);
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
      bus.subscribe(ALARM_TOPICS.typesChanged, () => this.track(this.loadTypes()), { cluster: true }),
      bus.subscribe(ALARM_TOPICS.thresholdsChanged, () => this.thresholds.clear(), { cluster: true }),
      ...this.sources.map((s) => s.subscribe((t) => this.track(this.onTransition(s.scope, t)))),
    );
    if (opts.offlineCheck !== false) {
      const every = this.deps.config.ALARM_OFFLINE_CHECK_SECONDS * 1000;
      this.timer = setInterval(() => this.track(this.checkOffline()), every);
      this.timer.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const u of this.unsubscribe.splice(0)) u();
    if (this.timer) clearInterval(this.timer);
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

  async onDeviceAlarm(e: AlarmEvent): Promise<RaisedAlarm | null> {
    const code = codeOfDeviceAlarm(e.alarm);
    if (code === null) return null;
    return this.raise({
      code,
      device: { id: e.deviceId, imei: e.imei, name: e.name, accountId: e.accountId, accountPath: e.accountPath },
      time: e.time,
      messageKey: messageOfDeviceAlarm(e.alarm),
      params: e.alarm === 'fenceIn' || e.alarm === 'fenceOut' ? { fence: '' } : {},
      lat: e.lat ?? null,
      lon: e.lon ?? null,
    });
  }

  async onHealth(e: HealthEvent): Promise<RaisedAlarm[]> {
    // Most readings (step counts with every heartbeat) have nothing a threshold applies to.
    if (!hasCheckedMeasure(e.health)) return [];
    const device: DeviceInfo = { id: e.deviceId, imei: e.imei, name: e.name, accountId: e.accountId, accountPath: e.accountPath };
    const { th } = await this.thresholdsFor(device);
    const out: RaisedAlarm[] = [];
    for (const v of evaluateHealth(e.health, th)) {
      const r = await this.raise({
        code: v.code,
        device,
        time: e.time,
        messageKey: `alarm.msg.${v.direction}`,
        params: { measure: v.measure, value: v.value, limit: v.limit },
        value: v.value,
      });
      if (r) out.push(r);
    }
    return out;
  }

  async onTransition(scope: 'device' | 'account', t: FenceTransition): Promise<RaisedAlarm | null> {
    const device = await this.device(t.deviceId);
    if (!device) return null;
    const C = ALARM_CODES;
    const code = scope === 'device' ? (t.kind === 'enter' ? C.deviceFenceIn : C.deviceFenceOut) : t.kind === 'enter' ? C.accountFenceIn : C.accountFenceOut;
    return this.raise({
      code,
      device,
      time: t.time,
      messageKey: t.kind === 'enter' ? 'alarm.msg.fenceIn' : 'alarm.msg.fenceOut',
      params: { fence: t.fenceName ?? `#${t.fenceId}`, fenceId: t.fenceId },
      lat: t.lat,
      lon: t.lon,
    });
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

  async raise(input: RaiseInput): Promise<RaisedAlarm | null> {
    const type = this.types.get(input.code);
    // A type marked invalid raises nothing (SPEC §4 "closing makes the alarm invalid").
    if (type && !type.enabled) return null;
    if (!type && !alarmTypeByCode(input.code)) return null;
    const now = new Date();
    let time = input.time ? new Date(input.time) : now;
    // A device clock ahead of ours must not put alarms in the future.
    if (Number.isNaN(time.getTime()) || time > now) time = now;
    const [row] = await this.deps.database.query<Row>(
      `INSERT INTO alarms (type, device_id, account_id, message_key, message_params, value, lat, lon, created_at, last_at)
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $9)
       ON CONFLICT (device_id, type) WHERE status = 0 DO UPDATE SET
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
    await this.fanOut(raised, input, type?.pagePush ?? true);
    return raised;
  }

  private async fanOut(alarm: RaisedAlarm, input: RaiseInput, pagePush: boolean): Promise<void> {
    const nowMs = Date.now();
    const last = this.published.get(alarm.id);
    const fresh = alarm.inserted;
    if (pagePush && (fresh || last === undefined || nowMs - last >= REPUBLISH_MS)) {
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
        Created: formatDateTime(alarm.lastAt),
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
    // Partners and contacts hear of an alarm once, when it opens; repeats only update the record.
    if (!fresh) return;
    const category = this.types.get(alarm.code)?.category ?? alarmTypeByCode(alarm.code)?.category ?? 'device';
    const queued = await enqueuePush(this.deps, {
      alarmId: alarm.id,
      code: alarm.code,
      category,
      device: input.device,
      message: renderAlarmMessage(DEFAULT_LOCALE, input.messageKey, input.params),
      messageKey: input.messageKey,
      params: input.params,
      created: alarm.created,
      value: input.value ?? null,
      lat: input.lat ?? null,
      lon: input.lon ?? null,
    });
    if (queued > 0) this.deps.bus.publish(PUSH_TOPICS.enqueued, { count: queued });
    await this.notifyContacts(alarm, input);
  }

  private async notifyContacts(alarm: RaisedAlarm, input: RaiseInput): Promise<void> {
    const ids = pathIdsUpward(input.device.accountPath);
    if (!ids.length) return;
    const contacts = await this.deps.database.query<Row>(
      `SELECT c.phone, c.email, c.notify_sms AS "sms", c.notify_email AS "mail", c.types, a.language
         FROM alarm_contacts c JOIN accounts a ON a.id = c.account_id
        WHERE c.account_id = ANY($1::int[])`,
      [ids],
    );
    const type = this.types.get(alarm.code);
    const notices = contacts
      .filter((c) => {
        const types = (c.types as number[] | null) ?? [];
        return types.length === 0 || types.includes(alarm.code);
      })
      .map((c) => {
        const locale = c.language === 'en' ? 'en' : c.language === 'zh-TW' ? 'zh-TW' : 'zh-CN';
        const typeName = alarmTypeName(locale, alarm.code, type);
        const device = input.device.name || input.device.imei;
        return {
          phone: String(c.phone ?? ''),
          email: String(c.email ?? ''),
          sms: Number(c.sms) === 1,
          mail: Number(c.mail) === 1,
          subject: translate(locale, 'alarm.notifySubject', { platform: this.deps.config.PLATFORM_TITLE, type: typeName, device }),
          text: translate(locale, 'alarm.notifyText', {
            time: formatDateTime(alarm.lastAt),
            device,
            imei: input.device.imei,
            type: typeName,
            message: renderAlarmMessage(locale, input.messageKey, input.params),
          }),
        };
      });
    if (notices.length) await this.notifier.notify(notices);
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

const THRESHOLD_COLUMNS = `heart_rate_min AS "heartRateMin", heart_rate_max AS "heartRateMax", systolic_min AS "systolicMin",
  systolic_max AS "systolicMax", diastolic_min AS "diastolicMin", diastolic_max AS "diastolicMax",
  body_temp_max AS "bodyTempMax", wrist_temp_max AS "wristTempMax", blood_oxygen_min AS "bloodOxygenMin"`;

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
  return resolveThresholds(deviceRow, accountRows);
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

