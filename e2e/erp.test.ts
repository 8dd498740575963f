// The ERP in a real browser against a real server process, in one logged-in page, first in Chinese
// and then in English: a purchase order recorded with two batches (the second repeats the first's
// unit price and quantity: the console asks, the user confirms), approved, and invoiced; a product
// stocked in and a sales record of it shipped with its shipping info and outbound order. Each ERP
// page is opened directly by its URL, the reports too (a chart, the receivables of the sale); screenshots in both languages land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { root, screenshot, type ServerProcess } from './harness.js';
import { callApi, consoleSession, switchLanguage } from './console.js';

const messages = (lang: string) => JSON.parse(readFileSync(path.join(root, 'contract/src/messages', `${lang}.json`), 'utf8')) as { erp: { reportNames: Record<string, string> } };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- locale files are read as loose trees
const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'erp.json'), 'utf8')) as Record<string, any>;
const LANGS = [
  { lang: 'zh-CN', tag: 'CN', store: '深圳' },
  { lang: 'en', tag: 'EN', store: 'Shenzhen' },
] as const;

const session = consoleSession();
let server: ServerProcess;
let page: Page;
let errors: string[];
beforeAll(() => void ({ server, page, errors } = session));

const modal = () => page.locator('.ant-modal-wrap:visible .ant-modal').last();
const ok = () => modal().locator('.ant-modal-footer .ant-btn-primary').click();
/** An InputNumber by its test id (antd puts the id on the input or on its wrapper). */
const numberInput = (testId: string) => modal().locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
/** Until every dialog has gone (screenshots show the page, not a closing dialog). */
const noDialog = () => expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
const row = (table: string, text: string) => page.locator(`[data-testid="${table}"] .ant-table-row`, { hasText: text });

async function pick(testId: string, option: string) {
  await page.locator(`[data-testid="${testId}"]`).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

async function addBatch(quantity: string, price: string, paid: string) {
  await page.locator('[data-testid="purchase-add-batch"]').click();
  await numberInput('batch-quantity').fill(quantity);
  await modal().locator('[data-testid="batch-unit-price"]').fill(price);
  await modal().locator('[data-testid="batch-paid"]').fill(paid);
  await ok();
}

describe.sequential('ERP in the browser', () => {
  for (const l of LANGS) {
    it(`records a purchase with two batches, audits and invoices it, ships a sale (${l.lang})`, async () => {
      if (l.lang === 'en') await switchLanguage(page, 'zh-CN', 'en');
      const tx = texts(l.lang);
      const reportsTab = messages(l.lang).erp.reportNames.receivables;
      const orderNo = `PO-${l.tag}`;

      await page.goto(`${server.url}/erp/purchase`);
      await page.locator('[data-testid="erp-purchases"] .ant-table').waitFor({ timeout: 30_000 });
      await page.locator('[data-testid="purchase-add"]').click();
      await modal().locator('[data-testid="purchase-order-no"]').fill(orderNo);
      await modal().locator('[data-testid="purchase-po-no"]').fill(`CG-${l.tag}`);
      await modal().locator('[data-testid="purchase-content"]').fill(l.lang === 'en' ? 'Watch screens' : '手表屏幕');
      await modal().locator('[data-testid="purchase-amount"]').fill('2000.00');
      await ok();
      await row('erp-purchases', orderNo).waitFor();

      // Two batches; the second repeats the first's unit price and quantity: asked, then confirmed.
      await row('erp-purchases', orderNo).locator('[data-testid="purchase-detail"]').click();
      await addBatch('100', '9.90', '990.00');
      await page.locator('[data-testid="purchase-batches"] .ant-table-row').first().waitFor();
      await addBatch('100', '9.9', '500.00');
      const confirm = page.locator('.ant-modal-confirm');
      await confirm.waitFor();
      expect(await confirm.innerText()).toContain('9.9');
      await confirm.locator('.ant-btn-primary').click();
      await expect.poll(() => page.locator('[data-testid="purchase-batches"] .ant-table-row').count()).toBe(2);
      // An invoice within the payments (1490.00).
      await page.locator('[data-testid="purchase-add-invoice"]').click();
      await modal().locator('[data-testid="invoice-company"]').fill('Acme');
      await modal().locator('[data-testid="invoice-amount"]').fill('1490.00');
      await modal().locator('[data-testid="invoice-number"]').fill(`INV-${l.tag}`);
      await ok();
      await page.locator('[data-testid="purchase-invoices"] .ant-table-row').first().waitFor();
      await noDialog();
      await screenshot(page, `erp-purchase-drawer-${l.lang}`);
      await page.locator('.ant-drawer-close').click();

      // Approved: unaudited to audited.
      await row('erp-purchases', orderNo).locator('[data-testid="purchase-audit"]').click();
      await page.locator('.ant-popconfirm .ant-btn-primary, .ant-popover .ant-btn-primary, .ant-modal-confirm .ant-btn-primary').first().click();
      await row('erp-purchases', orderNo).getByText(tx.purchase.audits['2'], { exact: true }).waitFor();
      await noDialog();
      await screenshot(page, `erp-purchase-${l.lang}`);

      // A product in stock, then a sales record of it shipped.
      const product = await callApi(page, server.url, '/Erp/ProductSave', { ModelName: `Y6-${l.tag}`, Colour: 1 });
      await callApi(page, server.url, '/Erp/StockRecordInsert', { Kind: 2, ItemId: product.Id, Direction: 1, Quantity: 10, RecordDate: '2026-11-20' });
      await page.goto(`${server.url}/erp/sales`);
      await page.locator('[data-testid="erp-sales"] .ant-table').waitFor({ timeout: 30_000 });
      await page.locator('[data-testid="erp-sale-add"]').click();
      await modal().locator('[data-testid="erp-sale-no"]').fill(`SO-${l.tag}`);
      await modal().locator('[data-testid="erp-sale-customer"]').fill('Clinic Ltd');
      await pick('erp-sale-product', `Y6-${l.tag}`);
      await numberInput('erp-sale-quantity').fill('4');
      await modal().locator('[data-testid="erp-sale-price"]').fill('299.00');
      await modal().locator('[data-testid="erp-sale-receivable"]').fill('1196.00');
      await modal().locator('[data-testid="erp-sale-actual"]').fill('1196.00');
      await ok();
      await row('erp-sales', `SO-${l.tag}`).waitFor();
      await row('erp-sales', `SO-${l.tag}`).locator('[data-testid="erp-sale-ship"]').click();
      await modal().locator('[data-testid="ship-tracking"]').fill('SF1234567890');
      await pick('ship-warehouse', l.store);
      await modal().locator('[data-testid="ship-recipient"]').fill('Li Lei');
      await modal().locator('[data-testid="ship-phone"]').fill('13800000000');
      await modal().locator('[data-testid="ship-address"]').fill('Nanshan, Shenzhen');
      await ok();
      await row('erp-sales', `SO-${l.tag}`).getByText(tx.sale.shipStates['3'], { exact: true }).waitFor();
      await expect.poll(async () => (await callApi(page, server.url, '/Erp/ProductList', { Keyword: `Y6-${l.tag}` })).Items[0].Stock).toBe(6);
      await noDialog();
      await screenshot(page, `erp-sales-${l.lang}`);

      // The other ERP pages open directly.
      for (const [url, id] of [['/erp/materials', 'erp-materials'], ['/erp/products', 'erp-products'], ['/erp/productRecords', 'erp-records-2']] as const) {
        await page.goto(`${server.url}${url}`);
        await page.locator(`[data-testid="${id}"] .ant-table`).waitFor({ timeout: 30_000 });
      }
      await screenshot(page, `erp-product-records-${l.lang}`);
      // Reports: the receivables of the shipped sale, and the stock chart drawn.
      await page.goto(`${server.url}/erp/reports`);
      await page.locator('[data-testid="report-stock"] .ant-table-row').first().waitFor({ timeout: 30_000 });
      await page.locator('canvas').first().waitFor();
      await expect.poll(() => page.locator('.ant-spin-spinning, .ant-spin-blur').count()).toBe(0);
      await screenshot(page, `erp-reports-${l.lang}`);
      await page.getByRole('tab', { name: reportsTab }).click();
      await page.locator('[data-testid="report-receivables"] .ant-table-row', { hasText: 'Clinic Ltd' }).waitFor();
      expect(errors).toEqual([]);
    }, 180_000);
  }
});
