import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';
import { landingPath } from '../access';
import { useSession } from '../stores/session';
import { logout } from '../session/auth';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // Home is the first page the user may open; with none at all, leaving is the only way out.
  const home = useSession((s) => (s.userInfo ? landingPath(s.permitted) : '/'));
  useEffect(() => {
    document.title = `${t('route:notFound')} - ${t('common:appName')}`;
  }, [t]);
  return (
    <div style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', background: '#fff' }}>
      <Result
        status="404"
        title={t('shell:notFound.title')}
        subTitle={t('shell:notFound.description')}
        extra={
          home ? (
            <Button type="primary" onClick={() => navigate(home, { replace: true })}>
              {t('common:backHome')}
            </Button>
          ) : (
            <Button type="primary" onClick={() => void logout()}>
              {t('shell:user.logout')}
            </Button>
          )
        }
      />
    </div>
  );
}
