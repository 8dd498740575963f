// An alarm's time as its lists show it: when it was first raised (what the lists sort by, newest
// first) and, for an alarm that repeated, when it last did.
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface AlarmTimed {
  Created: string;
  LastTime: string;
  Count: number;
}

export function AlarmTimes({ alarm, format = (s) => s }: { alarm: AlarmTimed; format?: (time: string) => string }) {
  const { t } = useTranslation('alarm');
  const repeated = alarm.Count > 1 && alarm.LastTime && alarm.LastTime !== alarm.Created;
  return (
    <span className="wt-alarm-times" data-testid="alarm-times">
      <span>{format(alarm.Created)}</span>
      {repeated ? (
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }} data-testid="alarm-last-time">
          {t('record.lastRepeat', { time: format(alarm.LastTime), count: alarm.Count })}
        </Typography.Text>
      ) : null}
    </span>
  );
}
