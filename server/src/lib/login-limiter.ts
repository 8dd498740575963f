// Failed logins, counted two ways (per process; behind a load balancer each process counts on its
// own, which still bounds guessing to a small multiple of the limits):
// - per account name and source (a browser that logged in to the account before, else the address):
//   `maxFailures` failures lock that pair, so one source cannot keep guessing;
// - per account name alone: `maxFailures * 4` failures from anywhere lock the account for *unknown*
//   sources only. A known source (the account's own browser, or an address it logged in from) is
//   let through, so a stranger's guessing cannot lock the owner out, while a distributed guess is
//   still bounded.
export class LoginLimiter {
  private failures = new Map<string, { count: number; first: number; lockedUntil: number }>();

  constructor(
    private maxFailures: number,
    private lockSeconds: number,
    private now: () => number = Date.now,
  ) {}

  private static name(loginName: string) {
    return loginName.trim().toLowerCase();
  }

  private wait(key: string): number {
    const e = this.failures.get(key);
    const t = this.now();
    return e && e.lockedUntil > t ? Math.ceil((e.lockedUntil - t) / 1000) : 0;
  }

  /** Seconds until this source may try the name again (its own failures), or 0. */
  sourceWait(loginName: string, source: string): number {
    return this.wait(`${LoginLimiter.name(loginName)}|${source}`);
  }

  /** Seconds until unknown sources may try the name again (failures from everywhere), or 0. */
  accountWait(loginName: string): number {
    return this.wait(`${LoginLimiter.name(loginName)}|*`);
  }

  fail(loginName: string, source: string) {
    const t = this.now();
    const name = LoginLimiter.name(loginName);
    for (const [key, limit] of [
      [`${name}|${source}`, this.maxFailures],
      [`${name}|*`, this.maxFailures * 4],
    ] as const) {
      let e = this.failures.get(key);
      if (!e || t - e.first > this.lockSeconds * 1000) e = { count: 0, first: t, lockedUntil: 0 };
      e.count += 1;
      if (e.count >= limit) e.lockedUntil = t + this.lockSeconds * 1000;
      this.failures.set(key, e);
    }
    if (this.failures.size > 100_000) this.prune(t);
  }

  /** A correct password clears the source's own count; the account's count runs out by itself. */
  succeed(loginName: string, source: string) {
    this.failures.delete(`${LoginLimiter.name(loginName)}|${source}`);
  }

  private prune(t: number) {
    for (const [k, e] of this.failures) if (t - e.first > this.lockSeconds * 1000 && e.lockedUntil < t) this.failures.delete(k);
  }
}
