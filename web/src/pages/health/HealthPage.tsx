// Health data (/health/data, kept alive): readings per device and time with filters, export, and
// a link to each device's charts. Says so when the subtree has no health data at all (SPEC §8).
import { useState } from 'react';
import { Button, Card, DatePicker, Empty, Input, Select } from 'antd';
import { LineChartOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Dayjs } from 'dayjs';
import type { HealthReadingRow } from '@wt/contract';
import { call } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { SearchForm } from '../../components/SearchForm';
import { ExportButton } from '../../components/ExportButton';
import { useCan } from '../../access/can';
import { userDataCell } from '../../i18n/texts';
import { wallClock } from '../../session/time';

interface Search {
  Range?: [Dayjs, Dayjs];
  Imei?: string;
  Kind?: 'heartRate' | 'bloodPressure' | 'temperature' | 'bloodOxygen' | 'steps' | 'sleep';
}

const v = (x: number | null, digits = 0) => (x === null ? '—' : digits ? x.toFixed(digits) : String(Math.round(x)));

export default function HealthPage() {
  const { t } = useTranslation();
  const can = useCan();
  const navigate = useNavigate();
  const [search, setSearch] = useState<Search>({});
  const devices = useQuery({ queryKey: ['health', 'devices'], queryFn: () => call('/health/HealthHasDataForUsers', {}) });
  const filter = {
    StartTime: search.Range?.[0] ? wallClock(search.Range[0].startOf('day')) : undefined,
    EndTime: search.Range?.[1] ? wallClock(search.Range[1].endOf('day')) : undefined,
    Imei: search.Imei,
    Kind: search.Kind,
  };
  if (devices.data && devices.data.Items.length === 0) {
    return (
      <Card>
        <Empty description={t('messages:health.noData')} style={{ padding: '64px 0' }} />
      </Card>
    );
  }
  return (
    <Card>
      <SearchForm<Search>
        onSearch={setSearch}
        fields={[
          { name: 'Range', label: t('health:time'), input: <DatePicker.RangePicker allowClear /> },
          { name: 'Imei', label: t('health:device'), input: <Input allowClear placeholder={t('health:devicePlaceholder')} style={{ width: 200 }} /> },
          {
            name: 'Kind',
            label: t('health:kind'),
            input: (
              <Select
                allowClear
                style={{ width: 140 }}
                options={(['heartRate', 'bloodPressure', 'temperature', 'bloodOxygen', 'steps', 'sleep'] as const).map((k) => ({ value: k, label: t(`health:kinds.${k}`) }))}
              />
            ),
          },
        ]}
      />
      <DataTable<HealthReadingRow & { key?: string }>
        queryKey={['health', 'readings']}
        params={filter}
        rowKey="key"
        scrollX={1500}
        testId="health-readings"
        fetch={async (q, p) => {
          const r = await call('/Device/allHealthDataPage', { PageNo: q.page, PageCount: q.pageSize, ...(p as object) });
          // Two devices can report at the same second: the row key joins device and time.
          return { Total: r.Total, Items: r.Items.map((x) => ({ ...x, Time: x.Time, key: `${x.DeviceId}-${x.Time}` })) };
        }}
        toolbar={
          can('health.export') ? (
            <ExportButton path="/export/health-readings" body={filter} fileName={`${t('health:fileName')}.xlsx`} label={t('health:export')} testId="export-health" />
          ) : null
        }
        columns={[
          { key: 'Time', title: t('health:time'), dataIndex: 'Time', width: 170, fixed: 'left' },
          { key: 'Imei', title: 'IMEI', dataIndex: 'Imei', width: 160 },
          { key: 'DeviceName', title: t('health:deviceName'), dataIndex: 'DeviceName', width: 120, onCell: userDataCell },
          { key: 'AccountName', title: t('health:account'), dataIndex: 'AccountName', width: 120, onCell: userDataCell },
          { key: 'HeartRate', title: t('health:m.heartRate'), width: 90, render: (_, r) => v(r.HeartRate) },
          { key: 'BP', title: t('health:m.bloodPressure'), width: 110, render: (_, r) => (r.Systolic === null ? '—' : `${v(r.Systolic)}/${v(r.Diastolic)}`) },
          { key: 'BodyTemp', title: t('health:m.bodyTemp'), width: 90, render: (_, r) => v(r.BodyTemp, 1) },
          { key: 'WristTemp', title: t('health:m.wristTemp'), width: 90, render: (_, r) => v(r.WristTemp, 1) },
          { key: 'BloodOxygen', title: t('health:m.bloodOxygen'), width: 90, render: (_, r) => v(r.BloodOxygen) },
          { key: 'Hrv', title: 'HRV', width: 70, render: (_, r) => v(r.Hrv) },
          { key: 'Steps', title: t('health:m.steps'), width: 80, render: (_, r) => v(r.Steps) },
          { key: 'Calories', title: t('health:m.calories'), width: 80, render: (_, r) => v(r.Calories) },
          {
            key: 'Sleep',
            title: t('health:m.sleep'),
            width: 160,
            render: (_, r) => (r.Sleep ? r.Sleep.map((s) => `${t(`health:stage.${s.stage}`)} ${s.minutes}′`).join(' ') : '—'),
          },
          {
            key: 'actions',
            title: t('health:actions'),
            width: 100,
            fixed: 'right',
            render: (_, r) => (
              <Button type="link" size="small" icon={<LineChartOutlined />} onClick={() => navigate(`/health/detail?imei=${r.Imei}`)}>
                {t('health:detail')}
              </Button>
            ),
          },
        ]}
      />
    </Card>
  );
}
