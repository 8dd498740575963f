// /login/:name/:pwd(/:language): logs in, then replaces the address so the password leaves it.
import { useEffect, useRef } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { resolveLocale } from '@wt/contract';
import { FullScreenSpin } from '../../components/FullScreenSpin';
import { login } from '../../session/auth';
import i18n, { currentLocale, setLocale } from '../../i18n';
import { ApiError } from '../../api/client';
import { useNotice } from '../../stores/notice';
import { safeRedirect } from './redirect';

export default function AutoLoginPage() {
  const { t } = useTranslation('login');
  const { name, pwd, language } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    if (language) setLocale(resolveLocale(language));
    const to = safeRedirect(params.get('redirect'));
    login(name ?? '', pwd ?? '', currentLocale())
      .then(() => navigate(to, { replace: true }))
      .catch((err: unknown) => {
        useNotice.getState().show(err instanceof ApiError && i18n.exists(`messages:${err.messageKey}`) ? `messages:${err.messageKey}` : 'login:autoLoginFailed');
        navigate('/login', { replace: true });
      });
  }, [name, pwd, language, params, navigate]);

  return <FullScreenSpin tip={t('autoLogin')} />;
}
