// Dashboard (/dashboard): the large-screen view of the account: device counts, today's alarms by
// type, health summary, activity over the last days, where the devices are and the alarm statistics. It refreshes
// itself when realtime events arrive.
import { useEffect, useMemo, useState } from 'react';
import { Col, Row, Segmented, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import * as echarts from 'echarts';
import { call } from '../../api/client';
import { liveDevices } from '../../map/deviceStore';
import { onRefresh } from '../../realtime/events';
import { useRealtime } from '../../realtime/store';
import { offlineShapes } from '../../map/baseStyle';
import './dashboard/dashboard.css';
import { DashChart } from './dashboard/DashChart';
import { AlarmStats } from './dashboard/AlarmStats';
import { boundsOf } from '../../map/bounds';
import { useAlarmTypeName } from '../alarm/queries';

const TEXT = '#c9d6ea';
const AXIS = { axisLine: { lineStyle: { color: '#3a4d6b' } }, axisLabel: { color: TEXT }, splitLine: { lineStyle: { color: '#22324d' } } };

/** World shapes for the ECharts map, registered once. */
let worldRegistered: Promise<void> | undefined;
function registerWorld() {
  worldRegistered ??= offlineShapes().then(({ land }) => {
    echarts.registerMap('wt-world', land as never);
  });
  return worldRegistered;
}

function Panel({ title, children, testId }: { title: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="wt-dash-panel" data-testid={testId}>
      <div className="wt-dash-title">{title}</div>
      {children}
    </div>
  );
}

export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const tm = useTranslation('monitor').t;
  const tc = useTranslation('common').t;
  const qc = useQueryClient();
  const [days, setDays] = useState(7);
  const [mapReady, setMapReady] = useState(false);
  const alarmCount = useRealtime((s) => s.alarms.length);

  const counts = useQuery({ queryKey: ['dashboard', 'counts'], queryFn: () => call('/User/allAdminCount', {}), refetchInterval: 60_000 });
  const analysis = useQuery({ queryKey: ['dashboard', 'analysis', days], queryFn: () => call('/User/adminPageAnalysis', { Days: days }), refetchInterval: 120_000 });

  useEffect(() => {
    void registerWorld().then(() => setMapReady(true));
  }, []);

  // Realtime: a refresh notice, a new alarm, or device changes (at most every 10 s) refetch the figures.
  useEffect(() => onRefresh(() => void qc.invalidateQueries({ queryKey: ['dashboard'] })), [qc]);
  useEffect(() => {
    if (alarmCount) void qc.invalidateQueries({ queryKey: ['dashboard'] });
  }, [alarmCount, qc]);
  useEffect(() => {
    let last = 0;
    return liveDevices.subscribe(() => {
      if (Date.now() - last < 10_000) return;
      last = Date.now();
      void qc.invalidateQueries({ queryKey: ['dashboard', 'counts'] });
    });
  }, [qc]);

  const typeName = useAlarmTypeName();
  const c = counts.data;
  const a = analysis.data;
  // Until the figures come the charts say so, rather than drawing zeros.
  const loading = { text: tc('loading'), color: '#409eff', textColor: TEXT, maskColor: 'rgba(8, 20, 40, 0.4)' };

  const alarmsOption = useMemo(() => {
    const rows = (a?.AlarmsByType ?? []).slice(0, 10);
    return {
      grid: { left: 110, right: 30, top: 10, bottom: 24 },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'value', minInterval: 1, ...AXIS },
      yAxis: { type: 'category', inverse: true, data: rows.map((r) => typeName(Number(r.Type))), ...AXIS },
      series: [{ type: 'bar', data: rows.map((r) => r.Count), barWidth: 14, itemStyle: { borderRadius: [0, 7, 7, 0], color: new echarts.graphic.LinearGradient(0, 0, 1, 0, [{ offset: 0, color: '#fa8c16' }, { offset: 1, color: '#f5222d' }]) } }],
    };
  }, [a, typeName]);

  const activityOption = useMemo(() => {
    const rows = a?.Activity ?? [];
    return {
      grid: { left: 50, right: 50, top: 36, bottom: 28 },
      tooltip: { trigger: 'axis' },
      legend: { textStyle: { color: TEXT }, top: 0 },
      xAxis: { type: 'category', data: rows.map((r) => r.Day.slice(5)), ...AXIS },
      yAxis: [
        { type: 'value', name: t('positions'), nameTextStyle: { color: TEXT }, ...AXIS },
        { type: 'value', name: t('devicesAxis'), nameTextStyle: { color: TEXT }, minInterval: 1, ...AXIS, splitLine: { show: false } },
      ],
      series: [
        { name: t('positions'), type: 'bar', data: rows.map((r) => r.Positions), itemStyle: { color: '#1677ff' }, barWidth: 16 },
        { name: t('activeDevices'), type: 'line', yAxisIndex: 1, smooth: true, data: rows.map((r) => r.ActiveDevices), itemStyle: { color: '#52c41a' } },
        { name: t('alarms'), type: 'line', yAxisIndex: 1, smooth: true, data: rows.map((r) => r.Alarms), itemStyle: { color: '#fa8c16' } },
      ],
    };
  }, [a, t]);

  const statusOption = useMemo(
    () => ({
      tooltip: { trigger: 'item' },
      legend: { bottom: 0, textStyle: { color: TEXT } },
      series: [
        {
          type: 'pie',
          radius: ['48%', '72%'],
          center: ['50%', '44%'],
          label: { color: TEXT, formatter: '{b}\n{c}' },
          data: [
            { name: tm('status.online'), value: c?.Online ?? 0, itemStyle: { color: '#52c41a' } },
            { name: tm('status.offline'), value: c?.Offline ?? 0, itemStyle: { color: '#597ef7' } },
            { name: tm('status.sos'), value: c?.Sos ?? 0, itemStyle: { color: '#f5222d' } },
          ],
        },
      ],
    }),
    [c, tm],
  );

  const mapOption = useMemo(() => {
    const locs = a?.Locations ?? [];
    const box = boundsOf(locs);
    const has = box !== null;
    const [w, s, e, n] = box ?? [-180, -90, 180, 90];
    const span = has ? Math.max(e - w, n - s, 20) : 360;
    const max = Math.max(1, ...locs.map((l) => l[2]));
    return {
      tooltip: { trigger: 'item', formatter: (p: { value: number[] }) => `${t('devicesHere', { count: p.value[2] })}` },
      geo: {
        map: 'wt-world',
        roam: true,
        center: has ? [(w + e) / 2, (s + n) / 2] : [110, 30],
        zoom: has ? Math.min(12, 200 / span) : 1.2,
        itemStyle: { areaColor: '#1b2d4a', borderColor: '#3d5a80' },
        emphasis: { itemStyle: { areaColor: '#24406b' }, label: { show: false } },
      },
      series: [
        {
          type: 'effectScatter',
          coordinateSystem: 'geo',
          data: locs.map((l) => ({ value: l })),
          symbolSize: (v: number[]) => 8 + (v[2]! / max) * 22,
          rippleEffect: { scale: 3, brushType: 'stroke' },
          itemStyle: { color: '#36cfc9', shadowBlur: 10, shadowColor: '#36cfc9' },
        },
      ],
    };
  }, [a, t]);

  const h = a?.Health;
  const stats: [string, number | undefined, string][] = [
    ['total', c?.Total, '#40a9ff'],
    ['online', c?.Online, '#73d13d'],
    ['offline', c?.Offline, '#8c9bb5'],
    ['sos', c?.Sos, '#ff4d4f'],
    ['alarmsToday', c?.AlarmsToday, '#ffa940'],
    ['accounts', c?.Accounts, '#b37feb'],
  ];

  return (
    <div className="wt-dashboard" data-testid="dashboard" data-loaded={c && a ? '1' : '0'}>
      <div className="wt-dash-header">
        <span className="wt-dash-heading">{t('title')}</span>
        <Segmented size="small" value={days} onChange={(v) => setDays(Number(v))} options={[7, 14, 30].map((d) => ({ value: d, label: t('days', { count: d }) }))} />
      </div>
      <Row gutter={[12, 12]}>
        {stats.map(([key, value, color]) => (
          <Col xs={12} md={8} xl={4} key={key}>
            <div className="wt-dash-stat" data-testid={`stat-${key}`}>
              <div className="wt-dash-stat-label">{t(`stat.${key}`)}</div>
              <div className="wt-dash-stat-value" style={{ color }}>
                {value ?? <Spin size="small" />}
              </div>
            </div>
          </Col>
        ))}
      </Row>
      <Row gutter={[12, 12]} style={{ marginTop: 12 }}>
        <Col xs={24} xl={7}>
          <Panel title={t('deviceStatus')}>
            <DashChart option={statusOption} style={{ height: 250 }} notMerge showLoading={!c} loadingOption={loading} />
          </Panel>
          <Panel title={t('health.title')}>
            <div className="wt-dash-health">
              {(
                [
                  ['heartRate', h?.HeartRate, 'bpm'],
                  ['bloodPressure', h?.Systolic != null ? `${h.Systolic}/${h.Diastolic ?? '-'}` : null, 'mmHg'],
                  ['bodyTemp', h?.BodyTemp, '℃'],
                  ['bloodOxygen', h?.BloodOxygen, '%'],
                  ['readings', h?.Readings, ''],
                  ['abnormal', h?.Abnormal, ''],
                ] as const
              ).map(([k, v, unit]) => (
                <div key={k} className="wt-dash-health-item">
                  <div className="wt-dash-stat-label">{t(`health.${k}`)}</div>
                  <div className="wt-dash-health-value">
                    {v ?? '-'}
                    {v != null && unit ? <small> {unit}</small> : null}
                  </div>
                </div>
              ))}
            </div>
          </Panel>
        </Col>
        <Col xs={24} xl={10}>
          <Panel title={t('map')} testId="dashboard-map">
            {mapReady ? <DashChart option={mapOption} style={{ height: 452 }} notMerge showLoading={!a} loadingOption={loading} /> : <Spin />}
          </Panel>
        </Col>
        <Col xs={24} xl={7}>
          <Panel title={t('alarmsByType', { count: days })}>
            {a && !a.AlarmsByType.length ? <div className="wt-dash-empty">{t('noAlarms')}</div> : <DashChart option={alarmsOption} style={{ height: 452 }} notMerge showLoading={!a} loadingOption={loading} />}
          </Panel>
        </Col>
      </Row>
      <Panel title={t('activity', { count: days })}>
        <DashChart option={activityOption} style={{ height: 260 }} notMerge showLoading={!a} loadingOption={loading} />
      </Panel>
      <AlarmStats />
    </div>
  );
}
