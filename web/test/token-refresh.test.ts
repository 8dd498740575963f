// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BroadcastChannel as NodeChannel } from 'node:worker_threads';
import { accessTokenSecondsLeft, createRefresher, renewOnStart, type ChannelLike, type LockManagerLike, type SessionTokens, type TokenPair } from '../src/session/refresh';
import { call, setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import { clearSession, ensureUserInfo } from '../src/session/auth';

/** One lock manager for the "browser": callbacks run one after another, in order of request. */
function fakeLocks(): LockManagerLike {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    request<T>(_name: string, cb: () => Promise<T>): Promise<T> {
      const run = tail.then(cb);
      tail = run.catch(() => undefined);
      return run;
    },
  };
}

/** A tab: its own session tokens, the shared locks, its own end of the channel. */
function tab(name: string, locks: LockManagerLike, server: (userId: number, refreshToken: string) => Promise<TokenPair>, start: SessionTokens & { token: string }) {
  const state = { ...start };
  const channel = new NodeChannel(name) as unknown as ChannelLike;
  const r = createRefresher({
    current: () => ({ userId: state.userId, refreshToken: state.refreshToken }),
    store: (p) => Object.assign(state, p),
    request: server,
    locks,
    channel,
    handoffMs: 30,
  });
  return { state, r };
}

/** The server's rotation: one valid refresh token per session; a spent one ends the session. */
function rotatingServer(first: string) {
  let valid: string | null = first;
  let n = 0;
  const spent: string[] = [];
  const request = vi.fn(async (_userId: number, presented: string): Promise<TokenPair> => {
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (presented !== valid) {
      spent.push(presented);
      valid = null;
      throw new Error('refresh token refused');
    }
    n += 1;
    valid = `r${n}`;
    return { token: `a${n}`, refreshToken: valid };
  });
  return { request, spent, alive: () => valid !== null };
}

const tabs: { r: { dispose(): void } }[] = [];
afterEach(() => {
  for (const t of tabs.splice(0)) t.r.dispose();
});

describe('token refresh shared between tabs', () => {
  it('refreshes once for many callers in one tab', async () => {
    const server = rotatingServer('r0');
    const a = tab('one-tab', fakeLocks(), server.request, { userId: 7, refreshToken: 'r0', token: 'a0' });
    tabs.push(a);
    const results = await Promise.all([a.r.refresh(), a.r.refresh(), a.r.refresh()]);
    expect(results).toEqual([true, true, true]);
    expect(server.request).toHaveBeenCalledTimes(1);
    expect(a.state).toMatchObject({ token: 'a1', refreshToken: 'r1' });
  });

  it('two tabs with the same tokens refreshing together spend the refresh token once and both keep the new pair', async () => {
    const server = rotatingServer('r0');
    const locks = fakeLocks();
    const a = tab('two-tabs', locks, server.request, { userId: 7, refreshToken: 'r0', token: 'a0' });
    const b = tab('two-tabs', locks, server.request, { userId: 7, refreshToken: 'r0', token: 'a0' });
    tabs.push(a, b);
    expect(await Promise.all([a.r.refresh(), b.r.refresh()])).toEqual([true, true]);
    expect(server.request).toHaveBeenCalledTimes(1);
    expect(server.spent).toEqual([]);
    expect(server.alive()).toBe(true);
    expect(b.state).toMatchObject({ token: 'a1', refreshToken: 'r1' });
    expect(a.state).toMatchObject({ token: 'a1', refreshToken: 'r1' });
    // The next refresh from the other tab uses the pair it was handed.
    expect(await b.r.refresh()).toBe(true);
    expect(server.spent).toEqual([]);
    await vi.waitFor(() => expect(a.state.refreshToken).toBe('r2'));
  });

  it('a tab of another login keeps its own tokens', async () => {
    const server = rotatingServer('r0');
    const locks = fakeLocks();
    const a = tab('other-login', locks, server.request, { userId: 7, refreshToken: 'r0', token: 'a0' });
    const other = tab('other-login', locks, async () => ({ token: 'x', refreshToken: 'y' }), { userId: 8, refreshToken: 'q0', token: 'b0' });
    tabs.push(a, other);
    await a.r.refresh();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(other.state).toMatchObject({ token: 'b0', refreshToken: 'q0' });
  });

  it('answers false when the server refuses, and when there is no session', async () => {
    const refused = createRefresher({ current: () => ({ userId: 7, refreshToken: 'gone' }), store: vi.fn(), request: () => Promise.reject(new Error('no')) });
    expect(await refused.refresh()).toBe(false);
    const none = createRefresher({ current: () => ({ userId: null, refreshToken: null }), store: vi.fn(), request: vi.fn() });
    expect(await none.refresh()).toBe(false);
  });
});

describe('the console renews an expired access token', () => {
  let calls: { path: string; auth?: string; body: Record<string, unknown> }[];
  let accessValid: string;

  beforeEach(() => {
    clearSession();
    calls = [];
    accessValid = 'a0';
    let n = 0;
    setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
      const path = String(url).replace('/api', '');
      const auth = (init!.headers as Record<string, string>).Authorization;
      const body = JSON.parse(String(init!.body)) as Record<string, unknown>;
      calls.push({ path, auth, body });
      if (path === '/User/RefreshToken') {
        n += 1;
        accessValid = `a${n}`;
        return new Response(JSON.stringify({ State: 200, info: { AccessToken: accessValid, RefreshToken: `r${n}`, ExpiresIn: 900 } }));
      }
      if (auth !== `Bearer ${accessValid}`) return new Response(JSON.stringify({ State: 1100, Message: 'auth.tokenInvalid' }), { status: 401 });
      if (path === '/User/UserInfo') return new Response(JSON.stringify({ State: 200, UserInfo: { UserId: 7, UserType: 3, routes: '', LoginName: 'ann', Username: 'Ann', PageName: '', isShowMapLabel: 1 } }));
      return new Response(JSON.stringify({ State: 200, Total: 0, Items: [] }));
    }) as typeof fetch);
  });

  it('a call meeting an expired token is sent once more after one refresh, and the session stays', async () => {
    useSession.getState().setLogin({ token: 'expired', refreshToken: 'r0', userId: 7, loginName: 'ann' });
    const [x, y] = await Promise.all([
      call('/ExceptionMessage/ExceptionType', { PageNo: 1, PageCount: 10 }),
      call('/ExceptionMessage/ExceptionType', { PageNo: 2, PageCount: 10 }),
    ]);
    expect(x.State).toBe(200);
    expect(y.State).toBe(200);
    expect(calls.filter((c) => c.path === '/User/RefreshToken')).toHaveLength(1);
    expect(useSession.getState()).toMatchObject({ token: 'a1', refreshToken: 'r1', userId: 7 });
    expect(sessionStorage.getItem('wt.refreshToken')).toBe('r1');
  });

  it('a reload renews the tokens with the first user-info fetch, even when the access token has already expired', async () => {
    // What a reload finds: the session keys in sessionStorage, an access token past its life.
    useSession.getState().setLogin({ token: 'expired', refreshToken: 'r0', userId: 7, loginName: 'ann' });
    const info = await ensureUserInfo();
    expect(info.UserId).toBe(7);
    expect(calls.filter((c) => c.path === '/User/RefreshToken')).toHaveLength(1);
    expect(calls.find((c) => c.path === '/User/RefreshToken')!.body).toEqual({ UserId: 7, RefreshToken: 'r0' });
    expect(useSession.getState().token).toBe('a1');
  });

  it('a tab opened with a fresh access token renews nothing at start-up, so it spends no refresh token of the other tabs', async () => {
    const fresh = tokenExpiringIn(14 * 60);
    accessValid = fresh;
    useSession.getState().setLogin({ token: fresh, refreshToken: 'r0', userId: 7, loginName: 'ann' });
    const info = await ensureUserInfo();
    expect(info.UserId).toBe(7);
    expect(calls.filter((c) => c.path === '/User/RefreshToken')).toHaveLength(0);
    expect(useSession.getState().refreshToken).toBe('r0');
  });

  it('a refused refresh ends the session once', async () => {
    setFetch((async () => new Response(JSON.stringify({ State: 1100, Message: 'auth.refreshInvalid' }), { status: 401 })) as typeof fetch);
    useSession.getState().setLogin({ token: 'expired', refreshToken: 'spent', userId: 7, loginName: 'ann' });
    await expect(call('/ExceptionMessage/ExceptionType', { PageNo: 1, PageCount: 10 })).rejects.toMatchObject({ state: 1100 });
    expect(useSession.getState().token).toBeNull();
  });
});

/** An access token as the server signs it: base64url JSON claims, a dot, a signature. */
function tokenExpiringIn(seconds: number, nowMs = Date.now()): string {
  const body = Buffer.from(JSON.stringify({ sub: 7, sid: 1, exp: Math.floor(nowMs / 1000) + seconds })).toString('base64url');
  return `${body}.signature`;
}

describe('when a page renews its tokens at start-up', () => {
  const now = Date.UTC(2026, 10, 27, 8, 0, 0);
  it('reads the seconds left from the token', () => {
    expect(accessTokenSecondsLeft(tokenExpiringIn(600, now), now)).toBe(600);
    expect(accessTokenSecondsLeft('opaque', now)).toBeNull();
    expect(accessTokenSecondsLeft('!!!.sig', now)).toBeNull();
    expect(accessTokenSecondsLeft(null, now)).toBeNull();
  });
  it('renews a token that would run out before the next periodic refresh, or one it cannot read', () => {
    const every = 300_000;
    expect(renewOnStart(tokenExpiringIn(900, now), every, now)).toBe(false);
    expect(renewOnStart(tokenExpiringIn(361, now), every, now)).toBe(false);
    expect(renewOnStart(tokenExpiringIn(359, now), every, now)).toBe(true);
    expect(renewOnStart(tokenExpiringIn(-5, now), every, now)).toBe(true);
    expect(renewOnStart('expired', every, now)).toBe(true);
  });
});
