// The ERP (SPEC §3 ERP): materials and products (their stock in the stock ledger, kinds 'material'
// and 'product'), their inbound/outbound records, purchase orders with batches and invoices, and
// sales records with their devices and shipment. Money is integer cents (bigint), never floating point.
import { sql } from 'drizzle-orm';
import { bigint, boolean, date, index, integer, pgTable, serial, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const created = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const cents = (name: string) => bigint(name, { mode: 'number' }).notNull().default(0);

export const erpMaterials = pgTable(
  'erp_materials',
  { id: serial('id').primaryKey(), accountId: integer('account_id').notNull(), name: text('name').notNull(), supplier: text('supplier').notNull().default(''), remark: text('remark').notNull().default(''), createdAt: created() },
  (t) => [uniqueIndex('erp_materials_name_uq').on(t.accountId, t.name)],
);

export const erpProducts = pgTable(
  'erp_products',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    modelName: text('model_name').notNull(),
    /** 1 black, 2 white, 3 yellow. */
    colour: smallint('colour').notNull(),
    /** The inventory model (inv_models) whose IMEIs this product is: its stock is that model's items. */
    invModelId: integer('inv_model_id'),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [uniqueIndex('erp_products_model_uq').on(t.accountId, t.modelName)],
);

/** Inbound (positive) and outbound (negative) records of materials (kind 1) and products (kind 2). */
export const erpStockRecords = pgTable(
  'erp_stock_records',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    kind: smallint('kind').notNull(),
    itemId: integer('item_id').notNull(),
    quantity: integer('quantity').notNull(),
    balance: integer('balance').notNull(),
    recordDate: date('record_date', { mode: 'string' }).notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [index('erp_stock_records_item_idx').on(t.accountId, t.kind, t.itemId, t.id)],
);

/** Suppliers (SPEC §3 ERP master data): purchase orders name one. */
export const erpSuppliers = pgTable(
  'erp_suppliers',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    name: text('name').notNull(),
    contact: text('contact').notNull().default(''),
    phone: text('phone').notNull().default(''),
    address: text('address').notNull().default(''),
    taxNo: text('tax_no').notNull().default(''),
    /** Days from invoice to payment (0: cash). */
    paymentDays: integer('payment_days').notNull().default(0),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [uniqueIndex('erp_suppliers_name_uq').on(t.accountId, t.name)],
);

/** Customers (SPEC §3 ERP master data), optionally the platform account they use; sales records name one. */
export const erpCustomers = pgTable(
  'erp_customers',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    name: text('name').notNull(),
    contact: text('contact').notNull().default(''),
    phone: text('phone').notNull().default(''),
    address: text('address').notNull().default(''),
    taxNo: text('tax_no').notNull().default(''),
    paymentDays: integer('payment_days').notNull().default(0),
    /** The customer's platform account (in the keeper's subtree), if it has one. */
    platformAccountId: integer('platform_account_id'),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [uniqueIndex('erp_customers_name_uq').on(t.accountId, t.name)],
);

export const erpPurchases = pgTable(
  'erp_purchases',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    orderNo: text('order_no').notNull(),
    poNo: text('po_no').notNull(),
    content: text('content').notNull(),
    /** 1 production materials, 2 daily work, 3 outsourced products. */
    purpose: smallint('purpose').notNull(),
    amountCents: cents('amount_cents'),
    /** 1 unaudited, 2 audited. */
    audit: smallint('audit').notNull().default(1),
    auditedAt: timestamp('audited_at', { withTimezone: true }),
    supplierId: integer('supplier_id'),
    createdAt: created(),
  },
  (t) => [index('erp_purchases_supplier_idx').on(t.supplierId), uniqueIndex('erp_purchases_order_uq').on(t.accountId, t.orderNo), uniqueIndex('erp_purchases_po_uq').on(t.accountId, t.poNo)],
);

export const erpPurchaseBatches = pgTable(
  'erp_purchase_batches',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').notNull(),
    batchDate: date('batch_date', { mode: 'string' }).notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: cents('unit_price_cents'),
    paidCents: cents('paid_cents'),
    createdAt: created(),
  },
  (t) => [index('erp_purchase_batches_order_idx').on(t.orderId)],
);

export const erpInvoices = pgTable(
  'erp_invoices',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    orderId: integer('order_id').notNull(),
    company: text('company').notNull(),
    invoiceDate: date('invoice_date', { mode: 'string' }).notNull(),
    amountCents: cents('amount_cents'),
    number: text('number').notNull(),
    createdAt: created(),
  },
  (t) => [index('erp_invoices_order_idx').on(t.orderId), uniqueIndex('erp_invoices_number_uq').on(t.accountId, t.number)],
);

export const erpSales = pgTable(
  'erp_sales',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    salesNo: text('sales_no').notNull(),
    customerCompany: text('customer_company').notNull(),
    customerId: integer('customer_id'),
    productId: integer('product_id').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: cents('unit_price_cents'),
    receivableCents: cents('receivable_cents'),
    actualCents: cents('actual_cents'),
    /** 1 WeChat, 2 Alipay. */
    payMethod: smallint('pay_method').notNull(),
    /** 1 unpaid, 2 paid, 3 advance. */
    payType: smallint('pay_type').notNull(),
    /** 1 to be invoiced, 2 not. */
    invoicing: smallint('invoicing').notNull().default(2),
    shipDate: date('ship_date', { mode: 'string' }),
    salesperson: text('salesperson').notNull().default(''),
    soldAt: timestamp('sold_at', { withTimezone: true }).notNull(),
    version: text('version').notNull().default(''),
    discarded: boolean('discarded').notNull().default(false),
    /** 1 to ship, 2 unshipped, 3 shipped. */
    shipState: smallint('ship_state').notNull().default(1),
    trackingNo: text('tracking_no').notNull().default(''),
    warehouseId: integer('warehouse_id'),
    recipient: text('recipient').notNull().default(''),
    phone: text('phone').notNull().default(''),
    address: text('address').notNull().default(''),
    outboundNo: text('outbound_no').notNull().default(''),
    createdAt: created(),
  },
  (t) => [index('erp_sales_customer_idx').on(t.customerId), uniqueIndex('erp_sales_no_uq').on(t.accountId, t.salesNo), index('erp_sales_account_idx').on(t.accountId, t.id)],
);

export const erpSaleDevices = pgTable(
  'erp_sale_devices',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    saleId: integer('sale_id').notNull(),
    imei: text('imei').notNull(),
    iccid: text('iccid').notNull().default(''),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('erp_sale_devices_imei_uq').on(t.accountId, t.imei), index('erp_sale_devices_sale_idx').on(t.saleId)],
);

/** Lines of a purchase order: a material (kind 1) or product (kind 2), its quantity and unit price. */
export const erpPurchaseLines = pgTable(
  'erp_purchase_lines',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id').notNull(),
    kind: smallint('kind').notNull(),
    itemId: integer('item_id').notNull(),
    quantity: integer('quantity').notNull(),
    unitPriceCents: cents('unit_price_cents'),
  },
  (t) => [index('erp_purchase_lines_order_idx').on(t.orderId), index('erp_purchase_lines_item_idx').on(t.kind, t.itemId)],
);

/** A goods receipt against an audited order into a warehouse; its lines post to the stock ledger (doc 'erp_receipt'). */
export const erpReceipts = pgTable(
  'erp_receipts',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    orderId: integer('order_id').notNull(),
    warehouseId: integer('warehouse_id').notNull(),
    receivedOn: date('received_on', { mode: 'string' }).notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [index('erp_receipts_order_idx').on(t.orderId), index('erp_receipts_warehouse_idx').on(t.warehouseId)],
);

export const erpReceiptLines = pgTable(
  'erp_receipt_lines',
  { id: serial('id').primaryKey(), receiptId: integer('receipt_id').notNull(), lineId: integer('line_id').notNull(), quantity: integer('quantity').notNull() },
  (t) => [index('erp_receipt_lines_receipt_idx').on(t.receiptId), index('erp_receipt_lines_line_idx').on(t.lineId)],
);

/** A transfer of a material or product between two warehouses (doc 'erp_transfer': one move out, one in). */
export const erpTransfers = pgTable(
  'erp_transfers',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    kind: smallint('kind').notNull(),
    itemId: integer('item_id').notNull(),
    fromWarehouseId: integer('from_warehouse_id').notNull(),
    toWarehouseId: integer('to_warehouse_id').notNull(),
    quantity: integer('quantity').notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [index('erp_transfers_account_idx').on(t.accountId, t.id), index('erp_transfers_from_idx').on(t.fromWarehouseId), index('erp_transfers_to_idx').on(t.toWarehouseId)],
);

/**
 * A delivery against a sales record: a quantity out of one warehouse (doc 'erp_delivery'). For an
 * IMEI-tracked product the devices are handed over by an inventory sale (`inv_sale_id`, its items).
 */
export const erpDeliveries = pgTable(
  'erp_deliveries',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    saleId: integer('sale_id').notNull(),
    warehouseId: integer('warehouse_id').notNull(),
    quantity: integer('quantity').notNull(),
    deliveredOn: date('delivered_on', { mode: 'string' }).notNull(),
    invSaleId: integer('inv_sale_id'),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [index('erp_deliveries_sale_idx').on(t.saleId), index('erp_deliveries_inv_sale_idx').on(t.invSaleId)],
);

/** Invoices issued to the customer of a sales record (never above the delivered value). */
export const erpSaleInvoices = pgTable(
  'erp_sale_invoices',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    saleId: integer('sale_id').notNull(),
    number: text('number').notNull(),
    invoiceDate: date('invoice_date', { mode: 'string' }).notNull(),
    amountCents: cents('amount_cents'),
    createdAt: created(),
  },
  (t) => [index('erp_sale_invoices_sale_idx').on(t.saleId), uniqueIndex('erp_sale_invoices_number_uq').on(t.accountId, t.number)],
);

/** Payments received for a sales record. */
export const erpSalePayments = pgTable(
  'erp_sale_payments',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    saleId: integer('sale_id').notNull(),
    paidOn: date('paid_on', { mode: 'string' }).notNull(),
    amountCents: cents('amount_cents'),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [index('erp_sale_payments_sale_idx').on(t.saleId)],
);

/**
 * Returns: 1 a sales return against a delivery (stock back in, devices back from the customer),
 * 2 a purchase return against a receipt line (stock back out to the supplier).
 */
export const erpReturns = pgTable(
  'erp_returns',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    direction: smallint('direction').notNull(),
    /** The delivery (sales return) or the purchase order line (purchase return). */
    deliveryId: integer('delivery_id'),
    lineId: integer('line_id'),
    warehouseId: integer('warehouse_id').notNull(),
    quantity: integer('quantity').notNull(),
    imeis: text('imeis').array().notNull().default(sql`'{}'::text[]`),
    returnedOn: date('returned_on', { mode: 'string' }).notNull(),
    remark: text('remark').notNull().default(''),
    createdAt: created(),
  },
  (t) => [index('erp_returns_delivery_idx').on(t.deliveryId), index('erp_returns_line_idx').on(t.lineId), index('erp_returns_account_idx').on(t.accountId, t.id)],
);

/** A stock-take of one warehouse: 1 counting, 2 confirmed (differences posted as doc 'erp_stocktake'). */
export const erpStockTakes = pgTable(
  'erp_stock_takes',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').notNull(),
    warehouseId: integer('warehouse_id').notNull(),
    state: smallint('state').notNull().default(1),
    remark: text('remark').notNull().default(''),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: created(),
  },
  (t) => [index('erp_stock_takes_account_idx').on(t.accountId, t.id)],
);

/** A line of a count sheet: material (1) or product (2), expected from the ledger at start, counted. */
export const erpStockTakeLines = pgTable(
  'erp_stock_take_lines',
  {
    id: serial('id').primaryKey(),
    takeId: integer('take_id').notNull(),
    kind: smallint('kind').notNull(),
    itemId: integer('item_id').notNull(),
    expected: integer('expected').notNull(),
    counted: integer('counted'),
  },
  (t) => [index('erp_stock_take_lines_take_idx').on(t.takeId)],
);
