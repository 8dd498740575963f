// The device list's export in a real browser: the button posts the search, the table's column
// filters and its sort, the download arrives as a spreadsheet with every matching device in the
// table's order and column titles in the console's language, and the console says how many rows
// came. Screenshots land in e2e/screenshots/.
import ExcelJS from 'exceljs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot, startServer, watchErrors, type ServerProcess } from './harness.js';
import { callApi, login, open } from './console.js';

let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('device export', () => {
  it('downloads every matching device in the order of the table, in English', async () => {
    const ctx = await newContext(browser, { locale: 'en' });
    const page = await ctx.newPage();
    const errors = watchErrors(page);
    await login(page, server.url, 'en');
    await open(page, '/devices/list');
    const table = page.locator('[data-testid="device-table"]');
    await table.locator('.ant-table-row').first().waitFor();
    // Sort by IMEI, ascending (the column's first click).
    await table.locator('th', { hasText: 'IMEI' }).click();
    await expect.poll(async () => (await table.locator('.ant-table-row').first().innerText()).includes('865000000000001')).toBe(true);
    const total = (await callApi<{ Total: number }>(page, server.url, '/Device/devicesByUserId', { PageNo: 1, PageCount: 1 })).Total;

    const download = page.waitForEvent('download');
    await page.locator('[data-testid="export-devices"]').click();
    const file = await (await download).path();
    await page.locator('[data-testid="export-done"]', { hasText: `Exported ${total} rows` }).waitFor();
    await screenshot(page, 'devices-export-en');

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Devices');
    expect(ws.rowCount).toBe(total + 1);
    expect((ws.getRow(1).values as unknown[]).slice(1, 5)).toEqual(['IMEI', 'Name', 'Model', 'Account']);
    expect(ws.getRow(2).getCell(1).value).toBe('865000000000001');
    expect(ws.getRow(3).getCell(1).value).toBe('865000000000002');
    expect(errors).toEqual([]);
    await ctx.close();
  });
});
