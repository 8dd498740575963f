// The ERP sales chain on the stock ledger: deliveries (partial, out of a warehouse; IMEI-tracked
// products hand their devices to the customer's platform account as an inventory sale does, picked
// first-in or named), invoices never above the delivered value and the payment state, sales returns
// (devices back to stock and out of the customer's account) and purchase returns, stock-takes
// posting their differences; bad input named by field with nothing changed, another tenant refused,
// and after every document the ledger's balance of the tracked model equals its items in stock.
// On PostgreSQL: 20 concurrent deliveries of overlapping stock sell no IMEI twice and go below 0 nowhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { rows } from '../src/lib/sql.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

const imeis = (prefix: string, n: number, from = 0) => Array.from({ length: n }, (_, i) => `${prefix}${String(i + from).padStart(15 - prefix.length, '0')}`);

describe.each(databases())('ERP sales chain on %s', (kind) => {
  let p: TestPlatform;
  let admin: string;
  let theirs: string;
  let w1: number;
  let w2: number;
  let agentId: number;
  let model: number;
  let tracked: number;
  let plain: number;
  let customer: number;
  let n = 0;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are read as the tests need them
  const call = <T = any>(name: string, body: unknown = {}, token = admin) => p.call<T>(`/Erp/${name}`, body, token);
  const q = <T,>(s: ReturnType<typeof sql>) => rows<T>(p.deps.database.db, s);
  const balance = async (kindName: string, item: number, store: number) =>
    Number((await q<{ n: number }>(sql`SELECT coalesce(sum(quantity), 0)::int AS n FROM stock_balances WHERE kind = ${kindName} AND item_id = ${item} AND store_id = ${store}`))[0]!.n);
  const inStock = async (store: number) => Number((await q<{ n: number }>(sql`SELECT count(*)::int AS n FROM inv_items WHERE model_id = ${model} AND store_id = ${store} AND state = 1`))[0]!.n);
  /** The tracked product's stock on the ledger equals the devices in inventory, and every balance its moves. */
  const ledgerAgrees = async () => {
    for (const w of [w1, w2]) expect(await balance('item', model, w)).toBe(await inStock(w));
    const bad = await q(sql`SELECT b.id FROM stock_balances b
      WHERE b.quantity <> (SELECT coalesce(sum(m.quantity), 0) FROM stock_moves m WHERE m.account_id = b.account_id AND m.kind = b.kind AND m.item_id = b.item_id AND m.store_id = b.store_id)`);
    expect(bad).toEqual([]);
  };
  const devicesOf = async (account: number, list: string[]) =>
    (await q<{ imei: string }>(sql`SELECT imei FROM devices WHERE account_id = ${account} AND imei = ANY(${`{${list.join(',')}}`}::text[]) ORDER BY imei`)).map((d) => d.imei);
  const sale = async (product: number, quantity: number, unitPrice = '10', customerId: number | null = customer) => {
    n += 1;
    const r = await call('SaleSave', {
      SalesNo: `SO-${kind}-${n}`,
      CustomerCompany: 'Acme',
      CustomerId: customerId,
      ProductId: product,
      Quantity: quantity,
      UnitPrice: unitPrice,
      Receivable: '0',
      Actual: '0',
      PayMethod: 1,
      PayType: 1,
      SoldAt: '2026-11-20',
    });
    expect(r.body.State).toBe(200);
    return r.body.Id as number;
  };
  const stockIn = async (list: string[], store: number) => {
    n += 1;
    const r = await p.call('/Inventory/BatchInsert', { ModelId: model, StoreId: store, StockInDate: '2026-11-01', Imeis: list }, admin);
    expect(r.body.State).toBe(200);
  };
  /** Puts `qty` of a non-tracked product into a warehouse by a receipt of an audited order. */
  const receive = async (product: number, qty: number, store: number) => {
    n += 1;
    const o = await call('PurchaseSave', { OrderNo: `PO-${n}`, PoNo: `CG-${n}`, Content: 'goods', Purpose: 3, Amount: '1', Lines: [{ Kind: 2, ItemId: product, Quantity: qty, UnitPrice: '1' }] });
    await call('PurchaseBatchSave', { OrderId: o.body.Id, BatchDate: '2026-11-01', Quantity: 1, UnitPrice: '1', AmountPaid: '1' });
    expect((await call('PurchaseAudit', { Id: o.body.Id })).body.State).toBe(200);
    const line = (await call('PurchaseList', { Id: o.body.Id })).body.Items[0].Lines[0].Id as number;
    expect((await call('ReceiptSave', { OrderId: o.body.Id, WarehouseId: store, ReceivedOn: '2026-11-02', Lines: [{ LineId: line, Quantity: qty }] })).body.State).toBe(200);
    return line;
  };

  beforeAll(async () => {
    p = await startTestPlatform(kind);
    admin = (await p.login()).token;
    const stores = (await p.call<{ Items: { Id: number }[] }>('/Inventory/StoreList', { PageCount: 100 }, admin)).body.Items;
    w1 = stores[0]!.Id;
    w2 = stores[1]!.Id;
    const [a] = await q<{ id: number }>(sql`SELECT id FROM accounts WHERE login_name = 'agent01'`);
    agentId = a!.id;
    const [cat] = await q<{ id: number }>(sql`SELECT id FROM device_models ORDER BY id LIMIT 1`);
    model = (await p.call('/Inventory/ModelInsert', { Name: 'W-1', DeviceModelId: cat!.id }, admin)).body.Id;
    tracked = (await call('ProductSave', { ModelName: 'Watch W-1', Colour: 1, InvModelId: model })).body.Id;
    plain = (await call('ProductSave', { ModelName: 'Strap', Colour: 2 })).body.Id;
    customer = (await call('CustomerSave', { Name: 'Acme', PlatformAccountId: agentId })).body.Id;
    // A second administrator in a tree of its own.
    const [root] = await q<{ id: number }>(sql`SELECT id FROM accounts WHERE login_name = 'admin'`);
    const [other] = await q<{ id: number }>(sql`INSERT INTO accounts (login_name, password_hash, kind, user_type, path, username)
      SELECT 'erp3', password_hash, 'operator', 3, '/999999/', 'Other' FROM accounts WHERE id = ${root!.id} RETURNING id`);
    await p.deps.database.db.execute(sql`UPDATE accounts SET path = ${`/${other!.id}/`} WHERE id = ${other!.id}`);
    theirs = (await p.login('erp3', 'admin123')).token;
  });
  afterAll(async () => {
    await p?.stop();
  });

  it('refuses bad input naming the field and the limit, changing nothing', async () => {
    const bad = await call('DeliverySave', { Imeis: ['123'], DeliveredOn: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.Fields.map((f: { Field: string; Message: string }) => [f.Field, f.Message]).sort()).toEqual([
      ['DeliveredOn', expect.any(String)],
      ['Imeis.0', 'validation.imeiInvalid'],
      ['SaleId', expect.any(String)],
      ['WarehouseId', 'inventory.storeRequired'],
    ]);
    const noQty = await call('DeliverySave', { SaleId: 1, WarehouseId: w1, DeliveredOn: '2026-11-21' });
    expect(noQty.body.Fields).toEqual([expect.objectContaining({ Field: 'Quantity', Message: 'erp.quantityRequired' })]);
    const money = await call('SaleInvoiceSave', { SaleId: 1, Number: '', InvoiceDate: '2026-11-21', Amount: '1.234' });
    expect(money.body.Fields.map((f: { Field: string; Message: string }) => [f.Field, f.Message]).sort()).toEqual([
      ['Amount', 'erp.moneyInvalid'],
      ['Number', 'erp.invoiceNoRequired'],
    ]);
    const count = await call('StockTakeCount', { Id: 1, Lines: [{ Id: 1, Counted: -1 }] });
    expect(count.body.Fields[0]).toMatchObject({ Field: 'Lines.0.Counted', Message: 'validation.min' });
    const missing = await call('StockTakeCount', { Id: 1, Lines: [{ Id: 1 }] });
    expect(missing.body.Fields[0]).toMatchObject({ Field: 'Lines.0.Counted', Message: 'erp.countedRequired' });
    // The message is localized and names the limit.
    const en = await p.call('/Erp/DeliverySave', { SaleId: 1, WarehouseId: w1, DeliveredOn: '2026-11-21' }, admin, { 'accept-language': 'en' });
    expect(en.body.Fields[0].Message).toBe('erp.quantityRequired');
    expect(await q(sql`SELECT id FROM erp_deliveries`)).toEqual([]);
  });

  it('delivers an IMEI-tracked product in parts: first-in or named IMEIs, devices handed to the customer’s account', async () => {
    const pool = imeis('86100000', 8);
    await stockIn(pool.slice(0, 6), w1);
    await stockIn(pool.slice(6), w2);
    await ledgerAgrees();
    const s = await sale(tracked, 5, '100');
    // First in, first out: the two oldest items of the warehouse.
    const d1 = await call('DeliverySave', { SaleId: s, WarehouseId: w1, Quantity: 2, DeliveredOn: '2026-11-21' });
    expect(d1.body).toMatchObject({ State: 200, Quantity: 2, Imeis: pool.slice(0, 2) });
    expect(await devicesOf(agentId, pool)).toEqual(pool.slice(0, 2));
    await ledgerAgrees();
    // Named IMEIs: one already delivered and one of another warehouse are refused, nothing changed.
    const refused = await call('DeliverySave', { SaleId: s, WarehouseId: w1, Imeis: [pool[1], pool[6]], DeliveredOn: '2026-11-21' });
    expect(refused.status).toBe(409);
    expect(refused.body.Fields.map((f: { Field: string; Message: string }) => [f.Field, f.Message])).toEqual([
      ['Imeis.0', 'inventory.imeiNotInStock'],
      ['Imeis.1', 'inventory.imeiOtherStore'],
    ]);
    const named = await call('DeliverySave', { SaleId: s, WarehouseId: w2, Imeis: [pool[7]], DeliveredOn: '2026-11-22' });
    expect(named.body).toMatchObject({ State: 200, Quantity: 1, Imeis: [pool[7]] });
    // Never above what remains of the order (5 - 3 = 2).
    const over = await call('DeliverySave', { SaleId: s, WarehouseId: w1, Quantity: 3, DeliveredOn: '2026-11-22' });
    expect(over.status).toBe(400);
    expect(over.body.Fields[0]).toMatchObject({ Field: 'Quantity', Message: 'erp.deliveryAboveOrder', Params: { remaining: 2 } });
    // Not above the warehouse's stock either (w2 has 1 left).
    const short = await call('DeliverySave', { SaleId: s, WarehouseId: w2, Quantity: 2, DeliveredOn: '2026-11-22' });
    expect(short.body).toMatchObject({ State: 409, Message: 'inventory.notEnoughStock' });
    const docs = (await call('SaleDocuments', { Id: s })).body;
    expect(docs).toMatchObject({ Tracked: true, Ordered: 5, Delivered: 3, Returned: 0, DeliveredValue: '300.00', PayState: 1 });
    expect(docs.Deliveries.map((d: { Imeis: string[] }) => d.Imeis)).toEqual([pool.slice(0, 2), [pool[7]]]);
    // The hand-over is an inventory sale, but only a sales return reverses it.
    const invSale = (await q<{ inv_sale_id: number }>(sql`SELECT inv_sale_id FROM erp_deliveries WHERE id = ${d1.body.Id}`))[0]!.inv_sale_id;
    expect((await p.call('/Inventory/SalesDelById', { Id: invSale }, admin)).body.Message).toBe('inventory.saleOfDelivery');
    // Shipping or discarding the whole record is refused once it is delivered in parts.
    expect((await call('SaleDiscard', { Id: s })).body.Message).toBe('erp.saleHasDeliveries');
    await ledgerAgrees();

    // A customer without a platform account cannot receive devices.
    const loose = (await call('CustomerSave', { Name: 'Walk-in' })).body.Id;
    const s2 = await sale(tracked, 1, '1', loose);
    const none = await call('DeliverySave', { SaleId: s2, WarehouseId: w1, Quantity: 1, DeliveredOn: '2026-11-22' });
    expect(none.body.Fields[0]).toMatchObject({ Field: 'SaleId', Message: 'erp.customerNoAccount' });
    expect(await inStock(w1)).toBe(4);
  });

  it('takes returned devices back to stock and out of the customer’s account, never above delivered', async () => {
    const pool = imeis('86200000', 4);
    await stockIn(pool, w1);
    const s = await sale(tracked, 4, '50');
    const d = (await call('DeliverySave', { SaleId: s, WarehouseId: w1, Imeis: pool.slice(0, 3), DeliveredOn: '2026-11-21' })).body.Id;
    expect(await devicesOf(agentId, pool)).toEqual(pool.slice(0, 3));
    const over = await call('SalesReturnSave', { DeliveryId: d, Quantity: 4, ReturnedOn: '2026-11-23' });
    expect(over.body.Fields[0]).toMatchObject({ Field: 'Quantity', Message: 'erp.returnAboveDelivered', Params: { remaining: 3 } });
    const notOurs = await call('SalesReturnSave', { DeliveryId: d, Imeis: [pool[3]], ReturnedOn: '2026-11-23' });
    expect(notOurs.body.Fields[0]).toMatchObject({ Field: 'Imeis.0', Message: 'erp.imeiNotDelivered' });
    // A bound device stays with the customer until unbound: the return is refused naming it.
    await p.deps.database.db.execute(sql`UPDATE devices SET bound = true WHERE imei = ${pool[1]}`);
    const bound = await call('SalesReturnSave', { DeliveryId: d, Imeis: [pool[0], pool[1]], ReturnedOn: '2026-11-23' });
    expect(bound.status).toBe(409);
    expect(bound.body.Fields).toEqual([expect.objectContaining({ Field: 'Imeis.1', Message: 'inventory.voidBound' })]);
    await p.deps.database.db.execute(sql`UPDATE devices SET bound = false WHERE imei = ${pool[1]}`);
    const back = await call('SalesReturnSave', { DeliveryId: d, Imeis: [pool[0], pool[1]], ReturnedOn: '2026-11-23' });
    expect(back.body.State).toBe(200);
    expect(await devicesOf(agentId, pool)).toEqual([pool[2]]);
    expect(await inStock(w1)).toBeGreaterThanOrEqual(3);
    expect((await q<{ state: number }>(sql`SELECT state FROM inv_items WHERE imei = ${pool[0]}`))[0]!.state).toBe(1);
    // One more can be returned (by quantity), then none.
    expect((await call('SalesReturnSave', { DeliveryId: d, Quantity: 1, ReturnedOn: '2026-11-24' })).body.State).toBe(200);
    expect((await call('SalesReturnSave', { DeliveryId: d, Quantity: 1, ReturnedOn: '2026-11-24' })).body.Fields[0].Params).toEqual({ remaining: 0 });
    const docs = (await call('SaleDocuments', { Id: s })).body;
    expect(docs).toMatchObject({ Delivered: 3, Returned: 3, DeliveredValue: '0.00' });
    const list = (await call('ReturnList', { Direction: 1 })).body;
    expect(list.Items[0]).toMatchObject({ Direction: 1, DeliveryId: d, Quantity: 1, ItemName: 'Watch W-1', Imeis: [pool[2]] });
    // Returned items can be delivered again.
    expect((await call('DeliverySave', { SaleId: s, WarehouseId: w1, Imeis: [pool[0]], DeliveredOn: '2026-11-25' })).body.State).toBe(200);
    await ledgerAgrees();
  });

  it('delivers and returns a plain product on the ledger; purchase returns never above received', async () => {
    const line = await receive(plain, 10, w2);
    const s = await sale(plain, 8, '2.50');
    const d = await call('DeliverySave', { SaleId: s, WarehouseId: w2, Quantity: 6, DeliveredOn: '2026-11-21' });
    expect(d.body).toMatchObject({ State: 200, Quantity: 6, Imeis: [] });
    expect(await balance('product', plain, w2)).toBe(4);
    const wrongWarehouse = await call('DeliverySave', { SaleId: s, WarehouseId: w1, Quantity: 1, DeliveredOn: '2026-11-21' });
    expect(wrongWarehouse.body).toMatchObject({ State: 409, Message: 'erp.deliveryAboveStock' });
    const imeiOfPlain = await call('DeliverySave', { SaleId: s, WarehouseId: w2, Imeis: [imeis('1', 1)[0]], DeliveredOn: '2026-11-21' });
    expect(imeiOfPlain.body.Fields[0]).toMatchObject({ Field: 'Imeis', Message: 'erp.productNotTracked' });
    expect((await call('SalesReturnSave', { DeliveryId: d.body.Id, Quantity: 2, ReturnedOn: '2026-11-22' })).body.State).toBe(200);
    expect(await balance('product', plain, w2)).toBe(6);
    // Back to the supplier: at most what the line received into that warehouse.
    const far = await call('PurchaseReturnSave', { LineId: line, WarehouseId: w1, Quantity: 1, ReturnedOn: '2026-11-22' });
    expect(far.body.Fields[0]).toMatchObject({ Field: 'Quantity', Message: 'erp.returnAboveReceived', Params: { remaining: 0 } });
    expect((await call('PurchaseReturnSave', { LineId: line, WarehouseId: w2, Quantity: 5, ReturnedOn: '2026-11-22' })).body.State).toBe(200);
    // 10 received, 5 returned: 5 more could go back, but only 1 is still in stock.
    const past = await call('PurchaseReturnSave', { LineId: line, WarehouseId: w2, Quantity: 2, ReturnedOn: '2026-11-22' });
    expect(past.body).toMatchObject({ State: 409, Message: 'erp.returnAboveStock' });
    const more = await call('PurchaseReturnSave', { LineId: line, WarehouseId: w2, Quantity: 6, ReturnedOn: '2026-11-22' });
    expect(more.body.Fields[0].Params).toEqual({ remaining: 5 });
    expect(await balance('product', plain, w2)).toBe(1);
    expect((await call('ReturnList', { Direction: 2 })).body.Items[0]).toMatchObject({ Direction: 2, LineId: line, Quantity: 5, ItemName: 'Strap' });
    await ledgerAgrees();
  });

  it('invoices up to the delivered value and follows payments: unpaid, partly paid, paid, advance', async () => {
    await receive(plain, 5, w1);
    const s = await sale(plain, 4, '12.50');
    const first = await call('SaleInvoiceSave', { SaleId: s, Number: `INV-${kind}-0`, InvoiceDate: '2026-11-21', Amount: '1' });
    expect(first.body.Fields[0]).toMatchObject({ Field: 'Amount', Message: 'erp.invoiceAboveDelivered', Params: { delivered: '0.00', invoiced: '0.00' } });
    expect((await call('DeliverySave', { SaleId: s, WarehouseId: w1, Quantity: 2, DeliveredOn: '2026-11-21' })).body.State).toBe(200);
    expect((await call('SaleInvoiceSave', { SaleId: s, Number: `INV-${kind}-1`, InvoiceDate: '2026-11-21', Amount: '20' })).body.State).toBe(200);
    const above = await call('SaleInvoiceSave', { SaleId: s, Number: `INV-${kind}-2`, InvoiceDate: '2026-11-21', Amount: '5.01' });
    expect(above.body.Fields[0].Params).toEqual({ delivered: '25.00', invoiced: '20.00' });
    const dup = await call('SaleInvoiceSave', { SaleId: s, Number: `INV-${kind}-1`, InvoiceDate: '2026-11-21', Amount: '5' });
    expect(dup.body.Fields[0]).toMatchObject({ Field: 'Number', Message: 'erp.invoiceNoExists' });
    expect((await call('SalePaymentSave', { SaleId: s, PaidOn: '2026-11-22', Amount: '10' })).body.PayState).toBe(4);
    expect((await call('SalePaymentSave', { SaleId: s, PaidOn: '2026-11-23', Amount: '15' })).body.PayState).toBe(2);
    expect((await call('SalePaymentSave', { SaleId: s, PaidOn: '2026-11-24', Amount: '0.01' })).body.PayState).toBe(3);
    expect((await call('SalePaymentSave', { SaleId: s, PaidOn: '2026-11-24', Amount: '0' })).body.Fields[0]).toMatchObject({ Field: 'Amount' });
    const docs = (await call('SaleDocuments', { Id: s })).body;
    expect(docs).toMatchObject({ DeliveredValue: '25.00', Invoiced: '20.00', Paid: '25.01', PayState: 3 });
    expect(docs.Payments.map((x: { PaidOn: string; Amount: string }) => [x.PaidOn, x.Amount])).toEqual([
      ['2026-11-22', '10.00'],
      ['2026-11-23', '15.00'],
      ['2026-11-24', '0.01'],
    ]);
    expect(docs.Invoices).toEqual([expect.objectContaining({ Number: `INV-${kind}-1`, Amount: '20.00' })]);
  });

  it('counts a warehouse and posts the differences when confirmed; tracked stock is left to its items', async () => {
    const m = (await call('MaterialSave', { Name: 'Screw' })).body.Id;
    n += 1;
    const o = await call('PurchaseSave', { OrderNo: `PO-${n}`, PoNo: `CG-${n}`, Content: 'x', Purpose: 1, Amount: '1', Lines: [{ Kind: 1, ItemId: m, Quantity: 30, UnitPrice: '1' }] });
    await call('PurchaseBatchSave', { OrderId: o.body.Id, BatchDate: '2026-11-01', Quantity: 1, UnitPrice: '1', AmountPaid: '1' });
    await call('PurchaseAudit', { Id: o.body.Id });
    const lineId = (await call('PurchaseList', { Id: o.body.Id })).body.Items[0].Lines[0].Id;
    await call('ReceiptSave', { OrderId: o.body.Id, WarehouseId: w1, ReceivedOn: '2026-11-02', Lines: [{ LineId: lineId, Quantity: 30 }] });
    const before = await balance('product', plain, w1);
    const itemsBefore = await balance('item', model, w1);
    const t = (await call('StockTakeStart', { WarehouseId: w1 })).body.Id;
    const sheet = (await call('StockTakeList', {})).body.Items.find((x: { Id: number }) => x.Id === t);
    expect(sheet.Lines.map((l: { Kind: number; ItemName: string; Expected: number }) => [l.Kind, l.ItemName, l.Expected])).toEqual([
      [1, 'Screw', 30],
      [2, 'Strap', before],
    ]);
    const [screw, strap] = sheet.Lines as { Id: number }[];
    expect((await call('StockTakeCount', { Id: t, Lines: [{ Id: 999999, Counted: 1 }] })).body.Fields[0]).toMatchObject({ Field: 'Lines.0.Id', Message: 'erp.lineNotFound' });
    expect((await call('StockTakeCount', { Id: t, Lines: [{ Id: screw!.Id, Counted: 27 }, { Id: strap!.Id, Counted: before + 2 }] })).body.State).toBe(200);
    expect((await call('StockTakeConfirm', { Id: t })).body).toMatchObject({ State: 200, Adjusted: 2 });
    expect(await balance('material', m, w1)).toBe(27);
    expect(await balance('product', plain, w1)).toBe(before + 2);
    expect(await balance('item', model, w1)).toBe(itemsBefore);
    expect((await call('StockTakeConfirm', { Id: t })).body.Message).toBe('erp.stockTakeConfirmed');
    expect((await call('StockTakeCount', { Id: t, Lines: [{ Id: screw!.Id, Counted: 1 }] })).body.Message).toBe('erp.stockTakeConfirmed');
    const moves = await q<{ quantity: number }>(sql`SELECT quantity FROM stock_moves WHERE doc_type = 'erp_stocktake' AND doc_id = ${t} ORDER BY kind`);
    expect(moves.map((x) => Number(x.quantity))).toEqual([-3, 2]);
    await ledgerAgrees();
  });

  it('refuses another tenant everywhere', async () => {
    const s = await sale(plain, 1);
    const [d] = await q<{ id: number }>(sql`SELECT id FROM erp_deliveries ORDER BY id LIMIT 1`);
    const [t] = await q<{ id: number }>(sql`SELECT id FROM erp_stock_takes ORDER BY id LIMIT 1`);
    const [w] = await q<{ id: number }>(sql`SELECT id FROM inv_stores WHERE account_id = (SELECT id FROM accounts WHERE login_name = 'erp3') LIMIT 1`);
    const store = w?.id ?? w1;
    const dv = await call('DeliverySave', { SaleId: s, WarehouseId: store, Quantity: 1, DeliveredOn: '2026-11-21' }, theirs);
    expect(dv.body.Fields[0].Field).toMatch(/SaleId|WarehouseId/);
    expect((await call('SaleDocuments', { Id: s }, theirs)).body.Message).toBe('erp.saleNotFound');
    expect((await call('SaleInvoiceSave', { SaleId: s, Number: 'X', InvoiceDate: '2026-11-21', Amount: '1' }, theirs)).body.Fields[0]).toMatchObject({ Field: 'SaleId', Message: 'erp.saleNotFound' });
    expect((await call('SalePaymentSave', { SaleId: s, PaidOn: '2026-11-21', Amount: '1' }, theirs)).body.Fields[0]).toMatchObject({ Field: 'SaleId', Message: 'erp.saleNotFound' });
    expect((await call('SalesReturnSave', { DeliveryId: d!.id, Quantity: 1, ReturnedOn: '2026-11-21' }, theirs)).body.Fields[0]).toMatchObject({ Field: 'DeliveryId', Message: 'erp.deliveryNotFound' });
    expect((await call('StockTakeConfirm', { Id: t!.id }, theirs)).body.Message).toBe('erp.stockTakeNotFound');
    expect((await call('ReturnList', {}, theirs)).body.Total).toBe(0);
    expect((await call('StockTakeList', {}, theirs)).body.Total).toBe(0);
    expect((await call('ProductSave', { ModelName: 'Theirs', Colour: 1, InvModelId: model }, theirs)).body.Fields[0]).toMatchObject({ Field: 'InvModelId', Message: 'erp.invModelNotFound' });
  });

  it.runIf(kind === 'postgres')('20 concurrent deliveries of overlapping stock sell no IMEI twice and go below 0 nowhere', async () => {
    const pool = imeis('86300000', 30);
    await stockIn(pool, w2);
    const before = await inStock(w2);
    const sales = [];
    for (let i = 0; i < 20; i++) sales.push(await sale(tracked, 10, '1'));
    // Half name overlapping IMEIs (each 4 of the first 12), half take the oldest 3 by quantity.
    const asks = sales.map((s, i) =>
      i % 2 ? { SaleId: s, WarehouseId: w2, Imeis: pool.slice(i % 9, (i % 9) + 4), DeliveredOn: '2026-11-26' } : { SaleId: s, WarehouseId: w2, Quantity: 3, DeliveredOn: '2026-11-26' },
    );
    const all = await Promise.all(asks.map((a) => call('DeliverySave', a)));
    for (const r of all) expect([200, 409]).toContain(r.body.State);
    const ok = all.filter((r) => r.body.State === 200);
    const sold = ok.flatMap((r) => r.body.Imeis as string[]);
    expect(new Set(sold).size).toBe(sold.length);
    expect(ok.length).toBeGreaterThan(0);
    // Two asks name the same four IMEIs: one of them at least is refused, naming them.
    expect(all.some((r) => r.body.Message === 'inventory.saleImeisRefused')).toBe(true);
    expect(await inStock(w2)).toBe(before - sold.length);
    expect(await devicesOf(agentId, sold)).toEqual([...sold].sort());
    const twice = await q(sql`SELECT imei FROM inv_items WHERE imei LIKE '86300000%' AND state = 2 AND sale_id IS NULL`);
    expect(twice).toEqual([]);
    await ledgerAgrees();

    // A plain product: 25 in stock, 20 deliveries of 3 at once: exactly 8 go, 1 is left.
    await receive(plain, 25, w1);
    const start = await balance('product', plain, w1);
    const plainSales = [];
    for (let i = 0; i < 20; i++) plainSales.push(await sale(plain, 3, '1'));
    const runs = await Promise.all(plainSales.map((s) => call('DeliverySave', { SaleId: s, WarehouseId: w1, Quantity: 3, DeliveredOn: '2026-11-26' })));
    expect(runs.filter((r) => r.body.State === 200)).toHaveLength(Math.floor(start / 3));
    expect(runs.filter((r) => r.body.Message === 'erp.deliveryAboveStock')).toHaveLength(20 - Math.floor(start / 3));
    expect(await balance('product', plain, w1)).toBe(start % 3);
    await ledgerAgrees();
  });
});
