// SMS service (send message by role) (/push/sendMessage, SPEC §2): messages to the watches of
// device roles, groups and accounts; and the accounts' SMS service with the alarm texts it paid for.
import { Card, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MessagesTab } from './messaging/MessagesTab';
import { SmsAccountsTab, SmsRecordsTab } from './messaging/SmsTabs';

const TABS = ['roles', 'sms', 'records'] as const;
type Tab = (typeof TABS)[number];

export default function SendMessagePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'roles';
  return (
    <Card>
      <Tabs
        activeKey={tab}
        onChange={(k) => setParams({ tab: k }, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'roles', label: t('messaging:tabs.roles'), children: <MessagesTab /> },
          { key: 'sms', label: t('messaging:tabs.sms'), children: <SmsAccountsTab /> },
          { key: 'records', label: t('messaging:tabs.records'), children: <SmsRecordsTab /> },
        ]}
      />
    </Card>
  );
}
