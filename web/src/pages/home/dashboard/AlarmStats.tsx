// The dashboard's alarm statistics: the last 7 days of the viewer's zone, alarms per day stacked by
// type, and the time to acknowledge (p50 / p90) from the reports' alarm figures. The spreadsheet
// is the reports page's export, offered where that page is open.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { ExportButton } from '../../../components/ExportButton';
import { useMayOpen } from '../../../access/can';
import { useViewerOffset, viewerNow } from '../../../session/time';
import { useAlarmTypeName } from '../../alarm/queries';
import { DashChart } from './DashChart';

const TEXT = '#c9d6ea';
const AXIS = { axisLine: { lineStyle: { color: '#3a4d6b' } }, axisLabel: { color: TEXT }, splitLine: { lineStyle: { color: '#22324d' } } };
export const ALARM_STATS_DAYS = 7;

/** The last `n` days of the viewer's zone, oldest first (YYYY-MM-DD). */
export function lastDays(offset: number, n: number, now = Date.now()): string[] {
  const today = viewerNow(offset, now).startOf('day');
  return Array.from({ length: n }, (_, i) => today.subtract(n - 1 - i, 'day').format('YYYY-MM-DD'));
}

export function AlarmStats() {
  const { t } = useTranslation('dashboard');
  const tc = useTranslation('common').t;
  const offset = useViewerOffset();
  const mayOpen = useMayOpen();
  const typeName = useAlarmTypeName();
  const days = useMemo(() => lastDays(offset, ALARM_STATS_DAYS), [offset]);
  const period = { From: days[0]!, To: days[days.length - 1]! };
  const q = useQuery({ queryKey: ['dashboard', 'alarm-stats', period.From, period.To], queryFn: () => call('/Report/Alarms', period), refetchInterval: 120_000 });
  const r = q.data;

  const option = useMemo(() => {
    const types = (r?.ByType ?? []).map((x) => x.Type);
    const count = new Map((r?.ByTypeDay ?? []).map((x) => [`${x.Day}|${x.Type}`, x.Count]));
    return {
      grid: { left: 40, right: 20, top: 40, bottom: 28 },
      tooltip: { trigger: 'axis' },
      legend: { type: 'scroll', textStyle: { color: TEXT }, top: 0, pageTextStyle: { color: TEXT } },
      xAxis: { type: 'category', data: days.map((d) => d.slice(5)), ...AXIS },
      yAxis: { type: 'value', minInterval: 1, ...AXIS },
      series: types.map((type) => ({ name: typeName(type), type: 'bar', stack: 'alarms', barWidth: 18, data: days.map((d) => count.get(`${d}|${type}`) ?? 0) })),
    };
  }, [r, days, typeName]);

  const minutes = (v: number | null | undefined) => (v === null || v === undefined ? '-' : t('alarmStats.minutes', { count: v }));
  return (
    <div className="wt-dash-panel" data-testid="dashboard-alarm-stats">
      <div className="wt-dash-title" style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 8 }}>
        <span>{t('alarmStats.title', { count: ALARM_STATS_DAYS })}</span>
        {mayOpen('/report/index') ? (
          <ExportButton path="/Report/Export" body={() => ({ Report: 'alarms', ...period })} fileName={`${t('alarmStats.file')}-${period.From}-${period.To}.xlsx`} testId="alarm-stats-export" />
        ) : null}
      </div>
      <div className="wt-dash-health" data-testid="alarm-stats-figures">
        <div className="wt-dash-health-item">
          <div className="wt-dash-stat-label">{t('alarmStats.total')}</div>
          <div className="wt-dash-health-value" data-testid="alarm-stats-total">{r ? r.Total : '-'}</div>
        </div>
        <div className="wt-dash-health-item">
          <div className="wt-dash-stat-label">{t('alarmStats.p50')}</div>
          <div className="wt-dash-health-value" data-testid="alarm-stats-p50">{r ? minutes(r.P50Minutes) : '-'}</div>
        </div>
        <div className="wt-dash-health-item">
          <div className="wt-dash-stat-label">{t('alarmStats.p90')}</div>
          <div className="wt-dash-health-value" data-testid="alarm-stats-p90">{r ? minutes(r.P90Minutes) : '-'}</div>
        </div>
      </div>
      {r && !r.Total ? (
        <div className="wt-dash-empty">{t('noAlarms')}</div>
      ) : (
        <DashChart option={option} style={{ height: 280 }} notMerge showLoading={!r} loadingOption={{ text: tc('loading'), color: '#409eff', textColor: TEXT, maskColor: 'rgba(8, 20, 40, 0.4)' }} />
      )}
    </div>
  );
}
