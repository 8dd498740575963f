// Applying a permission set to oneself (SPEC §4 "changing the role"): the server ends the session
// and answers a new token; the console takes it, drops what it knew (user information, cached
// answers, open tabs), reads the user information again, which regenerates the routes and the
// menu, and opens this page again when the new set still shows it (else the home page).
import { call } from '../../../api/client';
import { isPathPermitted } from '../../../access';
import { REDIRECT_PREFIX } from '../../../stores/tagsLogic';
import { navigateTo } from '../../../app/navigation';
import { queryClient } from '../../../app/queryClient';
import { ensureUserInfo } from '../../../session/auth';
import { useSession } from '../../../stores/session';
import { useTags } from '../../../stores/tags';

export async function applyPermissionSet(id: number): Promise<void> {
  const r = await call('/user/applyPermissionSet', { Id: id });
  const s = useSession.getState();
  s.setLogin({ token: r.AccessToken, refreshToken: r.refreshToken, userId: s.userId!, loginName: s.loginName! });
  useTags.getState().clear();
  queryClient.clear();
  await ensureUserInfo();
  const here = window.location.pathname;
  // Through the redirect page, so this page opens afresh and its tag comes back.
  navigateTo(isPathPermitted(useSession.getState().permitted, here) ? `${REDIRECT_PREFIX}${here}` : '/', { replace: true });
}
