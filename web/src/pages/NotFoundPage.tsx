import { Button, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useEffect } from 'react';

export default function NotFoundPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
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
          <Button type="primary" onClick={() => navigate('/', { replace: true })}>
            {t('common:backHome')}
          </Button>
        }
      />
    </div>
  );
}
