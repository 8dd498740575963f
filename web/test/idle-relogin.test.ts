// @vitest-environment jsdom
// After long idleness the server answers 1100 with common.idleRelogin (SPEC §8): the console goes
// to login with that message, not the expired-token one; other 1100 answers keep the expired-token one.
import { beforeEach, describe, expect, it } from 'vitest';
import { call, setFetch } from '../src/api/client';
import '../src/session/auth';
import { useSession } from '../src/stores/session';
import { useNotice } from '../src/stores/notice';

const answer = (body: unknown) => (async () => new Response(JSON.stringify(body), { status: 401 })) as unknown as typeof fetch;

beforeEach(() => {
  useNotice.setState({ key: null });
  useSession.setState({ token: 'tok', userId: 1 });
});

describe('relogin notice', () => {
  it('after long idleness is the idleness message', async () => {
    setFetch(answer({ State: 1100, Message: 'common.idleRelogin' }));
    await expect(call('/User/UserInfo', { UserId: 1 })).rejects.toMatchObject({ state: 1100 });
    expect(useNotice.getState().key).toBe('messages:common.idleRelogin');
    expect(useSession.getState().token).toBeNull();
  });

  it('for a rejected token stays the expired-token message', async () => {
    setFetch(answer({ State: 1100, Message: 'common.tokenInvalid' }));
    await expect(call('/User/UserInfo', { UserId: 1 })).rejects.toMatchObject({ state: 1100 });
    expect(useNotice.getState().key).toBe('messages:common.tokenInvalid');
  });
});
