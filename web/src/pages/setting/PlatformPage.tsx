// Platform info (SPEC §3) and white label: the account's title, tab title, icon, company and
// contact details, the login link (key) and host name its sub-accounts log in on, the menus hidden
// from the accounts below it, the device label and batch-command switches. Read-only without
// platform.edit.
import { useEffect, useId, useMemo, useState, type Key } from 'react';
import { Alert, App, Button, Card, Col, Divider, Form, Input, Row, Space, Switch, Tooltip, Tree, Typography, Upload } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FileSearchOutlined } from '@ant-design/icons';
import { isPathPermitted } from '../../access';
import { PROTECTED_ROUTES, BRAND_ICON_MAX_BYTES, joinPath, savePlatformRequest, visibleRoutePaths, type RouteDef, type SavePlatformBody } from '@wt/contract';
import { call } from '../../api/client';
import { PLATFORM_INFO_KEY, usePlatformInfo } from '../../app/brand';
import logoUrl from '../../app/logo.svg';
import { useCan } from '../../access/can';
import { fieldRule, schemaValidator } from '../../forms/validate';
import { errorText } from '../../i18n/errors';
import { putIssues, serverIssues, useAction } from '../../patterns';
import { USER_INFO_KEY } from '../../session/auth';
import { useSession } from '../../stores/session';
import { AccountSelect } from '../devices/dialogs/AccountSelect';
import { RetentionSection } from './RetentionSection';
import './settings.css';

/** The form's values: the save call's fields, with the two switches as booleans. */
type Values = Omit<SavePlatformBody, 'UserId' | 'HiddenMenus' | 'isShowMapLabel' | 'switchFunctionSendCmd'> & {
  isShowMapLabel: boolean;
  switchFunctionSendCmd: boolean;
};

const validate = schemaValidator<Values>(savePlatformRequest);

/**
 * The menu routes as a checkable tree (titles translated), without the hidden pages: only those the
 * account whose platform it is sees itself (the server refuses the others).
 */
function menuTree(routes: RouteDef[], t: (k: string) => string, visible: ReadonlySet<string>, base = ''): DataNode[] {
  const out: DataNode[] = [];
  for (const r of routes) {
    if (r.hidden || /^https?:/.test(r.path)) continue;
    const full = base ? joinPath(base, r.path) : r.path;
    if (!visible.has(full)) continue;
    const children = r.children ? menuTree(r.children, t, visible, full) : [];
    // A group without a title of its own (the home pages) shows its pages in its place.
    if (!r.meta?.title) {
      out.push(...children);
      continue;
    }
    out.push({ key: full, title: t(`route:${r.meta.title}`), children: children.length ? children : undefined });
  }
  return out;
}

function readDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

export default function PlatformPage() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const qc = useQueryClient();
  const can = useCan();
  const navigate = useNavigate();
  const logsOpen = useSession((st) => isPathPermitted(st.permitted, '/setting/userlogs'));
  const editable = can('platform.edit');
  const userInfo = useSession((s) => s.userInfo);
  // The account whose platform is edited: one's own, or one of the subtree.
  const [accountId, setAccountId] = useState<number | undefined>(undefined);
  const pickerId = useId();
  const target = accountId ?? userInfo?.UserId;
  const self = target === userInfo?.UserId;
  const info = usePlatformInfo(target);
  const [form] = Form.useForm<Values>();
  const [hidden, setHidden] = useState<string[]>([]);
  const [icon, setIcon] = useState<string>('');
  const [uploading, setUploading] = useState(false);
  // Whose menus are offered: the edited account's (one's own from the session, another's asked for).
  const other = useQuery({
    queryKey: ['platform-menus-of', target],
    queryFn: () => call('/User/UserInfo', { UserId: target }).then((r) => r.UserInfo),
    enabled: !!target && !self,
  });
  const owner = self ? userInfo : other.data;
  const tree = useMemo(
    () => (owner ? menuTree(PROTECTED_ROUTES, t, visibleRoutePaths(owner.UserType, owner.routes, !!owner.PlatformAdmin)) : []),
    [t, owner],
  );
  // Batch command is a service: granted from above (the root account turns its own), with
  // function.edit, never beyond what one's own account has.
  const root = userInfo?.ParentId === null;
  const batchReason = self
    ? root
      ? null
      : t('functions.grantedFromAbove')
    : !can('function.edit')
      ? t('functions.needFunctionEdit')
      : !root && userInfo?.switchFunctionSendCmd !== 1 && info.data?.switchFunctionSendCmd !== 1
        ? t('functions.notHeld')
        : null;

  const data = info.data;
  useEffect(() => {
    if (!data) return;
    const own = data.Own;
    form.setFieldsValue({
      Title: own?.Title ?? '',
      PageTitle: own?.PageTitle ?? '',
      CompanyName: own?.CompanyName ?? '',
      Phone: own?.Phone ?? '',
      Email: own?.Email ?? '',
      Address: own?.Address ?? '',
      Key: own?.Key ?? '',
      HostName: own?.HostName ?? '',
      isShowMapLabel: data.isShowMapLabel === 1,
      switchFunctionSendCmd: data.switchFunctionSendCmd === 1,
    });
    setHidden(own?.HiddenMenus ?? []);
    setIcon(own?.IconUrl ?? '');
  }, [data, form]);

  const save = useAction(
    (v: Values) =>
      call('/Platform/Save', {
        ...v,
        UserId: target,
        HiddenMenus: hidden,
        isShowMapLabel: v.isShowMapLabel ? 1 : 2,
        switchFunctionSendCmd: v.switchFunctionSendCmd ? 1 : 2,
      }),
    {
      success: t('platform.saved'),
      invalidate: [[PLATFORM_INFO_KEY], [USER_INFO_KEY]],
      // The label switch changes how the monitor draws at once.
      onDone: (r) => {
        const u = useSession.getState().userInfo;
        if (u && self) useSession.getState().setUserInfo({ ...u, isShowMapLabel: r.isShowMapLabel, switchFunctionSendCmd: r.switchFunctionSendCmd });
      },
      onError: (err) => {
        const left = putIssues(form, serverIssues(err), t);
        return serverIssues(err).length > 0 && left.length === 0;
      },
    },
  );

  const upload = async (file: File) => {
    if (file.size > BRAND_ICON_MAX_BYTES) {
      void message.error(t('messages:platform.iconTooLarge', { max: BRAND_ICON_MAX_BYTES / 1024 }));
      return;
    }
    setUploading(true);
    try {
      const r = await call('/Platform/UploadIcon', { UserId: target, FileName: file.name, Data: await readDataUrl(file) });
      setIcon(r.IconUrl);
      void message.success(t('platform.iconSaved'));
      await qc.invalidateQueries({ queryKey: [PLATFORM_INFO_KEY] });
    } catch (err) {
      void message.error(errorText(t, err, { Data: t('platform.icon') }));
    } finally {
      setUploading(false);
    }
  };

  const key = Form.useWatch('Key', form);
  const link = key ? `${window.location.origin}/login?platform=${encodeURIComponent(key)}` : '';
  const rule = (field: keyof Values & string) => fieldRule(validate, form, field, t);
  const inherited = data?.Effective && data.Effective.OwnerId !== data.Own?.UserId ? data.Effective : null;

  return (
    <Card
      className="wt-settings-page"
      loading={info.isLoading}
      data-testid="platform-page"
      // The operation log has no menu entry of its own (SPEC §2): it opens from here.
      extra={
        logsOpen ? (
          <Button type="link" icon={<FileSearchOutlined />} onClick={() => void navigate('/setting/userlogs')} data-testid="open-user-logs">
            {t('route:userLogs')}
          </Button>
        ) : null
      }
    >
      {editable && (
        <Space style={{ marginBottom: 16 }} wrap>
          <Typography.Text>
            <label htmlFor={pickerId}>{t('functions.account')}</label>
          </Typography.Text>
          <div style={{ width: 260 }}>
            <AccountSelect id={pickerId} value={target} onChange={(v) => setAccountId(v)} />
          </div>
        </Space>
      )}
      {!editable && <Alert type="info" showIcon message={t('platform.readOnly')} style={{ marginBottom: 16 }} />}
      {inherited && !data?.Own && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('platform.inherits', { title: inherited.Title || inherited.OwnerLoginName, account: inherited.OwnerLoginName })} />
      )}
      <Form form={form} layout="vertical" disabled={!editable} onFinish={(v) => void save.run(v)} data-testid="platform-form">
        <Row gutter={24}>
          <Col xs={24} lg={12}>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {t('platform.brand')}
            </Typography.Title>
            <Form.Item label={t('platform.icon')} extra={t('platform.iconHint', { max: BRAND_ICON_MAX_BYTES / 1024 })}>
              <Space align="center" size={16}>
                <img src={icon || logoUrl} alt={t('platform.icon')} width={48} height={48} className="wt-brand-icon" data-testid="platform-icon" />
                {editable && (
                  <Upload
                    accept=".png,.svg,.ico,image/png,image/svg+xml,image/x-icon,image/vnd.microsoft.icon"
                    showUploadList={false}
                    beforeUpload={(file) => {
                      void upload(file);
                      return false;
                    }}
                  >
                    <Button loading={uploading} data-testid="platform-upload">
                      {t('platform.upload')}
                    </Button>
                  </Upload>
                )}
              </Space>
            </Form.Item>
            <Form.Item name="Title" label={t('platform.title')} extra={t('platform.titleHint')} rules={[rule('Title')]}>
              <Input maxLength={64} data-testid="platform-title" />
            </Form.Item>
            <Form.Item name="PageTitle" label={t('platform.pageTitle')} extra={t('platform.pageTitleHint')} rules={[rule('PageTitle')]}>
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item name="CompanyName" label={t('platform.company')} rules={[rule('CompanyName')]}>
              <Input maxLength={128} />
            </Form.Item>
            <Row gutter={16}>
              <Col span={12}>
                <Form.Item name="Phone" label={t('platform.phone')} rules={[rule('Phone')]}>
                  <Input maxLength={32} />
                </Form.Item>
              </Col>
              <Col span={12}>
                <Form.Item name="Email" label={t('platform.email')} rules={[rule('Email')]}>
                  <Input maxLength={128} />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="Address" label={t('platform.address')} rules={[rule('Address')]}>
              <Input maxLength={256} />
            </Form.Item>
            <Typography.Title level={5}>{t('platform.access')}</Typography.Title>
            <Form.Item name="Key" label={t('platform.key')} extra={link ? <Typography.Text copyable={{ text: link }}>{link}</Typography.Text> : t('platform.keyHint')} rules={[rule('Key')]}>
              <Input maxLength={40} placeholder="agent-east" data-testid="platform-key" />
            </Form.Item>
            <Form.Item name="HostName" label={t('platform.host')} extra={t('platform.hostHint')} rules={[rule('HostName')]}>
              <Input maxLength={253} placeholder="care.example.com" />
            </Form.Item>
            <Space size={32} wrap>
              <Form.Item name="isShowMapLabel" label={t('platform.deviceLabels')} valuePropName="checked" tooltip={t('platform.deviceLabelsHint')}>
                <Switch />
              </Form.Item>
              <Tooltip title={batchReason}>
                <Form.Item name="switchFunctionSendCmd" label={t('functions.switchFunctionSendCmd')} valuePropName="checked">
                  <Switch disabled={!editable || !!batchReason} />
                </Form.Item>
              </Tooltip>
            </Space>
          </Col>
          <Col xs={24} lg={12}>
            <Typography.Title level={5} style={{ marginTop: 0 }}>
              {t('platform.menus')}
            </Typography.Title>
            <Typography.Paragraph type="secondary">{t('platform.menusHint')}</Typography.Paragraph>
            <div className="wt-menu-tree" data-testid="platform-menus">
              <Tree
                checkable
                selectable={false}
                defaultExpandAll
                disabled={!editable}
                treeData={tree}
                checkedKeys={hidden}
                onCheck={(checked) => setHidden((Array.isArray(checked) ? checked : checked.checked).map((k: Key) => String(k)))}
              />
            </div>
          </Col>
        </Row>
        {editable && (
          <Button type="primary" htmlType="submit" loading={save.busy} data-testid="platform-save">
            {t('platform.save')}
          </Button>
        )}
      </Form>
      <Divider />
      <RetentionSection userId={target} />
    </Card>
  );
}
