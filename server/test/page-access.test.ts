// Pages a user type or route list does not open (SPEC §6: health data and charts, dashboard, inner
// map, the position group) are closed on the server too: their reads answer the same 403 as a
// missing action, while the callers whose pages hold them read as before.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGE_CALLS, openPages, pagesOfCall } from '@wt/contract';
import { accounts, permissionSets } from '../src/db/schema/index.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe('the page of each call', () => {
  it('names the pages SPEC §6 limits, each call belonging to its pages', () => {
    expect(pagesOfCall('/health/gethealth2')).toEqual(['/health/detail']);
    expect(pagesOfCall('/Device/allHealthDataPage')).toEqual(['/health/data']);
    expect(pagesOfCall('/User/allAdminCount')).toEqual(['/dashboard']);
    expect(pagesOfCall('/Scene/deviceHistoryForScene')).toEqual(['/position/innerMap']);
    expect(pagesOfCall('/Asset/List')).toEqual(['/position/assetInventory']);
    expect(pagesOfCall('/report/trips')).toEqual(['/report/index']);
    expect(pagesOfCall('/Report/Export')).toEqual(['/report/index']);
    expect(pagesOfCall('/Device/devicesByUserId')).toBeUndefined();
    for (const page of Object.keys(PAGE_CALLS)) expect(openPages({ userType: 3, routes: '', platformAdmin: true }).has(page), page).toBe(true);
  });

  it('opens pages by role, or by the route list when there is one', () => {
    const editorIndoor = openPages({ userType: 4, routes: '', platformAdmin: false });
    expect(['/dashboard', '/health/data', '/position/innerMap', '/position/assetInventory'].map((p) => editorIndoor.has(p))).toEqual([true, true, false, false]);
    const healthData = openPages({ userType: 7, routes: '', platformAdmin: false });
    expect(['/dashboard', '/health/data', '/position/innerMap', '/position/assetInventory'].map((p) => healthData.has(p))).toEqual([true, false, true, true]);
    expect([...openPages({ userType: 1, routes: '/,/devices/list', platformAdmin: false })].sort()).toEqual(['/', '/devices/list']);
    // A platform page only for the platform's administrators.
    expect(openPages({ userType: 3, routes: '', platformAdmin: false }).has('/indoorBeacons/index')).toBe(false);
  });
});

describe.each(databases())('page reads on the server on %s', (kind) => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    // agent01 editor (1), clinic01 editor-indoor (4), operator01 editor-healthdata (7), viewer01 a route list.
    for (const name of ['admin', 'agent01', 'clinic01', 'operator01', 'viewer01']) tokens[name] = (await p.login(name)).token;
  });
  afterAll(() => p?.stop());

  const status = async (path: string, body: Record<string, unknown>, who: string) => {
    const r = await p.call(path, body, tokens[who]!, { 'accept-language': 'en' });
    return r.status === 403 ? [403, r.body.State, r.body.Message] : r.status;
  };
  const refused = [403, 403, 'common.forbidden'];

  it('health data and charts: read by the types whose health pages are open, refused to the others', async () => {
    const health = { PageNo: 1, PageCount: 5 };
    expect(await status('/Device/allHealthDataPage', health, 'agent01')).toBe(200);
    expect(await status('/Device/allHealthDataPage', health, 'clinic01')).toBe(200);
    expect(await status('/Device/allHealthDataPage', health, 'operator01')).toEqual(refused);
    expect(await status('/health/HealthHasDataForUsers', {}, 'operator01')).toEqual(refused);
    expect(await status('/health/GetHealth2', { Imei: '865000000000001' }, 'operator01')).toEqual(refused);
    expect(await status('/Device/allHealthDataPage', health, 'viewer01')).toEqual(refused);
  });

  it('dashboard: refused to a type it is not open to (editor-datashow) and to a route list without it', async () => {
    expect(await status('/User/allAdminCount', {}, 'clinic01')).toBe(200);
    expect(await status('/User/adminPageAnalysis', { Days: 1 }, 'operator01')).toBe(200);
    expect(await status('/User/allAdminCount', {}, 'viewer01')).toEqual(refused);
    await p.deps.database.db.execute(sql`UPDATE accounts SET user_type = 5 WHERE login_name = 'clinic01'`);
    const datashow = (await p.login('clinic01')).token;
    expect((await p.call('/User/allAdminCount', {}, datashow)).status).toBe(403);
    await p.deps.database.db.execute(sql`UPDATE accounts SET user_type = 4 WHERE login_name = 'clinic01'`);
  });

  it('inner map and position group: refused to editor-indoor, read by editor-healthdata', async () => {
    expect(await status('/Scene/deviceHistoryForScene', { SceneId: 1, Imei: '865000000000001' }, 'clinic01')).toEqual(refused);
    expect(await status('/Scene/sceneInfoByMonitorForServer', { SceneId: 1 }, 'clinic01')).toEqual(refused);
    expect(await status('/Asset/List', { PageCount: 5 }, 'clinic01')).toEqual(refused);
    expect(await status('/Bluetooth/btMacDevicesByUserId', { PageCount: 5 }, 'clinic01')).toEqual(refused);
    expect(await status('/Asset/List', { PageCount: 5 }, 'operator01')).toBe(200);
    expect(await status('/Bluetooth/btMacDevicesByUserId', { PageCount: 5 }, 'operator01')).toBe(200);
    // What every role's pages read stays open.
    expect(await status('/Bluetooth/allBeaconLocationList', { PageCount: 5 }, 'clinic01')).toBe(200);
    expect(await status('/Device/devicesByUserId', { PageCount: 5 }, 'clinic01')).toBe(200);
  });

  it('a route list narrower than the role closes the pages it leaves out', async () => {
    const { db } = p.deps.database;
    const [agent] = await db.select().from(accounts).where(eq(accounts.loginName, 'agent01'));
    const [set] = await db.insert(permissionSets).values({ ownerId: agent!.parentId, key: 'devices-only', name: 'devices only', routes: '/,/devices/list', actions: '' }).returning();
    await db.update(accounts).set({ permissionSetId: set!.id }).where(eq(accounts.id, agent!.id));
    tokens.agent01 = (await p.login('agent01')).token;
    expect(await status('/Device/allHealthDataPage', { PageCount: 5 }, 'agent01')).toEqual(refused);
    expect(await status('/User/allAdminCount', {}, 'agent01')).toEqual(refused);
    expect(await status('/Device/devicesByUserId', { PageCount: 5 }, 'agent01')).toBe(200);
    // The reports page is open to every role: only a route list without it closes its calls.
    const period = { From: '2026-03-02', To: '2026-03-02' };
    for (const call of ['/Report/Summary', '/Report/Alarms', '/Report/Trips'])
      expect(await status(call, { ...period, PageCount: 5 }, 'agent01'), call).toEqual(refused);
    expect(await status('/Report/Alarms', period, 'viewer01')).toBe(200);
    await db.update(permissionSets).set({ routes: '/,/devices/list,/report/index' }).where(eq(permissionSets.id, set!.id));
    tokens.agent01 = (await p.login('agent01')).token;
    expect(await status('/Report/Alarms', period, 'agent01')).toBe(200);
    expect(await status('/Report/Summary', { ...period, PageCount: 5 }, 'agent01')).toBe(200);
  });
});
