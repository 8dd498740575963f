// Scheduled reports of the reports page: the caller's own subscriptions (a report of a device, a group
// or the whole subtree mailed daily, weekly or monthly) in a drawer, added and edited in a dialog. Only
// a user whose set has `history.export` sees the button (the server refuses the others anyway).
import { useState } from 'react';
import { Button, Drawer, Input, Select, Switch, Table, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { REPORT_FREQUENCIES, report, type ReportSubscription } from '@wt/contract';
import { call } from '../../api/client';
import { useCan } from '../../access/can';
import { useSession } from '../../stores/session';
import { FormDialog, RowActions, rowAction, useAction } from '../../patterns';

export const REPORT_SUBSCRIPTIONS_KEY = ['report', 'subscriptions'] as const;
const KINDS = ['trips', 'stops', 'summary', 'alarms'] as const;
type Values = z.input<typeof report.reportSubscriptionSaveRequest>;
type Editing = { item: ReportSubscription | null };

/** A subscription as the save call takes it: the ids it holds, none of the list's texts. */
function saveBody(r: ReportSubscription, change: Partial<Values> = {}): Values {
  return {
    Id: r.Id,
    Report: r.Report,
    Frequency: r.Frequency,
    Email: r.Email,
    ...(r.UserId !== null ? { UserId: r.UserId } : {}),
    ...(r.GroupId !== null ? { GroupId: r.GroupId } : {}),
    ...(r.DeviceId !== null ? { DeviceId: r.DeviceId } : {}),
    Enabled: r.Enabled,
    ...change,
  };
}

/**
 * The form's values as the server takes them: no empty or null ids, a typed IMEI or a chosen group
 * replacing the device the subscription had.
 */
function cleanValues(v: Values): Values {
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) if (x !== null && x !== undefined && x !== '') out[k] = x;
  const imei = typeof out.Imei === 'string' ? out.Imei.trim() : '';
  if (imei) {
    out.Imei = imei;
    delete out.DeviceId;
  } else delete out.Imei;
  if (!imei && out.GroupId) delete out.DeviceId;
  if (typeof out.Email === 'string') out.Email = out.Email.trim();
  return out as Values;
}

function SubscriptionDialog({ editing, onClose }: { editing: Editing | null; onClose: () => void }) {
  const { t } = useTranslation();
  const ownEmail = useSession((s) => s.userInfo?.Email ?? '');
  const groups = useQuery({ queryKey: ['report', 'groups'], queryFn: () => call('/group/GroupList', { PageNo: 1, PageCount: 1000 }), enabled: editing !== null });
  const item = editing?.item ?? null;
  const initial: Partial<Values> = item ? saveBody(item) : { Report: 'summary', Frequency: 'daily', Email: ownEmail, Enabled: true };
  const heldDevice = item?.DeviceId ? item.Subject : '';
  return (
    <FormDialog<Values>
      open={editing !== null}
      title={t(item ? 'reports:subscriptions.edit' : 'reports:subscriptions.add')}
      schema={report.reportSubscriptionSaveRequest}
      testId="report-subscription-form"
      initial={initial}
      transform={cleanValues}
      submit={(v) => call('/Report/SubscriptionSave', v)}
      invalidate={[REPORT_SUBSCRIPTIONS_KEY]}
      // The server names the missing subject by its device id; the form asks for it by IMEI.
      rename={{ DeviceId: 'Imei' }}
      onClose={onClose}
      fields={[
        {
          name: 'Report',
          label: t('reports:subscriptions.report'),
          required: true,
          input: <Select options={KINDS.map((k) => ({ value: k, label: t(`reports:subscriptions.kind.${k}`) }))} data-testid="subscription-report" />,
        },
        {
          name: 'Frequency',
          label: t('reports:subscriptions.frequency'),
          required: true,
          input: <Select options={REPORT_FREQUENCIES.map((f) => ({ value: f, label: t(`reports:subscriptions.every.${f}`) }))} data-testid="subscription-frequency" />,
        },
        { name: 'Email', label: t('reports:subscriptions.email'), required: true, input: <Input maxLength={128} data-testid="subscription-email" /> },
        {
          name: 'Imei',
          label: t('reports:imei'),
          extra: heldDevice ? t('reports:subscriptions.keepsDevice', { name: heldDevice }) : t('reports:subscriptions.subjectHint'),
          input: <Input allowClear maxLength={15} placeholder={heldDevice || undefined} data-testid="subscription-imei" />,
        },
        {
          name: 'GroupId',
          label: t('reports:group'),
          input: (
            <Select
              allowClear
              options={(groups.data?.Items ?? []).map((g) => ({ value: g.GroupId, label: g.Name }))}
              data-testid="subscription-group"
            />
          ),
        },
        { name: 'Enabled', label: t('reports:subscriptions.enabled'), valuePropName: 'checked', input: <Switch data-testid="subscription-enabled" /> },
      ]}
    />
  );
}

export function ReportSubscriptions() {
  const { t } = useTranslation();
  const may = useCan()('history.export');
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<Editing | null>(null);
  const q = useQuery({ queryKey: REPORT_SUBSCRIPTIONS_KEY, queryFn: () => call('/Report/Subscriptions', {}), enabled: may && open });
  const toggle = useAction((r: ReportSubscription, Enabled: boolean) => call('/Report/SubscriptionSave', saveBody(r, { Enabled })), {
    invalidate: [REPORT_SUBSCRIPTIONS_KEY],
  });
  if (!may) return null;
  return (
    <>
      <Button onClick={() => setOpen(true)} data-testid="report-subscriptions">
        {t('reports:subscriptions.open')}
      </Button>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={t('reports:subscriptions.title')}
        size={1100}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ item: null })} data-testid="report-subscription-add">
            {t('reports:subscriptions.add')}
          </Button>
        }
      >
        <Table<ReportSubscription>
          size="small"
          rowKey="Id"
          loading={q.isLoading}
          dataSource={q.data?.Items ?? []}
          data-testid="report-subscription-list"
          pagination={false}
          scroll={{ x: 1000 }}
          columns={[
            { key: 'report', title: t('reports:subscriptions.report'), render: (_, r) => t(`reports:subscriptions.kind.${r.Report}`) },
            { key: 'subject', title: t('reports:subscriptions.subject'), dataIndex: 'Subject' },
            { key: 'frequency', title: t('reports:subscriptions.frequency'), render: (_, r) => t(`reports:subscriptions.every.${r.Frequency}`) },
            { key: 'email', title: t('reports:subscriptions.email'), dataIndex: 'Email' },
            // Switched off: no next mailing.
            { key: 'next', title: t('reports:subscriptions.nextAt'), render: (_, r) => r.NextAt || '–' },
            {
              key: 'last',
              title: t('reports:subscriptions.lastSentAt'),
              render: (_, r) =>
                r.LastSentAt ? (
                  <>
                    {r.LastSentAt}
                    {r.LastPeriod && (
                      <Typography.Text type="secondary" style={{ display: 'block' }}>
                        {t('reports:subscriptions.period', { period: r.LastPeriod })}
                      </Typography.Text>
                    )}
                  </>
                ) : (
                  '–'
                ),
            },
            { key: 'error', title: t('reports:subscriptions.lastError'), render: (_, r) => (r.LastError ? <Typography.Text type="danger">{r.LastError}</Typography.Text> : '') },
            {
              key: 'enabled',
              title: t('reports:subscriptions.enabled'),
              render: (_, r) => (
                <Switch
                  size="small"
                  checked={r.Enabled}
                  loading={toggle.pending?.[0].Id === r.Id}
                  onChange={(v) => void toggle.run(r, v)}
                  data-testid={`subscription-enabled-${r.Id}`}
                />
              ),
            },
            {
              key: 'actions',
              title: t('widgets:list.actions'),
              fixed: 'right',
              render: (_, r) => (
                <RowActions
                  invalidate={[REPORT_SUBSCRIPTIONS_KEY]}
                  actions={[
                    rowAction({ key: 'edit', label: t('reports:subscriptions.editShort'), testId: `subscription-edit-${r.Id}`, onClick: () => setEditing({ item: r }) }),
                    rowAction({
                      key: 'delete',
                      label: t('reports:subscriptions.delete'),
                      danger: true,
                      testId: `subscription-delete-${r.Id}`,
                      confirm: t('reports:subscriptions.confirmDelete', { subject: r.Subject }),
                      run: () => call('/Report/SubscriptionDelete', { Id: r.Id }),
                      success: t('reports:subscriptions.deleted'),
                    }),
                  ]}
                />
              ),
            },
          ]}
        />
      </Drawer>
      <SubscriptionDialog editing={editing} onClose={() => setEditing(null)} />
    </>
  );
}
