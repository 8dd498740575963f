import { describe, expect, it } from 'vitest';
import { PAGE_CALLS, ROLE_LABELS, openPages, visibleRoutePaths, type RoleLabel } from '@wt/contract';
import {
  buildMenu,
  filterByRoles,
  filterByRouteList,
  isPathPermitted,
  mayCall,
  menuPaths,
  pagePaths,
  permittedRoutes,
  resolveRoutes,
  CATCH_ALL,
} from '../src/access';

const TYPE_OF: Record<RoleLabel, number> = {
  editor: 1,
  admin: 3,
  'editor-indoor': 4,
  'editor-datashow': 5,
  'editor-all-indoor-datashow': 6,
  'editor-healthdata': 7,
  'editor-healthdata-innor': 8,
  'editor-healthdata-datashow': 9,
  'editor-all-indoor-datashow-health': 10,
};

// The platform's own administrator (the root account) for the admin label; every other label is a tenant's.
const pagesOf = (label: RoleLabel) => new Set(pagePaths(permittedRoutes({ UserType: TYPE_OF[label], routes: '', PlatformAdmin: label === 'admin' })));
const PLATFORM_ONLY = ['/alarm/rule', '/indoorBeacons/index', '/model/list', '/model/protocol', '/model/command', '/push/app'];

const ADMIN_ONLY = ['/alarm/rule', '/track/index', '/indoorBeacons/index', '/model/list', '/model/protocol', '/model/command', '/inventory/list', '/inventory/sales', '/inventory/batch', '/position/bindBeacon', '/scene/sencelist', '/scene/floors', '/scene/aoa', '/scene/beacons', '/scene/projectMap', '/scene/calibration', '/scene/scenemap', '/push/sendMessage', '/push/pushlist', '/push/app'];
const EVERY_ROLE = ['/', '/devices/list', '/devices/detail', '/devices/roles', '/alarm/record', '/alarm/alarmSetting', '/account/accounts', '/account/showfence', '/deviceFence', '/deviceAlarm', '/setting/platform'];
const DASHBOARD: RoleLabel[] = ['admin', 'editor', 'editor-indoor', 'editor-healthdata', 'editor-healthdata-innor'];
const HEALTH: RoleLabel[] = ['admin', 'editor', 'editor-indoor', 'editor-datashow', 'editor-all-indoor-datashow'];
const POSITION: RoleLabel[] = ['admin', 'editor', 'editor-datashow', 'editor-healthdata', 'editor-healthdata-datashow'];
const INNER_MAP: RoleLabel[] = ['admin', 'editor', 'editor-datashow', 'editor-healthdata', 'editor-healthdata-datashow'];

describe('route filtering by role (SPEC §6)', () => {
  it('covers all nine role labels', () => {
    expect(Object.keys(TYPE_OF).sort()).toEqual([...ROLE_LABELS].sort());
  });

  for (const label of ROLE_LABELS) {
    describe(label, () => {
      const pages = pagesOf(label);
      it('sees the pages open to every role', () => {
        for (const p of EVERY_ROLE) expect(pages.has(p), p).toBe(true);
      });
      it(label === 'admin' ? 'sees the admin-only pages' : 'does not see the admin-only pages', () => {
        for (const p of ADMIN_ONLY) expect(pages.has(p), p).toBe(label === 'admin');
      });
      it('sees the dashboard only with a dashboard role', () => {
        expect(pages.has('/dashboard')).toBe(DASHBOARD.includes(label));
      });
      it('sees the health pages only with a health role', () => {
        expect(pages.has('/health/data')).toBe(HEALTH.includes(label));
        expect(pages.has('/health/detail')).toBe(HEALTH.includes(label));
      });
      it('sees the position group only with a position role', () => {
        expect(pages.has('/position/beacons')).toBe(POSITION.includes(label));
        expect(pages.has('/position/assetInventory')).toBe(POSITION.includes(label));
        expect(pages.has('/position/fenceList')).toBe(POSITION.includes(label));
      });
      it('sees the inner map only with an inner-map role', () => {
        expect(pages.has('/position/innerMap')).toBe(INNER_MAP.includes(label));
      });
    });
  }

  it('keeps a route without roles for every role and drops a group left empty', () => {
    const table = resolveRoutes([
      { path: '/open', view: 'Open', meta: { title: 'open' } },
      { path: '/group', meta: { title: 'group' }, children: [{ path: 'a', view: 'A', meta: { title: 'a', roles: ['admin'] } }] },
    ]);
    expect(pagePaths(filterByRoles(table, ['editor']))).toEqual(['/open']);
    expect(filterByRoles(table, ['editor']).some((r) => r.fullPath === '/group')).toBe(false);
    expect(pagePaths(filterByRoles(table, ['admin']))).toEqual(['/open', '/group/a']);
  });

  it('ends with the catch-all redirect to /404', () => {
    const routes = permittedRoutes({ UserType: 1, routes: '' });
    expect(routes[routes.length - 1]).toEqual(CATCH_ALL);
    expect(CATCH_ALL.redirect).toBe('/404');
  });
});

describe('route filtering by the server route list', () => {
  const routes = '/,/devices/list,/devices/detail,/inventory/list,/health/detail,/setting/setingfunction';

  it('keeps exactly the listed pages and their parents', () => {
    const tree = permittedRoutes({ UserType: 1, routes });
    expect(pagePaths(tree).sort()).toEqual(['/', '/devices/detail', '/devices/list', '/health/detail', '/inventory/list', '/setting/setingfunction'].sort());
    expect(tree.map((r) => r.fullPath)).toEqual(['/', '/devices', '/health', '/inventory', '/setting', '*']);
  });

  it('takes the route list over the role when it is non-empty', () => {
    // A plain editor does not see the inventory by role, but the list grants it.
    expect(isPathPermitted(permittedRoutes({ UserType: 1, routes }), '/inventory/list')).toBe(true);
    expect(isPathPermitted(permittedRoutes({ UserType: 1, routes }), '/dashboard')).toBe(false);
    expect(isPathPermitted(permittedRoutes({ UserType: 1, routes: '' }), '/dashboard')).toBe(true);
  });

  it('keeps a listed parent path even without listed children', () => {
    const tree = filterByRouteList(resolveRoutes(), ['/scene']);
    expect(tree.map((r) => r.fullPath)).toEqual(['/scene']);
    expect(pagePaths(tree)).toEqual([]);
  });

  it('ignores blanks and spaces in the list', () => {
    expect(pagePaths(filterByRouteList(resolveRoutes(), ' /dashboard , ,/push/app '))).toEqual(['/dashboard', '/push/app']);
  });
});

describe("the pages of what every tenant shares", () => {
  it("are the platform administrators' only: an administrator of a branch sees every other admin page", () => {
    const branch = new Set(pagePaths(permittedRoutes({ UserType: 3, routes: '', PlatformAdmin: false })));
    for (const p of PLATFORM_ONLY) expect(branch.has(p), p).toBe(false);
    for (const p of ADMIN_ONLY.filter((p) => !PLATFORM_ONLY.includes(p))) expect(branch.has(p), p).toBe(true);
    const platform = new Set(pagePaths(permittedRoutes({ UserType: 3, routes: '', PlatformAdmin: true })));
    for (const p of PLATFORM_ONLY) expect(platform.has(p), p).toBe(true);
  });

  it('are not opened by a route list to anyone else', () => {
    const listed = '/,/alarm/rule,/model/list,/devices/list';
    expect(pagePaths(permittedRoutes({ UserType: 1, routes: listed })).sort()).toEqual(['/', '/devices/list']);
    expect(isPathPermitted(permittedRoutes({ UserType: 3, routes: listed, PlatformAdmin: true }), '/alarm/rule')).toBe(true);
  });
});

describe('menu', () => {
  const adminMenu = buildMenu(permittedRoutes({ UserType: 3, routes: '', PlatformAdmin: true }));

  it('omits hidden routes', () => {
    const paths = menuPaths(adminMenu);
    for (const hidden of ['/devices/history', '/devices/detail', '/deviceAlarm', '/track/index', '/health/detail', '/account/role', '/inventory/batch', '/position/monitorDetail', '/scene/scenemap', '/setting/userlogs']) {
      expect(paths).not.toContain(hidden);
    }
    expect(paths).not.toContain('*');
  });

  it('shows the single visible child in place of its parent', () => {
    const monitor = adminMenu.find((m) => m.key === '/');
    expect(monitor).toMatchObject({ title: 'monitor', icon: 'GlobalOutlined' });
    expect(monitor?.children).toBeUndefined();
    // Health has two children, one hidden: the data page stands alone.
    expect(adminMenu.find((m) => m.key === '/health/data')?.children).toBeUndefined();
    expect(adminMenu.some((m) => m.key === '/health')).toBe(false);
  });

  it('keeps a group marked alwaysShow even with one visible child', () => {
    const tree = permittedRoutes({ UserType: 1, routes: '/devices/list' });
    const menu = buildMenu(tree);
    expect(menu).toHaveLength(1);
    expect(menu[0]).toMatchObject({ key: '/devices', title: 'devices' });
    expect(menu[0]!.children?.map((c) => c.key)).toEqual(['/devices/list']);
  });

  it('nests groups with several children', () => {
    const alarm = adminMenu.find((m) => m.key === '/alarm');
    expect(alarm?.children?.map((c) => c.key)).toEqual(['/alarm/rule', '/alarm/record', '/alarm/alarmSetting', '/alarm/escalation']);
  });

  it('has the scene applications group with the project map and beacon calibration entries (SPEC §2), for administrators only', () => {
    const scenes = adminMenu.find((m) => m.key === '/scene');
    expect(scenes).toMatchObject({ title: 'sceneApplications', icon: 'BankOutlined' });
    expect(scenes?.children?.map((c) => c.key)).toEqual(['/scene/sencelist', '/scene/floors', '/scene/aoa', '/scene/beacons', '/scene/projectMap', '/scene/calibration']);
    expect(scenes?.children?.find((c) => c.key === '/scene/calibration')).toMatchObject({ title: 'sceneCalibration', icon: 'ExperimentOutlined' });
    expect(scenes?.children?.find((c) => c.key === '/scene/projectMap')).toMatchObject({ title: 'projectMap', icon: 'GlobalOutlined' });
    for (const label of ROLE_LABELS.filter((l) => l !== 'admin')) {
      const menu = menuPaths(buildMenu(permittedRoutes({ UserType: TYPE_OF[label], routes: '' })));
      expect(menu).not.toContain('/scene/calibration');
      expect(menu).not.toContain('/scene/projectMap');
    }
    // A route list that names the page opens it with its group.
    const listed = buildMenu(permittedRoutes({ UserType: 3, routes: '/scene/calibration' }));
    expect(listed.find((m) => m.key === '/scene')?.children?.map((c) => c.key)).toEqual(['/scene/calibration']);
  });

  it('names every menu entry in the three languages, the new ones included', async () => {
    const titles = (lang: string) => import(`../src/i18n/locales/${lang}/route.json`).then((m) => m.default as Record<string, string>);
    const keys: string[] = [];
    const walk = (items: typeof adminMenu) => items.forEach((i) => (keys.push(i.title), i.children && walk(i.children)));
    walk(adminMenu);
    for (const lang of ['en', 'zh-CN', 'zh-TW']) {
      const t = await titles(lang);
      for (const k of keys) expect(t[k], `${lang} ${k}`).toBeTruthy();
    }
    expect((await titles('en')).sceneApplications).toBe('Scene applications');
    expect((await titles('zh-CN')).sceneCalibration).toBe('信标校准');
    expect((await titles('zh-TW')).sceneCalibration).toBe('信標校準');
  });
});

describe('the menus an account may hide below it', () => {
  const collect = (routes: ReturnType<typeof permittedRoutes>, out = new Set<string>()) => {
    for (const r of routes) {
      if (r.fullPath !== '*') out.add(r.fullPath);
      if (r.children) collect(r.children, out);
    }
    return out;
  };

  it('are the routes its own menu shows: by role, by route list, platform pages for platform administrators only', () => {
    const agent = visibleRoutePaths(1, '', false);
    expect(agent.has('/alarm/record')).toBe(true);
    expect(agent.has('/inventory/list')).toBe(false);
    expect(agent.has('/model/list')).toBe(false);
    expect(agent).toEqual(collect(permittedRoutes({ UserType: 1, routes: '', PlatformAdmin: false })));
    const root = visibleRoutePaths(3, '', true);
    expect(root.has('/inventory/list')).toBe(true);
    expect(root).toEqual(collect(permittedRoutes({ UserType: 3, routes: '', PlatformAdmin: true })));
    const listed = visibleRoutePaths(1, '/devices/list,/alarm/record', false);
    expect(listed).toEqual(collect(permittedRoutes({ UserType: 1, routes: '/devices/list,/alarm/record', PlatformAdmin: false })));
    expect(listed.has('/inventory/list')).toBe(false);
  });
});

describe('display switches', () => {
  const paths = (user: Parameters<typeof permittedRoutes>[0]) => {
    const out: string[] = [];
    const walk = (rs: ReturnType<typeof permittedRoutes>) => rs.forEach((r) => (out.push(r.fullPath), r.children && walk(r.children)));
    walk(permittedRoutes(user));
    return out;
  };

  it('hide the pages of indoor positioning, data display and health data when turned off, and only those', () => {
    const on = paths({ UserType: 3, routes: '', PlatformAdmin: true, IsInnerDoor: 1, IsDataShow: 1, IsHealthData: 1 });
    expect(on).toEqual(expect.arrayContaining(['/position/innerMap', '/dashboard', '/health/data']));
    const off = paths({ UserType: 3, routes: '', PlatformAdmin: true, IsInnerDoor: 2, IsDataShow: 2, IsHealthData: 2 });
    expect(off.filter((p) => p === '/dashboard' || p.startsWith('/position') || p.startsWith('/health'))).toEqual([]);
    expect(on.filter((p) => !off.includes(p)).every((p) => p === '/dashboard' || p.startsWith('/position') || p.startsWith('/health'))).toBe(true);
    expect(paths({ UserType: 3, routes: '', PlatformAdmin: true, IsHealthData: 2 })).toContain('/dashboard');
  });
});

describe('the server closes the same pages as the console (contract pages.ts)', () => {
  const consolePages = (routes: ReturnType<typeof resolveRoutes>) => new Set(pagePaths(routes));

  it('opens, for every role and for route lists, exactly the pages the console filters to', () => {
    for (const label of ROLE_LABELS) {
      const byRole = consolePages(filterByRoles(resolveRoutes(), [label]));
      const server = openPages({ userType: TYPE_OF[label], routes: '', platformAdmin: true });
      expect([...server].sort(), label).toEqual([...byRole].sort());
    }
    const list = '/,/dashboard,/health/data,/health/detail,/devices/list';
    expect([...openPages({ userType: 1, routes: list, platformAdmin: false })].sort()).toEqual([...consolePages(filterByRouteList(resolveRoutes(), list))].sort());
  });

  it('lets a user make the reads of a limited page only when the console shows that page', () => {
    for (const label of ROLE_LABELS) {
      const user = { UserType: TYPE_OF[label], routes: '', PlatformAdmin: label === 'admin' };
      const shown = pagesOf(label);
      for (const call of new Set(Object.values(PAGE_CALLS).flat())) {
        const pages = Object.keys(PAGE_CALLS).filter((p) => PAGE_CALLS[p]!.includes(call));
        expect(mayCall(user, call), `${label} ${call}`).toBe(pages.some((p) => shown.has(p)));
      }
    }
    const healthData = { UserType: 7, routes: '', PlatformAdmin: false };
    expect([mayCall(healthData, '/Device/allHealthDataPage'), mayCall(healthData, '/Asset/List'), mayCall(healthData, '/Device/devicesByUserId')]).toEqual([false, true, true]);
  });
});
