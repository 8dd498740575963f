// The alarms of one device (/deviceAlarm?imei=... or ?id=...), kept alive like the spec asks.
import { Card, Empty, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { AlarmRecordTable } from '../alarm/AlarmRecordTable';

export default function SingleAlarmPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const imei = params.get('imei') ?? undefined;
  const id = Number(params.get('id')) || undefined;
  if (!imei && !id) {
    return (
      <Card>
        <Empty description={t('alarm:single.pick')} />
      </Card>
    );
  }
  return (
    <Card>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('alarm:single.title', { device: imei ?? `#${id}` })}
      </Typography.Title>
      <AlarmRecordTable key={imei ?? id} imei={imei} deviceId={imei ? undefined : id} />
    </Card>
  );
}
