// Account fence calls: create, edit and delete with each shape, the per-owner limit (also against
// two creates at once), refusals that store nothing, the subtree scope (a sibling account's fence is
// "not found"), device counts and which devices are inside which fences now.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows } from '../src/lib/sql.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

const SQUARE = [
  { Lat: 22.5, Lon: 113.9 },
  { Lat: 22.5, Lon: 114.0 },
  { Lat: 22.6, Lon: 114.0 },
  { Lat: 22.6, Lon: 113.9 },
];
const BOWTIE = [
  { Lat: 22.5, Lon: 113.9 },
  { Lat: 22.6, Lon: 114.0 },
  { Lat: 22.5, Lon: 114.0 },
  { Lat: 22.6, Lon: 113.9 },
];

describe.each(databases())('account fence calls on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let agent: string;
  let operator: string;
  let ids: { admin: number; agent: number; clinic: number; operator: number };

  const count = async (table: string, where = sql`TRUE`) =>
    Number((await rows<{ n: number }>(p.deps.database.db, sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE ${where}`))[0]!.n);
  const fields = (body: { Fields?: { Field: string; Message: string; Params?: unknown }[] }) => (body.Fields ?? []).map((f) => [f.Field, f.Message, f.Params]);

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    const a = await p.login();
    const g = await p.login('agent01');
    const o = await p.login('operator01');
    admin = a.token;
    agent = g.token;
    operator = o.token;
    ids = { admin: a.userId, agent: g.userId, clinic: (await p.login('clinic01')).userId, operator: o.userId };
  });
  afterAll(() => p?.stop());

  const base = () => ({ Name: '院区', UserIds: [ids.clinic], AlarmType: 2 });

  it('creates, lists, edits and deletes a fence of each shape', async () => {
    const circle = await p.call('/Geofence/CreateGeofence', { ...base(), Type: 'circle', Lat: 22.54, Lon: 113.93, Radius: 300 }, agent);
    expect(circle.status).toBe(200);
    expect(circle.body.Item).toMatchObject({
      UserId: ids.agent,
      OwnerLoginName: 'agent01',
      Name: '院区',
      AlarmType: 2,
      Type: 'circle',
      Lat: 22.54,
      Lon: 113.93,
      Radius: 300,
      Points: [],
      DistrictCode: null,
      Accounts: [{ UserId: ids.clinic, LoginName: 'clinic01', Name: '康宁养老院' }],
      IncludeChildren: false,
      Schedule: null,
      DeviceCount: 20,
    });
    const drawn = await p.call(
      '/Geofence/addGeofenceMonitor',
      { ...base(), Name: '花园', Type: 'polygon', Points: SQUARE, IncludeChildren: true, UserIds: [ids.agent], Schedule: { Days: [5, 1, 1], Windows: [{ Start: '22:00', End: '06:00' }] } },
      agent,
    );
    expect(drawn.body.Item).toMatchObject({ Type: 'polygon', Points: SQUARE, Radius: null, IncludeChildren: true, DeviceCount: 28, Schedule: { Days: [1, 5], Windows: [{ Start: '22:00', End: '06:00' }] } });
    // The district call takes only districts; a polygon is refused there.
    const wrong = await p.call('/Geofence/addGeofenceMonitor', { ...base(), Type: 'district', DistrictCode: '440305' }, agent);
    expect(fields(wrong.body)).toEqual([['Type', 'accountFence.typeNotHere', { types: 'polygon, circle' }]]);

    const county = await p.call('/Geofence/addGeofenceMonitorXingzheng', { ...base(), Name: '南山', DistrictCode: '440305' }, agent);
    expect(county.body.Item).toMatchObject({ Type: 'district', DistrictCode: '440305', Lat: null, Radius: null, Points: [] });
    // Taiwan is named by the boundary data but has no boundary: nothing could be inside.
    const noBoundary = await p.call('/Geofence/CreateGeofence', { ...base(), Type: 'district', DistrictCode: '710000' }, agent);
    expect(fields(noBoundary.body)).toEqual([['DistrictCode', 'accountFence.districtUnknown', { code: '710000' }]]);
    expect((await p.call('/Geofence/DelGeofenceByUserCustom', { FenceIds: [county.body.Item.FenceId] }, agent)).body.Succeeded).toBe(1);

    const list = await p.call('/AccountFence/List', {}, agent);
    expect(list.body.Total).toBe(2);
    expect(list.body.Items.map((f: { Name: string }) => f.Name)).toEqual(['花园', '院区']);
    expect(list.body.Items[0].Points).toEqual([]);
    const shaped = await p.call('/AccountFence/List', { WithShape: true, Type: 'polygon' }, agent);
    expect(shaped.body.Items).toHaveLength(1);
    expect(shaped.body.Items[0].Points).toEqual(SQUARE);
    expect((await p.call('/AccountFence/List', { Name: '花', AlarmType: 2 }, agent)).body.Total).toBe(1);
    expect((await p.call('/AccountFence/List', { AlarmType: 1 }, agent)).body.Total).toBe(0);
    // The administrator sees the subtree's fences; the clinic below the owner does not own them.
    expect((await p.call('/AccountFence/List', {}, admin)).body.Total).toBe(2);
    expect((await p.call('/AccountFence/List', { UserId: ids.clinic }, agent)).body.Total).toBe(0);

    // A side stored for the fence: an edit of the shape drops it and moves updated_at.
    const id = circle.body.Item.FenceId;
    const device = (await rows<{ id: number }>(p.deps.database.db, sql`SELECT id FROM devices WHERE account_id = ${ids.clinic} ORDER BY id LIMIT 1`))[0]!.id;
    await p.deps.database.db.execute(sql`INSERT INTO account_fence_state (device_id, fence_id, inside, since, time) VALUES (${device}, ${id}, true, now(), now())`);
    const before = (await rows<{ t: string }>(p.deps.database.db, sql`SELECT updated_at::text AS t FROM account_fences WHERE id = ${id}`))[0]!.t;
    const edited = await p.call('/Geofence/EditGeofence', { FenceId: id, ...base(), Name: '新院区', Type: 'polygon', Points: SQUARE }, agent);
    expect(edited.body.Item).toMatchObject({ FenceId: id, Name: '新院区', Type: 'polygon', Lat: null, Radius: null, Points: SQUARE });
    expect(await count('account_fence_state', sql`fence_id = ${id}`)).toBe(0);
    const after = (await rows<{ t: string }>(p.deps.database.db, sql`SELECT updated_at::text AS t FROM account_fences WHERE id = ${id}`))[0]!.t;
    expect(after).not.toBe(before);

    // A change of name, accounts and alarm type keeps the shape and the sides.
    await p.deps.database.db.execute(sql`INSERT INTO account_fence_state (device_id, fence_id, inside, since, time) VALUES (${device}, ${id}, true, now(), now())`);
    const watch = await p.call('/Geofence/updateMonitorGeofence', { FenceId: id, Name: '院区二', UserIds: [ids.agent], IncludeChildren: true, AlarmType: 3 }, agent);
    expect(watch.body.Item).toMatchObject({ Name: '院区二', Type: 'polygon', Points: SQUARE, AlarmType: 3, DeviceCount: 28, Accounts: [{ UserId: ids.agent }] });
    expect(await count('account_fence_state', sql`fence_id = ${id}`)).toBe(1);
    // No longer watching the clinic's devices: their sides go.
    await p.call('/Geofence/updateMonitorGeofence', { FenceId: id, Name: '院区二', UserIds: [ids.agent], AlarmType: 3 }, agent);
    expect(await count('account_fence_state', sql`fence_id = ${id}`)).toBe(0);
    // A new schedule is a reset too.
    await p.deps.database.db.execute(sql`INSERT INTO account_fence_state (device_id, fence_id, inside, since, time) VALUES (${device}, ${id}, true, now(), now())`);
    await p.call('/Geofence/updateMonitorGeofence', { FenceId: id, ...base(), Schedule: { Days: [1], Windows: [{ Start: '08:00', End: '17:00' }] } }, agent);
    expect(await count('account_fence_state', sql`fence_id = ${id}`)).toBe(0);

    const custom = await p.call('/Geofence/updateGeofenceMonitorCustom', { FenceId: id, ...base(), Type: 'circle', Lat: 22.5, Lon: 113.9, Radius: 50 }, agent);
    expect(custom.body.Item).toMatchObject({ Type: 'circle', Radius: 50, Points: [], Schedule: null });

    // Deleting takes the accounts, sides, crossings and attendance along.
    await p.deps.database.db.execute(sql`INSERT INTO account_fence_state (device_id, fence_id, inside, since, time) VALUES (${device}, ${id}, true, now(), now())`);
    await p.deps.database.db.execute(sql`INSERT INTO account_fence_transitions (fence_id, device_id, inside, time, confirmed_at) VALUES (${id}, ${device}, true, now(), now())`);
    await p.deps.database.db.execute(sql`INSERT INTO attendance_daily (fence_id, device_id, day) VALUES (${id}, ${device}, '2026-01-01')`);
    const del = await p.call('/Geofence/DelGeofenceByUserCustom', { FenceIds: [id, drawn.body.Item.FenceId, 999999] }, agent);
    expect(del.body).toMatchObject({ Succeeded: 2, Failed: [{ Imei: '999999', Message: 'accountFence.notFound' }] });
    for (const t of ['account_fence_accounts', 'account_fence_state', 'account_fence_transitions', 'attendance_daily']) expect(await count(t, sql`fence_id = ${id}`)).toBe(0);
    expect(await count('account_fences')).toBe(0);
  });

  it('refuses bad shapes, unknown districts and accounts outside the owner, storing nothing', async () => {
    const bowtie = await p.call('/Geofence/CreateGeofence', { ...base(), Type: 'polygon', Points: BOWTIE }, agent, { 'accept-language': 'en' });
    expect(bowtie.status).toBe(400);
    expect(fields(bowtie.body)).toEqual([['Points', 'accountFence.selfIntersecting', undefined]]);
    const lat = await p.call('/Geofence/CreateGeofence', { ...base(), Type: 'circle', Lat: 91, Lon: 200, Radius: 10 }, agent);
    expect(fields(lat.body).map((f) => f[0])).toEqual(['Lat', 'Lon']);
    const point = await p.call('/Geofence/CreateGeofence', { ...base(), Type: 'polygon', Points: [...SQUARE.slice(0, 2), { Lat: -95, Lon: 10 }] }, agent);
    expect(point.status).toBe(400);
    expect(fields(point.body)[0]![0]).toMatch(/^Points\.2\.Lat$/);
    const district = await p.call('/Geofence/addGeofenceMonitorXingzheng', { ...base(), DistrictCode: '999999' }, agent, { 'accept-language': 'en' });
    expect(district.status).toBe(400);
    expect(fields(district.body)).toEqual([['DistrictCode', 'accountFence.districtUnknown', { code: '999999' }]]);
    expect(district.body.Fields[0].Text).toBe('District 999999 is not in the boundary data');
    const outside = await p.call('/Geofence/CreateGeofence', { ...base(), UserIds: [ids.clinic, ids.operator], Type: 'circle', Lat: 1, Lon: 1, Radius: 10 }, agent);
    expect(outside.status).toBe(400);
    expect(fields(outside.body)).toEqual([['UserIds', 'accountFence.accountNotInScope', { id: ids.operator }]]);
    // The owner is the clinic: the agent above it may not be watched by its fence.
    const above = await p.call('/Geofence/CreateGeofence', { ...base(), UserId: ids.clinic, UserIds: [ids.agent], Type: 'circle', Lat: 1, Lon: 1, Radius: 10 }, agent);
    expect(fields(above.body)).toEqual([['UserIds', 'accountFence.accountNotInScope', { id: ids.agent }]]);
    const noOwner = await p.call('/Geofence/CreateGeofence', { ...base(), UserId: ids.operator, Type: 'circle', Lat: 1, Lon: 1, Radius: 10 }, agent);
    expect(noOwner.status).toBe(403);
    expect(await count('account_fences')).toBe(0);
    expect(await count('account_fence_accounts')).toBe(0);
  });

  it('refuses the 11th fence of an owner, also against two creates at once', async () => {
    const circle = (i: number) => ({ ...base(), Name: `f${i}`, Type: 'circle', Lat: 10, Lon: 10, Radius: 50 });
    for (let i = 0; i < 9; i++) expect((await p.call('/Geofence/CreateGeofence', circle(i), agent)).status).toBe(200);
    const both = await Promise.all([p.call('/Geofence/CreateGeofence', circle(9), agent), p.call('/Geofence/CreateGeofence', circle(10), agent)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    const zh = await p.call('/Geofence/CreateGeofence', circle(11), agent, { 'accept-language': 'zh-CN' });
    expect(zh.status).toBe(409);
    expect(zh.body).toMatchObject({ Message: 'accountFence.limit', Params: { max: 10 }, Text: '一个账户最多添加 10 个围栏' });
    const en = await p.call('/Geofence/addGeofenceMonitor', circle(12), agent, { 'accept-language': 'en' });
    expect(en.body.Text).toBe('An account can have at most 10 fences');
    expect(await count('account_fences', sql`owner_id = ${ids.agent}`)).toBe(10);
    expect(await count('account_fence_accounts')).toBe(10);
    // The limit is per owner: the clinic below has its own 10.
    expect((await p.call('/Geofence/CreateGeofence', { ...circle(13), UserId: ids.clinic }, agent)).status).toBe(200);
  });

  it('keeps a sibling account from listing, editing, watching or deleting the fences', async () => {
    const [fence] = (await p.call('/AccountFence/List', { PageCount: 1 }, agent)).body.Items;
    const id = fence.FenceId;
    expect((await p.call('/AccountFence/List', {}, operator)).body.Total).toBe(0);
    expect((await p.call('/AccountFence/List', { UserId: ids.agent }, operator)).status).toBe(403);
    const edit = await p.call('/Geofence/EditGeofence', { FenceId: id, Name: 'x', UserIds: [ids.operator], AlarmType: 1, Type: 'circle', Lat: 1, Lon: 1, Radius: 5 }, operator);
    expect(edit.status).toBe(404);
    expect(edit.body.Message).toBe('accountFence.notFound');
    const missing = await p.call('/Geofence/EditGeofence', { FenceId: 999999, Name: 'x', UserIds: [ids.operator], AlarmType: 1, Type: 'circle', Lat: 1, Lon: 1, Radius: 5 }, operator);
    expect({ status: missing.status, message: missing.body.Message }).toEqual({ status: edit.status, message: edit.body.Message });
    expect((await p.call('/Geofence/updateMonitorGeofence', { FenceId: id, Name: 'x', UserIds: [ids.operator], AlarmType: 1 }, operator)).status).toBe(404);
    const add = await p.call('/Geofence/addMonitorFences', { FenceIds: [id], UserIds: [ids.operator] }, operator);
    expect(add.body).toMatchObject({ Succeeded: 0, Failed: [{ Imei: String(id), Message: 'accountFence.notFound' }] });
    const del = await p.call('/Geofence/DelGeofenceByUserCustom', { FenceIds: [id] }, operator);
    expect(del.body).toMatchObject({ Succeeded: 0, Failed: [{ Imei: String(id), Message: 'accountFence.notFound' }] });
    expect((await p.call('/device/fenceMonitorByChildUserId', { FenceId: id }, operator)).status).toBe(404);
    expect((await p.call('/AccountFence/List', { Name: fence.Name }, agent)).body.Items[0]).toMatchObject({ FenceId: id, Name: fence.Name });
  });

  it('adds watched accounts to fences in a batch, each within its owner', async () => {
    const own = (items: { FenceId: number; UserId: number }[]) => items.filter((f) => f.UserId === ids.agent).slice(0, 2);
    const mine = own((await p.call('/AccountFence/List', {}, agent)).body.Items).map((f) => f.FenceId);
    const clinicFence = (await p.call('/AccountFence/List', { UserId: ids.clinic }, agent)).body.Items[0].FenceId;
    const r = await p.call('/Geofence/addMonitorFences', { FenceIds: [...mine, clinicFence], UserIds: [ids.agent] }, agent);
    expect(r.body).toMatchObject({ Succeeded: 2, Failed: [{ Imei: String(clinicFence), Message: 'accountFence.accountNotInScope', Params: { id: ids.agent } }] });
    const after = (await p.call('/AccountFence/List', {}, agent)).body.Items.filter((f: { FenceId: number }) => mine.includes(f.FenceId));
    expect(after).toHaveLength(2);
    for (const f of after) expect(f.Accounts.map((a: { UserId: number }) => a.UserId).sort()).toEqual([ids.agent, ids.clinic].sort());
    // Adding again changes nothing.
    expect((await p.call('/Geofence/addMonitorFences', { FenceIds: mine, UserIds: [ids.agent] }, agent)).body.Succeeded).toBe(2);
  });

  it('counts the devices watched and tells which are inside which fences now', async () => {
    const { db } = p.deps.database;
    // The clinic's 20, the agent's 8 and, with sub-accounts, the clinic's under the agent.
    const watchAgent = await p.call('/Geofence/CreateGeofence', { ...base(), UserId: ids.clinic, UserIds: [ids.clinic], Type: 'circle', Lat: 1, Lon: 1, Radius: 5 }, agent);
    expect(watchAgent.body.Item.DeviceCount).toBe(20);
    const top = await p.call('/Geofence/CreateGeofence', { ...base(), UserIds: [ids.agent], IncludeChildren: true, Type: 'circle', Lat: 1, Lon: 1, Radius: 5 }, admin);
    expect(top.body.Item.DeviceCount).toBe(28);
    const flat = await p.call('/Geofence/CreateGeofence', { ...base(), UserIds: [ids.agent, ids.clinic], Type: 'circle', Lat: 1, Lon: 1, Radius: 5 }, admin);
    expect(flat.body.Item.DeviceCount).toBe(28);
    const counts = new Map<number, number>((await p.call('/AccountFence/List', { PageCount: 100 }, admin)).body.Items.map((f: { FenceId: number; DeviceCount: number }) => [f.FenceId, f.DeviceCount]));
    expect(counts.get(top.body.Item.FenceId)).toBe(28);

    const clinicDevices = await rows<{ id: number; imei: string; name: string }>(db, sql`SELECT id, imei, name FROM devices WHERE account_id = ${ids.clinic} ORDER BY id LIMIT 2`);
    const topId = top.body.Item.FenceId;
    await db.execute(sql`INSERT INTO account_fence_state (device_id, fence_id, inside, since, time) VALUES
      (${clinicDevices[0]!.id}, ${topId}, true, '2026-01-01T08:00:00Z', now()), (${clinicDevices[1]!.id}, ${topId}, false, '2026-01-01T08:00:00Z', now())`);
    const monitor = await p.call('/device/fenceMonitorByChildUserId', { UserId: ids.clinic }, admin);
    const item = monitor.body.Items.find((i: { FenceId: number }) => i.FenceId === topId);
    expect(item).toEqual({
      FenceId: topId,
      FenceName: '院区',
      Devices: [{ DeviceId: clinicDevices[0]!.id, Imei: clinicDevices[0]!.imei, Name: clinicDevices[0]!.name, Since: '2026-01-01T08:00:00.000Z' }],
    });
    // The clinic's own fence watches it too; the operator's subtree is watched by none.
    expect(monitor.body.Items.map((i: { FenceId: number }) => i.FenceId)).toContain(watchAgent.body.Item.FenceId);
    expect((await p.call('/device/fenceMonitorByChildUserId', { UserId: ids.operator }, admin)).body.Items).toEqual([]);
    // The agent does not see the administrator's fence watching its devices.
    const asAgent = await p.call('/device/fenceMonitorByChildUserId', {}, agent);
    expect(asAgent.body.Items.map((i: { FenceId: number }) => i.FenceId)).not.toContain(topId);
    const one = await p.call('/device/fenceMonitorByChildUserId', { UserId: ids.clinic, FenceId: topId }, admin);
    expect(one.body.Items).toHaveLength(1);
  });
  it("takes a deleted account's fences and its place in others' watch lists, and a deleted device's sides", async () => {
    const made = await p.call('/user/registerNewUser', { LoginName: 'fenceowner01', Password: 'abc123' }, agent);
    expect(made.body.State).toBe(200);
    const owner = made.body.UserId as number;
    const own = await p.call('/Geofence/CreateGeofence', { ...base(), UserId: owner, UserIds: [owner], Type: 'circle', Lat: 1, Lon: 1, Radius: 5 }, agent);
    // Owned by the administrator: the agent's 10 are taken by the tests above.
    const others = await p.call('/Geofence/CreateGeofence', { ...base(), UserIds: [ids.clinic, owner], Type: 'circle', Lat: 1, Lon: 1, Radius: 5 }, admin);
    expect(others.body.Item.Accounts).toHaveLength(2);
    expect((await p.call('/user/removeUserById', { UserId: owner }, agent)).body.State).toBe(200);
    expect(await count('account_fences', sql`id = ${own.body.Item.FenceId}`)).toBe(0);
    expect(await count('account_fence_accounts', sql`account_id = ${owner}`)).toBe(0);
    const kept = await p.call('/AccountFence/List', { Name: '院区', PageCount: 100 }, admin);
    const item = kept.body.Items.find((f: { FenceId: number }) => f.FenceId === others.body.Item.FenceId);
    expect(item.Accounts.map((a: { UserId: number }) => a.UserId)).toEqual([ids.clinic]);

    const { db } = p.deps.database;
    const [device] = await rows<{ id: number }>(db, sql`SELECT id FROM devices WHERE account_id = ${ids.clinic} ORDER BY id DESC LIMIT 1`);
    const fenceId = others.body.Item.FenceId as number;
    await db.execute(sql`INSERT INTO account_fence_state (device_id, fence_id, inside, since, time) VALUES (${device!.id}, ${fenceId}, true, now(), now())`);
    await db.execute(sql`INSERT INTO account_fence_transitions (fence_id, device_id, inside, time, confirmed_at) VALUES (${fenceId}, ${device!.id}, true, now(), now())`);
    await db.execute(sql`INSERT INTO attendance_daily (fence_id, device_id, day) VALUES (${fenceId}, ${device!.id}, '2026-11-20')`);
    expect((await p.call('/Device/BatchDeleteByDeviceId', { DeviceIds: [device!.id] }, agent)).body.Succeeded).toBe(1);
    for (const table of ['account_fence_state', 'account_fence_transitions', 'attendance_daily']) expect(await count(table, sql`device_id = ${device!.id}`)).toBe(0);
  });
});
