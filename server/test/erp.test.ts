// ERP calls with good and bad input and every rule of SPEC §5: inbound/outbound quantity not 0,
// outbound not above stock (also against many outbound records at once), a batch repeating
// another's unit price and quantity asks for confirmation, audit from unaudited to audited with the
// approval failure, invoices never above payments, duplicates refused with their §8 messages,
// shipping writing the outbound order and taking products out of stock, discard putting them back;
// money exact in cents; administrators only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { rows } from '../src/lib/sql.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe.each(databases())('ERP on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as the tests need them
  const call = <T = any>(path: string, body: unknown = {}, token = admin) => p.call<T>(`/Erp/${path}`, body, token);

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    admin = (await p.login()).token;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('keeps materials with inbound and outbound records: not 0, never above stock, even all at once', async () => {
    const m = (await call('MaterialSave', { Name: 'Strap', Supplier: 'Acme' })).body.Id;
    expect((await call('MaterialSave', { Name: 'Strap' })).status).toBe(409);
    const zero = await call('StockRecordInsert', { Kind: 1, ItemId: m, Direction: 1, Quantity: 0, RecordDate: '2026-11-01' });
    expect(zero.body.Fields[0]).toMatchObject({ Field: 'Quantity', Message: 'erp.quantityZero' });
    expect((await call('StockRecordInsert', { Kind: 1, ItemId: m, Direction: 1, Quantity: 50, RecordDate: '2026-11-01' })).body.Balance).toBe(50);
    const over = await call('StockRecordInsert', { Kind: 1, ItemId: m, Direction: 2, Quantity: 51, RecordDate: '2026-11-02' });
    expect(over.status).toBe(409);
    expect(over.body.Message).toBe('erp.outboundAboveStock');
    // 30 outbound records of 2 at once against 50: exactly 25 pass, the stock ends at 0.
    const all = await Promise.all(Array.from({ length: 30 }, () => call('StockRecordInsert', { Kind: 1, ItemId: m, Direction: 2, Quantity: 2, RecordDate: '2026-11-03' })));
    expect(all.filter((r) => r.body.State === 200)).toHaveLength(25);
    expect(all.filter((r) => r.status === 409)).toHaveLength(5);
    expect((await call('MaterialList', { Keyword: 'Strap' })).body.Items[0]).toMatchObject({ Stock: 0, Supplier: 'Acme' });
    const recs = (await call('StockRecordList', { Kind: 1, ItemId: m, PageCount: 100 })).body;
    expect(recs.Total).toBe(26);
    // Each record holds the balance after it: 50, then 48 down to 0, each once.
    expect(recs.Items.map((r: { Balance: number }) => r.Balance).sort((a: number, b: number) => b - a)).toEqual(Array.from({ length: 26 }, (_, i) => 50 - 2 * i));
    // The ledger's moves, in the order they were applied, carry the running balance.
    const moves = await rows<{ quantity: number; balance: number }>(p.deps.database.db, sql`SELECT quantity, balance FROM stock_moves WHERE kind = 'material' AND item_id = ${m} ORDER BY id`);
    let running = 0;
    for (const mv of moves) expect(mv.balance).toBe((running += mv.quantity));
    expect((await call('MaterialDelete', { Id: m })).body.Message).toBe('erp.materialInUse');
  });

  it('keeps products by model and colour; a model name is unique', async () => {
    const pr = await call('ProductSave', { ModelName: 'W1', Colour: 2 });
    expect(pr.body.State).toBe(200);
    const dup = await call('ProductSave', { ModelName: 'W1', Colour: 1 });
    expect(dup.status).toBe(409);
    expect(dup.body.Message).toBe('erp.productExists');
    expect((await call('ProductSave', { ModelName: 'W2', Colour: 4 })).body.Fields[0]).toMatchObject({ Field: 'Colour', Message: 'validation.max' });
    expect((await call('ProductList', { Keyword: 'W1' })).body.Items[0]).toMatchObject({ ModelName: 'W1', Colour: 2, Stock: 0 });
  });

  it('purchases: batches (repeat asks for confirmation), audit and its failure, invoices never above payments', async () => {
    const o = await call('PurchaseSave', { OrderNo: 'PO-1', PoNo: 'CG-1', Content: 'Screens', Purpose: 1, Amount: '1000.10' });
    expect(o.body.State).toBe(200);
    expect((await call('PurchaseSave', { OrderNo: 'PO-2', PoNo: 'CG-1', Content: 'x', Purpose: 1, Amount: '1' })).body.Fields[0]).toMatchObject({ Field: 'PoNo', Message: 'erp.poNoExists' });
    expect((await call('PurchaseSave', { OrderNo: 'PO-1', PoNo: 'CG-9', Content: 'x', Purpose: 1, Amount: '1' })).body.Fields[0]).toMatchObject({ Field: 'OrderNo', Message: 'erp.orderNoExists' });
    expect((await call('PurchaseSave', { OrderNo: 'PO-3', PoNo: 'CG-3', Content: 'x', Purpose: 1, Amount: '1.234' })).body.Fields[0]).toMatchObject({ Field: 'Amount', Message: 'erp.moneyInvalid' });
    const id = o.body.Id;
    // Audit without a batch: the approval fails.
    const early = await call('PurchaseAudit', { Id: id });
    expect(early.status).toBe(409);
    expect(early.body.Message).toBe('erp.auditFailedNoBatch');
    expect((await call('PurchaseBatchSave', { OrderId: id, BatchDate: '2026-11-01', Quantity: 10, UnitPrice: '0.10', AmountPaid: '0.30' })).body.State).toBe(200);
    const repeat = await call('PurchaseBatchSave', { OrderId: id, BatchDate: '2026-11-02', Quantity: 10, UnitPrice: '0.1', AmountPaid: '0.40' });
    expect(repeat.status).toBe(409);
    expect(repeat.body.Message).toBe('erp.batchRepeatConfirm');
    expect((await call('PurchaseBatchSave', { OrderId: id, BatchDate: '2026-11-02', Quantity: 10, UnitPrice: '0.1', AmountPaid: '0.40', Confirm: true })).body.State).toBe(200);
    // Payments 0.70 in exact cents (0.30 + 0.40, no floating point drift); invoices up to that.
    const order = (await call('PurchaseList', { Keyword: 'PO-1' })).body.Items[0];
    expect(order).toMatchObject({ Amount: '1000.10', Paid: '0.70', Audit: 1 });
    expect(order.Batches).toHaveLength(2);
    expect((await call('InvoiceSave', { OrderId: id, Company: 'Acme', InvoiceDate: '2026-11-03', Amount: '0.50', Number: 'INV-1' })).body.State).toBe(200);
    const above = await call('InvoiceSave', { OrderId: id, Company: 'Acme', InvoiceDate: '2026-11-03', Amount: '0.21', Number: 'INV-2' });
    expect(above.status).toBe(409);
    expect(above.body).toMatchObject({ Message: 'erp.invoiceAbovePaid', Params: { paid: '0.70', invoiced: '0.71' } });
    expect((await call('InvoiceSave', { OrderId: id, Company: 'Acme', InvoiceDate: '2026-11-03', Amount: '0.20', Number: 'INV-1' })).body.Fields[0]).toMatchObject({ Field: 'Number', Message: 'erp.invoiceNoExists' });
    // Many invoices at once cannot pass the payments together.
    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => call('InvoiceSave', { OrderId: id, Company: 'Acme', InvoiceDate: '2026-11-03', Amount: '0.05', Number: `B-${i}` })));
    expect(burst.filter((r) => r.body.State === 200)).toHaveLength(4);
    expect((await call('PurchaseList', { Keyword: 'PO-1' })).body.Items[0].Invoiced).toBe('0.70');
    // A batch whose removal would leave invoices above payments is refused.
    expect((await call('PurchaseBatchDelete', { Id: order.Batches[0].Id })).body.Message).toBe('erp.invoiceAbovePaid');
    // Audit: unaudited to audited once; then the order is no longer changed.
    expect((await call('PurchaseAudit', { Id: id })).body.State).toBe(200);
    expect((await call('PurchaseAudit', { Id: id })).body.Message).toBe('erp.auditFailed');
    expect((await call('PurchaseBatchSave', { OrderId: id, BatchDate: '2026-11-04', Quantity: 1, UnitPrice: '1', AmountPaid: '1' })).body.Message).toBe('erp.purchaseAudited');
    expect((await call('PurchaseList', { Audit: 2 })).body.Items.map((x: { Id: number }) => x.Id)).toEqual([id]);
    const [cents] = await rows<{ paid: string }>(p.deps.database.db, sql`SELECT sum(paid_cents)::text AS paid FROM erp_purchase_batches WHERE order_id = ${id}`);
    expect(cents!.paid).toBe('70');
  });

  it('sales records: duplicates refused, shipping writes the outbound order out of stock, discard puts it back', async () => {
    const prod = (await call('ProductSave', { ModelName: 'S1', Colour: 1 })).body.Id;
    expect((await call('StockRecordInsert', { Kind: 2, ItemId: prod, Direction: 1, Quantity: 5, RecordDate: '2026-11-01' })).body).toMatchObject({ Balance: 5 });
    const base = { CustomerCompany: 'Clinic Ltd', ProductId: prod, Quantity: 3, UnitPrice: '199.90', Receivable: '599.70', Actual: '500', PayMethod: 1, PayType: 3, SoldAt: '2026-11-05T10:00:00Z' };
    const s = await call('SaleSave', { ...base, SalesNo: 'SO-1', Devices: [{ Imei: '861234567890123', Iccid: '8986', ExpiresAt: '2027-11-05' }] });
    expect(s.body.State).toBe(200);
    expect((await call('SaleSave', { ...base, SalesNo: 'SO-1' })).body.Fields[0]).toMatchObject({ Field: 'SalesNo', Message: 'erp.salesNoExists' });
    expect((await call('SaleSave', { ...base, SalesNo: 'SO-2', Devices: [{ Imei: '861234567890123' }] })).body.Fields[0]).toMatchObject({ Message: 'erp.deviceExists' });
    expect((await call('SaleSave', { ...base, SalesNo: 'SO-3', PayMethod: 3 })).body.Fields[0]).toMatchObject({ Field: 'PayMethod' });
    const noInfo = await call('SaleShip', { Id: s.body.Id });
    expect(noInfo.body.Fields.map((f: { Field: string }) => f.Field).sort()).toEqual(['Address', 'Phone', 'Recipient', 'TrackingNo', 'WarehouseId']);
    const stores = (await p.call('/Inventory/StoreList', { PageCount: 10 }, admin)).body.Items;
    const ship = await call('SaleShip', { Id: s.body.Id, TrackingNo: 'SF123', WarehouseId: stores[0].Id, Recipient: 'Li', Phone: '13800000000', Address: 'Nanshan' });
    expect(ship.body.OutboundNo).toMatch(/^O\d{8}-/);
    expect((await call('ProductList', { Keyword: 'S1' })).body.Items[0].Stock).toBe(2);
    const row = (await call('SaleList', { Keyword: 'SO-1' })).body.Items[0];
    expect(row).toMatchObject({ ShipState: 3, Receivable: '599.70', Actual: '500.00', WarehouseName: '上海', Devices: [{ Imei: '861234567890123', Iccid: '8986' }] });
    // A second sale of 3 cannot ship from 2 in stock.
    const s2 = await call('SaleSave', { ...base, SalesNo: 'SO-4' });
    const short = await call('SaleShip', { Id: s2.body.Id, TrackingNo: 'SF2', WarehouseId: stores[0].Id, Recipient: 'Li', Phone: '1', Address: 'x' });
    expect(short.body.Message).toBe('erp.outboundAboveStock');
    expect((await call('SaleShip', { Id: s2.body.Id, ShipState: 2 })).body.State).toBe(200);
    expect((await call('SaleDiscard', { Id: s.body.Id })).body.State).toBe(200);
    expect((await call('SaleDiscard', { Id: s.body.Id })).body.Message).toBe('erp.saleDiscarded');
    expect((await call('ProductList', { Keyword: 'S1' })).body.Items[0].Stock).toBe(5);
    expect((await call('SaleList', { Discarded: 1 })).body.Items.map((x: { SalesNo: string }) => x.SalesNo)).toEqual(['SO-1']);
  });

  it('refuses a sales record of a product without stock when it is saved (SPEC §5), and saves it once stock is in', async () => {
    const prod = (await call('ProductSave', { ModelName: 'NS1', Colour: 2 })).body.Id;
    const sale = { CustomerCompany: 'Nobody Ltd', ProductId: prod, Quantity: 1, UnitPrice: '10', Receivable: '10', Actual: '0', PayMethod: 1, PayType: 1, SoldAt: '2025-11-06T10:00:00Z', SalesNo: 'SO-NS1' };
    const refused = await p.call('/Erp/SaleSave', sale, admin, { 'accept-language': 'en' });
    expect(refused.status).toBe(400);
    expect(refused.body.Fields).toEqual([expect.objectContaining({ Field: 'ProductId', Message: 'erp.productNoStock', Text: 'The product model has no stock and cannot be sold' })]);
    expect((await call('SaleList', { Keyword: 'SO-NS1' })).body.Total).toBe(0);
    // Stock in, then out again to 0: still none to sell.
    await call('StockRecordInsert', { Kind: 2, ItemId: prod, Direction: 1, Quantity: 1, RecordDate: '2026-11-01' });
    await call('StockRecordInsert', { Kind: 2, ItemId: prod, Direction: 2, Quantity: 1, RecordDate: '2026-11-02' });
    expect((await call('SaleSave', sale)).body.Fields[0]).toMatchObject({ Field: 'ProductId', Message: 'erp.productNoStock' });
    await call('StockRecordInsert', { Kind: 2, ItemId: prod, Direction: 1, Quantity: 2, RecordDate: '2026-11-03' });
    expect((await call('SaleSave', sale)).body.State).toBe(200);
  });

  it('reports stock per model, version and store, purchasing and sales per month, receivables; as spreadsheets too', async () => {
    const stock = (await p.call('/Erp/Report', { Report: 'stock' }, admin)).body.Stock;
    // The demo stock: Y6 in Shenzhen and K9 in Shanghai, version V2.1.0.
    expect(stock).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ ModelName: 'Y6', VersionName: 'V2.1.0', StoreName: '深圳', InStock: 40, Sold: 0 }),
        expect.objectContaining({ ModelName: 'K9', StoreName: '上海', InStock: 25 }),
      ]),
    );
    const monthly = (await p.call('/Erp/Report', { Report: 'monthly', Year: 2026 }, admin)).body.Monthly;
    expect(monthly).toHaveLength(12);
    expect(monthly.find((m: { Month: string }) => m.Month === '2026-11')).toMatchObject({ PurchaseQuantity: 20, PurchasePaid: '0.70', SalesQuantity: 3, SalesReceivable: '599.70', SalesActual: '500.00' });
    const rec = (await p.call('/Erp/Report', { Report: 'receivables' }, admin)).body.Receivables;
    expect(rec).toEqual(expect.arrayContaining([{ Customer: 'Clinic Ltd', Records: 1, Sold: '599.70', Paid: '500.00', Outstanding: '99.70' }]));
    // The demo's October sale: 3990.00 receivable, 2000.00 received.
    expect(monthly.find((m: { Month: string }) => m.Month === '2026-10')).toMatchObject({ PurchaseQuantity: 500, PurchasePaid: '1500.00', SalesQuantity: 10, SalesReceivable: '3990.00' });
    expect((await p.call('/Erp/Report', { Report: 'nope' }, admin)).body.Fields[0]).toMatchObject({ Field: 'Report', Message: 'erp.reportInvalid' });
    const res = await fetch(`${p.url}/api/Erp/ReportExport`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}`, 'accept-language': 'en' },
      body: JSON.stringify({ Report: 'receivables' }),
    });
    expect(res.status).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(await res.arrayBuffer()) as never);
    const ws = wb.worksheets[0]!;
    expect(ws.getRow(1).values).toEqual([undefined, 'Customer', 'Records', 'Sold', 'Paid', 'Outstanding']);
    expect(ws.getRow(2).values).toEqual([undefined, '华南智能穿戴代理有限公司', 1, '3990.00', '2000.00', '1990.00']);
    expect(ws.getRow(3).values).toEqual([undefined, 'Clinic Ltd', 1, '599.70', '500.00', '99.70']);
  });

  it('is for administrators only', async () => {
    const agent = (await p.login('agent01')).token;
    for (const path of ['MaterialList', 'PurchaseSave', 'SaleShip']) expect((await call(path, {}, agent)).status).toBe(403);
  });
});
