import { startServer, launchBrowser, newContext } from './harness';
import { login } from './console';

const pages: [string, string][] = [
  ['/devices/roles', 'roles'],
  ['/devices/integrations', 'integrations'],
  ['/model/list', 'model-list'],
  ['/model/protocol', 'model-protocol'],
  ['/model/command', 'model-command'],
  ['/alarm/rule', 'alarm-rule'],
  ['/push/pushlist', 'push'],
];
const out = '/tmp/pshots';
const server = await startServer();
const browser = await launchBrowser();
try {
  for (const lang of ['zh-CN', 'en']) {
    const ctx = await newContext(browser, { locale: lang });
    const page = await ctx.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`${m.type()}: ${m.text().slice(0, 300)}`); });
    for (const [route, name] of pages) {
      const tab = await ctx.newPage();
      tab.on('pageerror', (e) => errors.push(`${route}: ${e.message}`));
      tab.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') errors.push(`${route} ${m.type()}: ${m.text().slice(0, 300)}`); });
      await login(tab, server.url, lang);
      await tab.goto(`${server.url}${route}`);
      await tab.locator('.ant-table-row').first().waitFor({ timeout: 30_000 }).catch(() => errors.push(`${route}: no rows`));
      await tab.waitForTimeout(500);
      await tab.screenshot({ path: `${out}/${name}-${lang}.png` });
      if (name === 'roles') {
        await tab.locator('[data-testid="add-role"]').click();
        const dialog = tab.locator('.ant-modal:visible');
        await dialog.waitFor();
        await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
        await dialog.locator('.ant-form-item-explain-error').first().waitFor();
        await tab.waitForTimeout(400);
        await tab.screenshot({ path: `${out}/roles-dialog-errors-${lang}.png` });
        await dialog.locator('.ant-modal-footer .ant-btn:not(.ant-btn-primary)').click();
        await dialog.waitFor({ state: 'hidden' });
        await tab.locator('.ant-table-row').first().locator('button', { hasText: lang === 'en' ? 'Delete' : '删除' }).click();
        await tab.locator('.ant-popover:visible').waitFor();
        await tab.waitForTimeout(300);
        await tab.screenshot({ path: `${out}/roles-confirm-${lang}.png` });
        await tab.locator('.ant-popover:visible .ant-btn:not(.ant-btn-primary)').click();
        // Edit: the dialog opens filled.
        await tab.locator('.ant-table-row').first().locator('button', { hasText: lang === 'en' ? 'Edit' : '编辑' }).click();
        await tab.locator('.ant-modal:visible').waitFor();
        await tab.waitForTimeout(400);
        await tab.screenshot({ path: `${out}/roles-edit-${lang}.png` });
      }
      if (name === 'model-list') {
        await tab.locator('.ant-table-row').first().locator('button', { hasText: lang === 'en' ? 'Edit' : '编辑' }).click();
        await tab.locator('.ant-modal:visible').waitFor();
        await tab.waitForTimeout(600);
        await tab.screenshot({ path: `${out}/model-edit-${lang}.png` });
      }
      await tab.close();
    }
    console.log(lang, 'errors:', JSON.stringify(errors, null, 1));
    await ctx.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
