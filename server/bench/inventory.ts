// The inventory at scale on PostgreSQL: a fresh database with the demo tenant, and 1 000 000 IMEIs
// in stock (2 models x 4 stores, written with COPY, their balances and opening moves in the
// ledger). Then, over HTTP in this process (so an upper bound of the server's time):
//   - a stock-in batch of 100 000 pasted IMEI/ICCID rows (/Inventory/BatchInsert), and the same
//     count as an .xlsx workbook (read in the worker thread),
//   - the stock list filtered by model and store (/Inventory/DevicesList): p50/p95 over samples of
//     random pages among the first 50,
//   - one sale of 10 000 devices to a customer account (/Inventory/SalesInsert by quantity), which
//     creates their unbound device rows in that account,
//   - the stock on hand at a date (/Erp/StockAt, materials of every warehouse at the end of a random
//     day) over 1 000 000 ledger rows (500 materials x 4 warehouses, 500 moves each over two years,
//     written with COPY): p50/p95, and the query's plan in PostgreSQL,
//   - with --delivery: an ERP delivery of 10 000 IMEIs of an IMEI-tracked product (/Erp/DeliverySave
//     by quantity, first-in; the devices handed to the customer's account), and 20 concurrent
//     deliveries of 50 from one warehouse (none sells an IMEI twice),
// and the machine's COPY ceiling (position rows/s, as bench:ingest measures it), with the load.
//
//   npm run bench:inventory -- [--items 1000000] [--batch 100000] [--sale 10000] [--samples 200] [--ledger 1000000] [--delivery [10000]]
//
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test): a database is created in it
// and dropped afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { startPlatform } from '../src/platform.js';
import { benchArgs, copyCeiling, copyLines, createPostgresDatabase, fmt, percentile } from './common.js';

const args = benchArgs();
const ITEMS = Number(args.get('items') ?? 1_000_000);
const BATCH = Number(args.get('batch') ?? 100_000);
const SALE = Number(args.get('sale') ?? 10_000);
const SAMPLES = Number(args.get('samples') ?? 200);
const LEDGER = Number(args.get('ledger') ?? 1_000_000);
const DELIVERY = args.has('delivery') ? (args.get('delivery') === '1' ? 10_000 : Number(args.get('delivery'))) : 0;
const imei = (prefix: string, i: number) => `${prefix}${String(i).padStart(15 - prefix.length, '0')}`;

async function main() {
  const db = await createPostgresDatabase('wt_bench_inv');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'wt-bench-inv-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', WATCH_PORT: '0', GT06_PORT: 'off', OSMAND_PORT: 'off', LOG_LEVEL: 'warn', DATA_DIR: dataDir, DEMO: '1', SIMULATE: '0', DATABASE_URL: db.url });
  const platform = await startPlatform(config);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    const post = async (p: string, body: unknown, token?: string) => {
      const res = await fetch(`${platform.url}/api${p}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers read as needed
      return (await res.json()) as any;
    };
    const token = (await post('/User/Login', { LoginName: 'admin', Password: 'admin123' })).AccessToken as string;
    const call = (p: string, body: unknown) => post(`/Inventory/${p}`, body, token);

    // ---- 1 000 000 IMEIs in stock ----
    const [admin] = (await client.query<{ id: number }>(`SELECT id FROM accounts WHERE login_name = 'admin'`)).rows;
    const stores = (await call('StoreList', { PageCount: 10 })).Items.map((s: { Id: number }) => s.Id) as number[];
    const models = [(await call('ModelInsert', { Name: 'BENCH-A' })).Id as number, (await call('ModelInsert', { Name: 'BENCH-B' })).Id as number];
    const groups = models.flatMap((m) => stores.map((s) => ({ m, s })));
    let s0 = performance.now();
    await client.query('BEGIN');
    await copyLines(
      client,
      'COPY inv_items (account_id, imei, iccid, model_id, store_id, state) FROM STDIN',
      (function* () {
        for (let i = 0; i < ITEMS; i++) {
          const g = groups[i % groups.length]!;
          yield `${admin!.id}\t${imei('35', i)}\t8986${String(i).padStart(16, '0')}\t${g.m}\t${g.s}\t1\n`;
        }
      })(),
    );
    await client.query(
      `INSERT INTO stock_balances (account_id, kind, item_id, store_id, quantity)
       SELECT account_id, 'item', model_id, store_id, count(*) FROM inv_items WHERE model_id = ANY($1::int[]) GROUP BY 1, 3, 4`,
      [models],
    );
    await client.query(`INSERT INTO stock_moves (account_id, kind, item_id, store_id, doc_type, doc_id, quantity, balance)
       SELECT account_id, kind, item_id, store_id, 'opening', 0, quantity, quantity FROM stock_balances WHERE item_id = ANY($1::int[]) AND kind = 'item'`, [models]);
    await client.query('COMMIT');
    // Statistics as a database in service has them (a fresh demo's few accounts are below
    // autovacuum's analyze threshold, and without statistics the planner misjudges the scope).
    await client.query('ANALYZE');
    console.log(`stock: ${fmt(ITEMS)} IMEIs written with COPY in ${fmt((performance.now() - s0) / 1000, 1)} s (${models.length} models x ${stores.length} stores)`);

    // ---- a batch of 100 000 pasted rows ----
    const pasted = Array.from({ length: BATCH }, (_, i) => imei('36', i));
    s0 = performance.now();
    const b = await call('BatchInsert', { ModelId: models[0], StoreId: stores[0], StockInDate: '2026-11-26', Imeis: pasted, Iccids: pasted.map((x) => `8986${x}`) });
    const pastedS = (performance.now() - s0) / 1000;
    console.log(`batch of ${fmt(BATCH)} pasted IMEI/ICCID rows: ${fmt(pastedS, 2)} s (stored ${fmt(b.Succeeded)}, refused ${fmt(b.Failed?.length ?? -1)})`);

    // ---- the same as a workbook ----
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('IMEI');
    ws.addRow(['IMEI', 'ICCID']);
    for (let i = 0; i < BATCH; i++) ws.addRow([imei('37', i), `8986${imei('37', i)}`]);
    const content = Buffer.from(await wb.xlsx.writeBuffer()).toString('base64');
    s0 = performance.now();
    const x = await call('BatchInsert', { ModelId: models[1], StoreId: stores[1], StockInDate: '2026-11-26', Content: content });
    const xlsxS = (performance.now() - s0) / 1000;
    console.log(`batch of ${fmt(BATCH)} rows as a workbook (${fmt(content.length / 1024 / 1024, 1)} MB base64): ${fmt(xlsxS, 2)} s (stored ${fmt(x.Succeeded)}, refused ${fmt(x.Failed?.length ?? -1)})`);

    // ---- the stock list filtered by model and store ----
    const times: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const g = groups[i % groups.length]!;
      const t0 = performance.now();
      const r = await call('DevicesList', { ModelId: g.m, StoreId: g.s, State: 1, PageNo: 1 + (i % 50), PageCount: 20 });
      times.push(performance.now() - t0);
      if (r.State !== 200 || r.Items.length !== 20) throw new Error(`list failed: ${JSON.stringify(r).slice(0, 200)}`);
    }
    times.sort((a, b2) => a - b2);
    console.log(`stock list by model and store (${fmt(SAMPLES)} samples, pages 1-50 of 20, with the total): p50 ${fmt(percentile(times, 50), 1)} ms, p95 ${fmt(percentile(times, 95), 1)} ms, max ${fmt(times[times.length - 1]!, 1)} ms`);

    // The same round trip with (almost) no database work, for scale under the machine's load.
    const base: number[] = [];
    for (let i = 0; i < Math.min(SAMPLES, 100); i++) {
      const t0 = performance.now();
      await call('OwnerList', { PageCount: 5 });
      base.push(performance.now() - t0);
    }
    base.sort((a, b2) => a - b2);
    console.log(`baseline round trip (/Inventory/OwnerList, ${fmt(base.length)} samples): p50 ${fmt(percentile(base, 50), 1)} ms, p95 ${fmt(percentile(base, 95), 1)} ms`);
    const plan = await client.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT i.id FROM inv_items i WHERE i.account_id IN (SELECT id FROM accounts WHERE path LIKE '/%') AND i.model_id = $1 AND i.store_id = $2 AND i.state = 1 ORDER BY i.id DESC LIMIT 20 OFFSET 980`,
      [groups[1]!.m, groups[1]!.s],
    );
    const top = (plan.rows[0] as { 'QUERY PLAN': { 'Execution Time': number }[] })['QUERY PLAN'][0]!;
    console.log(`the list's page query alone in PostgreSQL (page 50): ${fmt(top['Execution Time'], 2)} ms`);

    // ---- one sale of 10 000 devices ----
    const [agent] = (await client.query<{ id: number }>(`SELECT id FROM accounts WHERE login_name = 'agent01'`)).rows;
    s0 = performance.now();
    const sale = await call('SalesInsert', { CustomerId: agent!.id, ModelId: models[0], Quantity: SALE, ExpiresAt: '2027-11-26' });
    const saleS = (performance.now() - s0) / 1000;
    const [made] = (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM devices WHERE account_id = $1 AND NOT bound AND imei LIKE '35%'`, [agent!.id])).rows;
    console.log(`sale of ${fmt(SALE)} devices: ${fmt(saleS, 2)} s (${sale.State === 200 ? 'ok' : JSON.stringify(sale)}; ${fmt(made!.n)} unbound devices now in the customer's account)`);
    const [bad] = (await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM stock_balances b WHERE kind = 'item' AND quantity <> (SELECT count(*) FROM inv_items i WHERE i.model_id = b.item_id AND i.store_id = b.store_id AND i.state = 1)`,
    )).rows;
    console.log(`ledger: ${bad!.n === 0 ? 'every balance equals its items in stock' : `${bad!.n} balances DIFFER from the items`}`);

    // ---- ERP deliveries of an IMEI-tracked product ----
    let deliveryBad = 0;
    if (DELIVERY) {
      const erp = (p: string, body: unknown) => post(`/Erp/${p}`, body, token);
      const product = (await erp('ProductSave', { ModelName: 'BENCH-B', Colour: 1, InvModelId: models[1] })).Id;
      const customer = (await erp('CustomerSave', { Name: 'Bench customer', PlatformAccountId: agent!.id })).Id;
      const order = async (no: string, quantity: number) =>
        (await erp('SaleSave', { SalesNo: no, CustomerCompany: 'Bench', CustomerId: customer, ProductId: product, Quantity: quantity, UnitPrice: '1', Receivable: '0', Actual: '0', PayMethod: 1, PayType: 1, SoldAt: '2026-11-26' })).Id;
      const big = await order('BENCH-D', DELIVERY);
      s0 = performance.now();
      const d = await erp('DeliverySave', { SaleId: big, WarehouseId: stores[0], Quantity: DELIVERY, DeliveredOn: '2026-11-26' });
      console.log(`ERP delivery of ${fmt(DELIVERY)} IMEIs (first-in, handed to the customer's account): ${fmt((performance.now() - s0) / 1000, 2)} s (target < 5 s; ${d.State === 200 ? 'ok' : JSON.stringify(d)})`);
      const small = [];
      for (let i = 0; i < 20; i++) small.push(await order(`BENCH-D${i}`, 50));
      s0 = performance.now();
      const runs = await Promise.all(small.map((id) => erp('DeliverySave', { SaleId: id, WarehouseId: stores[1], Quantity: 50, DeliveredOn: '2026-11-26' })));
      const sold = runs.flatMap((r) => (r.State === 200 ? (r.Imeis as string[]) : []));
      deliveryBad = (d.State === 200 ? 0 : 1) + sold.length - new Set(sold).size + runs.filter((r) => r.State !== 200).length;
      console.log(`20 concurrent ERP deliveries of 50 from one warehouse: ${fmt((performance.now() - s0) / 1000, 2)} s (${runs.filter((r) => r.State === 200).length} delivered, ${fmt(sold.length)} IMEIs, ${fmt(sold.length - new Set(sold).size)} sold twice)`);
    }

    // ---- stock on hand at a date over 1 000 000 ledger rows ----
    const MATERIALS = 500;
    const perSeries = Math.max(1, Math.round(LEDGER / (MATERIALS * stores.length)));
    const mats = (
      await client.query<{ id: number }>(`INSERT INTO erp_materials (account_id, name) SELECT $1, 'BENCH-M' || g FROM generate_series(1, ${MATERIALS}) g RETURNING id`, [admin!.id])
    ).rows.map((r) => r.id);
    const span = 730 * 86_400_000;
    const from = Date.parse('2025-01-01T00:00:00Z');
    s0 = performance.now();
    await client.query('BEGIN');
    const finals: string[] = [];
    await copyLines(
      client,
      'COPY stock_moves (account_id, kind, item_id, store_id, doc_type, doc_id, quantity, balance, created_at) FROM STDIN',
      (function* () {
        for (const m of mats)
          for (const st of stores) {
            let bal = 0;
            for (let k = 0; k < perSeries; k++) {
              // Mostly inbound, some outbound, never below 0.
              const q = bal > 5 && k % 3 === 2 ? -3 : 5;
              bal += q;
              yield `${admin!.id}\tmaterial\t${m}\t${st}\terp_bench\t${k}\t${q}\t${bal}\t${new Date(from + Math.floor((span * k) / perSeries)).toISOString()}\n`;
            }
            finals.push(`${admin!.id}\tmaterial\t${m}\t${st}\t${bal}\n`);
          }
      })(),
    );
    await copyLines(client, 'COPY stock_balances (account_id, kind, item_id, store_id, quantity) FROM STDIN', finals);
    await client.query('COMMIT');
    await client.query('ANALYZE stock_moves');
    await client.query('ANALYZE stock_balances');
    const ledgerRows = MATERIALS * stores.length * perSeries;
    console.log(`ERP ledger: ${fmt(ledgerRows)} material moves written with COPY in ${fmt((performance.now() - s0) / 1000, 1)} s (${MATERIALS} materials x ${stores.length} warehouses x ${fmt(perSeries)} moves)`);
    const at: number[] = [];
    let answered = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const day = new Date(from + Math.floor(Math.random() * span)).toISOString().slice(0, 10);
      const t0 = performance.now();
      const r = await post('/Erp/StockAt', { Kind: 1, Date: day, ...(i % 2 ? { WarehouseId: stores[i % stores.length] } : {}) }, token);
      at.push(performance.now() - t0);
      if (r.State !== 200) throw new Error(JSON.stringify(r));
      answered += r.Items.length;
    }
    at.sort((a, b2) => a - b2);
    const copyRate = await copyCeiling(db.url, 300_000);
    console.log(
      `stock on hand at a date over ${fmt(ledgerRows)} ledger rows (/Erp/StockAt, ${fmt(SAMPLES)} samples, all warehouses or one, ${fmt(answered / SAMPLES)} rows per answer): p50 ${fmt(percentile(at, 50), 1)} ms, p95 ${fmt(percentile(at, 95), 1)} ms (target < 100 ms); COPY ceiling ${fmt(copyRate)} position rows/s`,
    );
    const atPlan = await client.query(
      `EXPLAIN (ANALYZE, FORMAT JSON) SELECT b.item_id, b.store_id, m.balance FROM stock_balances b
       CROSS JOIN LATERAL (SELECT s.balance FROM stock_moves s WHERE s.account_id = b.account_id AND s.kind = b.kind AND s.item_id = b.item_id AND s.store_id = b.store_id
         AND s.created_at < '2026-01-01T00:00:00Z' ORDER BY s.created_at DESC, s.id DESC LIMIT 1) m
       WHERE b.kind = 'material' AND b.account_id IN (SELECT id FROM accounts WHERE path LIKE '/%') AND m.balance <> 0`,
    );
    const atTop = (atPlan.rows[0] as { 'QUERY PLAN': { 'Execution Time': number; Plan: unknown }[] })['QUERY PLAN'][0]!;
    const scans = JSON.stringify(atTop.Plan).match(/"Index Name":"[a-z_]+"/g) ?? [];
    console.log(`the stock-at query alone in PostgreSQL (all warehouses): ${fmt(atTop['Execution Time'], 2)} ms, indexes ${[...new Set(scans)].join(', ')}`);

    console.log(`COPY ceiling: ${fmt(copyRate)} position rows/s (300,000 rows, one transaction)`);
    console.log(`load: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} (1, 5, 15 min) on ${os.cpus().length} cores`);
    if (bad!.n !== 0 || sale.State !== 200 || deliveryBad) process.exitCode = 1;
  } finally {
    await client.end();
    await platform.close();
    await db.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
