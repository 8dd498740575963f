// Reports (/report/index): trips and stops of a device or a group, the summary per device per day, and
// the alarms of a period, each a table with a chart and a workbook export written by the server. The
// period is days of the account's zone; times are shown in it. A user who may export also keeps his
// scheduled reports here (SubscriptionsDrawer).
import { useState } from 'react';
import { Button, Card, DatePicker, Empty, Input, Select, Space, Statistic, Table, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import type { CallResponse } from '@wt/contract';
import { call } from '../../api/client';
import { ExportButton } from '../../components/ExportButton';
import { useShownTime, useViewerOffset, shownAt } from '../../session/time';
import { echarts } from '../health/charts';
import { ReportThresholds } from './ThresholdsDialog';
import { ReportSubscriptions } from './SubscriptionsDrawer';

type Kind = 'trips' | 'summary' | 'alarms';
type TripsAnswer = CallResponse<'/Report/Trips'>;
type SummaryAnswer = CallResponse<'/Report/Summary'>;
type AlarmsAnswer = CallResponse<'/Report/Alarms'>;
type TripRow = TripsAnswer['Devices'][number]['Trips'][number] & { Imei: string; Name: string; key: string };
type StopRow = TripsAnswer['Devices'][number]['Stops'][number] & { Imei: string; Name: string; key: string };
type SummaryRow = SummaryAnswer['Items'][number];

interface Filter {
  Imei?: string;
  GroupId?: number;
  From: string;
  To: string;
}

const km = (m: number) => (m / 1000).toFixed(1);

function Chart({ option, testId }: { option: Record<string, unknown>; testId: string }) {
  return (
    <div data-testid={testId}>
      <ReactEChartsCore echarts={echarts} style={{ height: 260 }} notMerge option={{ animation: false, grid: { left: 56, right: 16, top: 32, bottom: 32 }, tooltip: { trigger: 'axis' }, ...option }} />
    </div>
  );
}

function TripsTab({ filter }: { filter: Filter }) {
  const { t } = useTranslation();
  const shown = useShownTime();
  const ready = Boolean(filter.Imei || filter.GroupId);
  const q = useQuery({ queryKey: ['report', 'trips', filter], queryFn: () => call('/Report/Trips', filter), enabled: ready });
  if (!ready) return <Empty description={t('reports:chooseSubject')} />;
  const devices = q.data?.Devices ?? [];
  const trips: TripRow[] = devices.flatMap((d) => d.Trips.map((x, i) => ({ ...x, Imei: d.Imei, Name: d.Name, key: `${d.DeviceId}-${i}` })));
  const stops: StopRow[] = devices.flatMap((d) => d.Stops.map((x, i) => ({ ...x, Imei: d.Imei, Name: d.Name, key: `${d.DeviceId}-${i}` })));
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title={t('reports:tripDistances')}>
        <Chart
          testId="report-trips-chart"
          option={{
            xAxis: { type: 'category', data: trips.map((x) => shown(x.Start).slice(5, 16)) },
            yAxis: { type: 'value', name: 'km' },
            series: [{ type: 'bar', name: t('reports:distanceKm'), data: trips.map((x) => Number(km(x.Distance))), barMaxWidth: 32, itemStyle: { color: '#1677ff' } }],
          }}
        />
      </Card>
      <Table<TripRow>
        size="small"
        rowKey="key"
        loading={q.isLoading}
        dataSource={trips}
        data-testid="report-trips"
        title={() => t('reports:trips')}
        pagination={trips.length > 20 ? { pageSize: 20 } : false}
        columns={[
          { key: 'device', title: t('reports:device'), render: (_, r) => r.Name || r.Imei },
          { key: 'start', title: t('reports:start'), render: (_, r) => shown(r.Start) },
          { key: 'startAddress', title: t('reports:startAddress'), render: (_, r) => r.StartPlace.Address },
          { key: 'end', title: t('reports:end'), render: (_, r) => shown(r.End) },
          { key: 'endAddress', title: t('reports:endAddress'), render: (_, r) => r.EndPlace.Address },
          { key: 'distance', title: t('reports:distanceKm'), align: 'right', render: (_, r) => km(r.Distance) },
          { key: 'minutes', title: t('reports:minutes'), align: 'right', dataIndex: 'Minutes' },
          { key: 'max', title: t('reports:maxSpeed'), align: 'right', dataIndex: 'MaxSpeed' },
          { key: 'avg', title: t('reports:avgSpeed'), align: 'right', dataIndex: 'AvgSpeed' },
        ]}
      />
      <Table<StopRow>
        size="small"
        rowKey="key"
        loading={q.isLoading}
        dataSource={stops}
        data-testid="report-stops"
        title={() => t('reports:stops')}
        pagination={stops.length > 20 ? { pageSize: 20 } : false}
        columns={[
          { key: 'device', title: t('reports:device'), render: (_, r) => r.Name || r.Imei },
          { key: 'start', title: t('reports:start'), render: (_, r) => shown(r.Start) },
          { key: 'end', title: t('reports:end'), render: (_, r) => shown(r.End) },
          { key: 'minutes', title: t('reports:minutes'), align: 'right', dataIndex: 'Minutes' },
          { key: 'address', title: t('reports:address'), dataIndex: 'Address' },
        ]}
      />
    </Space>
  );
}

function SummaryTab({ filter }: { filter: Filter }) {
  const { t } = useTranslation();
  const shown = useShownTime();
  const [page, setPage] = useState({ PageNo: 1, PageCount: 20 });
  const q = useQuery({ queryKey: ['report', 'summary', filter, page], queryFn: () => call('/Report/Summary', { ...filter, ...page }) });
  const rows = q.data?.Items ?? [];
  const byDay = new Map<string, number>();
  for (const r of rows) byDay.set(r.Day, (byDay.get(r.Day) ?? 0) + r.Distance);
  const range = (e: { Min: number; Max: number } | null) => (e ? `${e.Min}–${e.Max}` : '');
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title={t('reports:distanceByDay')}>
        <Chart
          testId="report-summary-chart"
          option={{
            xAxis: { type: 'category', data: [...byDay.keys()] },
            yAxis: { type: 'value', name: 'km' },
            series: [{ type: 'bar', name: t('reports:distanceKm'), data: [...byDay.values()].map((m) => Number(km(m))), barMaxWidth: 48, itemStyle: { color: '#52c41a' } }],
          }}
        />
      </Card>
      <Table<SummaryRow>
        size="small"
        rowKey={(r) => `${r.DeviceId}|${r.Day}`}
        loading={q.isLoading}
        dataSource={rows}
        data-testid="report-summary"
        pagination={{
          current: page.PageNo,
          pageSize: page.PageCount,
          total: q.data?.Total ?? 0,
          onChange: (PageNo, PageCount) => setPage({ PageNo, PageCount }),
          showTotal: (n) => t('reports:devicesTotal', { count: n }),
        }}
        columns={[
          { key: 'device', title: t('reports:device'), render: (_, r) => r.Name || r.Imei },
          { key: 'day', title: t('reports:day'), dataIndex: 'Day' },
          { key: 'distance', title: t('reports:distanceKm'), align: 'right', render: (_, r) => km(r.Distance) },
          { key: 'moving', title: t('reports:movingMinutes'), align: 'right', dataIndex: 'MovingMinutes' },
          { key: 'stopped', title: t('reports:stoppedMinutes'), align: 'right', dataIndex: 'StoppedMinutes' },
          { key: 'max', title: t('reports:maxSpeed'), align: 'right', dataIndex: 'MaxSpeed' },
          { key: 'first', title: t('reports:firstTime'), render: (_, r) => (r.First ? shown(r.First.Time) : '') },
          { key: 'last', title: t('reports:lastTime'), render: (_, r) => (r.Last ? shown(r.Last.Time) : '') },
          { key: 'alarms', title: t('reports:alarms'), align: 'right', dataIndex: 'Alarms' },
          { key: 'hr', title: t('reports:heartRate'), render: (_, r) => range(r.HeartRate) },
          { key: 'ox', title: t('reports:bloodOxygen'), render: (_, r) => range(r.BloodOxygen) },
          { key: 'bt', title: t('reports:bodyTemp'), render: (_, r) => range(r.BodyTemp) },
        ]}
      />
    </Space>
  );
}

function AlarmsTab({ filter }: { filter: Filter }) {
  const { t } = useTranslation();
  const q = useQuery({ queryKey: ['report', 'alarms', filter], queryFn: () => call('/Report/Alarms', filter) });
  const d: AlarmsAnswer | undefined = q.data;
  const minutes = (v: number | null | undefined) => (v === null || v === undefined ? '–' : String(v));
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Space size="large">
        <Statistic title={t('reports:alarmTotal')} value={d?.Total ?? 0} />
        <Statistic title={t('reports:p50')} value={minutes(d?.P50Minutes)} />
        <Statistic title={t('reports:p90')} value={minutes(d?.P90Minutes)} />
      </Space>
      <Card size="small" title={t('reports:alarmsByDay')}>
        <Chart
          testId="report-alarms-chart"
          option={{
            xAxis: { type: 'category', data: (d?.ByDay ?? []).map((x) => x.Day) },
            yAxis: { type: 'value', minInterval: 1 },
            series: [{ type: 'bar', name: t('reports:alarms'), data: (d?.ByDay ?? []).map((x) => x.Count), barMaxWidth: 48, itemStyle: { color: '#fa541c' } }],
          }}
        />
      </Card>
      <Table
        size="small"
        rowKey="Type"
        loading={q.isLoading}
        dataSource={d?.ByType ?? []}
        data-testid="report-alarms-types"
        pagination={false}
        columns={[
          { key: 'name', title: t('reports:alarmType'), dataIndex: 'Name' },
          { key: 'count', title: t('reports:count'), align: 'right', dataIndex: 'Count' },
          { key: 'p50', title: t('reports:p50'), align: 'right', render: (_, r) => minutes(r.P50Minutes) },
          { key: 'p90', title: t('reports:p90'), align: 'right', render: (_, r) => minutes(r.P90Minutes) },
        ]}
      />
      <Table
        size="small"
        rowKey="DeviceId"
        loading={q.isLoading}
        dataSource={d?.ByDevice ?? []}
        data-testid="report-alarms-devices"
        pagination={(d?.ByDevice.length ?? 0) > 20 ? { pageSize: 20 } : false}
        columns={[
          { key: 'device', title: t('reports:device'), render: (_, r) => r.Name || r.Imei },
          { key: 'imei', title: 'IMEI', dataIndex: 'Imei' },
          { key: 'count', title: t('reports:count'), align: 'right', dataIndex: 'Count' },
        ]}
      />
    </Space>
  );
}

export default function ReportsPage() {
  const { t } = useTranslation();
  const offset = useViewerOffset();
  const today = dayjs(shownAt(Date.now(), offset).slice(0, 10));
  const [tab, setTab] = useState<Kind>('trips');
  const [imei, setImei] = useState('');
  const [groupId, setGroupId] = useState<number | undefined>();
  const [days, setDays] = useState<[Dayjs, Dayjs]>([today, today]);
  const [filter, setFilter] = useState<Filter>({ From: today.format('YYYY-MM-DD'), To: today.format('YYYY-MM-DD') });
  const groups = useQuery({ queryKey: ['report', 'groups'], queryFn: () => call('/group/GroupList', { PageNo: 1, PageCount: 1000 }) });
  const apply = () =>
    setFilter({ ...(imei.trim() ? { Imei: imei.trim() } : {}), ...(groupId ? { GroupId: groupId } : {}), From: days[0].format('YYYY-MM-DD'), To: days[1].format('YYYY-MM-DD') });
  const exportKind = tab === 'trips' ? 'trips' : tab;
  return (
    <Card>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input placeholder={t('reports:imei')} value={imei} onChange={(e) => setImei(e.target.value)} allowClear style={{ width: 200 }} data-testid="report-imei" />
        <Select
          placeholder={t('reports:group')}
          allowClear
          style={{ width: 180 }}
          value={groupId}
          onChange={(v) => setGroupId(v)}
          options={(groups.data?.Items ?? []).map((g) => ({ value: g.GroupId, label: g.Name }))}
          data-testid="report-group"
        />
        <DatePicker.RangePicker value={days} allowClear={false} onChange={(v) => v?.[0] && v[1] && setDays([v[0], v[1]])} data-testid="report-days" />
        <Button type="primary" onClick={apply} data-testid="report-run">
          {t('reports:run')}
        </Button>
        <ReportThresholds />
        <ReportSubscriptions />
      </Space>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as Kind)}
        destroyOnHidden
        tabBarExtraContent={
          <ExportButton path="/Report/Export" body={() => ({ ...filter, Report: exportKind })} fileName={`${t(`reports:tabs.${tab}`)}-${filter.From}-${filter.To}.xlsx`} testId="report-export" />
        }
        items={[
          { key: 'trips', label: t('reports:tabs.trips'), children: <TripsTab filter={filter} /> },
          { key: 'summary', label: t('reports:tabs.summary'), children: <SummaryTab filter={filter} /> },
          { key: 'alarms', label: t('reports:tabs.alarms'), children: <AlarmsTab filter={filter} /> },
        ]}
      />
    </Card>
  );
}
