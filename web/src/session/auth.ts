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

export const USER_INFO_KEY = 'userInfo';

configureClient({
  getToken: () => useSession.getState().token,
  onTokenInvalid: (err) => expireSession(err.messageKey),
  getLanguage: currentLocale,
});

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
}

let pendingInfo: Promise<UserInfo> | null = null;

/** The user's information, fetched once per session with the user id (SPEC §2 guard). */
export function ensureUserInfo(): Promise<UserInfo> {
  const s = useSession.getState();
  if (s.userInfo) return Promise.resolve(s.userInfo);
  if (!s.token || !s.userId) return Promise.reject(new Error('no session'));
  const userId = s.userId;
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

/** Renews the tokens with the refresh token; refresh tokens rotate, so the new one is kept. */
export async function refreshTokens(): Promise<boolean> {
  const { userId, refreshToken } = useSession.getState();
  if (!userId || !refreshToken) return false;
  try {
    const r = await call('/User/RefreshToken', { UserId: userId, RefreshToken: refreshToken });
    useSession.getState().setTokens(r.info.AccessToken, r.info.RefreshToken);
    return true;
  } catch {
    return false;
  }
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
