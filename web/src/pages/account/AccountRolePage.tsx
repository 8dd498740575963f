// Permission sets (/account/role, SPEC §6): the two default sets and the sets of the account's
// subtree with the accounts using them; create, edit and delete a set (a key, a name, a description
// and a ticked function tree, never more than one holds oneself), and apply a set to oneself (SPEC
// §4 "changing the role": a new token, the user information read again, the routes and tabs anew).
import { useMemo, useState } from 'react';
import { Alert, Form, Input, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatDateTime, insertPermissionRequest, type PermissionSet } from '@wt/contract';
import type { ColumnsType } from 'antd/es/table/interface';
import { call } from '../../api/client';
import { useCan } from '../../access/can';
import { ListPage, FormDialog } from '../../patterns';
import { USER_DATA, userDataCell } from '../../i18n/texts';
import { useSession } from '../../stores/session';
import { FunctionTree, heldBy, withinHeld, type Grants } from './roles/FunctionTree';
import { applyPermissionSet } from './roles/apply';

const LIST_KEY = ['permission-sets'] as const;

interface Values {
  Id?: number;
  Key: string;
  Name: string;
  Description: string;
  Grants: Grants;
}

function SetDialog({ editing, onClose }: { editing: PermissionSet | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('permissions');
  const info = useSession((s) => s.userInfo);
  const held = useMemo(() => (info ? heldBy(info) : { routes: new Set<string>(), actions: new Set<string>() }), [info]);
  const row = editing && editing !== 'new' ? editing : null;
  const initial: Partial<Values> = row
    ? { Id: row.Id, Key: row.Key, Name: row.Name, Description: row.Description, Grants: { Routes: row.Routes, Actions: row.Actions } }
    : { Key: '', Name: '', Description: '', Grants: { Routes: [], Actions: [] } };
  return (
    <FormDialog<Values>
      open={editing !== null}
      title={t(row ? 'editTitle' : 'add')}
      schema={insertPermissionRequest}
      initial={initial}
      width={640}
      testId="permission-form"
      invalidate={[LIST_KEY]}
      rename={{ Routes: 'Grants', Actions: 'Grants' }}
      transform={(v) => ({ ...v, Routes: v.Grants.Routes, Actions: v.Grants.Actions }) as Values}
      submit={(v) => {
        const body = { Key: v.Key, Name: v.Name, Description: v.Description, Routes: v.Grants.Routes, Actions: v.Grants.Actions };
        return v.Id ? call('/user/editRolePermissionList', { ...body, Id: v.Id }) : call('/user/InsertRoleInfo', body);
      }}
      onClose={onClose}
      fields={
        <>
          <Form.Item name="Key" label={t('key')} required extra={t('keyHint')}>
            <Input maxLength={32} data-testid="permission-key" />
          </Form.Item>
          <Form.Item name="Name" label={t('name')} required>
            <Input maxLength={32} data-testid="permission-name" />
          </Form.Item>
          <Form.Item name="Description" label={t('description')}>
            <Input.TextArea rows={2} maxLength={200} />
          </Form.Item>
          <Form.Item name="Grants" label={t('functions')} extra={t('roleRouteHint', { route: t(`route:accountRole`) })}>
            <FunctionTree held={held} />
          </Form.Item>
        </>
      }
    />
  );
}

export default function AccountRolePage() {
  const { t } = useTranslation('permissions');
  const can = useCan();
  const info = useSession((s) => s.userInfo);
  const [editing, setEditing] = useState<PermissionSet | 'new' | null>(null);
  const mayEdit = can('permission.edit');

  const columns: ColumnsType<PermissionSet> = [
    {
      title: t('name'),
      dataIndex: 'Name',
      render: (v: string, r) => (
        <Space size={4}>
          {r.BuiltIn ? <span>{v}</span> : <span {...USER_DATA}>{v}</span>}
          {r.BuiltIn && <Tag color="blue">{t('builtIn')}</Tag>}
          {r.Id === info?.PermissionId && <Tag color="green">{t('inUse')}</Tag>}
        </Space>
      ),
    },
    { title: t('key'), dataIndex: 'Key', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { title: t('description'), dataIndex: 'Description', ellipsis: true, onCell: (r) => (r.BuiltIn ? {} : userDataCell()) },
    {
      title: t('functions'),
      key: 'functions',
      render: (_, r) =>
        r.Actions.includes('*')
          ? t('everything')
          : t('summary', { routes: r.Routes.length === 0 ? t('byRole') : r.Routes.length, actions: r.Actions.length }),
    },
    { title: t('accountCount'), dataIndex: 'AccountCount', width: 110 },
    { title: t('owner'), dataIndex: 'OwnerName', onCell: userDataCell, render: (v: string) => v || '—' },
    { title: t('updatedAt'), dataIndex: 'UpdatedAt', width: 170, render: (v: string) => formatDateTime(v, info?.timeZoneOffset) },
  ];

  return (
    <ListPage<PermissionSet, { Search?: string }>
      queryKey={LIST_KEY}
      rowKey="Id"
      testId="permission-table"
      header={
        mayEdit ? undefined : <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('readOnly')} data-testid="permission-readonly" />
      }
      fetch={(q) => call('/user/rolePermissionList', { PageNo: q.PageNo ?? 1, PageCount: q.PageCount ?? 20, Search: q.Search })}
      search={[{ type: 'text', name: 'Search', label: t('search'), placeholder: t('searchHint') }]}
      columns={columns}
      toolbar={[
        { key: 'add', label: t('add'), icon: <PlusOutlined />, primary: true, visible: mayEdit, testId: 'permission-add', onClick: () => setEditing('new') },
      ]}
      actionsColumn={{ width: 300 }}
      rowActions={(r) => [
        {
          key: 'edit',
          label: t('edit'),
          icon: <EditOutlined />,
          visible: mayEdit && r.Editable,
          testId: `permission-edit-${r.Key}`,
          onClick: () => setEditing(r),
        },
        {
          key: 'apply',
          label: t('apply'),
          icon: <SwapOutlined />,
          // Offered for the sets it may take: none grants more than it holds.
          visible: !!info && r.Id !== info.PermissionId && withinHeld(info, r),
          testId: `permission-apply-${r.Key}`,
          confirm: t('applyConfirm', { name: r.Name }),
          run: () => applyPermissionSet(r.Id),
        },
        {
          key: 'delete',
          label: t('delete'),
          icon: <DeleteOutlined />,
          danger: true,
          visible: mayEdit && r.Editable,
          testId: `permission-delete-${r.Key}`,
          confirm: t('deleteConfirm', { name: r.Name }),
          success: t('deleted'),
          run: () => call('/user/delRoleInfo', { Id: r.Id }),
        },
      ]}
    >
      <SetDialog editing={editing} onClose={() => setEditing(null)} />
    </ListPage>
  );
}
