// The data of an account picker (one account or several): the caller's account tree, whose nodes
// load as they open, and the server's search by login name, company or contact, whose results show
// flat while a keyword is typed; a chosen result joins the tree under its ancestors. Accounts known
// only by name (already chosen, branch not opened) stand at the top level until their branch loads.
import { useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { USER_DATA } from '../../../i18n/texts';
import { useSession } from '../../../stores/session';
import { ACCOUNT_KEYS, loadNode, nodeLabel, searchAccounts, type AccountNode } from './tree';

export interface AccountTreeNode {
  id: number;
  pId?: number;
  value: number;
  title: React.ReactNode;
  label: string;
  isLeaf: boolean;
  disabled?: boolean;
}

const NONE: { UserId: number; LoginName: string }[] = [];

export function useAccountTree({ exclude, known = NONE }: { exclude?: number[]; known?: { UserId: number; LoginName: string }[] } = {}) {
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
  const found = useQuery({ queryKey: ACCOUNT_KEYS.search(keyword), queryFn: () => searchAccounts(keyword), enabled: keyword.length > 0, staleTime: 10_000 });
  const rootId = root.data?.Node.UserId;

  const treeData = useMemo((): AccountTreeNode[] => {
    const node = (n: AccountNode, flat: boolean): AccountTreeNode => ({
      id: n.UserId,
      pId: flat || n.UserId === rootId ? undefined : (n.ParentId ?? undefined),
      value: n.UserId,
      label: nodeLabel(n),
      title: <span {...USER_DATA}>{nodeLabel(n)}</span>,
      isLeaf: flat || !n.HasChildren,
      disabled: exclude?.includes(n.UserId),
    });
    if (keyword) return (found.data ?? []).map((n) => node(n, true));
    const all = new Map(seen);
    if (root.data) for (const n of [root.data.Node, ...root.data.Items]) all.set(n.UserId, n);
    const nodes = [...all.values()].map((n) => node(n, false));
    for (const k of known)
      if (!all.has(k.UserId)) nodes.push({ id: k.UserId, value: k.UserId, title: <span {...USER_DATA}>{k.LoginName}</span>, label: k.LoginName, isLeaf: true });
    return nodes;
  }, [keyword, found.data, seen, root.data, rootId, known, exclude]);
  const loadedKeys = useMemo(() => (rootId ? [rootId, ...loaded] : [...loaded]), [rootId, loaded]);

  /** The props a TreeSelect in simple mode takes from the tree. */
  const props = {
    treeDataSimpleMode: true,
    treeData,
    loadData: async (n: { value?: unknown }) => {
      const id = Number(n.value);
      if (!keyword && !loadedKeys.includes(id)) await open(id);
    },
    treeLoadedKeys: loadedKeys,
    treeDefaultExpandedKeys: me ? [me.UserId] : [],
    showSearch: { filterTreeNode: false, onSearch: setTyped, searchValue: typed },
    onSelect: (v: unknown) => {
      const hit = found.data?.find((f) => f.UserId === v);
      if (hit) remember([...hit.Ancestors, hit]);
      setTyped('');
    },
    loading: root.isLoading || found.isFetching,
  };
  return { props, noMatch: keyword.length > 0 && !found.isFetching };
}
