// The ERP's master data and the documents posting to the stock ledger: suppliers and customers (bad
// input named by field, delete refused while a document names them, the migration linking today's
// free-text names), purchase order lines and goods receipts (partial, over-receipt refused with
// nothing changed, concurrent receipts never above a line), transfers between warehouses (out never
// past the source's stock, also all at once), stock on hand at the end of a day in the viewer's
// zone, and another tenant refused everywhere.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../src/lib/sql.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

const MIGRATION = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations/0028_erp_ledger.sql');

describe.each(databases())('ERP ledger documents on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let theirs: string;
  let w1: number;
  let w2: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as the tests need them
  const call = <T = any>(name: string, body: unknown = {}, token = admin) => p.call<T>(`/Erp/${name}`, body, token);
  const q = <T,>(s: ReturnType<typeof sql>) => rows<T>(p.deps.database.db, s);
  const balance = async (kindName: string, item: number, store: number) =>
    (await q<{ n: number }>(sql`SELECT coalesce(sum(quantity), 0)::int AS n FROM stock_balances WHERE kind = ${kindName} AND item_id = ${item} AND store_id = ${store}`))[0]!.n;
  const ledgerAgrees = async () => {
    const bad = await q(sql`SELECT b.id FROM stock_balances b WHERE b.kind IN ('material', 'product')
      AND b.quantity <> (SELECT coalesce(sum(m.quantity), 0) FROM stock_moves m WHERE m.account_id = b.account_id AND m.kind = b.kind AND m.item_id = b.item_id AND m.store_id = b.store_id)`);
    expect(bad).toEqual([]);
  };
  /** An audited order with lines; answers its id and line ids. */
  const auditedOrder = async (no: string, lines: { Kind: number; ItemId: number; Quantity: number; UnitPrice: string }[]) => {
    const o = await call('PurchaseSave', { OrderNo: no, PoNo: `CG-${no}`, Content: 'parts', Purpose: 1, Amount: '100', Lines: lines });
    expect(o.body.State).toBe(200);
    await call('PurchaseBatchSave', { OrderId: o.body.Id, BatchDate: '2026-11-01', Quantity: 1, UnitPrice: '1', AmountPaid: '1' });
    expect((await call('PurchaseAudit', { Id: o.body.Id })).body.State).toBe(200);
    const order = (await call('PurchaseList', { Id: o.body.Id })).body.Items[0];
    return { id: o.body.Id as number, lines: order.Lines.map((l: { Id: number }) => l.Id) as number[] };
  };

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    admin = (await p.login()).token;
    const stores = (await p.call<{ Items: { Id: number }[] }>('/Inventory/StoreList', { PageCount: 100 }, admin)).body.Items;
    w1 = stores[0]!.Id;
    w2 = stores[1]!.Id;
    // A second administrator in a tree of its own.
    const [root] = await q<{ id: number }>(sql`SELECT id FROM accounts WHERE login_name = 'admin'`);
    const [other] = await q<{ id: number }>(sql`INSERT INTO accounts (login_name, password_hash, kind, user_type, path, username)
      SELECT 'erp2', password_hash, 'operator', 3, '/999999/', 'Other' FROM accounts WHERE id = ${root!.id} RETURNING id`);
    await p.deps.database.db.execute(sql`UPDATE accounts SET path = ${`/${other!.id}/`} WHERE id = ${other!.id}`);
    theirs = (await p.login('erp2', 'admin123')).token;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('keeps suppliers and customers: fields checked, names unique, delete refused while a document names them', async () => {
    const bad = await call('SupplierSave', { Name: '', TaxNo: 'ab-12', PaymentDays: 400 });
    expect(bad.status).toBe(400);
    expect(bad.body.Fields.map((f: { Field: string; Message: string }) => [f.Field, f.Message]).sort()).toEqual([
      ['Name', 'erp.nameRequired'],
      ['PaymentDays', 'validation.max'],
      ['TaxNo', 'erp.taxNoInvalid'],
    ]);
    const s = (await call('SupplierSave', { Name: 'Acme', Contact: 'Li', Phone: '021-1', TaxNo: '91310000X', PaymentDays: 30 })).body.Id;
    expect((await call('SupplierSave', { Name: 'Acme' })).body.Message).toBe('erp.supplierExists');
    expect((await call('SupplierList', { Keyword: 'acm' })).body.Items[0]).toMatchObject({ Id: s, Contact: 'Li', TaxNo: '91310000X', PaymentDays: 30 });
    const o = await call('PurchaseSave', { OrderNo: 'S-1', PoNo: 'CG-S-1', Content: 'x', Purpose: 1, Amount: '1', SupplierId: s });
    expect((await call('PurchaseList', { Id: o.body.Id })).body.Items[0]).toMatchObject({ SupplierId: s, SupplierName: 'Acme' });
    const used = await call('SupplierDelete', { Id: s });
    expect(used.status).toBe(409);
    expect(used.body.Message).toBe('erp.supplierInUse');
    expect((await call('PurchaseDelete', { Id: o.body.Id })).body.State).toBe(200);
    expect((await call('SupplierDelete', { Id: s })).body.State).toBe(200);

    // A customer may name a platform account of the subtree only.
    const [agent] = await q<{ id: number }>(sql`SELECT id FROM accounts WHERE login_name = 'agent01'`);
    const [stranger] = await q<{ id: number }>(sql`SELECT id FROM accounts WHERE login_name = 'erp2'`);
    const out = await call('CustomerSave', { Name: 'Shop', PlatformAccountId: stranger!.id });
    expect(out.body.Fields[0]).toMatchObject({ Field: 'PlatformAccountId', Message: 'account.notInScope' });
    const c = (await call('CustomerSave', { Name: 'Shop', PlatformAccountId: agent!.id, PaymentDays: 15 })).body.Id;
    expect((await call('CustomerList', { Keyword: 'Shop' })).body.Items[0]).toMatchObject({ Id: c, PlatformAccountId: agent!.id, PlatformAccountName: 'agent01', PaymentDays: 15 });
    const product = (await call('ProductSave', { ModelName: 'CUST-W', Colour: 1 })).body.Id;
    await call('StockRecordInsert', { Kind: 2, ItemId: product, Direction: 1, Quantity: 5, RecordDate: '2026-11-01' });
    const sale = await call('SaleSave', { SalesNo: 'SN-C1', CustomerId: c, CustomerCompany: 'Shop', ProductId: product, Quantity: 1, UnitPrice: '1', Receivable: '1', Actual: '1', PayMethod: 1, PayType: 1, SoldAt: '2026-11-02' });
    expect(sale.body.State).toBe(200);
    expect((await call('SaleList', { Keyword: 'SN-C1' })).body.Items[0].CustomerId).toBe(c);
    expect((await call('CustomerDelete', { Id: c })).body.Message).toBe('erp.customerInUse');
    const unused = (await call('CustomerSave', { Name: 'Nobody' })).body.Id;
    expect((await call('CustomerDelete', { Id: unused })).body.State).toBe(200);

    // Another tenant sees none of them and cannot touch or use them.
    expect((await call('CustomerList', {}, theirs)).body.Total).toBe(0);
    expect((await call('CustomerSave', { Id: c, Name: 'Mine now' }, theirs)).status).toBe(404);
    expect((await call('CustomerDelete', { Id: c }, theirs)).status).toBe(404);
    const s2 = (await call('SupplierSave', { Name: 'Kept' })).body.Id;
    expect((await call('SupplierDelete', { Id: s2 }, theirs)).status).toBe(404);
    const borrow = await call('PurchaseSave', { OrderNo: 'T-1', PoNo: 'CG-T-1', Content: 'x', Purpose: 1, Amount: '1', SupplierId: s2 }, theirs);
    expect(borrow.body.Fields[0]).toMatchObject({ Field: 'SupplierId', Message: 'erp.supplierNotFound' });
    // Agents (not administrators) are refused.
    const agentToken = (await p.login('agent01')).token;
    expect((await call('SupplierList', {}, agentToken)).status).toBe(403);
  });

  it('the migration links the free-text customer of existing sales records to new customers where the name matches exactly', async () => {
    const product = (await call('ProductSave', { ModelName: 'MIG-W', Colour: 1 })).body.Id;
    const [acc] = await q<{ id: number }>(sql`SELECT account_id AS id FROM erp_products WHERE id = ${product}`);
    await p.deps.database.db.execute(sql`INSERT INTO erp_sales (account_id, sales_no, customer_company, product_id, quantity, pay_method, pay_type, sold_at)
      VALUES (${acc!.id}, 'MIG-1', 'Old Co', ${product}, 1, 1, 1, now()), (${acc!.id}, 'MIG-2', 'Old Co', ${product}, 1, 1, 1, now()), (${acc!.id}, 'MIG-3', 'old co ', ${product}, 1, 1, 1, now())`);
    await p.deps.database.db.execute(sql`INSERT INTO erp_materials (account_id, name, supplier) VALUES (${acc!.id}, 'MIG-M', 'Old Supplier')`);
    // The migration's data statements, run again over these rows.
    const statements = readFileSync(MIGRATION, 'utf8').split('--> statement-breakpoint').filter((s) => /^\s*(--[^\n]*\n\s*)*(INSERT|UPDATE)/.test(s));
    expect(statements).toHaveLength(3);
    for (const s of statements) await p.deps.database.db.execute(sql.raw(s));
    const linked = await q<{ sales_no: string; name: string | null }>(sql`SELECT s.sales_no, c.name FROM erp_sales s LEFT JOIN erp_customers c ON c.id = s.customer_id WHERE s.sales_no LIKE 'MIG-%' ORDER BY s.sales_no`);
    // 'old co ' is another name (not an exact match): it becomes a customer of its own.
    expect(linked).toEqual([
      { sales_no: 'MIG-1', name: 'Old Co' },
      { sales_no: 'MIG-2', name: 'Old Co' },
      { sales_no: 'MIG-3', name: 'old co ' },
    ]);
    expect((await call('CustomerList', { Keyword: 'Old Co' })).body.Total).toBe(2);
    expect((await call('SupplierList', { Keyword: 'Old Supplier' })).body.Total).toBe(1);
  });

  it('receives an audited order in parts into a warehouse; over-receipt is refused naming the line and what remains, nothing changed', async () => {
    const m = (await call('MaterialSave', { Name: 'Screen' })).body.Id;
    const pr = (await call('ProductSave', { ModelName: 'RCV-W', Colour: 2 })).body.Id;
    // Lines are checked: an item of nobody's is refused by field.
    const badLine = await call('PurchaseSave', { OrderNo: 'R-0', PoNo: 'CG-R-0', Content: 'x', Purpose: 1, Amount: '1', Lines: [{ Kind: 1, ItemId: 99999, Quantity: 1, UnitPrice: '1' }] });
    expect(badLine.body.Fields[0]).toMatchObject({ Field: 'Lines.0.ItemId', Message: 'erp.materialNotFound' });
    const unaudited = await call('PurchaseSave', { OrderNo: 'R-U', PoNo: 'CG-R-U', Content: 'x', Purpose: 1, Amount: '1', Lines: [{ Kind: 1, ItemId: m, Quantity: 1, UnitPrice: '1' }] });
    const uLine = (await call('PurchaseList', { Id: unaudited.body.Id })).body.Items[0].Lines[0].Id;
    expect((await call('ReceiptSave', { OrderId: unaudited.body.Id, WarehouseId: w1, ReceivedOn: '2026-11-05', Lines: [{ LineId: uLine, Quantity: 1 }] })).body.Message).toBe('erp.receiptNotAudited');

    const o = await auditedOrder('R-1', [
      { Kind: 1, ItemId: m, Quantity: 10, UnitPrice: '2.50' },
      { Kind: 2, ItemId: pr, Quantity: 4, UnitPrice: '99' },
    ]);
    const first = await call('ReceiptSave', { OrderId: o.id, WarehouseId: w1, ReceivedOn: '2026-11-05', Lines: [{ LineId: o.lines[0], Quantity: 6 }, { LineId: o.lines[1], Quantity: 4 }] });
    expect(first.body.State).toBe(200);
    expect(await balance('material', m, w1)).toBe(6);
    expect(await balance('product', pr, w1)).toBe(4);
    // 5 more of line 1 is past the 4 remaining: refused by field, with the line and what remains.
    const over = await call('ReceiptSave', { OrderId: o.id, WarehouseId: w2, ReceivedOn: '2026-11-06', Lines: [{ LineId: o.lines[0], Quantity: 5 }] });
    expect(over.status).toBe(400);
    expect(over.body.Fields[0]).toMatchObject({ Field: 'Lines.0.Quantity', Message: 'erp.overReceipt', Params: { line: 1, item: 'Screen', remaining: 4 } });
    expect(await balance('material', m, w2)).toBe(0);
    expect(await q(sql`SELECT count(*)::int AS n FROM erp_receipts WHERE order_id = ${o.id}`)).toEqual([{ n: 1 }]);
    // The same line twice in one receipt counts as both.
    const twice = await call('ReceiptSave', { OrderId: o.id, WarehouseId: w2, ReceivedOn: '2026-11-06', Lines: [{ LineId: o.lines[0], Quantity: 3 }, { LineId: o.lines[0], Quantity: 2 }] });
    expect(twice.body.Fields[0]).toMatchObject({ Field: 'Lines.1.Quantity', Params: { remaining: 1 } });
    expect((await call('ReceiptSave', { OrderId: o.id, WarehouseId: w2, ReceivedOn: '2026-11-06', Lines: [{ LineId: o.lines[0], Quantity: 4 }] })).body.State).toBe(200);
    const lines = (await call('PurchaseList', { Id: o.id })).body.Items[0].Lines;
    expect(lines).toMatchObject([
      { Kind: 1, ItemId: m, ItemName: 'Screen', Quantity: 10, UnitPrice: '2.50', Received: 10 },
      { Kind: 2, ItemId: pr, ItemName: 'RCV-W', Quantity: 4, UnitPrice: '99.00', Received: 4 },
    ]);
    // An audited order's lines no longer change.
    expect((await call('PurchaseSave', { Id: o.id, OrderNo: 'R-1', PoNo: 'CG-R-1', Content: 'x', Purpose: 1, Amount: '1', Lines: [] })).status).toBe(409);
    expect(await balance('material', m, w2)).toBe(4);
    expect((await call('MaterialList', { Keyword: 'Screen' })).body.Items[0].Stock).toBe(10);
    // Bad input and another tenant.
    const empty = await call('ReceiptSave', { OrderId: o.id, WarehouseId: w1, ReceivedOn: '2026-11-06', Lines: [] });
    expect(empty.body.Fields[0]).toMatchObject({ Field: 'Lines', Message: 'erp.receiptLinesRequired' });
    expect((await call('ReceiptSave', { OrderId: o.id, WarehouseId: w1, ReceivedOn: '2026-11-06', Lines: [{ LineId: o.lines[0], Quantity: 0 }] })).body.Fields[0].Field).toBe('Lines.0.Quantity');
    const foreign = await call('ReceiptSave', { OrderId: o.id, WarehouseId: w1, ReceivedOn: '2026-11-06', Lines: [{ LineId: o.lines[0], Quantity: 1 }] }, theirs);
    expect(foreign.body.Fields?.[0]?.Field ?? foreign.status).toBe('WarehouseId');
    await ledgerAgrees();
  });

  it('concurrent receipts of one line never exceed the ordered quantity', async () => {
    const m = (await call('MaterialSave', { Name: 'Battery' })).body.Id;
    const o = await auditedOrder('R-2', [{ Kind: 1, ItemId: m, Quantity: 25, UnitPrice: '1' }]);
    const all = await Promise.all(Array.from({ length: 20 }, (_, i) => call('ReceiptSave', { OrderId: o.id, WarehouseId: i % 2 ? w1 : w2, ReceivedOn: '2026-11-07', Lines: [{ LineId: o.lines[0], Quantity: 2 }] })));
    expect(all.filter((r) => r.body.State === 200)).toHaveLength(12);
    expect(all.filter((r) => r.body.Fields?.[0]?.Message === 'erp.overReceipt')).toHaveLength(8);
    expect((await call('PurchaseList', { Id: o.id })).body.Items[0].Lines[0].Received).toBe(24);
    expect((await balance('material', m, w1)) + (await balance('material', m, w2))).toBe(24);
    await ledgerAgrees();
  });

  it('transfers between warehouses as two moves; out never past the source, even all at once', async () => {
    const m = (await call('MaterialSave', { Name: 'Strap T' })).body.Id;
    const o = await auditedOrder('R-3', [{ Kind: 1, ItemId: m, Quantity: 20, UnitPrice: '1' }]);
    await call('ReceiptSave', { OrderId: o.id, WarehouseId: w1, ReceivedOn: '2026-11-08', Lines: [{ LineId: o.lines[0], Quantity: 20 }] });
    const same = await call('TransferSave', { Kind: 1, ItemId: m, FromWarehouseId: w1, ToWarehouseId: w1, Quantity: 1 });
    expect(same.body.Fields[0]).toMatchObject({ Field: 'ToWarehouseId', Message: 'erp.transferSameWarehouse' });
    const t = await call('TransferSave', { Kind: 1, ItemId: m, FromWarehouseId: w1, ToWarehouseId: w2, Quantity: 5 });
    expect(t.body.State).toBe(200);
    expect(await q(sql`SELECT store_id, quantity FROM stock_moves WHERE doc_type = 'erp_transfer' AND doc_id = ${t.body.Id} ORDER BY quantity`)).toEqual([
      { store_id: w1, quantity: -5 },
      { store_id: w2, quantity: 5 },
    ]);
    const over = await call('TransferSave', { Kind: 1, ItemId: m, FromWarehouseId: w2, ToWarehouseId: w1, Quantity: 6 });
    expect(over.status).toBe(409);
    expect(over.body.Message).toBe('erp.transferAboveStock');
    expect([await balance('material', m, w1), await balance('material', m, w2)]).toEqual([15, 5]);
    // 10 transfers of 2 at once out of 15: exactly 7 pass.
    const all = await Promise.all(Array.from({ length: 10 }, () => call('TransferSave', { Kind: 1, ItemId: m, FromWarehouseId: w1, ToWarehouseId: w2, Quantity: 2 })));
    expect(all.filter((r) => r.body.State === 200)).toHaveLength(7);
    expect([await balance('material', m, w1), await balance('material', m, w2)]).toEqual([1, 19]);
    expect((await call('TransferSave', { Kind: 1, ItemId: m, FromWarehouseId: w1, ToWarehouseId: w2, Quantity: 1 }, theirs)).body.Fields[0]).toMatchObject({ Field: 'ItemId', Message: 'erp.materialNotFound' });
    await ledgerAgrees();
  });

  it('answers the stock on hand at the end of a day in the viewer’s zone, from the ledger', async () => {
    const m = (await call('MaterialSave', { Name: 'Clasp' })).body.Id;
    const o = await auditedOrder('R-4', [{ Kind: 1, ItemId: m, Quantity: 30, UnitPrice: '1' }]);
    await call('ReceiptSave', { OrderId: o.id, WarehouseId: w1, ReceivedOn: '2026-11-09', Lines: [{ LineId: o.lines[0], Quantity: 30 }] });
    const t = (await call('TransferSave', { Kind: 1, ItemId: m, FromWarehouseId: w1, ToWarehouseId: w2, Quantity: 12 })).body.Id;
    // The receipt happened on 2026-11-09 12:00 UTC, the transfer on 2026-11-10 20:00 UTC, which is
    // the 11th 04:00 in the administrator's zone (UTC+8).
    await p.deps.database.db.execute(sql`UPDATE stock_moves SET created_at = '2026-11-09T12:00:00Z' WHERE doc_type = 'erp_receipt' AND item_id = ${m}`);
    await p.deps.database.db.execute(sql`UPDATE stock_moves SET created_at = '2026-11-10T20:00:00Z' WHERE doc_type = 'erp_transfer' AND doc_id = ${t}`);
    expect(await q(sql`SELECT time_zone_offset FROM accounts WHERE login_name = 'admin'`)).toEqual([{ time_zone_offset: 480 }]);
    const at = async (date: string, extra: object = {}) =>
      (await call('StockAt', { Kind: 1, Date: date, ...extra })).body.Items.filter((r: { ItemId: number }) => r.ItemId === m).map((r: { WarehouseId: number; Quantity: number; ItemName: string }) => [r.WarehouseId, r.Quantity, r.ItemName]);
    expect(await at('2026-11-08')).toEqual([]);
    expect(await at('2026-11-09')).toEqual([[w1, 30, 'Clasp']]);
    // The viewer's 10th ends (16:00 UTC) before the transfer; its 11th has it.
    expect(await at('2026-11-10')).toEqual([[w1, 30, 'Clasp']]);
    expect((await at('2026-11-11')).sort()).toEqual([[w1, 18, 'Clasp'], [w2, 12, 'Clasp']].sort());
    expect(await at('2026-11-11', { WarehouseId: w2 })).toEqual([[w2, 12, 'Clasp']]);
    expect((await call('StockAt', { Kind: 1, Date: 'soon' })).body.Fields[0].Field).toBe('Date');
    expect((await call('StockAt', { Kind: 1, Date: '2026-11-10' }, theirs)).body.Items).toEqual([]);
  });
});
