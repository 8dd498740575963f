// /auth-redirect: the landing page of a sign-in done elsewhere; it forwards to the page asked for
// (or the home page) when a session exists, else to login.
import { useEffect } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { FullScreenSpin } from '../../components/FullScreenSpin';
import { useSession } from '../../stores/session';
import { loginPathFor } from '../../app/navigation';
import { safeRedirect } from './redirect';

export default function AuthRedirectPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = useSession((s) => s.token);
  useEffect(() => {
    const to = safeRedirect(params.get('redirect'));
    navigate(token ? to : loginPathFor(to), { replace: true });
  }, [navigate, params, token]);
  return <FullScreenSpin />;
}
