// Failed logins, counted two ways and kept in the database (login_failures), so every process of a
// deployment counts the same failures:
// - per account name and source (the account's own browser by its signed mark, else the address):
//   `maxFailures` failures within `lockSeconds` lock that pair for `lockSeconds`, even for the
//   right password, so one source cannot keep guessing;
// - per account name from everywhere: past `maxFailures * 4` failures, each further failure
//   doubles the wait (from `delaySeconds`, at most `maxDelaySeconds`) before the next attempt from
//   a source the account does not know is even checked. Known sources are never delayed, so a
//   stranger's guessing slows the owner down only in a new place, where an unlock link mailed to
//   the account (modules/user/unlock.ts) makes the browser known. The count is forgotten a day after
//   its last failure.
import { and, eq, gt, inArray, isNull, lt, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../db/client.js';
import { loginFailures } from '../db/schema/index.js';
import { storableText } from './sql.js';

export interface LoginLimits {
  /** Failures of one source before it is locked (LOGIN_MAX_FAILURES). */
  maxFailures: number;
  /** A source's counting window and lock, seconds (LOGIN_LOCK_SECONDS). */
  lockSeconds: number;
  /** The first delay for unknown sources once the account's free failures are spent (LOGIN_DELAY_SECONDS). */
  delaySeconds: number;
  /** The longest delay (LOGIN_DELAY_MAX_SECONDS). */
  maxDelaySeconds: number;
}

/** One count: failures, first and last failure, until when attempts are refused (ms since epoch, 0: not). */
export interface FailureCount {
  failures: number;
  firstAt: number;
  lastAt: number;
  lockedUntil: number;
}

/** Why an attempt waits: its source's own failures, or the account's failures from everywhere. */
export interface LoginWait {
  seconds: number;
  reason: 'source' | 'account';
}

/** An account's failures are forgotten this long after the last one. */
export const ACCOUNT_MEMORY_MS = 24 * 3600_000;
/** Failures of an account from everywhere before unknown sources are delayed. */
export const freeAccountFailures = (limits: LoginLimits) => limits.maxFailures * 4;
const PRUNE_EVERY_MS = 10 * 60_000;

/** A source's count after one more failure at `t`: locked at `maxFailures` within the window. */
export function sourceAfterFailure(
  c: FailureCount | undefined,
  t: number,
  limits: LoginLimits,
): FailureCount {
  const windowMs = limits.lockSeconds * 1000;
  const fresh = !c || t - c.firstAt > windowMs;
  const failures = (fresh ? 0 : c.failures) + 1;
  const lockedUntil = failures >= limits.maxFailures ? t + windowMs : fresh ? 0 : c.lockedUntil;
  return { failures, firstAt: fresh ? t : c.firstAt, lastAt: t, lockedUntil };
}

/** An account's count after one more failure at `t`: past the free failures, each doubles the delay. */
export function accountAfterFailure(
  c: FailureCount | undefined,
  t: number,
  limits: LoginLimits,
): FailureCount {
  const fresh = !c || t - c.lastAt > ACCOUNT_MEMORY_MS;
  const failures = (fresh ? 0 : c.failures) + 1;
  const over = failures - freeAccountFailures(limits);
  const delaySeconds = over >= 0 ? Math.min(limits.delaySeconds * 2 ** over, limits.maxDelaySeconds) : 0;
  return {
    failures,
    firstAt: fresh ? t : c.firstAt,
    lastAt: t,
    lockedUntil: delaySeconds ? t + delaySeconds * 1000 : 0,
  };
}

type Row = typeof loginFailures.$inferSelect;
const countOf = (r: Row): FailureCount | undefined =>
  r.failures === 0
    ? undefined
    : {
        failures: r.failures,
        firstAt: r.firstAt.getTime(),
        lastAt: r.lastAt.getTime(),
        lockedUntil: r.lockedUntil?.getTime() ?? 0,
      };

export class LoginLimiter {
  private lastPrune = 0;

  constructor(
    private readonly opts: { db: Db; limits: LoginLimits; log: Logger },
    /** The clock of the counts and of the unlock links (tests move it). */
    readonly now: () => number = Date.now,
  ) {}

  /**
   * The name as the key column holds it. A name with NUL or a lone surrogate is counted too, under
   * its escaped JSON form: stripping those characters would count its failures against the real
   * account of the remaining name and lock that one out.
   */
  private static nameKey(loginName: string) {
    const name = loginName.trim().toLowerCase();
    return storableText(name) === name ? name : JSON.stringify(name);
  }

  private static accountKey(loginName: string) {
    return `${LoginLimiter.nameKey(loginName)}|*`;
  }

  private static keys(loginName: string, source: string) {
    return {
      source: `${LoginLimiter.nameKey(loginName)}|${source}`,
      account: LoginLimiter.accountKey(loginName),
    };
  }

  /**
   * How long this attempt waits before it may be checked, or null: its source's lock first, then
   * the account's delay unless `known()` says the account knows the source (asked only then).
   */
  async wait(loginName: string, source: string, known: () => Promise<boolean>): Promise<LoginWait | null> {
    const keys = LoginLimiter.keys(loginName, source);
    const t = this.now();
    const rows = await this.opts.db
      .select({ key: loginFailures.key, lockedUntil: loginFailures.lockedUntil })
      .from(loginFailures)
      .where(inArray(loginFailures.key, [keys.source, keys.account]));
    const secondsOf = (key: string) => {
      const until = rows.find((r) => r.key === key)?.lockedUntil?.getTime() ?? 0;
      return until > t ? Math.ceil((until - t) / 1000) : 0;
    };
    const own = secondsOf(keys.source);
    if (own > 0) return { seconds: own, reason: 'source' };
    const account = secondsOf(keys.account);
    if (account > 0 && !(await known())) return { seconds: account, reason: 'account' };
    return null;
  }

  /** Counts a failure for the source and for the account, in one transaction holding both rows. */
  async fail(loginName: string, source: string) {
    const keys = LoginLimiter.keys(loginName, source);
    const t = this.now();
    const at = new Date(t);
    const { db, limits } = this.opts;
    await db.transaction(async (tx) => {
      const ordered = [keys.source, keys.account].sort();
      await tx
        .insert(loginFailures)
        .values(ordered.map((key) => ({ key, failures: 0, firstAt: at, lastAt: at })))
        .onConflictDoNothing();
      const rows = await tx
        .select()
        .from(loginFailures)
        .where(inArray(loginFailures.key, ordered))
        .orderBy(loginFailures.key)
        .for('update');
      for (const row of rows) {
        const next = (row.key === keys.account ? accountAfterFailure : sourceAfterFailure)(
          countOf(row),
          t,
          limits,
        );
        await tx
          .update(loginFailures)
          .set({
            failures: next.failures,
            firstAt: new Date(next.firstAt),
            lastAt: at,
            lockedUntil: next.lockedUntil ? new Date(next.lockedUntil) : null,
          })
          .where(eq(loginFailures.key, row.key));
      }
    });
    if (t - this.lastPrune > PRUNE_EVERY_MS) {
      this.lastPrune = t;
      await this.prune(t).catch((err) => this.opts.log.warn({ err }, 'pruning old login failures failed'));
    }
  }

  /** A correct password clears the source's own count; the account's count runs out by itself. */
  async succeed(loginName: string, source: string) {
    await this.opts.db
      .delete(loginFailures)
      .where(eq(loginFailures.key, LoginLimiter.keys(loginName, source).source));
  }

  /**
   * Whether an unlock link may go out for the account name now: true at most once per `everyMs`
   * across every process (the caller sends it), false meanwhile or when the name is not delayed.
   */
  async claimUnlockMail(loginName: string, everyMs: number): Promise<boolean> {
    const t = this.now();
    const claimed = await this.opts.db
      .update(loginFailures)
      .set({ mailedAt: new Date(t) })
      .where(
        and(
          eq(loginFailures.key, LoginLimiter.accountKey(loginName)),
          gt(loginFailures.lockedUntil, new Date(t)),
          or(isNull(loginFailures.mailedAt), lt(loginFailures.mailedAt, new Date(t - everyMs))),
        ),
      )
      .returning({ key: loginFailures.key });
    return claimed.length > 0;
  }

  /** Deletes the counts nothing remembers any more (a source's window and the account's day past, no lock running). */
  private async prune(t: number) {
    const keepMs = Math.max(this.opts.limits.lockSeconds * 1000, ACCOUNT_MEMORY_MS);
    await this.opts.db
      .delete(loginFailures)
      .where(
        and(
          lt(loginFailures.lastAt, new Date(t - keepMs)),
          or(isNull(loginFailures.lockedUntil), lt(loginFailures.lockedUntil, new Date(t))),
        ),
      );
  }
}
