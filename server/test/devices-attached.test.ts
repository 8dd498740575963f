// What hangs on devices: device fences (calls, limit, the enter/exit engine on committed
// positions), wearer profiles with avatars, groups and device roles, each scoped to the subtree.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fence as fenceSchemas } from '@wt/contract';
import { fenceEngines } from '../src/modules/fence/engine.js';
import { TOPICS, type PositionEvent } from '../src/pipeline/events.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

// A 1x1 transparent PNG.
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
const HOME = { Lat: 22.5405, Lon: 113.9345 };
const north = (meters: number) => HOME.Lat + (meters / 6_371_008.8) * (180 / Math.PI);

describe.each(databases())('device fences, persons, groups and roles on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let agent: string;
  let operator: string;
  let clinicId: number;
  const mine = '865000000000002'; // clinic01, below agent01
  const theirs = '865000000000039'; // operator01

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    admin = (await p.login()).token;
    agent = (await p.login('agent01')).token;
    operator = (await p.login('operator01')).token;
    clinicId = (await p.login('clinic01')).userId;
  });
  afterAll(() => p?.stop());

  describe('fences', () => {
    let fenceId: number;
    it('adds circle and polygon fences with the §5 rules', async () => {
      const bad = await p.call('/Geofence/addDeviceGeofence', { Imei: mine, Name: '', Type: 'polygon', Points: [HOME, HOME] }, agent);
      expect(bad.status).toBe(400);
      expect(bad.body.Fields.map((f: { Field: string; Message: string }) => [f.Field, f.Message])).toEqual([
        ['Name', 'device.fenceNameRequired'],
        ['Points', 'device.polygonPoints'],
      ]);
      const badLat = await p.call('/Geofence/addDeviceGeofence', { Imei: mine, Name: 'x', Type: 'circle', Lat: 91, Lon: 0, Radius: 10 }, agent);
      expect(badLat.body.Fields[0]).toMatchObject({ Field: 'Lat', Message: 'device.latLonInvalid' });
      const noRadius = await p.call('/Geofence/addDeviceGeofence', { Imei: mine, Name: 'x', Type: 'circle', Lat: 1, Lon: 1, Radius: 0 }, agent);
      expect(noRadius.body.Fields[0]).toMatchObject({ Field: 'Radius', Message: 'device.fenceRadius' });
      const c = await p.call('/Geofence/addDeviceGeofence', { Imei: mine, Name: '家', Description: '院区', Type: 'circle', ...HOME, Radius: 100 }, agent);
      expect(c.body.Item).toMatchObject({ Name: '家', Type: 'circle', Radius: 100, Lat: HOME.Lat, Points: [], Inside: null, Imei: mine });
      fenceId = c.body.Item.FenceId;
      const poly = await p.call(
        '/Geofence/addDeviceGeofence',
        { Imei: mine, Name: '花园', Type: 'polygon', Points: [{ Lat: 0, Lon: 0 }, { Lat: 0, Lon: 1 }, { Lat: 1, Lon: 1 }] },
        agent,
      );
      expect(poly.body.Item.Points).toHaveLength(3);
      expect(poly.body.Item.Radius).toBeNull();
    });

    it('refuses the 11th fence of a device', async () => {
      const have = (await p.call('/Geofence/fenceGeoList', { Imei: mine }, agent)).body.Items.length;
      for (let i = have; i < 10; i++) {
        const r = await p.call('/Geofence/addDeviceGeofence', { Imei: mine, Name: `f${i}`, Type: 'circle', Lat: 10, Lon: 10, Radius: 50 }, agent);
        expect(r.body.State).toBe(200);
      }
      const r = await p.call('/Geofence/addDeviceGeofence', { Imei: mine, Name: 'one too many', Type: 'circle', Lat: 10, Lon: 10, Radius: 50 }, agent);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ Message: 'device.fenceLimit', Params: { max: 10 } });
      const list = await p.call('/Geofence/GeofenceList', { Imei: mine, PageCount: 5 }, agent);
      expect(list.body.Total).toBe(10);
      expect(list.body.Items).toHaveLength(5);
      const extra = list.body.Items.filter((f: { Name: string }) => /^f\d$/.test(f.Name)).map((f: { FenceId: number }) => f.FenceId);
      const del = await p.call('/Geofence/DeleteGeofence', { FenceIds: extra }, agent);
      expect(del.body.Succeeded).toBe(extra.length);
    });

    it('evaluates committed positions: enter and exit once each, the boundary counting as inside', async () => {
      const events: fenceSchemas.FenceTransitionEvent[] = [];
      const off = p.deps.bus.subscribe<fenceSchemas.FenceTransitionEvent>(fenceSchemas.FENCE_TRANSITION_TOPIC, (e) => events.push(e));
      const detail = (await p.call('/Device/DeviceDetail', { Imei: mine }, admin)).body.Item;
      const engine = fenceEngines.get(p.deps)!;
      let t = Date.parse('2026-01-01T00:00:00Z');
      const at = async (lat: number, valid = true) => {
        t += 60_000;
        const e: PositionEvent = {
          deviceId: detail.DeviceId,
          imei: mine,
          name: detail.Name,
          accountId: detail.AccountId,
          accountPath: '/x/',
          protocol: 'watch',
          time: new Date(t).toISOString(),
          receivedAt: new Date(t).toISOString(),
          lat,
          lon: HOME.Lon,
          valid,
        };
        p.deps.bus.publish(TOPICS.position, e);
        await engine.idle();
      };
      await at(north(500)); // first position: outside, no transition
      await at(north(100)); // exactly on the circle: enter
      await at(north(50)); // still inside
      await at(north(100.5), false); // an invalid fix is not evaluated
      await at(north(101)); // exit
      off();
      const mineEvents = events.filter((e) => e.fenceId === fenceId);
      expect(mineEvents.map((e) => e.kind)).toEqual(['enter', 'exit']);
      expect(mineEvents[0]).toMatchObject({ deviceId: detail.DeviceId, imei: mine, fenceName: '家', accountPath: '/x/', lon: HOME.Lon });
      const geo = await p.call('/Geofence/fenceGeoList', { Imei: mine }, agent);
      expect(geo.body.Items.find((f: { FenceId: number }) => f.FenceId === fenceId).Inside).toBe(false);
      // Updating the geometry forgets where the device was.
      const upd = await p.call('/Geofence/updateDeviceGeofence', { FenceId: fenceId, Name: '家', Type: 'circle', ...HOME, Radius: 200 }, agent);
      expect(upd.body.Item).toMatchObject({ Radius: 200, Inside: null });
      await at(north(150));
      expect(events.filter((e) => e.fenceId === fenceId)).toHaveLength(2);
      const after = await p.call('/Geofence/fenceGeoList', { Imei: mine }, agent);
      expect(after.body.Items.find((f: { FenceId: number }) => f.FenceId === fenceId).Inside).toBe(true);
    });

    it('keeps another account’s device fences out of reach', async () => {
      expect((await p.call('/Geofence/addDeviceGeofence', { Imei: mine, Name: 'x', Type: 'circle', ...HOME, Radius: 10 }, operator)).status).toBe(404);
      expect((await p.call('/Geofence/updateDeviceGeofence', { FenceId: fenceId, Name: 'x', Type: 'circle', ...HOME, Radius: 10 }, operator)).status).toBe(404);
      expect((await p.call('/Geofence/fenceGeoList', { Imei: mine }, operator)).status).toBe(404);
      const list = await p.call('/Geofence/GeofenceList', { Imei: mine }, operator);
      expect(list.body.Total).toBe(0);
      expect((await p.call('/Geofence/DeleteGeofence', { FenceIds: [fenceId] }, operator)).body.Succeeded).toBe(0);
      expect((await p.call('/Geofence/fenceGeoList', { Imei: mine }, agent)).body.Items.some((f: { FenceId: number }) => f.FenceId === fenceId)).toBe(true);
    });
  });

  describe('person info', () => {
    it('saves the console payload with the §5 rules, keeping height and weight sent empty', async () => {
      const bad = await p.call('/device/updatePersonInfo', { sn: mine, age: 121, phone: 'abc', gender: 'x' }, agent);
      expect(bad.status).toBe(400);
      expect(bad.body.Fields.map((f: { Field: string; Message: string }) => [f.Field, f.Message]).sort()).toEqual([
        ['age', 'validation.ageMax'],
        ['gender', 'device.genderInvalid'],
        ['phone', 'validation.phoneInvalid'],
      ]);
      await p.call('/Person/SavePersonProfile', { Imei: mine, Name: '王秀兰', Height: 160, Weight: 55, BloodType: 'ab', Email: 'w@example.com' }, agent);
      const r = await p.call(
        '/device/updatePersonInfo',
        { sn: mine, address: '深圳市南山区', age: 120, gender: 'woman', phone: '13800138000', name: '王秀兰', remark: '高血压', height: '', weight: '' },
        agent,
      );
      expect(r.body.Item).toMatchObject({ Imei: mine, Name: '王秀兰', Age: 120, Gender: 'woman', Address: '深圳市南山区', Height: 160, Weight: 55, BloodType: 'AB', Email: 'w@example.com' });
      const got = await p.call('/Person/GetPersonProfile', { Imei: mine }, agent);
      expect(got.body.Item.Remark).toBe('高血压');
    });

    it('checks blood type and email, uploads an avatar and serves it', async () => {
      const bad = await p.call('/Person/SavePersonProfile', { Imei: mine, BloodType: 'C', Email: 'nope' }, agent);
      expect(bad.body.Fields.map((f: { Message: string }) => f.Message).sort()).toEqual(['device.bloodTypeInvalid', 'validation.emailInvalid']);
      const notImage = await p.call('/Person/SavePersonProfile', { Imei: mine, Avatar: `data:image/png;base64,${Buffer.from('hello').toString('base64')}` }, agent);
      expect(notImage.body.Fields[0].Message).toBe('device.avatarType');
      const svg = await p.call('/Person/SavePersonProfile', { Imei: mine, Avatar: 'data:image/svg+xml;base64,PHN2Zy8+' }, agent);
      expect(svg.body.Fields[0].Message).toBe('device.avatarType');
      const big = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(2 * 1024 * 1024)]).toString('base64');
      const tooBig = await p.call('/Person/SavePersonProfile', { Imei: mine, Avatar: `data:image/png;base64,${big}` }, agent);
      expect(tooBig.body.Fields[0].Message).toBe('device.avatarTooLarge');
      const ok = await p.call('/Person/SavePersonProfile', { Imei: mine, Name: '王秀兰', Avatar: `data:image/png;base64,${PNG}` }, agent);
      expect(ok.body.Item.Avatar).toMatch(/^\/api\/uploads\/avatars\/[a-f0-9]{32}\.png$/);
      const res = await fetch(`${p.url}${ok.body.Item.Avatar}`);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(PNG, 'base64'))).toBe(true);
      // Replacing it removes the old file.
      await p.call('/Person/SavePersonProfile', { Imei: mine, Name: '王秀兰', Avatar: `data:image/png;base64,${PNG}` }, agent);
      expect(readdirSync(path.join(p.dataDir, 'uploads', 'avatars'))).toHaveLength(1);
      expect((await fetch(`${p.url}/api/uploads/avatars/..%2F..%2Fsecret.png`)).status).toBe(404);
    });

    it('lists and batch-updates profiles within the subtree only', async () => {
      const all = await p.call('/device/AllPersonInfo', { PageCount: 100 }, agent);
      expect(all.body.Total).toBe(28);
      const named = await p.call('/device/AllPersonInfo', { Name: '王秀兰' }, agent);
      expect(named.body.Items.map((x: { Imei: string }) => x.Imei)).toContain(mine);
      const r = await p.call('/Person/batchUpdatePerson', { Imeis: [mine, '865000000000003', theirs], Remark: '每日巡查' }, agent);
      expect(r.body).toMatchObject({ Succeeded: 2, Failed: [{ Imei: theirs, Message: 'device.missing' }] });
      const kept = (await p.call('/Person/GetPersonProfile', { Imei: mine }, agent)).body.Item;
      expect(kept).toMatchObject({ Remark: '每日巡查', Name: '王秀兰', Avatar: expect.stringMatching(/\.png$/) });
      for (const [path_, body] of [
        ['/device/updatePersonInfo', { sn: mine, name: 'x' }],
        ['/Person/SavePersonProfile', { Imei: mine, Name: 'x' }],
        ['/Person/GetPersonProfile', { Imei: mine }],
      ] as const) {
        expect((await p.call(path_, body, operator)).status).toBe(404);
      }
      expect((await p.call('/device/AllPersonInfo', { Imei: mine }, operator)).body.Total).toBe(0);
    });
  });

  describe('groups', () => {
    it('creates, renames, fills, lists and deletes groups', async () => {
      const g = await p.call('/group/AddGroup', { Name: '三号楼', UserId: clinicId }, agent);
      expect(g.body.Item).toMatchObject({ Name: '三号楼', AccountId: clinicId, DeviceCount: 0 });
      const dup = await p.call('/group/AddGroup', { Name: '三号楼', UserId: clinicId }, agent);
      expect(dup.body.Message).toBe('device.groupNameExists');
      const renamed = await p.call('/group/AddGroup', { GroupId: g.body.Item.GroupId, Name: '三号楼东' }, agent);
      expect(renamed.body.Item.Name).toBe('三号楼东');
      const put = await p.call('/group/UpdateDeviceGroupIDByImeis', { Imeis: [mine, theirs], GroupId: g.body.Item.GroupId }, agent);
      expect(put.body).toMatchObject({ Succeeded: 1, Failed: [{ Imei: theirs, Message: 'device.missing' }] });
      const list = await p.call('/group/GroupList', { UserId: clinicId }, agent);
      expect(list.body.Items.find((x: { GroupId: number }) => x.GroupId === g.body.Item.GroupId).DeviceCount).toBe(1);
      expect((await p.call('/Device/devicesByUserId', { GroupId: g.body.Item.GroupId }, agent)).body.Items.map((d: { Imei: string }) => d.Imei)).toEqual([mine]);
      // The sibling neither sees nor touches it.
      expect((await p.call('/group/GroupList', {}, operator)).body.Items.some((x: { GroupId: number }) => x.GroupId === g.body.Item.GroupId)).toBe(false);
      expect((await p.call('/group/UpdateDeviceGroupIDByImeis', { Imeis: [theirs], GroupId: g.body.Item.GroupId }, operator)).status).toBe(404);
      expect((await p.call('/group/UpdateDeviceGroupIDByImeis', { Imeis: [mine], GroupId: 0 }, operator)).body.Succeeded).toBe(0);
      expect((await p.call('/group/groupsDelete', { GroupIds: [g.body.Item.GroupId] }, operator)).body.Succeeded).toBe(0);
      const del = await p.call('/group/groupsDelete', { GroupIds: [g.body.Item.GroupId] }, agent);
      expect(del.body.Succeeded).toBe(1);
      expect((await p.call('/Device/DeviceDetail', { Imei: mine }, agent)).body.Item.GroupId).toBeNull();
    });
  });

  describe('device roles', () => {
    it('saves roles with the §5 rules, assigns devices and counts them', async () => {
      const bad = await p.call('/DeviceRole/Save', { Name: '', Color: 'purple' }, operator);
      expect(bad.body.Fields.map((f: { Field: string; Message: string }) => [f.Field, f.Message])).toEqual([
        ['Name', 'device.roleNameRequired'],
        ['Color', 'device.roleColorRequired'],
      ]);
      const r = await p.call('/DeviceRole/Save', { Name: '司机', Description: '车队司机', Color: 'orange', Shape: 'star' }, operator);
      expect(r.body.Item).toMatchObject({ Name: '司机', Color: 'orange', Shape: 'star', DeviceCount: 0 });
      const a = await p.call('/DeviceRole/AssignDevices', { Imeis: [theirs, mine], RoleId: r.body.Item.RoleId }, operator);
      expect(a.body).toMatchObject({ Succeeded: 1, Failed: [{ Imei: mine, Message: 'device.missing' }] });
      const listed = (await p.call('/Device/devicesByUserId', { Imei: theirs }, operator)).body.Items[0];
      expect(listed).toMatchObject({ RoleName: '司机', RoleColor: 'orange', RoleShape: 'star' });
      const roles = await p.call('/DeviceRole/List', {}, operator);
      expect(roles.body.Items.find((x: { RoleId: number }) => x.RoleId === r.body.Item.RoleId).DeviceCount).toBe(1);
      // Another tenant's role is out of reach.
      expect((await p.call('/DeviceRole/AssignDevices', { Imeis: [mine], RoleId: r.body.Item.RoleId }, agent)).status).toBe(404);
      expect((await p.call('/DeviceRole/Save', { RoleId: r.body.Item.RoleId, Name: 'x', Color: 'red' }, agent)).status).toBe(404);
      expect((await p.call('/DeviceRole/Delete', { RoleIds: [r.body.Item.RoleId] }, agent)).body.Succeeded).toBe(0);
      expect((await p.call('/DeviceRole/List', {}, agent)).body.Items.some((x: { RoleId: number }) => x.RoleId === r.body.Item.RoleId)).toBe(false);
      const del = await p.call('/DeviceRole/Delete', { RoleIds: [r.body.Item.RoleId] }, operator);
      expect(del.body.Succeeded).toBe(1);
      expect((await p.call('/Device/DeviceDetail', { Imei: theirs }, operator)).body.Item.RoleId).toBeNull();
    });

    it('refuses the 31st role of an account', async () => {
      const have = (await p.call('/DeviceRole/List', {}, operator)).body.Total;
      for (let i = have; i < 30; i++) expect((await p.call('/DeviceRole/Save', { Name: `r${i}`, Color: 'blue' }, operator)).body.State).toBe(200);
      const r = await p.call('/DeviceRole/Save', { Name: 'r30', Color: 'blue' }, operator);
      expect(r.status).toBe(409);
      expect(r.body).toMatchObject({ Message: 'device.roleLimit', Params: { max: 30 } });
    });
  });
});
