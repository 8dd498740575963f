// Resolves the bearer token of a request to the account behind it. The token's signature and
// expiry are checked locally; the session (not revoked, account not disabled) is read from the
// database with the account's permission set and kept for a few seconds. Ended sessions (logout,
// password change or reset, a replayed refresh token) and changed accounts (permission set, user
// type, forced password change, parent) are announced on the bus, in this process and, with Redis,
// in every other one, and leave the cache at once: the next request reads the account afresh.
import { and, eq, gt, isNull } from 'drizzle-orm';
import { effectiveRoutes, grantsOf } from '@wt/contract';
import type { AuthUser } from '../calls.js';
import { accounts, permissionSets, sessions } from '../db/schema/index.js';
import type { AppDeps } from '../deps.js';
import {
  REALTIME_TOPICS,
  type AccountsChangedEvent,
  type SessionsEndedEvent,
} from '../realtime/topics.js';
import { idleRelogin, tokenInvalid } from './errors.js';
import { verifyAccessToken } from './tokens.js';

const CACHE_MS = 5000;

interface Cached {
  user: AuthUser;
  setId: number | null;
  until: number;
}

export class Authenticator {
  private cache = new Map<number, Cached>();
  /** Counts ended-session and changed-account events, so a lookup that raced one is not cached. */
  private endings = 0;
  private readonly unsubscribe: (() => void)[];

  constructor(private deps: AppDeps) {
    this.unsubscribe = [
      deps.bus.subscribe<SessionsEndedEvent>(REALTIME_TOPICS.sessionsEnded, (e) => this.ended(e), { cluster: true }),
      deps.bus.subscribe<AccountsChangedEvent>(REALTIME_TOPICS.accountsChanged, (e) => this.changed(e), { cluster: true }),
    ];
  }

  async fromHeader(header: string | undefined): Promise<AuthUser> {
    const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : header?.trim();
    if (!token) throw tokenInvalid();
    const claims = verifyAccessToken(this.deps.authSecret, token);
    // A token of ours that only ran out: the console stopped renewing it (long idle, asleep).
    if (!claims) throw verifyAccessToken(this.deps.authSecret, token, 0) ? idleRelogin() : tokenInvalid();
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
        mustChangePassword: accounts.mustChangePassword,
        timeZoneOffset: accounts.timeZoneOffset,
        setId: accounts.permissionSetId,
        setKey: permissionSets.key,
        setBuiltIn: permissionSets.builtIn,
        setActions: permissionSets.actions,
        setRoutes: permissionSets.routes,
      })
      .from(sessions)
      .innerJoin(accounts, eq(accounts.id, sessions.accountId))
      .leftJoin(permissionSets, eq(permissionSets.id, accounts.permissionSetId))
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
    if (!row) {
      // The session itself ran out (not revoked, not disabled): idle past the refresh token's life.
      const [ran] = await this.deps.database.db
        .select({ id: sessions.id })
        .from(sessions)
        .innerJoin(accounts, eq(accounts.id, sessions.accountId))
        .where(and(eq(sessions.id, claims.sid), eq(sessions.accountId, claims.sub), isNull(sessions.revokedAt), eq(accounts.disabled, false)))
        .limit(1);
      throw ran ? idleRelogin() : tokenInvalid();
    }
    const { setId, setKey, setBuiltIn, setActions, setRoutes, ...rest } = row;
    // A set id whose row is gone (deleted under a race) grants nothing rather than everything.
    const set = setId === null ? null : { key: setKey ?? '', builtIn: setBuiltIn ?? false, actions: setActions ?? '' };
    const user: AuthUser = { ...rest, actions: grantsOf(row.userType, set), routes: setId === null ? '' : effectiveRoutes(row.userType, setRoutes) };
    // A session that ended or an account that changed while this lookup ran may have been read stale: not kept.
    if (endings !== this.endings) return user;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(claims.sid, { user, setId, until: Date.now() + CACHE_MS });
    return user;
  }

  forget(sessionId: number) {
    this.cache.delete(sessionId);
  }

  /**
   * An account's permission set, user type, forced-password flag or parent changed: its sessions
   * (and those of its subtree, whose paths follow a move) are read afresh on their next request,
   * in every process.
   */
  invalidateAccount(accountId: number) {
    this.deps.bus.publish(REALTIME_TOPICS.accountsChanged, { accountId } satisfies AccountsChangedEvent);
  }

  /** A permission set changed or was deleted: every account using it is read afresh, in every process. */
  invalidateSet(setId: number) {
    this.deps.bus.publish(REALTIME_TOPICS.accountsChanged, { setId } satisfies AccountsChangedEvent);
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

  private changed(e: AccountsChangedEvent) {
    this.endings++;
    const below = e.accountId === undefined ? undefined : `/${e.accountId}/`;
    for (const [sid, c] of this.cache) {
      const hit =
        (e.accountId !== undefined && (c.user.id === e.accountId || c.user.path.includes(below!))) ||
        (e.setId !== undefined && c.setId === e.setId);
      if (hit) this.cache.delete(sid);
    }
  }

  close() {
    for (const u of this.unsubscribe) u();
  }
}
