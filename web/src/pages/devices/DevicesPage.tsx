// The device list (/devices/list): server-side paged, searched, filtered and sorted; row actions
// and batch actions over the selected rows.
import { useMemo, useRef, useState, type Key } from 'react';
import { PositionText } from '../../components/PositionText';
import { Link } from 'react-router';
import { App, Badge, Button, Card, Dropdown, Input, Select, Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import {
  AimOutlined,
  ApiOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  DisconnectOutlined,
  EditOutlined,
  LinkOutlined,
  MoreOutlined,
  PlusOutlined,
  SendOutlined,
  SwapOutlined,
  UserAddOutlined,
} from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ADMIN_USER_TYPE } from '@wt/contract';
import { shownTime } from '../../session/time';
import { call } from '../../api/client';
import { DataTable, filterValue, type TableQuery } from '../../components/DataTable';
import { SearchForm } from '../../components/SearchForm';
import { ExportButton } from '../../components/ExportButton';
import { useCan, useMayOpen } from '../../access/can';
import { errorText } from '../../i18n/errors';
import { userDataCell } from '../../i18n/texts';
import { useSession } from '../../stores/session';
import { AddDeviceDialog } from './dialogs/AddDeviceDialog';
import { BatchImeiDialog, type BatchKind } from './dialogs/BatchImeiDialog';
import { MoveDevicesDialog } from './dialogs/MoveDevicesDialog';
import { CreateUserDialog } from './dialogs/CreateUserDialog';
import { ImportDevicesDialog } from './dialogs/ImportDevicesDialog';
import { PersonDialog } from './dialogs/PersonDialog';
import { EditDeviceDialog } from './dialogs/EditDeviceDialog';
import { AssignDialog } from './dialogs/AssignDialog';
import { CommandDialog } from './commands/CommandDialog';
import { BatchIntervalDialog } from './commands/BatchIntervalDialog';
import { useBatchFeedback } from './dialogs/batchFeedback';
import { batchOutcome } from './deviceForms';
import { DEVICE_KEYS, invalidateDevices, useDictionary, type DeviceItem } from './queries';
import { RelativeTime, RoleSwatch } from './parts';

interface Search {
  Imei?: string;
  Name?: string;
  Model?: string;
  Iccid?: string;
  SoftwareVersion?: string;
  GroupId?: number;
  RoleId?: number;
}

/** The list call's filters and sort from the search form and the table's column filters and sorter. */
const listFilter = (q: TableQuery | null, params: unknown) => {
  const p = params as Search & { IncludeSubAccounts: boolean };
  const status = q ? filterValue(q, 'Bound') : undefined;
  const online = q ? filterValue(q, 'Online') : undefined;
  return {
    ...p,
    Status: status === 'bound' || status === 'unbound' ? (status as 'bound' | 'unbound') : undefined,
    Online: online === 'online' || online === 'offline' ? (online as 'online' | 'offline') : undefined,
    ...(q?.sortField && q.sortOrder ? { SortField: q.sortField as never, SortOrder: q.sortOrder } : {}),
  };
};

const fetchDevices = (q: TableQuery, params: unknown) => call('/Device/devicesByUserId', { PageNo: q.page, PageCount: q.pageSize, ...listFilter(q, params) });

export default function DevicesPage() {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const qc = useQueryClient();
  const feedback = useBatchFeedback();
  const dict = useDictionary();
  const userInfo = useSession((s) => s.userInfo);
  const can = useCan();
  const mayOpen = useMayOpen();
  const [search, setSearch] = useState<Search>({});
  const [withSubs, setWithSubs] = useState(true);
  const [selected, setSelected] = useState<{ keys: Key[]; rows: DeviceItem[] }>({ keys: [], rows: [] });
  const [dialog, setDialog] = useState<null | 'add' | 'move' | 'createUser' | 'import' | 'group' | 'role' | 'interval'>(null);
  const [batch, setBatch] = useState<BatchKind | null>(null);
  const [person, setPerson] = useState<DeviceItem | null>(null);
  const [editing, setEditing] = useState<DeviceItem | null>(null);
  // A device's allowed networks are an administrator's setting (the call is administrator-only).
  const mayEditDevice = can('device.edit') && userInfo?.ServerUserType === ADMIN_USER_TYPE;
  const [command, setCommand] = useState<DeviceItem | null>(null);

  const selectedImeis = selected.rows.map((r) => r.Imei);
  const params = useMemo(() => ({ ...search, IncludeSubAccounts: withSubs }), [search, withSubs]);
  // The export takes what the table shows: its column filters and sort too.
  const tableQuery = useRef<TableQuery | null>(null);

  const unbind = (d: DeviceItem) =>
    modal.confirm({
      title: t('devices:confirm.unbind', { name: d.Name || d.Imei }),
      onOk: async () => {
        try {
          feedback(batchOutcome(await call('/Device/unbindById', { DeviceId: d.DeviceId, UserId: d.AccountId })), 'devices:batch.done.unbind');
          await invalidateDevices(qc);
        } catch (e) {
          message.error(errorText(t, e));
        }
      },
    });
  const bind = async (d: DeviceItem) => {
    try {
      feedback(batchOutcome(await call('/Device/bindDeviceListAdd', { Imeis: [d.Imei] })), 'devices:batch.done.bind');
      await invalidateDevices(qc);
    } catch (e) {
      message.error(errorText(t, e));
    }
  };
  const remove = (d: DeviceItem) =>
    modal.confirm({
      title: t('devices:confirm.delete', { name: d.Name || d.Imei }),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          feedback(batchOutcome(await call('/Device/BatchDeleteByDeviceId', { DeviceIds: [d.DeviceId] })), 'devices:batch.done.delete');
          setSelected((s) => ({ keys: s.keys.filter((k) => k !== d.DeviceId), rows: s.rows.filter((r) => r.DeviceId !== d.DeviceId) }));
          await invalidateDevices(qc);
        } catch (e) {
          message.error(errorText(t, e));
        }
      },
    });

  const columns: ColumnsType<DeviceItem> = [
    {
      key: 'Imei',
      title: 'IMEI',
      dataIndex: 'Imei',
      sorter: true,
      fixed: 'left',
      width: 170,
      render: (v: string) => (
        <Link to={`/devices/detail?imei=${v}`} data-testid={`imei-${v}`}>
          {v}
        </Link>
      ),
    },
    {
      key: 'Name',
      title: t('devices:field.nickname'),
      dataIndex: 'Name',
      sorter: true,
      width: 150,
      onCell: userDataCell,
      render: (v: string, d) => (
        <Space size={6}>
          {d.RoleColor ? <RoleSwatch color={d.RoleColor} shape={d.RoleShape ?? 'circle'} title={d.RoleName ?? ''} /> : null}
          <span>{v}</span>
        </Space>
      ),
    },
    { key: 'Model', title: t('devices:field.model'), dataIndex: 'Model', sorter: true, width: 120, onCell: userDataCell },
    { key: 'AccountName', title: t('devices:field.account'), dataIndex: 'AccountName', sorter: true, width: 120, onCell: userDataCell },
    {
      key: 'Bound',
      title: t('devices:field.status'),
      dataIndex: 'Bound',
      width: 100,
      sorter: true,
      filterMultiple: false,
      filters: [
        { text: t('devices:status.bound'), value: 'bound' },
        { text: t('devices:status.unbound'), value: 'unbound' },
      ],
      render: (v: boolean) => <Tag color={v ? 'blue' : 'default'}>{t(v ? 'devices:status.bound' : 'devices:status.unbound')}</Tag>,
    },
    {
      key: 'Online',
      title: t('devices:field.online'),
      dataIndex: 'Online',
      width: 100,
      sorter: true,
      filterMultiple: false,
      filters: [
        { text: t('devices:status.online'), value: 'online' },
        { text: t('devices:status.offline'), value: 'offline' },
      ],
      render: (v: boolean) => <Badge status={v ? 'success' : 'default'} text={t(v ? 'devices:status.online' : 'devices:status.offline')} />,
    },
    { key: 'Iccid', title: 'ICCID', dataIndex: 'Iccid', sorter: true, width: 190 },
    { key: 'SoftwareVersion', title: t('devices:field.softwareVersion'), dataIndex: 'SoftwareVersion', sorter: true, width: 130 },
    {
      key: 'LastCommunication',
      title: t('devices:field.lastCommunication'),
      dataIndex: 'LastCommunication',
      sorter: true,
      width: 130,
      render: (v: string | null) => <RelativeTime value={v} />,
    },
    {
      key: 'LastLocationTime',
      title: t('devices:field.lastLocation'),
      sorter: true,
      width: 190,
      render: (_, d) =>
        d.LastLocation ? (
          <PositionText lat={d.LastLocation.Lat} lon={d.LastLocation.Lon} time={d.LastLocation.Time} />
        ) : (
          <Typography.Text type="secondary">—</Typography.Text>
        ),
    },
    { key: 'StockInTime', title: t('devices:field.stockIn'), dataIndex: 'StockInTime', sorter: true, width: 170, render: (v: string | null) => shownTime(v) },
    { key: 'ActivationTime', title: t('devices:field.activation'), dataIndex: 'ActivationTime', sorter: true, width: 170, render: (v: string | null) => shownTime(v) },
    {
      key: 'FenceCount',
      title: t('devices:field.fences'),
      dataIndex: 'FenceCount',
      sorter: true,
      width: 90,
      render: (v: number, d) => <Link to={`/deviceFence?imei=${d.Imei}`}>{v}</Link>,
    },
    { key: 'GroupName', title: t('devices:field.group'), dataIndex: 'GroupName', sorter: true, width: 110, onCell: userDataCell },
    {
      key: 'actions',
      title: t('devices:actions'),
      fixed: 'right',
      width: 210,
      render: (_, d) => (
        <Space size={0}>
          {can('device.command') && (
            <Button type="link" size="small" icon={<SendOutlined />} onClick={() => setCommand(d)} data-testid={`cmd-${d.Imei}`}>
              {t('devices:action.command')}
            </Button>
          )}
          {can('device.edit') && (
            <Button type="link" size="small" onClick={() => setPerson(d)} data-testid={`person-${d.Imei}`}>
              {t('devices:action.person')}
            </Button>
          )}
          <Dropdown
            menu={{
              items: [
                !can('device.bind')
                  ? null
                  : d.Bound
                    ? { key: 'unbind', icon: <DisconnectOutlined />, label: t('devices:action.unbind'), onClick: () => unbind(d) }
                    : { key: 'bind', icon: <LinkOutlined />, label: t('devices:action.bind'), onClick: () => void bind(d) },
                { key: 'fence', icon: <AimOutlined />, label: <Link to={`/deviceFence?imei=${d.Imei}`}>{t('devices:action.fences')}</Link> },
                { key: 'history', label: <Link to={`/devices/history?imei=${d.Imei}`}>{t('devices:action.history')}</Link> },
                ...(mayOpen('/track/index') ? [{ key: 'track', label: <Link to={`/track/index?imei=${d.Imei}`}>{t('devices:action.track')}</Link> }] : []),
                ...(mayEditDevice ? [{ key: 'edit', icon: <EditOutlined />, label: t('devices:action.edit'), onClick: () => setEditing(d) }] : []),
                ...(can('device.delete')
                  ? [
                      { type: 'divider' as const },
                      { key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('devices:action.delete'), onClick: () => remove(d) },
                    ]
                  : []),
              ],
            }}
          >
            <Button type="link" size="small" icon={<MoreOutlined />} aria-label={t('devices:action.more')} data-testid={`more-${d.Imei}`} />
          </Dropdown>
        </Space>
      ),
    },
  ];

  const needSelection = (fn: () => void) => () => {
    if (!selected.rows.length) message.warning(t('devices:batch.selectFirst'));
    else fn();
  };
  const batchSendOn = userInfo?.switchFunctionSendCmd === 1;
  // The batch menu offers what the user's permission set allows.
  const batchKinds = (['add', 'bind', 'unbind', 'delete'] as const).filter((k) =>
    can(k === 'add' ? 'device.add' : k === 'delete' ? 'device.delete' : 'device.bind'),
  );
  const assignItems = [
    can('device.edit') && { key: 'group', label: t('devices:assign.groupTitle'), onClick: needSelection(() => setDialog('group')) },
    can('device.role') && { key: 'role', label: t('devices:assign.roleTitle'), onClick: needSelection(() => setDialog('role')) },
  ].filter((x) => x !== false);

  const toolbar = (
    <>
      {can('device.add') && (
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog('add')} data-testid="add-device">
          {t('devices:action.add')}
        </Button>
      )}
      {batchKinds.length > 0 && (
        <Dropdown
          menu={{
            items: batchKinds.map((k) => ({ key: k, label: t(`devices:batch.title.${k}`), onClick: () => setBatch(k), danger: k === 'delete' })),
          }}
        >
          <Button data-testid="batch-menu">{t('devices:batch.menu')}</Button>
        </Dropdown>
      )}
      {can('device.move') && (
        <Button icon={<SwapOutlined />} onClick={needSelection(() => setDialog('move'))} data-testid="move-devices">
          {t('devices:action.move')}
        </Button>
      )}
      {can('device.move') && (
        <Button icon={<UserAddOutlined />} onClick={() => setDialog('createUser')} data-testid="create-user-devices">
          {t('devices:action.createUser')}
        </Button>
      )}
      {can('device.import') && (
        <Button icon={<CloudUploadOutlined />} onClick={() => setDialog('import')} data-testid="import-devices">
          {t('devices:action.import')}
        </Button>
      )}
      {assignItems.length > 0 && (
        <Dropdown menu={{ items: assignItems }}>
          <Button icon={<ApiOutlined />} data-testid="assign-menu">
            {t('devices:assign.menu')}
          </Button>
        </Dropdown>
      )}
      {batchSendOn && can('device.command') ? (
        <Button icon={<SendOutlined />} onClick={needSelection(() => setDialog('interval'))}>
          {t('commands:batch.title')}
        </Button>
      ) : null}
      {can('device.export') && (
        <ExportButton path="/export/devices" body={() => listFilter(tableQuery.current, params)} fileName={`${t('devices:export.fileName')}.xlsx`} testId="export-devices" />
      )}
      {selected.rows.length ? <Typography.Text type="secondary">{t('devices:batch.selected', { count: selected.rows.length })}</Typography.Text> : null}
    </>
  );

  return (
    <Card className="devices-page">
      <SearchForm<Search>
        onSearch={setSearch}
        fields={[
          { name: 'Imei', label: 'IMEI', input: <Input allowClear style={{ width: 170 }} maxLength={15} /> },
          { name: 'Name', label: t('devices:field.nickname'), input: <Input allowClear style={{ width: 140 }} /> },
          { name: 'Model', label: t('devices:field.model'), input: <Input allowClear style={{ width: 120 }} /> },
          { name: 'Iccid', label: 'ICCID', input: <Input allowClear style={{ width: 170 }} /> },
          {
            name: 'SoftwareVersion',
            label: t('devices:field.softwareVersion'),
            input: <Select allowClear style={{ width: 150 }} options={(dict.data?.SoftwareVersions ?? []).map((v) => ({ value: v, label: v }))} />,
          },
          {
            name: 'GroupId',
            label: t('devices:field.group'),
            input: <Select allowClear style={{ width: 130 }} options={(dict.data?.Groups ?? []).map((g) => ({ value: g.GroupId, label: g.Name }))} />,
          },
          {
            name: 'RoleId',
            label: t('devices:field.role'),
            input: <Select allowClear style={{ width: 130 }} options={(dict.data?.Roles ?? []).map((r) => ({ value: r.RoleId, label: r.Name }))} />,
          },
        ]}
        extra={
          <Space>
            <Switch checked={withSubs} onChange={setWithSubs} size="small" aria-label={t('devices:field.includeSubAccounts')} />
            <span>{t('devices:field.includeSubAccounts')}</span>
          </Space>
        }
      />
      <DataTable<DeviceItem>
        testId="device-table"
        queryKey={DEVICE_KEYS.list}
        params={params}
        fetch={(q, p) => {
          tableQuery.current = q;
          return fetchDevices(q, p);
        }}
        columns={columns}
        rowKey="DeviceId"
        scrollX={2200}
        // Rows are picked for the batch actions: none of them allowed, no checkboxes.
        selection={
          batchKinds.length > 0 || assignItems.length > 0 || can('device.move') || (batchSendOn && can('device.command'))
            ? { keys: selected.keys, onChange: (keys, rows) => setSelected({ keys, rows }) }
            : undefined
        }
        toolbar={toolbar}
      />
      <AddDeviceDialog open={dialog === 'add'} onClose={() => setDialog(null)} />
      <BatchImeiDialog kind={batch} imeis={batch === 'add' ? [] : selectedImeis} onClose={() => setBatch(null)} />
      <MoveDevicesDialog open={dialog === 'move'} imeis={selectedImeis} onClose={() => setDialog(null)} />
      <CreateUserDialog open={dialog === 'createUser'} imeis={selectedImeis} onClose={() => setDialog(null)} />
      <ImportDevicesDialog open={dialog === 'import'} onClose={() => setDialog(null)} />
      <AssignDialog kind={dialog === 'group' || dialog === 'role' ? dialog : null} imeis={selectedImeis} onClose={() => setDialog(null)} />
      <PersonDialog device={person} onClose={() => setPerson(null)} />
      <EditDeviceDialog device={editing} onClose={() => setEditing(null)} />
      <CommandDialog device={command} onClose={() => setCommand(null)} />
      <BatchIntervalDialog open={dialog === 'interval'} imeis={selectedImeis} onClose={() => setDialog(null)} />
    </Card>
  );
}
