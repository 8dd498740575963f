// Account administration against a real platform on each database: the subtree as a tree and
// tables, creating, editing, resetting, deleting and moving sub-accounts, the forced password
// change and the agent authorization. Demo tree: admin > agent01 > clinic01 (20 watches, 001-020);
// admin > operator01 (6 devices), admin > viewer01 (10 trackers); agent01 holds 8 watches.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWatchFrame, watchContent } from '@wt/protocols';
import { TOPICS, type PositionEvent } from '../src/pipeline/events.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { FakeDevice, eventually } from './gateway-helpers.js';
import { RealtimeClient } from './monitor-fixtures.js';

describe.each(databases())('account administration on %s', (kind) => {
  let p: TestPlatform;
  let admin: { token: string; userId: number };
  let agent: { token: string; userId: number };
  const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => p.deps.database.query<T>(text, params);
  const idOf = async (login: string) => (await q<{ id: number }>('SELECT id FROM accounts WHERE login_name = $1', [login]))[0]!.id;
  const pathOf = async (login: string) => (await q<{ path: string }>('SELECT path FROM accounts WHERE login_name = $1', [login]))[0]?.path;
  const accountCount = async () => Number((await q<{ n: number }>('SELECT count(*)::int AS n FROM accounts'))[0]!.n);
  const create = (token: string, body: Record<string, unknown>) => p.call('/user/registerNewUser', body, token);

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    admin = await p.login();
    agent = await p.login('agent01');
  });
  afterAll(() => p?.stop());

  it('lists the direct children with their type, role, set, device counts own and below, and children', async () => {
    const r = await p.call('/user/childrenUsers', {}, admin.token, { 'accept-language': 'en' });
    expect(r.status).toBe(200);
    expect(r.body.Parent).toMatchObject({ UserId: admin.userId, LoginName: 'admin', HasChildren: true });
    const byName = Object.fromEntries(r.body.Items.map((i: { LoginName: string }) => [i.LoginName, i]));
    expect(Object.keys(byName).sort()).toEqual(['agent01', 'operator01', 'viewer01']);
    expect(byName.agent01).toMatchObject({ AccountKind: 'agent', UserType: 1, RoleLabel: 'editor', DeviceCount: 8, TotalDeviceCount: 28, ChildCount: 1, AgentAuthorized: true });
    const [viewerSet] = await q<{ name: string }>(`SELECT ps.name FROM permission_sets ps JOIN accounts a ON a.permission_set_id = ps.id WHERE a.login_name = 'viewer01'`);
    expect(byName.viewer01).toMatchObject({ UserType: 10, PermissionName: viewerSet!.name, DeviceCount: 10, TotalDeviceCount: 10, ChildCount: 0 });
    expect(byName.agent01.CreateDT).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(r.body.Total).toBe(3);
    // Paged, and narrowed by company or contact.
    const page = await p.call('/user/childrenUsers', { PageNo: 2, PageCount: 2 }, admin.token);
    expect(page.body).toMatchObject({ Total: 3, Items: [expect.any(Object)] });
    const found = await p.call('/user/childrenUsers', { Keyword: '华南' }, admin.token);
    expect(found.body.Items.map((i: { LoginName: string }) => i.LoginName)).toEqual(['agent01']);
  });

  it('opens tree nodes lazily and searches by login name, company or contact with the path to each match', async () => {
    const root = await p.call('/user/allChildrenUsers', {}, agent.token);
    expect(root.body.Node).toMatchObject({ UserId: agent.userId, HasChildren: true });
    expect(root.body.Items).toEqual([expect.objectContaining({ LoginName: 'clinic01', HasChildren: false, ParentId: agent.userId })]);
    const s = await p.call('/user/searchAccountByName', { Keyword: '康宁' }, admin.token);
    expect(s.body.Items).toEqual([
      expect.objectContaining({ LoginName: 'clinic01', Ancestors: [expect.objectContaining({ LoginName: 'admin' }), expect.objectContaining({ LoginName: 'agent01' })] }),
    ]);
    const own = await p.call('/user/searchAccountByName', { Keyword: 'clinic' }, agent.token);
    expect(own.body.Items).toEqual([expect.objectContaining({ LoginName: 'clinic01', Ancestors: [expect.objectContaining({ LoginName: 'agent01' })] })]);
    // Nothing outside the caller's subtree, whatever the keyword.
    expect((await p.call('/user/searchAccountByName', { Keyword: 'viewer' }, agent.token)).body.Items).toEqual([]);
    expect((await p.call('/user/searchAccountByName', { Keyword: 'admin' }, agent.token)).body.Items).toEqual([]);
    const blank = await p.call('/user/searchAccountByName', { Keyword: '  ' }, agent.token);
    expect(blank.status).toBe(400);
    expect(blank.body.Fields[0]).toMatchObject({ Field: 'Keyword', Message: 'account.keywordRequired' });
  });

  it('never reads, edits, resets, moves or deletes outside the subtree', async () => {
    const viewer = await idOf('viewer01');
    const before = await q('SELECT * FROM accounts ORDER BY id');
    const tries = [
      p.call('/user/childrenUsers', { UserId: admin.userId }, agent.token),
      p.call('/user/childrenUsers', { UserId: viewer }, agent.token),
      p.call('/user/allChildrenUsers', { UserId: viewer }, agent.token),
      p.call('/user/EditUserInfoOther', { UserId: viewer, companyName: 'taken' }, agent.token),
      p.call('/user/InitUserPassword', { UserId: viewer }, agent.token),
      p.call('/user/removeUserById', { UserId: viewer }, agent.token),
      p.call('/user/moveAccount', { UserId: viewer, ParentId: agent.userId }, agent.token),
      p.call('/user/moveAccount', { UserId: await idOf('clinic01'), ParentId: viewer }, agent.token),
      create(agent.token, { LoginName: 'outside01', ParentId: viewer }),
    ];
    for (const r of await Promise.all(tries)) {
      expect(r.status).toBe(403);
      expect(r.body.Message).toBe('account.notInScope');
    }
    expect(await q('SELECT * FROM accounts ORDER BY id')).toEqual(before);
  });

  it('creates a sub-account with a generated password answered once, which must be changed at first login', async () => {
    const r = await create(agent.token, { LoginName: 'family01', ParentId: await idOf('clinic01'), AccountKind: 'user', UserType: 1, companyName: 'Family', Contact: 'Li', CellPhone: '13900000001', Email: 'family01@example.com', PageName: 'Care' });
    expect(r.body).toMatchObject({ State: 200, UserId: expect.any(Number), Password: expect.stringMatching(/^(?=.*\d)(?=.*[a-z])(?=.*[A-Z])[A-Za-z0-9]{12}$/) });
    expect(await pathOf('family01')).toBe(`${await pathOf('clinic01')}${r.body.UserId}/`);
    const login = await p.call('/User/Login', { LoginName: 'family01', Password: r.body.Password });
    expect(login.body).toMatchObject({ State: 0, MustChangePassword: true });
    const info = await p.call('/User/UserInfo', {}, login.body.AccessToken);
    expect(info.body.UserInfo).toMatchObject({ MustChangePassword: true, companyName: 'Family', PageName: 'Care' });
    // Nothing else until the password is changed.
    const before = await q('SELECT * FROM accounts WHERE login_name = $1', ['family01']);
    for (const [path, body] of [['/user/childrenUsers', {}], ['/user/EditUserInfoForCurrentUser', { Contact: 'x' }], ['/Device/devicesByUserId', {}]] as const) {
      const r = await p.call(path, body, login.body.AccessToken);
      expect(r.status).toBe(403);
      expect(r.body.Message).toBe('account.mustChangePassword');
    }
    expect(await q('SELECT * FROM accounts WHERE login_name = $1', ['family01'])).toEqual(before);
    const changed = await p.call('/User/ChangePassword', { OldPass: r.body.Password, NewPass: 'Family123' }, login.body.AccessToken);
    expect(changed.body.State).toBe(0);
    expect((await p.call('/user/childrenUsers', {}, login.body.AccessToken)).status).toBe(200);
    const again = await p.call('/User/Login', { LoginName: 'family01', Password: 'Family123' });
    expect(again.body.MustChangePassword).toBe(false);

    // A password given by the creator is not answered, and not to be changed.
    const given = await create(agent.token, { LoginName: 'family02', Password: 'abc123' });
    expect(given.body.Password).toBeUndefined();
    expect((await p.call('/User/Login', { LoginName: 'family02', Password: 'abc123' })).body.MustChangePassword).toBe(false);
    expect(await pathOf('family02')).toBe(`${await pathOf('agent01')}${given.body.UserId}/`);
  });

  it('refuses a login account that exists anywhere, a type above the creator, and bad fields, creating nothing', async () => {
    const n = await accountCount();
    const taken = await create(agent.token, { LoginName: 'VIEWER01' }, );
    expect(taken.status).toBe(409);
    expect(taken.body).toMatchObject({ Message: 'account.loginExists', Params: { name: 'VIEWER01' } });
    expect(taken.body.Fields[0]).toMatchObject({ Field: 'LoginName' });
    // agent01 is an editor (type 1): no administrator, no type with pages it does not have.
    for (const UserType of [3, 4, 10]) {
      const above = await create(agent.token, { LoginName: `above${UserType}`, UserType });
      expect(above.status).toBe(403);
      expect(above.body.Fields[0]).toMatchObject({ Field: 'UserType', Message: 'account.userTypeAbove' });
    }
    const bad = await create(agent.token, { LoginName: 'bad name', Password: 'ab', Email: 'nope', UserType: 11, AccountKind: 'boss' });
    expect(bad.status).toBe(400);
    expect(bad.body.Fields.map((f: { Field: string }) => f.Field).sort()).toEqual(['AccountKind', 'Email', 'LoginName', 'Password', 'UserType']);
    const set = await create(agent.token, { LoginName: 'withset', PermissionId: 2_000_000 });
    expect(set.status).toBeGreaterThanOrEqual(400);
    expect(set.body.Message).toMatch(/^permission\./);
    expect(await accountCount()).toBe(n);
    // An administrator may create an administrator, with a permission set.
    const [viewerSet] = await q<{ id: number; name: string }>(`SELECT ps.id, ps.name FROM permission_sets ps JOIN accounts a ON a.permission_set_id = ps.id WHERE a.login_name = 'viewer01'`);
    const ok = await create(admin.token, { LoginName: 'admin02', UserType: 3, PermissionId: viewerSet!.id });
    expect(ok.body.State).toBe(200);
    const row = (await p.call('/user/childrenUsers', { Keyword: 'admin02' }, admin.token)).body.Items[0];
    expect(row).toMatchObject({ UserType: 3, RoleLabel: 'admin', PermissionId: viewerSet!.id, PermissionName: viewerSet!.name });
  });

  it('edits a sub-account but not oneself there, and oneself without changing type, set or parent', async () => {
    const clinic = await idOf('clinic01');
    const r = await p.call('/user/EditUserInfoOther', { UserId: clinic, Contact: 'Wang', CellPhone: '+86 755-1234' }, agent.token);
    expect(r.body.Item).toMatchObject({ UserId: clinic, Contact: 'Wang', CellPhone: '+86 755-1234' });
    const selfEdit = await p.call('/user/EditUserInfoOther', { UserId: agent.userId, UserType: 1 }, agent.token);
    expect(selfEdit.status).toBe(403);
    expect(selfEdit.body.Message).toBe('account.editSelfHere');
    const up = await p.call('/user/EditUserInfoOther', { UserId: clinic, UserType: 3 }, agent.token);
    expect(up.body.Fields[0]).toMatchObject({ Field: 'UserType', Message: 'account.userTypeAbove' });
    const mine = await p.call('/user/EditUserInfoForCurrentUser', { Contact: 'Zhou' }, agent.token);
    expect(mine.body.Item).toMatchObject({ UserId: agent.userId, Contact: 'Zhou' });
    const before = await q('SELECT * FROM accounts WHERE id = $1', [agent.userId]);
    const raise = await p.call('/user/EditUserInfoForCurrentUser', { Contact: 'Other', UserType: 3, PermissionId: 1, ParentId: agent.userId }, agent.token);
    expect(raise.status).toBe(403);
    expect(raise.body.Fields.map((f: { Field: string }) => f.Field).sort()).toEqual(['ParentId', 'PermissionId', 'UserType']);
    expect(await q('SELECT * FROM accounts WHERE id = $1', [agent.userId])).toEqual(before);
    // Sending one's own current values is no change, and allowed.
    expect((await p.call('/user/EditUserInfoForCurrentUser', { UserType: 1, Contact: 'Zhou' }, agent.token)).body.State).toBe(200);
  });

  it('resets a password to a random one answered once, ending the sessions and forcing a change', async () => {
    const made = await create(agent.token, { LoginName: 'reset01', Password: 'abc123' });
    const session = await p.login('reset01', 'abc123');
    const r = await p.call('/user/InitUserPassword', { UserId: made.body.UserId }, agent.token);
    expect(r.body.Password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect((await p.call('/User/UserInfo', {}, session.token)).status).toBe(401);
    expect((await p.call('/User/Login', { LoginName: 'reset01', Password: 'abc123' })).body.State).not.toBe(0);
    const login = await p.call('/User/Login', { LoginName: 'reset01', Password: r.body.Password });
    expect(login.body.MustChangePassword).toBe(true);
    const row = (await p.call('/user/childrenUsers', { Keyword: 'reset01' }, agent.token)).body.Items[0];
    expect(row.MustChangePassword).toBe(true);
    const second = await p.call('/user/InitUserPassword', { UserId: made.body.UserId }, agent.token);
    expect(second.body.Password).not.toBe(r.body.Password);
    const own = await p.call('/user/InitUserPassword', { UserId: agent.userId }, agent.token);
    expect(own.status).toBe(403);
    expect(own.body.Message).toBe('account.resetSelf');
  });

  it('refuses to delete an account with sub-accounts or devices, or oneself, and deletes an empty one', async () => {
    const cases: [number, string][] = [
      [agent.userId, 'account.deleteHasChildren'],
      [await idOf('operator01'), 'account.deleteHasDevices'],
      [admin.userId, 'account.deleteSelf'],
    ];
    for (const [UserId, key] of cases) {
      const before = await accountCount();
      const r = await p.call('/user/removeUserById', { UserId }, admin.token, { 'accept-language': 'en' });
      expect(r.body.Message).toBe(key);
      expect(r.status).toBeGreaterThanOrEqual(400);
      expect(await accountCount()).toBe(before);
    }
    const en = await p.call('/user/removeUserById', { UserId: agent.userId }, admin.token, { 'accept-language': 'en' });
    expect(en.body.Text).toBe('Cannot delete: the account has sub-accounts');
    const made = await create(agent.token, { LoginName: 'gone01', Password: 'abc123' });
    const session = await p.login('gone01', 'abc123');
    const r = await p.call('/user/removeUserById', { UserId: made.body.UserId }, agent.token);
    expect(r.body.State).toBe(200);
    expect(await pathOf('gone01')).toBeUndefined();
    expect((await p.call('/User/UserInfo', {}, session.token)).status).toBe(401);
  });

  it('moves an account with its subtree in one step, never under itself, a descendant or by the caller itself', async () => {
    const branch = await create(agent.token, { LoginName: 'branch01', Password: 'abc123' });
    const clinic = await idOf('clinic01');
    const family = await idOf('family01');
    const refusals: [Record<string, number>, string][] = [
      [{ UserId: clinic, ParentId: clinic }, 'account.moveUnderItself'],
      [{ UserId: clinic, ParentId: family }, 'account.moveUnderItself'],
      [{ UserId: clinic, ParentId: agent.userId }, 'account.moveSameParent'],
    ];
    const before = await q('SELECT id, path, parent_id FROM accounts ORDER BY id');
    for (const [body, key] of refusals) {
      const r = await p.call('/user/moveAccount', body, agent.token);
      expect(r.status).toBe(400);
      expect(r.body.Fields[0]).toMatchObject({ Field: 'ParentId', Message: key });
    }
    const self = await p.call('/user/moveAccount', { UserId: agent.userId, ParentId: await idOf('operator01') }, admin.token);
    expect(self.body.State).toBe(200);
    const own = await p.call('/user/moveAccount', { UserId: agent.userId, ParentId: branch.body.UserId }, agent.token);
    expect(own.body.Message).toBe('account.moveSelf');
    const back = await p.call('/user/moveAccount', { UserId: agent.userId, ParentId: admin.userId }, admin.token);
    expect(back.body.State).toBe(200);
    expect(await q('SELECT id, path, parent_id FROM accounts ORDER BY id')).toEqual(before);

    // A connected watch of the care home: the gateway's cache learns the new path at once.
    const positions: PositionEvent[] = [];
    const off = p.deps.bus.subscribe<PositionEvent>(TOPICS.position, (e) => positions.push(e));
    const dev = await FakeDevice.connect(p.deps.ingest.ports.watch!);
    try {
      const fix = { time: new Date(), valid: true, lat: 22.54, lon: 113.95, speed: 0, course: 0, satellites: 6 };
      dev.send(buildWatchFrame('3G', '865000000000003', watchContent.ud({ fix })));
      await eventually(async () => positions.find((e) => e.imei === '865000000000003'));
      const r = await p.call('/user/moveAccount', { UserId: clinic, ParentId: branch.body.UserId }, agent.token);
      expect(r.body).toMatchObject({ State: 200, Accounts: 2, Devices: 20, Item: { UserId: clinic, ParentId: branch.body.UserId, TotalDeviceCount: 20 } });
      const branchPath = await pathOf('branch01');
      expect(await pathOf('clinic01')).toBe(`${branchPath}${clinic}/`);
      expect(await pathOf('family01')).toBe(`${branchPath}${clinic}/${family}/`);
      positions.length = 0;
      dev.send(buildWatchFrame('3G', '865000000000003', watchContent.ud({ fix: { ...fix, time: new Date(Date.now() + 1000) } })));
      const e = await eventually(async () => positions.find((x) => x.imei === '865000000000003'));
      expect(e.accountPath).toBe(`${branchPath}${clinic}/`);
    } finally {
      off();
      dev.socket.destroy();
    }
    // The devices' scope follows: the branch sees them, the agent too, viewer01 never.
    const list = await p.call('/Device/devicesByUserId', { UserId: branch.body.UserId, PageCount: 100 }, agent.token);
    expect(list.body.Total).toBe(20);
    const table = await p.call('/user/childrenUsers', { UserId: branch.body.UserId }, agent.token);
    expect(table.body.Items).toEqual([expect.objectContaining({ LoginName: 'clinic01', TotalDeviceCount: 20, ChildCount: 1 })]);
    const agentRow = (await p.call('/user/childrenUsers', { Keyword: 'agent01' }, admin.token)).body.Items[0];
    expect(agentRow.TotalDeviceCount).toBe(28);
  });

  it('keeps the live connection of a moved account, which then hears its devices by their new path', async () => {
    const moved = await create(agent.token, { LoginName: 'live01', Password: 'abc123' });
    const parent = await create(agent.token, { LoginName: 'liveparent', Password: 'abc123' });
    const session = await p.login('live01', 'abc123');
    const live = await RealtimeClient.connect(p.url, session.token, session.userId);
    try {
      const r = await p.call('/user/moveAccount', { UserId: moved.body.UserId, ParentId: parent.body.UserId }, agent.token);
      expect(r.body.State).toBe(200);
      const path = (await pathOf('live01'))!;
      const now = new Date().toISOString();
      p.deps.bus.publish(TOPICS.position, {
        deviceId: 987654, imei: '865987654000001', name: 'live', accountId: moved.body.UserId, accountPath: path, protocol: 'watch',
        time: now, receivedAt: now, lat: 22.5, lon: 114.1, valid: true,
      } satisfies PositionEvent);
      await live.until((m) => m.type === 'devices' && m.devices.some((d) => d.i === 987654));
      expect(live.closed).toBe(false);
    } finally {
      live.close();
    }
  });

  /** The platform (admin) stocks IMEIs in and sells them to a customer account: the evidence of an agent's claim. */
  async function sellTo(customerId: number, list: string[], token = admin.token) {
    const inv = (path: string, body: unknown) => p.call(`/Inventory/${path}`, body, token);
    let model = (await inv('ModelList', { PageCount: 100 })).body.Items.find((m: { Name: string }) => m.Name === 'AGENT-TEST')?.Id;
    model ??= (await inv('ModelInsert', { Name: 'AGENT-TEST' })).body.Id;
    const store = (await inv('StoreList', { PageCount: 100 })).body.Items[0].Id;
    expect((await inv('BatchInsert', { ModelId: model, StoreId: store, StockInDate: '2026-11-01', Imeis: list })).body.State).toBe(200);
    const sale = await inv('SalesInsert', { CustomerId: customerId, ModelId: model, Imeis: list });
    expect(sale.body.State).toBe(200);
    return sale.body.SaleNo as string;
  }

  it('lets only the platform grant the agent flag', async () => {
    const made = await create(admin.token, { LoginName: 'agent02', Password: 'abc123', AccountKind: 'agent' });
    const agent2 = await p.login('agent02', 'abc123');
    const refused = await p.call('/user/agentAuthorize', { Imeis: '865000000000045' }, agent2.token);
    expect(refused.status).toBe(403);
    expect(refused.body.Message).toBe('account.agentNotAuthorized');
    expect((await p.call('/user/setAgentAuthorization', { UserId: made.body.UserId, AgentAuthorized: true }, agent.token)).status).toBe(403);
    const notAgent = await p.call('/user/setAgentAuthorization', { UserId: await idOf('operator01'), AgentAuthorized: true }, admin.token);
    expect(notAgent.body.Message).toBe('account.notAgent');
    const granted = await p.call('/user/setAgentAuthorization', { UserId: made.body.UserId, AgentAuthorized: true }, admin.token);
    expect(granted.body.Item.AgentAuthorized).toBe(true);
  });

  it("refuses agent01 the demo's viewer01 and operator01 tenants, and says nothing of who holds an IMEI", async () => {
    const before = await q<{ login_name: string; path: string }>('SELECT login_name, path FROM accounts ORDER BY id');
    const devicesBefore = await q<{ imei: string; account_id: number }>('SELECT imei, account_id FROM devices ORDER BY id');
    // 029 is a tracker of viewer01, 041 a device of operator01; 021 is agent01's own; 001 is clinic01's
    // (in its tree); 999… is no device at all.
    const r = await p.call('/user/agentAuthorize', { Imeis: ['865000000000029', '865000000000041', '865000000000021', '865000000000001', '999000000000000'] }, agent.token);
    expect(r.body).toMatchObject({ State: 200, Moved: 0, Accounts: 0 });
    expect(r.body.Items).toEqual([
      { Imei: '865000000000029', Outcome: 'notSoldToYou' },
      { Imei: '865000000000041', Outcome: 'notSoldToYou' },
      { Imei: '865000000000021', Outcome: 'inYourTree', LoginName: 'agent01' },
      { Imei: '865000000000001', Outcome: 'inYourTree', LoginName: 'clinic01' },
      { Imei: '999000000000000', Outcome: 'notSoldToYou' },
    ]);
    expect(await q('SELECT login_name, path FROM accounts ORDER BY id')).toEqual(before);
    expect(await q('SELECT imei, account_id FROM devices ORDER BY id')).toEqual(devicesBefore);
    // Even sold to the agent, an account an administrator made is not the agent's to take.
    const soldTracker = '865000000000030';
    await q(`DELETE FROM devices WHERE imei = $1`, [soldTracker]);
    await sellTo(agent.userId, [soldTracker]);
    await q(`UPDATE devices SET account_id = $1 WHERE imei = $2`, [await idOf('viewer01'), soldTracker]);
    const made = await p.call('/user/agentAuthorize', { Imeis: [soldTracker] }, agent.token);
    expect(made.body.Items).toEqual([{ Imei: soldTracker, Outcome: 'notTakeable' }]);
    expect(await pathOf('viewer01')).toBe(before.find((a) => a.login_name === 'viewer01')!.path);
    // And the sub-account that now could reset their passwords is not theirs: agent01 cannot reach viewer01.
    expect((await p.call('/user/InitUserPassword', { UserId: await idOf('viewer01') }, agent.token)).status).not.toBe(200);
  });

  it('takes a self-registered end user holding a device sold to the agent, with the evidence in the log; refuses one whose device it did not sell', async () => {
    const agent2 = await p.login('agent02', 'abc123');
    const agent2Id = await idOf('agent02');
    for (const n of ['enduser1', 'enduser2', 'enduser4']) {
      await p.call('/User/Register', { LoginName: n, Password: 'abc123', ConfirmPassword: 'abc123', Email: `${n}@example.com` });
    }
    const [u1, u2, u4] = [await idOf('enduser1'), await idOf('enduser2'), await idOf('enduser4')];
    const child = await create(admin.token, { LoginName: 'endchild', Password: 'abc123', ParentId: u2 });
    // The platform sold 045-048 to agent02; the end users then bound them (the devices went to their accounts).
    const sold = ['865000000000045', '865000000000046', '865000000000047', '865000000000048'];
    await q(`DELETE FROM devices WHERE imei = ANY($1)`, [sold]);
    const saleNo = await sellTo(agent2Id, sold);
    await q(`UPDATE devices SET account_id = $1 WHERE imei IN ('865000000000045', '865000000000046')`, [u1]);
    await q(`UPDATE devices SET account_id = $1 WHERE imei = '865000000000047'`, [child.body.UserId]);
    // enduser4 holds 044, which nobody sold to agent02.
    await q(`UPDATE devices SET account_id = $1 WHERE imei = '865000000000044'`, [u4]);

    const r = await p.call(
      '/user/agentAuthorize',
      { Imeis: '865000000000045\n865000000000046, 865000000000045 865000000000047 865000000000044 12345' },
      agent2.token,
    );
    expect(r.body).toMatchObject({ State: 200, Moved: 2, Accounts: 1 });
    expect(r.body.Items).toEqual([
      { Imei: '865000000000045', Outcome: 'moved', LoginName: 'enduser1' },
      { Imei: '865000000000046', Outcome: 'moved', LoginName: 'enduser1' },
      { Imei: '865000000000045', Outcome: 'duplicate' },
      // Sold to the agent, but held by an account an administrator made (below an end user).
      { Imei: '865000000000047', Outcome: 'notTakeable' },
      { Imei: '865000000000044', Outcome: 'notSoldToYou' },
      { Imei: '12345', Outcome: 'invalid' },
    ]);
    expect(await pathOf('enduser1')).toBe(`${await pathOf('agent02')}${u1}/`);
    expect(await pathOf('enduser4')).toBe(`/${admin.userId}/${u4}/`);
    // 045 and 046 came with enduser1; 048 is still agent02's own, as the sale left it.
    expect((await p.call('/Device/devicesByUserId', {}, agent2.token)).body.Total).toBe(3);
    // Again: now in its tree. The self-registered owner with a sub-account moves whole.
    const again = await p.call('/user/agentAuthorize', { Imeis: ['865000000000045'] }, agent2.token);
    expect(again.body.Items).toEqual([{ Imei: '865000000000045', Outcome: 'inYourTree', LoginName: 'enduser1' }]);
    await q(`UPDATE devices SET account_id = $1 WHERE imei = '865000000000048'`, [u2]);
    const whole = await p.call('/user/agentAuthorize', { Imeis: ['865000000000048'] }, agent2.token);
    expect(whole.body).toMatchObject({ Moved: 1, Accounts: 1 });
    expect(await pathOf('endchild')).toBe(`${await pathOf('agent02')}${u2}/${child.body.UserId}/`);

    // Audited with the change: the outcome of every IMEI, and per account taken the evidence.
    const logs = await q<{ object: string; login_name: string; detail: string }>(
      `SELECT object, login_name, detail FROM operation_logs WHERE call = '/user/agentAuthorize' AND state = 0 AND login_name = 'agent02' ORDER BY id`,
    );
    expect(logs.map((l) => l.object)).toEqual(['2/6 IMEI, 1 accounts', 'enduser1 → agent02', '0/1 IMEI, 0 accounts', '1/1 IMEI, 1 accounts', 'enduser2 → agent02']);
    expect(JSON.parse(logs[0]!.detail)).toContainEqual(['865000000000047', 'notTakeable', '']);
    const evidence = JSON.parse(logs[1]!.detail);
    expect(evidence.Owner).toMatchObject({ Id: u1, LoginName: 'enduser1', Origin: 'registered' });
    expect(evidence.Sales).toEqual([
      expect.objectContaining({ Imei: '865000000000045', SaleNo: saleNo, Seller: 'admin', Customer: 'agent02' }),
      expect.objectContaining({ Imei: '865000000000046', SaleNo: saleNo, Seller: 'admin', Customer: 'agent02' }),
    ]);
  });

  it("does not take a sale made inside the agent's own tree as evidence", async () => {
    // An administrator of a branch below agent02 stocks in and "sells" an IMEI to agent02 itself.
    await create(admin.token, { LoginName: 'branchadmin2', Password: 'abc123', ParentId: await idOf('agent02'), UserType: 3 });
    const branch = await p.login('branchadmin2', 'abc123');
    const agent2 = await p.login('agent02', 'abc123');
    await p.call('/User/Register', { LoginName: 'enduser5', Password: 'abc123', ConfirmPassword: 'abc123', Email: 'enduser5@example.com' });
    const imei = '865000000000050';
    await q(`DELETE FROM devices WHERE imei = $1`, [imei]);
    await sellTo(await idOf('branchadmin2'), [imei], branch.token);
    await q(`UPDATE devices SET account_id = $1 WHERE imei = $2`, [await idOf('enduser5'), imei]);
    const r = await p.call('/user/agentAuthorize', { Imeis: [imei] }, agent2.token);
    expect(r.body.Items).toEqual([{ Imei: imei, Outcome: 'notSoldToYou' }]);
    expect(await pathOf('enduser5')).toBe(`/${admin.userId}/${await idOf('enduser5')}/`);
  });

  it('reads the IMEIs of an Excel list', async () => {
    await p.call('/User/Register', { LoginName: 'enduser3', Password: 'abc123', ConfirmPassword: 'abc123', Email: 'enduser3@example.com' });
    await q(`DELETE FROM devices WHERE imei = '865000000000049'`);
    await sellTo(await idOf('agent02'), ['865000000000049']);
    await q(`UPDATE devices SET account_id = $1 WHERE imei = '865000000000049'`, [await idOf('enduser3')]);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('IMEI');
    ws.addRow(['IMEI', 'Note']);
    ws.addRow(['865000000000049', 'sold 2026-10']);
    ws.addRow(['865000000000999', '']);
    const Content = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    const agent2 = await p.login('agent02', 'abc123');
    const r = await p.call('/user/agentAuthorize', { Content, FileName: 'imeis.xlsx' }, agent2.token);
    expect(r.body.Items).toEqual([
      { Imei: '865000000000049', Outcome: 'moved', LoginName: 'enduser3' },
      { Imei: '865000000000999', Outcome: 'notSoldToYou' },
    ]);
    const garbage = await p.call('/user/agentAuthorize', { Content: Buffer.from('not a workbook').toString('base64') }, agent2.token);
    expect(garbage.status).toBe(400);
    expect(garbage.body.Message).toBe('device.importInvalidFile');
    const none = await p.call('/user/agentAuthorize', {}, agent2.token);
    expect(none.status).toBe(400);
    expect(none.body.Fields[0]).toMatchObject({ Field: 'Imeis', Message: 'account.agentImeisRequired' });
  });

  it('lets an administrator above disable a sub-account, ending its sessions and live connection at once, and enable it again', async () => {
    const made = await create(agent.token, { LoginName: 'off01', Password: 'abc123' });
    const offId = made.body.UserId as number;
    const session = await p.login('off01', 'abc123');
    const live = await RealtimeClient.connect(p.url, session.token, session.userId);
    try {
      // The agent above it is no administrator; nobody disables himself; the flag is required.
      expect((await p.call('/user/setAccountDisabled', { UserId: offId, Disabled: true }, agent.token)).status).toBe(403);
      expect((await p.call('/user/setAccountDisabled', { UserId: admin.userId, Disabled: true }, admin.token)).body).toMatchObject({ State: 403, Message: 'account.disableSelf' });
      expect((await p.call('/user/setAccountDisabled', { UserId: offId }, admin.token)).body.Fields[0]).toMatchObject({ Field: 'Disabled', Message: 'validation.required' });
      // Its token still works, until the administrator disables it.
      expect((await p.call('/User/UserInfo', { UserId: offId }, session.token)).body.State).toBe(200);
      const off = await p.call('/user/setAccountDisabled', { UserId: offId, Disabled: true }, admin.token);
      expect(off.body).toMatchObject({ State: 200, Item: { LoginName: 'off01', Disabled: true } });
      expect((await p.call('/User/UserInfo', { UserId: offId }, session.token)).body.State).toBe(1100);
      await eventually(() => live.closed);
      const login = await p.call('/User/Login', { LoginName: 'off01', Password: 'abc123' });
      expect(login.body).toMatchObject({ Message: 'auth.accountDisabled' });
      const listed = await p.call('/user/childrenUsers', { UserId: agent.userId, Keyword: 'off01' }, admin.token);
      expect(listed.body.Items[0]).toMatchObject({ LoginName: 'off01', Disabled: true });
      // Recorded in the operation log with who did it.
      await p.app.oplog.flush();
      const logged = (await p.call('/OperationLog/List', { Call: '/user/setAccountDisabled', Result: 'success' }, admin.token)).body.Items;
      expect(logged).toEqual([expect.objectContaining({ LoginName: 'admin', Object: `UserId=${offId}` })]);

      expect((await p.call('/user/setAccountDisabled', { UserId: offId, Disabled: false }, admin.token)).body.Item.Disabled).toBe(false);
      expect((await p.login('off01', 'abc123')).token).toBeTruthy();
    } finally {
      live.close();
    }
  });

  it("refuses the view-only viewer01 a change of its own platform title, by either call, and keeps the rest of its profile editable", async () => {
    const viewer = await p.login('viewer01');
    const title = (await q<{ page_name: string }>(`SELECT page_name FROM accounts WHERE login_name = 'viewer01'`))[0]!.page_name;
    const own = await p.call('/user/EditUserInfoForCurrentUser', { PageName: 'Hijacked title' }, viewer.token);
    expect(own.body).toMatchObject({ State: 403, Message: 'permission.denied', Params: { code: 'platform.edit' } });
    const profile = await p.call('/User/EditUserInfo', { PageName: 'Hijacked title' }, viewer.token);
    expect(profile.body).toMatchObject({ State: 403, Params: { code: 'platform.edit' } });
    expect((await q<{ page_name: string }>(`SELECT page_name FROM accounts WHERE login_name = 'viewer01'`))[0]!.page_name).toBe(title);
    // The title sent unchanged is no change; the contact is its own to edit.
    const contact = await p.call('/user/EditUserInfoForCurrentUser', { PageName: title, Contact: 'Fleet desk' }, viewer.token);
    expect(contact.body).toMatchObject({ State: 200, Item: { Contact: 'Fleet desk' } });
    // An account whose set has platform.edit changes its title.
    expect((await p.call('/user/EditUserInfoForCurrentUser', { PageName: 'Agent portal' }, agent.token)).body).toMatchObject({ State: 200, Item: { PageName: 'Agent portal' } });
  });
});
