// Token refresh shared by every tab of the browser. Refresh tokens rotate and the server ends a
// session whose spent refresh token comes back, so two tabs holding the same tokens (a duplicated
// tab copies sessionStorage) must never both spend it: one tab at a time refreshes, under a Web
// Lock, and hands the new pair to the others over a BroadcastChannel. A tab keeps the pair a
// message brings only when it still holds the refresh token that message replaced, so tabs of
// other logins are left alone.

export interface TokenPair {
  token: string;
  refreshToken: string;
}

export interface SessionTokens {
  userId: number | null;
  refreshToken: string | null;
}

interface Rotation extends TokenPair {
  userId: number;
  /** The refresh token this pair replaced. */
  from: string;
}

/** The part of the Web Locks API used here. */
export interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

/** The part of BroadcastChannel used here. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (ev: MessageEvent) => void): void;
  close?(): void;
}

export interface RefresherDeps {
  current: () => SessionTokens;
  /** Keeps a new pair in this tab. */
  store: (pair: TokenPair) => void;
  /** The server call; rejects when the refresh token is refused. */
  request: (userId: number, refreshToken: string) => Promise<TokenPair>;
  locks?: LockManagerLike | null;
  channel?: ChannelLike | null;
  /**
   * How long the refreshing tab keeps the lock after announcing the new pair, so that a tab
   * waiting for the lock has the announcement before it looks at its own tokens.
   */
  handoffMs?: number;
}

/**
 * Seconds until an access token runs out, read from its claims (the token's body is base64url
 * JSON with `exp`), or null when the token cannot be read. Only a hint for when to renew: the
 * server alone decides whether a token is valid.
 */
export function accessTokenSecondsLeft(token: string | null, nowMs = Date.now()): number | null {
  const body = token?.split('.')[0];
  if (!body || body === token) return null;
  try {
    const json = atob(body.replace(/-/g, '+').replace(/_/g, '/'));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' && Number.isFinite(exp) ? exp - nowMs / 1000 : null;
  } catch {
    return null;
  }
}

/**
 * Whether a page that starts with this access token should renew it at once: when it cannot be
 * read, or would run out before the next periodic refresh (plus a minute's margin). A tab opened
 * from a live one starts with a fresh token and spends nothing, so opening links in new tabs does
 * not rotate the refresh token under the other tabs' feet.
 */
export function renewOnStart(token: string | null, refreshEveryMs: number, nowMs = Date.now()): boolean {
  const left = accessTokenSecondsLeft(token, nowMs);
  return left === null || left * 1000 < refreshEveryMs + 60_000;
}

export const REFRESH_LOCK = 'wt.token-refresh';
export const REFRESH_CHANNEL = 'wt.session';

export interface Refresher {
  /** Renews the tokens once, however many callers ask at the same time; true when the session goes on. */
  refresh(): Promise<boolean>;
  dispose(): void;
}

export function createRefresher(deps: RefresherDeps): Refresher {
  const handoffMs = deps.handoffMs ?? 100;
  /** Rotations announced by other tabs, by the refresh token they replaced. */
  const seen = new Map<string, Rotation>();
  let inflight: Promise<boolean> | null = null;

  const adopt = (r: Rotation): boolean => {
    const now = deps.current();
    if (now.userId !== r.userId || now.refreshToken !== r.from) return false;
    deps.store({ token: r.token, refreshToken: r.refreshToken });
    return true;
  };

  const onMessage = (ev: MessageEvent) => {
    const r = ev.data as Partial<Rotation> | null;
    if (!r || typeof r.from !== 'string' || typeof r.token !== 'string' || typeof r.refreshToken !== 'string' || typeof r.userId !== 'number') return;
    let rotation = r as Rotation;
    seen.set(rotation.from, rotation);
    if (seen.size > 20) seen.delete(seen.keys().next().value!);
    // Rotations announced while this tab held an older token follow one another.
    while (adopt(rotation)) {
      const next = seen.get(rotation.refreshToken);
      if (!next) break;
      rotation = next;
    }
  };
  deps.channel?.addEventListener('message', onMessage);

  /** Under the lock: spends the refresh token unless another tab already did. */
  const attempt = async (asked: SessionTokens, done: (ok: boolean) => void): Promise<void> => {
    const now = deps.current();
    if (!now.userId || !now.refreshToken) return done(false);
    // Another tab rotated the tokens while this one waited, and this tab took the new pair.
    if (now.refreshToken !== asked.refreshToken) return done(true);
    const announced = seen.get(now.refreshToken);
    if (announced && adopt(announced)) return done(true);
    let pair: TokenPair;
    try {
      pair = await deps.request(now.userId, now.refreshToken);
    } catch {
      return done(false);
    }
    deps.store(pair);
    done(true);
    const rotation: Rotation = { ...pair, userId: now.userId, from: now.refreshToken };
    try {
      deps.channel?.postMessage(rotation);
    } catch {
      return;
    }
    if (deps.locks && deps.channel && handoffMs > 0) await new Promise((resolve) => setTimeout(resolve, handoffMs));
  };

  const run = (): Promise<boolean> => {
    const asked = deps.current();
    if (!asked.userId || !asked.refreshToken) return Promise.resolve(false);
    return new Promise<boolean>((resolve, reject) => {
      const body = () => attempt(asked, resolve);
      const held = deps.locks ? deps.locks.request(REFRESH_LOCK, body) : body();
      held.catch(reject);
    });
  };

  return {
    refresh() {
      inflight ??= run()
        .catch(() => false)
        .finally(() => {
          inflight = null;
        });
      return inflight;
    },
    dispose() {
      deps.channel?.removeEventListener('message', onMessage);
      deps.channel?.close?.();
    },
  };
}

/** The browser's Web Locks and BroadcastChannel, when it has them. */
export function browserCoordination(): { locks: LockManagerLike | null; channel: ChannelLike | null } {
  const locks = typeof navigator !== 'undefined' && 'locks' in navigator ? (navigator.locks as unknown as LockManagerLike) : null;
  const channel = typeof BroadcastChannel !== 'undefined' ? new BroadcastChannel(REFRESH_CHANNEL) : null;
  return { locks, channel };
}
