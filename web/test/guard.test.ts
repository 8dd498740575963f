// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router';
import { catchAllLoader, loginLoader, pageLoader, shellLoader } from '../src/app/guard';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import { clearSession } from '../src/session/auth';
import { landingPath, permittedRoutes } from '../src/access';

const args = (path: string) => ({ request: new Request(`http://localhost${path}`), params: {}, context: {} }) as unknown as LoaderFunctionArgs;

async function thrown(fn: () => unknown): Promise<Response | null> {
  try {
    await fn();
    return null;
  } catch (e) {
    if (e instanceof Response) return e;
    throw e;
  }
}

const userInfo = (UserType: number, routes = '', PlatformAdmin = false) => ({
  State: 200,
  UserInfo: { UserId: 7, UserType, routes, PageName: '', Username: 'Ann', LoginName: 'ann', isShowMapLabel: -1, PlatformAdmin },
});

function serverAnswers(body: unknown, status = 200) {
  const calls: string[] = [];
  setFetch((async (url: RequestInfo | URL) => {
    calls.push(String(url));
    return new Response(JSON.stringify(body), { status });
  }) as typeof fetch);
  return calls;
}

const loggedIn = () => useSession.getState().setLogin({ token: 't', refreshToken: 'r', userId: 7, loginName: 'ann' });

beforeEach(() => clearSession());

describe('route guard (SPEC §2)', () => {
  it('sends a visitor without a token to /login with the path to come back to', async () => {
    const r = await thrown(() => shellLoader(args('/alarm/record?x=1')));
    expect(r?.headers.get('Location')).toBe('/login?redirect=%2Falarm%2Frecord%3Fx%3D1');
  });

  it('opens /login without a token, and sends a logged-in user to /', async () => {
    expect(await thrown(() => loginLoader(args('/login')))).toBeNull();
    loggedIn();
    expect((await thrown(() => loginLoader(args('/login'))))?.headers.get('Location')).toBe('/');
    expect(await thrown(() => loginLoader(args('/login?reset=abc')))).toBeNull();
  });

  it('fetches the user information once with the user id and keeps the session keys in sessionStorage', async () => {
    loggedIn();
    const calls = serverAnswers(userInfo(3, '', true));
    expect(await thrown(() => pageLoader('/alarm/rule')(args('/alarm/rule')))).toBeNull();
    expect(await thrown(() => pageLoader('/dashboard')(args('/dashboard')))).toBeNull();
    // The user information once; the tokens are renewed alongside (a reload starts with old ones).
    expect(calls.filter((c) => c !== '/api/User/RefreshToken')).toEqual(['/api/User/UserInfo']);
    expect(sessionStorage.getItem('wt.token')).toBe('t');
    expect(sessionStorage.getItem('wt.userId')).toBe('7');
    // Display fix-ups of SPEC §3.
    expect(useSession.getState().userInfo).toMatchObject({ isShowMapLabel: 2, PageName: 'Ann' });
  });

  it('resets the token and returns to login when the user information fails', async () => {
    loggedIn();
    serverAnswers({ State: 500, Message: 'common.internal' }, 500);
    const r = await thrown(() => shellLoader(args('/devices/list')));
    expect(r?.headers.get('Location')).toBe('/login?redirect=%2Fdevices%2Flist');
    expect(useSession.getState().token).toBeNull();
    expect(sessionStorage.getItem('wt.token')).toBeNull();
  });

  it('sends a page the role may not open to /404', async () => {
    loggedIn();
    serverAnswers(userInfo(1));
    expect((await thrown(() => pageLoader('/alarm/rule')(args('/alarm/rule'))))?.headers.get('Location')).toBe('/404');
    expect(await thrown(() => pageLoader('/alarm/record')(args('/alarm/record')))).toBeNull();
  });

  it('keeps the platform pages to the platform administrators: a branch administrator gets /404', async () => {
    loggedIn();
    serverAnswers(userInfo(3));
    expect((await thrown(() => pageLoader('/alarm/rule')(args('/alarm/rule'))))?.headers.get('Location')).toBe('/404');
    expect(await thrown(() => pageLoader('/alarm/record')(args('/alarm/record')))).toBeNull();
  });

  it('follows the route list when the server sends one', async () => {
    loggedIn();
    serverAnswers(userInfo(1, '/,/alarm/rule', true));
    expect(await thrown(() => pageLoader('/alarm/rule')(args('/alarm/rule')))).toBeNull();
    expect((await thrown(() => pageLoader('/alarm/record')(args('/alarm/record'))))?.headers.get('Location')).toBe('/404');
  });

  it('lands a set without the monitor on its first menu page, from / and after login', async () => {
    loggedIn();
    serverAnswers(userInfo(1, '/devices/list,/alarm/record,/devices/detail'));
    expect((await thrown(() => pageLoader('/')(args('/'))))?.headers.get('Location')).toBe('/devices/list');
    // Any other page it may not open is still the 404 page.
    expect((await thrown(() => pageLoader('/alarm/rule')(args('/alarm/rule'))))?.headers.get('Location')).toBe('/404');
    expect(await thrown(() => pageLoader('/devices/list')(args('/devices/list')))).toBeNull();
  });

  it('picks the landing page in menu order, skipping the hidden pages; none when nothing is permitted', () => {
    const of = (routes: string, PlatformAdmin = false) => landingPath(permittedRoutes({ UserType: 1, routes, PlatformAdmin }));
    expect(of('/devices/list,/')).toBe('/');
    expect(of('/devices/detail,/alarm/record,/devices/list')).toBe('/devices/list');
    expect(of('/setting/userlogs,/health/data')).toBe('/health/data');
    expect(of('/setting/userlogs')).toBe('/setting/userlogs');
    expect(of('/model/list')).toBeNull();
  });

  it('sends unknown paths to /404, or to login without a token', async () => {
    expect((await thrown(() => catchAllLoader(args('/nowhere'))))?.headers.get('Location')).toBe('/login?redirect=%2Fnowhere');
    loggedIn();
    expect((await thrown(() => catchAllLoader(args('/nowhere'))))?.headers.get('Location')).toBe('/404');
  });
});
