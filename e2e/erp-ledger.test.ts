// The ERP's stock ledger documents in a real browser, in one logged-in page, first in Chinese and
// then in English: a supplier added, a purchase order of 100 of a product with its supplier and a
// line (line and order totals shown), approved, received in two parts into Shenzhen (60, then the
// 40 that remain), 20 moved to Shanghai (the source's stock shown in the dialog), the receipts
// listed, and the stock at today's end per warehouse: Shenzhen 80, Shanghai 20.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { root, screenshot, type ServerProcess } from './harness.js';
import { callApi, consoleSession, switchLanguage } from './console.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- locale files are read as loose trees
const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'erp.json'), 'utf8')) as Record<string, any>;
const LANGS = [
  { lang: 'zh-CN', tag: 'CN', shenzhen: '深圳', shanghai: '上海' },
  { lang: 'en', tag: 'EN', shenzhen: 'Shenzhen', shanghai: 'Shanghai' },
] as const;

const session = consoleSession();
let server: ServerProcess;
let page: Page;
let errors: string[];
beforeAll(() => void ({ server, page, errors } = session));

const modal = () => page.locator('.ant-modal-wrap:visible .ant-modal').last();
const ok = () => modal().locator('.ant-modal-footer .ant-btn-primary').click();
const numberInput = (testId: string) => modal().locator(`input[data-testid="${testId}"], [data-testid="${testId}"] input`).first();
const noDialog = () => expect.poll(() => page.locator('.ant-modal-wrap:visible').count()).toBe(0);
const row = (table: string, text: string) => page.locator(`[data-testid="${table}"] .ant-table-row`, { hasText: text });

async function pick(testId: string, option: string) {
  await modal().locator(`[data-testid="${testId}"]`).click();
  try {
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click({ timeout: 10_000 });
  } catch (e) {
    await screenshot(page, `pick-fail-${testId}`);
    throw e;
  }
  // Until the list has gone (a screenshot shows the form, the next pick opens its own list).
  await expect.poll(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
}

describe.sequential('ERP ledger documents in the browser', () => {
  for (const l of LANGS) {
    it(`orders, receives in two parts, transfers and reads the stock at a date (${l.lang})`, async () => {
      if (l.lang === 'en') await switchLanguage(page, 'zh-CN', 'en');
      const tx = texts(l.lang);
      const supplier = `Supplier-${l.tag}`;
      const product = `W9-${l.tag}`;
      const orderNo = `PO-L-${l.tag}`;
      await callApi(page, server.url, '/Erp/ProductSave', { ModelName: product, Colour: 1 });

      // A supplier in the master data.
      await page.goto(`${server.url}/erp/suppliers`);
      await page.locator('[data-testid="erp-suppliers"] .ant-table').waitFor({ timeout: 30_000 });
      await page.locator('[data-testid="party-add"]').click();
      await modal().locator('[data-testid="party-name"]').fill(supplier);
      await ok();
      await row('erp-suppliers', supplier).waitFor();

      // An order of 100 at 12.50 from it: the line's total and the order's follow.
      await page.goto(`${server.url}/erp/purchase`);
      await page.locator('[data-testid="erp-purchases"] .ant-table').waitFor({ timeout: 30_000 });
      await page.locator('[data-testid="purchase-add"]').click();
      await modal().locator('[data-testid="purchase-order-no"]').fill(orderNo);
      await modal().locator('[data-testid="purchase-po-no"]').fill(`CG-${orderNo}`);
      await pick('purchase-supplier', supplier);
      await modal().locator('[data-testid="purchase-content"]').fill(l.lang === 'en' ? 'Watches' : '手表');
      await modal().locator('[data-testid="line-add"]').click();
      await pick('line-item', product);
      await numberInput('line-quantity').fill('100');
      await modal().locator('[data-testid="line-price"]').fill('12.5');
      await expect.poll(() => modal().locator('[data-testid="line-total"]').innerText()).toBe('1250.00');
      await expect.poll(() => modal().locator('[data-testid="order-total"]').innerText()).toContain('1250.00');
      await expect.poll(() => modal().locator('[data-testid="purchase-amount"]').inputValue()).toBe('1250.00');
      await screenshot(page, `erp-ledger-order-${l.lang}`);
      await ok();
      await row('erp-purchases', orderNo).waitFor();
      expect(await row('erp-purchases', orderNo).innerText()).toContain(supplier);

      // Approved (a batch first: an order is audited with one), then received: 60, then the 40 left.
      const order = (await callApi(page, server.url, '/Erp/PurchaseList', { Keyword: orderNo })).Items[0];
      await callApi(page, server.url, '/Erp/PurchaseBatchSave', { OrderId: order.Id, BatchDate: '2026-11-20', Quantity: 100, UnitPrice: '12.5', AmountPaid: '1250' });
      await row('erp-purchases', orderNo).locator('[data-testid="purchase-audit"]').click();
      await page.locator('.ant-popconfirm .ant-btn-primary, .ant-popover .ant-btn-primary, .ant-modal-confirm .ant-btn-primary').first().click();
      await row('erp-purchases', orderNo).getByText(tx.purchase.audits['2'], { exact: true }).waitFor();
      await noDialog();
      await row('erp-purchases', orderNo).locator('[data-testid="purchase-receive"]').click();
      await expect.poll(() => modal().locator('[data-testid="line-remaining"]').innerText()).toBe('100');
      await numberInput('receipt-quantity').fill('60');
      await pick('receipt-warehouse', l.shenzhen);
      await screenshot(page, `erp-ledger-receive-${l.lang}`);
      await ok();
      await noDialog();
      await expect.poll(async () => (await callApi(page, server.url, '/Erp/PurchaseList', { Keyword: orderNo })).Items[0].Lines[0].Received).toBe(60);
      await row('erp-purchases', orderNo).locator('[data-testid="purchase-receive"]').click();
      await expect.poll(() => modal().locator('[data-testid="line-remaining"]').innerText()).toBe('40');
      expect(await numberInput('receipt-quantity').inputValue()).toBe('40');
      await pick('receipt-warehouse', l.shenzhen);
      await ok();
      await noDialog();
      // Nothing remains: no more "receive".
      await expect.poll(() => row('erp-purchases', orderNo).locator('[data-testid="purchase-receive"]').count()).toBe(0);

      // The receipts listed.
      await page.goto(`${server.url}/erp/receipts`);
      await expect.poll(() => row('erp-receipts', orderNo).count(), { timeout: 30_000 }).toBe(2);
      expect(await row('erp-receipts', orderNo).first().innerText()).toContain(`${product} × 40`);
      await screenshot(page, `erp-ledger-receipts-${l.lang}`);

      // 20 moved from Shenzhen to Shanghai; the dialog shows the 100 Shenzhen holds.
      await page.goto(`${server.url}/erp/transfers`);
      await page.locator('[data-testid="erp-transfers"] .ant-table').waitFor({ timeout: 30_000 });
      await page.locator('[data-testid="transfer-add"]').click();
      await pick('transfer-item', product);
      await pick('transfer-from', l.shenzhen);
      await expect.poll(() => modal().locator('[data-testid="transfer-available"]').innerText()).toContain('100');
      await pick('transfer-to', l.shanghai);
      await numberInput('transfer-quantity').fill('20');
      await screenshot(page, `erp-ledger-transfer-${l.lang}`);
      await ok();
      await row('erp-transfers', product).waitFor();
      await noDialog();

      // The stock at today's end, per warehouse.
      await page.goto(`${server.url}/erp/stockAt`);
      const cell = (w: string) => page.locator(`[data-testid="stock-cell"][data-item="${product}"][data-warehouse="${w}"]`);
      await cell(l.shenzhen).waitFor({ timeout: 30_000 });
      expect(await cell(l.shenzhen).innerText()).toBe('80');
      expect(await cell(l.shanghai).innerText()).toBe('20');
      expect(await row('stock-at', product).innerText()).toContain('100');
      await screenshot(page, `erp-ledger-stock-at-${l.lang}`);
      expect(errors).toEqual([]);
    }, 180_000);
  }
});
