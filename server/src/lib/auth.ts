// Resolves the bearer token of a request to the account behind it. The token's signature and
// expiry are checked locally; the session (not revoked, account not disabled) is read from the
// database and kept for a few seconds. Ended sessions (logout, password change or reset, a replayed
// refresh token) are announced on the bus, in this process and, with Redis, in every other one, and
// leave the cache at once: a token of an ended session fails on its very next request.
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { AuthUser } from '../calls.js';
import { accounts, sessions } from '../db/schema/index.js';
import type { AppDeps } from '../deps.js';
import { REALTIME_TOPICS, type SessionsEndedEvent } from '../realtime/topics.js';
import { tokenInvalid } from './errors.js';
import { verifyAccessToken } from './tokens.js';

const CACHE_MS = 5000;

export class Authenticator {
  private cache = new Map<number, { user: AuthUser; until: number }>();
  /** Counts ended-session events, so a lookup that raced one is not cached. */
  private endings = 0;
  private readonly unsubscribe: () => void;

  constructor(private deps: AppDeps) {
    this.unsubscribe = deps.bus.subscribe<SessionsEndedEvent>(REALTIME_TOPICS.sessionsEnded, (e) => this.ended(e), { cluster: true });
  }

  async fromHeader(header: string | undefined): Promise<AuthUser> {
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : header?.trim();
    if (!token) throw tokenInvalid();
    const claims = verifyAccessToken(this.deps.authSecret, token);
    if (!claims) throw tokenInvalid();
    const cached = this.cache.get(claims.sid);
    if (cached && cached.until > Date.now() && cached.user.id === claims.sub) return cached.user;
    const endings = this.endings;
    const [row] = await this.deps.database.db
      .select({
        id: accounts.id,
        loginName: accounts.loginName,
        path: accounts.path,
        userType: accounts.userType,
        kind: accounts.kind,
        sessionId: sessions.id,
      })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .where(
        and(
          eq(sessions.id, claims.sid),
          eq(sessions.accountId, claims.sub),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, new Date()),
          eq(accounts.disabled, false),
        ),
      )
      .limit(1);
    if (!row) throw tokenInvalid();
    // A session that ended while this lookup ran may have been read as still open: not kept.
    if (endings !== this.endings) return row;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(claims.sid, { user: row, until: Date.now() + CACHE_MS });
    return row;
  }

  forget(sessionId: number) {
    this.cache.delete(sessionId);
  }

  private ended(e: SessionsEndedEvent) {
    this.endings++;
    for (const [sid, { user }] of this.cache) {
      if (user.id !== e.accountId) continue;
      if (e.sessionId !== undefined && sid !== e.sessionId) continue;
      if (e.exceptSessionId !== undefined && sid === e.exceptSessionId) continue;
      this.cache.delete(sid);
    }
  }

  close() {
    this.unsubscribe();
  }
}
