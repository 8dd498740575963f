// The logs of the subtree: the login log (logins, logouts, password changes) and the operation
// log (every call that changed something, or was refused), searchable by account, action and time;
// the operation log exports to Excel with log.export.
import { useMemo } from 'react';
import { Card, Tabs, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { ACTIONS, LOG_ACTIONS, type OperationLogEntry, type user } from '@wt/contract';
import { call } from '../../api/client';
import { useCan } from '../../access/can';
import { ExportButton } from '../../components/ExportButton';
import i18n from '../../i18n';
import { userDataCell } from '../../i18n/texts';
import { ListPage, type SearchSpec } from '../../patterns';
import { AccountSelect } from '../devices/dialogs/AccountSelect';
import './settings.css';

type LoginLogEntry = ReturnType<typeof user.loginLogSchema.parse>;

/** The translated name of a call of the registry; its path when it has none. */
export function callName(t: (k: string, o?: Record<string, unknown>) => string, path: string): string {
  return t(`settings:calls.${path}`, { defaultValue: path });
}

/** The translated name of a permission action ('self': one's own account). */
export function actionName(t: (k: string) => string, action: string): string {
  return action === 'self' ? t('settings:oplog.self') : t(`messages:permission.actions.${action}`);
}

/** A refusal as the console shows errors: its message in the reader's language. */
export function refusalText(t: (k: string, o?: Record<string, unknown>) => string, e: Pick<OperationLogEntry, 'ErrorKey' | 'ErrorParams' | 'State'>): string {
  const params = { ...(e.ErrorParams ?? {}) };
  // A permission refusal names its action in the actor's language: named again in the reader's.
  if (typeof params.code === 'string') params.action = actionName(t, params.code);
  if (e.ErrorKey && i18n.exists(`messages:${e.ErrorKey}`)) return t(`messages:${e.ErrorKey}`, params);
  return e.ErrorKey || String(e.State);
}

function LoginLogTab() {
  const { t } = useTranslation('settings');
  const codes = Object.values(LOG_ACTIONS);
  const search: SearchSpec[] = [
    { type: 'custom', name: 'UserId', label: t('logs.account'), input: <AccountSelect /> },
    { type: 'select', name: 'ActionCode', label: t('logs.operation'), options: codes.map((c) => ({ value: c, label: t(`logs.actions.${c}`) })) },
    { type: 'dateRange', name: 'range', label: t('logs.time'), to: ['StartTime', 'EndTime'] },
  ];
  const columns: ColumnsType<LoginLogEntry> = [
    { title: t('logs.time'), dataIndex: 'CreateDT', width: 170 },
    { title: t('logs.account'), dataIndex: 'LoginName', width: 140, onCell: userDataCell },
    { title: t('logs.operation'), dataIndex: 'ActionCode', width: 140, render: (c: number) => t(`logs.actions.${c}`, { defaultValue: String(c) }) },
    { title: t('logs.ip'), dataIndex: 'IPAddress', width: 150 },
    { title: t('logs.address'), dataIndex: 'Address' },
    { title: t('logs.client'), dataIndex: 'ClientType', width: 100 },
  ];
  return (
    <ListPage<LoginLogEntry>
      card={false}
      queryKey={['loginLog']}
      testId="login-log"
      search={search}
      columns={columns}
      rowKey="Id"
      fetch={(q) => call('/User/allUserLoginLog', { PageNo: q.PageNo ?? 1, PageCount: q.PageCount ?? 20, ...(q as Record<string, unknown>) })}
    />
  );
}

function OperationLogTab() {
  const { t } = useTranslation('settings');
  const can = useCan();
  const actions = useMemo(() => ['self', ...ACTIONS].map((a) => ({ value: a, label: actionName(t, a) })), [t]);
  const search: SearchSpec[] = [
    { type: 'custom', name: 'UserId', label: t('logs.account'), input: <AccountSelect /> },
    { type: 'select', name: 'Action', label: t('oplog.action'), options: actions, searchable: true, width: 220 },
    {
      type: 'select',
      name: 'Result',
      label: t('oplog.result'),
      width: 120,
      options: [
        { value: 'success', label: t('oplog.success') },
        { value: 'failure', label: t('oplog.failure') },
      ],
    },
    { type: 'dateRange', name: 'range', label: t('logs.time'), to: ['StartTime', 'EndTime'] },
  ];
  const columns: ColumnsType<OperationLogEntry> = [
    { title: t('logs.time'), dataIndex: 'CreateDT', width: 170 },
    { title: t('logs.account'), dataIndex: 'LoginName', width: 130, onCell: userDataCell },
    {
      title: t('oplog.call'),
      dataIndex: 'Call',
      width: 200,
      render: (path: string) => (
        <Tooltip title={path}>
          <span data-testid="oplog-call">{callName(t, path)}</span>
        </Tooltip>
      ),
    },
    { title: t('oplog.action'), dataIndex: 'Action', width: 160, render: (a: string) => actionName(t, a) },
    { title: t('oplog.object'), dataIndex: 'Object', width: 280, ellipsis: { showTitle: true }, onCell: userDataCell },
    {
      title: t('oplog.result'),
      key: 'result',
      width: 260,
      render: (_, e) =>
        e.State === 0 ? (
          <Tag color="success">{t('oplog.success')}</Tag>
        ) : (
          <Typography.Text type="danger" data-testid="oplog-refusal">
            <Tag color="error">{t('oplog.failure')}</Tag>
            {refusalText(t, e)}
          </Typography.Text>
        ),
    },
    { title: t('logs.ip'), dataIndex: 'IPAddress', width: 140 },
    { title: t('logs.address'), dataIndex: 'Address', width: 160 },
  ];
  return (
    <ListPage<OperationLogEntry>
      card={false}
      queryKey={['operationLog']}
      testId="operation-log"
      search={search}
      columns={columns}
      rowKey="Id"
      scrollX={1560}
      toolbar={(ctx) => [
        can('log.export') ? <ExportButton key="export" path="/OperationLog/Export" body={() => ctx.search} fileName={`${t('oplog.fileName')}.xlsx`} testId="export-oplog" /> : null,
      ]}
      fetch={(q) => call('/OperationLog/List', { PageNo: q.PageNo ?? 1, PageCount: q.PageCount ?? 20, ...(q as Record<string, unknown>) })}
    />
  );
}

export default function UserLogsPage() {
  const { t } = useTranslation('settings');
  return (
    <Card className="wt-settings-page">
      <Tabs
        defaultActiveKey="operations"
        destroyOnHidden={false}
        items={[
          { key: 'operations', label: t('oplog.tab'), children: <OperationLogTab /> },
          { key: 'logins', label: t('logs.tab'), children: <LoginLogTab /> },
        ]}
      />
    </Card>
  );
}
