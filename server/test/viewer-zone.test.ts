// Every time the platform answers, exports or pushes is in the viewer's zone (its account's
// timeZoneOffset), whatever the server process's zone: an administrator at UTC+8 and a branch
// administrator at UTC−9 read the same rows, each in its own zone, in the lists, the spreadsheets
// and the partner push. The expected texts are written out or computed from the offset alone, so
// the file passes with the process at TZ=UTC as at TZ=Asia/Shanghai (run it under both).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../src/lib/passwords.js';
import { REALTIME_TOPICS } from '../src/realtime/topics.js';
import { enqueuePush } from '../src/modules/push/outbox.js';
import { insertAccount } from '../src/modules/user/repo.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';
import { addDevice, deviceAlarm, type TestDevice } from './alarm-fixtures.js';

const EAST = 480; // UTC+8
const WEST = -540; // UTC−9

/** An instant as `YYYY-MM-DD HH:mm:ss` at an offset, by arithmetic on the instant only. */
const at = (ms: number, offset: number) => new Date(ms + offset * 60_000).toISOString().replace('T', ' ').slice(0, 19);

// 23:30:05 UTC: already the next day at UTC+8, still the same day at UTC−9.
const T = Date.parse('2026-03-01T23:30:05Z');
const T_EAST = '2026-03-02 07:30:05';
const T_WEST = '2026-03-01 14:30:05';

describe.each(databases())('times in the viewer’s zone on %s', (kind) => {
  let p: TestPlatform;
  let east: string; // admin, UTC+8
  let west: string; // branch9, an administrator of its branch below admin, UTC−9
  let branch: { id: number; path: string };
  let kidId: number;
  let watch: TestDevice;
  // Health readings are kept in day partitions of the last weeks: one two days ago, at 23:30:05 UTC.
  const H = Math.floor(Date.now() / 86_400_000) * 86_400_000 - 2 * 86_400_000 + (23 * 60 + 30) * 60_000 + 5_000;

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    const q = p.deps.database.query.bind(p.deps.database);
    const [admin] = await q<{ id: number; path: string }>(`SELECT id, path FROM accounts WHERE login_name = 'admin'`);
    const b = await insertAccount(p.deps.database.db, {
      parentId: admin!.id,
      parentPath: admin!.path,
      loginName: 'branch9',
      passwordHash: await hashPassword('admin123'),
      kind: 'admin',
      userType: 3,
      username: 'Anchorage',
      email: 'branch9@weartrack.local',
      timeZoneOffset: WEST,
    });
    branch = { id: b.id, path: b.path };
    await q(`UPDATE accounts SET time_zone_offset = $1 WHERE id = $2`, [EAST, admin!.id]);
    const kid = await insertAccount(p.deps.database.db, { parentId: b.id, parentPath: b.path, loginName: 'kid9', passwordHash: 'x', kind: 'user', userType: 4, email: 'kid9@weartrack.local' });
    kidId = kid.id;
    await q(`UPDATE accounts SET created_at = $1 WHERE id IN ($2, $3)`, [new Date(T), b.id, kid.id]);
    east = (await p.login('admin')).token;
    west = (await p.login('branch9')).token;

    watch = await addDevice(p, 'branch9', '865000000077001', 'Zone watch');
    // An alarm raised, repeated and confirmed at known instants.
    await q(
      `INSERT INTO alarms (type, device_id, account_id, status, created_at, last_at, confirmed_at, confirmed_by, remark)
       VALUES (5, $1, $2, 1, $3, $4, $5, $2, 'seen')`,
      [watch.id, b.id, new Date(T), new Date(T + 60_000), new Date(T + 120_000)],
    );
    await q(`INSERT INTO alarm_contacts (account_id, name, phone, email, notify_email, created_at) VALUES ($1, 'Night desk', '', 'desk@example.com', 1, $2)`, [b.id, new Date(T)]);
    await q(`INSERT INTO health_readings (device_id, time, received_at, heart_rate, pending) VALUES ($1, $2, $2, 72, false)`, [watch.id, new Date(H)]);
    await q(`INSERT INTO device_state (device_id, health_time) VALUES ($1, $2) ON CONFLICT (device_id) DO UPDATE SET health_time = EXCLUDED.health_time`, [watch.id, new Date(H)]);
    await q(`INSERT INTO operation_logs (account_id, account_path, login_name, call, action, created_at) VALUES ($1, $2, 'branch9', '/Zone/Test', 'zone.test', $3)`, [
      b.id,
      b.path,
      new Date(T),
    ]);
    await q(`INSERT INTO login_logs (account_id, login_name, action_code, created_at) VALUES ($1, 'branch9', 1, $2)`, [b.id, new Date(T)]);
    // The demo's stock and books move to the branch, so both administrators see them.
    await q(
      `DO $$ DECLARE t text; BEGIN
         FOR t IN SELECT table_name FROM information_schema.columns
                   WHERE column_name = 'account_id' AND table_schema = current_schema() AND (table_name LIKE 'inv\\_%' OR table_name LIKE 'erp\\_%' OR table_name LIKE 'stock\\_%')
         LOOP EXECUTE format('UPDATE %I SET account_id = ${b.id} WHERE account_id = ${admin!.id}', t); END LOOP; END $$`,
    );
    await q(`UPDATE inv_batches SET created_at = $1`, [new Date(T)]);
    await q(`UPDATE erp_sales SET sold_at = $1, created_at = $1`, [new Date(T)]);
    await q(`UPDATE erp_stock_records SET created_at = $1`, [new Date(T)]);
    // A partner company of the branch, with one delivery logged.
    const [c] = await q<{ id: number }>(
      `INSERT INTO push_companies (account_id, name, push_url, default_format, verification_code, created_at) VALUES ($1, 'Partner', 'https://partner.example/push', 2, 'k', $2) RETURNING id`,
      [b.id, new Date(T)],
    );
    const [o] = await q<{ id: number }>(`INSERT INTO push_outbox (company_id, imei, url, body, status) VALUES ($1, $2, 'https://partner.example/push', '{}', 'done') RETURNING id`, [
      c!.id,
      watch.imei,
    ]);
    await q(`INSERT INTO push_attempts (outbox_id, company_id, imei, url, attempt, success, created_at) VALUES ($1, $2, $3, 'https://partner.example/push', 1, true, $4)`, [
      o!.id,
      c!.id,
      watch.imei,
      new Date(T),
    ]);
  });
  afterAll(() => p?.stop());

  const page = async (call: string, token: string, body: Record<string, unknown> = {}) => {
    const r = await p.call(call, { PageNo: 1, PageCount: 100, ...body }, token);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.Items as Record<string, any>[];
  };

  /** The rows of a spreadsheet export (header row first), as the cells' values. */
  const sheet = async (route: string, token: string, body: Record<string, unknown> = {}) => {
    const res = await fetch(`${p.url}/api${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-language': 'en' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    return (wb.worksheets[0]!.getSheetValues().slice(1) as unknown[][]).map((r) => r.slice(1));
  };

  it('shows an alarm record in each reader’s zone, in the list and the spreadsheet', async () => {
    for (const [token, off] of [[east, EAST], [west, WEST]] as const) {
      const [a] = (await page('/ExceptionMessage/allExceptionMsgPage', token, { Imei: watch.imei })).filter((x) => x.Imei === watch.imei);
      expect(a).toMatchObject({ Created: at(T, off), LastTime: at(T + 60_000, off), ConfirmedAt: at(T + 120_000, off) });
      const rows = await sheet('/export/alarm-records', token, { Imei: watch.imei });
      expect(rows[1]![0]).toBe(at(T, off));
    }
    const [e] = await page('/ExceptionMessage/allExceptionMsgPage', east, { Imei: watch.imei });
    const [w] = await page('/ExceptionMessage/allExceptionMsgPage', west, { Imei: watch.imei });
    expect([e!.Created, w!.Created]).toEqual([T_EAST, T_WEST]);
    const contacts = async (token: string) => (await p.call('/ExceptionMessage/AlarmContactPersonByUserId', { UserId: branch.id }, token)).body.Items[0].Created;
    expect([await contacts(east), await contacts(west)]).toEqual([T_EAST, T_WEST]);
  });

  it('reads a time sent without a zone in the sender’s zone, and an ISO instant as that instant', async () => {
    const found = async (token: string, from: string, to: string) =>
      (await page('/ExceptionMessage/allExceptionMsgPage', token, { Imei: watch.imei, StartTime: from, EndTime: to })).length;
    expect(await found(west, T_WEST, T_WEST)).toBe(1);
    expect(await found(east, T_WEST, T_WEST)).toBe(0);
    expect(await found(east, T_EAST, T_EAST)).toBe(1);
    // A day typed as a date is the viewer's day.
    expect(await found(west, '2026-03-01', '2026-03-01 23:59:59')).toBe(1);
    expect(await found(east, '2026-03-01', '2026-03-01 23:59:59')).toBe(0);
    expect(await found(east, '2026-03-02', '2026-03-02 23:59:59')).toBe(1);
    const iso = new Date(T).toISOString();
    expect([await found(east, iso, iso), await found(west, iso, iso)]).toEqual([1, 1]);
  });

  it('shows a health reading in each reader’s zone, in the list, the spreadsheet and its days', async () => {
    for (const [token, off] of [[east, EAST], [west, WEST]] as const) {
      const [r] = await page('/Device/allHealthDataPage', token, { Imei: watch.imei });
      expect(r!.Time).toBe(at(H, off));
      const rows = await sheet('/export/health-readings', token, { Imei: watch.imei });
      expect(rows[1]![0]).toBe(at(H, off));
      const has = (await p.call('/health/HealthHasDataForDevice', { DeviceId: watch.id }, token)).body;
      expect(has).toMatchObject({ Days: [at(H, off).slice(0, 10)], LastTime: at(H, off) });
      const users = (await p.call('/health/HealthHasDataForUsers', { Keyword: watch.imei }, token)).body.Items;
      expect(users).toMatchObject([{ Imei: watch.imei, LastTime: at(H, off) }]);
    }
    expect(at(H, EAST).slice(0, 10)).not.toBe(at(H, WEST).slice(0, 10));
  });

  it('shows operation and login logs in each reader’s zone, in the list and the spreadsheet', async () => {
    const ops = async (token: string, off: number) => {
      const filter = { StartTime: at(T, off), EndTime: at(T, off) };
      const [e] = await page('/OperationLog/List', token, filter);
      const rows = await sheet('/OperationLog/Export', token, filter);
      return [e!.CreateDT, rows[1]![0]];
    };
    expect(await ops(east, EAST)).toEqual([T_EAST, T_EAST]);
    expect(await ops(west, WEST)).toEqual([T_WEST, T_WEST]);
    const logins = async (token: string) => (await page('/User/allUserLoginLog', token, { UserId: branch.id })).find((l) => l.ActionCode === 1 && l.CreateDT.startsWith('2026-03'))!.CreateDT;
    expect([await logins(east), await logins(west)]).toEqual([T_EAST, T_WEST]);
  });

  it('shows an account row and its details in each reader’s zone', async () => {
    const kid = async (token: string) => (await page('/user/childrenUsers', token, { UserId: branch.id })).find((a) => a.LoginName === 'kid9')!.CreateDT;
    expect([await kid(east), await kid(west)]).toEqual([T_EAST, T_WEST]);
    const info = async (token: string) => (await p.call('/User/UserInfo', { UserId: branch.id }, token)).body.UserInfo.CreateDT;
    expect([await info(east), await info(west)]).toEqual([T_EAST, T_WEST]);
  });

  it('shows inventory batches and ERP records in each reader’s zone', async () => {
    for (const [token, off] of [[east, EAST], [west, WEST]] as const) {
      const batches = await page('/Inventory/InventoryBatchList', token);
      expect(batches.length).toBeGreaterThan(0);
      for (const b of batches) expect(b.Created).toBe(at(T, off));
      const [sale] = await page('/Erp/SaleList', token);
      expect(sale).toMatchObject({ SoldAt: at(T, off), Created: at(T, off) });
      const records = await page('/Erp/StockRecordList', token, { Kind: 1 });
      expect(records[0]!.Created).toBe(at(T, off));
    }
  });

  it('sells and dates an inventory sale in the seller’s zone', async () => {
    const [m] = await page('/Inventory/ModelList', west);
    const sold = await p.call('/Inventory/SalesInsert', { CustomerId: kidId, ModelId: m!.Id, Quantity: 1, SoldAt: '2026-03-01 20:00:00', ExpiresAt: '2027-03-01' }, west);
    expect(sold.body.State, JSON.stringify(sold.body)).toBe(200);
    const sale = async (token: string) => (await page('/Inventory/SalesList', token)).find((s) => s.SaleNo === sold.body.SaleNo)!;
    // 20:00 at UTC−9 is 05:00 the next day at UTC+8; the sale's number carries the seller's day.
    expect(await sale(west)).toMatchObject({ SoldAt: '2026-03-01 20:00:00', ExpiresAt: '2027-03-01 00:00:00' });
    expect(await sale(east)).toMatchObject({ SoldAt: '2026-03-02 13:00:00', ExpiresAt: '2027-03-01 17:00:00' });
    expect(String(sold.body.SaleNo)).toMatch(/^S20260301-/);
  });

  it('shows push records in each reader’s zone, and pushes the receiving account’s time', async () => {
    const created = async (token: string) => (await page('/user/searchPushDataList', token, { Imei: watch.imei }))[0]!.Created;
    expect([await created(east), await created(west)]).toEqual([T_EAST, T_WEST]);
    const companies = async (token: string) => (await page('/Push/CompanyList', token)).find((c) => c.Name === 'Partner')!.Created;
    expect([await companies(east), await companies(west)]).toEqual([T_EAST, T_WEST]);
    // The short format carries a formatted time: the company's account's (UTC−9), not the server's.
    const n = await enqueuePush(p.deps, {
      alarmId: 0,
      code: 5,
      category: 'sos',
      device: { id: watch.id, imei: watch.imei, name: watch.name, accountId: branch.id, accountPath: branch.path },
      message: 'SOS',
      created: new Date(T),
      value: null,
      lat: null,
      lon: null,
    });
    expect(n).toBe(1);
    const [o] = await p.deps.database.query<{ body: string }>(`SELECT body FROM push_outbox WHERE status = 'pending' ORDER BY id DESC LIMIT 1`);
    expect(JSON.parse(o!.body)).toMatchObject({ NotificationType: 5, Created: T_WEST });
  });

  it('exports a stock-take with its time in each reader’s zone, and lists it as an instant', async () => {
    const [st] = await p.deps.database.query<{ id: number }>(
      `INSERT INTO asset_stock_takes (owner_id, location_id, location_name, user_id, user_name, time, expected, seen, missing, extra, lines)
       VALUES ($1, 1, 'Store room', $1, 'branch9', $2, 0, 0, 0, 0, '[]') RETURNING id`,
      [branch.id, new Date(T)],
    );
    for (const [token, shown] of [[east, T_EAST], [west, T_WEST]] as const) {
      const r = await p.call('/Asset/StockTakeExport', { StockTakeId: st!.id }, token, { 'accept-language': 'en' });
      expect(r.body.State, JSON.stringify(r.body)).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(Buffer.from(r.body.Content, 'base64') as never);
      expect(wb.worksheets[0]!.getRow(2).getCell(2).value).toBe(shown);
      const [item] = await page('/Asset/StockTakes', token);
      expect(item!.Time).toBe(new Date(T).toISOString());
    }
  });

  it('writes the alarm contact’s notice at the contact’s account’s offset', async () => {
    const raisedAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
    const events: { Created: string }[] = [];
    const stop = p.deps.bus.subscribe<{ Created: string }>(REALTIME_TOPICS.alarmRaised, (e) => events.push(e));
    await deviceAlarm(p, watch, 'sos', raisedAt);
    stop();
    const [n] = await p.deps.database.query<{ body: string }>(`SELECT body FROM notice_outbox WHERE channel = 'email' AND imei = $1 ORDER BY id DESC LIMIT 1`, [watch.imei]);
    expect(n!.body.startsWith(at(raisedAt.getTime(), WEST))).toBe(true);
    // The realtime event carries the instant; each console shows it in its own zone.
    expect(events.map((e) => e.Created)).toContain(raisedAt.toISOString());
  });

  it('searches SMS and e-mail records by times read in the sender’s zone', async () => {
    await p.deps.database.query(`INSERT INTO notice_outbox (channel, account_id, recipient, subject, body, created_at) VALUES ('email', $1, 'desk@example.com', 's', 'b', $2)`, [
      branch.id,
      new Date(T),
    ]);
    const found = async (token: string, from: string | number, to: string | number) => {
      const r = await p.call('/SMS/Records', { UserId: branch.id, StartTime: from, EndTime: to }, token);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.Total;
    };
    expect(await found(west, T_WEST, T_WEST)).toBe(1);
    expect(await found(east, T_WEST, T_WEST)).toBe(0);
    expect(await found(east, T_EAST, T_EAST)).toBe(1);
    expect(await found(east, T / 1000, T / 1000)).toBe(1);
  });

  it('follows a change of the account’s zone from the next call on', async () => {
    const r = await p.call('/User/EditUserInfo', { UserId: branch.id, timeZoneOffset: EAST }, west);
    expect(r.body.State).toBe(200);
    const [a] = await page('/ExceptionMessage/allExceptionMsgPage', west, { Imei: watch.imei, Status: 1 });
    expect(a!.Created).toBe(T_EAST);
    await p.call('/User/EditUserInfo', { UserId: branch.id, timeZoneOffset: WEST }, west);
  });
});

describe('the server never formats or reads a time in its own zone', () => {
  it('has no offset-less formatter and no local-zone Date method in its sources', () => {
    const root = path.resolve(import.meta.dirname, '../src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const f = path.join(dir, name);
        if (statSync(f).isDirectory()) walk(f);
        else if (/\.(ts|mts|mjs)$/.test(name)) files.push(f);
      }
    };
    walk(root);
    const bad = /\bformatDateTime\(|\btoDate\(|\.(getHours|getDate|getMonth|getFullYear|getDay|getMinutes|getSeconds|setHours|setDate|setMonth|setFullYear|setMinutes|getTimezoneOffset|toLocaleString|toLocaleDateString|toLocaleTimeString|toDateString|toTimeString)\(/;
    const found = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .map((line, i) => ({ at: `${path.relative(root, f)}:${i + 1}`, line }))
        .filter(({ line }) => bad.test(line)),
    );
    expect(found).toEqual([]);
  });
});
