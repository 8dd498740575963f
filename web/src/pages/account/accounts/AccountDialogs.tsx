// The dialogs of the accounts page: create and edit (a sub-account, or one's own account), the
// generated password shown once, moving an account with its subtree, taking over end users.
import { useEffect, useState } from 'react';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import { CopyOutlined, InboxOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ACCOUNT_KINDS, account as schemas, roleLabelOf } from '@wt/contract';
import { call } from '../../../api/client';
import { readAsBase64 } from '../../../components/ImportDialog';
import { errorText } from '../../../i18n/errors';
import { USER_DATA, userDataCell, userDataOptions } from '../../../i18n/texts';
import { FormDialog, renderFields, type FieldSpec } from '../../../patterns';
import { useCan } from '../../../access/can';
import { useSession } from '../../../stores/session';
import { AccountSelect } from '../../devices/dialogs/AccountSelect';
import { ACCOUNT_KEYS, type AccountRow } from './tree';

const TWO_COLUMNS = { display: 'grid', gridTemplateColumns: '1fr 1fr', columnGap: 16 } as const;

/** What the create and edit dialogs edit. */
export type AccountDialogState = { mode: 'create'; parentId: number } | { mode: 'edit'; row: AccountRow } | { mode: 'mine'; row: AccountRow } | null;

/** User type options: the types the caller may give, with their role labels. */
export function useUserTypeOptions() {
  const { t } = useTranslation();
  const own = useSession((s) => s.userInfo?.ServerUserType ?? 1);
  return schemas.assignableUserTypes(own).map((type) => ({
    value: type,
    label: t('accounts:userTypeLabel', { type, role: t(`accounts:roles.${roleLabelOf(type)}`) }),
  }));
}

/** The permission sets the caller may give (the list answers those it can see). */
function usePermissionOptions(enabled: boolean) {
  const { t } = useTranslation();
  const sets = useQuery({
    queryKey: ['permissions', 'options'],
    queryFn: () => call('/user/rolePermissionList', { PageNo: 1, PageCount: 100 }),
    enabled,
    staleTime: 30_000,
  });
  return {
    loading: sets.isLoading,
    options: [{ value: 0, label: t('accounts:noPermission') }, ...(sets.data?.Items ?? []).map((s) => ({ value: s.Id, label: s.Name }))],
  };
}

export function AccountFormDialog({ state, onClose, onCreated }: { state: AccountDialogState; onClose: () => void; onCreated: (name: string, password?: string) => void }) {
  const { t } = useTranslation();
  const open = state !== null;
  const userTypes = useUserTypeOptions();
  const mine = state?.mode === 'mine';
  const mayEditPlatform = useCan()('platform.edit');
  const sets = usePermissionOptions(open && !mine);
  const kinds = ACCOUNT_KINDS.map((k) => ({ value: k, label: t(`accounts:kinds.${k}`) }));

  const profile: FieldSpec[] = [
    { name: 'Username', label: t('accounts:form.username'), input: <Input maxLength={64} data-testid="account-username" /> },
    { name: 'PageName', label: t('accounts:form.pageName'), input: <Input maxLength={64} /> },
    { name: 'companyName', label: t('accounts:form.company'), input: <Input maxLength={128} data-testid="account-company" /> },
    { name: 'Contact', label: t('accounts:form.contact'), input: <Input maxLength={64} data-testid="account-contact" /> },
    { name: 'CellPhone', label: t('accounts:form.phone'), input: <Input maxLength={32} /> },
    { name: 'Email', label: t('accounts:form.email'), input: <Input maxLength={128} data-testid="account-email" /> },
  ];
  const access: FieldSpec[] = [
    { name: 'AccountKind', label: t('accounts:form.kind'), input: <Select options={kinds} data-testid="account-kind" /> },
    { name: 'UserType', label: t('accounts:form.userType'), input: <Select options={userTypes} data-testid="account-usertype" /> },
    { name: 'PermissionId', label: t('accounts:form.permission'), input: <Select options={sets.options} loading={sets.loading} data-testid="account-permission" {...userDataOptions} /> },
  ];

  if (!state) return <FormDialog open={false} title="" schema={schemas.editUserSelfRequest} initial={{}} fields={[]} submit={async () => undefined} onClose={onClose} />;

  if (state.mode === 'create') {
    const fields: FieldSpec[] = [
      { name: 'LoginName', label: t('accounts:form.loginName'), required: true, input: <Input maxLength={64} autoComplete="off" data-testid="account-login" /> },
      { name: 'Password', label: t('accounts:form.password'), extra: t('accounts:form.passwordHelp'), input: <Input.Password maxLength={64} autoComplete="new-password" data-testid="account-password" /> },
      { name: 'ParentId', label: t('accounts:form.parent'), required: true, input: <AccountSelect testId="account-parent" /> },
      ...access,
      ...profile,
    ];
    return (
      <FormDialog<z.input<typeof schemas.registerNewUserRequest>, { UserId: number; Password?: string }>
        open
        title={t('accounts:form.addTitle')}
        schema={schemas.registerNewUserRequest}
        initial={{ ParentId: state.parentId, AccountKind: 'user', UserType: userTypes[0]?.value ?? 1, PermissionId: 0 }}
        fields={<div style={TWO_COLUMNS}>{renderFields(fields)}</div>}
        submit={(v) => call('/user/registerNewUser', v as never)}
        successMessage={false}
        invalidate={[ACCOUNT_KEYS.all]}
        onDone={(r, v) => onCreated(String(v.LoginName), r.Password)}
        onClose={onClose}
        width={720}
        testId="account-form"
      />
    );
  }
  const row = state.row;
  const initial = {
    Username: row.Username,
    PageName: row.PageName,
    companyName: row.companyName,
    Contact: row.Contact,
    CellPhone: row.CellPhone,
    Email: row.Email,
  };
  if (mine) {
    // The platform title belongs to the platform: only with platform.edit (the server refuses it otherwise).
    const own = profile.map((f) => (f.name === 'PageName' ? { ...f, visible: mayEditPlatform } : f));
    const { PageName, ...rest } = initial;
    return (
      <FormDialog
        open
        title={t('accounts:form.mineTitle')}
        schema={schemas.editUserSelfRequest}
        initial={(mayEditPlatform ? { ...rest, PageName } : rest) as typeof initial}
        fields={own}
        submit={(v) => call('/user/EditUserInfoForCurrentUser', v as never)}
        successMessage={t('accounts:saved')}
        invalidate={[ACCOUNT_KEYS.all, ['userInfo']]}
        onClose={onClose}
        testId="account-form"
      />
    );
  }
  return (
    <FormDialog
      open
      title={t('accounts:form.editTitle', { name: row.LoginName })}
      schema={schemas.editUserOtherRequest}
      initial={{ UserId: row.UserId, AccountKind: row.AccountKind as never, UserType: row.UserType, PermissionId: row.PermissionId ?? 0, ...initial }}
      fields={<div style={TWO_COLUMNS}>{renderFields([...access, ...profile])}</div>}
      submit={(v) => call('/user/EditUserInfoOther', v as never)}
      successMessage={t('accounts:saved')}
      invalidate={[ACCOUNT_KEYS.all]}
      onClose={onClose}
      width={720}
      testId="account-form"
    />
  );
}

/** A generated password, shown this once, with a copy button. */
export function PasswordShownDialog({ shown, onClose }: { shown: { name: string; password: string } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Modal
      open={!!shown}
      title={t('accounts:passwordShown.title', { name: shown?.name ?? '' })}
      onCancel={onClose}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose} data-testid="password-done">
          {t('accounts:passwordShown.done')}
        </Button>
      }
    >
      <Typography.Paragraph>{t('accounts:passwordShown.text')}</Typography.Paragraph>
      <Space.Compact style={{ width: '100%' }}>
        <Input readOnly value={shown?.password} data-testid="generated-password" style={{ fontFamily: 'monospace', fontSize: 16 }} {...USER_DATA} />
        <Button
          icon={<CopyOutlined />}
          data-testid="copy-password"
          onClick={() => {
            void navigator.clipboard
              ?.writeText(shown?.password ?? '')
              .then(() => message.success(t('accounts:passwordShown.copied')))
              .catch(() => undefined);
          }}
        >
          {t('accounts:passwordShown.copy')}
        </Button>
      </Space.Compact>
    </Modal>
  );
}

export function MoveAccountDialog({ row, onClose }: { row: AccountRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <FormDialog<{ UserId: number; ParentId: number }, { Accounts: number; Devices: number }>
      open={!!row}
      title={t('accounts:move.title', { name: row?.LoginName ?? '' })}
      header={<Alert type="info" showIcon message={t('accounts:move.hint')} style={{ marginBottom: 16 }} />}
      schema={schemas.moveAccountRequest}
      initial={{ UserId: row?.UserId }}
      fields={[{ name: 'ParentId', label: t('accounts:move.parent'), required: true, input: <AccountSelect exclude={row ? [row.UserId] : []} testId="move-parent" /> }]}
      submit={(v) => call('/user/moveAccount', v)}
      successMessage={(r) => t('accounts:moved', { name: row?.LoginName ?? '', accounts: r.Accounts, devices: r.Devices })}
      invalidate={[ACCOUNT_KEYS.all, ['devices']]}
      onClose={onClose}
      testId="move-form"
    />
  );
}

type AgentResult = z.infer<typeof schemas.agentAuthorizeResponse>;

export function AgentAuthorizeDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [imeis, setImeis] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<AgentResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!open) return;
    setImeis('');
    setFile(null);
    setResult(null);
    setError(null);
  }, [open]);

  const submit = async () => {
    setBusy(true);
    setError(null);
    try {
      const r = await call('/user/agentAuthorize', { Imeis: imeis || undefined, ...(file ? { Content: await readAsBase64(file), FileName: file.name } : {}) });
      setResult(r);
      message.success(t('accounts:agent.result', { moved: r.Moved, accounts: r.Accounts }));
      await qc.invalidateQueries({ queryKey: ACCOUNT_KEYS.all });
      await qc.invalidateQueries({ queryKey: ['devices'] });
    } catch (e) {
      setError(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('accounts:agent.title')}
      onCancel={onClose}
      width={720}
      maskClosable={false}
      footer={
        <Space>
          <Button onClick={onClose}>{t('common:close')}</Button>
          <Button type="primary" loading={busy} onClick={() => void submit()} disabled={!imeis.trim() && !file} data-testid="agent-submit">
            {t('accounts:agent.submit')}
          </Button>
        </Space>
      }
    >
      <Alert type="info" showIcon message={t('accounts:agent.hint')} style={{ marginBottom: 12 }} />
      <Form layout="vertical">
        <Form.Item label={t('accounts:agent.imeis')}>
          <Input.TextArea rows={4} value={imeis} onChange={(e) => setImeis(e.target.value)} placeholder={t('accounts:agent.imeisPlaceholder')} data-testid="agent-imeis" />
        </Form.Item>
        <Form.Item label={t('accounts:agent.file')}>
          <Upload.Dragger
            accept=".xlsx"
            maxCount={1}
            beforeUpload={(f) => {
              setFile(f);
              return false;
            }}
            onRemove={() => setFile(null)}
            fileList={file ? [{ uid: 'file', name: file.name, status: 'done' }] : []}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p>{t('accounts:agent.pickFile')}</p>
          </Upload.Dragger>
        </Form.Item>
      </Form>
      {error ? <Alert type="error" showIcon message={error} data-testid="agent-error" /> : null}
      {result ? (
        <>
          <Alert type="success" showIcon message={t('accounts:agent.result', { moved: result.Moved, accounts: result.Accounts })} style={{ marginBottom: 8 }} />
          <Table
            size="small"
            rowKey={(r, i) => `${r.Imei}-${i}`}
            dataSource={result.Items}
            pagination={result.Items.length > 10 ? { pageSize: 10 } : false}
            data-testid="agent-result"
            columns={[
              { key: 'imei', title: t('accounts:agent.imei'), dataIndex: 'Imei' },
              {
                key: 'outcome',
                title: t('accounts:agent.outcome'),
                dataIndex: 'Outcome',
                render: (o: string) => <Tag color={o === 'moved' ? 'green' : 'default'}>{t(`accounts:agent.outcomes.${o}`)}</Tag>,
              },
              { key: 'owner', title: t('accounts:agent.owner'), dataIndex: 'LoginName', onCell: userDataCell },
            ]}
          />
        </>
      ) : null}
    </Modal>
  );
}
