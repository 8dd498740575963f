// Repeated failed logins lock the pair (account name, address) and the account name alone for a
// while. The counter is per process; behind a load balancer each process counts on its own, which
// still bounds guessing to a small multiple of the limit.
export class LoginLimiter {
  private failures = new Map<string, { count: number; first: number; lockedUntil: number }>();

  constructor(
    private maxFailures: number,
    private lockSeconds: number,
    private now: () => number = Date.now,
  ) {}

  private keys(loginName: string, ip: string) {
    const name = loginName.trim().toLowerCase();
    // The name alone locks at a higher count, so one address cannot lock a user out from everywhere
    // at the same pace as it guesses, yet a distributed guess is still bounded.
    return [`${name}|${ip}`, `${name}|*`];
  }

  /** Seconds until the next attempt is allowed, or 0. */
  retryAfter(loginName: string, ip: string): number {
    const t = this.now();
    let wait = 0;
    for (const k of this.keys(loginName, ip)) {
      const e = this.failures.get(k);
      if (e && e.lockedUntil > t) wait = Math.max(wait, Math.ceil((e.lockedUntil - t) / 1000));
    }
    return wait;
  }

  fail(loginName: string, ip: string) {
    const t = this.now();
    this.keys(loginName, ip).forEach((k, i) => {
      const limit = i === 0 ? this.maxFailures : this.maxFailures * 4;
      let e = this.failures.get(k);
      if (!e || t - e.first > this.lockSeconds * 1000) e = { count: 0, first: t, lockedUntil: 0 };
      e.count += 1;
      if (e.count >= limit) e.lockedUntil = t + this.lockSeconds * 1000;
      this.failures.set(k, e);
    });
    if (this.failures.size > 100_000) this.prune(t);
  }

  succeed(loginName: string, ip: string) {
    this.failures.delete(this.keys(loginName, ip)[0]!);
  }

  private prune(t: number) {
    for (const [k, e] of this.failures) if (t - e.first > this.lockSeconds * 1000 && e.lockedUntil < t) this.failures.delete(k);
  }
}
