// Schemas of the ERP sales chain on the stock ledger (SPEC §3 ERP): deliveries against a sales record
// (partial, out of a warehouse; IMEI-tracked products name or pick their IMEIs, handed to the
// customer's account), invoices (never above the delivered value) and payments with the payment
// state, sales returns (never above delivered) and purchase returns (never above received), and
// stock-takes of a warehouse (expected from the ledger, counted, differences posted on confirming).
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { INT4_MAX, dateInput, id, int, requiredText, text } from './common.js';
import { money } from './erp.js';

const remark = text(500).optional().default('');
const quantity = int(1, 10_000_000, 'erp.quantityRequired');
const okId = ok({ Id: z.number() });
const okNothing = ok({});
const byId = z.object({ Id: id });
const imeis = z.array(text(15).regex(/^\d{15}$/, { error: 'validation.imeiInvalid' })).max(100_000, { error: 'validation.max' }).default([]);
const optionalQuantity = z.preprocess((v) => (v === '' || v === null ? undefined : v), quantity.optional());
const needsQuantity = (b: { Quantity?: number; Imeis: string[] }, ctx: z.RefinementCtx) => {
  if (!b.Imeis.length && !b.Quantity) ctx.addIssue({ code: 'custom', path: ['Quantity'], message: 'erp.quantityRequired' });
};

/** 1 unpaid, 2 paid, 3 advance (paid beyond the delivered value), 4 partly paid. */
export const PAY_STATES = { unpaid: 1, paid: 2, advance: 3, partly: 4 } as const;

export const deliverySave = z
  .object({
    SaleId: id,
    WarehouseId: int(1, INT4_MAX, 'inventory.storeRequired'),
    /** Without IMEIs: how many (an IMEI-tracked product's oldest items in the warehouse are picked). */
    Quantity: optionalQuantity,
    Imeis: imeis,
    DeliveredOn: dateInput,
    Remark: remark,
  })
  .superRefine(needsQuantity);
export const deliverySchema = z.object({
  Id: z.number(),
  WarehouseId: z.number(),
  WarehouseName: z.string(),
  Quantity: z.number(),
  Returned: z.number(),
  DeliveredOn: z.string(),
  SaleNo: z.string(),
  Imeis: z.array(z.string()),
  Remark: z.string(),
  Created: z.string(),
});
export const saleInvoiceSave = z.object({ SaleId: id, Number: requiredText('erp.invoiceNoRequired', 64), InvoiceDate: dateInput, Amount: money('erp.amountRequired') });
export const salePaymentSave = z.object({ SaleId: id, PaidOn: dateInput, Amount: money('erp.amountRequired'), Remark: remark });
export const saleDocuments = z.object({
  SaleId: z.number(),
  /** IMEI-tracked (its stock is an inventory model's items). */
  Tracked: z.boolean(),
  Ordered: z.number(),
  Delivered: z.number(),
  Returned: z.number(),
  DeliveredValue: z.string(),
  Invoiced: z.string(),
  Paid: z.string(),
  PayState: z.number(),
  Deliveries: z.array(deliverySchema),
  Invoices: z.array(z.object({ Id: z.number(), Number: z.string(), InvoiceDate: z.string(), Amount: z.string() })),
  Payments: z.array(z.object({ Id: z.number(), PaidOn: z.string(), Amount: z.string(), Remark: z.string() })),
});
export const salesReturnSave = z
  .object({ DeliveryId: id, Quantity: optionalQuantity, Imeis: imeis, ReturnedOn: dateInput, Remark: remark })
  .superRefine(needsQuantity);
export const purchaseReturnSave = z.object({ LineId: int(1, INT4_MAX, 'erp.lineRequired'), WarehouseId: int(1, INT4_MAX, 'inventory.storeRequired'), Quantity: quantity, ReturnedOn: dateInput, Remark: remark });
export const returnList = z.object({ ...pageRequest, Direction: z.preprocess((v) => (v === '' || v === null ? undefined : v), int(1, 2).optional()) });
export const returnSchema = z.object({
  Id: z.number(),
  /** 1 sales return, 2 purchase return. */
  Direction: z.number(),
  DeliveryId: z.number().nullable(),
  LineId: z.number().nullable(),
  ItemName: z.string(),
  WarehouseName: z.string(),
  Quantity: z.number(),
  Imeis: z.array(z.string()),
  ReturnedOn: z.string(),
  Remark: z.string(),
  Created: z.string(),
});
export const stockTakeStart = z.object({ WarehouseId: int(1, INT4_MAX, 'inventory.storeRequired'), Remark: remark });
export const stockTakeSchema = z.object({
  Id: z.number(),
  WarehouseId: z.number(),
  WarehouseName: z.string(),
  /** 1 counting, 2 confirmed. */
  State: z.number(),
  Lines: z.array(z.object({ Id: z.number(), Kind: z.number(), ItemId: z.number(), ItemName: z.string(), Expected: z.number(), Counted: z.number().nullable() })),
  Remark: z.string(),
  ConfirmedAt: z.string().nullable(),
  Created: z.string(),
});
export const stockTakeCount = z.object({
  Id: id,
  Lines: z
    .array(z.object({ Id: id, Counted: z.preprocess((v) => (v === '' ? null : v), int(0, 10_000_000, 'erp.countedRequired').nullable()) }))
    .min(1, { error: 'erp.countLinesRequired' })
    .max(5000, { error: 'validation.max' }),
});

export const erpSalesSchemas = {
  '/Erp/DeliverySave': { request: deliverySave, response: ok({ Id: z.number(), Quantity: z.number(), Imeis: z.array(z.string()) }) },
  '/Erp/SaleDocuments': { request: byId, response: ok(saleDocuments.shape) },
  '/Erp/SaleInvoiceSave': { request: saleInvoiceSave, response: okId },
  '/Erp/SalePaymentSave': { request: salePaymentSave, response: ok({ Id: z.number(), PayState: z.number() }) },
  '/Erp/SalesReturnSave': { request: salesReturnSave, response: okId },
  '/Erp/PurchaseReturnSave': { request: purchaseReturnSave, response: okId },
  '/Erp/ReturnList': { request: returnList, response: pageOf(returnSchema) },
  '/Erp/StockTakeList': { request: z.object({ ...pageRequest }), response: pageOf(stockTakeSchema) },
  '/Erp/StockTakeStart': { request: stockTakeStart, response: okId },
  '/Erp/StockTakeCount': { request: stockTakeCount, response: okNothing },
  '/Erp/StockTakeConfirm': { request: byId, response: ok({ Adjusted: z.number() }) },
} as const;
