// Device transports end to end: real sockets and HTTP requests into a real platform, on PGlite and
// (when TEST_DATABASE_URL is set) PostgreSQL. Demo devices: 865000000000001-020 are the care home's
// watches (clinic01), 029-038 the fleet's GT06 trackers (viewer01).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, gt06Device, watchContent } from '@wt/protocols';
import mqtt from 'mqtt';
import { createIntegration } from '../src/gateway/http.js';
import { TOPICS, type HealthEvent, type PositionEvent } from '../src/pipeline/events.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { FakeDevice, eventually, sleep } from './gateway-helpers.js';

const fixAt = (lat: number, lon: number, time = new Date(Date.UTC(2026, 0, 5, 8, 30, 0))) => ({ time, valid: true, lat, lon, speed: 12.5, course: 90, satellites: 7 });

describe.each(databases())('device gateway on %s', (kind) => {
  let p: TestPlatform;
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => p.deps.database.query<T>(sql, params);
  const deviceId = async (imei: string) => (await q<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [imei]))[0]!.id;

  beforeAll(async () => {
    p = await startTestPlatform(kind, { GATEWAY_MAX_BUFFER: '4096' });
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('answers a watch LK only after it is committed, stores UD positions, updates the state and publishes events', async () => {
    const imei = '865000000000001';
    const id = await deviceId(imei);
    const events: PositionEvent[] = [];
    const off = p.deps.bus.subscribe<PositionEvent>(TOPICS.position, (e) => events.push(e));
    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      dev.send(buildWatchFrame('3G', imei, watchContent.lk({ steps: 1200, tumbles: 0, battery: 88 })));
      await dev.untilText(`[3G*${imei}*0002*LK]`);
      // The reply came after the commit: the state written in the same transaction is already there.
      const [st] = await q<{ battery: number; steps: number; online: boolean; connection_mode: string }>('SELECT * FROM device_state WHERE device_id = $1', [id]);
      expect(st).toMatchObject({ battery: 88, steps: 1200, online: true, connection_mode: 'long' });

      // A backslash and a quote in an SSID survive the bulk path (COPY text format on PostgreSQL).
      const wifi = [{ ssid: 'Home\\"5G"', mac: '0a:1b:2c:3d:4e:5f', rssi: -61 }, { mac: '00:11:22:33:44:55', rssi: -70 }];
      dev.send(buildWatchFrame('3G', imei, watchContent.ud({ fix: fixAt(22.543096, 114.057865), battery: 77, signal: 80, wifi })));
      const rows = await eventually(async () => {
        const r = await q<{ lat: number; lon: number; valid: boolean; speed: number; satellites: number; attributes: Record<string, unknown>; wifi: unknown }>('SELECT * FROM positions WHERE device_id = $1', [id]);
        return r.length ? r : undefined;
      });
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ lat: 22.543096, lon: 114.057865, valid: true, satellites: 7 });
      expect(rows[0]!.speed).toBeCloseTo(12.5);
      expect(rows[0]!.attributes).toMatchObject({ type: 'UD', battery: 77 });
      expect(rows[0]!.wifi).toEqual(wifi);
      const [st2] = await q<{ lat: number; lon: number; battery: number; fix_time: Date }>('SELECT * FROM device_state WHERE device_id = $1', [id]);
      expect(st2).toMatchObject({ lat: 22.543096, lon: 114.057865, battery: 77 });

      await eventually(() => events.length > 0);
      const clinic = (await q<{ id: number; path: string }>(`SELECT id, path FROM accounts WHERE login_name = 'clinic01'`))[0]!;
      expect(events[0]).toMatchObject({ deviceId: id, imei, accountId: clinic.id, accountPath: clinic.path, lat: 22.543096, valid: true });
      expect(clinic.path.split('/').filter(Boolean).length).toBe(3); // admin/agent/clinic: the path is the subtree key
      const live = p.deps.ingest.live.get(id);
      expect(live).toMatchObject({ online: true, lat: 22.543096, battery: 77 });

      // An older buffered fix (UD2) is stored but does not move the device back in time.
      dev.send(buildWatchFrame('3G', imei, watchContent.ud2({ fix: fixAt(22.5, 114.0, new Date(Date.UTC(2026, 0, 5, 7, 0, 0))) })));
      await eventually(async () => (await q('SELECT 1 FROM positions WHERE device_id = $1', [id])).length === 2);
      const [st3] = await q<{ lat: number }>('SELECT lat FROM device_state WHERE device_id = $1', [id]);
      expect(st3!.lat).toBe(22.543096);
    } finally {
      off();
      dev.close();
    }
  });

  it('knows a watch by the last 10 digits of its IMEI and stores health readings', async () => {
    const imei = '865000000000002';
    const id = await deviceId(imei);
    const health: HealthEvent[] = [];
    const off = p.deps.bus.subscribe<HealthEvent>(TOPICS.health, (e) => health.push(e));
    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      dev.send(buildWatchFrame('SG', '0000000002', watchContent.lk()));
      await dev.untilText('[SG*0000000002*0002*LK]');
      dev.send(buildWatchFrame('SG', '0000000002', watchContent.bphrt({ systolic: 128, diastolic: 82, heartRate: 71 })));
      const [h] = await eventually(async () => {
        const r = await q<{ systolic: number; diastolic: number; heart_rate: number }>('SELECT * FROM health_readings WHERE device_id = $1 AND systolic IS NOT NULL', [id]);
        return r.length ? r : undefined;
      });
      expect(h).toMatchObject({ systolic: 128, diastolic: 82, heart_rate: 71 });
      await eventually(() => health.some((e) => e.health.systolic === 128 && e.imei === imei));
      const [st] = await q<{ systolic: number; heart_rate: number }>('SELECT systolic, heart_rate FROM device_state WHERE device_id = $1', [id]);
      expect(st).toMatchObject({ systolic: 128, heart_rate: 71 });
    } finally {
      off();
      dev.close();
    }
  });

  it('stores watch alarms as events and publishes them', async () => {
    const imei = '865000000000006';
    const id = await deviceId(imei);
    const alarms: { alarm: string; eventId: number }[] = [];
    const off = p.deps.bus.subscribe<{ alarm: string; eventId: number }>(TOPICS.alarm, (e) => alarms.push(e));
    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      dev.send(buildWatchFrame('3G', imei, watchContent.al({ fix: fixAt(22.6, 114.1), alarms: ['sos'] })));
      await dev.untilText(`[3G*${imei}*0002*AL]`);
      const ev = await q<{ id: number; kind: string }>('SELECT id, kind FROM device_events WHERE device_id = $1', [id]);
      expect(ev.map((e) => e.kind)).toEqual(['sos']);
      await eventually(() => alarms.length > 0);
      expect(alarms[0]).toMatchObject({ alarm: 'sos', eventId: Number(ev[0]!.id) });
    } finally {
      off();
      dev.close();
    }
  });

  it('logs a GT06 tracker in and answers its location and heartbeat', async () => {
    const imei = '865000000000029';
    const id = await deviceId(imei);
    const dev = await FakeDevice.connect(p.deps.ingest.ports.gt06!);
    try {
      dev.send(gt06Device.login(imei, 1));
      const loginAck = Buffer.from('787805010001', 'hex');
      await dev.until((b) => b.includes(loginAck));
      dev.send(gt06Device.location(fixAt(22.55, 113.95), 2));
      await dev.until((b) => b.includes(Buffer.from('787805120002', 'hex')));
      const [pos] = await q<{ lat: number; lon: number; valid: boolean }>('SELECT lat, lon, valid FROM positions WHERE device_id = $1', [id]);
      expect(pos!.lat).toBeCloseTo(22.55, 4);
      expect(pos!.lon).toBeCloseTo(113.95, 4);
      dev.send(gt06Device.heartbeat(3, { batteryLevel: 6, gsm: 4 }));
      await dev.until((b) => b.includes(Buffer.from('787805130003', 'hex')));
      const login = await q('SELECT 1 FROM device_events WHERE device_id = $1 AND kind = $2', [id, 'login']);
      expect(login).toHaveLength(1);
    } finally {
      dev.close();
    }
  });

  it('takes OsmAnd positions as a query string and as JSON, on /osmand and on its own port', async () => {
    const imei = '865000000000003';
    const id = await deviceId(imei);
    const r1 = await fetch(`${p.url}/osmand?id=${imei}&lat=22.51&lon=114.01&timestamp=1767600000&speed=10&batt=64`);
    expect(r1.status).toBe(200);
    const r2 = await fetch(`http://127.0.0.1:${p.deps.ingest.ports.osmand}/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: imei, location: { timestamp: '2026-01-05T09:00:00Z', coords: { latitude: 22.52, longitude: 114.02, speed: 2 }, battery: { level: 0.5 } } }),
    });
    expect(r2.status).toBe(200);
    const rows = await q<{ lat: number; speed: number }>('SELECT lat, speed FROM positions WHERE device_id = $1 ORDER BY time', [id]);
    expect(rows.map((r) => r.lat)).toEqual([22.51, 22.52]);
    expect(rows[0]!.speed).toBeCloseTo(18.52, 1); // knots in the query form
    const [st] = await q<{ battery: number; connection_mode: string }>('SELECT battery, connection_mode FROM device_state WHERE device_id = $1', [id]);
    expect(st).toMatchObject({ battery: 50, connection_mode: 'short' });

    const unknown = await fetch(`${p.url}/osmand?id=865999999999998&lat=1&lon=2`);
    expect(unknown.status).toBe(400);
    const bad = await fetch(`${p.url}/osmand?lat=1&lon=2`);
    expect(bad.status).toBe(400);
  });

  it('takes HTTP uplinks with a valid integration token, for its own subtree only', async () => {
    const clinic = (await q<{ id: number }>(`SELECT id FROM accounts WHERE login_name = 'clinic01'`))[0]!;
    const token = await createIntegration(p.deps, `lora-${kind}`, clinic.id);
    const imei = '865000000000004';
    const id = await deviceId(imei);
    const post = (body: unknown, headers: Record<string, string> = {}, qs = '') =>
      fetch(`${p.url}/api/ingest/lora-${kind}${qs}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

    const ok = await post({ imei, lat: 22.53, lon: 114.03, heartRate: 72, battery: 90 }, { authorization: `Bearer ${token}` });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ State: 200, Stored: 2, Unknown: [] });
    expect(await q('SELECT 1 FROM positions WHERE device_id = $1', [id])).toHaveLength(1);
    expect(await q('SELECT 1 FROM health_readings WHERE device_id = $1 AND heart_rate = 72', [id])).toHaveLength(1);

    const viaQuery = await post([{ imei, lat: 22.54, lon: 114.04 }], {}, `?token=${token}`);
    expect(viaQuery.status).toBe(200);

    // A tracker of the fleet account is outside the clinic's subtree: not written.
    const foreign = await post({ imei: '865000000000030', lat: 1, lon: 2 }, { authorization: `Bearer ${token}` });
    expect(await foreign.json()).toMatchObject({ Stored: 0, Unknown: ['865000000000030'] });
    expect(await q('SELECT 1 FROM positions WHERE device_id = $1', [await deviceId('865000000000030')])).toHaveLength(0);

    // A gateway hearing a beacon no device is (another anchor, for calibration): no device spoke,
    // so it is counted apart and not logged as an unknown device.
    const { unknown, heardUnknown } = p.deps.ingest.metrics;
    const heard = await post({ gatewayId: 'AC:23:3F:A0:99:01', tags: [{ mac: 'AC:23:3F:A0:99:02', rssi: -61 }] }, { authorization: `Bearer ${token}` });
    expect(heard.status).toBe(200);
    expect(p.deps.ingest.metrics.heardUnknown).toBe(heardUnknown + 1);
    expect(p.deps.ingest.metrics.unknown).toBe(unknown);

    const wrong = await post({ imei, lat: 1, lon: 2 }, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { State: number }).State).toBe(1100);
    const none = await post({ imei, lat: 1, lon: 2 });
    expect(none.status).toBe(401);
    expect(await q('SELECT 1 FROM positions WHERE device_id = $1', [id])).toHaveLength(2);
  });

  it.skipIf(!process.env.TEST_MQTT_URL)('takes MQTT uplinks and acknowledges them after the commit', async () => {
    const prefix = `wt-test-${randomBytes(4).toString('hex')}`;
    const mp = await startTestPlatform(kind, { MQTT_URL: process.env.TEST_MQTT_URL!, MQTT_TOPIC: `${prefix}/+/up`, MQTT_CLIENT_ID: prefix });
    const pub = await mqtt.connectAsync(process.env.TEST_MQTT_URL!);
    try {
      const imei = '865000000000005';
      const id = (await mp.deps.database.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [imei]))[0]!.id;
      await eventually(async () => {
        // Publish until the subscription is in place (it is set up after connecting).
        await pub.publishAsync(`${prefix}/${imei}/up`, JSON.stringify({ lat: 22.56, lon: 114.06, steps: 321 }), { qos: 1 });
        return (await mp.deps.database.query('SELECT 1 FROM positions WHERE device_id = $1', [id])).length > 0;
      }, 10_000);
      const [h] = await mp.deps.database.query<{ steps: number }>('SELECT steps FROM health_readings WHERE device_id = $1', [id]);
      expect(h!.steps).toBe(321);
      await pub.publishAsync(`${prefix}/${imei}/up`, 'not json', { qos: 1 });
      await eventually(() => mp.deps.ingest.metrics.malformed > 0);
    } finally {
      await pub.endAsync();
      await mp.stop();
    }
  });

  it('counts and skips unknown IMEIs', async () => {
    const before = p.deps.ingest.metrics.unknown;
    const [{ n: positionsBefore }] = await q<{ n: number }>('SELECT count(*)::int AS n FROM positions');
    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      dev.send(buildWatchFrame('3G', '865999999999999', watchContent.lk()));
      dev.send(buildWatchFrame('3G', '865999999999999', watchContent.ud({ fix: fixAt(1, 2) })));
      await eventually(() => p.deps.ingest.metrics.unknown >= before + 2);
      await sleep(100);
      expect(dev.text()).toBe(''); // no acknowledgement for a stranger
      const [{ n }] = await q<{ n: number }>('SELECT count(*)::int AS n FROM positions');
      expect(n).toBe(positionsBefore);
      expect(await q(`SELECT 1 FROM devices WHERE imei = '865999999999999'`)).toHaveLength(0);
      const metrics = (await (await fetch(`${p.url}/api/metrics`)).json()) as { unknown: number };
      expect(metrics.unknown).toBeGreaterThanOrEqual(before + 2);
    } finally {
      dev.close();
    }
  });

  it('counts malformed input, keeps serving, and closes a stream it cannot resynchronise', async () => {
    const before = p.deps.ingest.metrics.malformed;
    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      dev.send(Buffer.from([0x00, 0xff, 0x13, 0x37, 0x5b, 0x5d, 0x0a]));
      dev.send('hello world]]');
      dev.send(buildWatchFrame('3G', '865000000000007', watchContent.lk()));
      await dev.untilText('[3G*865000000000007*0002*LK]');
      expect(p.deps.ingest.metrics.malformed).toBeGreaterThan(before);
    } finally {
      dev.close();
    }
    const g = await FakeDevice.connect(p.deps.ingest.ports.gt06!);
    g.send(Buffer.from('7878ffffffffffffffff0d0a', 'hex'));
    g.send(gt06Device.location(fixAt(1, 2), 9)); // before any login: nobody to attribute it to
    await eventually(() => p.deps.ingest.metrics.malformed > before + 1);
    g.close();

    // LEN promises 4095 bytes that never end: past GATEWAY_MAX_BUFFER the connection is closed.
    const flood = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    flood.send(`[3G*865000000000007*0FFF*UD,${'a'.repeat(5000)}`);
    await flood.waitClosed();
    const still = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    still.send(buildWatchFrame('3G', '865000000000007', watchContent.lk()));
    await still.untilText('*LK]');
    still.close();
  });

  it('forgets a device whose owner changed when told on the bus', async () => {
    const imei = '865000000000008';
    const id = await deviceId(imei);
    const operator = (await q<{ id: number; path: string }>(`SELECT id, path FROM accounts WHERE login_name = 'operator01'`))[0]!;
    const seen: PositionEvent[] = [];
    const off = p.deps.bus.subscribe<PositionEvent>(TOPICS.position, (e) => e.imei === imei && seen.push(e));
    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      dev.send(buildWatchFrame('3G', imei, watchContent.ud({ fix: fixAt(22.1, 114.1) })));
      await eventually(() => seen.length === 1);
      expect(seen[0]!.accountId).not.toBe(operator.id);
      await q('UPDATE devices SET account_id = $1 WHERE id = $2', [operator.id, id]);
      p.deps.bus.publish(TOPICS.changed, { imei, deviceId: id });
      // Same connection: the next message already carries the new owner.
      dev.send(buildWatchFrame('3G', imei, watchContent.ud({ fix: fixAt(22.2, 114.2) })));
      await eventually(() => seen.length === 2);
      expect(seen[1]).toMatchObject({ accountId: operator.id, accountPath: operator.path });
    } finally {
      off();
      dev.close();
    }
  });

  it('marks silent devices offline and says so on the bus', async () => {
    const id = await deviceId('865000000000001');
    const seen: { online: boolean; deviceId: number }[] = [];
    const off = p.deps.bus.subscribe<{ online: boolean; deviceId: number }>(TOPICS.status, (e) => seen.push(e));
    try {
      expect(p.deps.ingest.live.get(id)?.online).toBe(true);
      await p.deps.ingest.sweep(Date.now() + (p.deps.config.OFFLINE_TIMEOUT_SECONDS + 1) * 1000);
      expect(p.deps.ingest.live.get(id)?.online).toBe(false);
      expect(seen.some((e) => e.deviceId === id && e.online === false)).toBe(true);
      const [st] = await q<{ online: boolean }>('SELECT online FROM device_state WHERE device_id = $1', [id]);
      expect(st!.online).toBe(false);
    } finally {
      off();
    }
  });
});
