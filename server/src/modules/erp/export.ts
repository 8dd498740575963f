// The ERP's lists as spreadsheets (/Erp/ListExport): suppliers, customers, purchase orders, goods
// receipts, transfers and the stock at a date, with the same filters as their list calls, in the
// reader's language and zone (times as the lists answer them). Rows are read a page at a time and
// streamed (lib/export-sheet.ts), so a long list is never held whole.
import { erp as schemas, translate, type Locale } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import { EXPORT_PAGE_ROWS, checkExportSize, parseFilter } from '../../lib/export-sheet.js';
import { listPurchases } from './service.js';
import { listCustomers, listReceipts, listSuppliers, listTransfers, stockAt } from './ledger.js';

type Req = z.output<typeof schemas.listExport>;
type Row = Record<string, unknown>;
type Page = { Total: number; Items: Row[] };
const PAGE = Math.min(EXPORT_PAGE_ROWS, 1000);
/** The filters of the master data lists (a keyword). */
const keywordList = schemas.purchaseList.pick({ PageNo: true, PageCount: true, Keyword: true });
const filterOf = (s: z.ZodType, f: Row) => parseFilter(s, { ...f, PageNo: 1, PageCount: PAGE }) as Row & { PageNo: number; PageCount: number };

/** Each list: how its pages are read and which of its fields become the sheet's columns. */
function listOf(ctx: AuthedContext, q: Req): { read: (pageNo: number) => Promise<Page>; keys: string[]; cell?: (key: string, row: Row) => unknown } {
  const L = ctx.locale;
  const f = q.Filter;
  const paged = (schema: z.ZodType, list: (ctx: AuthedContext, body: never) => Promise<unknown>) => {
    const body = filterOf(schema, f);
    return (pageNo: number) => list(ctx, { ...body, PageNo: pageNo } as never) as Promise<Page>;
  };
  const party = ['Name', 'Contact', 'Phone', 'Address', 'TaxNo', 'PaymentDays', 'Remark', 'Created'];
  switch (q.List) {
    case 'suppliers':
      return { read: paged(keywordList, listSuppliers), keys: party };
    case 'customers':
      return { read: paged(keywordList, listCustomers), keys: [...party.slice(0, 6), 'PlatformAccountName', 'Remark', 'Created'] };
    case 'purchases':
      return {
        read: paged(schemas.purchaseList, listPurchases),
        keys: ['OrderNo', 'PoNo', 'SupplierName', 'Content', 'Amount', 'Paid', 'Invoiced', 'Audit', 'AuditedAt', 'Created'],
        cell: (k, r) => (k === 'Audit' ? translate(L, `erp.audits.${String(r.Audit)}`) : undefined),
      };
    case 'receipts':
      return {
        read: paged(schemas.receiptList, listReceipts),
        keys: ['ReceivedOn', 'OrderNo', 'SupplierName', 'WarehouseName', 'Items', 'Quantity', 'Remark', 'Created'],
        cell: (k, r) => (k === 'Items' ? (r.Lines as { ItemName: string; Quantity: number }[]).map((l) => `${l.ItemName} × ${l.Quantity}`).join('; ') : undefined),
      };
    case 'transfers':
      return {
        read: paged(schemas.transferList, listTransfers),
        keys: ['Created', 'Kind', 'ItemName', 'FromWarehouseName', 'ToWarehouseName', 'Quantity', 'Remark'],
        cell: (k, r) => (k === 'Kind' ? translate(L, `erp.kinds.${String(r.Kind)}`) : undefined),
      };
    case 'stockAt': {
      const body = parseFilter(schemas.stockAtRequest, f);
      // One answer (a row per item and warehouse holding stock): the first page is all of it.
      return {
        read: async (pageNo) => {
          if (pageNo > 1) return { Total: 0, Items: [] };
          const r = await stockAt(ctx, body);
          return { Total: r.Items.length, Items: r.Items };
        },
        keys: ['ItemName', 'WarehouseName', 'Quantity'],
      };
    }
  }
}

function columns(L: Locale, keys: string[]) {
  return keys.map((key) => ({ key, header: translate(L, `erp.exportColumns.${key}`), width: ['Content', 'Items', 'Address', 'Name', 'ItemName', 'SupplierName'].includes(key) ? 28 : 18 }));
}

export async function listExport(ctx: AuthedContext, q: Req) {
  const { read, keys, cell } = listOf(ctx, q);
  const first = await read(1);
  checkExportSize(first.Total);
  const toCells = (rows: Row[]) => rows.map((r) => keys.map((k) => cell?.(k, r) ?? r[k] ?? ''));
  async function* pages() {
    yield toCells(first.Items);
    let seen = first.Items.length;
    for (let pageNo = 2; seen < first.Total && first.Items.length === PAGE; pageNo++) {
      const next = await read(pageNo);
      if (!next.Items.length) return;
      seen += next.Items.length;
      yield toCells(next.Items);
    }
  }
  return ctx.request.server.sheets.send(ctx.request, ctx.reply!, {
    fileName: `erp-${q.List}`,
    sheet: translate(ctx.locale, `erp.exportNames.${q.List}`),
    columns: columns(ctx.locale, keys),
    total: first.Total,
    pages: pages(),
  }) as never;
}
