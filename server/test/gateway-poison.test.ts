// One device's bad values never cost another device its data. Devices of several tenants report
// through real sockets and HTTP while others send values no column can hold (a battery of 70 000,
// a step count above 2^31, a NUL in an attribute, a time in the year 5000, a speed beyond a real);
// the batches are shared, and every good message must still be acknowledged and stored. The
// bad messages are kept with the impossible field left out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, gt06Device, watchContent, type DeviceMessage } from '@wt/protocols';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { FakeDevice } from './gateway-helpers.js';

const ROUNDS = 4;
const T0 = Date.UTC(2026, 2, 1, 6, 0, 0);
const fixAt = (lat: number, lon: number, time: Date) => ({
  time,
  valid: true,
  lat,
  lon,
  speed: 20,
  course: 45,
  satellites: 8,
});

describe.each(databases())('bad device values on %s', (kind) => {
  let p: TestPlatform;
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    p.deps.database.query<T>(sql, params);
  const idOf = async (imei: string) =>
    (await q<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [imei]))[0]!.id;

  beforeAll(async () => {
    // A batch waits long enough for the whole round to share it.
    p = await startTestPlatform(kind, { BATCH_MAX_WAIT_MS: '150' });
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('keeps every good message of every tenant acknowledged and stored, and the bad ones without their bad field', async () => {
    const m = p.deps.ingest.metrics;
    const failedBefore = m.failed;
    // Good: clinic watches, the fleet's GT06 trackers, an agent's phone over OsmAnd.
    const goodWatches = ['865000000000010', '865000000000011', '865000000000021'];
    const goodTrackers = ['865000000000033', '865000000000034'];
    const goodPhone = '865000000000022';
    // Bad: one per kind of impossible value.
    const badBatteryPhone = '865000000000012';
    const badBatteryWatch = '865000000000013';
    const badStepsWatch = '865000000000014';
    const badNulPhone = '865000000000035';
    const badTimePhone = '865000000000039';
    const badSpeedPhone = '865000000000040';

    const watches = await Promise.all(
      [...goodWatches, badBatteryWatch, badStepsWatch].map(() =>
        FakeDevice.connect(p.deps.ingest.ports.watch!),
      ),
    );
    const trackers = await Promise.all(goodTrackers.map(() => FakeDevice.connect(p.deps.ingest.ports.gt06!)));
    try {
      await Promise.all(
        trackers.map(async (d, i) => {
          d.send(gt06Device.login(goodTrackers[i]!, 1));
          await d.until((b) => b.includes(Buffer.from('787805010001', 'hex')));
        }),
      );
      const osmand = (qs: string) => fetch(`${p.url}/osmand?${qs}`).then((r) => r.status);
      const watchImeis = [...goodWatches, badBatteryWatch, badStepsWatch];

      for (let round = 0; round < ROUNDS; round++) {
        const time = new Date(T0 + round * 60_000);
        const ts = Math.floor(time.getTime() / 1000);
        const serial = 10 + round;
        // Everything of the round goes out at once, so good and bad share batches.
        watches.forEach((d, i) => {
          const imei = watchImeis[i]!;
          d.send(
            buildWatchFrame(
              '3G',
              imei,
              watchContent.ud({ fix: fixAt(22.5 + i / 100, 114 + round / 1000, time) }),
            ),
          );
          const lk =
            imei === badBatteryWatch
              ? 'LK,100,0,70000'
              : imei === badStepsWatch
                ? `LK,${2 ** 31 + 7},0,80`
                : watchContent.lk({ steps: 100 + round, battery: 90 });
          d.send(buildWatchFrame('3G', imei, lk));
        });
        trackers.forEach((d) => d.send(gt06Device.location(fixAt(22.7, 114.2 + round / 1000, time), serial)));
        const statuses = await Promise.all([
          osmand(`id=${goodPhone}&lat=22.61&lon=114.01&timestamp=${ts}&batt=64`),
          osmand(`id=${badBatteryPhone}&lat=22.62&lon=114.02&timestamp=${ts}&batt=70000`),
          osmand(`id=${badNulPhone}&lat=22.63&lon=114.03&timestamp=${ts}&note=a%00b`),
          osmand(`id=${badTimePhone}&lat=22.64&lon=114.04&timestamp=${Date.UTC(5000, 0, 1)}`),
          osmand(`id=${badSpeedPhone}&lat=22.65&lon=114.05&timestamp=${ts}&speed=1e39&altitude=-1e300`),
        ]);
        expect(statuses, `round ${round}: OsmAnd answers`).toEqual([200, 200, 200, 200, 200]);
        await Promise.all([
          ...watches.map((d) =>
            d.until((b) => (b.toString('latin1').match(/\*0002\*LK\]/g) ?? []).length >= round + 1),
          ),
          ...trackers.map((d) =>
            d.until((b) => b.includes(Buffer.from(`78780512${serial.toString(16).padStart(4, '0')}`, 'hex'))),
          ),
        ]);
      }

      expect(m.failed - failedBefore).toBe(0);
      for (const imei of [
        ...watchImeis,
        ...goodTrackers,
        goodPhone,
        badBatteryPhone,
        badNulPhone,
        badTimePhone,
        badSpeedPhone,
      ]) {
        const [{ n }] = await q<{ n: number }>(
          'SELECT count(*)::int AS n FROM positions WHERE device_id = $1',
          [await idOf(imei)],
        );
        expect(n, `positions of ${imei}`).toBe(ROUNDS);
      }
      // The impossible values are left out; the rest of the message is there.
      const battery = async (imei: string) =>
        (
          await q<{ battery: number | null }>('SELECT battery FROM device_state WHERE device_id = $1', [
            await idOf(imei),
          ])
        )[0]?.battery;
      expect(await battery(badBatteryPhone)).toBeNull();
      expect(await battery(badBatteryWatch)).not.toBe(70000);
      expect(await battery(goodPhone)).toBe(64);
      const [steps] = await q<{ steps: number | null; battery: number }>(
        'SELECT steps, battery FROM device_state WHERE device_id = $1',
        [await idOf(badStepsWatch)],
      );
      expect(steps).toMatchObject({ battery: 80 });
      expect(steps!.steps === null || steps!.steps <= 2 ** 31 - 1).toBe(true);
      const future = await q<{ time: Date }>('SELECT time FROM positions WHERE device_id = $1', [
        await idOf(badTimePhone),
      ]);
      for (const r of future) expect(new Date(r.time).getTime()).toBeLessThan(Date.now() + 86_400_000 * 2);
      const fast = await q<{ speed: number | null; altitude: number | null }>(
        'SELECT speed, altitude FROM positions WHERE device_id = $1',
        [await idOf(badSpeedPhone)],
      );
      expect(fast.every((r) => r.speed === null && r.altitude === null)).toBe(true);
      const nul = await q<{ attributes: Record<string, unknown> }>(
        'SELECT attributes FROM positions WHERE device_id = $1',
        [await idOf(badNulPhone)],
      );
      for (const r of nul) expect(JSON.stringify(r.attributes)).not.toContain('\\u0000');
    } finally {
      for (const d of [...watches, ...trackers]) d.close();
    }
  }, 60_000);

  it('bounds every column in the writer itself, for messages no decoder bounded', async () => {
    const m = p.deps.ingest.metrics;
    const [failed, refused] = [m.failed, m.refused];
    const imei = '865000000000041';
    const id = await idOf(imei);
    const nul = 'a\u0000b';
    const lone = 'x\ud800y';
    const raw: DeviceMessage[] = [
      {
        deviceId: imei,
        protocol: 'uplink',
        kind: 'position',
        type: `UD${nul}`,
        time: new Date(8.64e15),
        fix: {
          time: new Date(NaN),
          valid: true,
          lat: 22.5,
          lon: 114,
          speed: 1e39,
          course: Infinity,
          altitude: -1e300,
          accuracy: 1e-50,
          satellites: 70000,
        },
        cells: [{ mcc: 460, mnc: 0, lac: NaN, cid: 1, rssi: -Infinity }],
        wifi: [{ mac: 'aa:bb:cc:dd:ee:ff', ssid: lone, rssi: NaN }],
        status: { battery: 70000, signal: -40000, steps: 2 ** 31 + 7, power: NaN },
        attributes: { [`k${nul}`]: nul, note: lone, big: 'z'.repeat(10_000) },
      },
      {
        deviceId: imei,
        protocol: 'uplink',
        kind: 'health',
        type: 'json',
        time: new Date(-8.64e15),
        health: {
          heartRate: 1e40,
          steps: 2 ** 40,
          bodyTemp: NaN,
          sleep: [{ stage: 'deep', minutes: Infinity }],
        },
      },
      {
        deviceId: imei,
        protocol: 'uplink',
        kind: 'alarm',
        type: 'json',
        alarms: ['sos'],
        status: { battery: 1e39 },
      },
      {
        deviceId: imei,
        protocol: 'uplink',
        kind: 'commandResult',
        type: 'json',
        commandResult: { keyword: `VERNO${nul}`, text: `v1${nul}${lone}`, serverFlag: 2 ** 40 },
      },
      {
        deviceId: imei,
        protocol: 'uplink',
        kind: 'beacon',
        type: 'ble',
        beacon: { kind: 'ble', gatewayId: nul, beacons: [{ rssi: NaN, mac: nul }] },
      },
    ];
    const stranger: DeviceMessage = { deviceId: `86500000000004${nul}`, protocol: 'uplink', kind: 'heartbeat', type: 'json' };
    const r = await p.deps.ingest.ingest([...raw, stranger], { transport: 'http', remote: 'test', mode: 'short' });
    expect(r.stored).toBe(raw.length);
    // An identity no database could compare is nobody's, and costs the others nothing.
    expect(r.unknown).toEqual([stranger.deviceId]);
    expect([m.failed - failed, m.refused - refused]).toEqual([0, 0]);
    const [pos] = await q<{
      time: Date;
      speed: number | null;
      course: number | null;
      altitude: number | null;
      accuracy: number | null;
      satellites: number | null;
      attributes: Record<string, unknown>;
      wifi: unknown;
    }>('SELECT * FROM positions WHERE device_id = $1', [id]);
    expect(pos).toMatchObject({ speed: null, course: null, altitude: null, accuracy: 0, satellites: null });
    expect(Math.abs(new Date(pos!.time).getTime() - Date.now())).toBeLessThan(60_000);
    expect(pos!.attributes).toMatchObject({ type: 'UDab', kab: 'ab', note: 'x\uFFFDy' });
    expect(String(pos!.attributes.big).length).toBeLessThanOrEqual(4096);
    const [st] = await q<{ battery: number | null; signal: number | null; steps: number | null }>(
      'SELECT battery, signal, steps FROM device_state WHERE device_id = $1',
      [id],
    );
    expect(st).toEqual({ battery: null, signal: null, steps: null });
    const [h] = await q<{ heart_rate: number | null; steps: number | null; time: Date }>(
      'SELECT heart_rate, steps, time FROM health_readings WHERE device_id = $1',
      [id],
    );
    expect(h).toMatchObject({ heart_rate: null, steps: null });
    const kinds = await q<{ kind: string }>(
      'SELECT kind FROM device_events WHERE device_id = $1 ORDER BY id',
      [id],
    );
    expect(kinds.map((k) => k.kind)).toEqual(['sos', 'commandResult', 'beacon']);
  });

  it('splits a batch the database refuses, so that only the message at fault goes unacknowledged', async () => {
    // Something no bound foresees: the database itself refuses one row.
    await q(`CREATE FUNCTION refuse_test_position() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.lat = 66.666 THEN RAISE EXCEPTION 'position refused for the test' USING ERRCODE = '22023'; END IF; RETURN NEW; END $$`);
    await q(
      'CREATE TRIGGER refuse_test_position BEFORE INSERT ON positions FOR EACH ROW EXECUTE FUNCTION refuse_test_position()',
    );
    const m = p.deps.ingest.metrics;
    const [failed, refused] = [m.failed, m.refused];
    const goodWatches = ['865000000000015', '865000000000023'];
    const goodTrackers = ['865000000000036'];
    const goodPhones = ['865000000000042', '865000000000024'];
    const guilty = '865000000000016';
    const counts = async (imei: string) =>
      (
        await q<{ n: number }>('SELECT count(*)::int AS n FROM positions WHERE device_id = $1', [
          await idOf(imei),
        ])
      )[0]!.n;
    const watches = await Promise.all(goodWatches.map(() => FakeDevice.connect(p.deps.ingest.ports.watch!)));
    const trackers = await Promise.all(goodTrackers.map(() => FakeDevice.connect(p.deps.ingest.ports.gt06!)));
    try {
      await Promise.all(
        trackers.map(async (d, i) => {
          d.send(gt06Device.login(goodTrackers[i]!, 1));
          await d.until((b) => b.includes(Buffer.from('787805010001', 'hex')));
        }),
      );
      for (let round = 0; round < ROUNDS; round++) {
        const time = new Date(T0 + round * 60_000);
        const ts = Math.floor(time.getTime() / 1000);
        const serial = 20 + round;
        // Alarms take the transaction path of the writer, plain positions the single statement.
        watches.forEach((d, i) =>
          d.send(
            buildWatchFrame(
              '3G',
              goodWatches[i]!,
              watchContent.al({ fix: fixAt(22.5, 114 + round / 1000, time) }),
            ),
          ),
        );
        trackers.forEach((d) => d.send(gt06Device.location(fixAt(22.7, 114.2, time), serial)));
        const statuses = await Promise.all([
          ...goodPhones.map((imei) =>
            fetch(`${p.url}/osmand?id=${imei}&lat=22.6&lon=114.1&timestamp=${ts}`).then((r) => r.status),
          ),
          fetch(`${p.url}/osmand?id=${guilty}&lat=66.666&lon=114.1&timestamp=${ts}`).then((r) => r.status),
        ]);
        expect(statuses, `round ${round}`).toEqual([200, 200, 503]);
        await Promise.all([
          ...watches.map((d) =>
            d.until((b) => (b.toString('latin1').match(/\*0002\*AL\]/g) ?? []).length >= round + 1),
          ),
          ...trackers.map((d) =>
            d.until((b) => b.includes(Buffer.from(`78780512${serial.toString(16).padStart(4, '0')}`, 'hex'))),
          ),
        ]);
      }
      for (const imei of [...goodWatches, ...goodTrackers, ...goodPhones])
        expect(await counts(imei), imei).toBe(ROUNDS);
      expect(await counts(guilty)).toBe(0);
      expect(m.refused - refused).toBe(ROUNDS);
      expect(m.failed - failed).toBe(0);
      const metrics = (await (await fetch(`${p.url}/api/metrics`)).json()) as { refused: number };
      expect(metrics.refused).toBe(m.refused);
    } finally {
      for (const d of [...watches, ...trackers]) d.close();
      await q('DROP TRIGGER refuse_test_position ON positions');
    }
  });
});
