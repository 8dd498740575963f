// Uplink integrations (/devices/integrations): the LoRa network servers and partner systems that
// POST device JSON to /api/ingest/<name> with a bearer token. The token is shown once, after
// creating or rotating; the integration writes only devices of its owner account's subtree.
import { useEffect, useState } from 'react';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Typography,
  theme,
} from 'antd';
import { CopyOutlined, DeleteOutlined, EditOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatDateTime, integration as schemas } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { DataTable } from '../../components/DataTable';
import { SearchForm } from '../../components/SearchForm';
import { schemaValidator } from '../../forms/validate';
import { errorText } from '../../i18n/errors';
import { useSession } from '../../stores/session';
import { AccountSelect } from './dialogs/AccountSelect';
import { showIssues, showServerFields } from './dialogs/formErrors';

type Integration = z.infer<typeof schemas.integrationSchema>;
/** What the token dialog shows: the integration's name and its new token. */
interface Issued {
  name: string;
  token: string;
}

const KEY = ['integrations'] as const;
const FIELDS = ['Name', 'AccountId'];
const validate = schemaValidator<Record<string, unknown>>(schemas.saveIntegrationRequest);

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
  const { message } = App.useApp();
  const [form] = Form.useForm();
  const qc = useQueryClient();
  const me = useSession((s) => s.userInfo?.UserId);
  const [busy, setBusy] = useState(false);

  // Filled when the dialog opens (not after its animation, which would wipe what was typed).
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(item ? { Name: item.Name, AccountId: item.AccountId } : { Name: '', AccountId: me });
  }, [open, item, form, me]);

  const submit = async () => {
    const values = { ...form.getFieldsValue(), ...(item ? { IntegrationId: item.IntegrationId } : {}) };
    if (showIssues(form, validate(values), t, FIELDS)) return;
    setBusy(true);
    try {
      const r = await call('/Integration/Save', values);
      await qc.invalidateQueries({ queryKey: KEY });
      onClose();
      if (r.Token) onCreated({ name: r.Item.Name, token: r.Token });
      else message.success(t('integrations:saved'));
    } catch (e) {
      if (!showServerFields(form, e, t, FIELDS)) message.error(errorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t(item ? 'integrations:edit' : 'integrations:add')}
      onCancel={onClose}
      onOk={() => void submit()}
      confirmLoading={busy}
      forceRender
    >
      <Form
        form={form}
        layout="vertical"
        data-testid="integration-form"
        // A field's refusal goes away as soon as it is changed.
        onValuesChange={(changed: Record<string, unknown>) =>
          form.setFields(Object.keys(changed).map((name) => ({ name, errors: [] })))
        }
      >
        <Form.Item name="Name" label={t('integrations:name')} extra={t('integrations:nameHint')} required>
          <Input
            maxLength={64}
            placeholder={t('integrations:namePlaceholder')}
            autoComplete="off"
            data-testid="integration-name"
          />
        </Form.Item>
        <Form.Item
          name="AccountId"
          label={t('integrations:owner')}
          extra={t('integrations:ownerHint')}
          required
        >
          <AccountSelect />
        </Form.Item>
      </Form>
    </Modal>
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
  const { message } = App.useApp();
  const qc = useQueryClient();
  const [search, setSearch] = useState<{ Name?: string }>({});
  const [editing, setEditing] = useState<{ item: Integration | null } | null>(null);
  const [issued, setIssued] = useState<Issued | null>(null);
  const [switching, setSwitching] = useState<number | null>(null);

  const refresh = () => qc.invalidateQueries({ queryKey: KEY });

  const toggle = async (r: Integration, on: boolean) => {
    setSwitching(r.IntegrationId);
    try {
      await call('/Integration/Save', { IntegrationId: r.IntegrationId, Name: r.Name, Enabled: on });
      message.success(t(on ? 'integrations:switchedOn' : 'integrations:switchedOff', { name: r.Name }));
      await refresh();
    } catch (e) {
      message.error(errorText(t, e));
    } finally {
      setSwitching(null);
    }
  };

  const rotate = async (r: Integration) => {
    try {
      const res = await call('/Integration/RotateToken', { IntegrationId: r.IntegrationId });
      setIssued({ name: res.Item.Name, token: res.Token });
    } catch (e) {
      message.error(errorText(t, e));
    }
  };

  const remove = async (r: Integration) => {
    try {
      await call('/Integration/Delete', { IntegrationIds: [r.IntegrationId] });
      message.success(t('integrations:deleted', { name: r.Name }));
      await refresh();
    } catch (e) {
      message.error(errorText(t, e));
    }
  };

  return (
    <Card>
      <Typography.Paragraph type="secondary">{t('integrations:intro')}</Typography.Paragraph>
      <SearchForm<{ Name?: string }>
        onSearch={setSearch}
        fields={[
          { name: 'Name', label: t('integrations:name'), input: <Input allowClear style={{ width: 220 }} /> },
        ]}
      />
      <DataTable<Integration>
        testId="integration-table"
        queryKey={KEY}
        params={search}
        rowKey="IntegrationId"
        fetch={(q, p) =>
          call('/Integration/List', { PageNo: q.page, PageCount: q.pageSize, ...(p as { Name?: string }) })
        }
        toolbar={
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing({ item: null })}
            data-testid="add-integration"
          >
            {t('integrations:add')}
          </Button>
        }
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
                loading={switching === r.IntegrationId}
                onChange={(on) => void toggle(r, on)}
                data-testid={`enabled-${r.Name}`}
              />
            ),
          },
          {
            key: 'CreatedAt',
            title: t('integrations:createdAt'),
            width: 180,
            render: (_, r) => formatDateTime(r.CreatedAt),
          },
          {
            key: 'LastUsedAt',
            title: t('integrations:lastUsedAt'),
            width: 180,
            render: (_, r) =>
              r.LastUsedAt ? (
                formatDateTime(r.LastUsedAt)
              ) : (
                <Typography.Text type="secondary">{t('integrations:never')}</Typography.Text>
              ),
          },
          {
            key: 'actions',
            title: t('integrations:actions'),
            width: 300,
            render: (_, r) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  icon={<EditOutlined />}
                  onClick={() => setEditing({ item: r })}
                >
                  {t('integrations:action.edit')}
                </Button>
                <Popconfirm
                  title={t('integrations:confirmRotate', { name: r.Name })}
                  onConfirm={() => rotate(r)}
                >
                  <Button type="link" size="small" icon={<SyncOutlined />} data-testid={`rotate-${r.Name}`}>
                    {t('integrations:action.rotate')}
                  </Button>
                </Popconfirm>
                <Popconfirm
                  title={t('integrations:confirmDelete', { name: r.Name })}
                  onConfirm={() => remove(r)}
                >
                  <Button
                    type="link"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    data-testid={`delete-${r.Name}`}
                  >
                    {t('integrations:action.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
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
          void refresh();
        }}
      />
    </Card>
  );
}
