// Attendance at account fences: who arrived when, who left early, who never came. A date range (the
// current week by default, at most 93 days), an account, a fence and an IMEI filter the table; it
// shows totals per device and fence or a row per day, paged and sorted by the server. A row opens
// its detail (a day's timeline, or the device's days), and the table exports as a spreadsheet with
// attendance.export. Days and times are the fence owner's.
import { useMemo, useRef, useState } from 'react';
import { DatePicker, Input, Segmented, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type Dayjs } from 'dayjs';
import { accountFence } from '@wt/contract';
import { call } from '../../../api/client';
import { useCan } from '../../../access/can';
import { DataTable, type TableQuery } from '../../../components/DataTable';
import { ExportButton } from '../../../components/ExportButton';
import { SearchForm } from '../../../components/SearchForm';
import { userDataOptions } from '../../../i18n/texts';
import { useSession } from '../../../stores/session';
import { accountNow } from '../../../session/time';
import { AccountSelect } from '../../devices/dialogs/AccountSelect';
import { ATTENDANCE_KEY, AttendanceDrawer, RowClicks, type AttendanceFilters, type DrawerTarget } from './AttendanceDrawer';
import { dailyColumns, rowKeyOf, sortRequest, totalColumns, type AttendanceView, type KeyedRow } from './columns';
import './attendance.css';

const DAY = 'YYYY-MM-DD';
const MAX_DAYS = accountFence.MAX_ATTENDANCE_DAYS;

interface SearchValues {
  range?: [Dayjs, Dayjs] | null;
  UserId?: number;
  FenceId?: number;
  Imei?: string;
}

/** Monday of this week to today. */
export function currentWeek(today: Dayjs = accountNow()): [Dayjs, Dayjs] {
  const day = today.startOf('day');
  return [day.subtract((day.day() + 6) % 7, 'day'), day];
}

/** The search form's values as the call's filters (no range: the current week). */
export function filtersOf(v: SearchValues, today?: Dayjs): AttendanceFilters {
  const [from, to] = v.range?.[0] && v.range?.[1] ? v.range : currentWeek(today);
  const imei = v.Imei?.trim();
  return {
    From: from.format(DAY),
    To: to.format(DAY),
    ...(v.UserId ? { UserId: v.UserId } : {}),
    ...(v.FenceId ? { FenceId: v.FenceId } : {}),
    ...(imei ? { Imei: imei } : {}),
  };
}

export function AttendancePanel() {
  const { t } = useTranslation('attendance');
  const can = useCan();
  const fallbackOffset = useSession((s) => s.userInfo?.timeZoneOffset ?? 480);
  const initial = useMemo<SearchValues>(() => ({ range: currentWeek() }), []);
  const [filters, setFilters] = useState<AttendanceFilters>(() => filtersOf(initial));
  const [view, setView] = useState<AttendanceView>('total');
  const [target, setTarget] = useState<DrawerTarget | null>(null);
  // The table's last sort, for the export; every row answered so far, for a click on it.
  const lastQuery = useRef<Pick<TableQuery, 'sortField' | 'sortOrder'>>({});
  const rows = useRef(new Map<string, KeyedRow>());

  const fences = useQuery({
    queryKey: ['accountFences', 'options'],
    queryFn: () => call('/AccountFence/List', { PageNo: 1, PageCount: 1000, WithShape: false }),
    staleTime: 30_000,
  });
  const fenceOptions = useMemo(() => (fences.data?.Items ?? []).map((f) => ({ value: f.FenceId, label: f.Name })), [fences.data]);

  const columns = useMemo(() => (view === 'total' ? totalColumns(t) : dailyColumns(t, fallbackOffset)), [view, t, fallbackOffset]);
  const params = useMemo(() => ({ ...filters, View: view }), [filters, view]);

  const [rangeStart, setRangeStart] = useState<Dayjs | null>(null);
  const fields = [
    {
      name: 'range',
      label: t('search.range'),
      input: (
        <DatePicker.RangePicker
          allowClear={false}
          data-testid="attendance-range"
          // At most MAX_DAYS days, none after today.
          disabledDate={(d, info) => {
            if (d.isAfter(accountNow(), 'day')) return true;
            const from = info?.from ?? rangeStart;
            return !!from && Math.abs(d.startOf('day').diff(from.startOf('day'), 'day')) >= MAX_DAYS;
          }}
          onCalendarChange={(dates) => setRangeStart(dates?.[0] ?? null)}
          onOpenChange={(open) => !open && setRangeStart(null)}
          title={t('search.rangeHint', { max: MAX_DAYS })}
        />
      ),
    },
    { name: 'UserId', label: t('search.account'), input: <AccountSelect testId="attendance-account" /> },
    {
      name: 'FenceId',
      label: t('search.fence'),
      input: (
        <Select
          allowClear
          style={{ width: 200 }}
          placeholder={t('search.allFences')}
          loading={fences.isLoading}
          options={fenceOptions}
          showSearch={{ optionFilterProp: 'label' }}
          data-testid="attendance-fence"
          {...userDataOptions}
        />
      ),
    },
    { name: 'Imei', label: t('search.imei'), input: <Input allowClear style={{ width: 180 }} maxLength={15} data-testid="attendance-imei" /> },
  ];

  const open = (key: string) => {
    const r = rows.current.get(key);
    if (r) setTarget({ DeviceId: r.DeviceId, Imei: r.Imei, DeviceName: r.DeviceName, FenceId: r.FenceId, FenceName: r.FenceName, Day: r.Day });
  };

  return (
    <div data-testid="attendance-panel">
      <SearchForm<SearchValues> fields={fields} initialValues={initial} onSearch={(v) => setFilters(filtersOf(v))} />
      <RowClicks onRow={open}>
        <DataTable<KeyedRow>
          // Another view has other columns and sorts: its table starts afresh.
          key={view}
          testId="attendance-table"
          queryKey={ATTENDANCE_KEY}
          params={params}
          rowKey="Key"
          columns={columns}
          scrollX={view === 'total' ? 1145 : 1370}
          fetch={async (q) => {
            lastQuery.current = { sortField: q.sortField, sortOrder: q.sortOrder };
            const r = await call('/AccountFence/Attendance', { ...params, PageNo: q.page, PageCount: q.pageSize, ...sortRequest(q) });
            const items = r.Items.map((i) => ({ ...i, Key: rowKeyOf(i) }));
            for (const i of items) rows.current.set(i.Key, i);
            return { Total: r.Total, Items: items };
          }}
          toolbar={
            <>
              <Segmented<AttendanceView>
                value={view}
                onChange={setView}
                options={[
                  { value: 'total', label: t('view.total') },
                  { value: 'daily', label: t('view.daily') },
                ]}
                data-testid="attendance-view"
              />
              {can('attendance.export') ? (
                <ExportButton
                  path="/AccountFence/AttendanceExport"
                  body={() => ({ ...params, ...sortRequest(lastQuery.current) })}
                  fileName={`${t('fileName')} ${filters.From}_${filters.To}.xlsx`}
                  testId="attendance-export"
                />
              ) : null}
              <Typography.Text type="secondary">{view === 'total' ? t('rowHintTotal') : t('rowHint')}</Typography.Text>
            </>
          }
        />
      </RowClicks>
      <AttendanceDrawer target={target} filters={filters} fallbackOffset={fallbackOffset} onClose={() => setTarget(null)} />
    </div>
  );
}
