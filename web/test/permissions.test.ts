// What the console offers by the user's permission set: the actions it may use, and the routes and
// actions a set it writes may hold at most (never more than it holds itself).
import { describe, expect, it } from 'vitest';
import { ACTIONS, TREE_ROUTES, platformRoutePaths } from '@wt/contract';
import { canDo } from '../src/access/can';
import { heldBy, withinHeld } from '../src/pages/account/roles/FunctionTree';

describe('canDo', () => {
  it('allows every action with *, the listed ones otherwise, and nothing before the user information', () => {
    expect(canDo({ Permissions: ['*'] }, 'device.delete')).toBe(true);
    expect(canDo({ Permissions: ['device.add'] }, 'device.add')).toBe(true);
    expect(canDo({ Permissions: ['device.add'] }, 'device.delete')).toBe(false);
    expect(canDo({ Permissions: [] }, 'device.add')).toBe(false);
    expect(canDo(null, 'device.add')).toBe(false);
  });
});

describe('heldBy', () => {
  it('holds every route for the administrator, the role routes without a route list, else the list', () => {
    const admin = heldBy({ ServerUserType: 3, routes: '', Permissions: ['*'], PlatformAdmin: true });
    expect([...admin.routes]).toEqual(TREE_ROUTES);
    expect(admin.actions.size).toBe(ACTIONS.length);

    // An administrator of a branch holds every route but the pages of what every tenant shares.
    const branch = heldBy({ ServerUserType: 3, routes: '', Permissions: ['*'], PlatformAdmin: false });
    expect([...branch.routes]).toEqual(TREE_ROUTES.filter((r) => !platformRoutePaths().includes(r)));
    for (const r of ['/alarm/rule', '/model/list', '/push/app']) expect(branch.routes.has(r)).toBe(false);
    expect(branch.routes.has('/inventory/list')).toBe(true);

    const editor = heldBy({ ServerUserType: 1, routes: '', Permissions: ['device.add'], PlatformAdmin: false });
    expect(editor.routes.has('/devices/list')).toBe(true);
    expect(editor.routes.has('/model/list')).toBe(false);
    expect([...editor.actions]).toEqual(['device.add']);

    // Hidden companions of a route list are not items of the tree.
    const narrow = heldBy({ ServerUserType: 1, routes: '/,/deviceAlarm,/devices/list,/devices/detail', Permissions: [], PlatformAdmin: false });
    expect([...narrow.routes]).toEqual(['/', '/devices/list']);
  });
});

describe('withinHeld', () => {
  const viewer = { ServerUserType: 10, routes: '/,/devices/list,/devices/detail', Permissions: [] as string[], PlatformAdmin: false };
  it('offers only the sets that grant nothing more than the user holds', () => {
    expect(withinHeld(viewer, { Routes: ['/devices/list'], Actions: [] })).toBe(true);
    expect(withinHeld(viewer, { Routes: ['/devices/list'], Actions: ['device.add'] })).toBe(false);
    expect(withinHeld(viewer, { Routes: ['/alarm/record'], Actions: [] })).toBe(false);
    // A set by role is wider than a route list; every action is more than none.
    expect(withinHeld(viewer, { Routes: [], Actions: [] })).toBe(false);
    expect(withinHeld({ ...viewer, routes: '', Permissions: ['*'] }, { Routes: [], Actions: ['*'] })).toBe(true);
  });
});
