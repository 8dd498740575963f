
// Health detail (/health/detail?imei=...): a device's time series for each measure with the
// thresholds in force drawn as bands or lines, its health alarms on the same time axis, sleep
// stages per night, day/week/month views, and buttons that ask the watch to measure now.
import { useMemo, useState } from 'react';
import { App, Button, Card, Col, DatePicker, Empty, Row, Segmented, Select, Space, Spin, Typography } from 'antd';
import { HeartOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { ALARM_CODES as C, type AlarmRecord, type HealthReadingRow } from '@wt/contract';
import { call } from '../../api/client';
import { errorText } from '../../i18n/errors';
import { USER_DATA, userDataOptions } from '../../i18n/texts';
import { useAlarmTypeName } from '../alarm/queries';
import { echarts, hasChartData } from './charts';
import { useCan } from '../../access/can';
import { accountNow, wallClock } from '../../session/time';

type View = 'day' | 'week' | 'month';
type Measure = keyof Pick<HealthReadingRow, 'HeartRate' | 'Systolic' | 'Diastolic' | 'BodyTemp' | 'WristTemp' | 'BloodOxygen' | 'Hrv' | 'Steps' | 'Distance' | 'Calories' | 'Uv' | 'Pho' | 'Ir'>;

const RANGE: Record<View, { unit: 'day' | 'week' | 'month'; bucket: 'raw' | 'hour' | 'day' }> = {
  day: { unit: 'day', bucket: 'raw' },
  week: { unit: 'week', bucket: 'hour' },
  month: { unit: 'month', bucket: 'day' },
};

/** Which health alarms belong on which chart. */
const ALARMS_OF: Record<string, number[]> = {
  heart: [C.heartRateHigh, C.heartRateLow],
  pressure: [C.bloodPressureHigh, C.bloodPressureLow],
  temp: [C.bodyTempHigh, C.wristTempHigh],
  spo2: [C.bloodOxygenLow],
};

const time = (s: string) => dayjs(s).valueOf();

function Chart({ option, height = 260, testId, noData }: { option: object; height?: number; testId?: string; noData: string }) {
  // A measure the device did not report in the range: say so rather than draw empty axes.
  if (!hasChartData(option)) {
    return (
      <div data-testid={testId} data-empty="true" style={{ height, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={noData} />
      </div>
    );
  }
  return (
    <div data-testid={testId}>
      <ReactEChartsCore echarts={echarts} option={option} style={{ height }} notMerge lazyUpdate />
    </div>
  );
}

export default function HealthDetailPage() {
  const { t } = useTranslation();
  const can = useCan();
  const { message } = App.useApp();
  const typeName = useAlarmTypeName();
  const [params, setParams] = useSearchParams();
  const imei = params.get('imei') ?? undefined;
  const id = Number(params.get('id')) || undefined;
  const [view, setView] = useState<View>('day');
  const [anchor, setAnchor] = useState<Dayjs>(accountNow);
  const devices = useQuery({ queryKey: ['health', 'devices'], queryFn: () => call('/health/HealthHasDataForUsers', {}) });
  const start = anchor.startOf(RANGE[view].unit);
  const end = anchor.endOf(RANGE[view].unit);
  const q = useQuery({
    queryKey: ['health', 'series', imei, id, view, start.valueOf()],
    queryFn: () => call('/health/GetHealth2', { Imei: imei, DeviceId: imei ? undefined : id, StartTime: wallClock(start), EndTime: wallClock(end), Bucket: RANGE[view].bucket }),
    enabled: !!(imei || id),
  });
  const data = q.data;

  const measure = async (text: string) => {
    if (!data) return;
    try {
      await call('/Command/SendCommand', { Imei: data.Device.Imei, Code: 'CUSTOM', Params: { text } });
      message.success(t('health:measureSent'));
    } catch (e) {
      message.error(errorText(t, e));
    }
  };

  const charts = useMemo(() => {
    if (!data) return null;
    const items = data.Items;
    const th = data.Thresholds;
    const xAxis = { type: 'time', min: start.valueOf(), max: end.valueOf() };
    const series = (name: string, key: Measure, color: string, extra: object = {}) => ({
      name,
      type: 'line',
      showSymbol: items.length < 60,
      connectNulls: true,
      color,
      data: items.filter((r) => r[key] !== null).map((r) => [time(r.Time), r[key]]),
      ...extra,
    });
    const band = (min: number | null, max: number | null, fill = 'rgba(82,196,26,0.08)', line = '#fa8c16') =>
      min !== null || max !== null
        ? {
            markArea: {
              silent: true,
              itemStyle: { color: fill },
              data: [[{ yAxis: min ?? 'min' }, { yAxis: max ?? 'max' }]],
            },
            markLine: {
              silent: true,
              symbol: 'none',
              lineStyle: { type: 'dashed', color: line },
              label: { formatter: '{c}' },
              data: [min, max].filter((x) => x !== null).map((y) => ({ yAxis: y })),
            },
          }
        : {};
    const alarmSeries = (group: string) => {
      const codes = ALARMS_OF[group]!;
      const found = data.Alarms.filter((a: AlarmRecord) => codes.includes(a.Type));
      return {
        name: t('health:alarms'),
        type: 'scatter',
        symbol: 'pin',
        symbolSize: 28,
        color: '#f5222d',
        data: found.map((a) => ({ value: [time(a.LastTime), a.Value], name: `${typeName(a.Type)}: ${a.Message}` })),
        tooltip: { formatter: (p: { name: string }) => p.name },
      };
    };
    // The value axis always reaches the thresholds, so the normal band and its limits are in view.
    const axis = (name: string, bounds: (number | null)[], pad: number) => {
      const b = bounds.filter((x): x is number => x !== null);
      return {
        type: 'value',
        name,
        min: (v: { min: number }) => Math.floor(Math.min(Number.isFinite(v.min) ? v.min : Infinity, ...b) - pad),
        max: (v: { max: number }) => Math.ceil(Math.max(Number.isFinite(v.max) ? v.max : -Infinity, ...b) + pad),
      };
    };
    const base = (legend: boolean) => ({
      tooltip: { trigger: 'axis' },
      legend: legend ? { top: 0 } : undefined,
      grid: { left: 48, right: 44, top: legend ? 36 : 16, bottom: 28 },
      xAxis,
    });
    return {
      heart: {
        ...base(true),
        yAxis: axis('bpm', [th.heartRateMin, th.heartRateMax], 10),
        series: [series(t('health:m.heartRate'), 'HeartRate', '#f5222d', band(th.heartRateMin, th.heartRateMax)), alarmSeries('heart')],
      },
      pressure: {
        ...base(true),
        yAxis: axis('mmHg', [th.systolicMin, th.systolicMax, th.diastolicMin, th.diastolicMax], 10),
        series: [
          series(t('health:m.systolic'), 'Systolic', '#1677ff', band(th.systolicMin, th.systolicMax, 'rgba(22,119,255,0.06)', '#1677ff')),
          series(t('health:m.diastolic'), 'Diastolic', '#13c2c2', band(th.diastolicMin, th.diastolicMax, 'rgba(19,194,194,0.08)', '#13c2c2')),
          alarmSeries('pressure'),
        ],
      },
      temp: {
        ...base(true),
        yAxis: axis('°C', [th.bodyTempMax, 35], 1),
        series: [series(t('health:m.bodyTemp'), 'BodyTemp', '#fa541c', band(null, th.bodyTempMax)), series(t('health:m.wristTemp'), 'WristTemp', '#faad14'), alarmSeries('temp')],
      },
      spo2: {
        ...base(true),
        yAxis: { type: 'value', name: '%', min: 80, max: 100 },
        series: [series(t('health:m.bloodOxygen'), 'BloodOxygen', '#722ed1', band(th.bloodOxygenMin, null)), alarmSeries('spo2')],
      },
      hrv: {
        ...base(true),
        yAxis: { type: 'value', name: 'ms', scale: true },
        series: [series('HRV', 'Hrv', '#2f54eb'), series('UV', 'Uv', '#a0d911'), series('PHO', 'Pho', '#fa8c16'), series('IR', 'Ir', '#eb2f96')],
      },
      activity: {
        ...base(true),
        yAxis: [{ type: 'value', name: t('health:m.steps') }, { type: 'value', name: 'kcal / m' }],
        series: [
          { ...series(t('health:m.steps'), 'Steps', '#52c41a'), type: 'bar', barMaxWidth: 16 },
          { ...series(t('health:m.calories'), 'Calories', '#eb2f96'), yAxisIndex: 1 },
          { ...series(t('health:m.distance'), 'Distance', '#1677ff'), yAxisIndex: 1 },
        ],
      },
      sleep: {
        tooltip: { trigger: 'axis' },
        legend: { top: 0 },
        grid: { left: 48, right: 24, top: 36, bottom: 28 },
        xAxis: { type: 'category', data: data.Sleep.map((s) => s.Night) },
        yAxis: { type: 'value', name: t('health:minutes') },
        series: (['Deep', 'Light', 'Awake'] as const).map((k, i) => ({
          name: t(`health:stage.${k.toLowerCase()}`),
          type: 'bar',
          stack: 'sleep',
          barMaxWidth: 40,
          color: ['#1d39c4', '#69b1ff', '#ffc53d'][i],
          data: data.Sleep.map((s) => s[k]),
        })),
      },
    };
  }, [data, start, end, t, typeName]);

  const deviceSelect = (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      style={{ width: 280 }}
      placeholder={t('health:pickDevice')}
      {...userDataOptions}
      value={imei ?? data?.Device.Imei}
      onChange={(v: string) => setParams({ imei: v })}
      options={(devices.data?.Items ?? []).map((d) => ({ value: d.Imei, label: `${d.DeviceName || d.Imei} (${d.Imei})` }))}
    />
  );
  const header = (
    <Space wrap style={{ marginBottom: 16 }}>
      {deviceSelect}
      <Segmented<View> value={view} onChange={setView} options={(['day', 'week', 'month'] as const).map((v) => ({ value: v, label: t(`health:view.${v}`) }))} />
      <DatePicker value={anchor} onChange={(d) => d && setAnchor(d)} picker={view === 'month' ? 'month' : view === 'week' ? 'week' : 'date'} allowClear={false} />
      {can('device.command') && (
        <Button icon={<HeartOutlined />} disabled={!data} onClick={() => void measure('hrtstart,1')}>
          {t('health:measureHeart')}
        </Button>
      )}
      {can('device.command') && (
        <Button icon={<ThunderboltOutlined />} disabled={!data} onClick={() => void measure('bphrtstart,1')}>
          {t('health:measurePressure')}
        </Button>
      )}
    </Space>
  );
  if (!imei && !id) {
    return (
      <Card>
        {header}
        <Empty description={t('messages:health.deviceRequired')} />
      </Card>
    );
  }
  const empty = data && data.Items.length === 0 && data.Sleep.length === 0;
  const card = (title: string, option: object | undefined, testId: string) => (
    <Col xs={24} xl={12}>
      <Card size="small" title={title}>
        {option ? <Chart option={option} testId={testId} noData={t('health:noChartData')} /> : null}
      </Card>
    </Col>
  );
  return (
    <Card>
      {header}
      {data ? (
        <Typography.Paragraph type="secondary" data-testid="health-device">
          <span {...USER_DATA}>{data.Device.DeviceName}</span> · {data.Device.Imei} · <span {...USER_DATA}>{data.Device.Model}</span> ·{' '}
          <span {...USER_DATA}>{data.Device.AccountName}</span> · {t('health:readings', { count: data.Items.length })}
        </Typography.Paragraph>
      ) : null}
      {q.isLoading ? <Spin /> : null}
      {q.error ? <Typography.Text type="danger">{errorText(t, q.error)}</Typography.Text> : null}
      {empty ? <Empty description={t('messages:health.noData')} /> : null}
      {charts && !empty ? (
        <Row gutter={[16, 16]}>
          {card(t('health:m.heartRate'), charts.heart, 'chart-heart')}
          {card(t('health:m.bloodPressure'), charts.pressure, 'chart-pressure')}
          {card(t('health:m.temperature'), charts.temp, 'chart-temp')}
          {card(t('health:m.bloodOxygen'), charts.spo2, 'chart-spo2')}
          {card(t('health:m.activity'), charts.activity, 'chart-activity')}
          {card(t('health:m.sleep'), charts.sleep, 'chart-sleep')}
          {card('HRV / UV / PHO / IR', charts.hrv, 'chart-hrv')}
        </Row>
      ) : null}
    </Card>
  );
}
