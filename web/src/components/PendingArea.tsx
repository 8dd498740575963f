// The page of an area whose screens come later: titled and described, inside the shell.
import { Card, Empty, Typography } from 'antd';
import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { RouteHandle } from '../app/router';

export function PendingArea({ view }: { view: string }) {
  const { t } = useTranslation();
  const matches = useMatches();
  const handle = matches.map((m) => m.handle as RouteHandle | undefined).find((h) => h?.route?.view === view);
  const title = handle?.route?.meta?.title;
  return (
    <Card>
      <Typography.Title level={4} style={{ marginTop: 0 }}>
        {title ? t(`route:${title}`) : view}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t(`pages:${view}`)}</Typography.Paragraph>
      <Empty description={t('shell:pending.subtitle')} style={{ padding: '48px 0' }} />
    </Card>
  );
}
