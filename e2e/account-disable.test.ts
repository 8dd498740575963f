// Disabling an account from the accounts page in a real browser, against a real server process, in
// one logged-in page (the demo administrator): the row's Disable asks first, the account shows as
// disabled and its open session is refused at once, Enable lets it log in again.
import { describe, expect, it } from 'vitest';
import { callApi, consoleSession, open } from './console.js';

const session = consoleSession();
const NAME = 'e2eoff';

async function api(path: string, body: unknown, token?: string) {
  const res = await fetch(`${session.server.url}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return (await res.json()) as Record<string, any>;
}

describe('disabling an account', () => {
  it('disables a sub-account from its row, ending its session, and enables it again', async () => {
    const { page, server } = session;
    const made = await callApi(page, server.url, '/user/registerNewUser', { LoginName: NAME, Password: 'abc123', AccountKind: 'user', UserType: 1 });
    expect(made.State).toBe(200);
    const login = await api('/User/Login', { LoginName: NAME, Password: 'abc123' });
    expect(login.State).toBe(0);
    const token = login.AccessToken as string;

    await open(page, '/account/accounts');
    const row = page.locator('[data-testid="accounts-table"] tr', { has: page.locator(`[data-testid="account-row-${NAME}"]`) });
    await row.waitFor({ timeout: 30_000 });
    await row.locator(`[data-testid="disable-${NAME}"]`).click();
    await page.locator('.ant-popover:visible .ant-popconfirm-buttons .ant-btn-primary').click();
    await row.locator(`[data-testid="account-disabled-${NAME}"]`).waitFor({ timeout: 15_000 });
    expect((await api('/User/UserInfo', { UserId: login.Item.UserId }, token)).State).toBe(1100);
    expect((await api('/User/Login', { LoginName: NAME, Password: 'abc123' })).Message).toBe('auth.accountDisabled');

    await row.locator(`[data-testid="disable-${NAME}"]`).click();
    await row.locator(`[data-testid="account-disabled-${NAME}"]`).waitFor({ state: 'detached', timeout: 15_000 });
    expect((await api('/User/Login', { LoginName: NAME, Password: 'abc123' })).State).toBe(0);
    // Its own row has no such action: the administrator's account is not in its children table.
    expect(await page.locator('[data-testid="disable-admin"]').count()).toBe(0);
    expect(session.errors).toEqual([]);
  });
});
