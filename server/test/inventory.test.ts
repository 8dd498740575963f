// Inventory calls: the dictionaries (in-use refusal, taken names, seeded stores in the reader's
// language), stock-in batches with pasted lists and a workbook (row-by-row report), written in
// slices of 40 rows here (stored whole, undone whole when a late slice fails, other calls answered
// between slices), the stock item
// list and its searches, sales handing devices over to a customer account (created or moved,
// unbound) and their void reversing exactly that, the ledger agreeing with the items, many
// parallel sales never overselling, and the scope (administrators only; another tenant's ids
// answer "not found").
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { rows } from '../src/lib/sql.js';
import { databases, onInsertOf, startTestPlatform, type TestPlatform } from './helpers.js';

const imeis = (prefix: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => `${prefix}${String(i + from).padStart(15 - prefix.length, '0')}`);

describe.each(databases())('inventory on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let model: number;
  let otherModel: number;
  let store: number;
  let store2: number;
  let agentId: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as the tests need them
  const call = <T = any>(path: string, body: unknown = {}, token = admin) => p.call<T>(`/Inventory/${path}`, body, token);
  const q = <T>(s: ReturnType<typeof sql>) => rows<T>(p.deps.database.db, s);

  /** Items in stock per model and the ledger's balance agree (and the last move holds the balance). */
  async function ledgerAgrees() {
    const bad = await q<{ item_id: number }>(sql`
      SELECT b.item_id FROM stock_balances b
      WHERE b.kind = 'item' AND b.quantity <> (SELECT count(*) FROM inv_items i WHERE i.model_id = b.item_id AND i.store_id = b.store_id AND i.state = 1)
         OR b.quantity <> coalesce((SELECT sum(quantity) FROM stock_moves m WHERE m.kind = b.kind AND m.item_id = b.item_id AND m.store_id = b.store_id AND m.account_id = b.account_id), 0)
         OR b.quantity <> coalesce((SELECT balance FROM stock_moves m WHERE m.kind = b.kind AND m.item_id = b.item_id AND m.store_id = b.store_id AND m.account_id = b.account_id ORDER BY id DESC LIMIT 1), 0)`);
    expect(bad).toEqual([]);
  }

  beforeAll(async () => {
    // Large imports write 40 rows per transaction: a few hundred rows make several slices.
    p = await startTestPlatform(kind, { IMPORT_CHUNK_ROWS: '40' });
    admin = (await p.login()).token;
    const [a] = await q<{ id: number }>(sql`SELECT id FROM accounts WHERE login_name = 'agent01'`);
    agentId = a!.id;
    const [cat] = await q<{ id: number }>(sql`SELECT id FROM device_models ORDER BY id LIMIT 1`);
    model = (await call('ModelInsert', { Name: 'T-100', DeviceModelId: cat!.id })).body.Id;
    otherModel = (await call('ModelInsert', { Name: 'T-200' })).body.Id;
    const stores = (await call('StoreList', { PageCount: 100 })).body.Items;
    store = stores[0].Id;
    store2 = stores[1].Id;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('seeds the four stores, named in the reader’s language', async () => {
    const zh = (await call('StoreList', { PageCount: 100 })).body.Items.map((s: { Name: string }) => s.Name);
    expect(zh).toEqual(expect.arrayContaining(['上海', '深圳', '成都', '苏州']));
    const en = (await p.call('/Inventory/StoreList', { PageCount: 100 }, admin, { 'accept-language': 'en' })).body.Items.map((s: { Name: string }) => s.Name);
    expect(en).toEqual(expect.arrayContaining(['Shanghai', 'Shenzhen', 'Chengdu', 'Suzhou']));
    // Searching finds a seeded store by any of its names.
    expect((await call('StoreList', { Keyword: 'Chengdu' })).body.Items.map((s: { Name: string }) => s.Name)).toEqual(['成都']);
  });

  it('keeps the dictionaries: required names, taken names, in-use entries refused', async () => {
    const empty = await call('OwnerInsert', { Name: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.body.Fields[0]).toMatchObject({ Field: 'Name', Message: 'inventory.nameRequired' });
    const owner = (await call('OwnerInsert', { Name: 'Factory A' })).body.Id;
    expect((await call('OwnerInsert', { Name: 'Factory A' })).body.Message).toBeTruthy();
    expect((await call('OwnerInsert', { Name: 'Factory A' })).status).toBe(409);
    const version = (await call('VersionInsert', { Name: 'V1', Kind: 2 })).body.Id;
    expect((await call('VersionList', {})).body.Items.find((v: { Id: number }) => v.Id === version)).toMatchObject({ Kind: 2, InUse: false });
    expect((await call('ModelInsert', { Name: 'X', DeviceModelId: 999999 })).body.Fields[0]).toMatchObject({ Field: 'DeviceModelId' });
    // Used by a batch: the owner, the version and the store stay.
    const b = await call('BatchInsert', { ModelId: model, StoreId: store, OwnerId: owner, VersionId: version, StockInDate: '2026-11-01', Imeis: imeis('3550000000', 2) });
    expect(b.body.Succeeded).toBe(2);
    for (const [path, id, key] of [
      ['OwnerDelById', owner, 'inventory.ownerInUse'],
      ['VersionDelById', version, 'inventory.versionInUse'],
      ['StoreDelById', store, 'inventory.storeInUse'],
      ['ModelDelById', model, 'inventory.modelInUse'],
    ] as const) {
      const r = await call(path, { Id: id });
      expect(r.status).toBe(409);
      expect(r.body.Message).toBe(key);
    }
    const spare = (await call('OwnerInsert', { Name: 'Spare' })).body.Id;
    expect((await call('OwnerUpdate', { Id: spare, Name: 'Spare 2', Remark: 'r' })).body.State).toBe(200);
    expect((await call('OwnerDelById', { Id: spare })).body.State).toBe(200);
    expect((await call('OwnerDelById', { Id: spare })).status).toBe(404);
    // Entries nothing uses go, whatever the ids of the rows that use the others.
    const spareStore = (await call('StoreInsert', { Name: 'Spare store' })).body.Id;
    const v2 = (await call('VersionInsert', { Name: 'V-unused' })).body.Id;
    expect((await call('StoreList', { Keyword: 'Spare' })).body.Items[0]).toMatchObject({ InUse: false, Seeded: false });
    expect((await call('StoreDelById', { Id: spareStore })).body.State).toBe(200);
    expect((await call('VersionDelById', { Id: v2 })).body.State).toBe(200);
  });

  it('stocks in a pasted batch: bad, repeated and taken IMEIs reported row by row, the rest stored', async () => {
    const good = imeis('3560000000', 5);
    const r = await call('BatchInsert', {
      ModelId: model,
      StoreId: store,
      StockInDate: '2026-11-02',
      Imeis: [...good, '12345', good[0], '355000000000000'],
      Iccids: [...good.map((_, i) => `8986000000000000${i}`), '1', '2', '3'],
    });
    expect(r.body).toMatchObject({ State: 200, Rows: 8, Succeeded: 5 });
    expect(r.body.Failed).toEqual([
      { Row: 6, Imei: '12345', Message: 'validation.imeiInvalid' },
      { Row: 7, Imei: good[0], Message: 'device.imeiDuplicate', Params: { imei: good[0] } },
      { Row: 8, Imei: '355000000000000', Message: 'inventory.imeiInStock', Params: { imei: '355000000000000' } },
    ]);
    // Counts must match; a dry run stores nothing.
    const mismatch = await call('BatchInsert', { ModelId: model, StoreId: store, StockInDate: '2026-11-02', Imeis: imeis('3570000000', 2), Iccids: ['1'] });
    expect(mismatch.body.Fields[0]).toMatchObject({ Field: 'Iccids', Message: 'validation.imeiIccidCount' });
    const dry = await call('BatchInsert', { ModelId: model, StoreId: store, StockInDate: '2026-11-02', Imeis: imeis('3570000000', 2), DryRun: true });
    expect(dry.body).toMatchObject({ Id: 0, Succeeded: 2 });
    expect((await call('DevicesList', { Imei: '3570000000' })).body.Total).toBe(0);
    const missing = await call('BatchInsert', { StoreId: store, StockInDate: '2026-11-02', Imeis: ['1'] });
    expect(missing.body.Fields[0]).toMatchObject({ Field: 'ModelId', Message: 'inventory.modelRequired' });
    const list = (await call('InventoryBatchList', { ModelId: model })).body;
    const batch = list.Items.find((x: { Id: number }) => x.Id === r.body.Id);
    expect(batch).toMatchObject({ Quantity: 5, InStock: 5, ModelName: 'T-100', StockInDate: '2026-11-02' });
    expect(batch.BatchNo).toMatch(/^B20261102-/);
    await ledgerAgrees();
  });

  it('stocks in a workbook (IMEI and ICCID columns) and moves a batch between stores with the ledger', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('s');
    ws.addRow(['IMEI', 'ICCID']);
    for (const [i, imei] of imeis('3580000000', 4).entries()) ws.addRow([imei, `8986${i}`]);
    ws.addRow(['abc', '']);
    const content = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    const r = await call('BatchInsert', { ModelId: otherModel, StoreId: store, StockInDate: '2026-11-03', Content: content });
    expect(r.body).toMatchObject({ Rows: 5, Succeeded: 4, Failed: [{ Row: 6, Imei: 'abc', Message: 'validation.imeiInvalid' }] });
    const items = (await call('DevicesList', { BatchId: r.body.Id })).body.Items;
    expect(items.map((i: { Iccid: string }) => i.Iccid).sort()).toEqual(['89860', '89861', '89862', '89863']);
    const upd = await call('UpdateInfo', { Id: r.body.Id, StoreId: store2, Remark: 'moved' });
    expect(upd.body.State).toBe(200);
    expect((await call('DevicesList', { BatchId: r.body.Id, StoreId: store2 })).body.Total).toBe(4);
    await ledgerAgrees();
    expect((await call('DelById', { Id: r.body.Id })).body.State).toBe(200);
    expect((await call('DevicesList', { BatchId: r.body.Id })).body.Total).toBe(0);
    expect((await call('DelById', { Id: r.body.Id })).status).toBe(404);
    await ledgerAgrees();
  });

  it('searches stock items by IMEI range and list, model, store and state; edits and deletes them', async () => {
    await call('BatchInsert', { ModelId: model, StoreId: store2, StockInDate: '2026-11-04', Imeis: imeis('3590000000', 10) });
    const range = await call('DevicesList', { ImeiFrom: '359000000000002', ImeiTo: '359000000000005' });
    expect(range.body.Total).toBe(4);
    const listed = await call('DevicesList', { Imeis: ['359000000000001', '359000000000009', '111111111111111'] });
    expect(listed.body.Items.map((i: { Imei: string }) => i.Imei).sort()).toEqual(['359000000000001', '359000000000009']);
    expect((await call('DevicesList', { ModelId: model, StoreId: store2, State: 1 })).body.Total).toBe(10);
    const bad = await call('DevicesList', { ImeiFrom: '359000000000005', ImeiTo: '359000000000002' });
    expect(bad.body.Fields[0]).toMatchObject({ Field: 'ImeiTo', Message: 'inventory.imeiRangeOrder' });
    const one = range.body.Items[0];
    expect((await call('DevicesUpdate', { Id: one.Id, State: 4 })).body.State).toBe(200);
    expect((await call('DevicesList', { State: 4 })).body.Total).toBe(1);
    expect((await call('DevicesUpdate', { Id: one.Id, State: 2 })).body.Fields[0]).toMatchObject({ Field: 'State', Message: 'inventory.stateInvalid' });
    await ledgerAgrees();
    const single = await call('DevicesInsert', { Imei: '359100000000000', ModelId: model, StoreId: store });
    expect(single.body.State).toBe(200);
    expect((await call('DevicesInsert', { Imei: '359100000000000', ModelId: model, StoreId: store })).body.Fields[0]).toMatchObject({ Field: 'Imei', Message: 'inventory.imeiInStock' });
    expect((await call('DevicesDelById', { Id: single.body.Id })).body.State).toBe(200);
    await ledgerAgrees();
  });

  it('sells IMEIs to a customer account: they appear unbound in its device list; void reverses exactly that', async () => {
    const sold = imeis('3600000000', 3);
    await call('BatchInsert', { ModelId: model, StoreId: store, StockInDate: '2026-11-05', Imeis: sold, Iccids: ['11', '22', '33'] });
    // One of them is already a device of the administrator, unbound: it is moved, not created.
    await p.call('/Device/addDevices', { Imei: sold[2], Name: 'kept', ModelId: (await q<{ id: number }>(sql`SELECT id FROM device_models LIMIT 1`))[0]!.id, Bound: false }, admin);
    const [adminRow] = await q<{ account_id: number }>(sql`SELECT account_id FROM devices WHERE imei = ${sold[2]}`);

    const noStock = await call('SalesInsert', { CustomerId: agentId, ModelId: otherModel, Quantity: 1 });
    expect(noStock.status).toBe(409);
    expect(noStock.body.Message).toBeTruthy();
    const wrong = await call('SalesInsert', { CustomerId: agentId, ModelId: model, Imeis: [sold[0], '999999999999999'] });
    expect(wrong.status).toBe(409);
    expect(wrong.body.Fields).toEqual([expect.objectContaining({ Field: 'Imeis.1', Message: 'inventory.imeiNotInStock', Params: { imei: '999999999999999' } })]);

    const sale = await call('SalesInsert', { CustomerId: agentId, ModelId: model, Imeis: sold, ExpiresAt: '2027-11-05', Expiries: [null, '2028-01-01', null] });
    expect(sale.body).toMatchObject({ State: 200, Quantity: 3 });
    const agent = (await p.login('agent01')).token;
    const devs = (await p.call('/Device/devicesByUserId', { PageCount: 100, Imei: '360000000' }, agent)).body.Items;
    expect(devs.map((d: { Imei: string }) => d.Imei).sort()).toEqual(sold);
    const dbDevs = await q<{ imei: string; bound: boolean; account_id: number; iccid: string }>(sql`SELECT imei, bound, account_id, iccid FROM devices WHERE imei LIKE '360000000%' ORDER BY imei`);
    expect(dbDevs.every((d) => !d.bound && d.account_id === agentId)).toBe(true);
    expect(dbDevs[0]!.iccid).toBe('11');
    const items = (await call('DevicesList', { SaleId: sale.body.Id })).body.Items;
    expect(items.every((i: { State: number }) => i.State === 2)).toBe(true);
    expect(items.find((i: { Imei: string }) => i.Imei === sold[1]).ExpiresAt).toMatch(/^2028-01-01/);
    // Sold again: refused.
    expect((await call('SalesInsert', { CustomerId: agentId, ModelId: model, Imeis: [sold[0]] })).body.Fields[0].Message).toBe('inventory.imeiNotInStock');
    await ledgerAgrees();

    // Void: the created devices go, the moved one goes back unbound to the administrator.
    expect((await call('SalesDelById', { Id: sale.body.Id })).body.State).toBe(200);
    const after = await q<{ imei: string; account_id: number }>(sql`SELECT imei, account_id FROM devices WHERE imei LIKE '360000000%' ORDER BY imei`);
    expect(after).toEqual([{ imei: sold[2], account_id: adminRow!.account_id }]);
    expect((await call('DevicesList', { Imeis: sold, State: 1 })).body.Total).toBe(3);
    expect((await call('SalesDelById', { Id: sale.body.Id })).status).toBe(409);
    expect((await call('SalesList', { State: 2 })).body.Items[0]).toMatchObject({ Id: sale.body.Id, State: 2 });
    await ledgerAgrees();

    // Sold again, then bound by the customer: the void is refused, naming the device, and changes nothing.
    const again = await call('SalesInsert', { CustomerId: agentId, ModelId: model, Imeis: sold });
    await p.call('/Device/bindDeviceListAdd', { Imeis: [sold[0]] }, agent);
    await p.deps.database.db.execute(sql`UPDATE devices SET bound = true WHERE imei = ${sold[0]}`);
    const refused = await call('SalesDelById', { Id: again.body.Id });
    expect(refused.status).toBe(409);
    expect(refused.body.Fields[0]).toMatchObject({ Field: 'Imeis.0', Message: 'inventory.voidBound', Params: { imei: sold[0] } });
    expect((await call('DevicesList', { SaleId: again.body.Id })).body.Total).toBe(3);
    await ledgerAgrees();
  });

  it('takes the oldest items of a model by quantity, and parallel sales never oversell', async () => {
    const m = (await call('ModelInsert', { Name: 'RACE' })).body.Id;
    await call('BatchInsert', { ModelId: m, StoreId: store, StockInDate: '2026-11-06', Imeis: imeis('3610000000', 30) });
    const tooMany = await call('SalesInsert', { CustomerId: agentId, ModelId: m, Quantity: 31 });
    expect(tooMany.body).toMatchObject({ Message: expect.any(String) });
    expect(tooMany.status).toBe(409);
    // 20 sales of 4 at once against 30 in stock: at most 7 succeed, the stock never goes below 0.
    const results = await Promise.all(Array.from({ length: 20 }, () => call('SalesInsert', { CustomerId: agentId, ModelId: m, Quantity: 4 })));
    const ok = results.filter((r) => r.body.State === 200).length;
    expect(results.every((r) => r.body.State === 200 || r.status === 409)).toBe(true);
    expect(ok).toBe(7);
    const left = (await call('ModelList', { Keyword: 'RACE' })).body.Items[0].InStock;
    expect(left).toBe(2);
    const soldItems = (await call('DevicesList', { ModelId: m, State: 2, PageCount: 100 })).body.Items;
    expect(new Set(soldItems.map((i: { Imei: string }) => i.Imei)).size).toBe(28);
    // The same IMEIs picked by many sales at once: exactly one sale gets them.
    const picked = (await call('DevicesList', { ModelId: m, State: 1 })).body.Items.map((i: { Imei: string }) => i.Imei);
    const race = await Promise.all(Array.from({ length: 8 }, () => call('SalesInsert', { CustomerId: agentId, ModelId: m, Imeis: picked })));
    expect(race.filter((r) => r.body.State === 200)).toHaveLength(1);
    await ledgerAgrees();
  });

  it('is for administrators only, and another tenant’s rows answer not found', async () => {
    const agent = (await p.login('agent01')).token;
    for (const path of ['OwnerList', 'BatchInsert', 'DevicesList', 'SalesInsert']) expect((await call(path, {}, agent)).status).toBe(403);
    // A second administrator elsewhere in the tree sees none of this one's stock.
    const [root] = await q<{ id: number; path: string }>(sql`SELECT id, path FROM accounts WHERE login_name = 'admin'`);
    const [other] = await q<{ id: number }>(sql`INSERT INTO accounts (login_name, password_hash, kind, user_type, path, username)
      SELECT 'stock2', password_hash, 'operator', 3, '/999999/', 'Other' FROM accounts WHERE id = ${root!.id} RETURNING id`);
    await p.deps.database.db.execute(sql`UPDATE accounts SET path = ${`/${other!.id}/`} WHERE id = ${other!.id}`);
    const theirs = (await p.login('stock2', 'admin123')).token;
    expect((await call('DevicesList', {}, theirs)).body.Total).toBe(0);
    const mine = (await call('InventoryBatchList', {})).body.Items[0].Id;
    expect((await call('DelById', { Id: mine }, theirs)).status).toBe(404);
    expect((await call('SalesInsert', { CustomerId: agentId, ModelId: model, Quantity: 1 }, theirs)).status).toBe(403);
  });
  it('stores a stock-in of many slices whole: every item once, the batch quantity and the ledger agree', async () => {
    const list = imeis('3620000000', 250);
    const r = await call('BatchInsert', { ModelId: model, StoreId: store2, StockInDate: '2026-11-07', Imeis: [...list, list[10]], Iccids: [...list.map((_, i) => `8986${i}`), '1'] });
    expect(r.body).toMatchObject({ State: 200, Rows: 251, Succeeded: 250, Failed: [{ Row: 251, Imei: list[10], Message: 'device.imeiDuplicate' }] });
    const batch = (await call('InventoryBatchList', { ModelId: model })).body.Items.find((x: { Id: number }) => x.Id === r.body.Id);
    expect(batch).toMatchObject({ Quantity: 250, InStock: 250 });
    expect(batch.BatchNo).toMatch(/^B20261107-/);
    expect(await q(sql`SELECT count(*)::int AS n, count(DISTINCT iccid)::int AS iccids FROM inv_items WHERE batch_id = ${r.body.Id}`)).toEqual([{ n: 250, iccids: 250 }]);
    // One move per slice of 40 rows.
    expect(await q(sql`SELECT count(*)::int AS n, sum(quantity)::int AS total FROM stock_moves WHERE doc_type = 'batch' AND doc_id = ${r.body.Id}`)).toEqual([{ n: 7, total: 250 }]);
    await ledgerAgrees();
  });

  it('undoes a stock-in whose late slice fails: no item or batch stays, the ledger agrees, and the list stores afterwards', async () => {
    const list = imeis('3630000000', 250);
    const balance = async () => (await q<{ n: number }>(sql`SELECT coalesce(sum(quantity), 0)::int AS n FROM stock_balances WHERE kind = 'item' AND item_id = ${model} AND store_id = ${store2}`))[0]!.n;
    const before = await balance();
    const batches = (await call('InventoryBatchList', {})).body.Total;
    // Row 231 is in the sixth of seven slices; five are committed when it fails.
    const stop = await onInsertOf(p, 'inv_items', list[230]!);
    const r = await call('BatchInsert', { ModelId: model, StoreId: store2, StockInDate: '2026-11-08', Imeis: list });
    await stop();
    expect(r.status).toBe(500);
    expect(r.body).toMatchObject({ Message: 'inventory.batchFailed', Params: { row: 201 } });
    expect(r.body.Text).toContain('201');
    expect((await call('DevicesList', { Imei: '3630000000' })).body.Total).toBe(0);
    expect((await call('InventoryBatchList', {})).body.Total).toBe(batches);
    expect(await balance()).toBe(before);
    // The five slices went back with one compensating move.
    const [undo] = await q<{ doc_id: number; quantity: number }>(sql`SELECT doc_id, quantity FROM stock_moves WHERE doc_type = 'batch_delete' ORDER BY id DESC LIMIT 1`);
    expect(undo!.quantity).toBe(-200);
    expect(await q(sql`SELECT sum(quantity)::int AS n FROM stock_moves WHERE doc_type = 'batch' AND doc_id = ${undo!.doc_id}`)).toEqual([{ n: 200 }]);
    await ledgerAgrees();
    const again = await call('BatchInsert', { ModelId: model, StoreId: store2, StockInDate: '2026-11-08', Imeis: list });
    expect(again.body).toMatchObject({ State: 200, Succeeded: 250, Failed: [] });
    await ledgerAgrees();
  });

  it('answers another call while a large stock-in is still writing', async () => {
    const list = imeis('3640000000', 4000);
    let settled = false;
    const running = call('BatchInsert', { ModelId: model, StoreId: store, StockInDate: '2026-11-09', Remark: 'long', Imeis: list }).finally(() => (settled = true));
    // Some of its slices are committed, not all of them.
    await vi.waitFor(
      async () => {
        const [b] = await q<{ quantity: number }>(sql`SELECT quantity FROM inv_batches WHERE remark = 'long'`);
        expect(b?.quantity).toBeGreaterThan(0);
        expect(b?.quantity).toBeLessThan(list.length);
      },
      { timeout: 30_000, interval: 5 },
    );
    const info = await p.call('/User/UserInfo', {}, admin);
    expect(info.status).toBe(200);
    expect(settled).toBe(false);
    expect((await running).body).toMatchObject({ Succeeded: list.length, Failed: [] });
    await ledgerAgrees();
  });
});
