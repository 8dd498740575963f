// The caller's subtree as a lazy tree: a node's children are asked for when it opens, and a
// search by login name, company or contact opens the way down to the account it finds.
import { useMemo, useRef, useState, type Key } from 'react';
import { AutoComplete, Empty, Input, Spin, Tree, type TreeDataNode } from 'antd';
import type { GetRef } from 'antd';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { USER_DATA } from '../../../i18n/texts';
import { ACCOUNT_KEYS, loadNode, nodeLabel, searchAccounts, type AccountNode, type FoundAccount } from './tree';

type TreeRef = GetRef<typeof Tree>;

/** Loads the opened nodes through the query cache, so invalidating the area reloads the tree. */
export function useLazyTree(rootId: number | undefined) {
  const qc = useQueryClient();
  const [opened, setOpened] = useState<number[]>([]);
  const ids = useMemo(() => (rootId ? [rootId, ...opened.filter((id) => id !== rootId)] : []), [rootId, opened]);
  const results = useQueries({
    queries: ids.map((id) => ({ queryKey: ACCOUNT_KEYS.node(id), queryFn: () => loadNode(id), staleTime: 30_000 })),
  });
  const byId = new Map<number, { node: AccountNode; items: AccountNode[]; total: number }>();
  ids.forEach((id, i) => {
    const d = results[i]?.data;
    if (d) byId.set(id, { node: d.Node, items: d.Items, total: d.Total });
  });
  /** Loads a node's children (opening it, or on the way to a search result). */
  const open = async (id: number) => {
    await qc.fetchQuery({ queryKey: ACCOUNT_KEYS.node(id), queryFn: () => loadNode(id), staleTime: 30_000 });
    setOpened((o) => (o.includes(id) ? o : [...o, id]));
  };
  return { byId, open, loading: !!rootId && !byId.has(rootId) };
}

export function AccountTree({ rootId, selected, onSelect }: { rootId: number | undefined; selected: number | undefined; onSelect: (node: AccountNode) => void }) {
  const { t } = useTranslation();
  const { byId, open, loading } = useLazyTree(rootId);
  const [expanded, setExpanded] = useState<Key[]>([]);
  const [keyword, setKeyword] = useState('');
  const [typed, setTyped] = useState('');
  const tree = useRef<TreeRef>(null);
  const found = useQuery({
    queryKey: ACCOUNT_KEYS.search(keyword),
    queryFn: () => searchAccounts(keyword),
    enabled: keyword.length > 0,
    staleTime: 10_000,
  });

  const nodes = useMemo(() => {
    const build = (n: AccountNode): TreeDataNode => {
      const loaded = byId.get(n.UserId);
      const children = loaded?.items.map(build);
      if (loaded && loaded.total > loaded.items.length) {
        children?.push({ key: `more-${n.UserId}`, title: t('accounts:tree.more', { count: loaded.total - loaded.items.length }), isLeaf: true, selectable: false, disabled: true });
      }
      return {
        key: String(n.UserId),
        title: <span {...USER_DATA}>{nodeLabel(n)}</span>,
        isLeaf: !n.HasChildren,
        children,
      };
    };
    const root = rootId ? byId.get(rootId)?.node : undefined;
    return root ? [build(root)] : [];
  }, [byId, rootId, t]);

  const nodeOf = (id: number): AccountNode | undefined => {
    for (const v of byId.values()) {
      if (v.node.UserId === id) return v.node;
      const hit = v.items.find((i) => i.UserId === id);
      if (hit) return hit;
    }
    return undefined;
  };

  /** A search result: open every ancestor, in order, then select the account. */
  const jump = async (hit: FoundAccount) => {
    const way = hit.Ancestors.map((a) => a.UserId);
    for (const id of way) await open(id);
    setExpanded((e) => [...new Set([...e, ...way.map(String)])]);
    onSelect(hit);
    setTyped('');
    setKeyword('');
    requestAnimationFrame(() => tree.current?.scrollTo({ key: String(hit.UserId), align: 'top' }));
  };

  // The root starts open.
  const expandedKeys = rootId && !expanded.length ? [String(rootId)] : expanded;

  return (
    <div data-testid="account-tree">
      <AutoComplete
        style={{ width: '100%', marginBottom: 12 }}
        value={typed}
        onChange={setTyped}
        onSearch={(v) => setKeyword(v.trim())}
        onSelect={(value: string) => {
          const hit = found.data?.find((f) => String(f.UserId) === value);
          if (hit) void jump(hit);
        }}
        options={(found.data ?? []).map((f) => ({
          value: String(f.UserId),
          label: (
            <span {...USER_DATA} data-testid={`account-found-${f.LoginName}`}>
              {nodeLabel(f)}
              {f.Contact ? ` · ${f.Contact}` : ''}
            </span>
          ),
        }))}
        notFoundContent={keyword && !found.isFetching ? t('accounts:tree.noMatch') : found.isFetching ? <Spin size="small" /> : null}
      >
        <Input.Search allowClear placeholder={t('accounts:tree.search')} data-testid="account-tree-search" />
      </AutoComplete>
      {loading ? (
        <Spin />
      ) : nodes.length ? (
        <Tree
          ref={tree}
          height={560}
          blockNode
          treeData={nodes}
          expandedKeys={expandedKeys}
          onExpand={(keys) => setExpanded(keys)}
          selectedKeys={selected ? [String(selected)] : []}
          loadData={async (n) => {
            await open(Number(n.key));
          }}
          loadedKeys={[...byId.keys()].map(String)}
          onSelect={(_, info) => {
            const n = nodeOf(Number(info.node.key));
            if (n) onSelect(n);
          }}
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      )}
    </div>
  );
}
