// Login, session, recovery and scoping flows against a real platform on each database.
import { once } from 'node:events';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databases, startTestPlatform, type TestPlatform } from './helpers.js';

describe.each(databases())('accounts and authentication on %s', (kind) => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform(kind, { LOGIN_MAX_FAILURES: '3', LOGIN_LOCK_SECONDS: '60' });
  });
  afterAll(() => p?.stop());

  it('logs in with State 0, tokens and the user id, matching the name case-insensitively', async () => {
    const r = await p.call('/User/Login', { LoginName: 'ADMIN', Password: 'admin123' });
    expect(r.status).toBe(200);
    expect(r.body.State).toBe(0);
    expect(r.body.AccessToken).toMatch(/\./);
    expect(r.body.refreshToken.length).toBeGreaterThan(20);
    expect(r.body.Item).toEqual({ UserId: expect.any(Number), LoginName: 'admin' });
  });

  it('refuses a wrong password with the §8 message in the caller language', async () => {
    const r = await p.call('/User/Login', { LoginName: 'operator01', Password: 'wrong12' }, undefined, { 'accept-language': 'en' });
    expect(r.body.State).not.toBe(0);
    expect(r.body.Message).toBe('auth.loginFailed');
    expect(r.body.Text).toBe('Login failed: account or password wrong');
  });

  it('validates the §5 login rules before looking anything up', async () => {
    const short = await p.call('/User/Login', { LoginName: 'admin', Password: 'ab1' });
    expect(short.status).toBe(400);
    expect(short.body.Fields).toEqual([expect.objectContaining({ Field: 'Password', Message: 'validation.passwordMin' })]);
    const symbols = await p.call('/User/Login', { LoginName: 'admin', Password: 'abc_123!' });
    expect(symbols.body.Fields[0].Message).toBe('validation.passwordAlnum');
    const missing = await p.call('/User/Login', {});
    expect(missing.body.Fields.map((f: { Field: string }) => f.Field).sort()).toEqual(['LoginName', 'Password']);
  });

  it('locks an account name and address after repeated failures, even for the right password', async () => {
    await p.call('/User/Register', { LoginName: 'locked01', Password: 'abc123', ConfirmPassword: 'abc123', Email: 'locked01@example.com' });
    for (let i = 0; i < 3; i++) await p.call('/User/Login', { LoginName: 'locked01', Password: 'wrong12' });
    const r = await p.call('/User/Login', { LoginName: 'locked01', Password: 'abc123' });
    expect(r.status).toBe(429);
    expect(r.body.Message).toBe('auth.tooManyAttempts');
    expect(r.body.Params.seconds).toBeGreaterThan(0);
    // Another account is not affected.
    expect((await p.call('/User/Login', { LoginName: 'agent01', Password: 'admin123' })).body.State).toBe(0);
  });

  it('answers 1100 with HTTP 401 without a token, with a forged one and with garbage', async () => {
    const { token } = await p.login();
    const forged = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    for (const t of [undefined, 'garbage', forged]) {
      const r = await p.call('/User/UserInfo', {}, t);
      expect(r.status).toBe(401);
      expect(r.body.State).toBe(1100);
    }
  });

  it('gives the UserInfo of §3 with the effective user type of §4', async () => {
    const admin = await p.login();
    const info = (await p.call('/User/UserInfo', { UserId: admin.userId }, admin.token)).body;
    expect(info.State).toBe(200);
    expect(info.UserInfo).toMatchObject({ UserId: admin.userId, UserType: 3, RoleLabel: 'admin', LoginName: 'admin', routes: '' });
    expect(info.UserInfo.PageName).not.toBe('');
    // viewer01 is type 7 with a routes list lacking /health/detail.
    const viewer = await p.login('viewer01');
    const v = (await p.call('/User/UserInfo', {}, viewer.token)).body.UserInfo;
    expect(v.UserType).toBe(7);
    expect(v.RoleLabel).toBe('editor-healthdata');
    expect(v.routes.split(',')).toContain('/devices/list');
    expect(v.routes.split(',')).not.toContain('/health/detail');
  });

  it('keeps every account inside its own subtree', async () => {
    const admin = await p.login();
    const agent = await p.login('agent01');
    const ids = Object.fromEntries(
      await Promise.all(
        ['clinic01', 'operator01', 'viewer01'].map(async (n) => [n, (await p.login(n)).userId] as const),
      ),
    );
    // The administrator sees everyone below it.
    expect((await p.call('/User/UserInfo', { UserId: ids.clinic01 }, admin.token)).body.State).toBe(200);
    // The agent sees its own child ...
    expect((await p.call('/User/UserInfo', { UserId: ids.clinic01 }, agent.token)).body.UserInfo.LoginName).toBe('clinic01');
    // ... but neither a sibling nor its parent, for reading or writing.
    for (const id of [ids.operator01, admin.userId]) {
      const read = await p.call('/User/UserInfo', { UserId: id }, agent.token);
      expect(read.status).toBe(403);
      expect(read.body.Message).toBe('account.notInScope');
      const write = await p.call('/User/EditUserInfo', { UserId: id, Username: 'hijacked' }, agent.token);
      expect(write.status).toBe(403);
    }
    const after = (await p.call('/User/UserInfo', { UserId: ids.operator01 }, admin.token)).body.UserInfo;
    expect(after.Username).not.toBe('hijacked');
    // The login log of the agent's subtree holds no sibling entries.
    const logs = (await p.call('/User/allUserLoginLog', { PageNo: 1, PageCount: 100 }, agent.token)).body;
    expect(logs.Items.length).toBeGreaterThan(0);
    expect(new Set(logs.Items.map((l: { LoginName: string }) => l.LoginName))).toEqual(new Set(['agent01', 'clinic01']));
  });

  it('rotates the refresh token and ends the session when an old one is replayed', async () => {
    const s = await p.login('operator01');
    const first = await p.call('/User/RefreshToken', { UserId: s.userId, RefreshToken: s.refreshToken });
    expect(first.body.State).toBe(200);
    const next = first.body.info.RefreshToken;
    expect(next).not.toBe(s.refreshToken);
    expect((await p.call('/User/UserInfo', {}, first.body.info.AccessToken)).body.State).toBe(200);
    // The console's spelling (AccessToken carrying the refresh token) works too.
    const second = await p.call('/User/RefreshToken', { UserId: s.userId, AccessToken: next });
    expect(second.body.State).toBe(200);
    // Replaying the first token (stolen) is refused and ends the session.
    const replay = await p.call('/User/RefreshToken', { UserId: s.userId, RefreshToken: next });
    expect(replay.body.State).toBe(1100);
    const after = await p.call('/User/RefreshToken', { UserId: s.userId, RefreshToken: second.body.info.RefreshToken });
    expect(after.body.State).toBe(1100);
  });

  it('registers a new account and refuses an existing account or email', async () => {
    const body = { LoginName: 'newuser1', Password: 'abc123', ConfirmPassword: 'abc123', Email: 'new1@example.com' };
    expect((await p.call('/User/Register', body)).body.State).toBe(200);
    expect((await p.call('/User/Register', body)).body.Message).toBe('auth.accountExists');
    expect((await p.call('/User/Register', { ...body, LoginName: 'newuser2', Email: 'NEW1@example.com' })).body.Message).toBe('auth.emailExists');
    const mismatch = await p.call('/User/Register', { ...body, LoginName: 'newuser3', ConfirmPassword: 'abc124' });
    expect(mismatch.body.Fields[0]).toMatchObject({ Field: 'ConfirmPassword', Message: 'validation.passwordMismatch' });
    expect((await p.login('newuser1', 'abc123')).token).toBeTruthy();
  });

  it('changes the password under the §5 rules, ends other sessions and logs 1005', async () => {
    const body = { LoginName: 'changer1', Password: 'abc123', ConfirmPassword: 'abc123', Email: 'changer1@example.com' };
    await p.call('/User/Register', body);
    const a = await p.login('changer1', 'abc123');
    const other = await p.login('changer1', 'abc123');
    const weak = await p.call('/User/ChangePassword', { OldPass: 'abc123', NewPass: 'abcdef1', RePass: 'abcdef1' }, a.token);
    expect(weak.body.Fields[0].Message).toBe('validation.passwordComplex');
    const same = await p.call('/User/ChangePassword', { OldPass: 'Abc1234', NewPass: 'Abc1234', RePass: 'Abc1234' }, a.token);
    expect(same.body.Fields[0].Message).toBe('validation.passwordSameAsOld');
    const wrongOld = await p.call('/User/ChangePassword', { OldPass: 'nope12', NewPass: 'Abc1234', RePass: 'Abc1234' }, a.token);
    expect(wrongOld.body.Message).toBe('auth.oldPasswordWrong');
    const ok = await p.call('/User/ChangePassword', { UserId: a.userId, OldPass: 'abc123', NewPass: 'Abc1234', RePass: 'Abc1234' }, a.token);
    expect(ok.body.State).toBe(0);
    // The other session is over at once; this one lives until its logout.
    expect((await p.call('/User/UserInfo', {}, other.token)).body.State).toBe(1100);
    expect((await p.call('/User/SaveUserLoginLog', { ActionCode: 1005 }, a.token)).body.State).toBe(200);
    expect((await p.call('/User/SaveUserLoginLog', { ActionCode: 1004 }, a.token)).body.State).toBe(200);
    expect((await p.call('/User/UserInfo', {}, a.token)).body.State).toBe(1100);
    expect((await p.call('/User/Login', { LoginName: 'changer1', Password: 'abc123' })).body.State).not.toBe(0);
    const b = await p.login('changer1', 'Abc1234');
    const logs = (await p.call('/User/allUserLoginLog', { PageNo: 1, PageCount: 50, UserId: b.userId }, b.token)).body.Items;
    const codes = logs.map((l: { ActionCode: number }) => l.ActionCode);
    expect(codes.filter((c: number) => c === 1005)).toHaveLength(1);
    expect(codes).toContain(1004);
    expect(codes).toContain(1001);
    expect(logs[0]).toMatchObject({ IPAddress: expect.stringMatching(/127\.0\.0\.1/), ClientType: expect.any(String) });
  });

  it('saves the map label, fence, SOS animation and batch command toggles, -1 read as hidden', async () => {
    const { token, userId } = await p.login('operator01');
    expect((await p.call('/User/EditUserInfoByStatus', { isShowMapLabel: -1 }, token)).body.UserInfo.isShowMapLabel).toBe(2);
    expect((await p.call('/User/EditUserInfoByStatus', { isShowMapLabel: 1 }, token)).body.UserInfo.isShowMapLabel).toBe(1);
    expect((await p.call('/User/EditUserInfoByFenceStatus', { IsShowMonitorFence: 1 }, token)).body.UserInfo.IsShowMonitorFence).toBe(1);
    expect((await p.call('/User/EditUserInfoBySosAlarm', { switchAnimation: 2 }, token)).body.UserInfo.switchAnimation).toBe(2);
    // Batch command is a service: granted by the account above, not by the account to itself.
    expect((await p.call('/User/EditUserBatchSendCmd', { switchFunctionSendCmd: 1 }, token)).body.Fields[0]).toMatchObject({ Field: 'switchFunctionSendCmd', Message: 'platform.serviceSelf' });
    const admin = (await p.login()).token;
    expect((await p.call('/User/EditUserBatchSendCmd', { UserId: userId, switchFunctionSendCmd: 1 }, admin)).body.UserInfo.switchFunctionSendCmd).toBe(1);
    const bad = await p.call('/User/EditUserInfoBySosAlarm', { switchAnimation: 3 }, token);
    expect(bad.status).toBe(400);
  });

  it('matches call paths case-insensitively, and every call of the registry is implemented', async () => {
    const { token } = await p.login();
    expect((await p.call('/user/userinfo', {}, token)).body.State).toBe(200);
    // A call without a handler would answer 501 common.notImplemented; the OpenAPI summary marks it.
    const doc = (await (await fetch(`${p.url}/api/docs/json`)).json()) as any;
    const missing = Object.entries(doc.paths as Record<string, any>)
      .filter(([, v]) => String(v.post?.summary ?? '').includes('not implemented'))
      .map(([k]) => k);
    expect(missing).toEqual([]);
    expect(Object.keys(doc.paths).filter((k) => k.startsWith('/api/')).length).toBeGreaterThanOrEqual(190);
  });

  it('serves the OpenAPI document generated from the schemas', async () => {
    const doc = (await (await fetch(`${p.url}/api/docs/json`)).json()) as any;
    expect(doc.openapi).toMatch(/^3\./);
    const login = doc.paths['/api/User/Login'].post;
    expect(Object.keys(login.requestBody.content['application/json'].schema.properties)).toEqual(
      expect.arrayContaining(['LoginName', 'Password']),
    );
  });
});

describe.each(databases())('access token expiry on %s', (kind) => {
  let p: TestPlatform;
  beforeAll(async () => {
    p = await startTestPlatform(kind, { ACCESS_TOKEN_TTL: '5' });
  });
  afterAll(() => p?.stop());

  it('answers 1100 once the access token has expired, and a refresh brings a working one', async () => {
    const s = await p.login();
    expect((await p.call('/User/UserInfo', {}, s.token)).body.State).toBe(200);
    await new Promise((r) => setTimeout(r, 5500));
    const expired = await p.call('/User/UserInfo', {}, s.token);
    expect(expired.status).toBe(401);
    expect(expired.body.State).toBe(1100);
    const refreshed = await p.call('/User/RefreshToken', { UserId: s.userId, RefreshToken: s.refreshToken });
    expect((await p.call('/User/UserInfo', {}, refreshed.body.info.AccessToken)).body.State).toBe(200);
  });
});

describe.each(databases())('password recovery by mail on %s', (kind) => {
  let p: TestPlatform;
  let smtp: SMTPServer;
  const inbox: { to: string; raw: string }[] = [];
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, cb) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          inbox.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw });
          cb();
        });
      },
    });
    smtp.listen(0, '127.0.0.1');
    await once(smtp.server, 'listening');
    const port = (smtp.server.address() as { port: number }).port;
    p = await startTestPlatform(kind, { SMTP_URL: `smtp://127.0.0.1:${port}`, PUBLIC_URL: 'http://console.test' });
  });
  afterAll(async () => {
    await p?.stop();
    await new Promise<void>((r) => smtp.close(() => r()));
  });

  it('mails a reset link through SMTP, resets once, and refuses a wrong account or email', async () => {
    const wrong = await p.call('/User/FindPassword', { LoginName: 'operator01', Email: 'someone@else.com' });
    expect(wrong.body.Message).toBe('auth.resetFailed');
    expect(inbox).toHaveLength(0);

    const r = await p.call('/User/FindPassword', { LoginName: 'operator01', Email: 'OPERATOR01@weartrack.local', Language: 'en' });
    expect(r.body.State).toBe(200);
    expect(inbox).toHaveLength(1);
    expect(inbox[0]!.to).toBe('operator01@weartrack.local');
    const text = inbox[0]!.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(text).toMatch(/password reset/i);
    const token = decodeURIComponent(/http:\/\/console\.test\/login\?reset=([A-Za-z0-9_%-]+)/.exec(text)![1]!);

    const before = await p.login('operator01');
    const mismatch = await p.call('/User/ResetPassword', { Token: token, NewPassword: 'newpass1', ConfirmPassword: 'newpass2' });
    expect(mismatch.body.Fields[0].Message).toBe('validation.passwordMismatch');
    const ok = await p.call('/User/ResetPassword', { Token: token, NewPassword: 'newpass1', ConfirmPassword: 'newpass1' });
    expect(ok.body.State).toBe(200);
    // Used once only; the old sessions end; the new password works and the old one no longer does.
    expect((await p.call('/User/ResetPassword', { Token: token, NewPassword: 'newpass2', ConfirmPassword: 'newpass2' })).body.Message).toBe('auth.resetTokenInvalid');
    expect((await p.call('/User/UserInfo', {}, before.token)).body.State).toBe(1100);
    expect((await p.call('/User/Login', { LoginName: 'operator01', Password: 'admin123' })).body.State).not.toBe(0);
    expect((await p.login('operator01', 'newpass1')).token).toBeTruthy();
  });
});
