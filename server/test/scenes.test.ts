// Indoor scene calls: scenes, floors and anchors with good and bad input (each refusal naming its
// field), the refusals of SPEC §8 (anchors deployed), the limit of 5 scenes per owner (also against
// two creates at once), the subtree scope (a sibling's ids are "not found"; the live map's reads also
// show the scenes of the accounts above, never the root's nor a sibling's), uploads checked by
// content and SVG maps sanitized (a hostile corpus), the file routes, the devices indoors now and an
// indoor track from rows written directly, and scenes going with their owner account.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scene as schemas } from '@wt/contract';
import { rows } from '../src/lib/sql.js';
import { planToGeo } from '../src/indoor/index.js';
import { CLEAN_SVG, pngBase64, pngBytes, pngDataUrl, svgBase64, svgDataUrl } from './images.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

type Fields = { Fields?: { Field: string; Message: string; Params?: unknown }[] };

/** Each entry: an SVG map, and strings none of which may be left in what is served. */
const HOSTILE: { name: string; svg: string; gone: string[] }[] = [
  {
    name: 'script element',
    svg: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><rect width="5" height="5"/></svg>',
    gone: ['<script', 'alert('],
  },
  {
    name: 'event handler attributes',
    svg: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="5" height="5" onclick="alert(2)" onmouseover="alert(3)"/><animate onbegin="alert(4)" attributeName="x"/></svg>',
    gone: ['onload', 'onclick', 'onmouseover', 'onbegin', 'alert('],
  },
  {
    name: 'javascript: and external hrefs',
    svg: '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a href="javascript:alert(1)"><rect width="5" height="5"/></a><use xlink:href="http://evil.example/sprite.svg#x"/><image href="https://evil.example/a.png" width="5" height="5"/><use href="javascript:alert(2)"/></svg>',
    gone: ['javascript:', 'evil.example'],
  },
  {
    name: 'external url() in style attributes',
    svg: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5" style="fill:url(http://evil.example/p.svg#g)"/><rect width="5" height="5" fill="url(https://evil.example/q#r)"/><rect width="5" height="5" style="background:url(&quot;//evil.example/x&quot;)"/></svg>',
    gone: ['evil.example'],
  },
  {
    name: 'foreignObject, iframe and embed',
    // The shape comes first: HTML elements inside an SVG end the SVG when it is parsed (as browsers do).
    svg: '<svg xmlns="http://www.w3.org/2000/svg"><rect width="5" height="5"/><foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><iframe src="https://evil.example/"></iframe></body></foreignObject><iframe src="https://evil.example/f"></iframe><embed src="https://evil.example/e.swf"/><object data="https://evil.example/o"></object></svg>',
    gone: ['foreignObject', 'foreignobject', '<iframe', '<embed', '<object', 'evil.example'],
  },
  {
    name: 'style sheet',
    svg: '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/s.css);</style><rect width="5" height="5"/></svg>',
    gone: ['<style', '@import', 'evil.example'],
  },
];

/** Entity declarations: the map is refused whole (nothing of it is stored). */
const ENTITIES = [
  '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x "boom">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>',
  '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY ext SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&ext;</text></svg>',
];

describe.each(databases())('scene calls on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let agent: string;
  let clinic: string;
  let operator: string;
  let ids: { admin: number; agent: number; clinic: number; operator: number };
  const changes: number[][] = [];

  const fields = (body: Fields) => (body.Fields ?? []).map((f) => [f.Field, f.Message, f.Params]);
  const count = async (table: string, where = sql`TRUE`) =>
    Number(
      (
        await rows<{ n: number }>(
          p.deps.database.db,
          sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`,
        )
      )[0]!.n,
    );
  const get = (url: string) => fetch(`${p.url}${url}`);

  const sceneBody = (extra: Record<string, unknown> = {}) => ({
    Name: '康宁养老院',
    Lat: 22.54,
    Lon: 113.93,
    Address: '深圳市南山区',
    BeaconType: 1,
    Method: 1,
    MapSvg: svgDataUrl(CLEAN_SVG),
    ...extra,
  });
  const floorBody = (sceneId: number, extra: Record<string, unknown> = {}) => ({
    SceneId: sceneId,
    FloorNo: 1,
    Name: '一楼',
    Description: '大厅',
    Type: 1,
    Plan: pngDataUrl(40, 30),
    ...extra,
  });
  let macSeq = 0;
  const anchorBody = (floorId: number, extra: Record<string, unknown> = {}) => {
    macSeq += 1;
    const hex = macSeq.toString(16).padStart(4, '0');
    return {
      FloorId: floorId,
      Name: `B${macSeq}`,
      Mac: `ac-23-3f-a0-${hex.slice(0, 2)}-${hex.slice(2)}`,
      Code: 'FDA50693A4E24FB1AFCFC6EB07647825',
      Major: 10001,
      Minor: macSeq,
      Type: 1,
      X: 3.5,
      Y: 4.25,
      ...extra,
    };
  };
  const newScene = async (token: string, extra: Record<string, unknown> = {}) => {
    const r = await p.call('/Scene/addSceneInfo', sceneBody(extra), token);
    expect(r.body.State, JSON.stringify(r.body)).toBe(200);
    return r.body.SceneId as number;
  };
  const newFloor = async (token: string, sceneId: number, extra: Record<string, unknown> = {}) => {
    const r = await p.call('/Scene/addFoorsInfo', floorBody(sceneId, extra), token);
    expect(r.body.State, JSON.stringify(r.body)).toBe(200);
    return r.body.FloorId as number;
  };
  const newAnchor = async (token: string, floorId: number, extra: Record<string, unknown> = {}) => {
    const r = await p.call('/Scene/addBeaconsInfoByMonitor', anchorBody(floorId, extra), token);
    expect(r.body.State, JSON.stringify(r.body)).toBe(200);
    return r.body.BeaconId as number;
  };

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    const { db } = p.deps.database;
    // The scene editing calls are the administrator type's (3); agent01, clinic01 and operator01 are
    // made administrators of their own subtrees here so the scope is tested below the root.
    await db.execute(
      sql`UPDATE accounts SET user_type = 3 WHERE login_name IN ('agent01', 'clinic01', 'operator01')`,
    );
    const a = await p.login();
    const g = await p.login('agent01');
    const c = await p.login('clinic01');
    const o = await p.login('operator01');
    admin = a.token;
    agent = g.token;
    clinic = c.token;
    operator = o.token;
    ids = { admin: a.userId, agent: g.userId, clinic: c.userId, operator: o.userId };
    p.deps.bus.subscribe<{ sceneIds: number[] }>(schemas.SCENES_CHANGED_TOPIC, (e) =>
      changes.push(e.sceneIds),
    );
  });
  afterAll(() => p?.stop());

  it('creates, lists, edits and deletes a scene, announcing each change', async () => {
    changes.length = 0;
    const icon = pngBase64(16, 16);
    const made = await p.call('/Scene/addSceneInfo', sceneBody({ Name: '一号楼', Icon: icon }), agent);
    expect(made.status).toBe(200);
    const id = made.body.SceneId as number;
    expect(changes).toEqual([[id]]);

    const listed = await p.call('/Scene/SceneInfoList', { Name: '一号' }, agent);
    expect(listed.body.Total).toBe(1);
    const item = listed.body.Items[0];
    expect(item).toMatchObject({
      SceneId: id,
      UserId: ids.agent,
      OwnerLoginName: 'agent01',
      Name: '一号楼',
      Lat: 22.54,
      Lon: 113.93,
      Address: '深圳市南山区',
      Enabled: true,
      BeaconType: 1,
      Method: 1,
      FloorCount: 0,
      AnchorCount: 0,
    });
    expect(item.MapUrl).toMatch(new RegExp(`^/api/scene/map/${id}-[a-f0-9]{32}\\.svg$`));
    expect(item.IconUrl).toMatch(new RegExp(`^/api/scene/icon/${id}-[a-f0-9]{32}$`));
    const iconRes = await get(item.IconUrl);
    expect(iconRes.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await iconRes.arrayBuffer()).equals(Buffer.from(icon, 'base64'))).toBe(true);

    // The ByMonitor edit, without a map: the map is kept; '' removes the icon.
    const edited = await p.call(
      '/Scene/editSceneInfoByMonitor',
      {
        ...sceneBody({ Name: '一号楼 A', BeaconType: 2, Method: 2, Enabled: false }),
        MapSvg: undefined,
        SceneId: id,
        Icon: '',
      },
      agent,
    );
    expect(edited.body).toEqual({ State: 200, SceneId: id });
    const [after] = (await p.call('/Scene/SceneInfoList', { Name: '一号' }, agent)).body.Items;
    expect(after).toMatchObject({
      Name: '一号楼 A',
      BeaconType: 2,
      Method: 2,
      Enabled: false,
      MapUrl: item.MapUrl,
      IconUrl: null,
    });
    expect((await get(item.IconUrl)).status).toBe(404);
    // A new map gets a new key; the old URL answers nothing.
    await p.call(
      '/Scene/editSceneInfo',
      {
        ...sceneBody({ Name: '一号楼 A' }),
        SceneId: id,
        MapSvg: svgBase64(CLEAN_SVG.replace('Hall', 'Lobby')),
      },
      agent,
    );
    const [third] = (await p.call('/Scene/SceneInfoList', { Name: '一号' }, agent)).body.Items;
    expect(third.MapUrl).not.toBe(item.MapUrl);
    expect((await get(item.MapUrl)).status).toBe(404);
    expect(await (await get(third.MapUrl)).text()).toContain('Lobby');
    expect((await p.call('/Scene/SceneInfoList', { Enabled: false, Name: '一号' }, agent)).body.Total).toBe(
      0,
    );

    changes.length = 0;
    const del = await p.call('/Scene/DelSceneInfoByMonitor', { SceneIds: [id, 999999] }, agent);
    expect(del.body).toEqual({
      State: 200,
      Succeeded: 1,
      Failed: [{ Imei: '999999', Message: 'scene.notFound' }],
    });
    expect(changes).toEqual([[id]]);
    expect(await count('scenes', sql`id = ${id}`)).toBe(0);
  });

  it('refuses bad scene input, naming the field', async () => {
    const before = await count('scenes');
    const cases: [Record<string, unknown>, unknown[]][] = [
      [{ Name: '' }, ['Name', 'scene.nameRequired']],
      [{ Address: undefined }, ['Address', 'scene.addressRequired']],
      [{ BeaconType: 3 }, ['BeaconType', 'scene.beaconTypeInvalid']],
      [{ Method: undefined }, ['Method', 'scene.methodRequired']],
      [{ MapSvg: undefined }, ['MapSvg', 'scene.mapRequired']],
      // A PNG named an SVG: recognised by its bytes.
      [{ MapSvg: `data:image/svg+xml;base64,${pngBase64(4, 4)}` }, ['MapSvg', 'scene.mapType', undefined]],
      [{ MapSvg: 'not base64 at all!' }, ['MapSvg', 'scene.mapType', undefined]],
      [{ Icon: svgBase64('hello') }, ['Icon', 'scene.iconInvalid', { max: 256 }]],
      [{ Icon: pngBase64(4, 4).slice(0, 40) }, ['Icon', 'scene.iconInvalid', { max: 256 }]],
    ];
    for (const [extra, expected] of cases) {
      const r = await p.call('/Scene/addSceneInfo', sceneBody(extra), agent);
      expect(r.status, JSON.stringify(extra).slice(0, 80)).toBe(400);
      expect(fields(r.body)[0]!.slice(0, expected.length)).toEqual(expected);
    }
    // Another tenant as owner: not in scope.
    const foreign = await p.call('/Scene/addSceneInfo', sceneBody({ UserId: ids.operator }), agent);
    expect(foreign.body.Message).toBe('account.notInScope');
    // Nothing is left of a map of scripts once cleaned.
    const scripts = await p.call(
      '/Scene/addSceneInfo',
      sceneBody({
        MapSvg: svgBase64(
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><foreignObject><div>x</div></foreignObject></svg>',
        ),
      }),
      agent,
    );
    expect(fields(scripts.body)).toEqual([['MapSvg', 'scene.mapInvalid', undefined]]);
    // A text that never opens an <svg> element is not a map.
    const notSvg = await p.call(
      '/Scene/addSceneInfo',
      sceneBody({ MapSvg: svgBase64('<!-- only a comment --><html><body>hi</body></html>') }),
      agent,
    );
    expect(fields(notSvg.body)).toEqual([['MapSvg', 'scene.mapType', undefined]]);
    // 6 MB and more is refused before anything is parsed.
    const big = Buffer.alloc(schemas.SCENE_MAP_MAX_BYTES, 0x20);
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">').copy(big);
    const tooBig = await p.call('/Scene/addSceneInfo', sceneBody({ MapSvg: big.toString('base64') }), agent);
    expect(fields(tooBig.body)).toEqual([['MapSvg', 'scene.mapTooLarge', { max: 6 }]]);
    for (const svg of ENTITIES) {
      const r = await p.call('/Scene/addSceneInfo', sceneBody({ MapSvg: svgBase64(svg) }), agent);
      expect(fields(r.body)).toEqual([['MapSvg', 'scene.mapInvalid', undefined]]);
    }
    expect(await count('scenes')).toBe(before);
  });

  it('sanitizes hostile SVG maps: nothing active or external is served', async () => {
    for (const { name, svg, gone } of HOSTILE) {
      const r = await p.call(
        '/Scene/addSceneInfo',
        sceneBody({ Name: name.slice(0, 60), MapSvg: svgBase64(svg) }),
        agent,
      );
      expect(r.body.State, name).toBe(200);
      const s = (await p.call('/Scene/sceneInfoByMonitor', { SceneId: r.body.SceneId }, agent)).body.Item;
      const res = await get(s.MapUrl);
      expect(res.status).toBe(200);
      const served = await res.text();
      expect(served, name).toMatch(/^<svg[\s>]/);
      for (const g of gone) expect(served.toLowerCase(), `${name}: ${g}`).not.toContain(g.toLowerCase());
      expect(served, name).toContain('<rect');
      await p.call('/Scene/DeleteSceneInfo', { SceneIds: [r.body.SceneId] }, agent);
    }
    // A raster picture embedded in an <image> stays; an embedded SVG (which could script) does not.
    const picture = `data:image/png;base64,${pngBase64(2, 2)}`;
    const embedded = await p.call(
      '/Scene/addSceneInfo',
      sceneBody({
        MapSvg: svgBase64(
          `<svg xmlns="http://www.w3.org/2000/svg"><image href="${picture}" width="2" height="2"/><image href="data:image/svg+xml;base64,${svgBase64('<svg onload="x()"/>')}" width="2" height="2"/></svg>`,
        ),
      }),
      agent,
    );
    const withPicture = await (
      await get(
        (await p.call('/Scene/sceneInfoByMonitor', { SceneId: embedded.body.SceneId }, agent)).body.Item
          .MapUrl,
      )
    ).text();
    expect(withPicture).toContain(`href="${picture}"`);
    expect(withPicture).not.toContain('image/svg+xml');
    await p.call('/Scene/DeleteSceneInfo', { SceneIds: [embedded.body.SceneId] }, agent);
    // A clean map keeps its shapes and text.
    const clean = await p.call('/Scene/addSceneInfo', sceneBody({ MapSvg: svgDataUrl(CLEAN_SVG) }), agent);
    const item = (await p.call('/Scene/sceneInfoByMonitor', { SceneId: clean.body.SceneId }, agent)).body
      .Item;
    const served = await (await get(item.MapUrl)).text();
    for (const part of [
      '<rect',
      'id="hall"',
      '<path',
      'd="M10 40 H90"',
      '<text',
      'Hall',
      'viewBox="0 0 100 80"',
    ])
      expect(served).toContain(part);
    await p.call('/Scene/DeleteSceneInfo', { SceneIds: [clean.body.SceneId] }, agent);
  });

  it('serves files with a year of cache and a closed content policy; unknown keys are 404', async () => {
    const id = await newScene(agent, {
      Icon: svgBase64('<svg xmlns="http://www.w3.org/2000/svg" onload="x()"><circle r="3"/></svg>'),
    });
    const floorId = await newFloor(agent, id);
    const scene = (await p.call('/Scene/sceneInfoByMonitor', { SceneId: id }, agent)).body.Item;
    const floor = scene.Floors[0];
    const map = await get(scene.MapUrl);
    expect(map.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(map.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(map.headers.get('content-security-policy')).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    );
    const plan = await get(floor.PlanUrl);
    expect(plan.headers.get('content-type')).toBe('image/png');
    expect(plan.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await plan.arrayBuffer()).equals(pngBytes(40, 30))).toBe(true);
    const icon = await get(scene.IconUrl);
    expect(icon.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    const iconText = await icon.text();
    expect(iconText).toContain('<circle');
    expect(iconText).not.toContain('onload');
    const wrongKey = (url: string) => url.replace(/-[a-f0-9]{32}/, `-${'0'.repeat(32)}`);
    for (const url of [
      wrongKey(scene.MapUrl),
      wrongKey(floor.PlanUrl),
      wrongKey(scene.IconUrl),
      scene.MapUrl.replace('.svg', '.png'),
      floor.PlanUrl.replace(`/${floorId}-`, `/${floorId + 1000}-`),
      '/api/scene/map/1.svg',
      '/api/scene/map/..%2F..%2Fetc%2Fpasswd',
      '/api/scene/icon/99999999999-' + '0'.repeat(32),
    ]) {
      expect((await get(url)).status, url).toBe(404);
    }
    await p.call('/Scene/DeleteFoorsInfo', { FloorIds: [floorId] }, agent);
    await p.call('/Scene/DeleteSceneInfo', { SceneIds: [id] }, agent);
    expect((await get(floor.PlanUrl)).status).toBe(404);
    expect((await get(scene.MapUrl)).status).toBe(404);
  });

  it('keeps at most 5 scenes per owner, also against two creates at once', async () => {
    for (let i = 0; i < 4; i++) await newScene(admin, { UserId: ids.clinic, Name: `楼 ${i}` });
    const both = await Promise.all([
      p.call('/Scene/addSceneInfo', sceneBody({ UserId: ids.clinic, Name: '楼 A' }), admin),
      p.call('/Scene/addSceneInfoByMonitor', sceneBody({ UserId: ids.clinic, Name: '楼 B' }), admin),
    ]);
    expect(both.map((r) => r.body.State).sort()).toEqual([200, 409]);
    const refused = both.find((r) => r.body.State === 409)!;
    expect(refused.body.Message).toBe('scene.tooMany');
    expect(refused.body.Params).toEqual({ max: 5 });
    expect(await count('scenes', sql`owner_id = ${ids.clinic}`)).toBe(5);
    // Another owner still has room.
    const other = await newScene(admin, { UserId: ids.agent });
    await p.call('/Scene/DeleteSceneInfo', { SceneIds: [other] }, admin);
    const mine = (
      await rows<{ id: number }>(
        p.deps.database.db,
        sql`SELECT id FROM scenes WHERE owner_id = ${ids.clinic}`,
      )
    ).map((r) => Number(r.id));
    expect((await p.call('/Scene/DeleteSceneInfo', { SceneIds: mine }, clinic)).body.Succeeded).toBe(5);
  });

  it('keeps floors: plan size read from the PNG, numbers unique, bad plans refused by content', async () => {
    const sceneId = await newScene(agent);
    changes.length = 0;
    const made = await p.call(
      '/Scene/addFoorsInfo',
      floorBody(sceneId, {
        MetresPerPixel: 0.05,
        Geo: { OriginLat: 22.5, OriginLon: 113.9, Rotation: 30 },
        Exponent: 2.5,
      }),
      agent,
    );
    expect(made.body.State).toBe(200);
    const floorId = made.body.FloorId as number;
    expect(changes).toEqual([[sceneId]]);
    const list = await p.call('/Scene/FoorsInfoList', { SceneId: sceneId }, agent);
    expect(list.body.Total).toBe(1);
    expect(list.body.Items[0]).toMatchObject({
      FloorId: floorId,
      SceneId: sceneId,
      FloorNo: 1,
      Name: '一楼',
      Description: '大厅',
      Type: 1,
      Width: 40,
      Height: 30,
      MetresPerPixel: 0.05,
      Geo: { OriginLat: 22.5, OriginLon: 113.9, Rotation: 30 },
      Exponent: 2.5,
      AnchorCount: 0,
    });
    const firstPlan = list.body.Items[0].PlanUrl as string;
    expect(firstPlan).toMatch(new RegExp(`^/api/scene/plan/${floorId}-[a-f0-9]{32}\\.png$`));

    const taken = await p.call('/Scene/addFoorsInfo', floorBody(sceneId), agent);
    expect(fields(taken.body)).toEqual([['FloorNo', 'scene.floorNoTaken', { floorNo: 1 }]]);
    const corrupt = pngBytes(10, 10);
    corrupt[20] ^= 0xff; // the height, so the header's CRC no longer matches
    const wide = pngBase64(schemas.FLOOR_PLAN_MAX_SIDE + 1, 1);
    const bad: [string, unknown[]][] = [
      [svgBase64(CLEAN_SVG), ['Plan', 'scene.planType']],
      [`data:image/png;base64,${svgBase64(CLEAN_SVG)}`, ['Plan', 'scene.planType']],
      [corrupt.toString('base64'), ['Plan', 'scene.planType']],
      [pngBytes(10, 10).subarray(0, 20).toString('base64'), ['Plan', 'scene.planType']],
      [wide, ['Plan', 'scene.planTooLarge', { max: 10, side: 8000 }]],
    ];
    for (const [plan, expected] of bad) {
      const r = await p.call('/Scene/addFoorsInfo', floorBody(sceneId, { FloorNo: 2, Plan: plan }), agent);
      expect(fields(r.body)[0]!.slice(0, expected.length)).toEqual(expected);
    }
    const noName = await p.call('/Scene/addFoorsInfo', floorBody(sceneId, { FloorNo: 2, Name: '' }), agent);
    expect(fields(noName.body)[0]!.slice(0, 2)).toEqual(['Name', 'scene.floorNameRequired']);
    const badType = await p.call('/Scene/addFoorsInfo', floorBody(sceneId, { FloorNo: 2, Type: 9 }), agent);
    expect(fields(badType.body)[0]!.slice(0, 2)).toEqual(['Type', 'scene.floorTypeInvalid']);
    expect(await count('floors', sql`scene_id = ${sceneId}`)).toBe(1);

    // Edit without a plan keeps it; Geo null clears the georeference; absent fields are kept.
    const second = await newFloor(agent, sceneId, { FloorNo: 2, Plan: pngBase64(8, 6) });
    const clash = await p.call(
      '/Scene/editFoorsInfo',
      { ...floorBody(sceneId, { FloorNo: 2 }), Plan: undefined, SceneId: undefined, FloorId: floorId },
      agent,
    );
    expect(fields(clash.body)).toEqual([['FloorNo', 'scene.floorNoTaken', { floorNo: 2 }]]);
    const kept = await p.call(
      '/Scene/editFoorsInfo',
      {
        ...floorBody(sceneId, { FloorNo: -1, Name: '地下', Geo: null }),
        Plan: undefined,
        SceneId: undefined,
        FloorId: floorId,
      },
      agent,
    );
    expect(kept.body).toEqual({ State: 200, FloorId: floorId });
    const one = (await p.call('/Scene/sceneInfoByFoorId', { FloorId: floorId }, agent)).body.Item;
    expect(one).toMatchObject({
      FloorNo: -1,
      Name: '地下',
      Geo: null,
      MetresPerPixel: 0.05,
      Exponent: 2.5,
      Width: 40,
      PlanUrl: firstPlan,
      Anchors: [],
    });
    expect(one.Scene).toMatchObject({ SceneId: sceneId, FloorCount: 2 });
    const replaced = await p.call(
      '/Scene/editFoorsInfo',
      {
        ...floorBody(sceneId, { FloorNo: -1, Plan: pngBase64(64, 48) }),
        SceneId: undefined,
        FloorId: floorId,
      },
      agent,
    );
    expect(replaced.body.State).toBe(200);
    const now = (await p.call('/Scene/sceneInfoByFoorId', { FloorId: floorId }, agent)).body.Item;
    expect([now.Width, now.Height]).toEqual([64, 48]);
    expect(now.PlanUrl).not.toBe(firstPlan);
    expect((await get(firstPlan)).status).toBe(404);
    // Paged, in floor order.
    const paged = await p.call('/Scene/FoorsInfoList', { SceneId: sceneId, PageCount: 1, PageNo: 2 }, agent);
    expect(paged.body.Total).toBe(2);
    expect(paged.body.Items.map((f: { FloorId: number }) => f.FloorId)).toEqual([second]);

    // At most MAX_FLOORS a scene: the rest are written directly, numbered from 100.
    const { db } = p.deps.database;
    await db.execute(sql`INSERT INTO floors (scene_id, floor_no, name, kind, plan, plan_key, width, height)
      SELECT ${sceneId}, 100 + n, 'F' || n, 1, ${pngBytes(2, 2)}, md5(n::text), 2, 2 FROM generate_series(1, ${schemas.MAX_FLOORS - 2}) n`);
    const full = await p.call('/Scene/addFoorsInfo', floorBody(sceneId, { FloorNo: 3 }), agent);
    expect([full.status, full.body.Message, full.body.Params]).toEqual([
      409,
      'scene.floorsMax',
      { max: schemas.MAX_FLOORS },
    ]);
    await db.execute(sql`DELETE FROM floors WHERE scene_id = ${sceneId} AND floor_no >= 100`);

    const del = await p.call('/Scene/DeleteFoorsInfo', { FloorIds: [floorId, second, 999999] }, agent);
    expect(del.body).toEqual({
      State: 200,
      Succeeded: 2,
      Failed: [{ Imei: '999999', Message: 'scene.floorNotFound' }],
    });
    await p.call('/Scene/DeleteSceneInfo', { SceneIds: [sceneId] }, agent);
  });

  it('keeps anchors: MAC normalized, duplicates refused, types fitting the scene, batch edits', async () => {
    const sceneId = await newScene(agent);
    const floorId = await newFloor(agent, sceneId);
    changes.length = 0;
    const body = anchorBody(floorId, { Mac: 'ac233fa0ff01', Heading: 90, Rssi1m: -61.5, Height: 3 });
    const made = await p.call('/Scene/addBeaconsInfoByMonitor', body, agent);
    expect(made.body.State).toBe(200);
    const id = made.body.BeaconId as number;
    expect(changes).toEqual([[sceneId]]);
    const listed = await p.call('/Scene/BeaconsInfoList', { SceneId: sceneId }, agent);
    expect(listed.body.Total).toBe(1);
    expect(listed.body.Items[0]).toMatchObject({
      BeaconId: id,
      SceneId: sceneId,
      FloorId: floorId,
      Mac: 'AC:23:3F:A0:FF:01',
      Code: body.Code,
      Major: 10001,
      Minor: body.Minor,
      Type: 1,
      State: 1,
      X: 3.5,
      Y: 4.25,
      Height: 3,
      Heading: 90,
      Rssi1m: -61.5,
    });
    // The same MAC written otherwise, and the same code (in another case) with major and minor.
    const sameMac = await p.call(
      '/Scene/addBeaconsInfoByMonitor',
      anchorBody(floorId, { Mac: 'AC:23:3F:A0:FF:01' }),
      agent,
    );
    expect([sameMac.status, sameMac.body.Message]).toEqual([409, 'scene.macTaken']);
    const sameCode = await p.call(
      '/Scene/addBeaconsInfoByMonitor',
      anchorBody(floorId, { Code: body.Code.toLowerCase(), Minor: body.Minor }),
      agent,
    );
    expect([sameCode.status, sameCode.body.Message]).toEqual([409, 'scene.macTaken']);
    // A BLE beacon does not fit a UWB scene; a UWB anchor (a UWB wing) and an AOA locator fit a Bluetooth one.
    const uwbScene = await newScene(agent, { BeaconType: 2 });
    const uwbFloor = await newFloor(agent, uwbScene);
    const ble = await p.call('/Scene/addBeaconsInfoByMonitor', anchorBody(uwbFloor, { Type: 1 }), agent);
    expect(fields(ble.body)).toEqual([['Type', 'scene.anchorTypeScene', { sceneType: 'UWB', allowed: 'UWB, AOA' }]]);
    const uwbHere = await p.call('/Scene/addBeaconsInfoByMonitor', anchorBody(floorId, { Type: 2, Mac: 'AC:23:3F:A0:FF:0E', Minor: 4242 }), agent);
    expect(uwbHere.body.State).toBe(200);
    expect((await p.call('/Scene/DeleteBeaconsInfo', { BeaconIds: [uwbHere.body.BeaconId] }, agent)).body.Succeeded).toBe(1);
    const aoa = await newAnchor(agent, floorId, { Type: 3, Heading: 45 });
    const bad: [Record<string, unknown>, unknown[]][] = [
      [{ Mac: 'AC:23:3F' }, ['Mac', 'scene.macInvalid']],
      [{ Code: '1234' }, ['Code', 'scene.codeInvalid']],
      [{ Name: '' }, ['Name', 'scene.beaconNameRequired']],
      [{ Major: 70000 }, ['Major']],
      [{ Type: 7 }, ['Type', 'scene.anchorTypeInvalid']],
      [{ FloorId: 999999 }, []],
    ];
    for (const [extra, expected] of bad) {
      const r = await p.call('/Scene/addBeaconsInfoByMonitor', anchorBody(floorId, extra), agent);
      if (!expected.length) expect(r.body.Message).toBe('scene.floorNotFound');
      else expect(fields(r.body)[0]!.slice(0, expected.length)).toEqual(expected);
    }
    expect(await count('scene_anchors', sql`scene_id = ${sceneId}`)).toBe(2);

    // Edit, moving it to another floor of the scene.
    const upstairs = await newFloor(agent, sceneId, { FloorNo: 2 });
    const edited = await p.call(
      '/Scene/editBeaconsInfo',
      {
        ...anchorBody(floorId, { Mac: 'AC:23:3F:A0:FF:02', X: 7, State: 2 }),
        FloorId: upstairs,
        BeaconId: id,
      },
      agent,
    );
    expect(edited.body).toEqual({ State: 200, BeaconId: id });
    const moved = (
      await p.call('/Scene/BeaconsInfoByMonitor', { SceneId: sceneId, FloorId: upstairs }, agent)
    ).body.Items;
    expect(moved).toHaveLength(1);
    expect(moved[0]).toMatchObject({
      BeaconId: id,
      FloorId: upstairs,
      Mac: 'AC:23:3F:A0:FF:02',
      X: 7,
      State: 2,
    });
    const takenMac = await p.call(
      '/Scene/editBeaconsInfo',
      { ...anchorBody(floorId, { Mac: moved[0].Mac }), BeaconId: aoa, Type: 3 },
      agent,
    );
    expect(takenMac.body.Message).toBe('scene.macTaken');

    // Batch: a type that does not fit is refused per anchor; a major that collides too.
    const third = await newAnchor(agent, floorId, { Code: body.Code, Major: 20002, Minor: moved[0].Minor });
    const uwbAnchor = await newAnchor(agent, uwbFloor, { Type: 2, Mac: 'AC:23:3F:A0:FF:0D', Minor: 4243 });
    const typeBatch = await p.call('/Scene/editBeaconsBatchInfo', { BeaconIds: [uwbAnchor, 999999], Type: 1 }, agent);
    expect(typeBatch.body.Succeeded).toBe(0);
    expect(typeBatch.body.Failed).toEqual([
      { Imei: String(uwbAnchor), Message: 'scene.anchorTypeScene', Params: { sceneType: 'UWB', allowed: 'UWB, AOA' } },
      { Imei: '999999', Message: 'scene.anchorNotFound' },
    ]);
    expect((await p.call('/Scene/DeleteBeaconsInfo', { BeaconIds: [uwbAnchor] }, agent)).body.Succeeded).toBe(1);
    expect((await p.call('/Scene/DeleteSceneInfo', { SceneIds: [uwbScene] }, agent)).body.Succeeded).toBe(1);
    const stateBatch = await p.call(
      '/Scene/editBeaconsBatchInfo',
      { BeaconIds: [id, aoa, third], State: 2, Rssi1m: -70, Height: 1.5 },
      agent,
    );
    expect(stateBatch.body).toEqual({ State: 200, Succeeded: 3, Failed: [] });
    expect(
      await count(
        'scene_anchors',
        sql`scene_id = ${sceneId} AND state = 2 AND rssi_1m = -70 AND height = 1.5`,
      ),
    ).toBe(3);
    const majorBatch = await p.call(
      '/Scene/editBeaconsBatchInfo',
      { BeaconIds: [id, third], Major: 20002 },
      agent,
    );
    // `id` has the code and minor of `third`: only one of them may hold major 20002 (third already does).
    expect(majorBatch.body.Failed).toEqual([{ Imei: String(id), Message: 'scene.macTaken' }]);
    expect(majorBatch.body.Succeeded).toBe(1);
    const nothing = await p.call('/Scene/editBeaconsBatchInfo', { BeaconIds: [id] }, agent);
    expect(fields(nothing.body)[0]!.slice(0, 2)).toEqual(['State', 'scene.batchNothing']);
    // Keyword and type filters.
    expect(
      (await p.call('/Scene/BeaconsInfoList', { Keyword: 'ff:02', SceneId: sceneId }, agent)).body.Total,
    ).toBe(1);
    expect((await p.call('/Scene/BeaconsInfoList', { Type: 3, FloorId: floorId }, agent)).body.Total).toBe(1);

    // At most MAX_ANCHORS_PER_FLOOR a floor: the rest are written directly.
    const { db } = p.deps.database;
    await db.execute(sql`INSERT INTO scene_anchors (owner_id, scene_id, floor_id, name, mac, code, major, minor, kind, x, y)
      SELECT (SELECT owner_id FROM scenes WHERE id = ${sceneId}), ${sceneId}, ${floorId}, 'N' || n, 'FF:FF:' || n, 'ABCDEF0123456789', 1, n, 1, 0, 0 FROM generate_series(1, ${schemas.MAX_ANCHORS_PER_FLOOR - 2}) n`);
    const full = await p.call('/Scene/addBeaconsInfoByMonitor', anchorBody(floorId), agent);
    expect([full.status, full.body.Message, full.body.Params]).toEqual([
      409,
      'scene.anchorsMax',
      { max: schemas.MAX_ANCHORS_PER_FLOOR },
    ]);
    // Another floor has room.
    const room = await newAnchor(agent, upstairs);
    await db.execute(
      sql`DELETE FROM scene_anchors WHERE floor_id = ${floorId} AND code = 'ABCDEF0123456789'`,
    );
    await p.call('/Scene/DeleteBeaconsInfo', { BeaconIds: [room] }, agent);

    changes.length = 0;
    const del = await p.call('/Scene/DelBeaconsInfoByMonitor', { BeaconIds: [id, aoa, 999999] }, agent);
    expect(del.body).toEqual({
      State: 200,
      Succeeded: 2,
      Failed: [{ Imei: '999999', Message: 'scene.anchorNotFound' }],
    });
    expect(changes).toEqual([[sceneId]]);
    expect((await p.call('/Scene/DeleteBeaconsInfo', { BeaconIds: [third] }, agent)).body.Succeeded).toBe(1);
    await p.call('/Scene/DeleteFoorsInfo', { FloorIds: [floorId, upstairs] }, agent);
    await p.call('/Scene/DeleteSceneInfo', { SceneIds: [sceneId] }, agent);
  });

  it('refuses what SPEC §8 forbids while anchors are deployed, and allows it once they are gone', async () => {
    const sceneId = await newScene(agent);
    const floorId = await newFloor(agent, sceneId);
    const spare = await newFloor(agent, sceneId, { FloorNo: 2 });
    const anchor = await newAnchor(agent, floorId);

    const delFloor = await p.call('/Scene/DeleteFoorsInfo', { FloorIds: [floorId, spare] }, agent);
    expect(delFloor.body).toEqual({
      State: 200,
      Succeeded: 1,
      Failed: [{ Imei: String(floorId), Message: 'scene.anchorsDeployed' }],
    });
    const retype = await p.call(
      '/Scene/editFoorsInfo',
      { ...floorBody(sceneId, { Type: 2 }), SceneId: undefined, Plan: undefined, FloorId: floorId },
      agent,
    );
    expect(fields(retype.body)).toEqual([['Type', 'scene.typeLocked', undefined]]);
    // The other fields of the floor may change.
    const rename = await p.call(
      '/Scene/editFoorsInfo',
      { ...floorBody(sceneId, { Name: '一层' }), SceneId: undefined, Plan: undefined, FloorId: floorId },
      agent,
    );
    expect(rename.body.State).toBe(200);
    const delScene = await p.call('/Scene/DeleteSceneInfo', { SceneIds: [sceneId] }, agent);
    expect(delScene.body).toEqual({
      State: 200,
      Succeeded: 0,
      Failed: [{ Imei: String(sceneId), Message: 'scene.anchorsDeployed' }],
    });
    const uwb = await p.call(
      '/Scene/editSceneInfo',
      { ...sceneBody({ BeaconType: 2 }), MapSvg: undefined, SceneId: sceneId },
      agent,
    );
    expect(fields(uwb.body)).toEqual([['BeaconType', 'scene.typeLocked', undefined]]);
    expect(await count('scenes', sql`id = ${sceneId} AND beacon_type = 1`)).toBe(1);

    await p.call('/Scene/DeleteBeaconsInfo', { BeaconIds: [anchor] }, agent);
    expect(
      (
        await p.call(
          '/Scene/editFoorsInfo',
          { ...floorBody(sceneId, { Type: 2 }), SceneId: undefined, Plan: undefined, FloorId: floorId },
          agent,
        )
      ).body.State,
    ).toBe(200);
    expect(
      (
        await p.call(
          '/Scene/editSceneInfo',
          { ...sceneBody({ BeaconType: 2 }), MapSvg: undefined, SceneId: sceneId },
          agent,
        )
      ).body.State,
    ).toBe(200);
    // A scene without anchors goes with its floors.
    expect((await p.call('/Scene/DeleteSceneInfo', { SceneIds: [sceneId] }, agent)).body.Succeeded).toBe(1);
    expect(await count('floors', sql`scene_id = ${sceneId}`)).toBe(0);
  });

  it("keeps scenes to the subtree; the live map's reads also show the scenes of the accounts above but the root", async () => {
    const agentScene = await newScene(agent, { Name: '代理楼' });
    const agentFloor = await newFloor(agent, agentScene);
    const agentAnchor = await newAnchor(agent, agentFloor);
    const rootScene = await newScene(admin, { Name: '总部' });
    const operatorScene = await newScene(operator, { Name: '值班楼' });

    // operator01, a sibling: every id of the agent's answers "not found", in every call.
    const notFound: [string, Record<string, unknown>, string][] = [
      ['/Scene/sceneInfoByMonitor', { SceneId: agentScene }, 'scene.notFound'],
      ['/Scene/FoorsInfoList', { SceneId: agentScene }, 'scene.notFound'],
      ['/Scene/BeaconsInfoByMonitor', { SceneId: agentScene }, 'scene.notFound'],
      ['/Scene/BeaconsInfoList', { FloorId: agentFloor }, 'scene.floorNotFound'],
      ['/Scene/sceneInfoByFoorId', { FloorId: agentFloor }, 'scene.floorNotFound'],
      ['/Scene/sceneInfoByMonitorForServer', { SceneId: agentScene }, 'scene.notFound'],
      ['/Scene/editSceneInfo', { ...sceneBody(), SceneId: agentScene }, 'scene.notFound'],
      ['/Scene/addFoorsInfo', floorBody(agentScene, { FloorNo: 5 }), 'scene.notFound'],
      [
        '/Scene/editFoorsInfo',
        { ...floorBody(agentScene), SceneId: undefined, FloorId: agentFloor },
        'scene.floorNotFound',
      ],
      ['/Scene/addBeaconsInfoByMonitor', anchorBody(agentFloor), 'scene.floorNotFound'],
      [
        '/Scene/editBeaconsInfo',
        { ...anchorBody(agentFloor), BeaconId: agentAnchor },
        'scene.anchorNotFound',
      ],
    ];
    for (const [path, body, key] of notFound) {
      const r = await p.call(path, body, operator);
      expect([path, r.status, r.body.Message]).toEqual([path, 404, key]);
    }
    const batches: [string, Record<string, unknown>, string][] = [
      ['/Scene/DeleteSceneInfo', { SceneIds: [agentScene] }, 'scene.notFound'],
      ['/Scene/DeleteFoorsInfo', { FloorIds: [agentFloor] }, 'scene.floorNotFound'],
      ['/Scene/DeleteBeaconsInfo', { BeaconIds: [agentAnchor] }, 'scene.anchorNotFound'],
      ['/Scene/editBeaconsBatchInfo', { BeaconIds: [agentAnchor], State: 2 }, 'scene.anchorNotFound'],
    ];
    for (const [path, body, key] of batches) {
      const r = await p.call(path, body, operator);
      expect([path, r.body.Succeeded, r.body.Failed[0].Message]).toEqual([path, 0, key]);
    }
    expect(await count('scene_anchors', sql`id = ${agentAnchor} AND state = 1`)).toBe(1);
    const opList = (await p.call('/Scene/SceneInfoListByMonitor', {}, operator)).body.Items.map(
      (s: { SceneId: number }) => s.SceneId,
    );
    // Its own (with the demo's care home), none of the agent's or the root's.
    expect(opList).toContain(operatorScene);
    expect(opList).not.toContain(agentScene);
    expect(opList).not.toContain(rootScene);

    // clinic01, below the agent: the agent's scene on the live map, never the root's nor the sibling's.
    const clinicMap = (await p.call('/Scene/SceneInfoListByMonitor', {}, clinic)).body.Items;
    expect(clinicMap.map((s: { SceneId: number }) => s.SceneId)).toEqual([agentScene]);
    expect(clinicMap[0].Floors.map((f: { FloorId: number }) => f.FloorId)).toEqual([agentFloor]);
    expect(
      (await p.call('/Scene/sceneInfoByMonitor', { SceneId: agentScene }, clinic)).body.Item.Anchors.map(
        (a: { BeaconId: number }) => a.BeaconId,
      ),
    ).toEqual([agentAnchor]);
    expect(
      (await p.call('/Scene/sceneInfoByFoorId', { FloorId: agentFloor }, clinic)).body.Item.Scene.SceneId,
    ).toBe(agentScene);
    expect(
      (await p.call('/Scene/BeaconsInfoByMonitor', { SceneId: agentScene, FloorId: agentFloor }, clinic)).body
        .Items,
    ).toHaveLength(1);
    expect((await p.call('/Scene/sceneInfoByMonitor', { SceneId: rootScene }, clinic)).body.Message).toBe(
      'scene.notFound',
    );
    // ... but not among the scenes it administers, nor editable by it.
    expect((await p.call('/Scene/SceneInfoList', {}, clinic)).body.Total).toBe(0);
    expect((await p.call('/Scene/FoorsInfoList', { SceneId: agentScene }, clinic)).body.Message).toBe(
      'scene.notFound',
    );
    expect(
      (await p.call('/Scene/editSceneInfo', { ...sceneBody(), SceneId: agentScene }, clinic)).body.Message,
    ).toBe('scene.notFound');
    expect((await p.call('/Scene/BeaconsInfoList', { SceneId: agentScene }, clinic)).body.Message).toBe(
      'scene.notFound',
    );
    // The root sees every scene below it among those it administers; the agent its own.
    const rootList = (await p.call('/Scene/SceneInfoList', { PageCount: 100 }, admin)).body.Items.map(
      (s: { SceneId: number }) => s.SceneId,
    );
    expect(rootList).toEqual(expect.arrayContaining([agentScene, rootScene, operatorScene]));
    expect(
      (await p.call('/Scene/SceneInfoList', {}, agent)).body.Items.map((s: { SceneId: number }) => s.SceneId),
    ).toEqual([agentScene]);
    expect((await p.call('/Scene/SceneInfoList', { UserId: ids.operator }, agent)).body.Message).toBe(
      'account.notInScope',
    );

    await p.call('/Scene/DeleteBeaconsInfo', { BeaconIds: [agentAnchor] }, agent);
    await p.call('/Scene/DeleteSceneInfo', { SceneIds: [agentScene] }, agent);
    await p.call('/Scene/DeleteSceneInfo', { SceneIds: [rootScene, operatorScene] }, admin);
  });

  it('answers the devices indoors now and an indoor track, of the caller subtree only', async () => {
    const { db } = p.deps.database;
    const sceneId = await newScene(agent);
    const geo = { OriginLat: 22.5, OriginLon: 113.9, Rotation: 20 };
    const ground = await newFloor(agent, sceneId, { MetresPerPixel: 0.05, Geo: geo });
    const upper = await newFloor(agent, sceneId, { FloorNo: 2 });
    const [inside, outside, stale, other] = (
      await rows<{ id: number }>(
        db,
        sql`SELECT id FROM devices WHERE account_id = ${ids.clinic} ORDER BY id LIMIT 4`,
      )
    ).map((r) => Number(r.id));
    const [sibling] = (
      await rows<{ id: number }>(
        db,
        sql`SELECT id FROM devices WHERE account_id = ${ids.operator} ORDER BY id LIMIT 1`,
      )
    ).map((r) => Number(r.id));
    const state = async (
      deviceId: number,
      floorId: number,
      indoorAgo: string,
      fixAgo: string | null,
      extra = sql``,
    ) => {
      await db.execute(
        sql`INSERT INTO device_state (device_id) VALUES (${deviceId}) ON CONFLICT (device_id) DO NOTHING`,
      );
      await db.execute(sql`UPDATE device_state SET indoor_scene_id = ${sceneId}, indoor_floor_id = ${floorId}, indoor_x = 10, indoor_y = 5,
        indoor_accuracy = 1.5, indoor_method = 2, indoor_time = now() - ${indoorAgo}::interval,
        fix_time = ${fixAgo === null ? null : sql`now() - ${fixAgo}::interval`}, online = true, battery = 77 ${extra} WHERE device_id = ${deviceId}`);
    };
    await state(inside!, ground, '1 minute', '10 minutes');
    await state(outside!, ground, '10 minutes', '1 minute'); // an outdoor fix came later: outdoors now
    await state(stale!, ground, '3 days', null);
    await state(other!, upper, '2 minutes', null);
    await state(sibling!, ground, '1 minute', null);
    await db.execute(
      sql`INSERT INTO alarms (type, device_id, account_id, status) VALUES (5, ${inside!}, ${ids.clinic}, 0)`,
    );

    const live = await p.call('/Scene/sceneInfoByMonitorForServer', { SceneId: sceneId }, agent);
    expect(live.body.State).toBe(200);
    expect(live.body.Items.map((d: { DeviceId: number }) => d.DeviceId)).toEqual([inside, other]);
    const first = live.body.Items[0];
    const expected = planToGeo(
      { originLat: geo.OriginLat, originLon: geo.OriginLon, rotation: geo.Rotation, metresPerPixel: 1 },
      10,
      5,
    );
    expect(first).toMatchObject({
      FloorId: ground,
      X: 10,
      Y: 5,
      Accuracy: 1.5,
      Method: 'trilateration',
      Online: true,
      Battery: 77,
      Sos: true,
    });
    expect(first.Lat).toBeCloseTo(expected.lat, 9);
    expect(first.Lon).toBeCloseTo(expected.lon, 9);
    expect(live.body.Items[1]).toMatchObject({ FloorId: upper, Sos: false, Lat: null, Lon: null });
    // Floor filter, and a longer window takes the stale one in.
    expect(
      (
        await p.call('/Scene/sceneInfoByMonitorForServer', { SceneId: sceneId, FloorId: upper }, agent)
      ).body.Items.map((d: { DeviceId: number }) => d.DeviceId),
    ).toEqual([other]);
    expect(
      (await p.call('/Scene/sceneInfoByMonitorForServer', { SceneId: sceneId, Minutes: 60 * 24 * 7 }, agent))
        .body.Items,
    ).toHaveLength(3);
    // The admin sees the sibling's device too (its subtree); clinic01 sees its own devices.
    expect(
      (await p.call('/Scene/sceneInfoByMonitorForServer', { SceneId: sceneId }, admin)).body.Items,
    ).toHaveLength(3);
    expect(
      (await p.call('/Scene/sceneInfoByMonitorForServer', { SceneId: sceneId }, clinic)).body.Items,
    ).toHaveLength(2);

    // The track: indoor points of the range in time order, outdoor points left out.
    const t0 = Date.parse('2026-11-20T08:00:00Z');
    const at = (s: number) => new Date(t0 + s * 1000);
    const point = (
      deviceId: number,
      s: number,
      floorId: number | null,
      x: number | null,
      method: number | null,
      scene: number | null = sceneId,
    ) =>
      db.execute(sql`INSERT INTO positions (device_id, time, received_at, lat, lon, valid, accuracy, scene_id, floor_id, x, y, method)
        VALUES (${deviceId}, ${at(s)}, ${at(s)}, 22.5, 113.9, true, 2, ${scene}, ${floorId}, ${x}, ${x === null ? null : x + 1}, ${method})`);
    await point(inside!, 30, ground, 2, 1);
    await point(inside!, 10, ground, 1, 3);
    await point(inside!, 20, null, null, null, null); // outdoors
    await point(inside!, 40, upper, 3, 4);
    await point(inside!, 4000, upper, 9, 1); // after the range
    const range = { StartTime: at(0).toISOString(), EndTime: at(3600).toISOString() };
    const track = await p.call('/Scene/deviceHistoryForScene', { DeviceId: inside, ...range }, agent);
    expect(track.body.DeviceId).toBe(inside);
    expect(track.body.Items).toEqual([
      {
        Time: at(10).toISOString(),
        SceneId: sceneId,
        FloorId: ground,
        X: 1,
        Y: 2,
        Accuracy: 2,
        Method: 'uwb',
      },
      {
        Time: at(30).toISOString(),
        SceneId: sceneId,
        FloorId: ground,
        X: 2,
        Y: 3,
        Accuracy: 2,
        Method: 'nearest',
      },
      {
        Time: at(40).toISOString(),
        SceneId: sceneId,
        FloorId: upper,
        X: 3,
        Y: 4,
        Accuracy: 2,
        Method: 'aoa',
      },
    ]);
    const imei = (await rows<{ imei: string }>(db, sql`SELECT imei FROM devices WHERE id = ${inside!}`))[0]!
      .imei;
    expect(
      (await p.call('/Scene/deviceHistoryForScene', { Imei: imei, SceneId: sceneId, ...range }, clinic)).body
        .Items,
    ).toHaveLength(3);
    expect(
      (await p.call('/Scene/deviceHistoryForScene', { DeviceId: inside, ...range }, operator)).body.Message,
    ).toBe('device.notFound');
    expect(
      (
        await p.call(
          '/Scene/deviceHistoryForScene',
          { DeviceId: inside, SceneId: sceneId, ...range },
          operator,
        )
      ).body.Message,
    ).toBe('device.notFound');
    const reversed = await p.call(
      '/Scene/deviceHistoryForScene',
      { DeviceId: inside, StartTime: range.EndTime, EndTime: range.StartTime },
      agent,
    );
    expect(fields(reversed.body)[0]!.slice(0, 2)).toEqual(['EndTime', 'scene.historyRange']);
    const long = await p.call(
      '/Scene/deviceHistoryForScene',
      { DeviceId: inside, StartTime: at(0).toISOString(), EndTime: at(8 * 86400).toISOString() },
      agent,
    );
    expect(fields(long.body)[0]).toEqual(['EndTime', 'scene.historyTooLong', { days: 7 }]);
    const none = await p.call('/Scene/deviceHistoryForScene', { ...range }, agent);
    expect(fields(none.body)[0]!.slice(0, 2)).toEqual(['DeviceId', 'validation.required']);

    await db.execute(
      sql`UPDATE device_state SET indoor_scene_id = NULL, indoor_floor_id = NULL, indoor_time = NULL`,
    );
    await db.execute(sql`DELETE FROM positions WHERE scene_id IS NOT NULL OR time < ${at(5000)}`);
    await db.execute(sql`DELETE FROM alarms WHERE device_id = ${inside!} AND type = 5`);
    await p.call('/Scene/DeleteSceneInfo', { SceneIds: [sceneId] }, agent);
  });

  it("removes a deleted account's scenes with their floors and anchors", async () => {
    const made = await p.call(
      '/user/registerNewUser',
      { LoginName: 'sceneowner01', Password: 'abc123' },
      agent,
    );
    expect(made.body.State).toBe(200);
    const owner = made.body.UserId as number;
    const sceneId = await newScene(agent, { UserId: owner });
    const floorId = await newFloor(agent, sceneId);
    await newAnchor(agent, floorId);
    changes.length = 0;
    expect((await p.call('/user/removeUserById', { UserId: owner }, agent)).body.State).toBe(200);
    expect(changes).toEqual([[sceneId]]);
    expect(await count('scenes', sql`id = ${sceneId}`)).toBe(0);
    expect(await count('floors', sql`scene_id = ${sceneId}`)).toBe(0);
    expect(await count('scene_anchors', sql`scene_id = ${sceneId}`)).toBe(0);
  });
});
