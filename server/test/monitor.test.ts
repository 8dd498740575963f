// The map's device lists, the device card and the dashboard figures, scoped to the caller's subtree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIG_DATA_FIELDS } from '@wt/contract';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { account, addAccount, addDevices, addPositions } from './monitor-fixtures.js';
import { locate } from '../src/modules/monitor/offline-geocoder.js';

describe.each(databases())('monitor calls (%s)', (kind) => {
  let p: TestPlatform;
  let agentToken: string;
  let operatorToken: string;
  let clinicDevs: { id: number; imei: string; name: string }[];
  let agentDevs: { id: number; imei: string; name: string }[];
  let operatorDevs: { id: number; imei: string; name: string }[];

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    // A tree of its own, free of demo devices: agent > clinic, and a sibling operator.
    await addAccount(p, 'admin', 'm_agent');
    await addAccount(p, 'm_agent', 'm_clinic');
    await addAccount(p, 'admin', 'm_operator');
    clinicDevs = await addDevices(p, 'm_clinic', [
      { name: 'Grandpa Li', lat: 22.54, lon: 114.06, online: true },
      { name: 'Grandma Wu', lat: 22.55, lon: 114.07, online: false },
      { name: 'No fix yet' },
    ]);
    agentDevs = await addDevices(p, 'm_agent', [{ name: 'Agent car', lat: 23.1, lon: 113.3, online: true }]);
    operatorDevs = await addDevices(p, 'm_operator', [{ name: 'Sibling watch', lat: 31.2, lon: 121.5, online: true }]);
    agentToken = (await p.login('m_agent', 'admin123')).token;
    operatorToken = (await p.login('m_operator', 'admin123')).token;
    const clinic = await account(p, 'm_clinic');
    // An open SOS alarm on the offline device.
    await p.deps.database.query(`INSERT INTO alarms (type, device_id, account_id, status) VALUES (5, $1, $2, 0)`, [clinicDevs[1]!.id, clinic.id]);
  });
  afterAll(async () => p?.stop());

  it('/Device/monitorDevices lists the subtree with latest state and counts, never a sibling', async () => {
    const r = await p.call('/Device/monitorDevices', {}, agentToken);
    expect(r.body.State).toBe(200);
    const imeis = r.body.Items.map((d: { Imei: string }) => d.Imei);
    for (const d of [...clinicDevs, ...agentDevs]) expect(imeis).toContain(d.imei);
    expect(imeis).not.toContain(operatorDevs[0]!.imei);
    const li = r.body.Items.find((d: { Imei: string }) => d.Imei === clinicDevs[0]!.imei);
    expect(li).toMatchObject({ Nickname: 'Grandpa Li', Lat: 22.54, Lon: 114.06, Online: true, Sos: false, Battery: 80, Mode: 'long' });
    const wu = r.body.Items.find((d: { Imei: string }) => d.Imei === clinicDevs[1]!.imei);
    expect(wu).toMatchObject({ Online: false, Sos: true });
    const ownCount = clinicDevs.length + agentDevs.length;
    expect(r.body.Counts.All).toBe(ownCount);
    expect(r.body.Counts.Sos).toBe(1);
    expect(r.body.Counts.Online + r.body.Counts.Offline).toBe(ownCount);

    const sos = await p.call('/Device/monitorDevices', { Status: 'sos' }, agentToken);
    expect(sos.body.Items.map((d: { Imei: string }) => d.Imei)).toEqual([clinicDevs[1]!.imei]);
    const search = await p.call('/Device/monitorDevices', { Search: 'grandma' }, agentToken);
    expect(search.body.Items.map((d: { Nickname: string }) => d.Nickname)).toEqual(['Grandma Wu']);
  });

  it('refuses a sibling account named by UserId', async () => {
    const operator = await account(p, 'm_operator');
    const r = await p.call('/Device/monitorDevices', { UserId: operator.id }, agentToken);
    expect(r.body.State).toBe(403);
  });

  it('/device/devicesByUserIdPageColor pages and filters by status', async () => {
    const page1 = await p.call('/device/devicesByUserIdPageColor', { PageNo: 1, PageCount: 2 }, agentToken);
    const page2 = await p.call('/device/devicesByUserIdPageColor', { PageNo: 2, PageCount: 2 }, agentToken);
    expect(page1.body.Total).toBe(4);
    expect(page1.body.Items).toHaveLength(2);
    expect(page2.body.Items).toHaveLength(2);
    const ids = [...page1.body.Items, ...page2.body.Items].map((d: { DeviceId: number }) => d.DeviceId);
    expect(new Set(ids).size).toBe(4);
    const online = await p.call('/device/devicesByUserIdPageColor', { PageNo: 1, PageCount: 50, Status: 'online' }, agentToken);
    expect(online.body.Items.every((d: { Online: boolean }) => d.Online)).toBe(true);
    expect(online.body.Total).toBe(online.body.Counts.Online);
  });

  it('/device/devicesByUserIdPageColorBigData answers the compact form', async () => {
    const r = await p.call('/device/devicesByUserIdPageColorBigData', {}, agentToken);
    expect(r.body.Fields).toEqual([...BIG_DATA_FIELDS]);
    expect(r.body.Total).toBe(4);
    const row = r.body.Rows.find((x: unknown[]) => x[1] === clinicDevs[1]!.imei);
    expect(row.slice(0, 6)).toEqual([clinicDevs[1]!.id, clinicDevs[1]!.imei, 'Grandma Wu', 22.55, 114.07, 2]);
    const sib = await p.call('/device/devicesByUserIdPageColorBigData', {}, operatorToken);
    expect(sib.body.Rows.map((x: unknown[]) => x[1])).toEqual([operatorDevs[0]!.imei]);
  });

  it('/device/deviceTracking answers the card and the recent trail; a sibling device is not found', async () => {
    const now = Date.now();
    await addPositions(p, clinicDevs[0]!.id, [
      [22.53, 114.05, now - 20 * 60_000],
      [22.535, 114.055, now - 10 * 60_000],
      [22.54, 114.06, now - 60_000],
      [22.0, 114.0, now - 3 * 3600_000],
    ]);
    const r = await p.call('/device/deviceTracking', { DeviceId: clinicDevs[0]!.id, Minutes: 60 }, agentToken);
    expect(r.body.State).toBe(200);
    expect(r.body.Device.Nickname).toBe('Grandpa Li');
    expect(r.body.Trail.map((t: { Lat: number }) => t.Lat)).toEqual([22.53, 22.535, 22.54]);
    const foreign = await p.call('/device/deviceTracking', { Imei: operatorDevs[0]!.imei }, agentToken);
    expect(foreign.body.State).toBe(404);
    expect(foreign.body.Message).toBe('monitor.deviceNotFound');
  });

  it('/device/reverse_Geocoding_gaode answers the offline address when no online geocoder is configured', async () => {
    const r = await p.call('/device/reverse_Geocoding_gaode', { Lat: 22.54, Lon: 114.06 }, agentToken, { 'x-language': 'zh-CN' });
    expect(r.body).toEqual({ State: 200, Address: '广东省深圳市福田区', Source: 'offline' });
  });

  it('/User/allAdminCount and /User/adminPageAnalysis count the subtree', async () => {
    const c = await p.call('/User/allAdminCount', {}, agentToken);
    expect(c.body).toMatchObject({ State: 200, Total: 4, Sos: 1, Accounts: 2, AlarmsToday: 1 });
    expect(c.body.Online + c.body.Offline).toBe(4);
    const a = await p.call('/User/adminPageAnalysis', { Days: 7 }, agentToken);
    expect(a.body.State).toBe(200);
    expect(a.body.Activity).toHaveLength(7);
    expect(a.body.AlarmsByType).toEqual([{ Type: '5', Count: 1 }]);
    expect(a.body.Activity.at(-1).Positions).toBeGreaterThanOrEqual(3);
    const located = a.body.Locations.reduce((n: number, l: number[]) => n + l[2]!, 0);
    expect(located).toBe(3);
  });

  it('/User/adminPageAnalysis shows the health figures the devices report now, not only readings stored in the period', async () => {
    const db = p.deps.database;
    const [li, wu] = clinicDevs;
    // The devices' latest values (what the device card shows), without readings in the period.
    await db.query(`UPDATE device_state SET blood_oxygen = 99, heart_rate = 70, systolic = 120, diastolic = 80, body_temp = 36.5, health_time = now() WHERE device_id = $1`, [li!.id]);
    await db.query(`UPDATE device_state SET blood_oxygen = 97, heart_rate = 80, health_time = now() - interval '1 hour' WHERE device_id = $1`, [wu!.id]);
    // A sibling's device never counts.
    await db.query(`UPDATE device_state SET blood_oxygen = 50, health_time = now() WHERE device_id = $1`, [operatorDevs[0]!.id]);
    const a = await p.call('/User/adminPageAnalysis', { Days: 7 }, agentToken);
    expect(a.body.Health).toMatchObject({ BloodOxygen: 98, HeartRate: 75, Systolic: 120, Diastolic: 80, BodyTemp: 36.5 });
    // A latest value older than the period is left out.
    await db.query(`UPDATE device_state SET health_time = now() - interval '30 days' WHERE device_id = $1`, [wu!.id]);
    const b = await p.call('/User/adminPageAnalysis', { Days: 7 }, agentToken);
    expect(b.body.Health).toMatchObject({ BloodOxygen: 99, HeartRate: 70 });
  });
});

describe('reverse geocoding with an unreachable geocoder', () => {
  let p: TestPlatform;
  beforeAll(async () => {
    // A port nobody listens on: the call must still answer at once with the coordinates.
    p = await startTestPlatform('pglite', { GEOCODER: 'nominatim', GEOCODER_URL: 'http://127.0.0.1:9', GEOCODER_TIMEOUT_MS: '500' });
    // The shipped boundaries are read once per process, at the first lookup: read them before timing.
    locate(0, 0);
  });
  afterAll(async () => p?.stop());

  it('falls back to the offline address within the timeout, and to the coordinates at sea', async () => {
    const { token } = await p.login();
    const started = Date.now();
    const r = await p.call('/device/reverse_Geocoding_gaode', { Lat: 39.914, Lon: 116.4108 }, token, { 'x-language': 'en' });
    expect(r.body).toMatchObject({ Address: 'Dongcheng District, Beijing', Source: 'offline' });
    expect(Date.now() - started).toBeLessThan(1500);
    const sea = await p.call('/device/reverse_Geocoding_gaode', { Lat: 1.5, Lon: 2.5 }, token);
    expect(sea.body.Source).toBe('coordinates');
  });
});
