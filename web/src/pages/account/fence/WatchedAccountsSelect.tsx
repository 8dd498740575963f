// Picks the accounts a fence watches: several accounts of the caller's subtree, as the account
// tree (nodes load as they open) with the server's search by login name, company or contact.
// Accounts already chosen are shown by name even before their branch is opened.
import { useMemo, useState } from 'react';
import { TreeSelect } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { USER_DATA } from '../../../i18n/texts';
import { useSession } from '../../../stores/session';
import { ACCOUNT_KEYS, loadNode, nodeLabel, searchAccounts, type AccountNode } from '../accounts/tree';

/** An account known only by id and names (a fence's watched account). */
export interface KnownAccount {
  UserId: number;
  LoginName: string;
  Name: string;
}

export function WatchedAccountsSelect({
  value,
  onChange,
  known = [],
}: {
  value?: number[];
  onChange?: (ids: number[]) => void;
  known?: KnownAccount[];
}) {
  const { t } = useTranslation('accountFence');
  const qc = useQueryClient();
  const me = useSession((s) => s.userInfo);
  const [seen, setSeen] = useState<Map<number, AccountNode>>(new Map());
  const [loaded, setLoaded] = useState<Set<number>>(new Set());
  const [typed, setTyped] = useState('');
  const keyword = typed.trim();

  const remember = (list: AccountNode[]) =>
    setSeen((prev) => {
      const next = new Map(prev);
      for (const n of list) next.set(n.UserId, n);
      return next;
    });
  const open = async (id: number) => {
    const r = await qc.fetchQuery({
      queryKey: ACCOUNT_KEYS.node(id),
      queryFn: () => loadNode(id),
      staleTime: 30_000,
    });
    remember([r.Node, ...r.Items]);
    setLoaded((s) => new Set(s).add(id));
  };
  const root = useQuery({
    queryKey: ACCOUNT_KEYS.node(me?.UserId),
    queryFn: () => loadNode(me?.UserId),
    enabled: !!me,
    staleTime: 30_000,
  });
  const found = useQuery({
    queryKey: ACCOUNT_KEYS.search(keyword),
    queryFn: () => searchAccounts(keyword),
    enabled: keyword.length > 0,
    staleTime: 10_000,
  });
  const rootId = root.data?.Node.UserId;

  const treeData = useMemo(() => {
    const node = (n: AccountNode, flat: boolean) => ({
      id: n.UserId,
      pId: flat || n.UserId === rootId ? undefined : (n.ParentId ?? undefined),
      value: n.UserId,
      title: <span {...USER_DATA}>{nodeLabel(n)}</span>,
      label: nodeLabel(n),
      isLeaf: flat || !n.HasChildren,
    });
    if (keyword) return (found.data ?? []).map((n) => node(n, true));
    const all = new Map(seen);
    if (root.data) for (const n of [root.data.Node, ...root.data.Items]) all.set(n.UserId, n);
    const nodes = [...all.values()].map((n) => node(n, false));
    // Chosen accounts not loaded yet stand at the top level under their names until their branch opens.
    for (const k of known)
      if (!all.has(k.UserId))
        nodes.push({
          id: k.UserId,
          pId: undefined,
          value: k.UserId,
          title: <span {...USER_DATA}>{k.LoginName}</span>,
          label: k.LoginName,
          isLeaf: true,
        });
    return nodes;
  }, [keyword, found.data, seen, root.data, rootId, known]);
  const loadedKeys = useMemo(() => (rootId ? [rootId, ...loaded] : [...loaded]), [rootId, loaded]);

  return (
    <TreeSelect<number[]>
      multiple
      value={value}
      onChange={(v) => onChange?.(v)}
      treeDataSimpleMode
      treeData={treeData}
      treeNodeLabelProp="label"
      loadData={async (n) => {
        const id = Number(n.value);
        if (!keyword && !loadedKeys.includes(id)) await open(id);
      }}
      treeLoadedKeys={loadedKeys}
      treeDefaultExpandedKeys={me ? [me.UserId] : []}
      showSearch={{ filterTreeNode: false, onSearch: setTyped, searchValue: typed }}
      onSelect={(v) => {
        // One account at a time, whatever the value's type says.
        const hit = found.data?.find((f) => f.UserId === (v as unknown as number));
        if (hit) remember([...hit.Ancestors, hit]);
        setTyped('');
      }}
      loading={root.isLoading || found.isFetching}
      placeholder={t('form.accountsPlaceholder')}
      notFoundContent={keyword && !found.isFetching ? t('form.noAccount') : undefined}
      style={{ width: '100%' }}
      data-testid="fence-accounts"
    />
  );
}
