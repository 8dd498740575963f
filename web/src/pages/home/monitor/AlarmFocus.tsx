// A device opened on the monitor for its alarms: from an alarm pop-up (/?device=ID) or from an
// alarm record's position (/?device=ID&lat=..&lon=..). The device is selected and centred (on the
// alarm's position when there is one, marked on the map), and its unconfirmed alarms are listed
// with confirm-with-remark. A device in SOS chosen on the map shows them too.
import { useEffect, useState } from 'react';
import { AlarmTimes } from '../../alarm/AlarmTimes';
import { App, Button, Card, Empty, List, Space, Spin, Tag, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Marker } from 'react-map-gl/maplibre';
import gcoord from 'gcoord';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import EnvironmentFilled from '@ant-design/icons/es/icons/EnvironmentFilled';
import { SOS_NOTIFICATION_TYPE, type AlarmRecord } from '@wt/contract';
import { call } from '../../../api/client';
import { useMapSettings, usesGcj02 } from '../../../map/settings';
import { useRealtime } from '../../../realtime/store';
import { afterAlarmsConfirmed } from '../../alarm/confirm';
import { ConfirmAlarmDialog } from '../../alarm/ConfirmAlarmDialog';
import { ALARM_KEY, useAlarmTypeName } from '../../alarm/queries';
import { useCan } from '../../../access/can';

export interface MonitorFocus {
  deviceId: number;
  /** Where the alarm happened (WGS-84), when the record had a position. */
  spot?: { lat: number; lon: number };
}

const coord = (v: string | null) => {
  const n = v === null || v === '' ? NaN : Number(v);
  return Number.isFinite(n) ? n : undefined;
};

/** Reads a focus request from the monitor's address once the page can act on it, then clears the address. */
export function useFocusRequest(ready: boolean, apply: (f: MonitorFocus) => void): void {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    if (!ready || location.pathname !== '/' || !location.search) return;
    const q = new URLSearchParams(location.search);
    const deviceId = Number(q.get('device'));
    if (!Number.isInteger(deviceId) || deviceId <= 0) return;
    const lat = coord(q.get('lat'));
    const lon = coord(q.get('lon'));
    const spot = lat !== undefined && lon !== undefined && Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : undefined;
    apply({ deviceId, spot });
    // The monitor's tag and a reload show the plain monitor again.
    navigate('/', { replace: true });
  }, [ready, location.pathname, location.search, apply, navigate]);
}

/** The map coordinates of a WGS-84 position for the current base layer. */
export function useMapCoord(): (p: { lat: number; lon: number }) => [number, number] {
  const provider = useMapSettings((s) => s.provider);
  return (p) => (usesGcj02(provider) ? (gcoord.transform([p.lon, p.lat], gcoord.WGS84, gcoord.GCJ02) as [number, number]) : [p.lon, p.lat]);
}

/** The alarm's position on the map. */
export function AlarmSpot({ spot }: { spot: { lat: number; lon: number } }) {
  const { t } = useTranslation('monitor');
  const [lon, lat] = useMapCoord()(spot);
  return (
    <Marker longitude={lon} latitude={lat} anchor="bottom">
      <span className="wt-alarm-spot" data-testid="alarm-spot" title={t('focus.spot')}>
        <EnvironmentFilled />
      </span>
    </Marker>
  );
}

/** The unconfirmed alarms of the selected device, each confirmed with a remark. */
export function DeviceAlarms({ deviceId, focused, onClose }: { deviceId: number; focused: boolean; onClose: () => void }) {
  const { t } = useTranslation('monitor');
  const can = useCan();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const typeName = useAlarmTypeName();
  const [confirming, setConfirming] = useState<AlarmRecord | null>(null);
  const [closed, setClosed] = useState(false);
  const open = useQuery({
    queryKey: [...ALARM_KEY, 'open', deviceId],
    queryFn: () => call('/ExceptionMessage/allExceptionMsgPage', { PageNo: 1, PageCount: 10, DeviceId: deviceId, Status: 0 }),
  });
  // A new alarm of this device shows at once.
  const latest = useRealtime((s) => s.alarms[0]);
  useEffect(() => {
    if (latest?.deviceId === deviceId) void qc.invalidateQueries({ queryKey: [...ALARM_KEY, 'open', deviceId] });
  }, [latest, deviceId, qc]);

  // SOS first, then the latest.
  const items = [...(open.data?.Items ?? [])].sort((x, y) => Number(y.Type === SOS_NOTIFICATION_TYPE) - Number(x.Type === SOS_NOTIFICATION_TYPE));
  // Chosen on the map, a device shows its alarms here only while it is in SOS.
  if (closed || (!focused && !items.some((a) => a.Type === SOS_NOTIFICATION_TYPE))) return null;
  const name = items[0] ? items[0].DeviceName || items[0].Imei : '';

  return (
    <Card
      size="small"
      className="wt-alarm-focus"
      data-testid="alarm-focus"
      title={t('focus.title', { count: open.data?.Total ?? 0 })}
      extra={<Button type="text" size="small" icon={<CloseOutlined />}
          onClick={() => {
            setClosed(true);
            onClose();
          }}
          aria-label={t('card.close')} />}
    >
      {open.isLoading ? (
        <Spin />
      ) : items.length ? (
        <List
          size="small"
          dataSource={items}
          renderItem={(a) => (
            <List.Item
              key={a.Id}
              data-alarm-id={a.Id}
              actions={
                can('alarm.confirm')
                  ? [
                      <Button key="confirm" type="primary" danger={a.Type === SOS_NOTIFICATION_TYPE} size="small" onClick={() => setConfirming(a)} data-testid="focus-confirm">
                        {t('focus.confirm')}
                      </Button>,
                    ]
                  : []
              }
            >
              <List.Item.Meta
                title={
                  <Space size={4} wrap>
                    <Tag color={a.Type === SOS_NOTIFICATION_TYPE ? 'red' : 'orange'} style={{ marginInlineEnd: 0 }}>
                      {typeName(a.Type)}
                    </Tag>
                    <span>{a.DeviceName || a.Imei}</span>
                  </Space>
                }
                description={
                  <>
                    <div>
                      {a.Message}
                      {a.Count > 1 ? ` ×${a.Count}` : ''}
                    </div>
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      <AlarmTimes alarm={a} />
                    </Typography.Text>
                  </>
                }
              />
            </List.Item>
          )}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('focus.none')} />
      )}
      <ConfirmAlarmDialog
        open={confirming !== null}
        title={t('focus.confirmTitle', { type: confirming ? typeName(confirming.Type) : '', device: confirming ? confirming.DeviceName || confirming.Imei : name })}
        hint={confirming ? `${confirming.Message} · ${confirming.LastTime}` : undefined}
        onClose={() => setConfirming(null)}
        onSubmit={async (remark) => {
          const a = confirming!;
          await call('/ExceptionMessage/updateExceptionByID', { Id: a.Id, Remark: remark });
          void message.success(t('focus.confirmed'));
          await afterAlarmsConfirmed(qc, { alarms: [{ deviceId: a.DeviceId, type: a.Type }] });
        }}
      />
    </Card>
  );
}
