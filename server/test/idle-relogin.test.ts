// After long idleness the console is told to log in again with SPEC §8's idleness message
// (common.idleRelogin): a genuine access token that ran out, or a session that expired unrenewed.
// A forged, garbled or ended (logged out) token keeps the expired-token message.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signAccessToken, type AccessClaims } from '../src/lib/tokens.js';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.slice(0, token.indexOf('.')), 'base64url').toString('utf8')) as AccessClaims;

describe.each(databases())('relogin messages on %s', (kind) => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform(kind);
  });
  afterAll(() => p?.stop());

  const info = async (token: string) => {
    const r = await p.call('/User/UserInfo', {}, token, { 'accept-language': 'en' });
    return [r.status, r.body.State, r.body.Message, r.body.Text];
  };

  it('says to log in again after long idleness when the access token ran out', async () => {
    const { token } = await p.login('agent01');
    const ran = signAccessToken(p.deps.authSecret, { ...claimsOf(token), exp: Math.floor(Date.now() / 1000) - 60 });
    expect(await info(ran)).toEqual([401, 1100, 'common.idleRelogin', 'After a long time idle you must log in again, or check and retry']);
  });

  it('says the same when the session itself expired unrenewed', async () => {
    const { token } = await p.login('agent01');
    await p.deps.database.db.execute(sql`UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE id = ${claimsOf(token).sid}`);
    expect((await info(token)).slice(0, 3)).toEqual([401, 1100, 'common.idleRelogin']);
  });

  it('keeps the expired-token message for a forged or garbled token and an ended session', async () => {
    const { token } = await p.login('agent01');
    expect((await info(`${token.slice(0, -4)}AAAA`)).slice(0, 3)).toEqual([401, 1100, 'common.tokenInvalid']);
    expect((await info('garbage')).slice(0, 3)).toEqual([401, 1100, 'common.tokenInvalid']);
    const forged = signAccessToken('not-the-secret', { ...claimsOf(token), exp: Math.floor(Date.now() / 1000) - 60 });
    expect((await info(forged)).slice(0, 3)).toEqual([401, 1100, 'common.tokenInvalid']);
    const other = await p.login('agent01');
    await p.deps.database.db.execute(sql`UPDATE sessions SET revoked_at = now() WHERE id = ${claimsOf(other.token).sid}`);
    expect((await info(other.token)).slice(0, 3)).toEqual([401, 1100, 'common.tokenInvalid']);
  });
});
