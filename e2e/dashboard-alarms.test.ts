// The dashboard's alarm statistics in a real browser, against a real server process, in one
// logged-in page (the demo administrator, zh-CN): the panel shows the last 7 days' alarm total the
// alarm report gives for the same days, with its title and acknowledge times, and draws its chart.
import { describe, expect, it } from 'vitest';
import { screenshot } from './harness.js';
import { callApi, consoleSession, open } from './console.js';

const session = consoleSession();

describe('dashboard alarm statistics', () => {
  it('shows the alarm report of the last 7 days', async () => {
    const { page, server } = session;
    await open(page, '/dashboard');
    const panel = page.locator('[data-testid="dashboard-alarm-stats"]');
    await panel.waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-testid="alarm-stats-total"]')?.textContent ?? ''), undefined, { timeout: 30_000 });
    expect(await panel.locator('.wt-dash-title').innerText()).toContain('报警统计（近 7 天）');
    const shown = Number(await panel.locator('[data-testid="alarm-stats-total"]').innerText());
    // The same figure straight from the report, for the same 7 days of the account's zone.
    const info = await callApi(page, server.url, '/User/UserInfo', {});
    const offset = Number(info.Item?.timeZoneOffset ?? info.timeZoneOffset ?? 480);
    const today = new Date(Date.now() + offset * 60_000);
    const from = new Date(today.getTime() - 6 * 86_400_000).toISOString().slice(0, 10);
    const report = await callApi(page, server.url, '/Report/Alarms', { From: from, To: today.toISOString().slice(0, 10) });
    expect(report.State).toBe(200);
    expect(shown).toBe(report.Total);
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'dashboard-alarm-stats-zh-CN');
    expect(session.errors).toEqual([]);
  });
});
