// The fences tab of /account/showfence: the fences of an account's subtree (the caller's, or the
// account chosen in the search bar), searched by name, alarm type and shape, under a map drawing
// the listed fences; a click on a row brings its shape into view. Adding, changing and deleting
// need `accountFence.edit`.
import { useMemo, useState } from 'react';
import { Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { ColumnsType } from 'antd/es/table/interface';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { accountFence as schemas } from '@wt/contract';
import { shownTime } from '../../../session/time';
import { useCan } from '../../../access/can';
import { call } from '../../../api/client';
import { currentLocale } from '../../../i18n';
import { USER_DATA, userDataCell } from '../../../i18n/texts';
import { ListPage, addAction, type SearchSpec } from '../../../patterns';
import { AccountSelect } from '../../devices/dialogs/AccountSelect';
import { AccountFenceDialog } from './AccountFenceDialog';
import { AccountFenceMap } from './AccountFenceMap';
import { districtLabel } from './district';
import { ACCOUNT_FENCE_KEYS, type AccountFence } from './queries';
import { overnight, type ScheduleValue } from './ScheduleInput';
import './fence.css';

const ALARM_COLOURS: Record<number, string> = { 1: 'green', 2: 'orange', 3: 'purple' };

/** A district's name in the console's language (its code until the name is there). */
export function DistrictName({ code }: { code: string }) {
  const lang = currentLocale();
  const name = useQuery({
    queryKey: ACCOUNT_FENCE_KEYS.districtName(code, lang),
    queryFn: () => districtLabel(code, lang),
    staleTime: Infinity,
  });
  return <span data-testid={`district-${code}`}>{name.data ?? code}</span>;
}

/** "Mon Tue Wed 08:00–12:00, 22:00–06:00 (next day)", or "always active". */
export function ScheduleSummary({ schedule }: { schedule: ScheduleValue | null }) {
  const { t } = useTranslation('accountFence');
  if (!schedule) return <Typography.Text type="secondary">{t('schedule.always')}</Typography.Text>;
  const days =
    schedule.Days.length === 7
      ? t('schedule.everyDay')
      : [...schedule.Days]
          .sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7))
          .map((d) => t(`daysShort.${d}`))
          .join(' ');
  const windows = schedule.Windows.map(
    (w) => `${w.Start}–${w.End}${overnight(w) ? ` ${t('schedule.nextDay')}` : ''}`,
  ).join(', ');
  return (
    <span>
      {days} · {windows}
    </span>
  );
}

export function ShapeSummary({ fence }: { fence: AccountFence }) {
  const { t } = useTranslation('accountFence');
  return (
    <Space size={4} wrap>
      <Tag>{t(`types.${fence.Type}`)}</Tag>
      {fence.Type === 'circle' ? <span>{t('list.radius', { radius: fence.Radius ?? 0 })}</span> : null}
      {fence.Type === 'polygon' && fence.Points.length ? (
        <span>{t('list.points', { count: fence.Points.length })}</span>
      ) : null}
      {fence.Type === 'district' && fence.DistrictCode ? <DistrictName code={fence.DistrictCode} /> : null}
    </Space>
  );
}

export function AccountFencesTab() {
  const { t } = useTranslation('accountFence');
  const mayEdit = useCan()('accountFence.edit');
  const [editing, setEditing] = useState<{ fence: AccountFence | null; owner?: number } | null>(null);
  const [listed, setListed] = useState<AccountFence[]>([]);
  const [focused, setFocused] = useState<number | null>(null);

  const search: SearchSpec[] = [
    {
      type: 'custom',
      name: 'UserId',
      label: t('search.account'),
      input: <AccountSelect testId="fence-account" />,
    },
    { type: 'text', name: 'Name', label: t('fields.name'), width: 160 },
    {
      type: 'select',
      name: 'AlarmType',
      label: t('fields.alarmType'),
      width: 130,
      options: schemas.ACCOUNT_FENCE_ALARM_TYPES.map((a) => ({ value: a, label: t(`alarmTypes.${a}`) })),
    },
    {
      type: 'select',
      name: 'Type',
      label: t('fields.shape'),
      width: 130,
      options: schemas.ACCOUNT_FENCE_TYPES.map((s) => ({ value: s, label: t(`types.${s}`) })),
    },
  ];

  const columns = useMemo<ColumnsType<AccountFence>>(
    () => [
      {
        key: 'Name',
        title: t('fields.name'),
        dataIndex: 'Name',
        width: 140,
        onCell: userDataCell,
        render: (v: string) => <span data-testid={`fence-row-${v}`}>{v}</span>,
      },
      {
        key: 'Accounts',
        title: t('fields.accounts'),
        width: 150,
        render: (_, r) => (
          <Space size={4} wrap>
            <span {...USER_DATA}>{r.Accounts.map((a) => a.LoginName).join(', ')}</span>
            {r.IncludeChildren ? (
              <Tooltip title={t('form.includeChildrenHint')}>
                <Tag color="blue">{t('list.withChildren')}</Tag>
              </Tooltip>
            ) : null}
          </Space>
        ),
      },
      { key: 'DeviceCount', title: t('fields.devices'), dataIndex: 'DeviceCount', width: 80, align: 'right' },
      {
        key: 'AlarmType',
        title: t('fields.alarmType'),
        dataIndex: 'AlarmType',
        width: 140,
        render: (a: number) => <Tag color={ALARM_COLOURS[a]}>{t(`alarmTypes.${a}`)}</Tag>,
      },
      { key: 'Type', title: t('fields.shape'), width: 180, render: (_, r) => <ShapeSummary fence={r} /> },
      {
        key: 'Schedule',
        title: t('fields.schedule'),
        width: 170,
        render: (_, r) => <ScheduleSummary schedule={r.Schedule} />,
      },
      {
        key: 'CreatedAt',
        title: t('fields.created'),
        dataIndex: 'CreatedAt',
        width: 100,
        render: (v: string) => shownTime(v),
      },
    ],
    [t],
  );

  return (
    <div className="wt-account-fences">
      {/* The focused row stands out like a selected one. */}
      {focused !== null ? (
        <style>{`.wt-account-fences tr[data-row-key="${focused}"] > td { background: #e6f4ff; }`}</style>
      ) : null}
      <div className="wt-account-fences-map">
        <AccountFenceMap
          fences={listed}
          selectedId={focused}
          focusKey={`${focused ?? ''}:${listed.map((f) => f.FenceId).join(',')}`}
          height="100%"
        />
      </div>
      <div
        className="wt-account-fences-list"
        onClickCapture={(e) => {
          const row = (e.target as HTMLElement).closest('tr[data-row-key]');
          const id = Number(row?.getAttribute('data-row-key'));
          if (Number.isInteger(id) && id > 0) setFocused(id);
        }}
      >
        <ListPage<AccountFence>
          card={false}
          testId="account-fence-table"
          queryKey={ACCOUNT_FENCE_KEYS.list}
          search={search}
          fetch={async (q) => {
            const r = await call('/AccountFence/List', {
              ...(q as Record<string, unknown>),
              PageNo: q.PageNo ?? 1,
              PageCount: q.PageCount ?? 10,
              WithShape: true,
            });
            setListed(r.Items);
            return r;
          }}
          defaultPageSize={10}
          rowKey="FenceId"
          columns={columns}
          scrollX={1100}
          toolbar={(ctx) => [
            addAction(
              t('list.add'),
              () => setEditing({ fence: null, owner: ctx.search.UserId as number | undefined }),
              { testId: 'add-account-fence', visible: mayEdit },
            ),
            <Typography.Text key="limit" type="secondary">
              {t('list.limit', { max: schemas.MAX_ACCOUNT_FENCES })}
            </Typography.Text>,
          ]}
          actionsColumn={{ title: t('list.actions'), width: 140 }}
          rowActions={(r) => [
            {
              key: 'edit',
              visible: mayEdit,
              label: t('list.edit'),
              icon: <EditOutlined />,
              onClick: () => setEditing({ fence: r }),
              testId: `edit-fence-${r.FenceId}`,
            },
            {
              key: 'delete',
              visible: mayEdit,
              label: t('list.delete'),
              icon: <DeleteOutlined />,
              danger: true,
              confirm: t('list.confirmDelete', { name: r.Name }),
              run: () => call('/Geofence/DelGeofenceByUserCustom', { FenceIds: [r.FenceId] }),
              success: t('deleted'),
              invalidate: [ACCOUNT_FENCE_KEYS.all],
              testId: `delete-fence-${r.FenceId}`,
            },
          ]}
        >
          <AccountFenceDialog
            open={!!editing}
            fence={editing?.fence ?? null}
            owner={editing?.owner}
            others={listed}
            onClose={() => setEditing(null)}
          />
        </ListPage>
      </div>
    </div>
  );
}
