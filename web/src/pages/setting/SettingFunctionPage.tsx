// The function switches of SPEC §3 User state, each with what it does. An account turns its own
// display switches; services are granted by an account above with function.edit (never beyond what
// it has itself), so on one's own account they are shown disabled with the reason. With
// function.edit another account of the subtree can be picked. A change takes effect at once: the
// session's user information is replaced by the server's answer.
import { useId, useState } from 'react';
import { Alert, Card, List, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DISPLAY_SWITCHES, SERVICE_SWITCHES, type FunctionSwitch, type UserInfo } from '@wt/contract';
import { call } from '../../api/client';
import { useCan } from '../../access/can';
import { useAction } from '../../patterns';
import { USER_INFO_KEY } from '../../session/auth';
import { useSession } from '../../stores/session';
import { AccountSelect } from '../devices/dialogs/AccountSelect';
import './settings.css';

const SERVICE = new Set<FunctionSwitch>(SERVICE_SWITCHES);

export default function SettingFunctionPage() {
  const { t } = useTranslation('settings');
  const can = useCan();
  const qc = useQueryClient();
  const me = useSession((s) => s.userInfo);
  const [accountId, setAccountId] = useState<number | undefined>(undefined);
  const pickerId = useId();
  const target = accountId ?? me?.UserId;
  const self = !accountId || accountId === me?.UserId;
  const other = useQuery({
    queryKey: [USER_INFO_KEY, target],
    queryFn: () => call('/User/UserInfo', { UserId: target }).then((r) => r.UserInfo),
    enabled: !self && !!target,
  });
  const info: UserInfo | null | undefined = self ? me : other.data;
  const root = me?.ParentId === null;
  const mayEditOthers = can('function.edit');

  const change = useAction((key: FunctionSwitch, on: boolean) => call('/User/EditFunctionSwitches', { UserId: target, [key]: on ? 1 : 2 }), {
    success: t('functions.saved'),
    onDone: (r) => {
      // Takes effect in the console without a reload: the session and the cached user info.
      if (r.UserInfo.UserId === useSession.getState().userId) useSession.getState().setUserInfo(r.UserInfo);
      qc.setQueryData([USER_INFO_KEY, r.UserInfo.UserId], r.UserInfo);
    },
  });

  /** Why a switch cannot be turned here, or null. */
  const blocked = (key: FunctionSwitch): string | null => {
    if (!self && !mayEditOthers) return t('functions.needFunctionEdit');
    if (SERVICE.has(key)) {
      if (self && !root) return t('functions.grantedFromAbove');
      if (!self && !root && me?.[key] !== 1 && info?.[key] !== 1) return t('functions.notHeld');
    }
    return null;
  };

  const row = (key: FunctionSwitch) => {
    const reason = blocked(key);
    const value = info?.[key] === 1;
    return (
      <List.Item
        key={key}
        data-testid={`switch-${key}`}
        actions={[
          <Tooltip key="switch" title={reason}>
            <Switch checked={value} disabled={!!reason || !info} loading={change.busy} onChange={(on) => void change.run(key, on)} aria-label={t(`functions.${key}`)} />
          </Tooltip>,
        ]}
      >
        <List.Item.Meta
          title={
            <Space>
              {t(`functions.${key}`)}
              {SERVICE.has(key) && <Tag color="blue">{t('functions.service')}</Tag>}
            </Space>
          }
          description={t(`functions.${key}Hint`)}
        />
      </List.Item>
    );
  };

  return (
    <Card className="wt-settings-page" data-testid="functions-page">
      {mayEditOthers && (
        <Space style={{ marginBottom: 16 }} wrap>
          <Typography.Text>
            <label htmlFor={pickerId}>{t('functions.account')}</label>
          </Typography.Text>
          <div style={{ width: 260 }}>
            <AccountSelect id={pickerId} value={target} onChange={(v) => setAccountId(v)} />
          </div>
        </Space>
      )}
      {!self && other.isError && <Alert type="error" showIcon message={t('functions.loadFailed')} />}
      <Typography.Title level={5}>{t('functions.display')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('functions.displayHint')}</Typography.Paragraph>
      <List bordered dataSource={[...DISPLAY_SWITCHES]} renderItem={row} loading={!info && !other.isError} style={{ marginBottom: 24 }} />
      <Typography.Title level={5}>{t('functions.services')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('functions.servicesHint')}</Typography.Paragraph>
      <List bordered dataSource={[...SERVICE_SWITCHES]} renderItem={row} loading={!info && !other.isError} />
    </Card>
  );
}
