// Data retention in a real browser against a real server process, as the root account: the platform
// default saved through the platform settings page (a day count below the limit not taken by the
// field), then an override for the top-level account agent01, which its subtree follows; the
// retention job's horizon (whole days dropped past the longest retention in force) follows both. The
// page is opened by its address in a fresh tab in Chinese and English and photographed.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { RETENTION_MIN_DAYS } from '@wt/contract';
import { root, screenshot, type ServerProcess } from './harness.js';
import { callApi, cjkTexts, consoleSession, freshTab, open, pickAccount } from './console.js';

type Texts = { retention: { saved: string; days: string } };
const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'settings.json'), 'utf8')) as Texts;
const days = (lang: string, n: number) => texts(lang).retention.days.replace('{{n}}', String(n));

const session = consoleSession();
let server: ServerProcess;
let page: Page;
let errors: string[];
beforeAll(() => void ({ server, page, errors } = session));

describe('data retention, set by the root account', () => {
  const accountId = async (login: string) =>
    ((await callApi(page, server.url, '/user/searchAccountByName', { Keyword: login })) as { Items: { UserId: number; LoginName: string }[] }).Items.find((a) => a.LoginName === login)!.UserId;

  it('saves the platform default through the form, which takes no day count below the limit', { timeout: 90_000 }, async () => {
    await open(page, '/setting/platform');
    const section = page.locator('[data-testid="retention-section"]');
    await section.locator('[data-testid="retention-save"]').waitFor({ timeout: 30_000 });
    await section.scrollIntoViewIfNeeded();
    const positions = section.locator('input[data-testid="retention-Positions"]');

    // Below the limit: the field does not take it, it comes back as the limit, and nothing is saved.
    await positions.fill('3');
    await positions.press('Tab');
    await expect.poll(() => positions.inputValue()).toBe(String(RETENTION_MIN_DAYS));
    expect((await callApi(page, server.url, '/Retention/Info', {})).Own.Positions).toBeNull();

    await positions.fill('90');
    await section.locator('input[data-testid="retention-Events"]').fill('400');
    await section.locator('[data-testid="retention-save"]').click();
    await page.locator('.ant-message-success', { hasText: texts('zh-CN').retention.saved }).waitFor({ timeout: 15_000 });
    const effective = section.locator('[data-testid="retention-effective"]');
    await expect.poll(() => effective.innerText(), { timeout: 10_000 }).toContain(days('zh-CN', 90));
    expect(await effective.innerText()).toContain(days('zh-CN', 400));

    const info = await callApi(page, server.url, '/Retention/Info', {});
    expect(info).toMatchObject({ Level: 'platform', Own: { Positions: 90, Health: null, Events: 400 }, Platform: { Positions: 90, Health: 365, Events: 400 } });
    // Nobody keeps positions longer than 90 days now: the job drops whole days past them.
    expect(info.PartitionDays).toEqual({ Positions: 90, Health: 365, Events: 400 });
    expect(errors).toEqual([]);
  });

  it('gives the top-level account agent01 its own retention, which its subtree follows', { timeout: 90_000 }, async () => {
    await pickAccount(page, 'account-select', 'agent01');
    const section = page.locator('[data-testid="retention-section"]');
    // The form now shows the agent's override: empty fields follow the platform's 90 days.
    await section.locator('input[data-testid="retention-Positions"][placeholder="90"]').waitFor({ timeout: 15_000 });
    await section.scrollIntoViewIfNeeded();
    await section.locator('input[data-testid="retention-Positions"]').fill('400');
    await section.locator('input[data-testid="retention-Health"]').fill('30');
    await section.locator('[data-testid="retention-save"]').click();
    await page.locator('.ant-message-success', { hasText: texts('zh-CN').retention.saved }).last().waitFor({ timeout: 15_000 });
    const effective = section.locator('[data-testid="retention-effective"]');
    await expect.poll(() => effective.innerText(), { timeout: 10_000 }).toContain(days('zh-CN', 30));

    const agent = await callApi(page, server.url, '/Retention/Info', { UserId: await accountId('agent01') });
    expect(agent).toMatchObject({ Level: 'topLevel', TopLevelName: 'agent01', Own: { Positions: 400, Health: 30, Events: null }, Effective: { Positions: 400, Health: 30, Events: 400 } });
    // An account below the agent follows the agent's override.
    const clinic = await callApi(page, server.url, '/Retention/Info', { UserId: await accountId('clinic01') });
    expect(clinic).toMatchObject({ Level: 'below', TopLevelName: 'agent01', Effective: { Positions: 400, Health: 30, Events: 400 }, Editable: false });
    // The agent keeps positions longest: whole days now go only past its 400.
    expect(agent.PartitionDays.Positions).toBe(400);
    await screenshot(page, 'retention-agent-zh-CN');
    expect(errors).toEqual([]);
  });

  it('shows the page by its address in a fresh tab, in Chinese and English', { timeout: 90_000 }, async () => {
    for (const lang of ['zh-CN', 'en']) {
      const { tab, errors: tabErrors } = await freshTab(page, server.url, '/setting/platform', lang);
      const effective = tab.locator('[data-testid="retention-effective"]');
      await effective.waitFor({ timeout: 30_000 });
      // The root's own page: the platform default it saved.
      await expect.poll(() => effective.innerText(), { timeout: 10_000 }).toContain(days(lang, 90));
      await tab.locator('[data-testid="retention-section"]').scrollIntoViewIfNeeded();
      await tab.evaluate(async () => {
        await document.fonts.ready;
        await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      });
      await screenshot(tab, `retention-platform-${lang}`);
      if (lang === 'en') expect(await cjkTexts(tab, '[data-testid="retention-section"]')).toEqual([]);
      await tab.close();
      expect(tabErrors).toEqual([]);
    }
  });
});
