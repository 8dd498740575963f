// The navbar's alarm icon: a count of new alarms and the last 10 received, with a link to the
// alarm records page (SPEC §2 navbar, §9 "Alarm list kept: last 10").
import { Badge, Button, Empty, List, Popover, Typography } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import BellOutlined from '@ant-design/icons/es/icons/BellOutlined';
import { useRealtime } from './store';
import { AlarmMessage } from '../i18n/AlarmMessage';
import { shownTime } from '../session/time';

export function AlarmBell({ iconStyle }: { iconStyle: React.CSSProperties }) {
  const { t } = useTranslation('monitor');
  const alarms = useRealtime((s) => s.alarms);
  const unseen = useRealtime((s) => s.unseen);
  const markSeen = useRealtime((s) => s.markSeen);
  const content = (
    <div style={{ width: 340 }} data-testid="alarm-list">
      {alarms.length ? (
        <List
          size="small"
          dataSource={alarms}
          renderItem={(a) => (
            <List.Item key={a.key} data-alarm-type={a.NotificationType}>
              <List.Item.Meta
                title={
                  <>
                    <span data-user-data>{a.Nickname || a.DeviceID}</span> · <AlarmMessage messageKey={a.MessageKey} params={a.MessageParams} text={a.Message} />
                  </>
                }
                description={<Typography.Text type="secondary" style={{ fontSize: 12 }}>{`IMEI ${a.DeviceID} · ${shownTime(a.Created)}`}</Typography.Text>}
              />
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('alarm.none')} />
      )}
      <div style={{ textAlign: 'right', paddingTop: 8 }}>
        <Link to="/alarm/record">{t('alarm.all')}</Link>
      </div>
    </div>
  );
  return (
    <Popover content={content} title={t('alarm.recent')} trigger="click" placement="bottomRight" onOpenChange={(o) => o && markSeen()}>
      <Button type="text" className="wt-nav-btn" aria-label={t('alarm.recent')} data-testid="alarm-bell">
        <Badge count={unseen} size="small" offset={[2, -2]}>
          <BellOutlined style={iconStyle} />
        </Badge>
      </Button>
    </Popover>
  );
}
