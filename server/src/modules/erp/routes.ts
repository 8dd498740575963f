// ERP calls (administrators only): materials, products, their stock records, purchasing, invoices, sales records.
import { defineCall } from '../../calls.js';
import * as s from './service.js';
import * as l from './ledger.js';
import { report, reportExport } from './reports.js';
import { listExport } from './export.js';

export const erpCalls = [
  defineCall('/Erp/MaterialList', s.listMaterials),
  defineCall('/Erp/MaterialSave', s.saveMaterial),
  defineCall('/Erp/MaterialDelete', (ctx, b) => s.deleteThing(ctx, s.materials, b.Id, 'erp.materialInUse')),
  defineCall('/Erp/ProductList', s.listProducts),
  defineCall('/Erp/ProductSave', s.saveProduct),
  defineCall('/Erp/ProductDelete', (ctx, b) => s.deleteThing(ctx, s.products, b.Id, 'erp.productInUse')),
  defineCall('/Erp/StockRecordList', s.listStockRecords),
  defineCall('/Erp/StockRecordInsert', s.insertStockRecord),
  defineCall('/Erp/PurchaseList', s.listPurchases),
  defineCall('/Erp/PurchaseSave', s.savePurchase),
  defineCall('/Erp/PurchaseDelete', (ctx, b) => s.deletePurchase(ctx, b.Id)),
  defineCall('/Erp/PurchaseBatchSave', s.savePurchaseBatch),
  defineCall('/Erp/PurchaseBatchDelete', (ctx, b) => s.deletePurchaseBatch(ctx, b.Id)),
  defineCall('/Erp/PurchaseAudit', (ctx, b) => s.auditPurchase(ctx, b.Id)),
  defineCall('/Erp/InvoiceSave', s.saveInvoice),
  defineCall('/Erp/InvoiceDelete', (ctx, b) => s.deleteInvoice(ctx, b.Id)),
  defineCall('/Erp/SaleList', s.listSales),
  defineCall('/Erp/SaleSave', s.saveSale),
  defineCall('/Erp/SaleDiscard', (ctx, b) => s.discardSale(ctx, b.Id)),
  defineCall('/Erp/SaleShip', s.shipSale),
  defineCall('/Erp/SupplierList', l.listSuppliers),
  defineCall('/Erp/SupplierSave', l.saveSupplier),
  defineCall('/Erp/SupplierDelete', (ctx, b) => l.deleteSupplier(ctx, b.Id)),
  defineCall('/Erp/CustomerList', l.listCustomers),
  defineCall('/Erp/CustomerSave', l.saveCustomer),
  defineCall('/Erp/CustomerDelete', (ctx, b) => l.deleteCustomer(ctx, b.Id)),
  defineCall('/Erp/ReceiptSave', l.saveReceipt),
  defineCall('/Erp/TransferSave', l.saveTransfer),
  defineCall('/Erp/StockAt', l.stockAt),
  defineCall('/Erp/Report', report),
  defineCall('/Erp/ReportExport', reportExport),
  defineCall('/Erp/ReceiptList', l.listReceipts),
  defineCall('/Erp/TransferList', l.listTransfers),
  defineCall('/Erp/ListExport', listExport),
];
