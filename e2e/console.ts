// Steps shared by the console's browser tests.
import type { Page } from 'playwright-core';

/** Logs in through the login form (the demo administrator unless told otherwise), in a console language. */
export async function login(page: Page, url: string, lang = 'zh-CN', name = 'admin', password = 'admin123') {
  // Only a first visit gets the language: a later switch in the console is remembered across reloads.
  await page.addInitScript((l) => {
    if (!localStorage.getItem('wt.locale')) localStorage.setItem('wt.locale', l);
  }, lang);
  await page.goto(`${url}/login`);
  await page.locator('input[autocomplete="username"]').fill(name);
  await page.locator('input[autocomplete="current-password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'), { timeout: 20_000 });
  await page.locator('.ant-menu').first().waitFor();
}

/**
 * Client-side navigation, so kept-alive pages stay as they are. Waits until the shell shows the page
 * (its tag is the active one); pages load lazily, and a navigation issued while another page was
 * still loading can be superseded, so it is issued once more if the page has not come.
 */
export async function open(page: Page, to: string) {
  const go = () =>
    page.evaluate((p) => {
      window.history.pushState({}, '', p);
      window.dispatchEvent(new PopStateEvent('popstate'));
    }, to);
  const active = page.locator(`.wt-tags .wt-tag.active[href="${to}"]`);
  await go();
  try {
    await active.waitFor({ timeout: 15_000 });
  } catch {
    await go();
    await active.waitFor({ timeout: 30_000 });
  }
}

/**
 * Clears whatever dialog or drop-down an earlier step left open (a failed attempt, before its retry),
 * so the next step starts from the page itself: the page is loaded again (the session survives).
 */
export async function closeOverlays(page: Page) {
  const overlays = page.locator('.ant-modal-wrap:visible, .ant-select-dropdown:visible, .ant-popover:visible');
  if ((await overlays.count()) === 0) return;
  await page.reload();
  await page.locator('.ant-menu').first().waitFor({ timeout: 30_000 });
}

/** Calls the API with the session token the console holds. */
export async function callApi<T = any>(page: Page, url: string, path: string, body: unknown): Promise<T> {
  const token = await page.evaluate(() => sessionStorage.getItem('wt.token'));
  const res = await fetch(`${url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  return (await res.json()) as T;
}
