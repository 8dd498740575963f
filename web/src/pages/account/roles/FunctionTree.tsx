// The checkable function tree of a permission set (SPEC §6): the menu routes, grouped as in the
// menu, with their actions below. Only what the editor holds itself is offered. Ticking an action
// ticks its route; unticking a route unticks its actions; a group ticks or unticks its routes.
import { useMemo } from 'react';
import { Tree } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { useTranslation } from 'react-i18next';
import {
  ACTIONS,
  ACTION_ROUTE,
  ADMIN_USER_TYPE,
  FUNCTION_TREE,
  TREE_ROUTES,
  parseRoutes,
  platformRoutePaths,
  roleRoutes,
  treeRoutesOf,
  type FunctionNode,
  type UserInfo,
} from '@wt/contract';

export interface Grants {
  Routes: string[];
  Actions: string[];
}

/** The tree routes and actions a user holds: what a set it writes may grant at most. */
export function heldBy(info: Pick<UserInfo, 'ServerUserType' | 'routes' | 'Permissions' | 'PlatformAdmin'>): { routes: Set<string>; actions: Set<string> } {
  const listed = treeRoutesOf(parseRoutes(info.routes));
  const routes =
    info.ServerUserType === ADMIN_USER_TYPE
      ? TREE_ROUTES
      : listed.length > 0
        ? listed
        : roleRoutes(info.ServerUserType).filter((r) => TREE_ROUTES.includes(r));
  // The pages of what every tenant shares are the platform's administrators' alone: nobody else can give them.
  const platformOnly = info.PlatformAdmin ? new Set<string>() : new Set(platformRoutePaths());
  const actions = info.Permissions.includes('*') ? [...ACTIONS] : info.Permissions;
  return { routes: new Set(routes.filter((r) => !platformOnly.has(r))), actions: new Set(actions) };
}

/**
 * Whether a set grants nothing beyond what the user holds (as the server decides before a set is
 * applied or assigned): its actions held, its routes held; a set by role only for a user by role.
 */
export function withinHeld(
  info: Pick<UserInfo, 'ServerUserType' | 'routes' | 'Permissions' | 'PlatformAdmin'>,
  set: { Routes: readonly string[]; Actions: readonly string[] },
): boolean {
  const held = heldBy(info);
  if (set.Actions.includes('*') ? !info.Permissions.includes('*') : set.Actions.some((a) => !held.actions.has(a))) return false;
  if (set.Routes.length === 0) return info.ServerUserType === ADMIN_USER_TYPE || parseRoutes(info.routes).length === 0;
  return set.Routes.every((r) => held.routes.has(r));
}

/** The tree cut down to what is held: routes held, actions held below them, groups with something left. */
function prune(nodes: FunctionNode[], held: { routes: Set<string>; actions: Set<string> }): FunctionNode[] {
  const out: FunctionNode[] = [];
  for (const n of nodes) {
    if (n.kind === 'action') {
      if (held.actions.has(n.key)) out.push(n);
    } else if (n.kind === 'route') {
      if (held.routes.has(n.key)) out.push({ ...n, children: prune(n.children ?? [], held) });
    } else {
      const children = prune(n.children ?? [], held);
      if (children.length > 0) out.push({ ...n, children });
    }
  }
  return out;
}

const below = (n: FunctionNode): FunctionNode[] => (n.children ?? []).flatMap((c) => [c, ...below(c)]);

export function FunctionTree(props: {
  value?: Grants;
  onChange?: (v: Grants) => void;
  held: { routes: Set<string>; actions: Set<string> };
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const tree = useMemo(() => prune(FUNCTION_TREE, props.held), [props.held]);
  const byKey = useMemo(() => new Map([...tree, ...tree.flatMap(below)].map((n) => [n.key, n])), [tree]);
  const routes = new Set(props.value?.Routes ?? []);
  const actions = new Set(props.value?.Actions ?? []);

  const toData = (nodes: FunctionNode[]): DataNode[] =>
    nodes.map((n) => ({
      key: n.key,
      title: <span data-testid={`tree-${n.key}`}>{n.kind === 'action' ? t(`messages:${n.title}`) : t(`route:${n.title}`)}</span>,
      children: n.children?.length ? toData(n.children) : undefined,
    }));

  const groupChecked = (n: FunctionNode) => {
    const rs = below(n).filter((c) => c.kind === 'route');
    return rs.length > 0 && rs.every((r) => routes.has(r.key));
  };
  const checked = [
    ...routes,
    ...actions,
    ...[...byKey.values()].filter((n) => n.kind === 'group' && groupChecked(n)).map((n) => n.key),
  ];

  const toggle = (key: string, on: boolean) => {
    const n = byKey.get(key);
    if (!n) return;
    const r = new Set(routes);
    const a = new Set(actions);
    if (n.kind === 'action') {
      if (on) {
        a.add(key);
        r.add(ACTION_ROUTE[key]!);
      } else a.delete(key);
    } else if (n.kind === 'route') {
      if (on) r.add(key);
      else {
        r.delete(key);
        for (const c of below(n)) a.delete(c.key);
      }
    } else {
      for (const c of below(n)) {
        if (c.kind === 'route') {
          if (on) r.add(c.key);
          else r.delete(c.key);
        } else if (!on) a.delete(c.key);
      }
    }
    // Kept in tree order, so a saved set reads the same way it is shown.
    props.onChange?.({ Routes: TREE_ROUTES.filter((x) => r.has(x)), Actions: ACTIONS.filter((x) => a.has(x)) });
  };

  return (
    <Tree
      checkable
      checkStrictly
      selectable={false}
      defaultExpandAll
      disabled={props.disabled}
      treeData={toData(tree)}
      checkedKeys={{ checked, halfChecked: [] }}
      onCheck={(_, info) => toggle(String(info.node.key), info.checked)}
      style={{ maxHeight: 420, overflow: 'auto', border: '1px solid rgba(5,5,5,0.06)', borderRadius: 6, padding: 8 }}
      data-testid="function-tree"
    />
  );
}
