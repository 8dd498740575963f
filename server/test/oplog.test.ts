// The operation log, end to end: calls that change something are recorded with their caller,
// address, object and outcome (refusals with their State and message key), reads are not; an account
// reads its subtree's entries only; the search and the spreadsheet agree; old entries are pruned.
// Demo accounts: admin (root) above agent01 above clinic01, and operator01, a sibling of agent01.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { prune } from '../src/modules/oplog/service.js';
import { objectOf } from '../src/plugins/oplog.js';

describe.each(databases())('operation log on %s', (kind) => {
  let p: TestPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => p.deps.database.query<T>(sql, params);
  const list = async (token: string, body: Record<string, unknown> = {}) => {
    await p.app.oplog.flush();
    return p.call('/OperationLog/List', { PageNo: 1, PageCount: 100, ...body }, token);
  };

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    for (const name of ['admin', 'agent01', 'clinic01', 'operator01']) {
      const l = await p.login(name);
      tokens[name] = l.token;
      ids[name] = l.userId;
    }
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('records a change and a refusal with who, where, what and how it ended; not a read', async () => {
    expect((await p.call('/Platform/Save', { Title: 'Agent One', Key: 'agent-one' }, tokens.agent01)).status).toBe(200);
    expect((await p.call('/Platform/Save', { Title: 'Copy', Key: 'agent-one' }, tokens.operator01)).status).toBe(409);
    expect((await p.call('/Platform/Save', { Title: 'x', Key: 'Not valid' }, tokens.clinic01)).status).toBe(400);
    await p.call('/Platform/Info', {}, tokens.agent01);

    const all = (await list(tokens.admin)).body;
    const calls = all.Items.map((e: { Call: string }) => e.Call);
    expect(calls).not.toContain('/Platform/Info');
    const ok = all.Items.find((e: { LoginName: string; Call: string }) => e.LoginName === 'agent01' && e.Call === '/Platform/Save');
    expect(ok).toMatchObject({ UserId: ids.agent01, Action: 'platform.edit', State: 0, ErrorKey: '', Object: 'Title=Agent One; Key=agent-one', IPAddress: expect.stringMatching(/127\.0\.0\.1/) });
    expect(ok.CreateDT).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const taken = all.Items.find((e: { LoginName: string }) => e.LoginName === 'operator01');
    expect(taken).toMatchObject({ Call: '/Platform/Save', State: 409, ErrorKey: 'platform.keyTaken', ErrorParams: { key: 'agent-one' } });
    const invalid = all.Items.find((e: { LoginName: string }) => e.LoginName === 'clinic01');
    expect(invalid).toMatchObject({ State: 400, ErrorKey: 'common.validation' });
  });

  it('lets an account read its subtree’s entries only', async () => {
    await p.call('/User/EditFunctionSwitches', { switchAnimation: 2 }, tokens.clinic01);
    const agent = (await list(tokens.agent01)).body.Items.map((e: { LoginName: string }) => e.LoginName);
    expect(new Set(agent)).toEqual(new Set(['agent01', 'clinic01']));
    const clinic = (await list(tokens.clinic01)).body.Items.map((e: { LoginName: string }) => e.LoginName);
    expect(new Set(clinic)).toEqual(new Set(['clinic01']));
    const operator = (await list(tokens.operator01)).body.Items.map((e: { LoginName: string }) => e.LoginName);
    expect(new Set(operator)).toEqual(new Set(['operator01']));
    expect((await list(tokens.operator01, { UserId: ids.agent01 })).status).toBe(403);
    // An ancestor narrows the search to one account's subtree.
    const narrowed = (await list(tokens.admin, { UserId: ids.clinic01 })).body.Items.map((e: { LoginName: string }) => e.LoginName);
    expect(new Set(narrowed)).toEqual(new Set(['clinic01']));
  });

  it('searches by action, call, result and time range, newest first, paged', async () => {
    const byAction = (await list(tokens.admin, { Action: 'self' })).body;
    expect(byAction.Items.length).toBeGreaterThan(0);
    expect(byAction.Items.every((e: { Action: string }) => e.Action === 'self')).toBe(true);
    const failures = (await list(tokens.admin, { Result: 'failure' })).body;
    expect(failures.Items.map((e: { State: number }) => e.State).sort()).toEqual([400, 409]);
    const successes = (await list(tokens.admin, { Result: 'success', Call: '/platform/save' })).body;
    expect(successes.Total).toBe(1);
    expect((await list(tokens.admin, { StartTime: new Date(Date.now() + 60_000).toISOString() })).body.Total).toBe(0);
    expect((await list(tokens.admin, { EndTime: new Date(Date.now() - 3600_000).toISOString() })).body.Total).toBe(0);
    const everything = (await list(tokens.admin)).body;
    const times = everything.Items.map((e: { Id: number }) => e.Id);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const page2 = (await p.call('/OperationLog/List', { PageNo: 2, PageCount: 1 }, tokens.admin)).body;
    expect(page2.Total).toBe(everything.Total);
    expect(page2.Items[0].Id).toBe(everything.Items[1].Id);
    expect((await p.call('/OperationLog/List', { Result: 'maybe' }, tokens.admin)).status).toBe(400);
  });

  it('exports the search as a spreadsheet with the same rows, in the reader’s language', async () => {
    await p.app.oplog.flush();
    const expected = (await list(tokens.agent01)).body;
    const res = await fetch(`${p.url}/api/OperationLog/Export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.agent01}`, 'x-language': 'en' },
      body: JSON.stringify({}),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    expect(Number(res.headers.get('x-total-rows'))).toBe(expected.Total);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Operation log');
    expect(ws.getRow(1).getCell(1).value).toBe('Time');
    expect(ws.rowCount - 1).toBe(expected.Total);
    const rows = ws.getSheetValues().slice(2) as unknown[][];
    const failed = rows.find((r) => r[2] === 'clinic01' && String(r[6]).startsWith('Failed'));
    expect(failed?.[6]).toBe('Failed: Some fields are not valid, please check them');
    // The export is itself recorded, and refused outside the subtree.
    const outside = await fetch(`${p.url}/api/OperationLog/Export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.operator01}` },
      body: JSON.stringify({ UserId: ids.agent01 }),
    });
    expect(outside.status).toBe(403);
    const exports = (await list(tokens.admin, { Call: '/OperationLog/Export' })).body.Items;
    expect(exports.map((e: { LoginName: string; State: number }) => [e.LoginName, e.State]).sort()).toEqual([
      ['agent01', 0],
      ['operator01', 403],
    ]);
  });

  it('prunes entries older than the retention in batches', async () => {
    await p.app.oplog.flush();
    const before = Number((await q<{ n: number }>('SELECT count(*)::int AS n FROM operation_logs'))[0]!.n);
    await q(
      `INSERT INTO operation_logs (account_id, account_path, login_name, call, action, created_at)
       SELECT $1, '/1/', 'admin', '/Platform/Save', 'platform.edit', now() - interval '200 days' FROM generate_series(1, 7)`,
      [ids.admin],
    );
    expect(await prune(p.deps.database.db, 180, 3)).toBe(7);
    expect(Number((await q<{ n: number }>('SELECT count(*)::int AS n FROM operation_logs'))[0]!.n)).toBe(before);
    expect(await prune(p.deps.database.db, 180, 3)).toBe(0);
  });

  it('keeps the object short: identifying fields only, lists and texts bounded, secrets never', () => {
    const o = objectOf({ UserId: 5, Imeis: Array.from({ length: 9 }, (_, i) => `86500000000000${i}`), Password: 'Secret1', Name: 'x'.repeat(200), Remark: 'free text' });
    expect(o).toMatch(/^UserId=5; Imeis=865000000000000,.* \(\+4\); Name=x+…$/);
    expect(o).not.toContain('Secret1');
    expect(o).not.toContain('free text');
    expect(o.length).toBeLessThanOrEqual(300);
  });

  it('writes entries in batches without holding calls back, and everything queued when it closes', async () => {
    await p.app.oplog.flush();
    const count = async () => Number((await q<{ n: number }>('SELECT count(*)::int AS n FROM operation_logs'))[0]!.n);
    const start = await count();
    for (let i = 0; i < 1200; i++) p.app.oplog.add({ accountId: ids.admin, accountPath: '/1/', loginName: 'admin', call: '/Platform/Save', action: 'platform.edit', ip: '127.0.0.1' });
    await p.app.oplog.flush();
    expect(await count()).toBe(start + 1200);
  });

  it('records a body carrying NUL without it, and a row the database refuses costs the others nothing', async () => {
    await p.app.oplog.flush();
    const count = async () => Number((await q<{ n: number }>('SELECT count(*)::int AS n FROM operation_logs'))[0]!.n);
    const start = await count();
    expect((await p.call('/Platform/Save', { Title: 'Nul\u0000Title', Key: 'nul\u0000key' }, tokens.clinic01)).status).toBe(400);
    const row = { accountId: ids.admin, accountPath: '/1/', loginName: 'admin', call: '/Platform/Save', action: 'platform.edit', ip: '127.0.0.1' };
    for (let i = 0; i < 10; i++) p.app.oplog.add({ ...row, object: `Key=k${i}` });
    // An account id no integer column holds: this row alone is dropped.
    p.app.oplog.add({ ...row, accountId: 2 ** 40, object: 'Key=poison' });
    for (let i = 10; i < 20; i++) p.app.oplog.add({ ...row, object: `Key=k${i}` });
    await p.app.oplog.flush();
    expect(await count()).toBe(start + 21);
    const [nul] = await q<{ object: string }>(`SELECT object FROM operation_logs WHERE login_name = 'clinic01' AND object LIKE 'Title=Nul%' ORDER BY id DESC LIMIT 1`);
    expect(nul?.object).toBe('Title=NulTitle; Key=nulkey');
    expect(await q(`SELECT 1 FROM operation_logs WHERE object = 'Key=poison'`)).toHaveLength(0);
  });

  it('records no send for a server-address or message preview that was not confirmed; the confirmed send is', async () => {
    const previews = [
      ['/Command/sendIPInfoByUserId', { UserId: ids.clinic01, Host: 'gw9.example.com', Port: 7701, Preview: true }],
      ['/Message/Preview', { UserIds: [ids.clinic01] }],
    ] as const;
    for (const [call, body] of previews) expect((await p.call(call, body, tokens.agent01)).body.State).toBe(200);
    const before = (await list(tokens.agent01, { Call: '/Command/sendIPInfoByUserId' })).body;
    expect(before.Total).toBe(0);
    expect((await list(tokens.agent01, { Call: '/Message/Preview' })).body.Total).toBe(0);
    // A preview refused still is (it named the failure); the send itself is recorded.
    expect((await p.call('/Command/sendIPInfoByUserId', { UserId: ids.clinic01, Host: 'gw9.example.com', Port: 0, Preview: true }, tokens.agent01)).status).toBe(400);
    expect((await p.call('/Command/sendIPInfoByUserId', { UserId: ids.clinic01, Host: 'gw9.example.com', Port: 7701 }, tokens.agent01)).body.State).toBe(200);
    const after = (await list(tokens.agent01, { Call: '/Command/sendIPInfoByUserId' })).body.Items;
    expect(after.map((e: { State: number }) => e.State)).toEqual([0, 400]);
  });

});
