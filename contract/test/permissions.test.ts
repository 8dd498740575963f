// Permission sets: every call of the registry names what it needs, and every action can be ticked.
import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  ACTION_ROUTE,
  CALL_ACTIONS,
  CALLS,
  EXTRA_CALLS,
  FUNCTION_TREE,
  LOCALES,
  MESSAGES,
  TREE_ROUTES,
  actionOfCall,
  actionTitleKey,
  allRoutePaths,
  effectiveRoutes,
  grantsOf,
  permissionList,
  roleRoutes,
  isAction,
  routesOfActions,
  routesWithCompanions,
  translate,
  type FunctionNode,
} from '../src/index.js';

const flat = (nodes: FunctionNode[]): FunctionNode[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

describe('CALL_ACTIONS', () => {
  it('has an entry for every call of the registry and none for an unknown call', () => {
    const registry = [...CALLS, ...EXTRA_CALLS].map((c) => c.path.toLowerCase());
    const missing = registry.filter((p) => actionOfCall(p) === undefined);
    expect(missing).toEqual([]);
    const extra = Object.keys(CALL_ACTIONS).filter((p) => !registry.includes(p.toLowerCase()));
    expect(extra).toEqual([]);
    expect(new Set(Object.keys(CALL_ACTIONS).map((p) => p.toLowerCase())).size).toBe(Object.keys(CALL_ACTIONS).length);
  });

  it('names an action, read, self or public, and public exactly for the public calls', () => {
    for (const c of [...CALLS, ...EXTRA_CALLS]) {
      const need = actionOfCall(c.path)!;
      expect(isAction(need) || ['read', 'self', 'public'].includes(need), c.path).toBe(true);
      expect(need === 'public', c.path).toBe(c.permission === 'public');
    }
  });

  it('is case-insensitive', () => {
    expect(actionOfCall('/device/addDEVICES')).toBe('device.add');
    expect(actionOfCall('/USER/login')).toBe('public');
    expect(actionOfCall('/no/such/call')).toBeUndefined();
  });
});

describe('FUNCTION_TREE', () => {
  const nodes = flat(FUNCTION_TREE);
  const routes = new Set(allRoutePaths());

  it('shows every action exactly once, below a menu route', () => {
    const shown = nodes.filter((n) => n.kind === 'action').map((n) => n.key);
    expect([...shown].sort()).toEqual([...ACTIONS].sort());
    for (const a of ACTIONS) expect(routes.has(ACTION_ROUTE[a]!), a).toBe(true);
  });

  it('holds only routes of the route table, each once, with its hidden pages', () => {
    for (const n of nodes.filter((x) => x.kind !== 'action')) expect(routes.has(n.key), n.key).toBe(true);
    expect(new Set(TREE_ROUTES).size).toBe(TREE_ROUTES.length);
    expect(TREE_ROUTES).toContain('/account/role');
    expect(TREE_ROUTES).toContain('/devices/list');
    expect(TREE_ROUTES).not.toContain('/devices/detail');
    expect(routesWithCompanions(['/devices/list', '/nope'])).toEqual(['/devices/list', '/devices/detail', '/devices/history']);
    expect(routesOfActions(['device.add', 'permission.edit'])).toEqual(['/devices/list', '/account/role']);
  });

  it('names every action in the three languages', () => {
    for (const l of LOCALES)
      for (const a of ACTIONS) expect(translate(l, actionTitleKey(a)), `${l} ${a}`).not.toBe(actionTitleKey(a));
    expect(MESSAGES.en).toHaveProperty(['permission', 'denied']);
  });
});

describe('grantsOf', () => {
  it('grants everything to the administrator, to no set and to the built-in administrator set', () => {
    expect(grantsOf(3, { key: 'x', builtIn: false, actions: '' })).toBe('all');
    expect(grantsOf(1, null)).toBe('all');
    expect(grantsOf(1, { key: 'admin', builtIn: true, actions: '' })).toBe('all');
    const g = grantsOf(1, { key: 'admin', builtIn: false, actions: 'device.add,bogus' });
    expect(g).not.toBe('all');
    expect([...(g as Set<string>)]).toEqual(['device.add']);
  });
});

describe('routes of a set', () => {
  it('opens to a role what the route table opens to it', () => {
    const admin = roleRoutes(3);
    expect(admin).toEqual(expect.arrayContaining(['/model/list', '/account/role', '/devices/detail']));
    const editor = roleRoutes(1);
    expect(editor).toContain('/devices/list');
    expect(editor).not.toContain('/model/list');
    expect(editor).not.toContain('/model');
  });

  it('narrows a set to the role, never to an empty list', () => {
    expect(effectiveRoutes(1, '')).toBe('');
    expect(effectiveRoutes(1, '/devices/list,/model/list')).toBe('/devices/list');
    expect(effectiveRoutes(1, '/model/list')).toBe('/');
    expect(permissionList('all')).toEqual(['*']);
    expect(permissionList(new Set(['device.edit', 'device.add']))).toEqual(['device.add', 'device.edit']);
  });
});
