// The ERP's ledger documents as lists and spreadsheets: goods receipts (with their lines, filtered by
// order, supplier, warehouse and day, times in the viewer's zone), transfers (filtered by kind, item
// and either warehouse), the ERP lists exported in the reader's language, bad filters refused by
// field, and another tenant seeing none of it.
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../src/lib/sql.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe.each(databases())('ERP receipts, transfers and exports on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let theirs: string;
  let w1: number;
  let w2: number;
  let supplier: number;
  let product: number;
  let order: { id: number; line: number };
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as the tests need them
  const call = <T = any>(name: string, body: unknown = {}, token = admin) => p.call<T>(`/Erp/${name}`, body, token);
  const q = <T,>(s: ReturnType<typeof sql>) => rows<T>(p.deps.database.db, s);
  const sheet = async (body: unknown, language = 'en', token = admin) => {
    const res = await fetch(`${p.url}/api/Erp/ListExport`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': language },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) return { status: res.status, body: await res.json(), rows: [] as unknown[][] };
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0]!;
    const out: unknown[][] = [];
    ws.eachRow((r) => out.push((r.values as unknown[]).slice(1)));
    return { status: 200, name: ws.name, rows: out };
  };

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    admin = (await p.login()).token;
    const stores = (await p.call<{ Items: { Id: number }[] }>('/Inventory/StoreList', { PageCount: 100 }, admin)).body.Items;
    w1 = stores[0]!.Id;
    w2 = stores[1]!.Id;
    const [root] = await q<{ id: number }>(sql`SELECT id FROM accounts WHERE login_name = 'admin'`);
    const [other] = await q<{ id: number }>(sql`INSERT INTO accounts (login_name, password_hash, kind, user_type, path, username)
      SELECT 'erpdoc2', password_hash, 'operator', 3, '/999998/', 'Other' FROM accounts WHERE id = ${root!.id} RETURNING id`);
    await p.deps.database.db.execute(sql`UPDATE accounts SET path = ${`/${other!.id}/`} WHERE id = ${other!.id}`);
    theirs = (await p.login('erpdoc2', 'admin123')).token;
    // A supplier, a product and an audited order of 100 with one line.
    supplier = (await call('SupplierSave', { Name: 'Doc Supplier' })).body.Id;
    product = (await call('ProductSave', { ModelName: 'DOC-W1', Colour: 1 })).body.Id;
    const o = await call('PurchaseSave', { OrderNo: 'D-1', PoNo: 'CG-D-1', Content: 'watches', Purpose: 3, Amount: '1000', SupplierId: supplier, Lines: [{ Kind: 2, ItemId: product, Quantity: 100, UnitPrice: '10' }] });
    await call('PurchaseBatchSave', { OrderId: o.body.Id, BatchDate: '2026-11-01', Quantity: 1, UnitPrice: '1', AmountPaid: '1' });
    expect((await call('PurchaseAudit', { Id: o.body.Id })).body.State).toBe(200);
    order = { id: o.body.Id, line: (await call('PurchaseList', { Id: o.body.Id })).body.Items[0].Lines[0].Id };
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('lists goods receipts with their lines, filtered by order, supplier, warehouse and day', async () => {
    expect((await call('ReceiptSave', { OrderId: order.id, WarehouseId: w1, ReceivedOn: '2026-11-03', Lines: [{ LineId: order.line, Quantity: 60 }] })).body.State).toBe(200);
    expect((await call('ReceiptSave', { OrderId: order.id, WarehouseId: w2, ReceivedOn: '2026-11-05', Remark: 'rest', Lines: [{ LineId: order.line, Quantity: 40 }] })).body.State).toBe(200);
    const all = (await call('ReceiptList', { OrderId: order.id })).body;
    expect(all.Total).toBe(2);
    expect(all.Items.map((r: { ReceivedOn: string; Quantity: number; WarehouseId: number }) => [r.ReceivedOn, r.Quantity, r.WarehouseId])).toEqual([
      ['2026-11-05', 40, w2],
      ['2026-11-03', 60, w1],
    ]);
    expect(all.Items[0]).toMatchObject({ OrderNo: 'D-1', SupplierId: supplier, SupplierName: 'Doc Supplier', Remark: 'rest', Lines: [{ LineId: order.line, Kind: 2, ItemId: product, ItemName: 'DOC-W1', Quantity: 40 }] });
    expect(all.Items[0].WarehouseName).not.toBe('');
    expect((await call('ReceiptList', { SupplierId: supplier, WarehouseId: w1 })).body.Items.map((r: { Quantity: number }) => r.Quantity)).toEqual([60]);
    expect((await call('ReceiptList', { OrderId: order.id, From: '2026-11-04', To: '2026-11-30' })).body.Items.map((r: { Quantity: number }) => r.Quantity)).toEqual([40]);
    expect((await call('ReceiptList', { OrderId: order.id, To: '2026-11-03' })).body.Items.map((r: { Quantity: number }) => r.Quantity)).toEqual([60]);
    // Paged.
    const page2 = (await call('ReceiptList', { OrderId: order.id, PageNo: 2, PageCount: 1 })).body;
    expect([page2.Total, page2.Items[0].Quantity]).toEqual([2, 60]);
    // The creation time in the viewer's zone (the admin's offset, not the server's).
    const [acc] = await q<{ off: number }>(sql`SELECT time_zone_offset AS off FROM accounts WHERE login_name = 'admin'`);
    const [made] = await q<{ t: string }>(sql`SELECT to_char((created_at AT TIME ZONE 'UTC') + make_interval(mins => ${acc!.off}), 'YYYY-MM-DD HH24:MI:SS') AS t FROM erp_receipts WHERE id = ${all.Items[0].Id}`);
    expect(all.Items[0].Created).toBe(made!.t);
  });

  it('lists transfers, filtered by kind, item and either warehouse', async () => {
    expect((await call('TransferSave', { Kind: 2, ItemId: product, FromWarehouseId: w1, ToWarehouseId: w2, Quantity: 20, Remark: 'move' })).body.State).toBe(200);
    const list = (await call('TransferList', { Kind: 2, ItemId: product })).body;
    expect(list.Total).toBe(1);
    expect(list.Items[0]).toMatchObject({ Kind: 2, ItemId: product, ItemName: 'DOC-W1', FromWarehouseId: w1, ToWarehouseId: w2, Quantity: 20, Remark: 'move' });
    expect(list.Items[0].FromWarehouseName).not.toBe(list.Items[0].ToWarehouseName);
    expect((await call('TransferList', { WarehouseId: w2 })).body.Total).toBe(1);
    expect((await call('TransferList', { Kind: 1 })).body.Total).toBe(0);
  });

  it('refuses bad filters by field, changing nothing', async () => {
    const bad = await call('ReceiptList', { WarehouseId: 'x', From: 'yesterday', PageCount: 5000 });
    expect(bad.status).toBe(400);
    expect(bad.body.Fields.map((f: { Field: string }) => f.Field).sort()).toEqual(['From', 'PageCount', 'WarehouseId']);
    const t = await call('TransferList', { Kind: 3 });
    expect(t.status).toBe(400);
    expect(t.body.Fields[0].Field).toBe('Kind');
    const e = await sheet({ List: 'everything' });
    expect(e.status).toBe(400);
    expect(e.body.Fields[0]).toMatchObject({ Field: 'List' });
    const f = await sheet({ List: 'stockAt', Filter: { Kind: 2 } });
    expect(f.status).toBe(400);
    expect(f.body.Fields[0]).toMatchObject({ Field: 'Date' });
  });

  it('exports the ERP lists in the reader language', async () => {
    const r = await sheet({ List: 'receipts', Filter: { OrderId: order.id } });
    expect(r.name).toBe('Goods receipts');
    expect(r.rows[0]).toEqual(['Received on', 'Order no.', 'Supplier', 'Warehouse', 'Items', 'Quantity', 'Remark', 'Created']);
    expect(r.rows.slice(1).map((x) => [x[0], x[1], x[2], x[4], x[5]])).toEqual([
      ['2026-11-05', 'D-1', 'Doc Supplier', 'DOC-W1 × 40', 40],
      ['2026-11-03', 'D-1', 'Doc Supplier', 'DOC-W1 × 60', 60],
    ]);
    const t = await sheet({ List: 'transfers', Filter: { ItemId: product } }, 'zh-CN');
    expect(t.name).toBe('调拨单');
    expect(t.rows[0]![1]).toBe('物品类型');
    expect(t.rows[1]!.slice(1, 3).concat(t.rows[1]![5])).toEqual(['产品', 'DOC-W1', 20]);
    const s = await sheet({ List: 'stockAt', Filter: { Kind: 2, Date: '2026-12-31' } });
    const mine = s.rows.filter((x) => x[0] === 'DOC-W1').map((x) => x[2]).sort();
    // 60 into the first, 40 into the second, then 20 moved from the first to the second.
    expect(mine).toEqual([40, 60]);
    const po = await sheet({ List: 'purchases', Filter: { Keyword: 'D-1' } }, 'zh-TW');
    expect(po.rows[1]!.slice(0, 3)).toEqual(['D-1', 'CG-D-1', 'Doc Supplier']);
    expect(po.rows[1]![7]).toBe('已審核');
    const sup = await sheet({ List: 'suppliers', Filter: { Keyword: 'Doc' } });
    expect(sup.rows.slice(1).map((x) => x[0])).toEqual(['Doc Supplier']);
    const cus = await sheet({ List: 'customers' });
    expect(cus.rows[0]).toContain('Platform account');
  });

  it('shows another tenant none of it', async () => {
    expect((await call('ReceiptList', {}, theirs)).body.Total).toBe(0);
    expect((await call('ReceiptList', { OrderId: order.id }, theirs)).body.Total).toBe(0);
    expect((await call('TransferList', {}, theirs)).body.Total).toBe(0);
    for (const list of ['suppliers', 'receipts', 'transfers', 'purchases']) expect((await sheet({ List: list }, 'en', theirs)).rows).toHaveLength(1);
    expect((await sheet({ List: 'stockAt', Filter: { Kind: 2, Date: '2026-12-31' } }, 'en', theirs)).rows).toHaveLength(1);
    // Agents (not administrators) are refused.
    const agent = (await p.login('agent01')).token;
    expect((await call('ReceiptList', {}, agent)).status).toBe(403);
    expect((await call('TransferList', {}, agent)).status).toBe(403);
  });
});
