// App versions (/push/app, SPEC §3 App version): the companion app's versions per platform, the
// newest (by version code) offered to the apps; published with an uploaded package (APK or IPA,
// checked by the server by its content) or an external download address, with the update content
// in each language, forced or optional, and a minimum supported version.
import { useState } from 'react';
import { Button, Form, Input, InputNumber, Radio, Space, Tag, Typography, Upload, type FormInstance } from 'antd';
import { DeleteOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { messaging } from '@wt/contract';
import { shownTime } from '../../session/time';
import type { z } from 'zod';
import { ApiError, call } from '../../api/client';
import { FormDialog, ListPage, addAction } from '../../patterns';
import { useSession } from '../../stores/session';
import { errorText } from '../../i18n/errors';
import { userDataCell } from '../../i18n/texts';
import { useCan } from '../../access/can';

type AppVersion = z.infer<typeof messaging.appVersionSchema>;
type SaveValues = z.input<typeof messaging.updateAppRequest>;
const KEY = ['app-versions'] as const;

interface Uploaded {
  FileKey: string;
  FileName: string;
  Platform: 'android' | 'ios';
  Size: number;
  Sha256: string;
}

/** Sends a package's bytes as they are (the server checks what they are). */
async function uploadPackage(file: File): Promise<Uploaded> {
  const token = useSession.getState().token;
  const res = await fetch(`/api/app-packages?name=${encodeURIComponent(file.name)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: file,
  });
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (data.State !== 200) throw new ApiError(Number(data.State ?? res.status), String(data.Message ?? 'common.failed'), data.Params as never, data.Fields as never);
  return data as unknown as Uploaded;
}

export function formatSize(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The package field: upload a file (its key kept in FileKey), or write an external address. */
function PackageField({ form, item }: { form: FormInstance; item: AppVersion | null }) {
  const { t } = useTranslation();
  const [source, setSource] = useState<'file' | 'url'>(item && !item.FileName && item.Url ? 'url' : 'file');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ name: string; size: number | null; sha: string | null } | null>(
    item?.FileName ? { name: item.FileName, size: item.Size, sha: item.Sha256 } : null,
  );
  return (
    <>
      <Form.Item label={t('appVersion:package')} required>
        <Radio.Group
          value={source}
          onChange={(e) => {
            setSource(e.target.value);
            if (e.target.value === 'url') form.setFieldsValue({ FileKey: undefined, FileName: '' });
            else form.setFieldsValue({ Url: '' });
          }}
          options={[
            { value: 'file', label: t('appVersion:source.file') },
            { value: 'url', label: t('appVersion:source.url') },
          ]}
        />
      </Form.Item>
      <Form.Item name="FileKey" hidden>
        <Input />
      </Form.Item>
      <Form.Item name="FileName" hidden>
        <Input />
      </Form.Item>
      {source === 'file' ? (
        <Form.Item
          extra={t('appVersion:uploadHint')}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
        >
          <Space orientation="vertical" style={{ width: '100%' }}>
            <Upload
              accept=".apk,.ipa"
              showUploadList={false}
              customRequest={({ file }) => {
                setBusy(true);
                setError(null);
                uploadPackage(file as File)
                  .then((u) => {
                    form.setFieldsValue({ FileKey: u.FileKey, FileName: u.FileName, Platform: u.Platform, Url: '' });
                    setDone({ name: u.FileName, size: u.Size, sha: u.Sha256 });
                  })
                  .catch((e: unknown) => setError(e instanceof ApiError && e.fields?.[0] ? t(`messages:${e.fields[0].Message}`, e.fields[0].Params) : errorText(t, e)))
                  .finally(() => setBusy(false));
              }}
            >
              <Button icon={<UploadOutlined />} loading={busy} data-testid="app-upload">
                {t('appVersion:upload')}
              </Button>
            </Upload>
            {done && (
              <Typography.Text type="secondary" data-testid="app-uploaded">
                <span data-user-data>{done.name}</span> · {formatSize(done.size)} · SHA-256 {done.sha?.slice(0, 16)}…
              </Typography.Text>
            )}
          </Space>
        </Form.Item>
      ) : (
        <Form.Item name="Url" extra={t('appVersion:urlHint')}>
          <Input placeholder="https://" maxLength={500} data-testid="app-url" />
        </Form.Item>
      )}
    </>
  );
}

function AppDialog({ editing, onClose }: { editing: { item: AppVersion | null } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const item = editing?.item ?? null;
  return (
    <FormDialog<SaveValues>
      open={editing !== null}
      width={680}
      title={t(item ? 'appVersion:edit' : 'appVersion:add')}
      schema={item ? messaging.updateAppRequest : messaging.saveAppRequest}
      initial={
        item
          ? { ...item, FileKey: item.FileName ? item.Url.split('/').pop() : undefined, Url: item.FileName ? '' : item.Url }
          : { Platform: 'android', Forced: 2, OldVersion: '', MinVersion: '', Url: '', FileName: '', Content: { 'zh-CN': '', 'zh-TW': '', en: '' } }
      }
      submit={(v) => (item ? call('/APPInfo/UpdateAppVersionByID', { ...v, Id: item.Id }) : call('/APPInfo/Save', v))}
      invalidate={[KEY]}
      onClose={onClose}
      testId="app-form"
      fields={(form) => (
        <>
          <Space size={24} wrap>
            <Form.Item name="Platform" label={t('appVersion:platform')} required>
              <Radio.Group options={messaging.APP_PLATFORMS.map((p) => ({ value: p, label: t(`appVersion:platforms.${p}`) }))} />
            </Form.Item>
            <Form.Item name="Forced" label={t('appVersion:forced')}>
              <Radio.Group
                options={[
                  { value: 2, label: t('appVersion:forcedValues.2') },
                  { value: 1, label: t('appVersion:forcedValues.1') },
                ]}
              />
            </Form.Item>
          </Space>
          <Space size={16} wrap align="start">
            <Form.Item name="OldVersion" label={t('appVersion:oldVersion')}>
              <Input placeholder="1.0.0" style={{ width: 130 }} maxLength={24} />
            </Form.Item>
            <Form.Item name="NewVersion" label={t('appVersion:newVersion')} required>
              <Input placeholder="1.1.0" style={{ width: 130 }} maxLength={24} data-testid="app-new-version" />
            </Form.Item>
            <Form.Item name="VersionCode" label={t('appVersion:versionCode')} required>
              <InputNumber min={1} precision={0} style={{ width: 130 }} data-testid="app-version-code" />
            </Form.Item>
            <Form.Item name="MinVersion" label={t('appVersion:minVersion')} tooltip={t('appVersion:minHint')}>
              <Input placeholder="1.0.0" style={{ width: 130 }} maxLength={24} data-testid="app-min-version" />
            </Form.Item>
          </Space>
          <PackageField form={form} item={item} />
          {messaging.APP_LANGUAGES.map((l) => (
            <Form.Item key={l} name={['Content', l]} label={t('appVersion:content', { language: t(`appVersion:languages.${l}`) })}>
              <Input.TextArea rows={2} maxLength={2000} data-testid={`app-content-${l}`} />
            </Form.Item>
          ))}
        </>
      )}
    />
  );
}

export default function AppVersionPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('app.edit');
  const [editing, setEditing] = useState<{ item: AppVersion | null } | null>(null);
  return (
    <>
      <ListPage<AppVersion, { Platform?: 'android' | 'ios' }>
        testId="app-table"
        queryKey={KEY}
        rowKey="Id"
        scrollX={1300}
        search={[{ type: 'select', name: 'Platform', label: t('appVersion:platform'), options: messaging.APP_PLATFORMS.map((p) => ({ value: p, label: t(`appVersion:platforms.${p}`) })) }]}
        fetch={(q) => call('/APPInfo/List', q)}
        toolbar={[addAction(t('appVersion:add'), () => setEditing({ item: null }), { testId: 'app-add', visible: mayEdit })]}
        actionsColumn={{ title: t('appVersion:actions'), width: 150, fixed: 'right' }}
        rowActions={(r) => [
          { key: 'edit', visible: mayEdit, label: t('appVersion:editShort'), icon: <EditOutlined />, onClick: () => setEditing({ item: r }) },
          {
            key: 'delete',
            visible: mayEdit,
            danger: true,
            label: t('appVersion:delete'),
            icon: <DeleteOutlined />,
            confirm: t('appVersion:confirmDelete', { version: r.NewVersion }),
            run: () => call('/APPInfo/Delete', { Ids: [r.Id] }),
            invalidate: [KEY],
          },
        ]}
        columns={[
          { key: 'Platform', title: t('appVersion:platform'), width: 100, render: (_, r) => <Tag color={r.Platform === 'ios' ? 'default' : 'green'}>{t(`appVersion:platforms.${r.Platform}`)}</Tag> },
          {
            key: 'NewVersion',
            title: t('appVersion:newVersion'),
            width: 150,
            render: (_, r) => (
              <span data-testid={`app-row-${r.NewVersion}`}>
                {r.NewVersion} <Typography.Text type="secondary">({r.VersionCode})</Typography.Text>
              </span>
            ),
          },
          { key: 'OldVersion', title: t('appVersion:oldVersion'), dataIndex: 'OldVersion', width: 100 },
          { key: 'MinVersion', title: t('appVersion:minVersion'), dataIndex: 'MinVersion', width: 110 },
          { key: 'Forced', title: t('appVersion:forced'), width: 100, render: (_, r) => <Tag color={r.Forced === 1 ? 'red' : 'blue'}>{t(`appVersion:forcedValues.${r.Forced}`)}</Tag> },
          {
            key: 'Package',
            title: t('appVersion:package'),
            width: 260,
            render: (_, r) =>
              r.FileName || r.Size !== null ? (
                <Space orientation="vertical" size={0}>
                  <a href={r.Url} data-user-data>
                    {r.FileName || r.Url.split('/').pop()}
                  </a>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {formatSize(r.Size)} · SHA-256 <Typography.Text copyable={{ text: r.Sha256 ?? '' }} style={{ fontSize: 12 }}>{r.Sha256?.slice(0, 12)}…</Typography.Text>
                  </Typography.Text>
                </Space>
              ) : (
                <a href={r.Url} target="_blank" rel="noreferrer" data-user-data>
                  {r.Url}
                </a>
              ),
          },
          {
            key: 'Content',
            title: t('appVersion:contentShort'),
            ellipsis: true,
            onCell: userDataCell,
            render: (_, r) => messaging.APP_LANGUAGES.map((l) => r.Content[l]).find(Boolean) ?? '',
          },
          { key: 'UpdatedAt', title: t('appVersion:updatedAt'), width: 170, render: (_, r) => shownTime(r.UpdatedAt) },
        ]}
      />
      <AppDialog editing={editing} onClose={() => setEditing(null)} />
    </>
  );
}
