// Acknowledged means raised: an SOS (or a health reading beyond its threshold) that a device got
// its acknowledgement for becomes exactly one alarm record with its partner push, even when the
// alarm engine was not there to hear it (a crash between the acknowledgement and the alarm, a
// process without the engine). The engine replays what is pending when it starts, and a repeat of
// an event already handled is never counted twice.
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_CODES as C } from '@wt/contract';
import { buildWatchFrame, gt06Device, watchContent } from '@wt/protocols';
import { TOPICS, type AlarmEvent } from '../src/pipeline/events.js';
import { AlarmEngine } from '../src/rules/alarm-engine.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { engineOf } from './alarm-fixtures.js';
import { FakeDevice, eventually } from './gateway-helpers.js';

const fixAt = (lat: number, lon: number) => ({
  time: new Date(Date.now() - 60_000),
  valid: true,
  lat,
  lon,
  speed: 0,
  course: 0,
});

async function partner() {
  const got: { AlarmId: number; Type: number; Imei: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      got.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/alarms`,
    got,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(databases())('device alarms survive the engine being away on %s', (kind) => {
  let p: TestPlatform;
  let rx: Awaited<ReturnType<typeof partner>>;
  let engine: AlarmEngine | undefined;
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) =>
    p.deps.database.query<T>(sql, params);
  const idOf = async (imei: string) =>
    (await q<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [imei]))[0]!.id;
  const alarmsOf = (id: number) =>
    q<{ id: number; type: number; count: number }>(
      'SELECT id, type, count FROM alarms WHERE device_id = $1 ORDER BY type',
      [id],
    );

  beforeAll(async () => {
    p = await startTestPlatform(kind, { PUSH_RETRY_BASE_MS: '200', OUTBOUND_ALLOW: '127.0.0.1/32' });
    rx = await partner();
    const admin = (await p.login()).token;
    const saved = await p.call(
      '/Push/SaveCompany',
      {
        Name: 'Night Desk',
        PushUrl: rx.url,
        VerificationCode: 'replay-secret-1',
        PushModel: 1,
        DefaultFormat: 1,
      },
      admin,
    );
    expect(saved.body.State).toBe(200);
  });
  afterAll(async () => {
    await engine?.stop();
    await p?.stop();
    await rx?.close();
  });

  it('raises after a restart every SOS and health alarm acknowledged while no engine ran, once each', async () => {
    // The engine is gone: what it would have done after these acknowledgements never happens.
    await engineOf(p).stop();
    const watchImei = '865000000000017';
    const trackerImei = '865000000000037';
    const watch = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    const tracker = await FakeDevice.connect(p.deps.ingest.ports.gt06!);
    try {
      watch.send(
        buildWatchFrame('3G', watchImei, watchContent.al({ fix: fixAt(22.5, 114), alarms: ['sos'] })),
      );
      await watch.untilText(`[3G*${watchImei}*0002*AL]`);
      watch.send(buildWatchFrame('3G', watchImei, watchContent.heart({ heartRate: 150 })));
      watch.send(buildWatchFrame('3G', watchImei, watchContent.lk()));
      await watch.untilText(`[3G*${watchImei}*0002*LK]`);
      tracker.send(gt06Device.login(trackerImei, 1));
      await tracker.until((b) => b.includes(Buffer.from('787805010001', 'hex')));
      tracker.send(gt06Device.alarm(fixAt(22.7, 114.2), 'sos', 2));
      await tracker.until((b) => b.includes(Buffer.from('787805160002', 'hex')));
    } finally {
      watch.close();
      tracker.close();
    }
    const [w, t] = [await idOf(watchImei), await idOf(trackerImei)];
    expect(await alarmsOf(w)).toEqual([]);
    const pending = await q<{ n: number }>(
      'SELECT (SELECT count(*) FROM device_events WHERE pending)::int + (SELECT count(*) FROM health_readings WHERE pending)::int AS n',
    );
    expect(pending[0]!.n).toBe(3);

    // The engine starts again (as after a restart) and raises what is pending.
    engine = new AlarmEngine(p.deps);
    await engine.start({ offlineCheck: false });
    await eventually(
      async () => (await alarmsOf(w)).length === 2 && (await alarmsOf(t)).length === 1,
      10_000,
    );
    await engine.idle();
    expect((await alarmsOf(w)).map((a) => [a.type, a.count])).toEqual([
      [C.sos, 1],
      [C.heartRateHigh, 1],
    ]);
    expect((await alarmsOf(t)).map((a) => [a.type, a.count])).toEqual([[C.sos, 1]]);
    expect(await q('SELECT 1 FROM device_events WHERE pending')).toEqual([]);
    expect(await q('SELECT 1 FROM health_readings WHERE pending')).toEqual([]);

    // Each alarm has its push, queued with it, and the partner gets it once.
    const ids = [...(await alarmsOf(w)), ...(await alarmsOf(t))].map((a) => Number(a.id)).sort();
    const outbox = await q<{ alarm_id: number }>('SELECT alarm_id FROM push_outbox ORDER BY alarm_id');
    expect(outbox.map((o) => Number(o.alarm_id))).toEqual(ids);
    await eventually(() => rx.got.length >= 3, 10_000);
    expect(rx.got.map((g) => g.AlarmId).sort()).toEqual(ids);

    // Replaying again, or hearing a handled event again, changes nothing.
    await engine.replay({ settleSeconds: 0 });
    const [sosEvent] = await q<{ id: number }>(
      `SELECT id FROM device_events WHERE device_id = $1 AND kind = 'sos'`,
      [w],
    );
    const ref = p.deps.ingest.directory.cached(watchImei)!;
    const again: AlarmEvent = {
      deviceId: w,
      imei: watchImei,
      name: ref.name,
      accountId: ref.accountId,
      accountPath: ref.accountPath,
      protocol: 'watch',
      time: new Date().toISOString(),
      receivedAt: new Date().toISOString(),
      alarm: 'sos',
      eventId: Number(sosEvent!.id),
    };
    p.deps.bus.publish(TOPICS.alarm, again);
    p.deps.bus.publish(TOPICS.alarm, again);
    await engine.idle();
    expect((await alarmsOf(w)).map((a) => [a.type, a.count])).toEqual([
      [C.sos, 1],
      [C.heartRateHigh, 1],
    ]);
    expect(await q('SELECT 1 FROM push_outbox')).toHaveLength(3);
  });

  it('counts a new SOS of an open alarm once, whether the live path or the replay gets it first', async () => {
    const imei = '865000000000018';
    const id = await idOf(imei);
    const watch = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      for (let n = 1; n <= 3; n++) {
        watch.send(buildWatchFrame('3G', imei, watchContent.al({ fix: fixAt(22.5, 114), alarms: ['sos'] })));
        await watch.until((b) => (b.toString('latin1').match(/\*0002\*AL\]/g) ?? []).length >= n);
        // The replay runs alongside the live path: the mark decides who raises it.
        await Promise.all([engine!.replay({ settleSeconds: 0 }), engine!.idle()]);
        await engine!.idle();
        expect((await alarmsOf(id)).map((a) => [a.type, a.count])).toEqual([[C.sos, n]]);
      }
    } finally {
      watch.close();
    }
    // One push: partners hear of an alarm when it opens.
    expect(
      await q('SELECT 1 FROM push_outbox o JOIN alarms a ON a.id = o.alarm_id WHERE a.device_id = $1', [id]),
    ).toHaveLength(1);
  });
});
