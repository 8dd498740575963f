// Messages to devices by role: the messages sent from the subtree with their devices' states
// counted, a dialog to write one (roles, groups, accounts; name and content; the number of devices
// it reaches shown as the choice changes), and a drawer with each device's state, asked again as
// the realtime socket tells of commands changing state.
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Drawer, Form, Input, InputNumber, Progress, Select, Space, Tag, Typography, type FormInstance } from 'antd';
import { CloudOutlined, CloudServerOutlined, SendOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { messaging } from '@wt/contract';
import { shownTime } from '../../../session/time';
import type { z } from 'zod';
import { call } from '../../../api/client';
import { FormDialog, ListPage, addAction, useAction } from '../../../patterns';
import { userDataCell } from '../../../i18n/texts';
import { useCan } from '../../../access/can';
import { onCommands } from '../../../realtime/events';
import { useSession } from '../../../stores/session';
import { AccountSelect } from '../../devices/dialogs/AccountSelect';

type Send = z.infer<typeof messaging.messageSendSchema>;
type SendDevice = z.infer<typeof messaging.messageDeviceSchema>;
type SendValues = z.input<typeof messaging.sendMessageRequest>;
type IpValues = z.input<typeof messaging.sendIpRequest>;

export const MESSAGE_KEY = ['messages'] as const;
const STATE_COLOR: Record<SendDevice['Status'], string> = { queued: 'default', sent: 'processing', answered: 'success', failed: 'error' };

/** Asks the lists under `key` again while commands change state, at most twice a second. */
function useLiveCommands(key: readonly unknown[], enabled = true) {
  const qc = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    if (!enabled) return;
    const off = onCommands(() => {
      timer.current ??= setTimeout(() => {
        timer.current = undefined;
        void qc.invalidateQueries({ queryKey: key });
      }, 500);
    });
    return () => {
      off();
      clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [qc, key, enabled]);
}

/** How many devices the choice reaches, asked as it changes. */
function Reach({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const roles = Form.useWatch('RoleIds', form) as number[] | undefined;
  const groups = Form.useWatch('GroupIds', form) as number[] | undefined;
  const accounts = Form.useWatch('UserIds', form) as number[] | undefined;
  const body = { RoleIds: roles ?? [], GroupIds: groups ?? [], UserIds: accounts ?? [] };
  const any = body.RoleIds.length + body.GroupIds.length + body.UserIds.length > 0;
  const preview = useQuery({ queryKey: [...MESSAGE_KEY, 'preview', body], queryFn: () => call('/Message/Preview', body), enabled: any });
  if (!any) return <Alert type="info" title={t('messaging:send.pickTargets')} />;
  if (!preview.data) return <Alert type="info" title={t('messaging:send.counting')} />;
  const d = preview.data;
  return (
    <Alert
      type={d.Total > 0 ? 'success' : 'warning'}
      data-testid="message-reach"
      title={t('messaging:send.reach', { count: d.Total, online: d.Online })}
      description={d.Unsupported > 0 ? t('messaging:send.unsupported', { count: d.Unsupported }) : undefined}
    />
  );
}

function SendDialog({ open, onClose, onSent }: { open: boolean; onClose: () => void; onSent: (s: { SendId: number }) => void }) {
  const { t } = useTranslation();
  const roles = useQuery({ queryKey: [...MESSAGE_KEY, 'roles'], queryFn: () => call('/DeviceRole/List', {}), enabled: open });
  const groups = useQuery({ queryKey: [...MESSAGE_KEY, 'groups'], queryFn: () => call('/group/GroupList', { PageNo: 1, PageCount: 1000 }), enabled: open });
  return (
    <FormDialog<SendValues, Awaited<ReturnType<typeof send>>>
      open={open}
      width={640}
      title={t('messaging:send.title')}
      schema={messaging.sendMessageRequest}
      initial={{ RoleIds: [], GroupIds: [], UserIds: [], Name: '', Content: '' }}
      submit={send}
      okText={t('messaging:send.ok')}
      successMessage={(r) => t('messaging:send.done', { count: r.Total })}
      invalidate={[MESSAGE_KEY]}
      onClose={onClose}
      onDone={onSent}
      testId="message-form"
      fields={(form) => (
        <>
          <Form.Item name="RoleIds" label={t('messaging:send.roles')}>
            <Select
              mode="multiple"
              allowClear
              data-testid="message-roles"
              placeholder={t('messaging:send.rolesHint')}
              loading={roles.isFetching}
              options={(roles.data?.Items ?? []).map((r) => ({ value: r.RoleId, label: `${r.Name} (${r.DeviceCount})` }))}
              optionFilterProp="label"
            />
          </Form.Item>
          <Form.Item name="GroupIds" label={t('messaging:send.groups')}>
            <Select
              mode="multiple"
              allowClear
              data-testid="message-groups"
              loading={groups.isFetching}
              options={(groups.data?.Items ?? []).map((g) => ({ value: g.GroupId, label: `${g.Name} (${g.DeviceCount})` }))}
              optionFilterProp="label"
            />
          </Form.Item>
          <Form.Item name="UserIds" label={t('messaging:send.accounts')} extra={t('messaging:send.accountsHint')}>
            <AccountsPicker />
          </Form.Item>
          <Form.Item>
            <Reach form={form} />
          </Form.Item>
          <Form.Item name="Name" label={t('messaging:send.name')} required>
            <Input maxLength={32} data-testid="message-name" />
          </Form.Item>
          <Form.Item name="Content" label={t('messaging:send.content')} required>
            <Input.TextArea rows={3} maxLength={messaging.MESSAGE_MAX_LENGTH} showCount data-testid="message-content" />
          </Form.Item>
        </>
      )}
    />
  );
}

const send = (v: SendValues) => call('/Command/sendMessageByRoles', v);

/** Several accounts, each picked from the account tree. */
function AccountsPicker({ value, onChange }: { value?: number[]; onChange?: (v: number[]) => void }) {
  const list = value ?? [];
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {list.length > 0 && (
        <Space wrap>
          {list.map((id) => (
            <Tag key={id} closable onClose={() => onChange?.(list.filter((x) => x !== id))}>
              <AccountName id={id} />
            </Tag>
          ))}
        </Space>
      )}
      <AccountSelect value={undefined} exclude={list} onChange={(v) => onChange?.([...new Set([...list, v])])} testId="message-accounts" />
    </Space>
  );
}

function AccountName({ id }: { id: number }) {
  const q = useQuery({ queryKey: ['accounts', 'name', id], queryFn: () => call('/user/allChildrenUsers', { UserId: id, PageNo: 1, PageCount: 1 }) });
  return <span data-user-data>{q.data?.Node.LoginName ?? `#${id}`}</span>;
}

function DevicesDrawer({ send: s, onClose }: { send: Send | null; onClose: () => void }) {
  const { t } = useTranslation();
  const key = useMemo(() => [...MESSAGE_KEY, 'devices', s?.SendId], [s?.SendId]);
  useLiveCommands(key, !!s);
  return (
    <Drawer open={!!s} onClose={onClose} size={920} title={s ? t('messaging:devices.title', { name: s.Name }) : ''} destroyOnHidden>
      {s && (
        <ListPage<SendDevice, { Status?: SendDevice['Status'] }>
          card={false}
          testId="message-devices"
          queryKey={key}
          rowKey="CommandId"
          search={[
            {
              type: 'select',
              name: 'Status',
              label: t('messaging:devices.status'),
              options: messaging.COMMAND_STATES.map((v) => ({ value: v, label: t(`commands:status.${v}`) })),
            },
          ]}
          fetch={(q) => call('/Message/SendDevices', { ...q, SendId: s.SendId })}
          columns={[
            { key: 'Imei', title: 'IMEI', dataIndex: 'Imei', width: 160 },
            { key: 'DeviceName', title: t('messaging:devices.device'), dataIndex: 'DeviceName', width: 150, ellipsis: true, onCell: userDataCell },
            {
              key: 'Status',
              title: t('messaging:devices.status'),
              width: 110,
              render: (_, r) => (
                <Tag color={STATE_COLOR[r.Status]} data-testid={`message-state-${r.Imei}`} data-state={r.Status}>
                  {t(`commands:status.${r.Status}`)}
                </Tag>
              ),
            },
            { key: 'SentAt', title: t('messaging:devices.sentAt'), width: 170, render: (_, r) => (r.SentAt ? shownTime(r.SentAt) : '') },
            { key: 'AnsweredAt', title: t('messaging:devices.answeredAt'), width: 170, render: (_, r) => (r.AnsweredAt ? shownTime(r.AnsweredAt) : '') },
            { key: 'Error', title: t('messaging:devices.error'), ellipsis: true, render: (_, r) => (r.Error ? t(`commands:failure.${r.Error}`, { defaultValue: r.Error }) : '') },
          ]}
        />
      )}
    </Drawer>
  );
}

/**
 * The server address for every device of an account and below: the dialog counts the devices, a
 * confirmation names how many will move and where, then the command goes out as a send.
 */
function IpDialog({ open, onClose, onSent }: { open: boolean; onClose: () => void; onSent: (s: { SendId: number }) => void }) {
  const { t } = useTranslation();
  const move = useAction((v: IpValues) => call('/Command/sendIPInfoByUserId', { ...v, Preview: false }), {
    confirm: (v: IpValues & { count?: number }) => ({ title: t('messaging:ip.confirm', { count: v.count ?? 0, address: `${v.Host}:${v.Port}` }), danger: true }),
    success: (r) => t('messaging:send.done', { count: r.Total }),
    invalidate: [MESSAGE_KEY],
    onDone: (r) => r.SendId !== null && onSent({ SendId: r.SendId }),
  });
  return (
    <FormDialog<IpValues, { values: IpValues; count: number }>
      open={open}
      width={520}
      title={t('messaging:ip.title')}
      schema={messaging.sendIpRequest}
      initial={{ Host: '', Preview: true }}
      submit={async (v) => ({ values: v, count: (await call('/Command/sendIPInfoByUserId', { ...v, Preview: true })).Total })}
      okText={t('messaging:ip.next')}
      successMessage={false}
      onClose={onClose}
      onDone={(r) => void move.run({ ...r.values, count: r.count } as IpValues)}
      testId="ip-form"
      header={<Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('messaging:ip.warning')} />}
      fields={[
        { name: 'UserId', label: t('messaging:ip.account'), extra: t('messaging:send.accountsHint'), input: <AccountSelect testId="ip-account" /> },
        { name: 'Host', label: t('messaging:ip.host'), required: true, input: <Input maxLength={253} placeholder="gw.example.com" data-testid="ip-host" /> },
        { name: 'Port', label: t('messaging:ip.port'), required: true, input: <InputNumber min={1} max={65535} precision={0} style={{ width: 160 }} data-testid="ip-port" /> },
      ]}
    />
  );
}

export function MessagesTab() {
  const { t } = useTranslation();
  const maySend = useCan()('message.send');
  const [writing, setWriting] = useState(false);
  const [moving, setMoving] = useState(false);
  const mayMove = useCan()('device.command');
  const weatherOn = useSession((st) => st.userInfo?.isWeatherConfig) === 1;
  const [open, setOpen] = useState<Send | null>(null);
  const [justSent, setJustSent] = useState<number | null>(null);
  useLiveCommands(MESSAGE_KEY);
  return (
    <>
      <ListPage<Send>
        card={false}
        testId="message-sends"
        queryKey={MESSAGE_KEY}
        rowKey="SendId"
        fetch={(q) =>
          call('/Message/Sends', q).then((r) => {
            // A send just made opens its devices as soon as it is listed.
            const mine = justSent ? r.Items.find((i) => i.SendId === justSent) : undefined;
            if (mine) {
              setJustSent(null);
              setOpen(mine);
            }
            return r;
          })
        }
        toolbar={[
          addAction(t('messaging:send.title'), () => setWriting(true), { testId: 'message-new', visible: maySend, icon: <SendOutlined /> }),
          { key: 'ip', label: t('messaging:ip.title'), icon: <CloudServerOutlined />, onClick: () => setMoving(true), testId: 'ip-new', visible: mayMove },
          {
            key: 'weather',
            label: t('messaging:weather.send'),
            icon: <CloudOutlined />,
            testId: 'weather-send',
            visible: maySend && weatherOn,
            confirm: t('messaging:weather.confirm'),
            run: () => call('/Command/sendWeatherAllDevice', {}),
            success: (r) => {
              const w = r as { Total: number; NoPosition: number; NoForecast: number };
              return t('messaging:weather.done', { count: w.Total, noPosition: w.NoPosition, noForecast: w.NoForecast });
            },
            onDone: (r) => {
              const w = r as { SendId: number | null };
              if (w.SendId !== null) setJustSent(w.SendId);
            },
          },
        ]}
        actionsColumn={{ title: t('messaging:actions'), width: 120 }}
        rowActions={(r) => [{ key: 'devices', label: t('messaging:devices.open'), icon: <UnorderedListOutlined />, onClick: () => setOpen(r), testId: `message-open-${r.SendId}` }]}
        columns={[
          { key: 'Kind', title: t('messaging:kind'), width: 110, render: (_, r) => <Tag color={r.Kind === 'ip' ? 'orange' : r.Kind === 'weather' ? 'cyan' : 'blue'}>{t(`messaging:kinds.${r.Kind}`, { defaultValue: r.Kind })}</Tag> },
          { key: 'Name', title: t('messaging:send.name'), dataIndex: 'Name', width: 160, onCell: userDataCell },
          { key: 'Content', title: t('messaging:send.content'), dataIndex: 'Content', ellipsis: true, onCell: userDataCell },
          { key: 'SenderName', title: t('messaging:sender'), dataIndex: 'SenderName', width: 110, onCell: userDataCell },
          {
            key: 'progress',
            title: t('messaging:progress'),
            width: 260,
            render: (_, r) => (
              <Space orientation="vertical" size={0} style={{ width: '100%' }} data-testid={`message-progress-${r.SendId}`}>
                <Progress
                  percent={r.Total ? Math.round((r.Answered / r.Total) * 100) : 0}
                  size="small"
                  status={r.Failed ? 'exception' : undefined}
                  aria-label={t('messaging:progressAnswered')}
                />
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('messaging:counts', { total: r.Total, queued: r.Queued, sent: r.Sent, answered: r.Answered, failed: r.Failed })}
                </Typography.Text>
              </Space>
            ),
          },
          { key: 'CreatedAt', title: t('messaging:createdAt'), width: 170, render: (_, r) => shownTime(r.CreatedAt) },
        ]}
      />
      <SendDialog
        open={writing}
        onClose={() => setWriting(false)}
        onSent={(r) => setJustSent(r.SendId)}
      />
      <IpDialog open={moving} onClose={() => setMoving(false)} onSent={(r) => setJustSent(r.SendId)} />
      <DevicesDrawer send={open} onClose={() => setOpen(null)} />
    </>
  );
}
