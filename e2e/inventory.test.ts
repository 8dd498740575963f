// Inventory in a real browser against a real server process, in one logged-in page, first in
// Chinese and then in English: each page opened directly by its URL; a stock-in batch from an Excel
// workbook (one row refused and reported), part of it sold from the stock list to the agent's
// account, where the devices are found unbound; the sales list shows the sale. Screenshots of each
// page in both languages land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { root, screenshot, type ServerProcess } from './harness.js';
import { callApi, consoleSession, pickAccount, switchLanguage } from './console.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- locale files are read as loose trees
const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'inventory.json'), 'utf8')) as Record<string, any>;

const LANGS = [
  { lang: 'zh-CN', prefix: '8671000000', store: '上海' },
  { lang: 'en', prefix: '8672000000', store: 'Shanghai' },
] as const;

const session = consoleSession();
let server: ServerProcess;
let page: Page;
let errors: string[];
beforeAll(() => void ({ server, page, errors } = session));

const modal = () => page.locator('.ant-modal-wrap:visible .ant-modal');
const imeis = (prefix: string) => Array.from({ length: 6 }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);

async function pick(testId: string, option: string) {
  await page.locator(`[data-testid="${testId}"]`).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

async function workbook(rows: string[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('IMEI');
  ws.addRow(['IMEI', 'ICCID']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe.sequential('inventory in the browser', () => {
  for (const l of LANGS) {
    it(`stocks in by Excel, sells part to a customer and finds it there (${l.lang})`, async () => {
      if (l.lang === 'en') await switchLanguage(page, 'zh-CN', 'en');
      const tx = texts(l.lang);
      const list = imeis(l.prefix);

      // The batch page, opened directly: a new batch from a workbook with one bad row.
      await page.goto(`${server.url}/inventory/batch`);
      await page.locator('[data-testid="inventory-batches"] .ant-table-row').first().waitFor({ timeout: 30_000 });
      await screenshot(page, `inventory-batch-${l.lang}`);
      await page.locator('[data-testid="batch-add"]').click();
      await pick('batch-model', 'Y6');
      await pick('batch-store', l.store);
      await modal().locator('[data-testid="batch-mode-excel"]').click();
      await modal()
        .locator('input[type="file"]')
        .setInputFiles({ name: 'stock.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await workbook([...list.map((i, n) => [i, `89860${n}`]), ['12345', '']]) });
      await modal().locator('[data-testid="batch-submit"]').click();
      const report = modal().locator('[data-testid="batch-report"]');
      await report.waitFor();
      expect(await report.innerText()).toContain(tx.batchPage.report.replace('{{rows}}', '7').replace('{{succeeded}}', '6').replace('{{failed}}', '1'));
      await modal().locator('[data-testid="batch-refused"]').getByText('12345').waitFor();
      await screenshot(page, `inventory-batch-report-${l.lang}`);
      await modal().locator('[data-testid="batch-close"]').click();

      // The stock list, opened directly: the new IMEIs found by a list search; three of them sold.
      await page.goto(`${server.url}/inventory/list`);
      await page.locator('[data-testid="inventory-items"] .ant-table-row').first().waitFor({ timeout: 30_000 });
      await page.locator('.ant-form input').nth(3).fill(l.prefix);
      await page.locator('.ant-form button[type="submit"]').first().click();
      await expect.poll(() => page.locator('[data-testid="inventory-items"] .ant-table-row').count()).toBe(6);
      const rows = page.locator('[data-testid="inventory-items"] .ant-table-row');
      for (let i = 0; i < 3; i++) await rows.nth(i).locator('.ant-checkbox-input').check();
      await page.locator('[data-testid="sell-selected"]').click();
      await pickAccount(page, 'sale-customer', 'agent01');
      await modal().locator('.ant-modal-title').click();
      await modal().locator('.ant-modal-footer .ant-btn-primary').click();
      await page.locator('.ant-message').getByText(tx.salesPage.sold.split('{{')[0]!.trim()).first().waitFor();
      await modal().waitFor({ state: 'hidden' });
      await expect.poll(() => rows.filter({ hasText: tx.states['2'] }).count()).toBe(3);
      // The devices just sold are no longer selected.
      await expect.poll(() => page.locator('[data-testid="sell-selected"]').isDisabled()).toBe(true);
      await screenshot(page, `inventory-list-${l.lang}`);

      // The devices are in the agent's account, unbound.
      const agent = (await callApi(page, server.url, '/user/searchAccountByName', { Keyword: 'agent01' })) as { Items: { UserId: number; LoginName: string }[] };
      const agentId = agent.Items.find((a) => a.LoginName === 'agent01')!.UserId;
      const devs = await callApi(page, server.url, '/Device/devicesByUserId', { PageNo: 1, PageCount: 50, UserId: agentId, Imei: l.prefix });
      expect(devs.Items.length).toBe(3);
      expect(devs.Items.every((d: { Bound: boolean }) => !d.Bound)).toBe(true);

      // The sales list, opened directly, shows the sale.
      await page.goto(`${server.url}/inventory/sales`);
      await page.locator('[data-testid="inventory-sales"] .ant-table-row').first().waitFor({ timeout: 30_000 });
      await screenshot(page, `inventory-sales-${l.lang}`);
      expect(errors).toEqual([]);
    }, 180_000);
  }
});
