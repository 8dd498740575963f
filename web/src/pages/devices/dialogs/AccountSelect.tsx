// Picks any account of the caller's subtree, the owner pickers' one widget (device move,
// integrations, fences): the account tree, whose nodes load as they open, and a search by login
// name, company or contact on the server; a found account joins the tree under its ancestors.
import { useMemo, useState } from 'react';
import { TreeSelect } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { USER_DATA } from '../../../i18n/texts';
import { useSession } from '../../../stores/session';
import { ACCOUNT_KEYS, loadNode, nodeLabel, searchAccounts, type AccountNode } from '../../account/accounts/tree';

interface SimpleNode {
  id: number;
  pId?: number;
  value: number;
  title: React.ReactNode;
  label: string;
  isLeaf: boolean;
  disabled?: boolean;
}

export function AccountSelect({
  value,
  onChange,
  exclude,
  testId = 'account-select',
}: {
  value?: number;
  onChange?: (v: number) => void;
  /** Accounts that cannot be chosen (shown, greyed). */
  exclude?: number[];
  testId?: string;
}) {
  const { t } = useTranslation();
  const qc = useQueryClient();
  const me = useSession((s) => s.userInfo);
  // Nodes seen beyond the root's page: opened nodes' children and chosen search results.
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
    const r = await qc.fetchQuery({ queryKey: ACCOUNT_KEYS.node(id), queryFn: () => loadNode(id), staleTime: 30_000 });
    remember([r.Node, ...r.Items]);
    setLoaded((s) => new Set(s).add(id));
  };
  const root = useQuery({ queryKey: ACCOUNT_KEYS.node(me?.UserId), queryFn: () => loadNode(me?.UserId), enabled: !!me, staleTime: 30_000 });
  const nodes = useMemo(() => {
    const all = new Map(seen);
    if (root.data) for (const n of [root.data.Node, ...root.data.Items]) all.set(n.UserId, n);
    return all;
  }, [seen, root.data]);
  const loadedKeys = useMemo(() => (root.data ? [root.data.Node.UserId, ...loaded] : [...loaded]), [root.data, loaded]);
  const found = useQuery({ queryKey: ACCOUNT_KEYS.search(keyword), queryFn: () => searchAccounts(keyword), enabled: keyword.length > 0, staleTime: 10_000 });

  const toSimple = (n: AccountNode, flat = false): SimpleNode => ({
    id: n.UserId,
    pId: flat || n.UserId === root.data?.Node.UserId ? undefined : (n.ParentId ?? undefined),
    value: n.UserId,
    label: nodeLabel(n),
    title: <span {...USER_DATA}>{nodeLabel(n)}</span>,
    isLeaf: flat || !n.HasChildren,
    disabled: exclude?.includes(n.UserId),
  });
  const treeData = useMemo(() => {
    if (keyword) return (found.data ?? []).map((n) => toSimple(n, true));
    return [...nodes.values()].map((n) => toSimple(n));
    // toSimple reads the root id and the excluded ones, both inputs here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [keyword, found.data, nodes, root.data, exclude]);

  return (
    <TreeSelect<number>
      value={value}
      onChange={(v) => onChange?.(v)}
      treeDataSimpleMode
      treeData={treeData}
      treeNodeLabelProp="title"
      loadData={async (n) => {
        const id = Number(n.value);
        if (!keyword && !loadedKeys.includes(id)) await open(id);
      }}
      treeLoadedKeys={loadedKeys}
      treeDefaultExpandedKeys={me ? [me.UserId] : []}
      showSearch={{ filterTreeNode: false, onSearch: setTyped, searchValue: typed }}
      onSelect={(v: number) => {
        // A found account joins the tree under its ancestors, so the choice reads as a tree node.
        const hit = found.data?.find((f) => f.UserId === v);
        if (hit) remember([...hit.Ancestors, hit]);
        setTyped('');
      }}
      loading={root.isLoading || found.isFetching}
      placeholder={t('devices:move.pickAccount')}
      notFoundContent={keyword && !found.isFetching ? t('accounts:tree.noMatch') : undefined}
      popupMatchSelectWidth={false}
      style={{ width: '100%', minWidth: 240 }}
      data-testid={testId}
    />
  );
}
