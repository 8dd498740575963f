// Picks an account of the caller's subtree: the caller's own and every account that holds
// devices in it (read from the device list, which is scoped to the subtree on the server).
import { useMemo } from 'react';
import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../../api/client';
import { useSession } from '../../../stores/session';

export function useSubtreeAccounts(enabled = true) {
  const userInfo = useSession((s) => s.userInfo);
  const list = useQuery({
    queryKey: ['devices', 'accounts'],
    queryFn: () => call('/Device/devicesByUserId', { PageNo: 1, PageCount: 1000, IncludeSubAccounts: true, SortField: 'AccountName', SortOrder: 'asc' }),
    enabled,
    staleTime: 30_000,
  });
  const accounts = useMemo(() => {
    const out = new Map<number, string>();
    if (userInfo) out.set(userInfo.UserId, userInfo.LoginName);
    for (const d of list.data?.Items ?? []) if (!out.has(d.AccountId)) out.set(d.AccountId, d.AccountName);
    return [...out].map(([id, name]) => ({ id, name }));
  }, [list.data, userInfo]);
  return { accounts, loading: list.isLoading };
}

export function AccountSelect({ value, onChange, exclude }: { value?: number; onChange?: (v: number) => void; exclude?: number[] }) {
  const { t } = useTranslation();
  const { accounts, loading } = useSubtreeAccounts();
  return (
    <Select
      showSearch={{ optionFilterProp: 'label' }}
      loading={loading}
      value={value}
      onChange={onChange}
      placeholder={t('devices:move.pickAccount')}
      options={accounts.filter((a) => !exclude?.includes(a.id)).map((a) => ({ value: a.id, label: a.name }))}
      data-testid="account-select"
    />
  );
}
