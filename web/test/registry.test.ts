import { describe, expect, it } from 'vitest';
import { PROTECTED_ROUTES } from '@wt/contract';
import { pageRoutes, groupRedirects, routeChain, resolveRoutes, type ResolvedRoute } from '../src/access';
import { VIEWS } from '../src/app/views';
import { ROUTE_ICONS } from '../src/app/icons';

describe('the route table is fully wired', () => {
  it('every view of the table has a page', () => {
    for (const r of pageRoutes()) expect(VIEWS[r.view!], r.view).toBeTypeOf('function');
    expect(Object.keys(VIEWS).sort()).toEqual([...new Set(pageRoutes().map((r) => r.view!))].sort());
  });

  it('every icon named by the table is imported', () => {
    const icons = new Set<string>();
    const walk = (rs: ResolvedRoute[]) => rs.forEach((r) => (r.meta?.icon && icons.add(r.meta.icon), r.children && walk(r.children)));
    walk(resolveRoutes(PROTECTED_ROUTES));
    for (const i of icons) expect(ROUTE_ICONS[i], i).toBeDefined();
  });

  it('each page path is declared once', () => {
    const paths = pageRoutes().map((r) => r.fullPath);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('group paths lead to a page', () => {
    const redirects = Object.fromEntries(groupRedirects().map((g) => [g.from, g.to]));
    expect(redirects['/devices']).toBe('/devices/list');
    expect(redirects['/alarm']).toBe('/alarm/record');
    expect(redirects['/indoorBeacons']).toBe('/indoorBeacons/index');
    expect(redirects['/']).toBeUndefined();
  });

  it('breadcrumb chain of a nested page', () => {
    expect(routeChain('/alarm/record').map((r) => r.meta?.title)).toEqual(['alarm', 'alarmRecord']);
    expect(routeChain('/nowhere')).toEqual([]);
  });
});
