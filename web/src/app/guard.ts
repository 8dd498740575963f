// The route guard of SPEC §2, as data-router loaders.
import { redirect, type LoaderFunctionArgs } from 'react-router';
import { isPathPermitted, landingPath, NOT_FOUND_PATH } from '../access';
import { useSession } from '../stores/session';
import { useNotice } from '../stores/notice';
import { ensureUserInfo } from '../session/auth';
import { loginPathFor } from './navigation';

function here(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** /login: a logged-in user goes to / (a password-reset link still opens the form). */
export function loginLoader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  if (useSession.getState().token && !url.searchParams.has('reset')) throw redirect('/');
  return null;
}

/** Any page but the open ones needs a token. */
export function requireToken({ request }: LoaderFunctionArgs) {
  if (!useSession.getState().token) throw redirect(loginPathFor(here(request)));
  return null;
}

/** The shell: a token, then the user's information; if that fails the token is reset. */
export async function shellLoader(args: LoaderFunctionArgs) {
  requireToken(args);
  try {
    await ensureUserInfo();
  } catch {
    useSession.getState().resetToken();
    useNotice.getState().show('login:userInfoFailed');
    throw redirect(loginPathFor(here(args.request)));
  }
  return null;
}

/**
 * A page of the route table: only when the user's permitted routes hold it; else the 404 page. The
 * home path leads a user without the monitor to the first page its set opens.
 */
export function pageLoader(fullPath: string) {
  return async (args: LoaderFunctionArgs) => {
    await shellLoader(args);
    const { permitted } = useSession.getState();
    if (isPathPermitted(permitted, fullPath)) return null;
    const landing = fullPath === '/' ? landingPath(permitted) : null;
    throw redirect(landing ?? NOT_FOUND_PATH);
  };
}

/** Unknown paths: the 404 page, or login first. */
export function catchAllLoader(args: LoaderFunctionArgs) {
  requireToken(args);
  throw redirect(NOT_FOUND_PATH);
}
