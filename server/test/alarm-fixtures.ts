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

export async function deviceAlarm(p: Platform, d: TestDevice, alarm: AlarmKind, time?: Date) {
  p.deps.bus.publish(TOPICS.alarm, { ...base(d, time), alarm, lat: 22.54, lon: 113.95, valid: true, eventId: 1 } satisfies AlarmEvent);
  await engineOf(p).idle();
}

export async function healthReading(p: Platform, d: TestDevice, health: HealthReading, time?: Date) {
  p.deps.bus.publish(TOPICS.health, { ...base(d, time), health } satisfies HealthEvent);
  await engineOf(p).idle();
}
