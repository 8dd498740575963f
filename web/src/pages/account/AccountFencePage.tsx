// Account fences (/account/showfence): areas drawn for whole accounts whose wearers raise alarms
// entering or leaving them (SPEC §3 Account fence, §5 Fence), as tabs: the fences first.
import { Card, Tabs, type TabsProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { AccountFencesTab } from './fence/AccountFencesTab';

export default function AccountFencePage() {
  const { t } = useTranslation('accountFence');
  const items: TabsProps['items'] = [
    { key: 'fences', label: t('tabs.fences'), children: <AccountFencesTab /> },
    // The attendance tab goes here.
  ];
  return (
    <Card>
      <Tabs defaultActiveKey="fences" destroyOnHidden={false} items={items} />
    </Card>
  );
}
