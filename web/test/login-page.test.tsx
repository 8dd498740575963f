// @vitest-environment jsdom
// The login page against a mocked server: a refused login's wait stays under the form, counted down
// with its message (new places delayed, the unlock link named) until it is over; the mailed unlock
// link's token is sent once, and the page says whether the browser is now known, filling the account.
import { StrictMode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter, Route, Routes } from 'react-router';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { polyfillDom } from './dom';

vi.mock('../src/realtime/connection', async (original) => ({
  ...(await original<typeof import('../src/realtime/connection')>()),
  browserFingerprint: () => Promise.resolve('test-browser'),
}));
const { default: LoginPage } = await import('../src/pages/login/LoginPage');

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

/** Answers each path with its entry (default: a success without an item, as the brand of a plain login page), recording what was sent. */
function server(answers: Record<string, { status: number; body: unknown }>) {
  const sent: { path: string; body: unknown }[] = [];
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    sent.push({ path, body: JSON.parse(String(init?.body ?? '{}')) });
    const a = answers[path] ?? { status: 200, body: { State: 200, Item: null } };
    return new Response(JSON.stringify(a.body), { status: a.status });
  }) as typeof fetch);
  return sent;
}

function renderAt(url: string) {
  render(
    <StrictMode>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <App>
          <MemoryRouter initialEntries={[url]}>
            <Routes>
              <Route path="/login" element={<LoginPage />} />
            </Routes>
          </MemoryRouter>
        </App>
      </QueryClientProvider>
    </StrictMode>,
  );
}

describe('login page', () => {
  it('keeps a new-place delay under the form, counted down, and clears it when the wait is over', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    server({
      '/User/Login': {
        status: 429,
        body: { State: 429, Message: 'auth.tooManyAttemptsNewPlace', Params: { seconds: 2 } },
      },
    });
    renderAt('/login');
    fireEvent.change(screen.getByLabelText(i18n.t('login:fields.account')), {
      target: { value: 'roamer01' },
    });
    fireEvent.change(screen.getByLabelText(i18n.t('login:fields.password')), { target: { value: 'abc123' } });
    fireEvent.click(screen.getByRole('button', { name: i18n.t('login:actions.login') }));

    const notice = await screen.findByTestId('login-wait');
    expect(notice.textContent).toBe(i18n.t('messages:auth.tooManyAttemptsNewPlace', { seconds: 2 }));
    expect(notice.textContent).toContain('unlock link');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.getByTestId('login-wait').textContent).toBe(
      i18n.t('messages:auth.tooManyAttemptsNewPlace', { seconds: 1 }),
    );
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(screen.queryByTestId('login-wait')).toBeNull();
  });

  it('sends the unlock link’s token once, says the browser is now known and fills the account', async () => {
    const sent = server({
      '/User/UnlockBrowser': {
        status: 200,
        body: { State: 200, Message: 'auth.browserUnlocked', LoginName: 'roamer01' },
      },
    });
    renderAt('/login?unlock=tok-1');
    const notice = await screen.findByTestId('login-unlock');
    expect(notice.textContent).toBe(i18n.t('messages:auth.browserUnlocked', { name: 'roamer01' }));
    expect((screen.getByLabelText(i18n.t('login:fields.account')) as HTMLInputElement).value).toBe(
      'roamer01',
    );
    expect(sent.filter((s) => s.path === '/User/UnlockBrowser')).toEqual([
      { path: '/User/UnlockBrowser', body: { Token: 'tok-1' } },
    ]);
  });

  it('says so when the unlock link is invalid or used', async () => {
    server({
      '/User/UnlockBrowser': { status: 400, body: { State: 400, Message: 'auth.unlockTokenInvalid' } },
    });
    renderAt('/login?unlock=used');
    expect((await screen.findByTestId('login-unlock')).textContent).toBe(
      i18n.t('messages:auth.unlockTokenInvalid'),
    );
  });
});
