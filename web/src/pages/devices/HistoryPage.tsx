// Location history (/devices/history): one device's path over a range, its stops and points,
// playback, and the xlsx export (3 per date selection per 24 hours, enforced by the server).
// Opened with a device (?imei=, from the device card) it shows today's track at once.
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  App,
  Button,
  Card,
  DatePicker,
  Empty,
  Form,
  Modal,
  Select,
  Slider,
  Space,
  Statistic,
  Tag,
  Typography,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { type Dayjs } from 'dayjs';
import CaretRightOutlined from '@ant-design/icons/es/icons/CaretRightOutlined';
import PauseOutlined from '@ant-design/icons/es/icons/PauseOutlined';
import ForwardOutlined from '@ant-design/icons/es/icons/ForwardOutlined';
import BackwardOutlined from '@ant-design/icons/es/icons/BackwardOutlined';
import DownloadOutlined from '@ant-design/icons/es/icons/DownloadOutlined';
import { type CallResponse } from '@wt/contract';
import { accountNow, shownTime, wallClock } from '../../session/time';
import { ApiError, call } from '../../api/client';
import { userDataOptions } from '../../i18n/texts';
import { MapView } from '../../map/MapView';
import { MapTrack } from '../../map/MapTrack';
import { usePlayback } from './history/usePlayback';
import { downloadBase64 } from '../../utils/download';
import '../home/monitor/monitor.css';
import './history/history.css';
import { useCan } from '../../access/can';

type History = CallResponse<'/device/devicesHistory'>;
type Range = [Dayjs, Dayjs];

function presets(t: (k: string) => string): { label: string; value: Range }[] {
  const now = accountNow();
  return [
    { label: t('range.today'), value: [now.startOf('day'), now] },
    { label: t('range.week'), value: [now.subtract(7, 'day'), now] },
    { label: t('range.month'), value: [now.subtract(1, 'month'), now] },
    { label: t('range.threeMonths'), value: [now.subtract(3, 'month'), now] },
  ];
}

export default function HistoryPage() {
  const { t, i18n } = useTranslation('history');
  const can = useCan();
  const { message } = App.useApp();
  const [params] = useSearchParams();
  const [imei, setImei] = useState<string | undefined>(params.get('imei') || undefined);
  const [range, setRange] = useState<Range>(() => {
    const now = accountNow();
    return [now.startOf('day'), now];
  });
  const [data, setData] = useState<History | null>(null);
  const [loading, setLoading] = useState(false);
  const [detail, setDetail] = useState<{ kind: 'point' | 'stop'; index: number } | null>(null);
  const [batchOpen, setBatchOpen] = useState(false);
  const [batch, setBatch] = useState<string[]>([]);
  const [exporting, setExporting] = useState(false);

  const devices = useQuery({
    queryKey: ['history', 'devices'],
    queryFn: () => call('/device/devicesByUserIdPageColorBigData', {}),
    staleTime: 60_000,
  });
  const options = useMemo(
    () =>
      (devices.data?.Rows ?? []).map((r) => ({ value: String(r[1]), label: `${r[2] || r[1]} (${r[1]})` })),
    [devices.data],
  );

  const points = useMemo(() => (data?.Points ?? []).map((p) => ({ lat: p.Lat, lon: p.Lon })), [data]);
  const stops = useMemo(() => (data?.Stops ?? []).map((s) => ({ lat: s.Lat, lon: s.Lon })), [data]);
  const play = usePlayback(points.length);

  const query = async (device = imei) => {
    if (!device) return void message.warning(t('chooseDevice'));
    setLoading(true);
    setDetail(null);
    try {
      const r = await call('/device/devicesHistory', {
        Imei: device,
        Start: wallClock(range[0]),
        End: wallClock(range[1]),
      });
      setData(r);
      if (!r.Points.length) void message.warning(t('messages:monitor.noTrajectory'));
    } catch (e) {
      void message.error(t(`messages:${(e as ApiError).messageKey}`));
    } finally {
      setLoading(false);
    }
  };

  // Opened for a device (the card's link): its track is queried at once, and again when the link
  // names another device while the page is kept alive.
  const linked = params.get('imei') || undefined;
  const queried = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!linked || queried.current === linked) return;
    queried.current = linked;
    setImei(linked);
    void query(linked);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [linked]);

  const ends = useMemo(() => ({ start: t('start'), end: t('end') }), [t]);

  const exportTrack = async (imeis: string[]) => {
    setExporting(true);
    try {
      const r = await call('/device/BatchExportHistoryDataByUserId', {
        Imeis: imeis,
        Start: wallClock(range[0]),
        End: wallClock(range[1]),
        Language: i18n.language,
      });
      downloadBase64(r.FileName, r.Data);
      void message.success(t('exported', { rows: r.Rows, remaining: r.Remaining }));
      setBatchOpen(false);
    } catch (e) {
      const err = e as ApiError;
      void message.error(t(`messages:${err.messageKey}`, err.params));
    } finally {
      setExporting(false);
    }
  };

  const current = data?.Points[play.index];
  const shown = detail ? (detail.kind === 'point' ? data?.Points[detail.index] : undefined) : undefined;
  const stop = detail?.kind === 'stop' ? data?.Stops[detail.index] : undefined;
  const stateLabel = t(`state.${play.state}`);

  return (
    <div className="wt-monitor" data-testid="history" data-loaded={data ? '1' : '0'}>
      <div className="wt-monitor-panel wt-history-panel">
        <Form layout="vertical" size="middle">
          <Form.Item label={t('device')}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              value={imei}
              onChange={setImei}
              options={options}
              placeholder={t('chooseDevice')}
              {...userDataOptions}
              loading={devices.isLoading}
              data-testid="history-device"
            />
          </Form.Item>
          <Form.Item label={t('range.label')}>
            <DatePicker.RangePicker
              showTime
              value={range}
              onChange={(v) => v?.[0] && v[1] && setRange([v[0], v[1]])}
              presets={presets(t)}
              style={{ width: '100%' }}
              allowClear={false}
            />
          </Form.Item>
          <Space wrap>
            <Button type="primary" onClick={() => void query()} loading={loading} data-testid="history-query">
              {t('query')}
            </Button>
            {can('history.export') && (
              <Button
                icon={<DownloadOutlined />}
                onClick={() => imei && exportTrack([imei])}
                disabled={!imei}
                loading={exporting}
                data-testid="history-export"
              >
                {t('export')}
              </Button>
            )}
            {can('history.export') && <Button onClick={() => setBatchOpen(true)}>{t('batchExport')}</Button>}
          </Space>
        </Form>
        {data && (
          <div className="wt-history-stats">
            <Space size={24}>
              <Statistic title={t('points')} value={data.Total} />
              <Statistic title={t('distance')} value={(data.Distance / 1000).toFixed(2)} suffix="km" />
              <Statistic title={t('stops')} value={data.Stops.length} />
            </Space>
            {!data.Exact && data.Total > 0 && (
              <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginTop: 6 }}>
                {t('simplified', { shown: data.Points.length })}
              </Typography.Paragraph>
            )}
          </div>
        )}
        {data && data.Points.length > 0 && (
          <div className="wt-history-player" data-testid="playback" data-state={play.state}>
            <Space>
              <Button
                type="primary"
                icon={play.state === 'playing' ? <PauseOutlined /> : <CaretRightOutlined />}
                onClick={play.toggle}
                data-testid="play"
              >
                {t(
                  play.state === 'playing'
                    ? 'pause'
                    : play.state === 'paused'
                      ? 'continue'
                      : play.state === 'finished'
                        ? 'replay'
                        : 'play',
                )}
              </Button>
              <Button
                icon={<BackwardOutlined />}
                onClick={play.slower}
                aria-label={t('slower')}
                title={t('slower')}
              />
              <Button
                icon={<ForwardOutlined />}
                onClick={play.faster}
                aria-label={t('faster')}
                title={t('faster')}
                data-testid="faster"
              />
              <Tag>{`${play.speed}×`}</Tag>
              <Tag
                color={play.state === 'finished' ? 'green' : play.state === 'playing' ? 'blue' : 'default'}
                data-testid="play-state"
              >
                {stateLabel}
              </Tag>
            </Space>
            <Slider
              min={0}
              max={Math.max(0, data.Points.length - 1)}
              value={play.index}
              onChange={play.seek}
              tooltip={{ formatter: (i) => shownTime(data.Points[i ?? 0]?.Time) }}
            />
            {current && (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {shownTime(current.Time)} · {current.Speed ?? 0} km/h
              </Typography.Text>
            )}
          </div>
        )}
        {data && !data.Points.length && <Empty description={t('messages:monitor.noTrajectory')} />}
      </div>
      <div className="wt-monitor-map">
        <MapView id="history">
          <MapTrack
            points={points}
            stops={stops}
            current={data?.Points.length && play.state !== 'idle' ? play.index : null}
            ends={ends}
            onPointClick={(i) => setDetail({ kind: 'point', index: i })}
            onStopClick={(i) => setDetail({ kind: 'stop', index: i })}
          />
        </MapView>
        {(shown || stop) && (
          <Card
            size="small"
            className="wt-device-card"
            title={t(shown ? 'pointDetail' : 'stopDetail')}
            extra={<a onClick={() => setDetail(null)}>{t('close')}</a>}
          >
            {shown && (
              <>
                <div>{shownTime(shown.Time)}</div>
                <div>{`${shown.Lat.toFixed(6)}, ${shown.Lon.toFixed(6)}`}</div>
                <div>{t('speed', { speed: shown.Speed ?? 0 })}</div>
              </>
            )}
            {stop && (
              <>
                <div>{`${shownTime(stop.Start)} – ${shownTime(stop.End)}`}</div>
                <div>{t('stayed', { minutes: Math.round(stop.Minutes) })}</div>
                <div>{`${stop.Lat.toFixed(6)}, ${stop.Lon.toFixed(6)}`}</div>
              </>
            )}
          </Card>
        )}
      </div>
      <Modal
        open={batchOpen}
        title={t('batchExport')}
        onCancel={() => setBatchOpen(false)}
        onOk={() => batch.length && exportTrack(batch)}
        confirmLoading={exporting}
        okText={t('export')}
      >
        <Typography.Paragraph type="secondary">
          {t('batchHint', {
            from: range[0].format('YYYY-MM-DD HH:mm'),
            to: range[1].format('YYYY-MM-DD HH:mm'),
          })}
        </Typography.Paragraph>
        <Select
          mode="multiple"
          style={{ width: '100%' }}
          value={batch}
          onChange={setBatch}
          options={options}
          {...userDataOptions}
          showSearch={{ optionFilterProp: 'label' }}
          maxTagCount={8}
        />
      </Modal>
    </div>
  );
}
