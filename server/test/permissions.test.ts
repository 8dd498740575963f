// Permission sets against a real platform on each database: the list a caller sees, creating,
// editing and deleting sets with their limits, never granting upward, the default sets, applying a
// set to oneself, and a set's change reaching the caller's very next request.
import { eq, sql } from 'drizzle-orm';
import type { PermissionSet } from '@wt/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, permissionSets } from '../src/db/schema/index.js';
import { hashPassword } from '../src/lib/passwords.js';
import { insertAccount } from '../src/modules/user/repo.js';
import { databases, peerProcesses, peersAvailable, startTestPlatform, type TestPlatform } from './helpers.js';

describe.each(databases())('permission sets on %s', (kind) => {
  let p: TestPlatform;
  let admin: { token: string; userId: number };
  let agent: { token: string; userId: number };
  let builtIn: { admin: number; custom: number };

  const set = (over: Record<string, unknown> = {}) => ({
    Key: `k${Math.random().toString(36).slice(2, 8)}`,
    Name: 'Test set',
    Description: '',
    Routes: ['/', '/devices/list'],
    Actions: ['device.add'],
    ...over,
  });

  /** An account below `parentId` (type 1) using set `setId`, logged in. */
  async function subAccount(parentId: number, name: string, setId: number | null) {
    const { db } = p.deps.database;
    const [parent] = await db.select().from(accounts).where(eq(accounts.id, parentId));
    await insertAccount(db, {
      parentId,
      parentPath: parent!.path,
      loginName: name,
      passwordHash: await hashPassword('admin123'),
      kind: 'user',
      userType: 1,
      permissionSetId: setId,
    });
    return p.login(name);
  }

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    admin = await p.login();
    agent = await p.login('agent01');
    const rows = await p.deps.database.db.select().from(permissionSets).where(eq(permissionSets.builtIn, true));
    builtIn = { admin: rows.find((r) => r.key === 'admin')!.id, custom: rows.find((r) => r.key === 'custom')!.id };
  });
  afterAll(() => p?.stop());

  it('lists the default sets and the sets of the caller subtree, with account counts, paged and searchable', async () => {
    const all = (await p.call('/user/rolePermissionList', { PageNo: 1, PageCount: 50 }, admin.token, { 'x-language': 'en' })).body;
    expect(all.State).toBe(200);
    expect(all.Items.slice(0, 2).map((s: PermissionSet) => [s.Key, s.BuiltIn, s.Name, s.Editable])).toEqual([
      ['admin', true, 'Administrator privileges', false],
      ['custom', true, 'User-defined', false],
    ]);
    expect(all.Items[0].Actions).toEqual(['*']);
    const viewOnly = all.Items.find((s: PermissionSet) => s.Key === 'view-only');
    expect(viewOnly).toMatchObject({ AccountCount: 1, Actions: [], OwnerName: 'admin', Editable: true });
    expect(viewOnly.Routes).toEqual(expect.arrayContaining(['/', '/devices/list', '/alarm/record']));
    expect(viewOnly.Routes).not.toContain('/devices/detail');

    const found = (await p.call('/user/rolePermissionList', { Search: 'VIEW-ONL' }, admin.token)).body;
    expect(found.Items.map((s: PermissionSet) => s.Key)).toEqual(['view-only']);
    const page = (await p.call('/user/rolePermissionList', { PageNo: 2, PageCount: 1 }, admin.token)).body;
    expect(page.Total).toBe(all.Total);
    expect(page.Items.map((s: PermissionSet) => s.Key)).toEqual(['custom']);

    // Another tenant's sets are out of sight: agent01 sees the defaults only.
    const theirs = (await p.call('/user/rolePermissionList', {}, agent.token)).body;
    expect(theirs.Items.map((s: PermissionSet) => s.Key)).toEqual(['admin', 'custom']);
    expect(theirs.Items.every((s: PermissionSet) => s.AccountCount === 0)).toBe(true);
  });

  it('creates, edits and deletes a set, refusing unknown items, duplicate keys and a permission editor without its menu', async () => {
    const created = await p.call('/user/InsertRoleInfo', set({ Key: 'ops', Routes: ['/', '/devices/list', '/account/role'], Actions: ['device.add', 'permission.edit'] }), agent.token);
    expect(created.body.State).toBe(200);
    const item = created.body.Item;
    expect(item).toMatchObject({ Key: 'ops', OwnerId: agent.userId, AccountCount: 0, Editable: true, Actions: ['device.add', 'permission.edit'] });
    expect(item.Routes).toEqual(['/', '/devices/list', '/account/role']);
    const [stored] = await p.deps.database.db.select().from(permissionSets).where(eq(permissionSets.id, item.Id));
    expect(stored!.routes.split(',')).toEqual(expect.arrayContaining(['/devices/detail', '/devices/history']));

    const dup = await p.call('/user/InsertRoleInfo', set({ Key: 'OPS' }), agent.token, { 'x-language': 'en' });
    expect(dup.status).toBe(400);
    expect(dup.body.Fields).toEqual([expect.objectContaining({ Field: 'Key', Message: 'permission.keyExists' })]);
    const reserved = await p.call('/user/InsertRoleInfo', set({ Key: 'admin' }), agent.token);
    expect(reserved.body.Fields[0].Message).toBe('permission.keyExists');
    const route = await p.call('/user/InsertRoleInfo', set({ Routes: ['/', '/nowhere'] }), agent.token);
    expect(route.body.Fields[0]).toMatchObject({ Field: 'Routes', Message: 'permission.unknownRoute', Params: { route: '/nowhere' } });
    const action = await p.call('/user/InsertRoleInfo', set({ Actions: ['device.fly'] }), agent.token);
    expect(action.body.Fields[0]).toMatchObject({ Field: 'Actions', Message: 'permission.unknownAction' });
    const noMenu = await p.call('/user/InsertRoleInfo', set({ Actions: ['permission.edit'] }), agent.token, { 'x-language': 'en' });
    expect(noMenu.status).toBe(400);
    expect(noMenu.body.Fields[0]).toMatchObject({ Field: 'Routes', Message: 'permission.needsRoleRoute' });
    expect(noMenu.body.Text).toContain('Account permissions');
    // A set with no menu page would leave its accounts nowhere to land after login.
    for (const Routes of [[], ['/setting/userlogs']]) {
      const noPage = await p.call('/user/InsertRoleInfo', set({ Routes, Actions: [] }), agent.token, { 'x-language': 'en' });
      expect(noPage.status).toBe(400);
      expect(noPage.body.Fields[0]).toMatchObject({ Field: 'Routes', Message: 'permission.noPage' });
      expect(noPage.body.Text).toContain('menu page');
    }
    const blank = await p.call('/user/InsertRoleInfo', set({ Key: ' ', Name: '' }), agent.token);
    expect(blank.body.Fields.map((f: { Message: string }) => f.Message).sort()).toEqual(['permission.keyRequired', 'permission.nameRequired']);

    const emptied = await p.call('/user/editRolePermissionList', { ...set({ Key: 'ops', Routes: [], Actions: [] }), Id: item.Id }, agent.token);
    expect(emptied.body.Fields[0]).toMatchObject({ Field: 'Routes', Message: 'permission.noPage' });
    const edited = await p.call('/user/editRolePermissionList', { ...set({ Key: 'ops', Name: 'Operations' }), Id: item.Id }, agent.token);
    expect(edited.body.Item).toMatchObject({ Name: 'Operations', Actions: ['device.add'] });
    // Another tenant's set is not found, exactly like a missing one.
    const foreign = await p.call('/user/editRolePermissionList', { ...set(), Id: item.Id }, (await p.login('operator01')).token);
    expect(foreign.status).toBe(404);
    expect(foreign.body.Message).toBe('permission.notFound');

    expect((await p.call('/user/delRoleInfo', { Id: item.Id }, agent.token)).body.State).toBe(200);
    expect(await p.deps.database.db.select().from(permissionSets).where(eq(permissionSets.id, item.Id))).toEqual([]);
  });

  it('allows at most 30 sets per account (the 31st is refused and not written)', async () => {
    const owner = await subAccount(agent.userId, 'pm-limit', null);
    const { db } = p.deps.database;
    await db.insert(permissionSets).values(Array.from({ length: 29 }, (_, i) => ({ ownerId: owner.userId, key: `bulk${i}`, name: `Bulk ${i}` })));
    expect((await p.call('/user/InsertRoleInfo', set({ Key: 'thirtieth' }), owner.token)).body.State).toBe(200);
    const over = await p.call('/user/InsertRoleInfo', set({ Key: 'thirty-first' }), owner.token, { 'x-language': 'en' });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ Message: 'permission.limit', Params: { limit: 30 } });
    expect(over.body.Text).toContain('30');
    const [{ n }] = (await db.select({ n: sql<number>`count(*)::int` }).from(permissionSets).where(eq(permissionSets.ownerId, owner.userId))) as [{ n: number }];
    expect(n).toBe(30);
  });

  it('keeps the default sets read-only and refuses to delete a set in use', async () => {
    for (const id of [builtIn.admin, builtIn.custom]) {
      const e = await p.call('/user/editRolePermissionList', { ...set(), Id: id }, admin.token);
      expect(e.status).toBe(403);
      expect(e.body.Message).toBe('permission.builtInReadOnly');
      expect((await p.call('/user/delRoleInfo', { Id: id }, admin.token)).body.Message).toBe('permission.builtInReadOnly');
    }
    const viewOnly = (await p.call('/user/rolePermissionList', { Search: 'view-only' }, admin.token)).body.Items[0];
    const inUse = await p.call('/user/delRoleInfo', { Id: viewOnly.Id }, admin.token, { 'x-language': 'en' });
    expect(inUse.status).toBe(409);
    expect(inUse.body).toMatchObject({ Message: 'account.permissionInUse', Text: 'Cannot delete: accounts use this permission set' });
    expect(await p.deps.database.db.select().from(permissionSets).where(eq(permissionSets.id, viewOnly.Id))).toHaveLength(1);
  });

  it('never grants upward: a set holds at most what its editor holds, and its own set is not its to edit', async () => {
    const mid = (
      await p.call(
        '/user/InsertRoleInfo',
        set({ Key: 'mid', Routes: ['/', '/devices/list', '/account/role'], Actions: ['device.add', 'permission.edit'] }),
        agent.token,
      )
    ).body.Item;
    const sub = await subAccount(agent.userId, 'pm-mid', mid.Id);
    const more = await p.call('/user/InsertRoleInfo', set({ Actions: ['device.add', 'device.delete'] }), sub.token, { 'x-language': 'en' });
    expect(more.status).toBe(400);
    expect(more.body.Fields[0]).toMatchObject({ Field: 'Actions', Message: 'permission.notAllowed' });
    expect(more.body.Text).toContain('Delete devices');
    const wider = await p.call('/user/InsertRoleInfo', set({ Routes: ['/', '/alarm/record'] }), sub.token);
    expect(wider.body.Fields[0]).toMatchObject({ Field: 'Routes', Message: 'permission.notAllowed', Params: { items: '/alarm/record' } });
    // The administrator pages stay out of reach of an editor, whatever its set.
    const adminPage = await p.call('/user/InsertRoleInfo', set({ Routes: ['/model/list'], Actions: [] }), agent.token);
    expect(adminPage.body.Fields[0].Message).toBe('permission.notAllowed');
    expect((await p.call('/user/InsertRoleInfo', set({ Key: 'within' }), sub.token)).body.State).toBe(200);

    // Its set belongs to its parent: out of its sight, not found.
    const own = await p.call('/user/editRolePermissionList', { ...set({ Key: 'mid', Actions: ['device.add', 'device.delete'] }), Id: mid.Id }, sub.token);
    expect(own.status).toBe(404);
    const ownList = (await p.call('/user/rolePermissionList', {}, sub.token)).body.Items;
    expect(ownList.find((s: PermissionSet) => s.Id === mid.Id)).toBeUndefined();
    // Applying a wider set to oneself is upward too.
    for (const id of [builtIn.admin, builtIn.custom]) {
      const up = await p.call('/user/applyPermissionSet', { Id: id }, sub.token);
      expect(up.status).toBe(403);
      expect(up.body.Message).toBe('permission.notAssignable');
    }
    const [row] = await p.deps.database.db.select().from(accounts).where(eq(accounts.id, sub.userId));
    expect(row!.permissionSetId).toBe(mid.Id);
  });

  it('applies a set to oneself: a new token, the old one ended, the user info and the refusals follow', async () => {
    const owner = await subAccount(agent.userId, 'pm-apply', null);
    const narrow = (
      await p.call('/user/InsertRoleInfo', set({ Key: 'narrow', Routes: ['/', '/devices/list', '/account/role'], Actions: ['device.add', 'permission.edit'] }), owner.token)
    ).body.Item;
    const before = (await p.call('/User/UserInfo', {}, owner.token)).body.UserInfo;
    expect(before.Permissions).toEqual(['*']);
    const applied = await p.call('/user/applyPermissionSet', { Id: narrow.Id }, owner.token);
    expect(applied.body.State).toBe(200);
    expect(applied.body.AccessToken).not.toBe(owner.token);
    expect((await p.call('/User/UserInfo', {}, owner.token)).status).toBe(401);
    const fresh = applied.body.AccessToken;
    const info = (await p.call('/User/UserInfo', {}, fresh)).body.UserInfo;
    expect(info).toMatchObject({ PermissionId: narrow.Id, Permissions: ['device.add', 'permission.edit'] });
    // The monitor brings its alarm page; the track page is the administrator's and is left out.
    expect(info.routes.split(',')).toEqual(['/', '/deviceAlarm', '/devices/list', '/devices/detail', '/devices/history', '/account/role']);
    const refused = await p.call('/Device/BatchDelDevices', { Imeis: ['865000000000001'] }, fresh, { 'x-language': 'en' });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ State: 403, Message: 'permission.denied', Params: { action: 'Delete devices', code: 'device.delete' } });
    // Its own set is now out of its hands, and the refresh token of the new session works.
    const own = await p.call('/user/editRolePermissionList', { ...set({ Key: 'narrow', Routes: ['/', '/devices/list', '/account/role'], Actions: ['device.add', 'permission.edit'] }), Id: narrow.Id }, fresh);
    expect(own.status).toBe(403);
    expect(own.body.Message).toBe('permission.ownSet');
    expect((await p.call('/user/rolePermissionList', { Search: 'narrow' }, fresh)).body.Items[0]).toMatchObject({ Editable: false, AccountCount: 1 });
    const refreshed = await p.call('/User/RefreshToken', { UserId: owner.userId, RefreshToken: applied.body.refreshToken });
    expect(refreshed.body.State).toBe(200);
  });

  it('takes a change of set, flag or type into account on the very next request', async () => {
    const s = (await p.call('/user/InsertRoleInfo', set({ Key: 'live', Actions: [] }), agent.token)).body.Item;
    const sub = await subAccount(agent.userId, 'pm-live', s.Id);
    const del = () => p.call('/Device/BatchDelDevices', { Imeis: ['865000000000999'] }, sub.token);
    expect((await del()).body.Message).toBe('permission.denied');
    await p.call('/user/editRolePermissionList', { ...set({ Key: 'live', Actions: ['device.delete'] }), Id: s.Id }, agent.token);
    const allowed = await del();
    expect(allowed.status).not.toBe(403);
    await p.call('/user/editRolePermissionList', { ...set({ Key: 'live', Actions: [] }), Id: s.Id }, agent.token);
    expect((await del()).body.Message).toBe('permission.denied');

    // The forced password change, set elsewhere and announced: every call but the four is refused.
    const { db } = p.deps.database;
    await db.update(accounts).set({ mustChangePassword: true }).where(eq(accounts.id, sub.userId));
    p.app.authenticator.invalidateAccount(sub.userId);
    const blocked = await p.call('/Device/devicesByUserId', {}, sub.token, { 'x-language': 'en' });
    expect(blocked.status).toBe(403);
    expect(blocked.body).toMatchObject({ Message: 'account.mustChangePassword', Text: 'Please change your password first' });
    expect((await p.call('/User/UserInfo', {}, sub.token)).body.State).toBe(200);
    await db.update(accounts).set({ mustChangePassword: false, userType: 3 }).where(eq(accounts.id, sub.userId));
    p.app.authenticator.invalidateAccount(agent.userId);
    // Announced for its parent: the subtree is read afresh too; an administrator type holds every action.
    expect((await del()).status).not.toBe(403);
  });
});

describe.skipIf(!peersAvailable())('a set change across processes over Redis', () => {
  const peers = peerProcesses();

  it("refuses on another process's cached session once the set lost the action", async () => {
    const { p, q } = peers;
    const agent = await p.login('agent01');
    const body = { Key: 'redis-live', Name: 'Live', Description: '', Routes: ['/', '/devices/list'], Actions: ['device.delete'] };
    const s = (await p.call('/user/InsertRoleInfo', body, agent.token)).body.Item;
    const { db } = p.deps.database;
    const [parent] = await db.select().from(accounts).where(eq(accounts.id, agent.userId));
    await insertAccount(db, { parentId: parent!.id, parentPath: parent!.path, loginName: 'pm-redis', passwordHash: await hashPassword('admin123'), kind: 'user', userType: 1, permissionSetId: s.Id });
    const sub = await p.login('pm-redis');
    const onQ = async () =>
      (
        await fetch(`${q.url}/api/Device/BatchDelDevices`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${sub.token}` },
          body: JSON.stringify({ Imeis: ['865000000009999'] }),
        })
      ).status;
    expect(await onQ()).not.toBe(403);
    expect((await p.call('/user/editRolePermissionList', { ...body, Actions: [], Id: s.Id }, agent.token)).body.State).toBe(200);
    // The bus carries the change; well before the 5 s the cache would otherwise keep the old set.
    await expect.poll(onQ, { timeout: 2000, interval: 50 }).toBe(403);
  });
});
