// Live track (/track/index): follow one device with its recent trail, extended as it reports.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Card, Descriptions, Select, Space, Switch, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { MapRef } from 'react-map-gl/maplibre';
import gcoord from 'gcoord';
import { call } from '../../api/client';
import { userDataOptions } from '../../i18n/texts';
import { MapView } from '../../map/MapView';
import { MapTrack, type TrackPointView } from '../../map/MapTrack';
import { liveDevices } from '../../map/deviceStore';
import { useMapSettings, usesGcj02 } from '../../map/settings';
import { RelativeTime } from '../home/monitor/RelativeTime';
import '../home/monitor/monitor.css';

const MINUTES = [30, 60, 180, 720];

export default function TrackPage() {
  const { t } = useTranslation('monitor');
  const [params] = useSearchParams();
  const [imei, setImei] = useState<string | undefined>(params.get('imei') || undefined);
  const [minutes, setMinutes] = useState(60);
  const [follow, setFollow] = useState(true);
  const [trail, setTrail] = useState<(TrackPointView & { t: number })[]>([]);
  const [lastSeen, setLastSeen] = useState<number | null>(null);
  const [fit, setFit] = useState(true);
  const provider = useMapSettings((s) => s.provider);
  const map = useRef<MapRef | null>(null);

  useEffect(() => {
    const q = params.get('imei');
    if (q) setImei(q);
  }, [params]);

  const devices = useQuery({
    queryKey: ['track', 'devices'],
    queryFn: async () => {
      const r = await call('/device/devicesByUserIdPageColorBigData', {});
      // Live updates are merged into the shared store: load it when the monitor has not.
      if (!liveDevices.ids.length) liveDevices.load(r.Rows);
      return r;
    },
    staleTime: 60_000,
  });
  const options = useMemo(() => (devices.data?.Rows ?? []).map((r) => ({ value: String(r[1]), label: `${r[2] || r[1]} (${r[1]})` })), [devices.data]);

  const tracking = useQuery({
    queryKey: ['track', imei, minutes],
    queryFn: () => call('/device/deviceTracking', { Imei: imei!, Minutes: minutes }),
    enabled: !!imei,
  });
  const device = tracking.data?.Device;
  const fix = tracking.data?.Fix ?? null;

  useEffect(() => {
    if (!tracking.data) return;
    setTrail(tracking.data.Trail.map((p) => ({ lat: p.Lat, lon: p.Lon, t: Date.parse(p.Time) })));
    setLastSeen(tracking.data.Device.LastSeen ? Date.parse(tracking.data.Device.LastSeen) : null);
    setFit(true);
  }, [tracking.data]);

  // Each report of the followed device extends the trail.
  useEffect(() => {
    if (!device) return;
    return liveDevices.subscribe((changed) => {
      if (changed !== 'all' && !changed.has(device.DeviceId)) return;
      const r = liveDevices.records.get(device.DeviceId);
      if (!r || r.lat === null || r.lon === null) return;
      setLastSeen(r.lastSeen);
      setFit(false);
      setTrail((tr) => {
        const last = tr[tr.length - 1];
        if (last && last.lat === r.lat && last.lon === r.lon) return tr;
        return [...tr, { lat: r.lat!, lon: r.lon!, t: Date.now() }];
      });
    });
  }, [device]);

  useEffect(() => {
    const p = trail[trail.length - 1];
    if (!follow || !p || !map.current || fit) return;
    const c = usesGcj02(provider) ? (gcoord.transform([p.lon, p.lat], gcoord.WGS84, gcoord.GCJ02) as [number, number]) : ([p.lon, p.lat] as [number, number]);
    map.current.easeTo({ center: c, duration: 600 });
  }, [trail, follow, provider, fit]);

  return (
    <div className="wt-monitor" data-testid="track">
      <div className="wt-monitor-map">
        <MapView id="track" onLoad={(m) => (map.current = m)}>
          <MapTrack points={trail} current={trail.length ? trail.length - 1 : null} showPoints={false} fit={fit} />
        </MapView>
        <Card size="small" className="wt-device-card" style={{ top: 10 }}>
          <Space direction="vertical" style={{ width: '100%' }}>
            <Select showSearch={{ optionFilterProp: 'label' }} value={imei} onChange={setImei} options={options} {...userDataOptions} placeholder={t('track.noDevice')} style={{ width: '100%' }} />
            <Space wrap>
              <span>{t('track.minutes')}</span>
              <Select size="small" value={minutes} onChange={setMinutes} options={MINUTES.map((m) => ({ value: m, label: t('track.trail', { minutes: m }) }))} style={{ width: 170 }} />
              <Switch size="small" checked={follow} onChange={setFollow} />
              <span>{t('track.follow')}</span>
            </Space>
            {device && (
              <Descriptions size="small" column={2} colon={false}>
                <Descriptions.Item label={t('panel.device')}>{device.Nickname || device.Imei}</Descriptions.Item>
                <Descriptions.Item label={t('panel.status')}>
                  <Tag color={device.Online ? 'green' : 'default'}>{t(`status.${device.Online ? 'online' : 'offline'}`)}</Tag>
                </Descriptions.Item>
                <Descriptions.Item label={t('card.lastSeen')}>
                  <RelativeTime value={lastSeen} />
                </Descriptions.Item>
                <Descriptions.Item label={t('track.following')}>{t('track.points', { count: trail.length })}</Descriptions.Item>
                {fix && (
                  <Descriptions.Item label={t('track.fixType')}>
                    <span data-testid="track-fix">
                      {t(`track.fix.${fix.Method}`, { defaultValue: fix.Method })}
                      {fix.Accuracy !== null && ` ${t('track.accuracy', { metres: Math.round(fix.Accuracy) })}`}
                    </span>
                  </Descriptions.Item>
                )}
              </Descriptions>
            )}
          </Space>
        </Card>
      </div>
    </div>
  );
}
