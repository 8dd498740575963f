import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';

export function FullScreenSpin({ tip }: { tip?: string }) {
  const { t } = useTranslation();
  return (
    <div style={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', flexDirection: 'column', gap: 12 }}>
      <Spin size="large" />
      <span style={{ color: 'rgba(0,0,0,0.45)' }}>{tip ?? t('common:loading')}</span>
    </div>
  );
}
