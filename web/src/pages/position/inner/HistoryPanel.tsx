// Indoor history on the inner map: a device and a range (today, the last hour, or any range of at
// most 7 days), /Scene/deviceHistoryForScene, then playback controls as on the outdoor history
// page (play / pause / slower / faster 1x..32x / a slider). The track itself is drawn on the plan by
// the page, which also follows the floor of the point reached.
import { useState } from 'react';
import { App, Button, DatePicker, Empty, Form, Select, Slider, Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { type Dayjs } from 'dayjs';
import CaretRightOutlined from '@ant-design/icons/es/icons/CaretRightOutlined';
import PauseOutlined from '@ant-design/icons/es/icons/PauseOutlined';
import ForwardOutlined from '@ant-design/icons/es/icons/ForwardOutlined';
import BackwardOutlined from '@ant-design/icons/es/icons/BackwardOutlined';
import { scene, type CallResponse } from '@wt/contract';
import { accountNow, shownTime, wallClock } from '../../../session/time';
import { ApiError, call } from '../../../api/client';
import { userDataOptions, USER_DATA } from '../../../i18n/texts';
import type { usePlayback } from '../../devices/history/usePlayback';

export type IndoorTrack = CallResponse<'/Scene/deviceHistoryForScene'>['Items'];
export type Range = [Dayjs, Dayjs];

const MAX_SCENE_HISTORY_DAYS = scene.MAX_SCENE_HISTORY_DAYS;

export function todayRange(): Range {
  const now = accountNow();
  return [now.startOf('day'), now];
}

/** A range longer than the server accepts (7 days). */
export const tooLong = (r: Range) => r[1].diff(r[0], 'millisecond') > MAX_SCENE_HISTORY_DAYS * 86_400_000;

export interface HistoryPanelProps {
  deviceId: number | undefined;
  onDevice: (id: number | undefined) => void;
  devices: { value: number; label: string }[];
  range: Range;
  onRange: (r: Range) => void;
  track: IndoorTrack | null;
  onTrack: (t: IndoorTrack | null) => void;
  play: ReturnType<typeof usePlayback>;
  floorName: (floorId: number) => string | undefined;
  onQuery: () => void;
  loading: boolean;
}

/**
 * Loading a device's indoor track: refuses an empty or too long range before asking, warns when the
 * track is empty, shows the server's refusal in the reader's language.
 */
export function useIndoorHistory(sceneId: number | undefined, onTrack: (t: IndoorTrack | null) => void) {
  const { t } = useTranslation('innerMap');
  const { message } = App.useApp();
  const [loading, setLoading] = useState(false);
  const load = async (deviceId: number | undefined, range: Range) => {
    if (deviceId === undefined) return void message.warning(t('history.chooseDevice'));
    if (!range[1].isAfter(range[0])) return void message.warning(t('messages:scene.historyRange'));
    if (tooLong(range)) return void message.warning(t('history.tooLong', { days: MAX_SCENE_HISTORY_DAYS }));
    setLoading(true);
    try {
      const r = await call('/Scene/deviceHistoryForScene', {
        DeviceId: deviceId,
        SceneId: sceneId,
        StartTime: wallClock(range[0]),
        EndTime: wallClock(range[1]),
      });
      onTrack(r.Items);
      if (!r.Items.length) void message.warning(t('history.empty'));
    } catch (e) {
      const err = e as ApiError;
      void message.error(t(`messages:${err.messageKey}`, err.params));
    } finally {
      setLoading(false);
    }
  };
  return { load, loading };
}

export function HistoryPanel(p: HistoryPanelProps) {
  const { t } = useTranslation('innerMap');
  const now = accountNow();
  const presets: { label: string; value: Range }[] = [
    { label: t('history.today'), value: [now.startOf('day'), now] },
    { label: t('history.lastHour'), value: [now.subtract(1, 'hour'), now] },
  ];
  const track = p.track;
  const play = p.play;
  const current = track?.[play.index];
  return (
    <div className="wt-inner-history" data-testid="inner-history">
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {t('history.title')}
      </Typography.Title>
      <Form layout="vertical" size="small">
        <Form.Item label={t('history.device')}>
          <Select
            showSearch={{ optionFilterProp: 'label' }}
            value={p.deviceId}
            onChange={(v) => {
              p.onDevice(v);
              p.onTrack(null);
            }}
            options={p.devices}
            placeholder={t('history.chooseDevice')}
            {...userDataOptions}
            data-testid="history-device"
          />
        </Form.Item>
        <Form.Item label={t('history.range')} extra={t('history.rangeHint', { days: MAX_SCENE_HISTORY_DAYS })}>
          <Space.Compact style={{ width: '100%', marginBottom: 6 }}>
            {presets.map((r, k) => (
              <Button key={k} onClick={() => p.onRange(r.value)} data-testid={k === 0 ? 'range-today' : 'range-hour'}>
                {r.label}
              </Button>
            ))}
          </Space.Compact>
          {/* Minutes, not seconds: both ends fit the narrow panel in full (with seconds they were cut). */}
          <DatePicker.RangePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            value={p.range}
            onChange={(v) => v?.[0] && v[1] && p.onRange([v[0], v[1]])}
            presets={presets}
            allowClear={false}
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Space>
          <Button type="primary" onClick={p.onQuery} loading={p.loading} data-testid="history-query">
            {t('history.query')}
          </Button>
          {track && (
            <Button onClick={() => p.onTrack(null)} data-testid="history-clear">
              {t('history.clear')}
            </Button>
          )}
        </Space>
      </Form>
      {track && track.length > 0 && (
        <div className="wt-history-player" data-testid="playback" data-state={play.state} data-index={play.index} data-points={track.length}>
          <Space wrap>
            <Button
              type="primary"
              icon={play.state === 'playing' ? <PauseOutlined /> : <CaretRightOutlined />}
              onClick={play.toggle}
              data-testid="play"
            >
              {t(play.state === 'playing' ? 'history.pause' : play.state === 'paused' ? 'history.continue' : play.state === 'finished' ? 'history.replay' : 'history.play')}
            </Button>
            <Button icon={<BackwardOutlined />} onClick={play.slower} aria-label={t('history.slower')} title={t('history.slower')} data-testid="slower" />
            <Button icon={<ForwardOutlined />} onClick={play.faster} aria-label={t('history.faster')} title={t('history.faster')} data-testid="faster" />
            <Tag data-testid="play-speed">{`${play.speed}×`}</Tag>
            <Tag color={play.state === 'finished' ? 'green' : play.state === 'playing' ? 'blue' : 'default'} data-testid="play-state">
              {t(`history.state.${play.state}`)}
            </Tag>
          </Space>
          <Slider
            min={0}
            max={Math.max(0, track.length - 1)}
            value={play.index}
            onChange={play.seek}
            tooltip={{ formatter: (i) => shownTime(track[i ?? 0]?.Time) }}
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="play-point">
            {t('history.points', { n: track.length })}
            {current && (
              <>
                {' · '}
                {shownTime(current.Time)} · <span {...USER_DATA}>{p.floorName(current.FloorId) ?? current.FloorId}</span> ·{' '}
                {t('card.xy', { x: current.X.toFixed(1), y: current.Y.toFixed(1) })}
              </>
            )}
          </Typography.Text>
        </div>
      )}
      {track && !track.length && <Empty description={t('history.empty')} />}
    </div>
  );
}
