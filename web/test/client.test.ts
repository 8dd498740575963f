import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, call, configureClient, setFetch } from '../src/api/client';

function answer(body: unknown, status = 200) {
  return vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }));
}

afterEach(() => configureClient({ getToken: () => null, onTokenInvalid: () => undefined }));

describe('api client', () => {
  it('posts JSON to /api/<path> with the bearer token', async () => {
    const f = answer({ State: 200, UserInfo: { UserId: 1 } });
    setFetch(f as unknown as typeof fetch);
    configureClient({ getToken: () => 'tok', onTokenInvalid: () => undefined });
    await call('/User/UserInfo', { UserId: 1 });
    const [url, init] = f.mock.calls[0]!;
    expect(url).toBe('/api/User/UserInfo');
    expect(init!.method).toBe('POST');
    expect((init!.headers as Record<string, string>).Authorization).toBe('Bearer tok');
    expect(JSON.parse(init!.body as string)).toEqual({ UserId: 1 });
  });

  it("sends the console's language, so the server renders stored texts in it", async () => {
    const f = answer({ State: 200, Total: 0, Items: [] });
    setFetch(f as unknown as typeof fetch);
    configureClient({ getToken: () => 'tok', onTokenInvalid: () => undefined, getLanguage: () => 'en' });
    await call('/ExceptionMessage/ExceptionType', { PageNo: 1, PageCount: 10 });
    expect((f.mock.calls[0]![1]!.headers as Record<string, string>)['X-Language']).toBe('en');
  });

  it('sends no Authorization with the refresh call', async () => {
    const f = answer({ State: 200, info: { RefreshToken: 'r2', AccessToken: 'a2', ExpiresIn: 1 } });
    setFetch(f as unknown as typeof fetch);
    configureClient({ getToken: () => 'tok', onTokenInvalid: () => undefined });
    await call('/User/RefreshToken', { UserId: 1, RefreshToken: 'r1' });
    expect((f.mock.calls[0]![1]!.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it('login and change password succeed with State 0, everything else with 200', async () => {
    setFetch(answer({ State: 0, AccessToken: 'a', refreshToken: 'r', ExpiresIn: 1, Item: { UserId: 1, LoginName: 'x' } }) as unknown as typeof fetch);
    await expect(call('/User/Login', { LoginName: 'x', Password: 'abc123' })).resolves.toMatchObject({ AccessToken: 'a' });
    setFetch(answer({ State: 0 }) as unknown as typeof fetch);
    await expect(call('/User/UserInfo', { UserId: 1 })).rejects.toBeInstanceOf(ApiError);
  });

  it('throws a typed error with the message key, params and fields', async () => {
    setFetch(answer({ State: 400, Message: 'common.validation', Fields: [{ Field: 'Email', Message: 'validation.emailInvalid' }] }, 400) as unknown as typeof fetch);
    const err = (await call('/User/Register', { LoginName: 'a', Password: 'abc123', ConfirmPassword: 'abc123', Email: 'x' }).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.state).toBe(400);
    expect(err.messageKey).toBe('common.validation');
    expect(err.fields?.[0]?.Field).toBe('Email');
  });

  it('State 1100 ends the session unless the caller keeps it', async () => {
    const onTokenInvalid = vi.fn();
    configureClient({ getToken: () => 'tok', onTokenInvalid });
    setFetch(answer({ State: 1100, Message: 'common.tokenInvalid' }, 401) as unknown as typeof fetch);
    await expect(call('/User/UserInfo', { UserId: 1 })).rejects.toMatchObject({ state: 1100, tokenInvalid: true });
    expect(onTokenInvalid).toHaveBeenCalledTimes(1);
    await expect(call('/User/ChangePassword', { OldPass: 'a', NewPass: 'Abc123' }, { keepSessionOnTokenError: true })).rejects.toMatchObject({ state: 1100 });
    expect(onTokenInvalid).toHaveBeenCalledTimes(1);
  });

  it('a network failure is an error the console can translate', async () => {
    setFetch((async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as typeof fetch);
    await expect(call('/User/UserInfo', { UserId: 1 })).rejects.toMatchObject({ messageKey: 'errors.network' });
  });
});
