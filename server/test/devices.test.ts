// Device list and operations of the Devices area against a real platform with the demo tenant,
// on each database: §5 rules, §8 failures, the account subtree scope, and the account import
// written in slices of 40 rows here (imported whole, or undone whole when a late slice fails).
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceDeletionBlockers, type DeletionBlocker } from '../src/modules/device/blockers.js';
import { sql } from 'drizzle-orm';
import { rows } from '../src/lib/sql.js';
import { databases, onInsertOf, startTestPlatform, type TestPlatform } from './helpers.js';

const imei = (n: number) => `86${String(n).padStart(13, '0')}`;

describe.each(databases())('devices on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let agent: { token: string; userId: number };
  let operator: { token: string; userId: number };
  let clinicId: number;
  let modelId: number;
  let gt06ModelId: number;

  beforeAll(async () => {
    // Imports write 40 rows (an account or a device each) per transaction: a few hundred make several slices.
    p = await startTestPlatform(kind, { IMPORT_CHUNK_ROWS: '40' });
    admin = (await p.login()).token;
    agent = await p.login('agent01');
    operator = await p.login('operator01');
    clinicId = (await p.login('clinic01')).userId;
    const dict = await p.call('/Device/allDictionary', {}, admin);
    modelId = dict.body.Models.find((m: { Name: string }) => m.Name.includes('健康')).ModelId;
    gt06ModelId = dict.body.Models.find((m: { Protocol: string }) => m.Protocol === 'gt06').ModelId;
  });
  afterAll(() => p?.stop());

  it('lists the subtree, pages with Total/Items, and shows each item with model commands, role and group', async () => {
    const all = await p.call('/Device/devicesByUserId', { PageNo: 1, PageCount: 10 }, admin);
    expect(all.body.State).toBe(200);
    // 50 demo watches and trackers, and the 25 tags of the demo scene.
    expect(all.body.Total).toBe(75);
    expect(all.body.Items).toHaveLength(10);
    const mine = await p.call('/Device/devicesByUserId', { PageCount: 100 }, agent.token);
    expect(mine.body.Total).toBe(28);
    const own = await p.call('/Device/devicesByUserId', { IncludeSubAccounts: false, PageCount: 100 }, agent.token);
    expect(own.body.Total).toBe(8);
    expect(own.body.Items.every((d: { AccountId: number }) => d.AccountId === agent.userId)).toBe(true);
    const clinic = await p.call('/Device/devicesByUserId', { UserId: clinicId, PageCount: 100, SortField: 'Imei', SortOrder: 'asc' }, agent.token);
    expect(clinic.body.Total).toBe(20);
    const imeis = clinic.body.Items.map((d: { Imei: string }) => d.Imei);
    expect(imeis).toEqual([...imeis].sort());
    const first = clinic.body.Items[0];
    expect(first).toMatchObject({ AccountName: 'clinic01', Bound: true, Online: false, RoleColor: expect.any(String), GroupName: expect.any(String) });
    expect(first.Commands).toContain('UPLOAD');
    const health = clinic.body.Items.find((d: { Model: string }) => d.Model.includes('健康'));
    expect(health.Commands).toContain('HEART_RATE');
    expect(first.Model).toMatch(/手表/);
    expect(first.FenceCount).toBeGreaterThan(0);
    // The sibling's account cannot be listed.
    const foreign = await p.call('/Device/devicesByUserId', { UserId: clinicId }, operator.token);
    expect(foreign.status).toBe(403);
  });

  it('filters by IMEI, name, model, status, online, ICCID and software version', async () => {
    const byImei = await p.call('/Device/devicesByUserId', { Imei: '865000000000001' }, admin);
    expect(byImei.body.Items.map((d: { Imei: string }) => d.Imei)).toEqual(['865000000000001']);
    const trackers = await p.call('/Device/devicesByUserId', { Model: 'GT06', PageCount: 100 }, admin);
    expect(trackers.body.Total).toBe(12);
    expect(trackers.body.Items.every((d: { Protocol: string }) => d.Protocol === 'gt06')).toBe(true);
    expect((await p.call('/Device/devicesByUserId', { Status: 'unbound' }, admin)).body.Total).toBe(0);
    expect((await p.call('/Device/devicesByUserId', { Online: 'online' }, admin)).body.Total).toBe(0);
    expect((await p.call('/Device/devicesByUserId', { Online: 'offline' }, admin)).body.Total).toBe(75);
    expect((await p.call('/Device/devicesByUserId', { SoftwareVersion: 'GT06N_V2' }, admin)).body.Total).toBe(12);
    expect((await p.call('/Device/devicesByUserId', { Iccid: '89860410000000000' }, admin)).body.Total).toBeGreaterThan(0);
    const byName = await p.call('/Device/devicesByUserId', { Name: '粤B' }, admin);
    expect(byName.body.Total).toBeGreaterThan(0);
    const sorted = await p.call('/Device/devicesByUserId', { SortField: 'FenceCount', SortOrder: 'desc', PageCount: 3 }, admin);
    expect(sorted.body.Items[0].FenceCount).toBeGreaterThanOrEqual(sorted.body.Items[1].FenceCount);
  });

  it('adds a device with the §5 rules and refuses an IMEI that exists', async () => {
    const bad = await p.call('/Device/addDevices', { Imei: '12345678901234', Name: '' }, admin);
    expect(bad.status).toBe(400);
    const fields = Object.fromEntries(bad.body.Fields.map((f: { Field: string; Message: string }) => [f.Field, f.Message]));
    expect(fields).toEqual({ ModelId: 'validation.modelRequired', Imei: 'validation.imeiInvalid', Name: 'validation.nicknameRequired' });
    const ok = await p.call('/Device/addDevices', { ModelId: modelId, Imei: imei(1), Name: '新手表', Iccid: '8986001' }, agent.token);
    expect(ok.body.State).toBe(200);
    expect(ok.body.Item).toMatchObject({ Imei: imei(1), Name: '新手表', AccountId: agent.userId, Bound: true, Iccid: '8986001', Protocol: 'watch' });
    expect(ok.body.Item.StockInTime).toBeTruthy();
    const again = await p.call('/Device/addDevices', { ModelId: modelId, Imei: imei(1), Name: 'x' }, admin);
    expect(again.status).toBe(409);
    expect(again.body.Message).toBe('device.imeiExists');
    const detail = await p.call('/Device/DeviceDetail', { Imei: imei(1) }, agent.token);
    expect(detail.body.Item.ModelFunctions.HealthConfig).toBe(true);
    expect(detail.body.Item.Commands.length).toBeGreaterThan(0);
    const noModel = await p.call('/Device/addDevices', { ModelId: 999999, Imei: imei(2), Name: 'x' }, admin);
    expect(noModel.body.Fields[0]).toMatchObject({ Field: 'ModelId', Message: 'device.modelNotFound' });
    // Into another tenant's account: refused.
    const foreign = await p.call('/Device/addDevices', { ModelId: modelId, Imei: imei(3), Name: 'x', UserId: clinicId }, operator.token);
    expect(foreign.status).toBe(403);
  });

  it('batch adds, reporting duplicates and existing IMEIs, and needs as many ICCIDs as IMEIs', async () => {
    const mismatch = await p.call('/Device/batchDevices', { ModelId: modelId, Imeis: [imei(10), imei(11)], Iccids: ['1'] }, admin);
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.Fields[0]).toMatchObject({ Field: 'Iccids', Message: 'validation.imeiIccidCount' });
    const r = await p.call('/Device/batchDevices', { ModelId: gt06ModelId, Imeis: [imei(10), imei(11), imei(10), '865000000000001'], NamePrefix: '车' }, operator.token);
    expect(r.body.Succeeded).toBe(2);
    expect(r.body.Failed).toEqual([
      { Imei: imei(10), Message: 'device.imeiDuplicate', Params: { imei: imei(10) } },
      { Imei: '865000000000001', Message: 'device.imeiExists', Params: { imei: '865000000000001' } },
    ]);
    const listed = await p.call('/Device/devicesByUserId', { Imei: imei(11) }, operator.token);
    expect(listed.body.Items[0]).toMatchObject({ Name: `车${imei(11).slice(-6)}`, Protocol: 'gt06' });
  });

  it('binds unbound devices and refuses missing or already bound ones', async () => {
    await p.call('/Device/batchDevices', { ModelId: modelId, Imeis: [imei(20), imei(21)], Bound: false }, agent.token);
    const r = await p.call('/Device/bindDeviceListAdd', { Imeis: [imei(20), imei(21), imei(22), '865000000000001'] }, agent.token);
    expect(r.body.Succeeded).toBe(2);
    expect(r.body.Failed).toEqual([
      { Imei: imei(22), Message: 'device.missing' },
      { Imei: '865000000000001', Message: 'device.alreadyBound' },
    ]);
    const d = await p.call('/Device/DeviceDetail', { Imei: imei(20) }, agent.token);
    expect(d.body.Item.Bound).toBe(true);
    expect(d.body.Item.ActivationTime).toBeTruthy();
  });

  it('unbinds, refusing a missing or unbound device and an account not switched to', async () => {
    const notSwitched = await p.call('/Device/unbindById', { Imei: imei(20), UserId: clinicId }, agent.token);
    expect(notSwitched.status).toBe(409);
    expect(notSwitched.body.Message).toBe('device.accountNotSwitched');
    const ok = await p.call('/Device/unbindById', { Imei: imei(20), UserId: agent.userId }, agent.token);
    expect(ok.body).toMatchObject({ State: 200, Succeeded: 1, Failed: [] });
    const again = await p.call('/Device/unbindById', { Imei: imei(20) }, agent.token);
    expect(again.body.Message).toBe('device.alreadyUnbound');
    const missing = await p.call('/Device/unbindById', { Imei: imei(29) }, agent.token);
    expect(missing.status).toBe(404);
    const batch = await p.call('/Device/unBandByImeis', { Imeis: [imei(20), imei(21), imei(29)] }, agent.token);
    expect(batch.body.Succeeded).toBe(1);
    expect(batch.body.Failed.map((f: { Message: string }) => f.Message)).toEqual(['device.alreadyUnbound', 'device.missing']);
    expect((await p.call('/Device/devicesByUserId', { Status: 'unbound' }, agent.token)).body.Total).toBe(2);
  });

  it('deletes devices unless a blocker (beacons, floors) refuses them', async () => {
    await p.call('/Device/batchDevices', { ModelId: modelId, Imeis: [imei(30), imei(31), imei(32)] }, admin);
    const ids = (await p.call('/Device/devicesByUserId', { Imei: '8600000000000', SortField: 'Imei', SortOrder: 'asc', PageCount: 100 }, admin)).body.Items.filter(
      (d: { Imei: string }) => [imei(30), imei(31), imei(32)].includes(d.Imei),
    );
    const blocked = ids.find((d: { Imei: string }) => d.Imei === imei(30)).DeviceId;
    const blocker: DeletionBlocker = async (_db, deviceIds) => new Map(deviceIds.filter((id) => id === blocked).map((id) => [id, 'device.deleteHasBeacons']));
    deviceDeletionBlockers.push(blocker);
    try {
      const r = await p.call('/Device/BatchDelDevices', { Imeis: [imei(30), imei(31), imei(39)] }, admin);
      expect(r.body.Succeeded).toBe(1);
      expect(r.body.Failed).toEqual([
        { Imei: imei(30), Message: 'device.deleteHasBeacons' },
        { Imei: imei(39), Message: 'device.missing' },
      ]);
    } finally {
      deviceDeletionBlockers.splice(deviceDeletionBlockers.indexOf(blocker), 1);
    }
    const byId = await p.call('/Device/BatchDeleteByDeviceId', { DeviceIds: [blocked] }, admin);
    expect(byId.body.Succeeded).toBe(1);
    const left = await p.call('/Device/devicesByUserId', { Imei: '860000000000031' }, admin);
    expect(left.body.Total).toBe(0);
    expect((await p.call('/Device/devicesByUserId', { Imei: imei(32) }, admin)).body.Total).toBe(1);
  });

  it('moves devices within the subtree with the §8 failures', async () => {
    const r = await p.call('/Device/batchMoveDeviceToAccount', { Imeis: [imei(1), imei(29), '865000000000021'], TargetUserId: clinicId }, agent.token);
    expect(r.body.Succeeded).toBe(2);
    expect(r.body.Failed).toEqual([{ Imei: imei(29), Message: 'device.moveNotRegistered' }]);
    const same = await p.call('/Device/batchMoveDeviceToAccount', { Imeis: [imei(1)], TargetUserId: clinicId }, agent.token);
    expect(same.body.Failed).toEqual([{ Imei: imei(1), Message: 'device.moveSameAccount' }]);
    // Not a sub-account of the caller: the operator cannot send devices to the agent's clinic.
    const notSub = await p.call('/Device/batchMoveDeviceToAccount', { Imeis: [imei(11)], TargetUserId: clinicId }, operator.token);
    expect(notSub.status).toBe(403);
    expect(notSub.body.Message).toBe('device.moveNotSubAccount');
    // A device of another tenant is "not registered" for the caller, and stays where it is.
    const foreign = await p.call('/Device/batchMoveDeviceToAccount', { Imeis: ['865000000000001'], TargetUserId: operator.userId }, operator.token);
    expect(foreign.body.Failed).toEqual([{ Imei: '865000000000001', Message: 'device.moveNotRegistered' }]);
    const moved = await p.call('/Device/DeviceDetail', { Imei: imei(1) }, agent.token);
    expect(moved.body.Item.AccountId).toBe(clinicId);
  });

  it('creates a sub-account with devices moved to it and created for it', async () => {
    const r = await p.call(
      '/Device/batchDevicesCreateUser',
      { LoginName: 'family01', Password: 'abc123', Imeis: [imei(21), imei(40)], Iccids: ['111', '222'], ModelId: modelId },
      agent.token,
    );
    expect(r.body).toMatchObject({ State: 200, LoginName: 'family01', Moved: 1, Created: 1 });
    const fam = await p.login('family01', 'abc123');
    const list = await p.call('/Device/devicesByUserId', { SortField: 'Imei', SortOrder: 'asc' }, fam.token);
    expect(list.body.Items.map((d: { Imei: string; Iccid: string }) => [d.Imei, d.Iccid])).toEqual([
      [imei(21), '111'],
      [imei(40), '222'],
    ]);
    const dup = await p.call('/Device/batchDevicesCreateUser', { LoginName: 'family01', Password: 'abc123', Imeis: [imei(41)], ModelId: modelId }, agent.token);
    expect(dup.status).toBe(409);
    expect(dup.body.Message).toBe('device.accountExists');
    // Another tenant's IMEI cannot be taken over, and nothing is created when one is refused.
    const taken = await p.call('/Device/batchDevicesCreateUser', { LoginName: 'family02', Password: 'abc123', Imeis: [imei(42), imei(11)], ModelId: modelId }, agent.token);
    expect(taken.status).toBe(400);
    expect(taken.body.Fields).toEqual([expect.objectContaining({ Field: 'Imeis.1', Message: 'device.imeiExists' })]);
    expect((await p.call('/User/Login', { LoginName: 'family02', Password: 'abc123' })).body.State).not.toBe(0);
    expect((await p.call('/Device/devicesByUserId', { Imei: imei(42) }, admin)).body.Total).toBe(0);
  });

  async function sheet(rowsIn: (string | number)[][], header: string[] = ['LoginName', 'Password', 'Username', 'Email', 'IMEI', 'ICCID', 'Model', 'DeviceName']) {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Devices');
    ws.addRow(header);
    for (const r of rowsIn) ws.addRow(r);
    return Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
  }

  it('imports accounts and devices from Excel all or nothing, with a row-by-row report', async () => {
    const watch = (await p.call('/Device/allDictionary', {}, admin)).body.Models.find((m: { ModelId: number }) => m.ModelId === modelId).Name;
    const bad = await sheet([
      ['shop01', 'abc123', '门店一', 'shop01@example.com', imei(50), '8986', watch, '手表一'],
      ['shop01', 'abc123', '', '', imei(51), '', watch, ''],
      ['shop02', 'abc', '', '', '1234', '', 'No such model', ''],
      ['shop03', 'abc123', '', '', '865000000000035', '', watch, ''],
    ]);
    const r = await p.call('/Device/batchDevicesCreateUserByExcel', { FileName: 'a.xlsx', Content: bad }, agent.token);
    expect(r.body).toMatchObject({ State: 200, Imported: false, Rows: 4 });
    expect(r.body.Failed.map((f: { Row: number; Column: string; Message: string }) => [f.Row, f.Column, f.Message])).toEqual([
      [4, 'Password', 'validation.passwordMin'],
      [4, 'IMEI', 'validation.imeiInvalid'],
      [4, 'Model', 'device.modelNotFound'],
      [5, 'IMEI', 'device.imeiExists'],
    ]);
    // Nothing of the valid rows was written.
    expect((await p.call('/User/Login', { LoginName: 'shop01', Password: 'abc123' })).body.State).not.toBe(0);
    expect((await p.call('/Device/devicesByUserId', { Imei: imei(50) }, admin)).body.Total).toBe(0);

    const good = await sheet([
      ['shop01', 'abc123', '门店一', 'shop01@example.com', imei(50), '8986', watch, '手表一'],
      ['shop01', 'abc123', '', '', imei(51), '', watch, ''],
      ['shop04', 'abc123', '', '', Number(imei(52)), '', watch, ''],
    ]);
    const dry = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: good, DryRun: true }, agent.token);
    expect(dry.body).toMatchObject({ Imported: false, Failed: [], Created: 3 });
    const ok = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: `data:application/vnd.openxmlformats-officedocument.spreadsheetml.sheet;base64,${good}` }, agent.token);
    expect(ok.body).toMatchObject({ Imported: true, Created: 3, Moved: 0, Failed: [] });
    expect(ok.body.Accounts.map((a: { LoginName: string; Devices: number }) => [a.LoginName, a.Devices])).toEqual([
      ['shop01', 2],
      ['shop04', 1],
    ]);
    const shop = await p.login('shop01', 'abc123');
    const mine = await p.call('/Device/devicesByUserId', { SortField: 'Imei', SortOrder: 'asc' }, shop.token);
    expect(mine.body.Items.map((d: { Name: string }) => d.Name)).toEqual(['手表一', imei(51)]);

    const missingColumn = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: await sheet([['x']], ['LoginName']) }, agent.token);
    expect(missingColumn.body.Message).toBe('device.importMissingColumn');
    const garbage = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: Buffer.from('not a workbook').toString('base64') }, agent.token);
    expect(garbage.body.Message).toBe('device.importInvalidFile');
  });

  it('offers an import template that the import reads back', async () => {
    const res = await fetch(`${p.url}/api/device/import-template.xlsx`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(await res.arrayBuffer());
    // Titled in the platform's default language without X-Language (texts.test.ts covers the others).
    expect((wb.worksheets[0]!.getRow(1).values as string[]).slice(1)).toEqual(['登录账号', '密码', '用户名', '邮箱', 'IMEI', 'ICCID', '型号', '设备名称']);
    expect(wb.worksheets[1]!.rowCount).toBeGreaterThan(2);
    const buf = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    const r = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: buf, DryRun: true }, agent.token);
    expect(r.body.Failed).toEqual([]);
    expect(r.body.Created + r.body.Moved).toBe(1);
  });

  it('keeps another account’s IMEI invisible and untouchable for every device call', async () => {
    const theirs = '865000000000001'; // clinic01, under agent01; operator01 is a sibling
    const t = operator.token;
    expect((await p.call('/Device/devicesByUserId', { Imei: theirs }, t)).body.Total).toBe(0);
    expect((await p.call('/Device/DeviceDetail', { Imei: theirs }, t)).status).toBe(404);
    expect((await p.call('/Device/bindDeviceListAdd', { Imeis: [theirs] }, t)).body.Failed[0].Message).toBe('device.missing');
    expect((await p.call('/Device/unbindById', { Imei: theirs }, t)).status).toBe(404);
    expect((await p.call('/Device/unBandByImeis', { Imeis: [theirs] }, t)).body.Failed[0].Message).toBe('device.missing');
    expect((await p.call('/Device/BatchDelDevices', { Imeis: [theirs] }, t)).body.Failed[0].Message).toBe('device.missing');
    const theirId = (await p.call('/Device/DeviceDetail', { Imei: theirs }, admin)).body.Item.DeviceId;
    expect((await p.call('/Device/BatchDeleteByDeviceId', { DeviceIds: [theirId] }, t)).body.Succeeded).toBe(0);
    expect((await p.call('/Device/DeviceDetail', { Imei: theirs }, admin)).body.Item).toMatchObject({ Bound: true, AccountId: clinicId });
  });
  /** A sheet of accounts with their devices: `n` new devices each (IMEIs `prefix` + number), after the moved ones. */
  async function accountsSheet(accounts: { login: string; moved?: string[]; n: number }[], prefix: string) {
    const watch = (await p.call('/Device/allDictionary', {}, admin)).body.Models.find((m: { ModelId: number }) => m.ModelId === modelId).Name;
    let k = 0;
    const sheetRows = accounts.flatMap((a) => [
      ...(a.moved ?? []).map((imei, i) => [a.login, 'abc123', '', '', imei, `ICC${i}`, watch, '']),
      ...Array.from({ length: a.n }, () => [a.login, 'abc123', '', '', `${prefix}${String(k++).padStart(15 - prefix.length, '0')}`, '', watch, '']),
    ]);
    return sheet(sheetRows);
  }
  const q = <T,>(s: ReturnType<typeof sql>) => rows<T>(p.deps.database.db, s);
  /** Devices of clinic01 (below agent01) that are in one of its groups: moving them to a sibling account drops the group. */
  const clinicDevices = (n: number) =>
    q<{ id: number; imei: string; account_id: number; iccid: string; group_id: number | null; role_id: number | null }>(
      sql`SELECT id, imei, account_id, iccid, group_id, role_id FROM devices WHERE account_id = ${clinicId} AND group_id IS NOT NULL ORDER BY id LIMIT ${n}`,
    );

  it('imports a sheet of many slices whole: accounts below the caller, devices created and moved', async () => {
    const moving = await clinicDevices(2);
    expect(moving).toHaveLength(2);
    const content = await accountsSheet(
      [
        { login: 'bulk01', n: 100 },
        { login: 'bulk02', moved: moving.map((d) => d.imei), n: 100 },
        { login: 'bulk03', n: 100 },
      ],
      '8671',
    );
    const r = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: content }, agent.token);
    expect(r.body).toMatchObject({ State: 200, Imported: true, Rows: 302, Created: 300, Moved: 2, Failed: [] });
    expect(r.body.Accounts.map((a: { LoginName: string; Devices: number }) => [a.LoginName, a.Devices])).toEqual([
      ['bulk01', 100],
      ['bulk02', 102],
      ['bulk03', 100],
    ]);
    const [parent] = await q<{ path: string }>(sql`SELECT path FROM accounts WHERE id = ${agent.userId}`);
    const made = await q<{ id: number; path: string; parent_id: number; devices: number }>(
      sql`SELECT a.id, a.path, a.parent_id, (SELECT count(*)::int FROM devices d WHERE d.account_id = a.id) AS devices FROM accounts a WHERE login_name LIKE 'bulk0%' ORDER BY login_name`,
    );
    expect(made.map((a) => [a.path, a.parent_id, a.devices])).toEqual(made.map((a, i) => [`${parent!.path}${a.id}/`, agent.userId, i === 1 ? 102 : 100]));
    // Moved with the sheet's ICCID; the clinic's group does not follow them.
    const moved = await q<{ account_id: number; iccid: string; group_id: number | null }>(sql`SELECT account_id, iccid, group_id FROM devices WHERE id IN (${moving[0]!.id}, ${moving[1]!.id}) ORDER BY id`);
    expect(moved).toEqual([
      { account_id: made[1]!.id, iccid: 'ICC0', group_id: null },
      { account_id: made[1]!.id, iccid: 'ICC1', group_id: null },
    ]);
    const bulk = await p.login('bulk03', 'abc123');
    expect((await p.call('/Device/devicesByUserId', { PageCount: 10 }, bulk.token)).body.Total).toBe(100);
  });

  it('undoes a sheet whose late slice fails: no account or new device stays, moved devices are back as they were', async () => {
    const before = await clinicDevices(2);
    expect(before).toHaveLength(2);
    const content = await accountsSheet(
      [
        { login: 'fail01', moved: before.map((d) => d.imei), n: 100 },
        { login: 'fail02', n: 100 },
        { login: 'fail03', n: 100 },
      ],
      '8672',
    );
    // The 81st new device of fail03 is the 286th row written (an account or a device each), in the
    // eighth slice of 40; that slice starts with fail03's 76th device, on sheet row 2 + 202 + 75.
    const stop = await onInsertOf(p, 'devices', `8672${String(280).padStart(11, '0')}`);
    const r = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: content }, agent.token);
    await stop();
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ Message: 'device.importFailed', Params: { row: 279 } });
    expect(await q(sql`SELECT login_name FROM accounts WHERE login_name LIKE 'fail0%'`)).toEqual([]);
    expect(await q(sql`SELECT imei FROM devices WHERE imei LIKE '8672%'`)).toEqual([]);
    expect(await q(sql`SELECT id, imei, account_id, iccid, group_id, role_id FROM devices WHERE id IN (${before[0]!.id}, ${before[1]!.id}) ORDER BY id`)).toEqual(before);
    expect((await p.call('/User/Login', { LoginName: 'fail01', Password: 'abc123' })).body.State).not.toBe(0);
    // Nothing is left in the way of the same sheet.
    const again = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: content }, agent.token);
    expect(again.body).toMatchObject({ Imported: true, Created: 300, Moved: 2 });
  });

  it('refuses, with its row, a login name taken while the sheet was being written, and keeps nothing of the sheet', async () => {
    const content = await accountsSheet(
      [
        { login: 'late01', n: 100 },
        { login: 'late02', n: 100 },
        { login: 'late03', n: 50 },
      ],
      '8673',
    );
    // Someone creates late03 while the second slice is written; late03 comes in the sixth.
    const stop = await onInsertOf(
      p,
      'devices',
      `8673${String(50).padStart(11, '0')}`,
      `INSERT INTO accounts (login_name, password_hash, kind, user_type, path) VALUES ('LATE03', 'x', 'user', 1, '/')`,
    );
    const r = await p.call('/Device/batchDevicesCreateUserByExcel', { Content: content }, agent.token);
    await stop();
    expect(r.body).toMatchObject({ State: 200, Imported: false, Failed: [{ Row: 202, Column: 'LoginName', Message: 'device.accountExists', Params: { loginName: 'late03' } }] });
    expect(await q(sql`SELECT login_name FROM accounts WHERE lower(login_name) LIKE 'late0%'`)).toEqual([{ login_name: 'LATE03' }]);
    expect(await q(sql`SELECT imei FROM devices WHERE imei LIKE '8673%'`)).toEqual([]);
  });
});
