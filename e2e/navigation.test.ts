// Moving around the console as a user does: reloading after the access token has expired keeps
// the session (the tokens are renewed on start-up), and every menu click shows its feedback in the
// first frame after the click, however long the page then takes to render. The access token lives
// 8 s here, so the whole file runs on renewed tokens.
import { describe, expect, it } from 'vitest';
import { callApi, consoleSession, login, switchLanguage } from './console.js';
import { screenshot } from './harness.js';

const s = consoleSession({ ACCESS_TOKEN_TTL: '8' });

describe('moving around the console', () => {
  it('a reload after the access token has expired keeps the user logged in, on the same page', async () => {
    const { page, server } = s;
    await page.goto(`${server.url}/devices/list`);
    await page.locator('.ant-menu').first().waitFor();
    const first = await page.evaluate(() => sessionStorage.getItem('wt.token'));
    const refreshToken = await page.evaluate(() => sessionStorage.getItem('wt.refreshToken'));
    // Until the server refuses the token the page started with.
    await expect
      .poll(async () => (await fetch(`${server.url}/api/User/UserInfo`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${first}` }, body: '{}' })).status, {
        timeout: 30_000,
        interval: 500,
      })
      .toBe(401);
    await page.reload();
    await page.locator('.ant-menu').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/devices/list');
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('wt.refreshToken'))).not.toBe(refreshToken);
    // The renewed token is good for the server.
    const userId = Number(await page.evaluate(() => sessionStorage.getItem('wt.userId')));
    expect((await callApi(page, server.url, '/User/UserInfo', { UserId: userId })).State).toBe(200);
    await page.locator('.ant-table-row').first().waitFor({ timeout: 30_000 });
    expect(s.errors).toEqual([]);
  });

  it('every menu click shows the progress bar in the first frame after the click', async () => {
    const { page } = s;
    // Each click: the frames painted after it, whether the progress bar was in them, until the
    // page's tag is the active one.
    await page.evaluate(() => {
      const w = window as unknown as { __clicks: { at: number; frames: { t: number; bar: boolean }[] }[] };
      if (w.__clicks) return void (w.__clicks = []);
      w.__clicks = [];
      document.addEventListener(
        'click',
        (ev) => {
          if (!(ev.target as Element).closest('.ant-menu-item')) return;
          const rec = { at: ev.timeStamp, frames: [] as { t: number; bar: boolean }[] };
          w.__clicks.push(rec);
          const tick = (t: number) => {
            rec.frames.push({ t, bar: !!document.querySelector('[data-testid="nav-progress"]') });
            if (rec.frames.length < 30) requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        },
        true,
      );
    });
    const items = page.locator('.ant-menu-root > .ant-menu-item');
    const paths: string[] = [];
    const total = await items.count();
    for (let i = 0; i < total && paths.length < 6; i++) {
      const item = items.nth(i);
      if ((await item.getAttribute('class'))?.includes('ant-menu-item-selected')) continue;
      await item.click();
      await expect.poll(() => item.getAttribute('class')).toContain('ant-menu-item-selected');
      const path = new URL(page.url()).pathname;
      paths.push(path);
      await page.locator(`.wt-tags .wt-tag.active[href="${path}"]`).waitFor({ timeout: 30_000 });
      await page.locator('[data-testid="nav-progress"]').waitFor({ state: 'detached', timeout: 30_000 });
      if (paths.length === 1) await screenshot(page, 'navigation-after-click-zh-CN');
    }
    const count = paths.length;
    const clicks = await page.evaluate(() => (window as unknown as { __clicks: { at: number; frames: { t: number; bar: boolean }[] }[] }).__clicks);
    expect(clicks.length).toBe(count);
    expect(new Set(paths).size).toBeGreaterThan(1);
    const firstFrames = clicks.map((c) => ({ bar: c.frames[0]?.bar ?? false, ms: Math.round((c.frames[0]?.t ?? Infinity) - c.at) }));
    console.log(`menu clicks to the first frame: ${paths.map((p, i) => `${p} ${firstFrames[i]!.ms} ms${firstFrames[i]!.bar ? '' : ' (no bar)'}`).join(', ')}`);
    expect(firstFrames.map((f) => f.bar)).toEqual(clicks.map(() => true));
    expect(s.errors).toEqual([]);
  });

  it('an account whose set leaves out the monitor lands on its first page, and the 404 page leads back there', async () => {
    const { page, server } = s;
    // Names of their own on every attempt (a failed attempt is run once more on the same server).
    const tag = Date.now().toString(36);
    // The console renews its 8-second token only when it needs one: these calls log in themselves.
    const token = ((await (await fetch(`${server.url}/api/User/Login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ LoginName: 'admin', Password: 'admin123' }) })).json()) as { AccessToken: string }).AccessToken;
    const adminCall = async (path: string, body: unknown) =>
      (await (await fetch(`${server.url}/api${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify(body) })).json()) as { State: number; Item: { Id: number } };
    const set = await adminCall('/user/InsertRoleInfo', { Key: `no-monitor-${tag}`, Name: 'No monitor', Description: '', Routes: ['/alarm/record', '/devices/list'], Actions: [] });
    expect(set.State, JSON.stringify(set)).toBe(200);
    const account = await adminCall('/user/registerNewUser', { LoginName: `nomonitor${tag}`, Password: 'WtLanding2026', PermissionId: set.Item.Id, UserType: 1 });
    expect(account.State, JSON.stringify(account)).toBe(200);
    await page.evaluate(() => sessionStorage.clear());
    await login(page, server.url, 'zh-CN', `nomonitor${tag}`, 'WtLanding2026');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/devices/list');
    await page.locator('.ant-table').first().waitFor();
    await screenshot(page, 'landing-without-monitor-zh-CN');
    // The home path and the 404 page's way back both lead to the first page the set opens.
    await page.goto(`${server.url}/`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/devices/list');
    await switchLanguage(page, 'zh-CN', 'en');
    await page.goto(`${server.url}/nowhere`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/404');
    await screenshot(page, 'not-found-en');
    await page.getByRole('button', { name: 'Back to home' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/devices/list');
    await page.locator('.ant-menu').first().waitFor();
    await screenshot(page, 'landing-without-monitor-en');
    expect(s.errors).toEqual([]);
  });
});
