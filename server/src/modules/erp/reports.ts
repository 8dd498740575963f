// Reports of the stock and the ERP, kept to the caller's subtree: stock per model, version and
// store (items in stock and sold); purchasing and sales per month of a year; receivables per
// customer company (sold, paid, outstanding). Sums of money are computed in cents by the database
// and answered as decimal strings. Each report also goes out as a spreadsheet.
import { sql } from 'drizzle-orm';
import { State, erp as schemas, translate, type Locale } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { subtreePattern } from '../../lib/scope.js';
import { rows } from '../../lib/sql.js';
import { viewerDay } from '../../lib/time.js';
import { storeName } from '../inventory/dictionaries.js';

type Req = z.output<typeof schemas.reportRequest>;
const { fromCents } = schemas;
const inScope = (col: string, user: { path: string }) => sql`${sql.raw(col)} IN (SELECT id FROM accounts WHERE path LIKE ${subtreePattern(user)})`;

async function stock(db: Db, ctx: AuthedContext) {
  const r = await rows<{ model_id: number; model: string; version: string | null; store: string; seeded: boolean; in_stock: number; sold: number }>(
    db,
    sql`SELECT i.model_id, m.name AS model, v.name AS version, s.name AS store, s.seeded,
               count(*) FILTER (WHERE i.state = 1)::int AS in_stock, count(*) FILTER (WHERE i.state = 2)::int AS sold
        FROM inv_items i JOIN inv_models m ON m.id = i.model_id JOIN inv_stores s ON s.id = i.store_id LEFT JOIN inv_versions v ON v.id = i.version_id
        WHERE ${inScope('i.account_id', ctx.user)}
        GROUP BY i.model_id, m.name, v.name, s.name, s.seeded ORDER BY m.name, v.name NULLS FIRST, s.name`,
  );
  return r.map((x) => ({ ModelId: x.model_id, ModelName: x.model, VersionName: x.version ?? '', StoreName: storeName(ctx.locale, { name: x.store, seeded: x.seeded }), InStock: x.in_stock, Sold: x.sold }));
}

async function monthly(db: Db, ctx: AuthedContext, year: number) {
  // The month of a sale is the viewer's (its zone); a batch's date is a calendar date already.
  const local = (col: string) => sql`to_char((${sql.raw(col)} AT TIME ZONE 'UTC') + make_interval(mins => ${ctx.user.timeZoneOffset}), 'YYYY-MM')`;
  const r = await rows<{ month: string; pq: number; pp: string; sq: number; sr: string; sa: string; ds: number }>(
    db,
    sql`WITH months AS (SELECT to_char(make_date(${year}, m, 1), 'YYYY-MM') AS month FROM generate_series(1, 12) AS m),
        p AS (SELECT to_char(b.batch_date, 'YYYY-MM') AS month, sum(b.quantity)::int AS q, sum(b.paid_cents) AS paid
              FROM erp_purchase_batches b JOIN erp_purchases o ON o.id = b.order_id WHERE ${inScope('o.account_id', ctx.user)} GROUP BY 1),
        s AS (SELECT ${local('sold_at')} AS month, sum(quantity)::int AS q, sum(receivable_cents) AS rec, sum(actual_cents) AS act
              FROM erp_sales WHERE NOT discarded AND ${inScope('account_id', ctx.user)} GROUP BY 1),
        d AS (SELECT ${local('sold_at')} AS month, sum(quantity)::int AS q
              FROM inv_sales WHERE voided_at IS NULL AND ${inScope('account_id', ctx.user)} GROUP BY 1)
        SELECT months.month, coalesce(p.q, 0) AS pq, coalesce(p.paid, 0)::text AS pp, coalesce(s.q, 0) AS sq,
               coalesce(s.rec, 0)::text AS sr, coalesce(s.act, 0)::text AS sa, coalesce(d.q, 0) AS ds
        FROM months LEFT JOIN p USING (month) LEFT JOIN s USING (month) LEFT JOIN d USING (month) ORDER BY months.month`,
  );
  return r.map((x) => ({ Month: x.month, PurchaseQuantity: Number(x.pq), PurchasePaid: fromCents(x.pp), SalesQuantity: Number(x.sq), SalesReceivable: fromCents(x.sr), SalesActual: fromCents(x.sa), DevicesSold: Number(x.ds) }));
}

async function receivables(db: Db, ctx: AuthedContext) {
  const r = await rows<{ customer: string; n: number; sold: string; paid: string }>(
    db,
    sql`SELECT customer_company AS customer, count(*)::int AS n, sum(receivable_cents)::text AS sold, sum(actual_cents)::text AS paid
        FROM erp_sales WHERE NOT discarded AND ${inScope('account_id', ctx.user)}
        GROUP BY customer_company ORDER BY sum(receivable_cents) - sum(actual_cents) DESC, customer_company`,
  );
  return r.map((x) => ({ Customer: x.customer, Records: x.n, Sold: fromCents(x.sold), Paid: fromCents(x.paid), Outstanding: fromCents(BigInt(x.sold) - BigInt(x.paid)) }));
}

export async function report(ctx: AuthedContext, q: Req) {
  const { db } = ctx.deps.database;
  if (q.Report === 'stock') return { State: State.OK, Stock: await stock(db, ctx) } as const;
  if (q.Report === 'monthly') return { State: State.OK, Monthly: await monthly(db, ctx, q.Year ?? Number(viewerDay(ctx.user).slice(0, 4))) } as const;
  return { State: State.OK, Receivables: await receivables(db, ctx) } as const;
}

/** The report's columns as the sheet's, titled in the reader's language. */
function columns(L: Locale, keys: string[]) {
  return keys.map((key) => ({ key, header: translate(L, `erp.reportColumns.${key}`), width: key === 'Customer' || key === 'ModelName' ? 24 : 16 }));
}

export async function reportExport(ctx: AuthedContext, q: Req) {
  const r = await report(ctx, q);
  const list = ((r as { Stock?: unknown[] }).Stock ?? (r as { Monthly?: unknown[] }).Monthly ?? (r as { Receivables?: unknown[] }).Receivables ?? []) as Record<string, unknown>[];
  const keys = {
    stock: ['ModelName', 'VersionName', 'StoreName', 'InStock', 'Sold'],
    monthly: ['Month', 'PurchaseQuantity', 'PurchasePaid', 'SalesQuantity', 'SalesReceivable', 'SalesActual', 'DevicesSold'],
    receivables: ['Customer', 'Records', 'Sold', 'Paid', 'Outstanding'],
  }[q.Report];
  async function* pages() {
    yield list.map((row) => keys.map((k) => row[k]));
  }
  return ctx.request.server.sheets.send(ctx.request, ctx.reply!, {
    fileName: `report-${q.Report}`,
    sheet: translate(ctx.locale, `erp.reportNames.${q.Report}`),
    columns: columns(ctx.locale, keys),
    total: list.length,
    pages: pages(),
  }) as never;
}
