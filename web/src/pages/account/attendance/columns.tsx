// The attendance table's columns for both views. Sortable columns are keyed by the call's Sort
// names (the table's sorter reports the key), figures of minutes read as hours and minutes, and
// late, early and absent stand out as tags.
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { TFunction } from 'i18next';
import { accountFence } from '@wt/contract';
import type { TableQuery } from '../../../components/DataTable';
import { USER_DATA, userDataCell } from '../../../i18n/texts';
import { formatMinutes, formatOwnerTime } from './format';

export type AttendanceView = 'total' | 'daily';
/** A row with a key of its own: device, fence and (daily) day. */
export type KeyedRow = accountFence.AttendanceRow & { Key: string };

export function rowKeyOf(r: AttendanceRow): string {
  return `${r.DeviceId}-${r.FenceId}-${r.Day ?? ''}`;
}

type AttendanceRow = accountFence.AttendanceRow;
type AttendanceSort = (typeof accountFence.ATTENDANCE_SORTS)[number];

/** The table's sort as the call's Sort and Order (a column the call cannot sort on sends none). */
export function sortRequest(q: Pick<TableQuery, 'sortField' | 'sortOrder'>): { Sort?: AttendanceSort; Order?: 'asc' | 'desc' } {
  const field = q.sortField as AttendanceSort | undefined;
  return field && q.sortOrder && accountFence.ATTENDANCE_SORTS.includes(field) ? { Sort: field, Order: q.sortOrder } : {};
}

const none = (t: TFunction) => <Typography.Text type="secondary">{t('attendance:none')}</Typography.Text>;

export function lateCell(t: TFunction, minutes: number) {
  return minutes > 0 ? (
    <Tag color="orange" data-testid="late-tag">
      {t('attendance:lateTag', { time: formatMinutes(t, minutes) })}
    </Tag>
  ) : (
    none(t)
  );
}

export function earlyCell(t: TFunction, minutes: number) {
  return minutes > 0 ? (
    <Tag color="gold" data-testid="early-tag">
      {t('attendance:earlyTag', { time: formatMinutes(t, minutes) })}
    </Tag>
  ) : (
    none(t)
  );
}

export function absentCell(t: TFunction, absent: boolean) {
  return absent ? (
    <Tag color="red" data-testid="absent-tag">
      {t('attendance:absentTag')}
    </Tag>
  ) : (
    none(t)
  );
}

/** "2 d · 45 min": the days with a tag, and the minutes they add up to. */
function daysCell(t: TFunction, days: number, minutes: number | null, color: string, testId: string) {
  if (days <= 0) return <Typography.Text type="secondary">0</Typography.Text>;
  return (
    <Tag color={color} data-testid={testId}>
      {minutes ? t('attendance:daysMinutes', { days, time: formatMinutes(t, minutes) }) : t('attendance:daysOnly', { days })}
    </Tag>
  );
}

/** Entries and exits in one cell, sorted by the entries. */
function entriesColumn(t: TFunction): ColumnsType<KeyedRow>[number] {
  return {
    key: 'Entries',
    title: t('attendance:columns.entriesExits'),
    width: 125,
    sorter: true,
    render: (_, r) => t('attendance:detail.entriesValue', { entries: r.Entries, exits: r.Exits }),
  };
}

/** The columns naming the device (its name over its IMEI) and the fence; the day list of one device leaves them out. */
function who(t: TFunction): ColumnsType<KeyedRow> {
  return [
    {
      key: 'DeviceName',
      title: t('attendance:columns.device'),
      width: 165,
      sorter: true,
      fixed: 'left',
      render: (_, r) => (
        <div style={{ lineHeight: 1.3 }}>
          <Typography.Text {...USER_DATA} ellipsis style={{ display: 'block' }}>
            {r.DeviceName || r.Imei}
          </Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {r.Imei}
          </Typography.Text>
        </div>
      ),
    },
    { key: 'LoginName', title: t('attendance:columns.account'), dataIndex: 'LoginName', width: 110, ellipsis: true, onCell: userDataCell },
    { key: 'FenceName', title: t('attendance:columns.fence'), dataIndex: 'FenceName', width: 130, sorter: true, ellipsis: true, onCell: userDataCell },
  ];
}

export function totalColumns(t: TFunction): ColumnsType<KeyedRow> {
  return [
    ...who(t),
    { key: 'Days', title: t('attendance:columns.days'), dataIndex: 'Days', width: 70 },
    { key: 'InsideMinutes', title: t('attendance:columns.inside'), dataIndex: 'InsideMinutes', width: 140, sorter: true, render: (m: number) => formatMinutes(t, m) },
    entriesColumn(t),
    { key: 'LateDays', title: t('attendance:columns.lateDays'), width: 140, sorter: true, render: (_, r) => daysCell(t, r.LateDays, r.LateMinutes, 'orange', 'late-tag') },
    { key: 'EarlyDays', title: t('attendance:columns.earlyDays'), width: 140, sorter: true, render: (_, r) => daysCell(t, r.EarlyDays, r.EarlyMinutes, 'gold', 'early-tag') },
    { key: 'AbsentDays', title: t('attendance:columns.absentDays'), width: 125, sorter: true, render: (_, r) => daysCell(t, r.AbsentDays, null, 'red', 'absent-tag') },
  ];
}

/** One row per day; `withWho` false for one device's days (its drawer names it). */
export function dailyColumns(t: TFunction, fallbackOffset: number, withWho = true): ColumnsType<KeyedRow> {
  return [
    { key: 'Day', title: t('attendance:columns.day'), dataIndex: 'Day', width: 115, sorter: true, fixed: withWho ? 'left' : undefined },
    ...(withWho ? who(t) : []),
    { key: 'FirstIn', title: t('attendance:columns.firstIn'), width: 100, render: (_, r) => formatOwnerTime(t, r.FirstIn, r.Day, r.TimeZoneOffset ?? fallbackOffset) },
    { key: 'LastOut', title: t('attendance:columns.lastOut'), width: 100, render: (_, r) => formatOwnerTime(t, r.LastOut, r.Day, r.TimeZoneOffset ?? fallbackOffset) },
    { key: 'InsideMinutes', title: t('attendance:columns.inside'), dataIndex: 'InsideMinutes', width: 130, sorter: true, render: (m: number) => formatMinutes(t, m) },
    entriesColumn(t),
    { key: 'LateMinutes', title: t('attendance:columns.late'), width: 130, sorter: true, render: (_, r) => lateCell(t, r.LateMinutes) },
    { key: 'EarlyMinutes', title: t('attendance:columns.early'), width: 130, sorter: true, render: (_, r) => earlyCell(t, r.EarlyMinutes) },
    { key: 'AbsentDays', title: t('attendance:columns.absent'), width: 80, sorter: true, render: (_, r) => absentCell(t, r.AbsentDays > 0) },
  ];
}
