// /redirect/<path>: leaves and comes straight back, so the page at <path> mounts afresh (tag refresh).
import { useEffect } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export default function RedirectPage() {
  const { t } = useTranslation();
  const params = useParams();
  const { search } = useLocation();
  const navigate = useNavigate();
  const target = `/${params['*'] ?? ''}${search}`;
  useEffect(() => {
    navigate(target, { replace: true });
  }, [navigate, target]);
  return <Spin tip={t('shell:redirecting')} style={{ display: 'block', marginTop: 80 }} />;
}
