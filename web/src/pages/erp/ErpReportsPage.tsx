// Reports (/erp/reports): stock per model, version and store (with a bar chart of what is in
// stock per model); purchasing and sales per month of a year (a chart of payments against sales);
// receivables per customer. Each exports to a spreadsheet written by the server.
import { useState } from 'react';
import { Card, InputNumber, Space, Table, Tabs } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import ReactEChartsCore from 'echarts-for-react/esm/core';
import { erp } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { ExportButton } from '../../components/ExportButton';
import { echarts } from '../health/charts';
import { ERP_KEY } from './shared';

type Report = (typeof erp.REPORTS)[number];
type StockRow = z.infer<typeof erp.stockReportRow>;
type MonthRow = z.infer<typeof erp.monthlyReportRow>;
type ReceivableRow = z.infer<typeof erp.receivableReportRow>;

function useReport<T>(report: Report, year?: number) {
  return useQuery({
    queryKey: [...ERP_KEY, 'report', report, year],
    queryFn: async () => {
      const r = await call('/Erp/Report', { Report: report, Year: year });
      return ((report === 'stock' ? r.Stock : report === 'monthly' ? r.Monthly : r.Receivables) ?? []) as T[];
    },
  });
}

function StockTab() {
  const { t } = useTranslation();
  const q = useReport<StockRow>('stock');
  const rows = q.data ?? [];
  const byModel = new Map<string, number>();
  for (const r of rows) byModel.set(r.ModelName, (byModel.get(r.ModelName) ?? 0) + r.InStock);
  const cols = (k: keyof StockRow) => t(`messages:erp.reportColumns.${k}`);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title={t('erp:reports.inStockByModel')}>
        <ReactEChartsCore
          echarts={echarts}
          style={{ height: 260 }}
          notMerge
          option={{
            animation: false,
            grid: { left: 48, right: 16, top: 24, bottom: 32 },
            tooltip: { trigger: 'axis' },
            xAxis: { type: 'category', data: [...byModel.keys()] },
            yAxis: { type: 'value', minInterval: 1 },
            series: [{ type: 'bar', name: cols('InStock'), data: [...byModel.values()], barMaxWidth: 48, itemStyle: { color: '#1677ff' } }],
          }}
        />
      </Card>
      <Table<StockRow>
        size="small"
        rowKey={(r) => `${r.ModelName}|${r.VersionName}|${r.StoreName}`}
        loading={q.isLoading}
        dataSource={rows}
        data-testid="report-stock"
        pagination={rows.length > 20 ? { pageSize: 20 } : false}
        columns={(['ModelName', 'VersionName', 'StoreName', 'InStock', 'Sold'] as const).map((k) => ({ key: k, title: cols(k), dataIndex: k }))}
      />
    </Space>
  );
}

function MonthlyTab({ year }: { year: number }) {
  const { t } = useTranslation();
  const q = useReport<MonthRow>('monthly', year);
  const rows = q.data ?? [];
  const cols = (k: keyof MonthRow) => t(`messages:erp.reportColumns.${k}`);
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card size="small" title={t('erp:reports.moneyByMonth', { year })}>
        <ReactEChartsCore
          echarts={echarts}
          style={{ height: 260 }}
          notMerge
          option={{
            animation: false,
            grid: { left: 64, right: 16, top: 36, bottom: 32 },
            tooltip: { trigger: 'axis' },
            legend: { top: 0 },
            xAxis: { type: 'category', data: rows.map((r) => r.Month.slice(5)) },
            yAxis: { type: 'value' },
            series: [
              { type: 'bar', name: cols('PurchasePaid'), data: rows.map((r) => Number(r.PurchasePaid)), itemStyle: { color: '#fa8c16' } },
              { type: 'bar', name: cols('SalesReceivable'), data: rows.map((r) => Number(r.SalesReceivable)), itemStyle: { color: '#1677ff' } },
              { type: 'line', name: cols('SalesActual'), data: rows.map((r) => Number(r.SalesActual)), itemStyle: { color: '#52c41a' } },
            ],
          }}
        />
      </Card>
      <Table<MonthRow>
        size="small"
        rowKey="Month"
        loading={q.isLoading}
        dataSource={rows}
        data-testid="report-monthly"
        pagination={false}
        columns={(['Month', 'PurchaseQuantity', 'PurchasePaid', 'SalesQuantity', 'SalesReceivable', 'SalesActual', 'DevicesSold'] as const).map((k) => ({
          key: k,
          title: cols(k),
          dataIndex: k,
          align: k === 'Month' ? undefined : ('right' as const),
        }))}
      />
    </Space>
  );
}

function ReceivablesTab() {
  const { t } = useTranslation();
  const q = useReport<ReceivableRow>('receivables');
  const cols = (k: keyof ReceivableRow) => t(`messages:erp.reportColumns.${k}`);
  return (
    <Table<ReceivableRow>
      size="small"
      rowKey="Customer"
      loading={q.isLoading}
      dataSource={q.data ?? []}
      data-testid="report-receivables"
      columns={(['Customer', 'Records', 'Sold', 'Paid', 'Outstanding'] as const).map((k) => ({ key: k, title: cols(k), dataIndex: k, align: k === 'Customer' ? undefined : ('right' as const) }))}
    />
  );
}

export default function ErpReportsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Report>('stock');
  const [year, setYear] = useState(new Date().getFullYear());
  return (
    <Card>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as Report)}
        destroyOnHidden
        tabBarExtraContent={
          <Space>
            {tab === 'monthly' ? <InputNumber min={2000} max={2100} value={year} onChange={(v) => v && setYear(v)} /> : null}
            <ExportButton path="/Erp/ReportExport" body={{ Report: tab, Year: year }} fileName={`${t(`messages:erp.reportNames.${tab}`)}.xlsx`} testId="report-export" />
          </Space>
        }
        items={[
          { key: 'stock', label: t('messages:erp.reportNames.stock'), children: <StockTab /> },
          { key: 'monthly', label: t('messages:erp.reportNames.monthly'), children: <MonthlyTab year={year} /> },
          { key: 'receivables', label: t('messages:erp.reportNames.receivables'), children: <ReceivablesTab /> },
        ]}
      />
    </Card>
  );
}
