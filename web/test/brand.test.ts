// White label: the menus the brands above an account hide leave its sidebar, at any depth.
import { describe, expect, it } from 'vitest';
import { buildMenu, menuPaths, permittedRoutes } from '../src/access';
import { withoutHidden } from '../src/app/brand';

const admin = { UserType: 3, routes: '' } as Parameters<typeof permittedRoutes>[0];

describe('hidden menus', () => {
  const all = permittedRoutes(admin);
  const paths = (hidden: string[]) => menuPaths(buildMenu(withoutHidden(all, new Set(hidden))));

  it('removes a page, a home page and a whole group from the menu', () => {
    const full = paths([]);
    expect(full).toContain('/devices/list');
    expect(full).toContain('/');
    const less = paths(['/devices/list', '/', '/inventory']);
    expect(less).not.toContain('/devices/list');
    expect(less).not.toContain('/');
    expect(less.some((p) => p.startsWith('/inventory'))).toBe(false);
    expect(less).toContain('/devices/roles');
    expect(less.length).toBeGreaterThan(full.length - 10);
  });

  it('drops a group whose pages are all hidden', () => {
    const health = all.find((r) => r.fullPath === '/health')!;
    const pages = (health.children ?? []).filter((c) => !c.hidden).map((c) => c.fullPath);
    expect(pages.length).toBeGreaterThan(0);
    expect(paths(pages).some((p) => p.startsWith('/health'))).toBe(false);
  });
});
