// Uplink integrations (/devices/integrations): the LoRa network servers and partner systems that
// POST device JSON to /api/ingest/<name> with a bearer token. The token is shown once, after
// creating or rotating; the integration writes only devices of its owner account's subtree.
import { useState } from 'react';
import { Alert, App, Button, Input, Modal, Space, Switch, Typography, theme } from 'antd';
import { CopyOutlined, DeleteOutlined, EditOutlined, SyncOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { integration as schemas } from '@wt/contract';
import { shownTime } from '../../session/time';
import type { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog, ListPage, addAction, rowAction, useAction } from '../../patterns';
import { useSession } from '../../stores/session';
import { AccountSelect } from './dialogs/AccountSelect';
import { useCan } from '../../access/can';

type Integration = z.infer<typeof schemas.integrationSchema>;
type SaveValues = z.input<typeof schemas.saveIntegrationRequest>;
type SaveResult = z.infer<typeof schemas.saveIntegrationResponse>;
/** What the token dialog shows: the integration's name and its new token. */
interface Issued {
  name: string;
  token: string;
}

const KEY = ['integrations'] as const;

/** The address a network server posts to, on the origin the console is served from. */
const ingestUrl = (name: string) => `${window.location.origin}/api/ingest/${name}`;

function IntegrationDialog({
  item,
  open,
  onClose,
  onCreated,
}: {
  item: Integration | null;
  open: boolean;
  onClose: () => void;
  onCreated: (issued: Issued) => void;
}) {
  const { t } = useTranslation();
  const me = useSession((s) => s.userInfo?.UserId);
  return (
    <FormDialog<SaveValues, SaveResult>
      open={open}
      title={t(item ? 'integrations:edit' : 'integrations:add')}
      schema={schemas.saveIntegrationRequest}
      initial={
        item
          ? { IntegrationId: item.IntegrationId, Name: item.Name, AccountId: item.AccountId }
          : { Name: '', AccountId: me }
      }
      submit={(v) => call('/Integration/Save', v)}
      // A new integration's token dialog says it was made.
      successMessage={(r) => (r.Token ? false : t('integrations:saved'))}
      onDone={(r) => (r.Token ? onCreated({ name: r.Item.Name, token: r.Token }) : undefined)}
      invalidate={[KEY]}
      onClose={onClose}
      testId="integration-form"
      fields={[
        {
          name: 'Name',
          label: t('integrations:name'),
          extra: t('integrations:nameHint'),
          required: true,
          input: (
            <Input
              maxLength={64}
              placeholder={t('integrations:namePlaceholder')}
              autoComplete="off"
              data-testid="integration-name"
            />
          ),
        },
        {
          name: 'AccountId',
          label: t('integrations:owner'),
          extra: t('integrations:ownerHint'),
          required: true,
          input: <AccountSelect />,
        },
      ]}
    />
  );
}

/** Copies text to the clipboard; the selection fallback serves consoles opened over plain HTTP. */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    /* falls back below */
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } finally {
    area.remove();
  }
}

function CopyButton({ text, testId }: { text: string; testId?: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <Button
      icon={<CopyOutlined />}
      onClick={() =>
        void copyText(text).then((done) =>
          done ? message.success(t('integrations:tokenDialog.copied')) : undefined,
        )
      }
      data-testid={testId}
    >
      {t('integrations:tokenDialog.copy')}
    </Button>
  );
}

/** A read-only value with its copy button. */
function CopyField({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div style={{ marginBottom: 16 }}>
      <Typography.Text strong>{label}</Typography.Text>
      <Space.Compact style={{ width: '100%', marginTop: 4 }}>
        <Input
          readOnly
          value={value}
          data-testid={testId}
          style={{ fontFamily: 'monospace' }}
          onFocus={(e) => e.target.select()}
        />
        <CopyButton text={value} testId={`${testId}-copy`} />
      </Space.Compact>
    </div>
  );
}

/** The token, once, with the address to post to and an example request. */
function TokenDialog({ issued, onClose }: { issued: Issued | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const url = issued ? ingestUrl(issued.name) : '';
  const example = issued
    ? [
        `curl -X POST '${url}' \\`,
        `  -H 'Authorization: Bearer ${issued.token}' \\`,
        `  -H 'Content-Type: application/json' \\`,
        `  -d '{"imei":"865000000000001","lat":22.5431,"lon":114.0579}'`,
      ].join('\n')
    : '';
  return (
    <Modal
      open={!!issued}
      title={t('integrations:tokenDialog.title', { name: issued?.name ?? '' })}
      onCancel={onClose}
      width={720}
      maskClosable={false}
      footer={
        <Button type="primary" onClick={onClose} data-testid="token-done">
          {t('integrations:tokenDialog.done')}
        </Button>
      }
      destroyOnHidden
    >
      <div data-testid="token-dialog">
        <Alert
          type="warning"
          showIcon
          title={t('integrations:tokenDialog.once')}
          style={{ marginBottom: 16 }}
        />
        <CopyField
          label={t('integrations:tokenDialog.token')}
          value={issued?.token ?? ''}
          testId="integration-token"
        />
        <CopyField label={t('integrations:tokenDialog.url')} value={url} testId="integration-url" />
        <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 4 }}>
          <span>
            <Typography.Text strong>{t('integrations:tokenDialog.example')}</Typography.Text>
            <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
              {t('integrations:tokenDialog.exampleHint')}
            </Typography.Text>
          </span>
          <CopyButton text={example} testId="integration-example-copy" />
        </Space>
        <pre
          data-testid="integration-example"
          style={{
            margin: 0,
            padding: '10px 12px',
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
            fontSize: 12,
            lineHeight: 1.6,
            background: token.colorFillQuaternary,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadius,
          }}
        >
          {example}
        </pre>
      </div>
    </Modal>
  );
}

export default function IntegrationsPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('device.integration');
  const qc = useQueryClient();
  const [editing, setEditing] = useState<{ item: Integration | null } | null>(null);
  const [issued, setIssued] = useState<Issued | null>(null);

  const toggle = useAction(
    (r: Integration, on: boolean) =>
      call('/Integration/Save', { IntegrationId: r.IntegrationId, Name: r.Name, Enabled: on }),
    {
      success: (res) =>
        t(res.Item.Enabled ? 'integrations:switchedOn' : 'integrations:switchedOff', { name: res.Item.Name }),
      invalidate: [KEY],
    },
  );

  return (
    <ListPage<Integration, { Name?: string }>
      testId="integration-table"
      queryKey={KEY}
      rowKey="IntegrationId"
      header={<Typography.Paragraph type="secondary">{t('integrations:intro')}</Typography.Paragraph>}
      search={[{ type: 'text', name: 'Name', label: t('integrations:name'), width: 220 }]}
      fetch={(q) => call('/Integration/List', q)}
      toolbar={[
        addAction(t('integrations:add'), () => setEditing({ item: null }), { testId: 'add-integration', visible: mayEdit }),
      ]}
      actionsColumn={{ title: t('integrations:actions'), width: 300 }}
      rowActions={(r) => [
        {
          key: 'edit',
          visible: mayEdit,
          label: t('integrations:action.edit'),
          icon: <EditOutlined />,
          onClick: () => setEditing({ item: r }),
        },
        rowAction({
          key: 'rotate',
          visible: mayEdit,
          label: t('integrations:action.rotate'),
          icon: <SyncOutlined />,
          testId: `rotate-${r.Name}`,
          confirm: t('integrations:confirmRotate', { name: r.Name }),
          run: () => call('/Integration/RotateToken', { IntegrationId: r.IntegrationId }),
          // The list is asked again when the token dialog closes.
          invalidate: [],
          onDone: (res) => setIssued({ name: res.Item.Name, token: res.Token }),
        }),
        {
          key: 'delete',
          visible: mayEdit,
          label: t('integrations:action.delete'),
          icon: <DeleteOutlined />,
          danger: true,
          testId: `delete-${r.Name}`,
          confirm: t('integrations:confirmDelete', { name: r.Name }),
          run: () => call('/Integration/Delete', { IntegrationIds: [r.IntegrationId] }),
          success: t('integrations:deleted', { name: r.Name }),
        },
      ]}
      columns={[
        {
          key: 'Name',
          title: t('integrations:name'),
          render: (_, r) => (
            <Typography.Text code data-testid={`integration-${r.Name}`}>
              {r.Name}
            </Typography.Text>
          ),
        },
        { key: 'AccountName', title: t('integrations:owner'), dataIndex: 'AccountName' },
        {
          key: 'Enabled',
          title: t('integrations:enabled'),
          width: 100,
          render: (_, r) => (
            <Switch
              checked={r.Enabled}
              disabled={!mayEdit}
              loading={toggle.pending?.[0].IntegrationId === r.IntegrationId}
              onChange={(on) => void toggle.run(r, on)}
              data-testid={`enabled-${r.Name}`}
            />
          ),
        },
        {
          key: 'CreatedAt',
          title: t('integrations:createdAt'),
          width: 180,
          render: (_, r) => shownTime(r.CreatedAt),
        },
        {
          key: 'LastUsedAt',
          title: t('integrations:lastUsedAt'),
          width: 180,
          render: (_, r) =>
            r.LastUsedAt ? (
              shownTime(r.LastUsedAt)
            ) : (
              <Typography.Text type="secondary">{t('integrations:never')}</Typography.Text>
            ),
        },
      ]}
    >
      <IntegrationDialog
        open={editing !== null}
        item={editing?.item ?? null}
        onClose={() => setEditing(null)}
        onCreated={setIssued}
      />
      <TokenDialog
        issued={issued}
        onClose={() => {
          setIssued(null);
          void qc.invalidateQueries({ queryKey: KEY });
        }}
      />
    </ListPage>
  );
}
