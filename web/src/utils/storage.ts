// Keys of everything the console keeps in the browser. The session keys live in sessionStorage
// (SPEC §3/§4); the look-and-feel settings and the language in localStorage.
export const SESSION_KEYS = {
  token: 'wt.token',
  refreshToken: 'wt.refreshToken',
  userId: 'wt.userId',
  loginName: 'wt.loginName',
  app: 'wt.app',
} as const;

export const LOCAL_KEYS = {
  settings: 'wt.settings',
  locale: 'wt.locale',
} as const;

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export const sessionStore = {
  get: (key: string): string | null => safe(() => window.sessionStorage.getItem(key), null),
  set: (key: string, value: string): void => safe(() => window.sessionStorage.setItem(key, value), undefined),
  remove: (key: string): void => safe(() => window.sessionStorage.removeItem(key), undefined),
  clear: (): void => safe(() => window.sessionStorage.clear(), undefined),
};

export const localStore = {
  get: (key: string): string | null => safe(() => window.localStorage.getItem(key), null),
  set: (key: string, value: string): void => safe(() => window.localStorage.setItem(key, value), undefined),
};
