// The detail of attendance rows: one device's day at one fence as a timeline with its summary, or
// (from the totals) the device's days over the range, each opening its timeline.
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Alert, Button, Descriptions, Drawer, Empty, Skeleton, Space, Tag, Typography } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { DataTable } from '../../../components/DataTable';
import { errorText } from '../../../i18n/errors';
import { USER_DATA } from '../../../i18n/texts';
import { DayTimeline } from './DayTimeline';
import { dailyColumns, rowKeyOf, sortRequest, type KeyedRow } from './columns';
import { formatMinutes, formatOwnerTime, offsetText } from './format';
import { daySegments } from './timeline';

/** What the drawer shows: a device at a fence, and a day (else the device's days of the range). */
export interface DrawerTarget {
  DeviceId: number;
  Imei: string;
  DeviceName: string;
  FenceId: number;
  FenceName: string;
  Day: string | null;
}

/** The filters of the list the drawer was opened from (the days list asks for the same range). */
export interface AttendanceFilters {
  From: string;
  To: string;
  UserId?: number;
  FenceId?: number;
  Imei?: string;
}

export const ATTENDANCE_KEY = ['attendance'] as const;

/** Clicks on a table's rows (antd marks each with data-row-key), without reaching into the table. */
export function RowClicks({ onRow, children }: { onRow: (key: string) => void; children: ReactNode }) {
  return (
    <div
      className="attendance-rows"
      onClick={(e) => {
        const target = e.target as HTMLElement;
        if (target.closest('button, a, .ant-pagination, .ant-table-thead, .ant-select, input')) return;
        const tr = target.closest<HTMLElement>('tr[data-row-key]');
        if (tr?.dataset.rowKey) onRow(tr.dataset.rowKey);
      }}
    >
      {children}
    </div>
  );
}

export function AttendanceDrawer({
  target,
  filters,
  fallbackOffset,
  onClose,
}: {
  target: DrawerTarget | null;
  filters: AttendanceFilters;
  fallbackOffset: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('attendance');
  // A day picked from the device's days (the totals' drawer).
  const [picked, setPicked] = useState<string | null>(null);
  const [lastTarget, setLastTarget] = useState(target);
  if (target !== lastTarget) {
    setLastTarget(target);
    setPicked(null);
  }
  const day = target?.Day ?? picked;
  const names = target ? { device: target.DeviceName || target.Imei, fence: target.FenceName } : { device: '', fence: '' };
  return (
    <Drawer
      open={!!target}
      onClose={onClose}
      size={1080}
      destroyOnHidden
      title={
        target ? (
          <span data-testid="attendance-drawer-title">
            {/* The names are user data, the words around them the console's. */}
            <Trans t={t} i18nKey={day ? 'detail.title' : 'detail.daysTitle'} values={names} components={{ u: <span {...USER_DATA} /> }} />
          </span>
        ) : null
      }
    >
      {target && day ? (
        <>
          {!target.Day ? (
            <Button type="link" icon={<ArrowLeftOutlined />} style={{ paddingLeft: 0, marginBottom: 8 }} onClick={() => setPicked(null)}>
              {t('detail.back')}
            </Button>
          ) : null}
          <DayDetail deviceId={target.DeviceId} fenceId={target.FenceId} day={day} />
        </>
      ) : null}
      {target && !day ? <DeviceDays target={target} filters={filters} fallbackOffset={fallbackOffset} onDay={setPicked} /> : null}
    </Drawer>
  );
}

/** The device's days at the fence over the list's range, paged; a click opens the day. */
function DeviceDays(props: { target: DrawerTarget; filters: AttendanceFilters; fallbackOffset: number; onDay: (day: string) => void }) {
  const { t } = useTranslation('attendance');
  const columns = useMemo(() => dailyColumns(t, props.fallbackOffset, false), [t, props.fallbackOffset]);
  // Every row answered so far, by key (a page served from the cache was answered once too).
  const rows = useRef(new Map<string, KeyedRow>());
  const params = { From: props.filters.From, To: props.filters.To, UserId: props.filters.UserId, FenceId: props.target.FenceId, Imei: props.target.Imei };
  return (
    <>
      <Typography.Paragraph type="secondary">{t('rowHint')}</Typography.Paragraph>
      <RowClicks
        onRow={(key) => {
          const day = rows.current.get(key)?.Day;
          if (day) props.onDay(day);
        }}
      >
        <DataTable<KeyedRow>
          testId="attendance-days"
          queryKey={[...ATTENDANCE_KEY, 'days']}
          params={params}
          rowKey="Key"
          size="small"
          columns={columns}
          scrollX={995}
          defaultPageSize={10}
          fetch={async (q) => {
            const r = await call('/AccountFence/Attendance', {
              ...params,
              View: 'daily',
              PageNo: q.page,
              PageCount: q.pageSize,
              ...sortRequest(q),
            });
            // The same IMEI filter may match longer IMEIs: keep this device's rows only.
            const items = r.Items.filter((i) => i.DeviceId === props.target.DeviceId).map((i) => ({ ...i, Key: rowKeyOf(i) }));
            for (const i of items) rows.current.set(i.Key, i);
            return { Total: r.Total, Items: items };
          }}
        />
      </RowClicks>
    </>
  );
}

/** One day: the timeline over the schedule's windows, and the day's figures. */
export function DayDetail({ deviceId, fenceId, day }: { deviceId: number; fenceId: number; day: string }) {
  const { t } = useTranslation('attendance');
  const q = useQuery({
    queryKey: [...ATTENDANCE_KEY, 'day', deviceId, fenceId, day],
    queryFn: () => call('/AccountFence/AttendanceDay', { DeviceId: deviceId, FenceId: fenceId, Day: day }),
  });
  if (q.isLoading) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (q.error || !q.data)
    return (
      <Alert
        type="error"
        showIcon
        title={errorText(t, q.error)}
        action={
          <Button size="small" onClick={() => void q.refetch()} loading={q.isFetching}>
            {t('widgets:table.retry')}
          </Button>
        }
      />
    );
  const { Row: row, TimeZoneOffset: tz, Intervals, Windows } = q.data;
  const intervals = daySegments(day, tz, Intervals);
  const windows = daySegments(day, tz, Windows, 'window');
  const time = (iso: string | null) => formatOwnerTime(t, iso, day, tz);
  const flag = (on: boolean, minutes: number | null, color: string) =>
    on ? (
      <Tag color={color}>
        {t('detail.yes')}
        {minutes ? ` · ${formatMinutes(t, minutes)}` : ''}
      </Tag>
    ) : (
      t('detail.no')
    );
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="attendance-day">
      <div>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {day}
        </Typography.Title>
        <Typography.Text type="secondary">{t('detail.timeZone', { offset: offsetText(tz) })}</Typography.Text>
      </div>
      {intervals.length ? <DayTimeline intervals={intervals} windows={windows} /> : <Empty description={t('detail.empty')} image={Empty.PRESENTED_IMAGE_SIMPLE} />}
      <div>
        <Typography.Text strong>{t('detail.schedule')}: </Typography.Text>
        {windows.length ? (
          <Space size={[6, 6]} wrap data-testid="attendance-windows">
            {windows.map((w, i) => (
              <Tag key={i} color="blue">
                {t(w.after ? 'detail.windowNextDay' : 'detail.window', { start: w.start, end: w.end })}
              </Tag>
            ))}
          </Space>
        ) : (
          <Typography.Text type="secondary">{t('detail.noSchedule')}</Typography.Text>
        )}
      </div>
      <Descriptions size="small" bordered column={2} title={t('detail.summary')} data-testid="attendance-summary">
        <Descriptions.Item label={t('detail.firstIn')}>{time(row.FirstIn)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.lastOut')}>{time(row.LastOut)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.inside')}>{formatMinutes(t, row.InsideMinutes)}</Descriptions.Item>
        <Descriptions.Item label={t('detail.entries')}>{t('detail.entriesValue', { entries: row.Entries, exits: row.Exits })}</Descriptions.Item>
        <Descriptions.Item label={t('detail.late')}>{flag(row.LateMinutes > 0 || row.LateDays > 0, row.LateMinutes, 'orange')}</Descriptions.Item>
        <Descriptions.Item label={t('detail.early')}>{flag(row.EarlyMinutes > 0 || row.EarlyDays > 0, row.EarlyMinutes, 'gold')}</Descriptions.Item>
        <Descriptions.Item label={t('detail.absent')}>{flag(row.AbsentDays > 0, null, 'red')}</Descriptions.Item>
      </Descriptions>
    </Space>
  );
}
