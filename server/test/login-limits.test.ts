// Failed logins, behind a trusted proxy so that each forwarded address is a source of its own: the
// lock of one source, the account's delay for new places growing with each failure (and the same
// for a name no account has), the owner's browser and addresses that the delay never holds up, the
// wait and the mailed unlock link that let a new place in, and the counts shared by processes. The
// platform's login clock is moved by the tests, never waited for.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, peerProcesses, peersAvailable, startTestPlatform, type TestPlatform } from './helpers.js';

interface Answer {
  status: number;
  body: { State: number; Message?: string; Params?: { seconds?: number }; Text?: string; LoginName?: string };
  /** The `name=value` of the known-browser mark the answer set, if any. */
  mark?: string;
  setCookie?: string;
}

async function post(url: string, body: unknown, headers: Record<string, string>): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'en', ...headers },
    body: JSON.stringify(body),
  });
  const setCookie = res.headers.getSetCookie().find((c) => c.startsWith('wt_known_'));
  return {
    status: res.status,
    body: (await res.json()) as Answer['body'],
    mark: setCookie?.split(';')[0],
    setCookie,
  };
}

/** The text of a mail as written to the outbox (quoted-printable soft breaks and `=` undone). */
const mailText = (raw: string) => raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

describe.each(databases())('failed logins on %s', (kind) => {
  let p: TestPlatform;
  let clock = Date.now();
  beforeAll(async () => {
    p = await startTestPlatform(
      kind,
      { TRUSTED_PROXIES: 'loopback', PUBLIC_URL: 'http://console.test' },
      { now: () => clock },
    );
  });
  afterAll(() => p?.stop());

  const login = (address: string, LoginName: string, Password: string, cookie?: string) =>
    post(
      `${p.url}/api/User/Login`,
      { LoginName, Password },
      { 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
    );
  const unlock = (address: string, Token: string) =>
    post(`${p.url}/api/User/UnlockBrowser`, { Token }, { 'x-forwarded-for': address });
  async function register(name: string) {
    const r = await p.call('/User/Register', {
      LoginName: name,
      Password: 'abc123',
      ConfirmPassword: 'abc123',
      Email: `${name}@example.com`,
      Language: 'en',
    });
    expect(r.body.State).toBe(200);
  }
  /** One wrong password from each of `count` addresses `<prefix>.1…`, or two each from half as many. */
  async function guess(name: string, prefix: string, count: number, perAddress = 1) {
    for (let i = 0; i < count; i++) {
      const r = await login(`${prefix}.${Math.floor(i / perAddress) + 1}`, name, 'wrong12');
      expect(r.body.Message, `failure ${i + 1}`).toBe('auth.loginFailed');
    }
  }
  /** The unlock mails the outbox holds for an address, oldest first. */
  function unlockMails(to: string): string[] {
    const dir = path.join(p.dataDir, 'outbox');
    if (!existsSync(dir)) return [];
    return readdirSync(dir)
      .sort()
      .map((f) => mailText(readFileSync(path.join(dir, f), 'utf8')))
      .filter((m) => m.includes(to) && m.includes('/login?unlock='));
  }
  const tokenOf = (mail: string) =>
    decodeURIComponent(/http:\/\/console\.test\/login\?unlock=([A-Za-z0-9_%-]+)/.exec(mail)![1]!);

  it("keeps the owner's browser and addresses open while 20 failures over 10 addresses delay new places, until the wait ends", async () => {
    await register('roamer01');
    const first = await login('192.0.2.10', 'roamer01', 'abc123');
    expect(first.body.State).toBe(0);
    expect(first.setCookie).toMatch(/HttpOnly/i);
    expect(first.setCookie).toMatch(/SameSite=Strict/i);
    // Two wrong passwords from each of ten addresses: no address reaches its own limit.
    await guess('roamer01', '198.51.100', 20, 2);
    const stranger = await login('203.0.113.50', 'roamer01', 'abc123');
    expect(stranger.status).toBe(429);
    expect(stranger.body).toMatchObject({ Message: 'auth.tooManyAttemptsNewPlace', Params: { seconds: 30 } });
    expect(stranger.body.Text).toContain('try again in 30 seconds, or open the unlock link');
    // The owner's address and its browser anywhere are not delayed; a mark the server did not sign is no mark.
    expect((await login('192.0.2.10', 'roamer01', 'abc123')).body.State).toBe(0);
    expect((await login('203.0.113.77', 'roamer01', 'abc123', first.mark)).body.State).toBe(0);
    const forged = `${first.mark!.split('=')[0]}=abc.${'A'.repeat(43)}`;
    expect((await login('203.0.113.78', 'roamer01', 'abc123', forged)).status).toBe(429);
    // Once the wait is over, a new place with the right password gets in.
    clock += 29_000;
    expect((await login('203.0.113.51', 'roamer01', 'abc123')).body.Params).toEqual({ seconds: 1 });
    clock += 1_000;
    expect((await login('203.0.113.51', 'roamer01', 'abc123')).body.State).toBe(0);
  });

  it('doubles the delay with each further failure up to LOGIN_DELAY_MAX_SECONDS, not counting refused attempts', async () => {
    await register('target01');
    await guess('target01', '198.18.0', 20);
    const waits: number[] = [];
    for (let i = 1; i <= 7; i++) {
      // Refused without being checked, however often: only checked failures make the delay grow.
      for (let j = 0; j < 3; j++)
        expect((await login(`198.18.1.${i}`, 'target01', 'abc123')).status).toBe(429);
      const refused = await login(`198.18.1.${i}`, 'target01', 'wrong12');
      expect(refused.body.Message).toBe('auth.tooManyAttemptsNewPlace');
      waits.push(refused.body.Params!.seconds!);
      clock += refused.body.Params!.seconds! * 1000;
      expect((await login(`198.18.2.${i}`, 'target01', 'wrong12')).body.Message).toBe('auth.loginFailed');
    }
    expect(waits).toEqual([30, 60, 120, 240, 480, 900, 900]);
    // A name no account has is answered alike: the delay tells nothing of which names exist.
    await guess('nobody01', '198.18.3', 20);
    expect((await login('198.18.4.1', 'nobody01', 'abc123')).body).toMatchObject({
      Message: 'auth.tooManyAttemptsNewPlace',
      Params: { seconds: 30 },
    });
  });

  it('mails the owner a one-time, short-lived link that makes the browser opening it known to the account', async () => {
    await register('mailer01');
    await guess('mailer01', '198.19.0', 20);
    expect((await login('203.0.113.60', 'mailer01', 'abc123')).status).toBe(429);
    await expect.poll(() => unlockMails('mailer01@example.com').length).toBe(1);
    const [mail] = unlockMails('mailer01@example.com');
    expect(mail).toMatch(/logins to your account from new places are slowed down/);
    const token = tokenOf(mail!);

    // Opened in a new browser, in yet another place: that browser now has the account's mark...
    const opened = await unlock('203.0.113.61', token);
    expect(opened.body).toMatchObject({ State: 200, Message: 'auth.browserUnlocked', LoginName: 'mailer01' });
    expect(opened.setCookie).toMatch(/Path=\/api\/User\/Login/);
    expect(opened.setCookie).toMatch(/HttpOnly/i);
    expect(opened.setCookie).toMatch(/SameSite=Strict/i);
    // ...and gets in with the password, while the delay still holds other new places up.
    expect((await login('203.0.113.62', 'mailer01', 'wrong12', opened.mark)).body.Message).toBe(
      'auth.loginFailed',
    );
    expect((await login('203.0.113.62', 'mailer01', 'abc123', opened.mark)).body.State).toBe(0);
    expect((await login('203.0.113.63', 'mailer01', 'abc123')).status).toBe(429);
    // The link works once.
    const again = await unlock('203.0.113.64', token);
    expect(again.status).toBe(400);
    expect(again.body).toMatchObject({ Message: 'auth.unlockTokenInvalid' });
    expect(again.mark).toBeUndefined();

    // Ten minutes on, a new failure delays new places again and the next refusal mails a new link,
    // which no longer works after its 30 minutes.
    clock += 10 * 60_000 + 1000;
    expect((await login('198.19.1.1', 'mailer01', 'wrong12')).body.Message).toBe('auth.loginFailed');
    expect((await login('203.0.113.65', 'mailer01', 'abc123')).status).toBe(429);
    await expect.poll(() => unlockMails('mailer01@example.com').length).toBe(2);
    const second = unlockMails('mailer01@example.com')
      .map(tokenOf)
      .find((t) => t !== token)!;
    clock += 30 * 60_000 + 1000;
    expect((await unlock('203.0.113.66', second)).body.Message).toBe('auth.unlockTokenInvalid');
    expect((await unlock('203.0.113.66', 'not-a-token')).body.Message).toBe('auth.unlockTokenInvalid');
  });

  it('lets at most one unlock mail go out per account name every 10 minutes, and only while new places are delayed', async () => {
    const limiter = p.deps.loginLimiter;
    const every = 10 * 60_000;
    expect(await limiter.claimUnlockMail('claims01', every)).toBe(false);
    for (let i = 1; i <= 20; i++) await limiter.fail('claims01', `address:10.9.0.${i}`);
    // Racing claims: one wins.
    expect(
      (await Promise.all([1, 2, 3].map(() => limiter.claimUnlockMail('Claims01', every)))).sort(),
    ).toEqual([false, false, true]);
    clock += 25_000;
    expect(await limiter.claimUnlockMail('claims01', every)).toBe(false);
    // The delay over, nothing to unlock; delayed again past the ten minutes, one more.
    clock += every;
    expect(await limiter.claimUnlockMail('claims01', every)).toBe(false);
    await limiter.fail('claims01', 'address:10.9.1.1');
    expect(await limiter.claimUnlockMail('claims01', every)).toBe(true);
    expect(await limiter.claimUnlockMail('claims01', every)).toBe(false);
  });

  it('still locks one source after LOGIN_MAX_FAILURES failures, for LOGIN_LOCK_SECONDS, and only that source', async () => {
    await register('single01');
    for (let i = 0; i < 5; i++)
      expect((await login('198.51.100.200', 'single01', 'wrong12')).body.Message).toBe('auth.loginFailed');
    const locked = await login('198.51.100.200', 'single01', 'abc123');
    expect(locked.status).toBe(429);
    expect(locked.body).toMatchObject({ Message: 'auth.tooManyAttempts', Params: { seconds: 900 } });
    // Five failures are far from the account's twenty: another new place is not delayed.
    expect((await login('198.51.100.201', 'single01', 'abc123')).body.State).toBe(0);
    clock += 899_000;
    expect((await login('198.51.100.200', 'single01', 'abc123')).status).toBe(429);
    clock += 1000;
    expect((await login('198.51.100.200', 'single01', 'abc123')).body.State).toBe(0);
  });

  it("forgets an account's failures a day after the last one, and prunes the counts nothing remembers", async () => {
    await register('forget01');
    await guess('forget01', '198.20.0', 20);
    expect((await login('198.20.1.1', 'forget01', 'abc123')).status).toBe(429);
    clock += 24 * 3600_000 + 1000;
    // A failure a day later starts a new count, far from the twenty: nothing is delayed.
    expect((await login('198.20.1.2', 'forget01', 'wrong12')).body.Message).toBe('auth.loginFailed');
    expect((await login('198.20.1.3', 'forget01', 'abc123')).body.State).toBe(0);
    // The twenty addresses' counts are gone from the table.
    const left = await p.deps.database.query<{ key: string }>(
      `SELECT key FROM login_failures WHERE key LIKE 'forget01|%' ORDER BY key`,
    );
    expect(left.map((r) => r.key)).toEqual(['forget01|*', 'forget01|address:198.20.1.2']);
  });
});

describe.skipIf(!peersAvailable())('failed logins counted across processes', () => {
  const peers = peerProcesses();

  it('locks a source on one process after failures counted on another', async () => {
    const { p, q } = peers;
    const on = (url: string, Password: string) =>
      post(`${url}/api/User/Login`, { LoginName: 'viewer01', Password }, {});
    for (let i = 0; i < 3; i++) expect((await on(p.url, 'wrong12')).body.Message).toBe('auth.loginFailed');
    for (let i = 0; i < 2; i++) expect((await on(q.url, 'wrong12')).body.Message).toBe('auth.loginFailed');
    expect((await on(p.url, 'admin123')).body.Message).toBe('auth.tooManyAttempts');
    expect((await on(q.url, 'admin123')).body.Message).toBe('auth.tooManyAttempts');
  });
});
