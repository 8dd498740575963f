// The project map's call (/Scene/ProjectMap): every scene of the caller's subtree, enabled or not,
// with its floors and anchors counted and the tags of the caller's subtree seen in it within the
// last 10 minutes; another tenant's scenes and tags never appear, and a caller whose pages do not
// hold the project map is refused.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../src/lib/sql.js';
import { CLEAN_SVG, pngDataUrl, svgDataUrl } from './images.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

type Item = { SceneId: number; Name: string; UserId: number; Enabled: boolean; FloorCount: number; AnchorCount: number; TagCount: number; Lat: number; Lon: number };

describe.each(databases())('the project map on %s', (kind) => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const made = async (path: string, body: Record<string, unknown>, who: string, key: string) => {
    const r = await p.call(path, body, tokens[who]!);
    expect(r.body.State, JSON.stringify(r.body)).toBe(200);
    return r.body[key] as number;
  };
  const scene = (who: string, name: string, lat: number, lon: number, extra: Record<string, unknown> = {}) =>
    made('/Scene/addSceneInfo', { Name: name, Lat: lat, Lon: lon, Address: `${name} 地址`, BeaconType: 1, Method: 2, MapSvg: svgDataUrl(CLEAN_SVG), ...extra }, who, 'SceneId');
  const floor = (who: string, sceneId: number, no: number) =>
    made('/Scene/addFoorsInfo', { SceneId: sceneId, FloorNo: no, Name: `${no} 楼`, Description: '楼层', Type: 1, Plan: pngDataUrl(40, 30) }, who, 'FloorId');
  let minor = 0;
  const anchor = (who: string, floorId: number) => {
    minor += 1;
    const hex = minor.toString(16).padStart(4, '0');
    return made('/Scene/addBeaconsInfoByMonitor', { FloorId: floorId, Name: `B${minor}`, Mac: `ac-23-3f-b0-${hex.slice(0, 2)}-${hex.slice(2)}`, Code: 'E2C56DB5DFFB48D2B060D0F5A7109901', Major: 7, Minor: minor, Type: 1, X: 1, Y: 1 }, who, 'BeaconId');
  };
  const devicesOf = async (account: string, n: number) =>
    (await rows<{ id: number }>(p.deps.database.db, sql`SELECT id FROM devices WHERE account_id = ${ids[account]} ORDER BY id LIMIT ${n}`)).map((r) => Number(r.id));
  const seen = async (deviceId: number, sceneId: number, floorId: number, ago: string) => {
    const { db } = p.deps.database;
    await db.execute(sql`INSERT INTO device_state (device_id) VALUES (${deviceId}) ON CONFLICT (device_id) DO NOTHING`);
    await db.execute(sql`UPDATE device_state SET indoor_scene_id = ${sceneId}, indoor_floor_id = ${floorId}, indoor_x = 1, indoor_y = 1,
      indoor_method = 2, indoor_time = now() - ${ago}::interval WHERE device_id = ${deviceId}`);
  };
  const projectMap = async (who: string) => {
    const r = await p.call('/Scene/ProjectMap', {}, tokens[who]!);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body as { Minutes: number; Items: Item[] };
  };

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    // Scene pages are the administrator type's (3): agent01 (above clinic01) and operator01 (its sibling) are made so.
    await p.deps.database.db.execute(sql`UPDATE accounts SET user_type = 3 WHERE login_name IN ('agent01', 'clinic01', 'operator01')`);
    for (const name of ['admin', 'agent01', 'clinic01', 'operator01', 'viewer01']) {
      const l = await p.login(name);
      tokens[name] = l.token;
      ids[name] = l.userId;
    }
  });
  afterAll(() => p?.stop());

  it("answers the subtree's scenes with floors, anchors and recent tags counted, never another tenant's", async () => {
    // agent01's building: two floors, three anchors; clinic01's (below agent01) is disabled, no floors.
    const tower = await scene('agent01', '南山大厦', 22.54, 113.93);
    const ground = await floor('agent01', tower, 1);
    const upper = await floor('agent01', tower, 2);
    await anchor('agent01', ground);
    await anchor('agent01', ground);
    await anchor('agent01', upper);
    const clinic = await scene('clinic01', '福田诊所', 22.53, 114.05, { Enabled: false });
    const clinicFloor = await floor('clinic01', clinic, 1);
    // operator01's (a sibling tenant) building.
    const depot = await scene('operator01', '龙岗仓库', 22.72, 114.25);
    const depotFloor = await floor('operator01', depot, 1);

    const [recent, older, stale, inClinic] = await devicesOf('clinic01', 4);
    const [sibling, siblingOld] = await devicesOf('operator01', 2);
    await seen(recent!, tower, ground, '1 minute');
    await seen(older!, tower, upper, '9 minutes');
    await seen(stale!, tower, ground, '11 minutes'); // not within the last 10 minutes
    await seen(inClinic!, clinic, clinicFloor, '2 minutes');
    await seen(sibling!, tower, ground, '1 minute'); // another tenant's tag in agent01's building: not counted
    await seen(siblingOld!, depot, depotFloor, '3 minutes');

    const agent = await projectMap('agent01');
    expect(agent.Minutes).toBe(10);
    expect(agent.Items.map((s) => [s.Name, s.UserId, s.Enabled, s.FloorCount, s.AnchorCount, s.TagCount, s.Lat, s.Lon])).toEqual([
      ['南山大厦', ids.agent01, true, 2, 3, 2, 22.54, 113.93],
      ['福田诊所', ids.clinic01, false, 1, 0, 1, 22.53, 114.05],
    ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)));
    expect(agent.Items.some((s) => s.SceneId === depot)).toBe(false);

    // clinic01 sees its own building only (not the one of the account above it).
    expect((await projectMap('clinic01')).Items.map((s) => [s.SceneId, s.TagCount])).toEqual([[clinic, 1]]);
    // The sibling sees its building and its own tag only; none of agent01's.
    const operator = await projectMap('operator01');
    expect(operator.Items.find((s) => s.SceneId === depot)?.TagCount).toBe(1);
    expect(operator.Items.some((s) => s.SceneId === tower || s.SceneId === clinic)).toBe(false);
    // The root sees all three, the sibling's tag in agent01's building counted too.
    const root = await projectMap('admin');
    expect(root.Items.filter((s) => [tower, clinic, depot].includes(s.SceneId)).map((s) => [s.SceneId, s.TagCount]).sort()).toEqual(
      [[tower, 3], [clinic, 1], [depot, 1]].sort(),
    );
  });

  it('is refused to a caller whose pages do not hold the project map', async () => {
    const r = await p.call('/Scene/ProjectMap', {}, tokens.viewer01!, { 'accept-language': 'en' });
    expect([r.status, (r.body as { Message?: string }).Message]).toEqual([403, 'common.forbidden']);
  });
});
