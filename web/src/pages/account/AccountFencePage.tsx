// Account fences (/account/showfence): areas drawn for whole accounts whose wearers raise alarms
// entering or leaving them (SPEC §3 Account fence, §5 Fence), and attendance at them, as tabs. The
// tab is kept in the address (?tab=attendance), so either opens directly and survives a reload.
import { Card, Tabs, type TabsProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AttendancePanel } from './attendance/AttendancePanel';
import { AccountFencesTab } from './fence/AccountFencesTab';

const TABS = ['fences', 'attendance'] as const;

export default function AccountFencePage() {
  const { t } = useTranslation(['accountFence', 'attendance']);
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((k) => k === params.get('tab')) ?? 'fences';
  const items: TabsProps['items'] = [
    { key: 'fences', label: t('accountFence:tabs.fences'), children: <AccountFencesTab /> },
    { key: 'attendance', label: t('attendance:tab'), children: <AttendancePanel /> },
  ];
  return (
    <Card>
      <Tabs
        activeKey={tab}
        destroyOnHidden={false}
        items={items}
        onChange={(key) =>
          setParams(
            (p) => {
              if (key === 'fences') p.delete('tab');
              else p.set('tab', key);
              return p;
            },
            { replace: true },
          )
        }
      />
    </Card>
  );
}
