// Devices and events for the alarm tests: devices are inserted directly under chosen demo
// accounts, and events are published on the bus exactly as the pipeline does after a commit.
import { eq } from 'drizzle-orm';
import type { HealthReading, AlarmKind } from '@wt/protocols';
import { accounts, devices } from '../src/db/schema/index.js';
import type { Platform } from '../src/platform.js';
import { TOPICS, type AlarmEvent, type HealthEvent } from '../src/pipeline/events.js';
import { alarmEngines } from '../src/rules/services.js';

export interface TestDevice {
  id: number;
  imei: string;
  name: string;
  accountId: number;
  accountPath: string;
}

export async function addDevice(p: Platform, loginName: string, imei: string, name = `W-${imei.slice(-4)}`): Promise<TestDevice> {
  const { db } = p.deps.database;
  const [a] = await db.select().from(accounts).where(eq(accounts.loginName, loginName));
  const [d] = await db
    .insert(devices)
    .values({ imei, shortId: imei.slice(-10), name, accountId: a!.id, modelName: 'W1' })
    .onConflictDoUpdate({ target: devices.imei, set: { name, accountId: a!.id } })
    .returning();
  return { id: d!.id, imei, name, accountId: a!.id, accountPath: a!.path };
}

function base(d: TestDevice, time = new Date()) {
  return { deviceId: d.id, imei: d.imei, name: d.name, accountId: d.accountId, accountPath: d.accountPath, protocol: 'watch', time: time.toISOString(), receivedAt: new Date().toISOString() };
}

export function engineOf(p: Platform) {
  const e = alarmEngines.get(p.deps);
  if (!e) throw new Error('alarm engine not running');
  return e;
}

// The committed rows come first, left pending for the engine as the batch writer leaves them.
export async function deviceAlarm(p: Platform, d: TestDevice, alarm: AlarmKind, time?: Date) {
  const e = base(d, time);
  const [row] = await p.deps.database.query<{ id: number }>(
    `INSERT INTO device_events (device_id, time, received_at, kind, payload, pending) VALUES ($1, $2, $3, $4, '{}', true) RETURNING id`,
    [d.id, e.time, e.receivedAt, alarm],
  );
  p.deps.bus.publish(TOPICS.alarm, { ...e, alarm, lat: 22.54, lon: 113.95, valid: true, eventId: Number(row!.id) } satisfies AlarmEvent);
  await engineOf(p).idle();
}

export async function healthReading(p: Platform, d: TestDevice, health: HealthReading, time?: Date) {
  const e = base(d, time);
  const h = health;
  await p.deps.database.query(
    `INSERT INTO health_readings (device_id, time, received_at, heart_rate, systolic, diastolic, body_temp, wrist_temp, blood_oxygen, pending)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, true)`,
    [d.id, e.time, e.receivedAt, h.heartRate ?? null, h.systolic ?? null, h.diastolic ?? null, h.bodyTemp ?? null, h.wristTemp ?? null, h.bloodOxygen ?? null],
  );
  p.deps.bus.publish(TOPICS.health, { ...e, health } satisfies HealthEvent);
  await engineOf(p).idle();
}
