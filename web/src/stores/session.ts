// The logged-in session: token, refresh token, user id and login name (kept in sessionStorage, the
// password never), plus the user's information, role and permitted routes once fetched.
import { create } from 'zustand';
import type { RoleLabel, UserInfo } from '@wt/contract';
import { permittedRoutes, rolesOf, type ResolvedRoute } from '../access';
import { SESSION_KEYS, sessionStore } from '../utils/storage';

export interface SessionState {
  token: string | null;
  refreshToken: string | null;
  userId: number | null;
  loginName: string | null;
  userInfo: UserInfo | null;
  roles: RoleLabel[];
  /** The server's comma-separated route list (empty means by role). */
  routesKey: string;
  permitted: ResolvedRoute[];
  setLogin: (login: { token: string; refreshToken: string; userId: number; loginName: string }) => void;
  setTokens: (token: string, refreshToken: string) => void;
  setUserInfo: (info: UserInfo) => void;
  /** Drops the token and the profile (SPEC §4 reset-token). */
  resetToken: () => void;
}

function readUserId(): number | null {
  const v = Number(sessionStore.get(SESSION_KEYS.userId));
  return Number.isInteger(v) && v > 0 ? v : null;
}

/** Display fix-ups of SPEC §3: map label -1 reads as hidden (2); empty PageName falls back to the user name. */
export function normalizeUserInfo(info: UserInfo): UserInfo {
  return {
    ...info,
    isShowMapLabel: info.isShowMapLabel === 1 ? 1 : 2,
    PageName: info.PageName?.trim() ? info.PageName : info.Username || info.LoginName,
  };
}

const emptyProfile = { userInfo: null, roles: [] as RoleLabel[], routesKey: '', permitted: [] as ResolvedRoute[] };

export const useSession = create<SessionState>()((set) => ({
  token: sessionStore.get(SESSION_KEYS.token),
  refreshToken: sessionStore.get(SESSION_KEYS.refreshToken),
  userId: readUserId(),
  loginName: sessionStore.get(SESSION_KEYS.loginName),
  ...emptyProfile,
  setLogin: ({ token, refreshToken, userId, loginName }) => {
    sessionStore.set(SESSION_KEYS.token, token);
    sessionStore.set(SESSION_KEYS.refreshToken, refreshToken);
    sessionStore.set(SESSION_KEYS.userId, String(userId));
    sessionStore.set(SESSION_KEYS.loginName, loginName);
    set({ token, refreshToken, userId, loginName, ...emptyProfile });
  },
  setTokens: (token, refreshToken) => {
    sessionStore.set(SESSION_KEYS.token, token);
    sessionStore.set(SESSION_KEYS.refreshToken, refreshToken);
    set({ token, refreshToken });
  },
  setUserInfo: (raw) => {
    const info = normalizeUserInfo(raw);
    set({ userInfo: info, roles: rolesOf(info), routesKey: info.routes, permitted: permittedRoutes(info) });
  },
  resetToken: () => {
    for (const key of [SESSION_KEYS.token, SESSION_KEYS.refreshToken, SESSION_KEYS.userId, SESSION_KEYS.loginName]) {
      sessionStore.remove(key);
    }
    set({ token: null, refreshToken: null, userId: null, loginName: null, ...emptyProfile });
  },
}));
