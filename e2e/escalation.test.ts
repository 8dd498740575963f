// The escalation policy page in a real browser, in one logged-in page: the administrator opens
// /alarm/escalation by its address in a new tab, chooses agent01 and sees the demo SOS policy (the
// console at once, the first contact's SMS at 1 minute, the second contact and the parent at 3, every
// 5 minutes at most 6 times), changes a step's wait, saves, and sees it reloaded; in Chinese, then
// in English. Screenshots land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ALARM_CODES } from '@wt/contract';
import { describe, expect, it } from 'vitest';
import { root, screenshot } from './harness.js';
import { callApi, cjkTexts, consoleSession, freshTab, pickAccount, switchLanguage } from './console.js';

type Texts = Record<'atOnce' | 'after' | 'contactN' | 'listSeparator' | 'parent' | 'repeatText' | 'own', string> & { channel: Record<string, string> };
const texts = (lang: string) => (JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'alarm.json'), 'utf8')) as { escalation: Texts }).escalation;
const zh = texts('zh-CN');
const en = texts('en');
const s = consoleSession();
const SOS = ALARM_CODES.sos;

const sosRow = (p: Page) => p.locator('[data-testid="escalation-table"] tr.ant-table-row', { has: p.locator(`[data-testid="escalation-edit-${SOS}"]`) });
const stepsOf = async (p: Page) => (await sosRow(p).locator('[data-testid="escalation-steps"] li').allInnerTexts()).map((x) => x.trim());

describe('escalation policies', () => {
  it('shows the demo SOS policy of agent01, edits a step and saves it, in Chinese and English', async () => {
    const { tab: page, errors } = await freshTab(s.page, s.server.url, '/alarm/escalation');
    await page.locator('[data-testid="escalation-table"] tr.ant-table-row').first().waitFor({ timeout: 30_000 });
    await pickAccount(page, 'escalation-account', 'agent01');
    await sosRow(page).locator('[data-testid="escalation-steps"]').waitFor({ timeout: 20_000 });
    expect(await stepsOf(page)).toEqual([
      `${zh.atOnce} · ${zh.channel.console}`,
      `${zh.after.replace('{{count}}', '1')} · ${zh.contactN.replace('{{n}}', '1')} · ${zh.channel.sms}`,
      `${zh.after.replace('{{count}}', '3')} · ${zh.contactN.replace('{{n}}', '2')}${zh.listSeparator}${zh.parent} · ${zh.channel.sms}${zh.listSeparator}${zh.channel.console}`,
    ]);
    await expect(sosRow(page).innerText()).resolves.toContain(zh.repeatText.replace('{{minutes}}', '5').replace('{{cap}}', '6'));
    await expect(sosRow(page).innerText()).resolves.toContain(zh.own);
    await screenshot(page, 'escalation-zh-CN');

    // The second step waits 2 minutes instead of 1.
    await page.locator(`[data-testid="escalation-edit-${SOS}"]`).click();
    const form = page.locator('[data-testid="escalation-form"]');
    await form.waitFor();
    await expect(form.locator('[data-testid="escalation-step"]').count()).resolves.toBe(3);
    const wait = form.locator('[data-testid="step-wait-1"] input, input[data-testid="step-wait-1"]').first();
    await wait.fill('2');
    await screenshot(page, 'escalation-edit-zh-CN');
    await page.locator('.ant-modal-footer .ant-btn-primary').click();
    await form.waitFor({ state: 'detached' });
    await expect.poll(() => stepsOf(page), { timeout: 15_000 }).toContain(`${zh.after.replace('{{count}}', '2')} · ${zh.contactN.replace('{{n}}', '1')} · ${zh.channel.sms}`);
    const agent = (await callApi<{ Items: { UserId: number; LoginName: string }[] }>(page, s.server.url, '/user/allChildrenUsers', {})).Items.find((a) => a.LoginName === 'agent01');
    const saved = await callApi<{ Own: { Steps: { Wait: number }[]; RepeatMinutes: number; RepeatCap: number } }>(page, s.server.url, '/Escalation/Get', { UserId: agent?.UserId, AlarmType: SOS });
    expect(saved.Own.Steps.map((x) => x.Wait)).toEqual([0, 2, 3]);
    expect([saved.Own.RepeatMinutes, saved.Own.RepeatCap]).toEqual([5, 6]);

    // The same page in English: no Chinese text left outside user data.
    await switchLanguage(page, 'zh-CN', 'en');
    await expect.poll(() => stepsOf(page), { timeout: 15_000 }).toEqual([
      `${en.atOnce} · ${en.channel.console}`,
      `${en.after.replace('{{count}}', '2')} · ${en.contactN.replace('{{n}}', '1')} · ${en.channel.sms}`,
      `${en.after.replace('{{count}}', '3')} · ${en.contactN.replace('{{n}}', '2')}${en.listSeparator}${en.parent} · ${en.channel.sms}${en.listSeparator}${en.channel.console}`,
    ]);
    expect(await cjkTexts(page, '[data-testid="escalation-table"]')).toEqual([]);
    await screenshot(page, 'escalation-en');
    expect(errors).toEqual([]);
  }, 180_000);
});
