// Indoor positioning end to end, on the demo care home (seeded with every test platform): reports
// as the hardware sends them (the simulator's indoor mode over the HTTP uplink, MQTT when a broker
// is given) become stored indoor positions (positions rows with scene, floor, plan x/y and method;
// device state), broadcast with their indoor part on the realtime socket, answered by the live
// map's calls; gateways hearing each other feed the calibration, whose fit can be applied.
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bleScan, startIndoorSimulator, CARE_HOME, Rng, Walker, WalkGraph, type IndoorSimulator } from '@wt/simulator';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { RealtimeClient } from './monitor-fixtures.js';
import { newToken } from '../src/modules/integration/repo.js';
import { indoorPositionings } from '../src/modules/indoor/service.js';
import { INDOOR_DEMO_INTEGRATION, indoorDemoTags } from '../src/seed/indoor.js';

const tags = indoorDemoTags();
const wearable = tags.find((t) => t.kind === 'wearable')!;
const asset = tags.find((t) => t.kind === 'asset')!;
const uwbTag = tags.find((t) => t.kind === 'uwb')!;
const aoaTag = tags.find((t) => t.kind === 'aoa')!;

/** Polls until `test` answers something truthy (the pipeline commits in batches). */
async function eventually<T>(test: () => Promise<T | undefined | null | false>, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await test();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(databases())('indoor positioning on %s', (kind) => {
  let p: TestPlatform;
  let sim: IndoorSimulator | undefined;
  let url: string;
  let token: string;
  let sceneId: number;
  const floors = new Map<string, number>();
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => p.deps.database.query<T>(text, params);
  const post = (body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) });
  const deviceId = async (imei: string) => Number((await q<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [imei]))[0]!.id);
  const lastIndoor = (id: number) =>
    q<{ scene_id: number; floor_id: number; x: number; y: number; method: number; lat: number; lon: number; accuracy: number }>(
      'SELECT scene_id, floor_id, x, y, method, lat, lon, accuracy FROM positions WHERE device_id = $1 AND scene_id IS NOT NULL ORDER BY time DESC LIMIT 1',
      [id],
    ).then((r) => r[0]);

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    const [scene] = await q<{ id: number }>(`SELECT id FROM scenes WHERE name = '阳光护理院'`);
    sceneId = Number(scene!.id);
    for (const f of await q<{ id: number; floor_no: number }>('SELECT id, floor_no FROM floors WHERE scene_id = $1', [sceneId])) floors.set(`F${f.floor_no}`, Number(f.id));
    const t = newToken();
    token = t.token;
    await q('UPDATE integrations SET token_hash = $2 WHERE name = $1', [INDOOR_DEMO_INTEGRATION, t.hash]);
    url = `${p.url}/api/ingest/${INDOOR_DEMO_INTEGRATION}`;
  });
  afterAll(async () => {
    await sim?.stop();
    await p?.stop();
  });

  it('places a walking wearable and an asset tag heard by the gateways on the right floor, stored, broadcast and on the live map', async () => {
    const operator = await p.login('operator01');
    const rt = await RealtimeClient.connect(p.url, operator.token, operator.userId);
    sim = await startIndoorSimulator({ tags: [{ id: wearable.id, kind: 'wearable' }, { id: asset.id, kind: 'asset' }], http: { url, token }, intervalMs: 3_600_000, calibrationEverySeconds: 0, seed: 3 });
    const wearableId = await deviceId(wearable.imei);
    const assetId = await deviceId(asset.imei);
    // A few rounds: the wearable is solved at once, the asset when its gateway window closes.
    for (let i = 0; i < 4; i++) await sim.tick();
    const w = await eventually(() => lastIndoor(wearableId));
    const truth = sim.truth(wearable.id)!;
    expect(Number(w.scene_id)).toBe(sceneId);
    expect(Number(w.floor_id)).toBe(floors.get(truth.floorId));
    expect(Number(w.method)).toBe(2); // trilateration: the demo scene's method
    // Within the building's plan, and a few metres of the truth at worst (sigma 4 dB, uncalibrated anchors).
    expect(Number(w.x)).toBeGreaterThanOrEqual(0);
    expect(Number(w.x)).toBeLessThanOrEqual(40);
    expect(Math.hypot(Number(w.x) - truth.x, Number(w.y) - truth.y)).toBeLessThan(8);
    // WGS-84 from the floor's georeference: near the plan's origin corner (40 m x 20 m building).
    expect(Math.abs(Number(w.lat) - CARE_HOME.floors[0]!.geo.originLat)).toBeLessThan(0.001);
    expect(Math.abs(Number(w.lon) - CARE_HOME.floors[0]!.geo.originLon)).toBeLessThan(0.001);
    expect(Number(w.accuracy)).toBeGreaterThan(0);
    const a = await eventually(() => lastIndoor(assetId));
    expect(Number(a.floor_id)).toBe(floors.get(sim.truth(asset.id)!.floorId));

    const [state] = await q<{ indoor_scene_id: number; indoor_time: Date; fix_time: Date }>('SELECT indoor_scene_id, indoor_time, fix_time FROM device_state WHERE device_id = $1', [wearableId]);
    expect(Number(state!.indoor_scene_id)).toBe(sceneId);
    expect(new Date(state!.indoor_time).getTime()).toBe(new Date(state!.fix_time).getTime());

    const live = await rt.until((m) => m.type === 'devices' && m.devices.some((d) => d.i === wearableId && d.in));
    const change = live.type === 'devices' ? live.devices.find((d) => d.i === wearableId)! : undefined;
    expect(change?.in).toMatchObject({ sc: sceneId, f: floors.get(truth.floorId), mt: 'trilateration' });
    rt.close();

    const now = (await p.call('/Scene/sceneInfoByMonitorForServer', { SceneId: sceneId }, operator.token)).body;
    expect(now.Items.map((d: { DeviceId: number }) => d.DeviceId)).toEqual(expect.arrayContaining([wearableId, assetId]));
    const track = (await p.call('/Scene/deviceHistoryForScene', { DeviceId: wearableId, StartTime: new Date(Date.now() - 3_600_000).toISOString(), EndTime: new Date(Date.now() + 60_000).toISOString() }, operator.token)).body;
    expect(track.Items.length).toBeGreaterThanOrEqual(1);
    expect(track.Items[0]).toMatchObject({ SceneId: sceneId, Method: 'trilateration' });
  });

  it('passes UWB coordinates through and intersects AOA bearings; an outdoor fix ends the indoor state', async () => {
    const uwbAnchor = CARE_HOME.anchors.find((a) => a.kind === 'uwb')!;
    expect((await post({ tagId: uwbTag.imei, gatewayId: uwbAnchor.key, x: 6.2, y: 4.1, quality: 90 })).status).toBe(200);
    const uwbId = await deviceId(uwbTag.imei);
    const u = await eventually(() => lastIndoor(uwbId));
    expect([Number(u.method), Number(u.floor_id)]).toEqual([3, floors.get('F1')]);
    expect(Math.hypot(Number(u.x) - 6.2, Number(u.y) - 4.1)).toBeLessThan(0.05);

    // Two locators looking into the dining hall see a tag at (24, 16).
    const target = { x: 24, y: 16 };
    const angles = CARE_HOME.locators.map((l) => {
      const az = (Math.atan2(target.y - l.y, target.x - l.x) * 180) / Math.PI - l.heading;
      return { locator: l.key, azimuth: Math.round(az * 100) / 100 };
    });
    expect((await post({ tagId: aoaTag.imei, angles })).status).toBe(200);
    const aoaId = await deviceId(aoaTag.imei);
    const o = await eventually(() => lastIndoor(aoaId));
    expect(Number(o.method)).toBe(4);
    expect(Math.hypot(Number(o.x) - target.x, Number(o.y) - target.y)).toBeLessThan(0.3);

    // The same tag then reports an outdoor GPS fix: its latest fix is no longer indoors.
    expect((await post({ imei: aoaTag.imei, lat: 22.6, lon: 114.1 })).status).toBe(200);
    await eventually(async () => {
      const [s] = await q<{ lat: number }>('SELECT lat FROM device_state WHERE device_id = $1', [aoaId]);
      return Number(s?.lat) === 22.6;
    });
    const operator = await p.login('operator01');
    const now = (await p.call('/Scene/sceneInfoByMonitorForServer', { SceneId: sceneId }, operator.token)).body;
    expect(now.Items.map((d: { DeviceId: number }) => d.DeviceId)).not.toContain(aoaId);
  });

  it('gives the same positions for scans sent live and sent 15 minutes late in one batch, run after run', async () => {
    // 4 s of a walking wearable scanning every 400 ms, and of an asset tag heard by the gateways
    // (each gateway posting what it heard) every 400 ms; reports of one tick a few ms apart.
    const rng = new Rng(11);
    const graph = new WalkGraph(CARE_HOME);
    const walkers = [new Walker(graph, 101, 0), new Walker(graph, 202, 0)];
    type Report = { t: number; body: (id: string, time: number) => Record<string, unknown> };
    const wearableReports: Report[] = [];
    const assetReports: Report[] = [];
    for (let t = 0; t < 4000; t += 400) {
      const heard = bleScan(CARE_HOME, walkers[0]!.truth(t), rng);
      wearableReports.push({ t, body: (imei, time) => ({ imei, time, beacons: heard.map((h) => ({ mac: h.anchor, rssi: h.rssi })) }) });
      bleScan(CARE_HOME, walkers[1]!.truth(t), rng)
        .slice(0, 4)
        .forEach((h, k) => assetReports.push({ t: t + k * 5, body: (mac, time) => ({ gatewayId: h.anchor, time, tags: [{ mac, rssi: h.rssi }] }) }));
    }
    const wearables = tags.filter((t) => t.kind === 'wearable').slice(1, 4);
    const assets = tags.filter((t) => t.kind === 'asset').slice(1, 4);
    /** Sends run `i`'s reports with device times from `base`; live: each when its time comes, else back to back. */
    const send = async (i: number, base: number, live: boolean) => {
      const all = [...wearableReports.map((r) => ({ r, id: wearables[i]!.id })), ...assetReports.map((r) => ({ r, id: assets[i]!.id }))].sort((a, b) => a.r.t - b.r.t);
      for (const { r, id } of all) {
        const time = base + r.t;
        if (live && time > Date.now()) await new Promise((ok) => setTimeout(ok, time - Date.now()));
        expect((await post(r.body(id, time))).status).toBe(200);
      }
    };
    const liveBase = Date.now() + 200;
    await send(0, liveBase, true);
    const lateBase = liveBase - 15 * 60_000;
    // Twice, side by side: two runs of the same upload.
    await Promise.all([send(1, lateBase, false), send(2, lateBase, false)]);

    const ids = await Promise.all([...wearables, ...assets].map((t) => deviceId(t.imei)));
    const track = async (id: number, base: number) =>
      (
        await q<{ t: string; floor_id: number; x: number; y: number; method: number }>(
          `SELECT (extract(epoch FROM time) * 1000)::bigint - $2 AS t, floor_id, x, y, method FROM positions WHERE device_id = $1 AND scene_id IS NOT NULL ORDER BY time`,
          [id, base],
        )
      ).map((r) => [Number(r.t), Number(r.floor_id), Number(r.x), Number(r.y), Number(r.method)]);
    const tracks = async () => Promise.all(ids.map((id, k) => track(id, k % 3 === 0 ? liveBase : lateBase)));
    // Every scan is solved at once; the asset's windows are 1 s of device time (three ticks), four
    // of them, the last solved when nothing more has come (a little longer for a late upload).
    const scans = wearableReports.length;
    const [w0, w1, w2, a0, a1, a2] = await eventually(async () => {
      const all = await tracks();
      return all.every((x, k) => x.length >= (k < 3 ? scans : 4)) && all;
    }, 30_000);
    expect(w1).toEqual(w0);
    expect(w2).toEqual(w0);
    expect(a1).toEqual(a0);
    expect(a2).toEqual(a0);
  });

  it('fits the floor from gateways hearing each other, and applies the fit', async () => {
    const gatherer = await startIndoorSimulator({ tags: [], http: { url, token }, intervalMs: 3_600_000, calibrationEverySeconds: 0.001, seed: 5 });
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 2));
      await gatherer.tick();
    }
    await gatherer.stop();
    const positioning = indoorPositionings.get(p.deps)!;
    await eventually(async () => {
      await positioning.writeHearings();
      const [r] = await q<{ n: number }>('SELECT count(*)::int AS n FROM anchor_hearings WHERE floor_id = $1', [floors.get('F1')]);
      return Number(r!.n) > 20;
    });
    const admin = await p.login('admin');
    const fit = await p.call('/Scene/Calibrate', { FloorId: floors.get('F1') }, admin.token);
    expect(fit.body.State).toBe(200);
    const item = fit.body.Item;
    // The building's floor 1 has exponent 2.2 and anchors around -59 dBm: the fit finds them better than the defaults do.
    expect(item.Exponent).toBeGreaterThan(1.8);
    expect(item.Exponent).toBeLessThan(2.7);
    expect(item.Anchors.length).toBeGreaterThan(10);
    expect(item.RmsDb).toBeLessThanOrEqual(item.BeforeRmsDb);
    const applied = await p.call('/Scene/ApplyCalibration', { FloorId: item.FloorId, Exponent: item.Exponent, Anchors: item.Anchors.map((a: { BeaconId: number; Rssi1m: number }) => ({ BeaconId: a.BeaconId, Rssi1m: a.Rssi1m })) }, admin.token);
    expect(applied.body.State).toBe(200);
    const [floor] = await q<{ exponent: number }>('SELECT exponent FROM floors WHERE id = $1', [item.FloorId]);
    expect(Number(floor!.exponent)).toBeCloseTo(item.Exponent, 2);
    const first = item.Anchors[0];
    const [anchor] = await q<{ rssi_1m: number }>('SELECT rssi_1m FROM scene_anchors WHERE id = $1', [first.BeaconId]);
    expect(Number(anchor!.rssi_1m)).toBeCloseTo(first.Rssi1m, 1);
    // A floor whose gateways heard nothing: refused, with the figures.
    await q('DELETE FROM anchor_hearings WHERE floor_id = $1', [floors.get('F2')]);
    const none = await p.call('/Scene/Calibrate', { FloorId: floors.get('F2'), Minutes: 5 }, admin.token);
    expect([none.status, none.body.Message, none.body.Params]).toEqual([409, 'scene.calibrationTooFew', { minutes: 5, pairs: 0, min: 6 }]);
    const sibling = await p.call('/Scene/Calibrate', { FloorId: floors.get('F1') }, (await p.login('agent01')).token);
    expect([sibling.status, sibling.body.Message]).toEqual([403, expect.any(String)]);
  });

  it.skipIf(!process.env.TEST_MQTT_URL)('takes a wearable scan over MQTT and stores its indoor position', async () => {
    const prefix = `indoor-${Date.now()}`;
    const mp = await startTestPlatform(kind, { MQTT_URL: process.env.TEST_MQTT_URL!, MQTT_TOPIC: `${prefix}/+/up`, MQTT_CLIENT_ID: prefix });
    try {
      const pub = await mqtt.connectAsync(process.env.TEST_MQTT_URL!);
      const heard = CARE_HOME.anchors.filter((a) => a.floorId === 'F2' && a.kind === 'ble').slice(0, 6);
      // The tag stands at (12, 4) on floor 2: RSSI from the true model, no noise.
      const beacons = heard.map((a) => ({ mac: a.key, rssi: Math.round(a.rssi1m - 20 * Math.log10(Math.max(1, Math.hypot(a.x - 12, a.y - 4, a.height - 1.2)))) }));
      await pub.publishAsync(`${prefix}/${wearable.imei}/up`, JSON.stringify({ beacons }), { qos: 1 });
      const id = Number((await mp.deps.database.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [wearable.imei]))[0]!.id);
      const row = await eventually(() =>
        mp.deps.database
          .query<{ floor_id: number; x: number; y: number }>('SELECT floor_id, x, y FROM positions WHERE device_id = $1 AND scene_id IS NOT NULL LIMIT 1', [id])
          .then((r) => r[0]),
      );
      const [f2] = await mp.deps.database.query<{ id: number }>(`SELECT f.id FROM floors f JOIN scenes s ON s.id = f.scene_id WHERE s.name = '阳光护理院' AND f.floor_no = 2`);
      expect(Number(row.floor_id)).toBe(Number(f2!.id));
      expect(Math.hypot(Number(row.x) - 12, Number(row.y) - 4)).toBeLessThan(3);
      await pub.endAsync();
    } finally {
      await mp.stop();
    }
  });
});
