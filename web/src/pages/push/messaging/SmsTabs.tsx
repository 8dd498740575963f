// The SMS service: each account's status, recharged, used and remaining texts, recharged or
// corrected by an administrator with a remark, its change log, reconciliation with the provider's
// delivery reports; and the alarm notices (texts and e-mails) with their delivery state.
import { useState } from 'react';
import { Drawer, Input, InputNumber, Tag, Typography } from 'antd';
import { HistoryOutlined, PoweroffOutlined, SyncOutlined, WalletOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { messaging } from '@wt/contract';
import { shownTime } from '../../../session/time';
import type { z } from 'zod';
import { call } from '../../../api/client';
import { FormDialog, ListPage } from '../../../patterns';
import { userDataCell } from '../../../i18n/texts';
import { useCan } from '../../../access/can';
import { useSession } from '../../../stores/session';

type SmsAccount = z.infer<typeof messaging.smsAccountSchema>;
type Notice = z.infer<typeof messaging.noticeSchema>;
type Change = z.infer<typeof messaging.smsChangeSchema>;
type RechargeValues = z.input<typeof messaging.smsActionRequest>;

const SMS_KEY = ['sms'] as const;
const NOTICE_COLOR: Record<Notice['Status'], string> = { pending: 'default', sent: 'processing', delivered: 'success', undelivered: 'warning', failed: 'error', refused: 'error', logged: 'default' };

/** A reason stored as a message key is shown in the reader's language; a provider's own words as they are. */
function useReason() {
  const { t } = useTranslation();
  return (s: string) => (/^sms\.[a-zA-Z]+$/.test(s) ? t(`messages:${s}`) : s);
}

function RechargeDialog({ account, onClose }: { account: SmsAccount | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <FormDialog<RechargeValues>
      open={!!account}
      title={t('messaging:sms.rechargeTitle', { name: account?.LoginName ?? '' })}
      schema={messaging.smsActionRequest}
      initial={{ UserId: account?.UserId, Remark: '' }}
      submit={(v) => call('/User/actionSMSData', v)}
      successMessage={t('messaging:sms.recharged')}
      invalidate={[SMS_KEY]}
      onClose={onClose}
      testId="sms-recharge-form"
      header={account && <Typography.Paragraph type="secondary">{t('messaging:sms.remainingNow', { count: account.Remaining })}</Typography.Paragraph>}
      fields={[
        { name: 'Count', label: t('messaging:sms.count'), required: true, extra: t('messaging:sms.countHint'), input: <InputNumber precision={0} style={{ width: 200 }} data-testid="sms-count" /> },
        { name: 'Remark', label: t('messaging:sms.remark'), input: <Input maxLength={200} data-testid="sms-remark" /> },
      ]}
    />
  );
}

function ChangesDrawer({ account, onClose }: { account: SmsAccount | null; onClose: () => void }) {
  const { t } = useTranslation();
  const reason = useReason();
  return (
    <Drawer open={!!account} onClose={onClose} size={760} title={account ? t('messaging:sms.changesTitle', { name: account.LoginName }) : ''} destroyOnHidden>
      {account && (
        <ListPage<Change>
          card={false}
          testId="sms-changes"
          queryKey={[...SMS_KEY, 'changes', account.UserId]}
          rowKey="Id"
          fetch={(q) => call('/SMS/Changes', { ...q, UserId: account.UserId })}
          columns={[
            { key: 'CreatedAt', title: t('messaging:sms.time'), width: 170, render: (_, r) => shownTime(r.CreatedAt) },
            { key: 'LoginName', title: t('messaging:sms.account'), dataIndex: 'LoginName', width: 110, onCell: userDataCell },
            { key: 'Kind', title: t('messaging:sms.kind'), width: 100, render: (_, r) => t(`messaging:sms.kinds.${r.Kind}`) },
            { key: 'Amount', title: t('messaging:sms.amount'), width: 90, render: (_, r) => (r.Kind === 'status' ? t(`messaging:sms.statusValues.${r.Amount === 1 ? 1 : 2}`) : r.Amount > 0 ? `+${r.Amount}` : r.Amount) },
            { key: 'Remaining', title: t('messaging:sms.remaining'), dataIndex: 'Remaining', width: 90 },
            { key: 'ByName', title: t('messaging:sms.by'), dataIndex: 'ByName', width: 100, onCell: userDataCell },
            { key: 'Remark', title: t('messaging:sms.remark'), render: (_, r) => reason(r.Remark) },
          ]}
        />
      )}
    </Drawer>
  );
}

export function SmsAccountsTab() {
  const { t } = useTranslation();
  // SMS credit is the platform's to give: only its administrators recharge.
  const isPlatformAdmin = useSession((s) => s.userInfo?.PlatformAdmin) === true;
  const mayEdit = useCan()('message.send') && isPlatformAdmin;
  const [recharging, setRecharging] = useState<SmsAccount | null>(null);
  const [history, setHistory] = useState<SmsAccount | null>(null);
  return (
    <>
      <ListPage<SmsAccount, { Name?: string }>
        card={false}
        testId="sms-accounts"
        queryKey={[...SMS_KEY, 'accounts']}
        rowKey="UserId"
        search={[{ type: 'text', name: 'Name', label: t('messaging:sms.account') }]}
        fetch={(q) => call('/User/AllSMSList', q)}
        toolbar={[
          {
            key: 'sync',
            label: t('messaging:sms.sync'),
            icon: <SyncOutlined />,
            visible: mayEdit,
            testId: 'sms-sync',
            run: () => call('/User/synchronizationSMSData', {}),
            success: (r) => {
              const s = r as { Accounts: number; Refunded: number; Corrected: number };
              return t('messaging:sms.synced', { accounts: s.Accounts, refunded: s.Refunded, corrected: s.Corrected });
            },
            invalidate: [SMS_KEY],
          },
        ]}
        actionsColumn={{ title: t('messaging:actions'), width: 260 }}
        rowActions={(r) => [
          { key: 'recharge', label: t('messaging:sms.recharge'), icon: <WalletOutlined />, visible: mayEdit, onClick: () => setRecharging(r), testId: `sms-recharge-${r.LoginName}` },
          {
            key: 'status',
            label: t(r.Status === 1 ? 'messaging:sms.disable' : 'messaging:sms.enable'),
            icon: <PoweroffOutlined />,
            visible: mayEdit,
            danger: r.Status === 1,
            confirm: r.Status === 1 ? t('messaging:sms.confirmDisable', { name: r.LoginName }) : undefined,
            run: () => call('/User/actionSMSData', { UserId: r.UserId, Status: r.Status === 1 ? 2 : 1 }),
            invalidate: [SMS_KEY],
          },
          { key: 'history', label: t('messaging:sms.changes'), icon: <HistoryOutlined />, onClick: () => setHistory(r) },
        ]}
        columns={[
          { key: 'LoginName', title: t('messaging:sms.account'), dataIndex: 'LoginName', width: 140, onCell: userDataCell },
          { key: 'UserName', title: t('messaging:sms.userName'), dataIndex: 'UserName', width: 140, onCell: userDataCell },
          {
            key: 'Status',
            title: t('messaging:sms.status'),
            width: 100,
            render: (_, r) => <Tag color={r.Status === 1 ? 'green' : 'default'}>{t(`messaging:sms.statusValues.${r.Status === 1 ? 1 : 2}`)}</Tag>,
          },
          { key: 'Recharged', title: t('messaging:sms.recharged_col'), dataIndex: 'Recharged', width: 100 },
          { key: 'Used', title: t('messaging:sms.used'), dataIndex: 'Used', width: 90 },
          {
            key: 'Remaining',
            title: t('messaging:sms.remaining'),
            width: 100,
            render: (_, r) => (
              <Typography.Text type={r.Remaining === 0 ? 'danger' : undefined} data-testid={`sms-remaining-${r.LoginName}`}>
                {r.Remaining}
              </Typography.Text>
            ),
          },
          { key: 'UpdatedAt', title: t('messaging:sms.updatedAt'), width: 170, render: (_, r) => (r.UpdatedAt ? shownTime(r.UpdatedAt) : '') },
        ]}
      />
      <RechargeDialog account={recharging} onClose={() => setRecharging(null)} />
      <ChangesDrawer account={history} onClose={() => setHistory(null)} />
    </>
  );
}

export function SmsRecordsTab() {
  const { t } = useTranslation();
  const reason = useReason();
  return (
    <ListPage<Notice, { Channel?: Notice['Channel']; Status?: Notice['Status']; Recipient?: string }>
      card={false}
      testId="sms-records"
      queryKey={[...SMS_KEY, 'records']}
      rowKey="Id"
      scrollX={1300}
      search={[
        { type: 'select', name: 'Channel', label: t('messaging:records.channel'), options: messaging.NOTICE_CHANNELS.map((c) => ({ value: c, label: t(`messaging:records.channels.${c}`) })) },
        { type: 'select', name: 'Status', label: t('messaging:records.status'), options: messaging.NOTICE_STATUSES.map((s) => ({ value: s, label: t(`messaging:records.statuses.${s}`) })) },
        { type: 'text', name: 'Recipient', label: t('messaging:records.recipient') },
      ]}
      fetch={(q) => call('/SMS/Records', q)}
      columns={[
        { key: 'CreatedAt', title: t('messaging:sms.time'), width: 170, render: (_, r) => shownTime(r.CreatedAt) },
        { key: 'Channel', title: t('messaging:records.channel'), width: 90, render: (_, r) => t(`messaging:records.channels.${r.Channel}`) },
        { key: 'Recipient', title: t('messaging:records.recipient'), dataIndex: 'Recipient', width: 170, onCell: userDataCell },
        { key: 'LoginName', title: t('messaging:sms.account'), dataIndex: 'LoginName', width: 110, onCell: userDataCell },
        { key: 'Imei', title: 'IMEI', dataIndex: 'Imei', width: 160 },
        { key: 'Text', title: t('messaging:records.text'), dataIndex: 'Text', ellipsis: true, onCell: userDataCell },
        { key: 'Segments', title: t('messaging:records.segments'), dataIndex: 'Segments', width: 80 },
        {
          key: 'Status',
          title: t('messaging:records.status'),
          width: 120,
          render: (_, r) => (
            <Tag color={NOTICE_COLOR[r.Status]} data-testid={`notice-${r.Channel}-${r.Recipient}`} data-state={r.Status}>
              {t(`messaging:records.statuses.${r.Status}`)}
            </Tag>
          ),
        },
        { key: 'Attempts', title: t('messaging:records.attempts'), dataIndex: 'Attempts', width: 80 },
        { key: 'Error', title: t('messaging:records.error'), width: 200, ellipsis: true, render: (_, r) => reason(r.Error) },
      ]}
    />
  );
}
