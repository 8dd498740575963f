import http from 'node:http';
import net from 'node:net';
import mqtt from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Gt06Framer,
  WatchFramer,
  createGt06State,
  decodeGt06Frame,
  decodeOsmAnd,
  decodeUplink,
  decodeWatchFrame,
  encodeGt06Command,
  encodeWatchCommand,
  type DeviceMessage,
} from '@wt/protocols';
import { getCity, haversine } from '../src/cities.js';
import { startSimulator, type Simulator } from '../src/index.js';

const city = getCity('shenzhen');
const inCity = (lat: number, lon: number) => haversine(city.lat, city.lon, lat, lon) <= city.radius;

async function waitFor(cond: () => boolean, ms = 8000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function listen(server: net.Server | http.Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanups.push(() => new Promise<void>((r) => server.close(() => r())));
  return (server.address() as net.AddressInfo).port;
}

function track(sim: Simulator): Simulator {
  cleanups.push(() => sim.stop());
  return sim;
}

/** A minimal watch gateway: frames with the protocols' framer, decodes, replies as the decoder says. */
function watchServer() {
  const frames: { type: string; msgs: DeviceMessage[]; raw: string }[] = [];
  const sockets: net.Socket[] = [];
  const server = net.createServer((s) => {
    sockets.push(s);
    const framer = new WatchFramer();
    s.on('error', () => {});
    s.on('data', (d) => {
      for (const f of framer.push(d).frames) {
        const raw = f.toString('latin1');
        // Frame syntax: [VV*ID*LEN*CONTENT] with LEN the content length in hex.
        const m = /^\[(\w\w)\*(\d+)\*([0-9A-F]{4})\*(.*)\]$/s.exec(raw);
        expect(m, raw).not.toBeNull();
        expect(parseInt(m![3], 16)).toBe(Buffer.byteLength(m![4], 'latin1'));
        const r = decodeWatchFrame(f);
        frames.push({ type: m![4].split(',')[0], msgs: r.messages, raw });
        if (r.reply) s.write(r.reply);
      }
    });
  });
  const of = (t: string) => frames.filter((f) => f.type === t);
  return { server, frames, sockets, of };
}

describe('watch over TCP', () => {
  it('logs in, reports, measures, counts acks and obeys commands', async () => {
    const ws = watchServer();
    const port = await listen(ws.server);
    const sim = track(
      await startSimulator({
        devices: 1,
        protocol: 'watch',
        ports: { watch: port },
        interval: 1,
        healthInterval: 1,
        keepalive: 2,
        seed: 7,
        rates: { sos: 0, fall: 0, removal: 0, highHeartRate: 0 },
      }),
    );
    const imei = '865000000000001';
    const dev = sim.device(imei)!;
    await waitFor(
      () => ws.of('UD').length >= 2 && ws.of('heart').length >= 1 && ws.of('LK').length >= 1,
      8000,
      'UD, heart and LK',
    );
    // The watch logs in with LK before anything else.
    expect(ws.frames[0].type).toBe('LK');
    expect(ws.frames[0].msgs[0].deviceId).toBe(imei);
    const pos = ws.of('UD')[0].msgs[0];
    expect(pos.kind).toBe('position');
    expect(inCity(pos.fix!.lat, pos.fix!.lon)).toBe(true);
    expect(pos.status?.battery).toBeGreaterThan(0);
    expect(ws.of('heart')[0].msgs[0].health?.heartRate).toBeGreaterThan(40);
    await waitFor(() => ws.of('bphrt').length >= 1, 8000, 'bphrt');
    const bp = ws.of('bphrt')[0].msgs[0].health!;
    expect(bp.systolic! - bp.diastolic!).toBeGreaterThanOrEqual(25);
    await waitFor(() => sim.stats().acked >= 2, 8000, 'LK acks');
    expect(sim.stats()).toMatchObject({ devices: 1, connected: 1, online: 1, ackTimeouts: 0, errors: 0 });
    expect(sim.stats().ackLatencyMs.max).toBeLessThan(1000);

    // UPLOAD: echoed with the keyword, then reports slow down to the new period.
    const sock = ws.sockets[0];
    sock.write(encodeWatchCommand('3G', imei, { code: 'UPLOAD', params: { seconds: 30 } }));
    await waitFor(() => ws.of('UPLOAD').length === 1, 3000, 'UPLOAD echo');
    expect(ws.of('UPLOAD')[0].raw).toBe(`[3G*${imei}*0006*UPLOAD]`);
    expect(ws.of('UPLOAD')[0].msgs[0].commandResult?.keyword).toBe('UPLOAD');
    expect(dev.interval).toBe(30);
    await new Promise((r) => setTimeout(r, 300));
    const uds = ws.of('UD').length;
    await new Promise((r) => setTimeout(r, 2500));
    expect(ws.of('UD').length).toBe(uds);

    // CR: an immediate position. hrtstart,1: an immediate heart-rate measurement.
    sock.write(encodeWatchCommand('3G', imei, { code: 'CUSTOM', params: { text: 'CR' } }));
    await waitFor(() => ws.of('UD').length === uds + 1 && ws.of('CR').length === 1, 3000, 'CR position');
    const hearts = ws.of('heart').length;
    sock.write(encodeWatchCommand('3G', imei, { code: 'HEART_RATE', params: { seconds: 600 } }));
    await waitFor(() => ws.of('hrtstart').length === 1, 3000, 'hrtstart echo');
    sock.write(encodeWatchCommand('3G', imei, { code: 'CUSTOM', params: { text: 'hrtstart,1' } }));
    await waitFor(
      () => ws.of('hrtstart').length === 2 && ws.of('heart').length > hearts,
      3000,
      'heart on demand',
    );
    expect(dev.healthInterval).toBe(600);
    sock.write(encodeWatchCommand('3G', imei, { code: 'MESSAGE', params: { text: '回家吃饭 [now]' } }));
    sock.write(encodeWatchCommand('3G', imei, { code: 'CENTER', params: { number: '13800138000' } }));
    await waitFor(() => ws.of('CENTER').length === 1, 3000, 'CENTER echo');
    expect(dev.messages).toEqual(['回家吃饭 [now]']);
    expect(dev.phoneBook.center).toBe('13800138000');
    expect(sim.stats().commands).toBe(6); // UPLOAD, CR, hrtstart twice, MESSAGE, CENTER
    expect(sim.stats().commandReplies).toBe(6);

    // A forced SOS goes out as an AL frame with the SOS bit, and the server's AL reply is an ack.
    const acked = sim.stats().acked;
    sim.trigger(imei, 'sos');
    await waitFor(() => ws.of('AL').length === 1 && sim.stats().acked > acked, 3000, 'AL and its ack');
    expect(ws.of('AL')[0].msgs[0].alarms).toEqual(['sos']);
    expect(sim.stats().alarms).toBe(1);
  });

  it('reconnects with LK after the server drops the connection', async () => {
    const ws = watchServer();
    const port = await listen(ws.server);
    const sim = track(
      await startSimulator({ devices: 2, protocol: 'watch', ports: { watch: port }, interval: 1, seed: 3 }),
    );
    await waitFor(() => sim.stats().online === 2, 5000, 'both online');
    ws.sockets[0].destroy();
    await waitFor(() => ws.sockets.length === 3 && sim.stats().online === 2, 8000, 'reconnect');
    expect(sim.stats().reconnects).toBe(1);
    expect(ws.of('LK').length).toBeGreaterThanOrEqual(3);
  });

  it('counts a timeout and retries when the server never answers the login', async () => {
    let connections = 0;
    const silent = net.createServer((s) => {
      connections++;
      s.on('error', () => {});
      s.resume(); // read and drop, so the client's close is seen
    });
    const port = await listen(silent);
    const sim = track(
      await startSimulator({
        devices: 1,
        protocol: 'watch',
        ports: { watch: port },
        ackTimeoutMs: 300,
        seed: 1,
      }),
    );
    await waitFor(() => sim.stats().ackTimeouts >= 1, 5000, 'timeout');
    expect(sim.stats().online).toBe(0);
    await waitFor(() => connections >= 2, 5000, 'retry');
    expect(sim.stats().sent).toBeGreaterThanOrEqual(2); // an LK per attempt, nothing else
  });

  it('reboots on RESET: echo, close, log in again', async () => {
    const ws = watchServer();
    const port = await listen(ws.server);
    const sim = track(
      await startSimulator({ devices: 1, protocol: 'watch', ports: { watch: port }, interval: 1, seed: 2 }),
    );
    await waitFor(() => sim.stats().online === 1, 5000, 'online');
    ws.sockets[0].write(encodeWatchCommand('3G', '865000000000001', { code: 'RESET', params: {} }));
    await waitFor(
      () => ws.of('RESET').length === 1 && ws.sockets.length === 2 && sim.stats().online === 1,
      8000,
      'reboot',
    );
    expect(ws.sockets[0].destroyed || ws.sockets[0].readableEnded).toBe(true);
  });
});

describe('GT06 over TCP', () => {
  it('performs the login handshake, reports, and answers 0x80 commands with 0x15', async () => {
    const msgs: DeviceMessage[] = [];
    const types: number[] = [];
    let sock: net.Socket | undefined;
    const server = net.createServer((s) => {
      sock = s;
      const framer = new Gt06Framer();
      const state = createGt06State();
      s.on('error', () => {});
      s.on('data', (d) => {
        for (const f of framer.push(d).frames) {
          types.push(f[3]);
          const r = decodeGt06Frame(f, state, { requireCrc: true });
          msgs.push(...r.messages);
          if (r.reply) s.write(r.reply);
        }
      });
    });
    const port = await listen(server);
    const sim = track(
      await startSimulator({
        devices: 1,
        firstImei: '868120000000042',
        protocol: 'gt06',
        ports: { gt06: port },
        interval: 1,
        keepalive: 1,
        seed: 9,
      }),
    );
    await waitFor(
      () =>
        msgs.some((m) => m.kind === 'position') &&
        msgs.some((m) => m.type === '0x13' || m.kind === 'heartbeat'),
      8000,
      'GT06 position and heartbeat',
    );
    expect(types[0]).toBe(0x01);
    expect(msgs[0]).toMatchObject({ kind: 'login', deviceId: '868120000000042' });
    const pos = msgs.find((m) => m.kind === 'position')!;
    expect(inCity(pos.fix!.lat, pos.fix!.lon)).toBe(true);
    expect(sim.devices[0].motion).toBe('drive');
    await waitFor(() => sim.stats().acked >= 3, 5000, 'acks');
    expect(sim.stats().ackTimeouts).toBe(0);

    sock!.write(encodeGt06Command({ code: 'UPLOAD', params: { seconds: 60 } }, 1, 0x01020304));
    await waitFor(() => msgs.some((m) => m.commandResult), 3000, '0x15 reply');
    expect(msgs.find((m) => m.commandResult)!.commandResult!.text).toMatch(/^TIMER:60 OK/);
    expect(sim.devices[0].interval).toBe(60);
    sock!.write(encodeGt06Command({ code: 'FIND', params: {} }, 2));
    await waitFor(() => msgs.filter((m) => m.commandResult).length === 2, 3000, 'WHERE reply');
    expect(msgs.filter((m) => m.commandResult)[1].commandResult!.text).toMatch(
      /^Current position!Lat:N22\.\d+,Lon:E11[34]\.\d+/,
    );
    expect(sim.stats().commands).toBe(2);
    sim.trigger('868120000000042', 'sos');
    await waitFor(() => msgs.some((m) => m.alarms?.includes('sos')), 3000, 'SOS alarm');
  });
});

describe('OsmAnd over HTTP', () => {
  it('sends GET /osmand with the position and counts 200s as acks', async () => {
    const got: { url: string; ok: boolean; lat?: number; lon?: number; speed?: number; id?: string }[] = [];
    const server = http.createServer((req, res) => {
      const r = decodeOsmAnd({ method: req.method ?? 'GET', url: req.url ?? '' });
      const fix = r.ok ? r.messages[0]?.fix : undefined;
      got.push({
        url: req.url ?? '',
        ok: r.ok,
        lat: fix?.lat,
        lon: fix?.lon,
        speed: fix?.speed,
        id: r.ok ? r.deviceId : undefined,
      });
      res.writeHead(r.ok && req.url?.startsWith('/osmand?') ? 200 : 400).end();
    });
    const port = await listen(server);
    const sim = track(
      await startSimulator({
        devices: 3,
        protocol: 'osmand',
        ports: { http: port },
        interval: 1,
        seed: 4,
        motion: 'drive',
      }),
    );
    await waitFor(() => got.length >= 6 && sim.stats().acked >= 6, 8000, 'OsmAnd requests');
    for (const g of got) {
      expect(g.ok).toBe(true);
      expect(g.url).toMatch(
        /^\/osmand\?id=\d{15}&lat=[\d.]+&lon=[\d.]+&timestamp=\d{10}&speed=[\d.]+&bearing=\d+/,
      );
      expect(inCity(g.lat!, g.lon!)).toBe(true);
      expect(g.speed!).toBeLessThanOrEqual(60.5);
    }
    expect(new Set(got.map((g) => g.id))).toEqual(
      new Set(['865000000000001', '865000000000002', '865000000000003']),
    );
    expect(sim.stats()).toMatchObject({ connected: 3, errors: 0 });
  });
});

const mqttUrl = process.env.TEST_MQTT_URL;

describe.skipIf(!mqttUrl)('MQTT', () => {
  it('publishes JSON readings to devices/<imei>/up with QoS 1 and takes commands', async () => {
    const first = `86${String(Date.now()).slice(-13)}`;
    const sub = mqtt.connect(mqttUrl!);
    cleanups.push(() => new Promise<void>((r) => sub.end(false, {}, () => r())));
    const got: { topic: string; body: Record<string, unknown> }[] = [];
    sub.on('message', (topic, payload) => got.push({ topic, body: JSON.parse(payload.toString()) }));
    await new Promise<void>((resolve, reject) =>
      sub.on('connect', () => sub.subscribe(`devices/+/up`, { qos: 1 }, (e) => (e ? reject(e) : resolve()))),
    );
    const sim = track(
      await startSimulator({ devices: 2, firstImei: first, protocol: 'mqtt', mqttUrl, interval: 1, seed: 5 }),
    );
    const mine = () => got.filter((g) => g.topic.startsWith(`devices/${first.slice(0, 10)}`));
    await waitFor(() => mine().length >= 4 && sim.stats().acked >= 4, 8000, 'MQTT publishes');
    const m = mine()[0];
    const r = decodeUplink(m.body);
    expect(r.ok).toBe(true);
    expect(m.topic).toBe(`devices/${m.body.imei}/up`);
    for (const k of [
      'time',
      'lat',
      'lon',
      'speed',
      'course',
      'battery',
      'heartRate',
      'systolic',
      'diastolic',
      'bodyTemp',
      'spo2',
      'steps',
    ])
      expect(m.body).toHaveProperty(k);
    expect(inCity(m.body.lat as number, m.body.lon as number)).toBe(true);
    sub.publish(`devices/${first}/down`, JSON.stringify({ code: 'UPLOAD', params: { seconds: 45 } }), {
      qos: 1,
    });
    await waitFor(() => sim.device(first)!.interval === 45, 3000, 'interval change');
    sim.trigger(first, 'fall');
    await waitFor(() => mine().some((g) => g.body.alarm === 'fall'), 3000, 'fall alarm');
  });
});
