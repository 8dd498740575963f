// Session transitions of SPEC §4: login, user information, token refresh, logout.
import { LIMITS, LOG_ACTIONS, WEB_CLIENT, type UserInfo } from '@wt/contract';
import { call, configureClient } from '../api/client';
import { queryClient } from '../app/queryClient';
import { loginPathFor, navigateTo } from '../app/navigation';
import { useSession } from '../stores/session';
import { useTags } from '../stores/tags';
import { useNotice } from '../stores/notice';
import { sessionStore } from '../utils/storage';
import { currentLocale } from '../i18n';
import { browserCoordination, createRefresher, renewOnStart } from './refresh';

export const USER_INFO_KEY = 'userInfo';

const refresher = createRefresher({
  current: () => {
    const { userId, refreshToken } = useSession.getState();
    return { userId, refreshToken };
  },
  store: ({ token, refreshToken }) => useSession.getState().setTokens(token, refreshToken),
  request: async (UserId, RefreshToken) => {
    const r = await call('/User/RefreshToken', { UserId, RefreshToken }, { keepSessionOnTokenError: true });
    return { token: r.info.AccessToken, refreshToken: r.info.RefreshToken };
  },
  ...browserCoordination(),
});

configureClient({
  getToken: () => useSession.getState().token,
  onTokenInvalid: (err) => expireSession(err.messageKey),
  refresh: () => refreshTokens(),
  getLanguage: currentLocale,
});

/**
 * Whether this page load has looked at its tokens: a reload starts with the tokens of the page
 * before, whose access token may be close to its end, so the first user-info fetch renews them
 * when it is (see renewOnStart).
 */
let renewedSinceLoad = false;

/** Clears what the session holds in memory and in sessionStorage. */
export function clearSession(): void {
  useSession.getState().resetToken();
  useTags.getState().clear();
  queryClient.clear();
  sessionStore.clear();
}

/** The server's word for a session that ran out after long idleness (SPEC §8). */
export const IDLE_RELOGIN = 'common.idleRelogin';

/**
 * An expired or rejected token: back to login, coming back here afterwards. After long idleness
 * the notice says so (`common.idleRelogin`); any other refusal is the expired-token one.
 */
export function expireSession(messageKey?: string): void {
  if (!useSession.getState().token) return;
  const here = window.location.pathname + window.location.search;
  clearSession();
  useNotice.getState().show(messageKey === IDLE_RELOGIN ? `messages:${IDLE_RELOGIN}` : 'messages:common.tokenInvalid');
  navigateTo(loginPathFor(here), { replace: true });
}

export async function login(LoginName: string, Password: string, Language?: string): Promise<void> {
  const r = await call('/User/Login', { LoginName, Password, Language });
  clearSession();
  useSession.getState().setLogin({ token: r.AccessToken, refreshToken: r.refreshToken, userId: r.Item.UserId, loginName: r.Item.LoginName });
  renewedSinceLoad = true;
}

let pendingInfo: Promise<UserInfo> | null = null;

/** The user's information, fetched once per session with the user id (SPEC §2 guard). */
export function ensureUserInfo(): Promise<UserInfo> {
  const s = useSession.getState();
  if (s.userInfo) return Promise.resolve(s.userInfo);
  if (!s.token || !s.userId) return Promise.reject(new Error('no session'));
  const userId = s.userId;
  if (!renewedSinceLoad) {
    renewedSinceLoad = true;
    // Alongside the fetch: a call that meets an expired access token waits for this same refresh.
    if (renewOnStart(s.token, LIMITS.tokenRefreshMs)) void refreshTokens();
  }
  pendingInfo ??= queryClient
    .fetchQuery({
      queryKey: [USER_INFO_KEY, userId],
      queryFn: () => call('/User/UserInfo', { UserId: userId }, { keepSessionOnTokenError: true }).then((r) => r.UserInfo),
      retry: false,
    })
    .then((info) => {
      useSession.getState().setUserInfo(info);
      return useSession.getState().userInfo!;
    })
    .finally(() => {
      pendingInfo = null;
    });
  return pendingInfo;
}

/**
 * Renews the tokens with the refresh token; refresh tokens rotate, so the new one is kept (and
 * handed to the other tabs holding the old one). One refresh at a time across the browser.
 */
export function refreshTokens(): Promise<boolean> {
  return refresher.refresh();
}

/** Records an action in the login log; a failure never blocks what the user asked for. */
export async function logAction(actionCode: number): Promise<void> {
  const { userId } = useSession.getState();
  if (!userId) return;
  await call('/User/SaveUserLoginLog', { UserId: userId, ActionCode: actionCode, ...WEB_CLIENT }, { keepSessionOnTokenError: true }).catch(
    () => undefined,
  );
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let loggingOut = false;

/**
 * Logout (SPEC §4): the only server call is the log entry (1004); then token, roles, routes, tags,
 * cached query state and every session storage key are cleared, and /login follows after 1.5 s.
 */
export async function logout(): Promise<void> {
  if (loggingOut) return;
  loggingOut = true;
  try {
    await logAction(LOG_ACTIONS.LOGOUT);
    clearSession();
    await delay(LIMITS.logoutDelayMs);
    navigateTo('/login', { replace: true });
  } finally {
    loggingOut = false;
  }
}
