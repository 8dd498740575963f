// Master-slave binding in a real browser, in one logged-in page, first in Chinese then in English:
// the page opened directly, a tag bound to a watch through the dialog, the watch's scan hearing it
// (the HTTP uplink), then the tag no longer heard: the separation alarm pops up and the list shows
// the tag separated. Screenshots land in e2e/screenshots/.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { root, screenshot, type ServerProcess } from './harness.js';
import { modal as modalOf, uplink } from './position.js';
import { callApi, consoleSession, switchLanguage } from './console.js';

const texts = (lang: string) => JSON.parse(readFileSync(path.join(root, 'web/src/i18n/locales', lang, 'bind.json'), 'utf8')) as Record<string, any>;
const LANGS = [
  { lang: 'zh-CN', imei: '865000000000010', mac: 'AC:23:3F:E2:00:01', name: 'E2E 书包' },
  { lang: 'en', imei: '865000000000011', mac: 'AC:23:3F:E2:00:02', name: 'E2E school bag' },
] as const;

const session = consoleSession({}, { timezoneId: 'Asia/Shanghai' });
let page: Page;
let server: ServerProcess;
let errors: string[];
let token = '';

beforeAll(async () => {
  ({ page, server, errors } = session);
  token = (await callApi(page, server.url, '/Integration/Save', { Name: 'e2e-bind' })).Token;
});

const modal = () => modalOf(page);

/** The watch reports the beacons it hears (simple device JSON over the HTTP uplink). */
const hears = (imei: string, mac: string) => uplink(session, 'e2e-bind', token, { imei, beacons: [{ mac, rssi: -62 }] });

describe.each(LANGS)('master-slave binding in $lang', (l) => {
  const tx = texts(l.lang);
  it('binds a tag to a watch, and the separation alarm comes when it is no longer heard', async () => {
    // A retry finds the console in English already.
    if (l.lang === 'en' && (await page.locator('html[lang="en"]').count()) === 0) await switchLanguage(page, 'zh-CN', 'en');
    const stale = ((await callApi(page, server.url, '/Bluetooth/allMasterSlaveList', { Keyword: l.imei })).Items as { BindingId: number }[]).map((b) => b.BindingId);
    if (stale.length) await callApi(page, server.url, '/Bluetooth/updateMasterSlaveDel', { BindingIds: stale });
    await page.goto(`${server.url}/position/bindBeacon`);
    await page.locator('[data-testid="bind-table"] .ant-table').waitFor({ timeout: 30_000 });
    await page.locator('[data-testid="add-binding"]').click();
    await modal().locator('[data-testid="bind-master"]').click();
    await page.keyboard.type(l.imei);
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: l.imei }).first().click();
    await modal().locator('[data-testid="bind-slave-mac-0"]').fill(l.mac);
    await modal().locator('[data-testid="bind-slave-name-0"]').fill(l.name);
    await modal().locator('input[data-testid="bind-timeout"], [data-testid="bind-timeout"] input').first().fill('10');
    await screenshot(page, `bind-dialog-${l.lang}`);
    await modal().locator('.ant-modal-footer .ant-btn-primary').click();
    await modal().waitFor({ state: 'hidden', timeout: 15_000 });

    // The watch hears the tag: near.
    await hears(l.imei, l.mac);
    const tag = page.locator(`[data-testid="slave-${l.mac}"]`);
    await expect.poll(async () => (await tag.count()) && tag.innerText(), { timeout: 20_000 }).toContain(tx.near);
    // Then no more: separated after 10 s, the alarm pops up on the console.
    const separated = (JSON.parse(readFileSync(path.join(root, 'contract/src/messages', `${l.lang}.json`), 'utf8')) as { alarm: { msg: { slaveSeparated: string } } }).alarm.msg.slaveSeparated
      .replace('{{slave}}', l.name)
      .replace('{{seconds}}', '10');
    const note = page.locator('.ant-notification-notice', { has: page.locator('.wt-alarm-note[data-alarm-type="62"]') }).filter({ hasText: separated });
    await note.first().waitFor({ timeout: 40_000 });
    await expect.poll(async () => tag.innerText(), { timeout: 20_000 }).toContain(tx.separated);
    // The pop-up has finished sliding in.
    await note.first().evaluate((el) => Promise.all(el.getAnimations({ subtree: true }).map((a) => a.finished)));
    await screenshot(page, `bind-separated-${l.lang}`);
    for (const close of await page.locator('.ant-notification-notice-close').all()) await close.click({ timeout: 2_000 }).catch(() => undefined);
    expect(errors).toEqual([]);
  });
});
