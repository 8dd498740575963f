// Schemas of the ERP (SPEC §3 ERP, §4 Purchase batch and Sales record, §5 ERP rules): materials and
// products with their inbound/outbound records (kept in the stock ledger), purchase orders with
// batches, audit and invoices, and sales records with shipment.
//
// Money: amounts travel as decimal strings of yuan with at most two decimals ("1280.50"), and are
// kept as integer cents; never floating point. Answers give them in the same form.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { INT4_MAX, dateInput, id, int, optionalDate, optionalId, requiredText, text } from './common.js';

/** Largest amount accepted: 9 999 999 999.99 yuan. */
export const MONEY_MAX_CENTS = 999_999_999_999;
const MONEY = /^\d{1,10}(\.\d{1,2})?$/;

/**
 * An amount: the decimal text "12", "12.5" or "12.50". A JSON number is refused: a binary float
 * cannot carry every amount exactly (money is exact end to end).
 */
export const money = (requiredKey = 'validation.required') =>
  z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() : v),
    z.string({ error: (iss) => (iss.input === undefined || iss.input === null ? requiredKey : 'erp.moneyInvalid') }).min(1, { error: requiredKey }).regex(MONEY, { error: 'erp.moneyInvalid' }),
  );

/** Cents of a checked amount string. */
export function toCents(s: string): number {
  const [whole, frac = ''] = s.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}
/** The amount string of cents ("1280.50"). */
export function fromCents(c: number | string | bigint): string {
  const n = BigInt(c);
  const neg = n < 0n;
  const a = neg ? -n : n;
  return `${neg ? '-' : ''}${a / 100n}.${String(a % 100n).padStart(2, '0')}`;
}

export const COLOURS = { black: 1, white: 2, yellow: 3 } as const;
export const PURPOSES = { production: 1, daily: 2, outsourced: 3 } as const;
export const PAY_METHODS = { wechat: 1, alipay: 2 } as const;
export const PAY_TYPES = { unpaid: 1, paid: 2, advance: 3 } as const;
export const SHIP_STATES = { toShip: 1, unshipped: 2, shipped: 3 } as const;

const remark = text(500).optional().default('');
const quantity = int(1, 10_000_000, 'erp.quantityRequired');
const byId = z.object({ Id: id });
const list = z.object({ ...pageRequest, Keyword: text(64).optional() });
const okId = ok({ Id: z.number() });
const okNothing = ok({});

// ---- materials and products ----------------------------------------------------------------------

export const materialSchema = z.object({ Id: z.number(), Name: z.string(), Supplier: z.string(), Remark: z.string(), Stock: z.number(), Created: z.string() });
export const materialSave = z.object({ Id: optionalId, Name: requiredText('erp.nameRequired', 64), Supplier: text(100).optional().default(''), Remark: remark });
/** `InvModelId`: the inventory model whose IMEIs the product is (its stock is that model's items in stock). */
export const productSchema = z.object({ Id: z.number(), ModelName: z.string(), Colour: z.number(), InvModelId: z.number().nullable(), Remark: z.string(), Stock: z.number(), Created: z.string() });
export const productSave = z.object({
  Id: optionalId,
  ModelName: requiredText('erp.modelNameRequired', 64),
  Colour: int(1, 3, 'erp.colourRequired'),
  InvModelId: z.preprocess((v) => (v === '' ? null : v), id.nullable().optional()),
  Remark: remark,
});

/** Kind of stock thing: 1 material, 2 product. */
export const stockRecordSchema = z.object({
  Id: z.number(),
  Kind: z.number(),
  ItemId: z.number(),
  ItemName: z.string(),
  /** Signed: positive inbound, negative outbound. */
  Quantity: z.number(),
  /** The stock after this record. */
  Balance: z.number(),
  RecordDate: z.string(),
  Remark: z.string(),
  Created: z.string(),
});
export const stockRecordList = z.object({ ...pageRequest, Kind: int(1, 2), ItemId: optionalId, Direction: z.preprocess((v) => (v === '' || v === null ? undefined : v), int(1, 2).optional()) });
export const stockRecordInsert = z.object({
  Kind: int(1, 2),
  ItemId: int(1, INT4_MAX, 'erp.itemRequired'),
  /** 1 inbound, 2 outbound. */
  Direction: int(1, 2, 'erp.directionRequired'),
  Quantity: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    z
      .number({ error: 'erp.quantityRequired' })
      .int({ error: 'validation.integer' })
      .refine((n) => n !== 0, { error: 'erp.quantityZero', abort: true })
      .min(1, { error: 'validation.min' })
      .max(10_000_000, { error: 'validation.max' }),
  ),
  RecordDate: dateInput,
  Remark: remark,
});

// ---- suppliers and customers (master data) --------------------------------------------------------

const party = {
  Id: optionalId,
  Name: requiredText('erp.nameRequired', 100),
  Contact: text(64).optional().default(''),
  Phone: text(32).optional().default(''),
  Address: text(200).optional().default(''),
  TaxNo: text(32).regex(/^[0-9A-Za-z]*$/, { error: 'erp.taxNoInvalid' }).optional().default(''),
  /** Payment terms: days from invoice to payment (0 cash). */
  PaymentDays: int(0, 365).default(0),
  Remark: remark,
};
const partySchema = {
  Id: z.number(),
  Name: z.string(),
  Contact: z.string(),
  Phone: z.string(),
  Address: z.string(),
  TaxNo: z.string(),
  PaymentDays: z.number(),
  Remark: z.string(),
  Created: z.string(),
};
export const supplierSave = z.object(party);
export const supplierSchema = z.object(partySchema);
export const customerSave = z.object({ ...party, PlatformAccountId: z.preprocess((v) => (v === '' ? null : v), id.nullable().optional()) });
export const customerSchema = z.object({ ...partySchema, PlatformAccountId: z.number().nullable(), PlatformAccountName: z.string() });

// ---- purchasing ----------------------------------------------------------------------------------

export const purchaseBatchSchema = z.object({ Id: z.number(), BatchDate: z.string(), Quantity: z.number(), UnitPrice: z.string(), AmountPaid: z.string(), Created: z.string() });
export const invoiceSchema = z.object({ Id: z.number(), OrderId: z.number(), Company: z.string(), InvoiceDate: z.string(), Amount: z.string(), Number: z.string() });
/** A line of an order with what was received against it so far. */
export const purchaseLineSchema = z.object({ Id: z.number(), Kind: z.number(), ItemId: z.number(), ItemName: z.string(), Quantity: z.number(), UnitPrice: z.string(), Received: z.number() });
export const purchaseSchema = z.object({
  Id: z.number(),
  OrderNo: z.string(),
  PoNo: z.string(),
  Content: z.string(),
  Purpose: z.number(),
  Amount: z.string(),
  /** 1 unaudited, 2 audited. */
  Audit: z.number(),
  AuditedAt: z.string().nullable(),
  Paid: z.string(),
  Invoiced: z.string(),
  Batches: z.array(purchaseBatchSchema),
  Invoices: z.array(invoiceSchema),
  SupplierId: z.number().nullable(),
  SupplierName: z.string(),
  Lines: z.array(purchaseLineSchema),
  Created: z.string(),
});
export const purchaseList = z.object({ ...pageRequest, Id: optionalId, Keyword: text(64).optional(), Audit: z.preprocess((v) => (v === '' || v === null ? undefined : v), int(1, 2).optional()) });
export const purchaseSave = z.object({
  Id: optionalId,
  OrderNo: requiredText('erp.orderNoRequired', 64),
  PoNo: requiredText('erp.poNoRequired', 64),
  Content: requiredText('erp.contentRequired', 500),
  Purpose: int(1, 3, 'erp.purposeRequired'),
  Amount: money('erp.amountRequired'),
  SupplierId: z.preprocess((v) => (v === '' ? null : v), id.nullable().optional()),
  /** The order's lines; left out, they stay as they are (an audited order's lines never change). */
  Lines: z
    .array(z.object({ Kind: int(1, 2, 'erp.kindRequired'), ItemId: int(1, INT4_MAX, 'erp.itemRequired'), Quantity: quantity, UnitPrice: money('erp.unitPriceRequired') }))
    .max(200, { error: 'validation.max' })
    .optional(),
});
export const purchaseBatchSave = z.object({
  OrderId: id,
  Id: optionalId,
  BatchDate: dateInput,
  Quantity: quantity,
  UnitPrice: money('erp.unitPriceRequired'),
  AmountPaid: money('erp.amountPaidRequired'),
  /** Given after the user confirmed a batch repeating another's unit price and quantity (SPEC §5). */
  Confirm: z.boolean().default(false),
});
export const invoiceSave = z.object({
  OrderId: id,
  Id: optionalId,
  Company: requiredText('erp.companyRequired', 100),
  InvoiceDate: dateInput,
  Amount: money('erp.amountRequired'),
  Number: requiredText('erp.invoiceNoRequired', 64),
});
/** A goods receipt against an audited order into a warehouse (partial receipts allowed, never above a line's quantity). */
export const receiptSave = z.object({
  OrderId: id,
  WarehouseId: int(1, INT4_MAX, 'inventory.storeRequired'),
  ReceivedOn: dateInput,
  Remark: remark,
  Lines: z
    .array(z.object({ LineId: int(1, INT4_MAX, 'erp.lineRequired'), Quantity: quantity }))
    .min(1, { error: 'erp.receiptLinesRequired' })
    .max(200, { error: 'validation.max' }),
});

// ---- warehouses: transfers and stock at a date ------------------------------------------------------

export const transferSave = z
  .object({
    Kind: int(1, 2, 'erp.kindRequired'),
    ItemId: int(1, INT4_MAX, 'erp.itemRequired'),
    FromWarehouseId: int(1, INT4_MAX, 'inventory.storeRequired'),
    ToWarehouseId: int(1, INT4_MAX, 'inventory.storeRequired'),
    Quantity: quantity,
    Remark: remark,
  })
  .superRefine((b, ctx) => {
    if (b.FromWarehouseId === b.ToWarehouseId) ctx.addIssue({ code: 'custom', path: ['ToWarehouseId'], message: 'erp.transferSameWarehouse' });
  });
export const stockAtRequest = z.object({
  Kind: int(1, 2, 'erp.kindRequired'),
  WarehouseId: z.preprocess((v) => (v === '' || v === null ? undefined : v), optionalId),
  /** The day in the viewer's zone: stock at its end. */
  Date: dateInput,
});
export const stockAtRow = z.object({ ItemId: z.number(), ItemName: z.string(), WarehouseId: z.number(), WarehouseName: z.string(), Quantity: z.number() });

// ---- sales records --------------------------------------------------------------------------------

export const saleDeviceSchema = z.object({ Imei: z.string(), Iccid: z.string(), ExpiresAt: z.string().nullable() });
export const erpSaleSchema = z.object({
  Id: z.number(),
  SalesNo: z.string(),
  CustomerCompany: z.string(),
  CustomerId: z.number().nullable(),
  ProductId: z.number(),
  ProductName: z.string(),
  Quantity: z.number(),
  UnitPrice: z.string(),
  Receivable: z.string(),
  Actual: z.string(),
  PayMethod: z.number(),
  PayType: z.number(),
  /** 1 to be invoiced, 2 not. */
  Invoicing: z.number(),
  ShipDate: z.string().nullable(),
  Salesperson: z.string(),
  SoldAt: z.string(),
  Version: z.string(),
  Discarded: z.boolean(),
  ShipState: z.number(),
  TrackingNo: z.string(),
  WarehouseId: z.number().nullable(),
  WarehouseName: z.string(),
  Recipient: z.string(),
  Phone: z.string(),
  Address: z.string(),
  OutboundNo: z.string(),
  Devices: z.array(saleDeviceSchema),
  Created: z.string(),
});
export const erpSaleList = z.object({
  ...pageRequest,
  Keyword: text(64).optional(),
  ShipState: z.preprocess((v) => (v === '' || v === null ? undefined : v), int(1, 3).optional()),
  Discarded: z.preprocess((v) => (v === '' || v === null ? undefined : v), int(1, 2).optional()),
});
const saleDevice = z.object({
  Imei: text(15).regex(/^\d{15}$/, { error: 'validation.imeiInvalid' }),
  Iccid: text(32).regex(/^[0-9A-Za-z]*$/, { error: 'device.iccidInvalid' }).optional().default(''),
  ExpiresAt: optionalDate,
});
export const erpSaleSave = z.object({
  Id: optionalId,
  SalesNo: requiredText('erp.salesNoRequired', 64),
  CustomerId: z.preprocess((v) => (v === '' ? null : v), id.nullable().optional()),
  CustomerCompany: requiredText('erp.companyRequired', 100),
  ProductId: int(1, INT4_MAX, 'erp.productRequired'),
  Quantity: quantity,
  UnitPrice: money('erp.unitPriceRequired'),
  Receivable: money('erp.receivableRequired'),
  Actual: money('erp.actualRequired'),
  PayMethod: int(1, 2, 'erp.payMethodRequired'),
  PayType: int(1, 3, 'erp.payTypeRequired'),
  Invoicing: int(1, 2).default(2),
  Salesperson: text(64).optional().default(''),
  SoldAt: dateInput,
  Version: text(64).optional().default(''),
  Devices: z.array(saleDevice).max(10_000).default([]),
});
export const erpSaleShip = z.object({
  Id: id,
  /** 3 shipped (writes the outbound order and takes the products out of stock) or 2 unshipped. */
  ShipState: int(2, 3).default(3),
  TrackingNo: text(64).optional().default(''),
  WarehouseId: optionalId,
  Recipient: text(64).optional().default(''),
  Phone: text(32).optional().default(''),
  Address: text(200).optional().default(''),
  ShipDate: optionalDate,
}).superRefine((b, ctx) => {
  if (b.ShipState !== 3) return;
  if (!b.TrackingNo) ctx.addIssue({ code: 'custom', path: ['TrackingNo'], message: 'erp.trackingRequired' });
  if (!b.WarehouseId) ctx.addIssue({ code: 'custom', path: ['WarehouseId'], message: 'inventory.storeRequired' });
  if (!b.Recipient) ctx.addIssue({ code: 'custom', path: ['Recipient'], message: 'erp.recipientRequired' });
  if (!b.Phone) ctx.addIssue({ code: 'custom', path: ['Phone'], message: 'erp.phoneRequired' });
  if (!b.Address) ctx.addIssue({ code: 'custom', path: ['Address'], message: 'erp.addressRequired' });
});

export const erpSchemas_ = {
  '/Erp/MaterialList': { request: list, response: pageOf(materialSchema) },
  '/Erp/MaterialSave': { request: materialSave, response: okId },
  '/Erp/MaterialDelete': { request: byId, response: okNothing },
  '/Erp/ProductList': { request: list, response: pageOf(productSchema) },
  '/Erp/ProductSave': { request: productSave, response: okId },
  '/Erp/ProductDelete': { request: byId, response: okNothing },
  '/Erp/StockRecordList': { request: stockRecordList, response: pageOf(stockRecordSchema) },
  '/Erp/StockRecordInsert': { request: stockRecordInsert, response: ok({ Id: z.number(), Balance: z.number() }) },
  '/Erp/PurchaseList': { request: purchaseList, response: pageOf(purchaseSchema) },
  '/Erp/PurchaseSave': { request: purchaseSave, response: okId },
  '/Erp/PurchaseDelete': { request: byId, response: okNothing },
  '/Erp/PurchaseBatchSave': { request: purchaseBatchSave, response: okId },
  '/Erp/PurchaseBatchDelete': { request: byId, response: okNothing },
  '/Erp/PurchaseAudit': { request: byId, response: okNothing },
  '/Erp/InvoiceSave': { request: invoiceSave, response: okId },
  '/Erp/InvoiceDelete': { request: byId, response: okNothing },
  '/Erp/SaleList': { request: erpSaleList, response: pageOf(erpSaleSchema) },
  '/Erp/SaleSave': { request: erpSaleSave, response: okId },
  '/Erp/SaleDiscard': { request: byId, response: okNothing },
  '/Erp/SaleShip': { request: erpSaleShip, response: ok({ OutboundNo: z.string() }) },
  '/Erp/SupplierList': { request: list, response: pageOf(supplierSchema) },
  '/Erp/SupplierSave': { request: supplierSave, response: okId },
  '/Erp/SupplierDelete': { request: byId, response: okNothing },
  '/Erp/CustomerList': { request: list, response: pageOf(customerSchema) },
  '/Erp/CustomerSave': { request: customerSave, response: okId },
  '/Erp/CustomerDelete': { request: byId, response: okNothing },
  '/Erp/ReceiptSave': { request: receiptSave, response: okId },
  '/Erp/TransferSave': { request: transferSave, response: okId },
  '/Erp/StockAt': { request: stockAtRequest, response: ok({ Items: z.array(stockAtRow) }) },
} as const;

// ---- reports --------------------------------------------------------------------------------------

/** Stock items in stock per model, version and store. */
export const stockReportRow = z.object({ ModelId: z.number(), ModelName: z.string(), VersionName: z.string(), StoreName: z.string(), InStock: z.number(), Sold: z.number() });
/** Per month (YYYY-MM): purchasing (batches' quantity and payments) and sales (records' quantity, receivable, actual; inventory devices sold). */
export const monthlyReportRow = z.object({
  Month: z.string(),
  PurchaseQuantity: z.number(),
  PurchasePaid: z.string(),
  SalesQuantity: z.number(),
  SalesReceivable: z.string(),
  SalesActual: z.string(),
  DevicesSold: z.number(),
});
/** Per customer company: sold (receivable), paid (actual) and outstanding, of the records not discarded. */
export const receivableReportRow = z.object({ Customer: z.string(), Records: z.number(), Sold: z.string(), Paid: z.string(), Outstanding: z.string() });
export const REPORTS = ['stock', 'monthly', 'receivables'] as const;
export const reportRequest = z.object({
  Report: z.enum(REPORTS, { error: 'erp.reportInvalid' }),
  /** Monthly report: the year (default: this year). */
  Year: z.preprocess((v) => (v === '' || v === null ? undefined : v), int(2000, 2100).optional()),
});
export const reportResponse = ok({
  Stock: z.array(stockReportRow).optional(),
  Monthly: z.array(monthlyReportRow).optional(),
  Receivables: z.array(receivableReportRow).optional(),
});
export const reportSchemas = {
  '/Erp/Report': { request: reportRequest, response: reportResponse },
  '/Erp/ReportExport': { request: reportRequest, response: z.unknown().describe('the .xlsx file') },
} as const;

// ---- ledger documents: receipts and transfers listed, ERP lists as spreadsheets ---------------------

const optionalFilterId = z.preprocess((v) => (v === '' || v === null || v === 0 ? undefined : v), optionalId);
/** One goods receipt with its lines (item, quantity) and totals. */
export const receiptSchema = z.object({
  Id: z.number(),
  OrderId: z.number(),
  OrderNo: z.string(),
  SupplierId: z.number().nullable(),
  SupplierName: z.string(),
  WarehouseId: z.number(),
  WarehouseName: z.string(),
  ReceivedOn: z.string(),
  Quantity: z.number(),
  Lines: z.array(z.object({ LineId: z.number(), Kind: z.number(), ItemId: z.number(), ItemName: z.string(), Quantity: z.number() })),
  Remark: z.string(),
  Created: z.string(),
});
/** Receipts newest first; the dates are the receipt days (calendar days, both ends included). */
export const receiptList = z.object({
  ...pageRequest,
  OrderId: optionalFilterId,
  SupplierId: optionalFilterId,
  WarehouseId: optionalFilterId,
  From: optionalDate,
  To: optionalDate,
});
export const transferSchema = z.object({
  Id: z.number(),
  Kind: z.number(),
  ItemId: z.number(),
  ItemName: z.string(),
  FromWarehouseId: z.number(),
  FromWarehouseName: z.string(),
  ToWarehouseId: z.number(),
  ToWarehouseName: z.string(),
  Quantity: z.number(),
  Remark: z.string(),
  Created: z.string(),
});
/** Transfers newest first; a warehouse filter matches either end. */
export const transferList = z.object({
  ...pageRequest,
  Kind: z.preprocess((v) => (v === '' || v === null ? undefined : v), int(1, 2).optional()),
  ItemId: optionalFilterId,
  WarehouseId: optionalFilterId,
});
export const ERP_EXPORTS = ['suppliers', 'customers', 'purchases', 'receipts', 'transfers', 'stockAt'] as const;
/** An ERP list as a spreadsheet: the list's name and the same filters as its call. */
export const listExport = z.object({ List: z.enum(ERP_EXPORTS, { error: 'erp.exportInvalid' }), Filter: z.record(z.string(), z.unknown()).optional().default({}) });
export const ledgerSchemas = {
  '/Erp/ReceiptList': { request: receiptList, response: pageOf(receiptSchema) },
  '/Erp/TransferList': { request: transferList, response: pageOf(transferSchema) },
  '/Erp/ListExport': { request: listExport, response: z.unknown().describe('the .xlsx file') },
} as const;

export const erpSchemas = { ...erpSchemas_, ...reportSchemas, ...ledgerSchemas } as const;
