// The card of the device chosen on the map or in the list: wearer, battery, signal, steps,
// latest health, last communication, address, connection, and where to go from here.
import { useState } from 'react';
import { useAddress } from '../../../components/PositionText';
import { Button, Card, Descriptions, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import { shownTime } from '../../../session/time';
import { call } from '../../../api/client';
import { CommandDialog } from './CommandDialog';
import { RelativeTime } from './RelativeTime';
import { USER_DATA } from '../../../i18n/texts';
import { useCan, useMayOpen } from '../../../access/can';
import { SECONDARY_TEXT } from '../../../app/theme';

export function DeviceCard({ deviceId, onClose }: { deviceId: number; onClose: () => void }) {
  const { t } = useTranslation('monitor');
  const can = useCan();
  const mayOpen = useMayOpen();
  const navigate = useNavigate();
  const [command, setCommand] = useState(false);
  const card = useQuery({
    queryKey: ['monitor', 'card', deviceId],
    queryFn: () => call('/device/deviceTracking', { DeviceId: deviceId, Minutes: 60 }),
    refetchInterval: 15_000,
  });
  const d = card.data?.Device;
  // The same lookup, and format, as every position the console shows (PositionText).
  const address = useAddress(d?.Lat, d?.Lon);
  const h = card.data?.Health;
  const p = card.data?.Person;
  const go = (path: string) => navigate(`${path}?imei=${d?.Imei ?? ''}&id=${deviceId}`);

  return (
    <Card
      size="small"
      className="wt-device-card"
      data-testid="device-card"
      title={
        d ? (
          <Space size={6}>
            <span {...USER_DATA}>{d.Nickname || d.Imei}</span>
            <Tag color={d.Sos ? 'red' : d.Online ? 'green' : 'default'}>{t(`status.${d.Sos ? 'sos' : d.Online ? 'online' : 'offline'}`)}</Tag>
          </Space>
        ) : (
          t('card.title')
        )
      }
      extra={<Button type="text" size="small" icon={<CloseOutlined />} onClick={onClose} aria-label={t('card.close')} />}
    >
      {!d ? (
        <Spin />
      ) : (
        <>
          <Descriptions size="small" column={2} colon={false} styles={{ label: { color: SECONDARY_TEXT } }}>
            <Descriptions.Item label="IMEI" span={2}>
              <Typography.Text copyable>{d.Imei}</Typography.Text>
            </Descriptions.Item>
            {p && (
              <Descriptions.Item label={t('card.person')} span={2}>
                {[
                  p.Name && <span key="name" {...USER_DATA}>{p.Name}</span>,
                  p.Gender && t(`card.gender.${p.Gender}`, { defaultValue: p.Gender }),
                  p.Age != null && t('card.age', { age: p.Age }),
                  p.Phone,
                ]
                  .filter(Boolean)
                  .flatMap((part, i) => (i ? [' · ', part] : [part]))}
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('card.battery')}>{d.Battery != null ? `${d.Battery}%` : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('card.signal')}>{d.Signal == null ? '-' : d.Signal > 5 ? `${d.Signal}%` : `${d.Signal}/5`}</Descriptions.Item>
            <Descriptions.Item label={t('card.steps')}>{d.Steps ?? '-'}</Descriptions.Item>
            <Descriptions.Item label={t('card.mode')}>{d.Mode ? t(`card.modes.${d.Mode}`) : '-'}</Descriptions.Item>
            <Descriptions.Item label={t('card.health')} span={2}>
              {h
                ? [
                    h.HeartRate != null && `${t('card.heartRate')} ${h.HeartRate}`,
                    h.Systolic != null && `${t('card.bloodPressure')} ${h.Systolic}/${h.Diastolic ?? '-'}`,
                    h.BodyTemp != null && `${t('card.bodyTemp')} ${h.BodyTemp}℃`,
                    h.BloodOxygen != null && `${t('card.bloodOxygen')} ${h.BloodOxygen}%`,
                  ]
                    .filter(Boolean)
                    .join(' · ') || '-'
                : '-'}
            </Descriptions.Item>
            <Descriptions.Item label={t('card.lastSeen')} span={2}>
              <RelativeTime value={d.LastSeen} />
              {d.LastSeen && <Typography.Text type="secondary"> ({shownTime(d.LastSeen)})</Typography.Text>}
            </Descriptions.Item>
            <Descriptions.Item label={t('card.address')} span={2}>
              <span data-testid="device-address" {...(address.data && d.Lat != null ? USER_DATA : {})}>
                {d.Lat == null ? t('card.noFix') : address.data ?? t('card.locating')}
              </span>
            </Descriptions.Item>
          </Descriptions>
          <Space wrap size={[6, 6]} style={{ marginTop: 8 }}>
            {mayOpen('/track/index') && (
              <Button size="small" type="primary" onClick={() => go('/track/index')} data-testid="card-live-track">
                {t('card.liveTrack')}
              </Button>
            )}
            <Button size="small" onClick={() => go('/devices/history')}>
              {t('card.history')}
            </Button>
            {can('device.command') && (
              <Button size="small" onClick={() => setCommand(true)} data-testid="card-command">
                {t('card.command')}
              </Button>
            )}
            <Button size="small" onClick={() => go('/deviceFence')}>
              {t('card.fences')}
            </Button>
            <Button size="small" onClick={() => go('/deviceAlarm')}>
              {t('card.alarms')}
            </Button>
          </Space>
          <CommandDialog imei={d.Imei} open={command} onClose={() => setCommand(false)} />
        </>
      )}
    </Card>
  );
}
