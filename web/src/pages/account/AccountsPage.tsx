// Accounts (/account/accounts): the caller's subtree as a lazy tree on the left, the selected
// account's direct children on the right, with creation, editing, password reset, deletion, moves
// with the whole subtree, the agent authorization, and disabling or enabling a sub-account (an
// administrator above it) (SPEC §3 Account, §6, §8).
import { useMemo, useState } from 'react';
import { Card, Col, Row, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, KeyOutlined, StopOutlined, CheckCircleOutlined, PlusOutlined, SafetyCertificateOutlined, SafetyOutlined, SwapOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { ColumnsType } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { ADMIN_USER_TYPE } from '@wt/contract';
import { isPathPermitted } from '../../access';
import { useCan } from '../../access/can';
import { call } from '../../api/client';
import { USER_DATA, userDataCell } from '../../i18n/texts';
import { ListPage, type RowAction, type ToolbarEntry } from '../../patterns';
import { useSession } from '../../stores/session';
import { AccountTree } from './accounts/AccountTree';
import { AccountFormDialog, AgentAuthorizeDialog, MoveAccountDialog, PasswordShownDialog, type AccountDialogState } from './accounts/AccountDialogs';
import { ACCOUNT_KEYS, type AccountNode, type AccountRow } from './accounts/tree';

const ROW_ACTIONS = ['account.edit', 'account.password', 'account.move', 'account.delete', 'account.authorize'] as const;

export default function AccountsPage() {
  const { t } = useTranslation();
  const me = useSession((s) => s.userInfo);
  const can = useCan();
  const navigate = useNavigate();
  const permitted = useSession((st) => st.permitted);
  const [selected, setSelected] = useState<AccountNode | null>(null);
  const [dialog, setDialog] = useState<AccountDialogState>(null);
  const [moving, setMoving] = useState<AccountRow | null>(null);
  const [shown, setShown] = useState<{ name: string; password: string } | null>(null);
  const [agentOpen, setAgentOpen] = useState(false);
  const parentId = selected?.UserId ?? me?.UserId;
  const parentName = selected?.LoginName ?? me?.LoginName ?? '';
  const isPlatformAdmin = me?.PlatformAdmin === true;
  const isAdministrator = me?.ServerUserType === ADMIN_USER_TYPE;

  const columns = useMemo<ColumnsType<AccountRow>>(
    () => [
      { key: 'LoginName', title: t('accounts:columns.loginName'), dataIndex: 'LoginName', width: 140, fixed: 'left', onCell: userDataCell, render: (v: string) => <span data-testid={`account-row-${v}`}>{v}</span> },
      { key: 'companyName', title: t('accounts:columns.company'), dataIndex: 'companyName', width: 200, onCell: userDataCell },
      { key: 'Contact', title: t('accounts:columns.contact'), dataIndex: 'Contact', width: 110, onCell: userDataCell },
      { key: 'Email', title: t('accounts:columns.email'), dataIndex: 'Email', width: 210, onCell: userDataCell },
      { key: 'AccountKind', title: t('accounts:columns.kind'), dataIndex: 'AccountKind', width: 90, render: (k: string) => t(`accounts:kinds.${k}`, { defaultValue: k }) },
      {
        key: 'UserType',
        title: t('accounts:columns.userType'),
        width: 200,
        render: (_, r) => t('accounts:userTypeLabel', { type: r.UserType, role: t(`accounts:roles.${r.RoleLabel}`) }),
      },
      {
        key: 'PermissionName',
        title: t('accounts:columns.permission'),
        width: 130,
        render: (_, r) => (r.PermissionId ? <span {...USER_DATA}>{r.PermissionName}</span> : <Typography.Text type="secondary">{t('accounts:noPermission')}</Typography.Text>),
      },
      { key: 'devices', title: t('accounts:columns.devices'), align: 'right', width: 150, render: (_, r) => `${r.DeviceCount} / ${r.TotalDeviceCount}` },
      { key: 'ChildCount', title: t('accounts:columns.children'), dataIndex: 'ChildCount', align: 'right', width: 100 },
      { key: 'CreateDT', title: t('accounts:columns.created'), dataIndex: 'CreateDT', width: 170 },
      {
        key: 'Disabled',
        title: t('accounts:columns.state'),
        width: 100,
        render: (_, r) => (r.Disabled ? <Tag color="red" data-testid={`account-disabled-${r.LoginName}`}>{t('accounts:disabled')}</Tag> : <Typography.Text type="secondary">{t('accounts:active')}</Typography.Text>),
      },
      {
        key: 'AgentAuthorized',
        title: t('accounts:columns.agent'),
        width: 110,
        render: (_, r) => (r.AgentAuthorized ? <Tag color="green">{t('accounts:authorized')}</Tag> : <Typography.Text type="secondary">{t('accounts:notAuthorized')}</Typography.Text>),
      },
    ],
    [t],
  );

  const rowActions = (r: AccountRow): RowAction[] => [
    { key: 'edit', label: t('accounts:actions.edit'), icon: <EditOutlined />, visible: can('account.edit'), onClick: () => setDialog({ mode: 'edit', row: r }), testId: `edit-${r.LoginName}` },
    {
      key: 'password',
      label: t('accounts:actions.password'),
      icon: <KeyOutlined />,
      visible: can('account.password'),
      confirm: t('accounts:confirm.password', { name: r.LoginName }),
      run: () => call('/user/InitUserPassword', { UserId: r.UserId }),
      onDone: (res) => setShown({ name: r.LoginName, password: (res as { Password: string }).Password }),
      testId: `password-${r.LoginName}`,
    },
    { key: 'move', label: t('accounts:actions.move'), icon: <SwapOutlined />, visible: can('account.move'), onClick: () => setMoving(r), testId: `move-${r.LoginName}` },
    {
      key: 'agent',
      label: r.AgentAuthorized ? t('accounts:actions.revoke') : t('accounts:actions.grant'),
      icon: <SafetyCertificateOutlined />,
      visible: isPlatformAdmin && r.AccountKind === 'agent' && can('account.authorize'),
      confirm: r.AgentAuthorized ? t('accounts:confirm.revoke', { name: r.LoginName }) : undefined,
      run: () => call('/user/setAgentAuthorization', { UserId: r.UserId, AgentAuthorized: !r.AgentAuthorized }),
      success: r.AgentAuthorized ? t('accounts:revoked') : t('accounts:granted'),
      invalidate: [ACCOUNT_KEYS.all],
      testId: `agent-${r.LoginName}`,
    },
    {
      key: 'disable',
      label: r.Disabled ? t('accounts:actions.enable') : t('accounts:actions.disable'),
      icon: r.Disabled ? <CheckCircleOutlined /> : <StopOutlined />,
      danger: !r.Disabled,
      // An administrator above the account (the rows are the caller's sub-accounts, never itself).
      visible: isAdministrator && can('account.edit') && r.UserId !== me?.UserId,
      confirm: r.Disabled ? undefined : t('accounts:confirm.disable', { name: r.LoginName }),
      run: () => call('/user/setAccountDisabled', { UserId: r.UserId, Disabled: !r.Disabled }),
      success: r.Disabled ? t('accounts:enabledDone', { name: r.LoginName }) : t('accounts:disabledDone', { name: r.LoginName }),
      invalidate: [ACCOUNT_KEYS.all],
      testId: `disable-${r.LoginName}`,
    },
    {
      key: 'delete',
      label: t('accounts:actions.delete'),
      icon: <DeleteOutlined />,
      danger: true,
      visible: can('account.delete'),
      confirm: t('accounts:confirm.delete', { name: r.LoginName }),
      run: () => call('/user/removeUserById', { UserId: r.UserId }),
      success: t('accounts:deleted'),
      invalidate: [ACCOUNT_KEYS.all],
      testId: `delete-${r.LoginName}`,
    },
  ];

  const toolbar: ToolbarEntry<AccountRow>[] = [
    { key: 'add', primary: true, label: t('accounts:actions.add'), icon: <PlusOutlined />, visible: can('account.add') && !!parentId, onClick: () => parentId && setDialog({ mode: 'create', parentId }), testId: 'add-account' },
    {
      key: 'mine',
      label: t('accounts:actions.editMine'),
      icon: <UserOutlined />,
      onClick: () => me && setDialog({ mode: 'mine', row: selfRow(me) }),
      testId: 'edit-mine',
    },
    // The permission sets page has no menu entry of its own (SPEC §2): it opens from here.
    {
      key: 'permissionSets',
      label: t('route:accountRole'),
      icon: <SafetyOutlined />,
      visible: isPathPermitted(permitted, '/account/role'),
      onClick: () => void navigate('/account/role'),
      testId: 'open-permission-sets',
    },
    { key: 'agentImport', label: t('accounts:actions.agentImport'), icon: <SafetyCertificateOutlined />, visible: !!me?.AgentAuthorized && can('account.authorize'), onClick: () => setAgentOpen(true), testId: 'agent-import' },
  ];

  return (
    <Row gutter={16} wrap={false} style={{ alignItems: 'flex-start' }}>
      <Col flex="320px" style={{ minWidth: 0 }}>
        <Card title={t('accounts:tree.title')} size="small">
          <AccountTree rootId={me?.UserId} selected={parentId} onSelect={setSelected} />
        </Card>
      </Col>
      <Col flex="auto" style={{ minWidth: 0 }}>
        <ListPage<AccountRow, { Keyword?: string }>
          title={
            <Space>
              {t('accounts:table.title')}
              <Tooltip title={selected?.companyName}>
                <Tag color="blue" {...USER_DATA} data-testid="accounts-parent">
                  {parentName}
                </Tag>
              </Tooltip>
            </Space>
          }
          queryKey={[...ACCOUNT_KEYS.children(parentId)]}
          fetch={(q) => call('/user/childrenUsers', { ...q, UserId: parentId })}
          columns={columns}
          rowKey="UserId"
          search={[{ name: 'Keyword', type: 'text', label: t('accounts:table.keyword'), placeholder: t('accounts:table.search') }]}
          toolbar={toolbar}
          // A set without any account action gets no empty actions column.
          rowActions={ROW_ACTIONS.some((a) => can(a)) ? rowActions : undefined}
          actionsColumn={{ fixed: 'right', width: 190, compact: true }}
          scrollX={1800}
          empty={t('accounts:table.empty')}
          testId="accounts-table"
        >
          <AccountFormDialog state={dialog} onClose={() => setDialog(null)} onCreated={(name, password) => password && setShown({ name, password })} />
          <PasswordShownDialog shown={shown} onClose={() => setShown(null)} />
          <MoveAccountDialog row={moving} onClose={() => setMoving(null)} />
          <AgentAuthorizeDialog open={agentOpen} onClose={() => setAgentOpen(false)} />
        </ListPage>
      </Col>
    </Row>
  );
}

/** One's own account as a row of the table, from the user information (when its parent is out of reach). */
function selfRow(me: NonNullable<ReturnType<typeof useSession.getState>['userInfo']>): AccountRow {
  return {
    UserId: me.UserId,
    ParentId: me.ParentId,
    LoginName: me.LoginName,
    Username: me.Username,
    PageName: me.PageName,
    companyName: me.companyName,
    Contact: me.Contact,
    CellPhone: me.CellPhone,
    Email: me.Email,
    AccountKind: me.AccountKind,
    UserType: me.ServerUserType,
    RoleLabel: me.RoleLabel,
    PermissionId: me.PermissionId,
    PermissionName: '',
    DeviceCount: 0,
    TotalDeviceCount: 0,
    ChildCount: 0,
    CreateDT: me.CreateDT,
    AgentAuthorized: me.AgentAuthorized,
    MustChangePassword: me.MustChangePassword,
    Disabled: false,
  };
}
