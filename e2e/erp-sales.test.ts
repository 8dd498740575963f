// The ERP's sales chain in a real browser, in one logged-in page: the vendor's administrator sells 30
// watches of a product tracked by IMEI (the demo's Y6 model, 40 in Shenzhen) to a customer linked to
// agent01; on the sales page he delivers them out of Shenzhen, and the 30 devices are agent01's; in
// the sale's documents he takes 2 back as a return (they leave agent01 and are in stock again),
// invoices the 28 kept and records their payment; a stock-take of Shenzhen lists what is expected there. The product's stock (its inventory model's count)
// is its devices in stock after each step. In Chinese, then the documents in English.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { root, screenshot } from './harness.js';
import { callApi, cjkTexts, consoleSession, freshTab, switchLanguage } from './console.js';
import { modal } from './position.js';

type Tree = Record<string, any>;
const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'erp.json'), 'utf8')) as Tree;
const zh = texts('zh-CN');
const en = texts('en');
const s = consoleSession();
const SALE_NO = 'XS-E2E-030';
const PREFIX = '86912305010';

// One story: a retried step would find the sale already delivered.
/** The dialog has its initial values (its date is today): a field filled before that would be reset. */
async function dialogReady(page: Page) {
  await expect.poll(() => modal(page).locator('.ant-picker input').first().inputValue(), { timeout: 10_000 }).not.toBe('');
}

/** The drawer has finished sliding in (its left edge stays put). */
const drawerOpen = (page: Page) => settledBox(page.locator('.ant-drawer-content-wrapper'));

/** The element has stopped moving or growing (its opening animation is over). */
async function settledBox(l: Locator) {
  let last = '';
  await expect
    .poll(
      async () => {
        const box = JSON.stringify(await l.boundingBox());
        const same = box === last;
        last = box;
        return same;
      },
      { timeout: 10_000, interval: 200 },
    )
    .toBe(true);
}

describe('selling tracked watches to an agent', { retry: 0 }, () => {
  it('delivers 30 to agent01, takes 2 back, invoices and is paid for the rest, in Chinese and English', async () => {
    const api = <T = Tree>(p: string, body: unknown) => callApi<T>(s.page, s.server.url, p, body);
    // The catalogue: the demo's inventory model Y6 as a tracked product, a customer linked to agent01, a sale of 30.
    const agent = (await api<{ Items: { UserId: number; LoginName: string }[] }>('/user/searchAccountByName', { Keyword: 'agent01', Limit: 5 })).Items.find((u) => u.LoginName === 'agent01')!.UserId;
    const model = (await api<{ Items: { Id: number; Name: string }[] }>('/Inventory/ModelList', { PageNo: 1, PageCount: 50 })).Items.find((m) => m.Name === 'Y6')!.Id;
    const stores = (await api<{ Items: { Id: number; Name: string }[] }>('/Inventory/StoreList', { PageNo: 1, PageCount: 50 })).Items;
    const shenzhen = stores[1]!;
    const product = (await api('/Erp/ProductSave', { ModelName: 'Y6 tracked', Colour: 1, InvModelId: model })).Id as number;
    const customer = (await api('/Erp/CustomerSave', { Name: 'South China Agent', PlatformAccountId: agent })).Id as number;
    const saved = await api('/Erp/SaleSave', {
      SalesNo: SALE_NO, CustomerId: customer, CustomerCompany: 'South China Agent', ProductId: product, Quantity: 30, UnitPrice: '399', Receivable: '11970', Actual: '0',
      PayMethod: 1, PayType: 1, SoldAt: new Date().toISOString().slice(0, 10),
    });
    expect(saved.State).toBe(200);
    const agentsWatches = async () =>
      (await api<{ Total: number }>('/Device/devicesByUserId', { PageNo: 1, PageCount: 100, UserId: agent, IncludeSubAccounts: false, Imei: PREFIX })).Total;
    // A tracked product's stock is its inventory model's: the model's count and its devices in stock in Shenzhen.
    const inStock = async () => (await api<{ Items: { Id: number; InStock: number }[] }>('/Inventory/ModelList', { PageNo: 1, PageCount: 50 })).Items.find((m) => m.Id === model)!.InStock;
    const inventory = async () => (await api<{ Total: number }>('/Inventory/DevicesList', { PageNo: 1, PageCount: 1, ModelId: model, StoreId: shenzhen.Id, State: 1 })).Total;
    expect(await agentsWatches()).toBe(0);
    expect([await inStock(), await inventory()]).toEqual([40, 40]);

    const { tab: page, errors } = await freshTab(s.page, s.server.url, '/erp/sales');
    const row = (p: Page) => p.locator('.ant-table-row', { hasText: SALE_NO });
    await row(page).waitFor({ timeout: 30_000 });

    // Delivered out of Shenzhen: 30, the oldest first.
    await row(page).locator('[data-testid="erp-sale-deliver"]').click();
    await dialogReady(page);
    await modal(page).locator('[data-testid="delivery-warehouse"]').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: shenzhen.Name }).first().click();
    await modal(page).locator('[data-testid="delivery-quantity"] input, input[data-testid="delivery-quantity"]').first().fill('30');
    await screenshot(page, 'erp-sales-deliver-zh-CN');
    await modal(page).locator('.ant-modal-footer .ant-btn-primary').click();
    await modal(page).waitFor({ state: 'detached' });
    await expect.poll(agentsWatches, { timeout: 10_000 }).toBe(30);
    expect([await inStock(), await inventory()]).toEqual([10, 10]);

    // The sale's documents: the delivery, then a return of 2.
    await row(page).locator('[data-testid="erp-sale-documents"]').first().click();
    const docs = page.locator('.ant-drawer [data-testid="erp-sale-documents"]');
    await docs.waitFor();
    await expect(docs.locator('.ant-table-row').first().innerText()).resolves.toContain('30');
    await docs.locator('[data-testid="erp-delivery-return"]').click();
    await dialogReady(page);
    await modal(page).locator('.ant-input-number input').first().fill('2');
    await modal(page).locator('.ant-modal-footer .ant-btn-primary').click();
    await modal(page).waitFor({ state: 'detached', timeout: 15_000 }).catch(async (e) => {
      await screenshot(page, 'erp-sales-return-failed');
      throw new Error(`${String(e)}\n${await modal(page).innerText()}`);
    });
    await expect.poll(agentsWatches, { timeout: 10_000 }).toBe(28);
    expect([await inStock(), await inventory()]).toEqual([12, 12]);
    const figures = () => docs.locator('.ant-descriptions').innerText();
    await expect.poll(figures, { timeout: 10_000 }).toMatch(new RegExp(`${zh.documents.returned}\\s+2\\b`));
    expect(await figures()).toMatch(new RegExp(`${zh.documents.delivered}\\s+30\\b`));

    // The 28 kept are invoiced and paid.
    await docs.locator('button', { hasText: zh.documents.addInvoice }).click();
    await dialogReady(page);
    await modal(page).getByLabel(zh.documents.number).fill('FP-2026-0001');
    await modal(page).getByLabel(zh.documents.amount).fill('11172');
    await modal(page).locator('.ant-modal-footer .ant-btn-primary').click();
    await modal(page).waitFor({ state: 'detached' });
    await docs.locator('.ant-table-row', { hasText: 'FP-2026-0001' }).waitFor();
    await docs.locator('button', { hasText: zh.documents.addPayment }).click();
    await dialogReady(page);
    await modal(page).getByLabel(zh.documents.amount).fill('11172');
    await modal(page).locator('.ant-modal-footer .ant-btn-primary').click();
    await modal(page).waitFor({ state: 'detached' });
    await docs.locator('.ant-tag', { hasText: zh.documents.payStates['2'] }).waitFor({ timeout: 10_000 });
    const sale = (await api<{ Items: { Id: number; SalesNo: string }[] }>('/Erp/SaleList', { PageNo: 1, PageCount: 20 })).Items.find((x) => x.SalesNo === SALE_NO)!;
    const documents = await api<Tree>('/Erp/SaleDocuments', { Id: sale.Id });
    expect(documents).toMatchObject({ Tracked: true, Ordered: 30, Delivered: 30, Returned: 2, PayState: 2 });
    expect(Number(String(documents.Invoiced).replace(/,/g, ''))).toBe(11172);
    await drawerOpen(page);
    await screenshot(page, 'erp-sales-documents-zh-CN');

    // A stock-take of Shenzhen counts what the ledger expects there.
    await page.locator('.ant-drawer-close').click();
    await docs.waitFor({ state: 'detached' });
    // Straps (not tracked) received into Shenzhen against an audited order: the sheet expects 50.
    const strap = (await api('/Erp/ProductSave', { ModelName: 'Strap', Colour: 2 })).Id as number;
    const order = (await api('/Erp/PurchaseSave', { OrderNo: 'PO-E2E-1', PoNo: 'CG-E2E-1', Content: 'straps', Purpose: 3, Amount: '50', Lines: [{ Kind: 2, ItemId: strap, Quantity: 50, UnitPrice: '1' }] })).Id as number;
    await api('/Erp/PurchaseBatchSave', { OrderId: order, BatchDate: '2026-11-01', Quantity: 50, UnitPrice: '1', AmountPaid: '50' });
    expect((await api('/Erp/PurchaseAudit', { Id: order })).State).toBe(200);
    const line = (await api('/Erp/PurchaseList', { PageNo: 1, PageCount: 20, Id: order })).Items.find((o: Tree) => o.Id === order).Lines[0].Id as number;
    expect((await api('/Erp/ReceiptSave', { OrderId: order, WarehouseId: shenzhen.Id, ReceivedOn: '2026-11-02', Lines: [{ LineId: line, Quantity: 50 }] })).State).toBe(200);
    expect((await api('/Erp/StockTakeStart', { WarehouseId: shenzhen.Id })).State).toBe(200);
    const countSheet = async (shot: string) => {
      await page.goto(`${s.server.url}/erp/stockTakes`);
      await page.locator('.ant-table-row').first().locator('button', { hasText: (shot.endsWith('en') ? en : zh).stockTake.count }).click();
      const lines = modal(page).locator('[data-testid="erp-stocktake-lines"]');
      await lines.locator('.ant-table-row').first().waitFor();
      await settledBox(modal(page));
      await screenshot(page, shot);
      const text = await lines.innerText();
      await modal(page).locator('.ant-modal-close').click();
      return text;
    };
    expect(await countSheet('erp-stocktake-zh-CN')).toMatch(new RegExp(`${zh.item['2']}\\s+Strap\\s+50\\b`));

    // The documents in English: no Chinese outside the user's data.
    await page.goto(`${s.server.url}/erp/sales`);
    await switchLanguage(page, 'zh-CN', 'en');
    await row(page).waitFor();
    await row(page).locator('[data-testid="erp-sale-documents"]').first().click();
    await docs.waitFor();
    await docs.locator('.ant-tag', { hasText: en.documents.payStates['2'] }).waitFor({ timeout: 10_000 });
    expect(await cjkTexts(page, '.ant-drawer')).toEqual([]);
    await drawerOpen(page);
    await screenshot(page, 'erp-sales-documents-en');
    await page.locator('.ant-drawer-close').click();
    expect(await countSheet('erp-stocktake-en')).toMatch(new RegExp(`${en.item['2']}\\s+Strap\\s+50\\b`));
    expect(errors).toEqual([]);
  }, 240_000);
});
