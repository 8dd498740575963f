// Which routes a user may see (SPEC §6). Pure functions over the contract's route table, so the
// router, the menu, the breadcrumb and the guard all agree and can be unit-tested.
import {
  DISPLAY_SWITCH_SCOPE,
  PROTECTED_ROUTES,
  joinPath,
  openPages,
  pageAllowsCall,
  parseRoutes,
  roleLabelOf,
  type RoleLabel,
  type RouteDef,
  type PageSwitch,
  type RouteMeta,
} from '@wt/contract';

/** A route of the table with its full path resolved. */
export interface ResolvedRoute extends Omit<RouteDef, 'children'> {
  fullPath: string;
  children?: ResolvedRoute[];
}

export const NOT_FOUND_PATH = '/404';

/** The catch-all appended after filtering: anything else goes to the 404 page. */
export const CATCH_ALL: ResolvedRoute = { path: '*', fullPath: '*', redirect: NOT_FOUND_PATH, hidden: true };

export function resolveRoutes(routes: RouteDef[] = PROTECTED_ROUTES, base = ''): ResolvedRoute[] {
  return routes.map((r) => {
    const fullPath = base ? joinPath(base, r.path) : r.path;
    const { children, ...rest } = r;
    return children ? { ...rest, fullPath, children: resolveRoutes(children, fullPath) } : { ...rest, fullPath };
  });
}

/** A route with no roles in its meta is open to every role; otherwise one of the user's roles must be listed. */
export function hasRole(roles: readonly string[], route: Pick<RouteDef, 'meta'>): boolean {
  const allowed = route.meta?.roles;
  if (!allowed) return true;
  return roles.some((r) => (allowed as readonly string[]).includes(r));
}

/**
 * Filters by the role list. A parent whose children were all filtered out is dropped too: an empty
 * group is of no use in the menu and has no page of its own.
 */
export function filterByRoles(routes: ResolvedRoute[], roles: readonly string[]): ResolvedRoute[] {
  const out: ResolvedRoute[] = [];
  for (const r of routes) {
    if (!hasRole(roles, r)) continue;
    if (r.children) {
      const children = filterByRoles(r.children, roles);
      if (children.length === 0) continue;
      out.push({ ...r, children });
    } else {
      out.push(r);
    }
  }
  return out;
}

function normalizePath(p: string): string {
  const t = p.trim();
  if (t.length > 1 && t.endsWith('/')) return t.slice(0, -1).toLowerCase();
  return t.toLowerCase();
}

/**
 * Builds the permission tree from the server's comma-separated route list: a route is kept when
 * its full path is listed or when it still has children after filtering.
 */
export function filterByRouteList(routes: ResolvedRoute[], routeList: string | readonly string[]): ResolvedRoute[] {
  const listed = new Set((typeof routeList === 'string' ? parseRoutes(routeList) : routeList).map(normalizePath));
  const walk = (items: ResolvedRoute[]): ResolvedRoute[] => {
    const out: ResolvedRoute[] = [];
    for (const r of items) {
      const children = r.children ? walk(r.children) : undefined;
      if (children && children.length > 0) out.push({ ...r, children });
      else if (listed.has(normalizePath(r.fullPath))) out.push(children ? { ...r, children: [] } : r);
    }
    return out;
  };
  return walk(routes);
}

export interface AccessSubject {
  /** Effective user type (the server already applies SPEC §4). */
  UserType: number;
  /** Comma-separated permitted routes; empty means by role. */
  routes: string;
  /** One of the platform's administrators: the only ones who see the pages marked `platform`. */
  PlatformAdmin?: boolean;
  /** Display switches (1 on, 2 off): off hides their pages (DISPLAY_SWITCH_SCOPE). */
  IsInnerDoor?: number;
  IsDataShow?: number;
  IsHealthData?: number;
}

/** Leaves out the pages under `prefixes` (full paths), and groups left with no page. */
export function withoutPages(routes: ResolvedRoute[], prefixes: readonly string[]): ResolvedRoute[] {
  if (!prefixes.length) return routes;
  const hidden = (p: string) => prefixes.some((x) => p === x || p.startsWith(`${x}/`));
  const out: ResolvedRoute[] = [];
  for (const r of routes) {
    if (hidden(r.fullPath)) continue;
    if (r.children && r.children.length > 0) {
      const children = withoutPages(r.children, prefixes);
      if (children.length === 0) continue;
      out.push({ ...r, children });
    } else {
      out.push(r);
    }
  }
  return out;
}

/** The pages the account's display switches turned off. */
export function switchedOffPages(user: AccessSubject): string[] {
  return (Object.keys(DISPLAY_SWITCH_SCOPE) as PageSwitch[]).filter((k) => user[k] === 2).flatMap((k) => DISPLAY_SWITCH_SCOPE[k].routes);
}

/** Leaves out the pages of what every tenant shares, and groups left with no page. */
export function withoutPlatformPages(routes: ResolvedRoute[]): ResolvedRoute[] {
  const out: ResolvedRoute[] = [];
  for (const r of routes) {
    if (r.meta?.platform) continue;
    if (r.children && r.children.length > 0) {
      const children = withoutPlatformPages(r.children);
      if (children.length === 0) continue;
      out.push({ ...r, children });
    } else {
      out.push(r);
    }
  }
  return out;
}

export function rolesOf(user: AccessSubject): RoleLabel[] {
  return [roleLabelOf(user.UserType)];
}

/**
 * The user's permitted routes: from the route list when it is non-empty, otherwise from the role.
 * The catch-all redirect to /404 closes the list.
 */
export function permittedRoutes(user: AccessSubject, table: RouteDef[] = PROTECTED_ROUTES): ResolvedRoute[] {
  const resolved = resolveRoutes(table);
  const list = parseRoutes(user.routes);
  const kept = list.length > 0 ? filterByRouteList(resolved, list) : filterByRoles(resolved, rolesOf(user));
  const shared = user.PlatformAdmin ? kept : withoutPlatformPages(kept);
  const shown = withoutPages(shared, switchedOffPages(user));
  // Only the pages the server opens to this user too (contract pages.ts): the two never disagree.
  return table === PROTECTED_ROUTES ? [...onlyPages(shown, openPages(pageSubject(user))), CATCH_ALL] : [...shown, CATCH_ALL];
}

function pageSubject(user: AccessSubject) {
  return { userType: user.UserType, routes: user.routes, platformAdmin: !!user.PlatformAdmin };
}

/** Keeps the pages in `open` (and the groups still holding one, or listed with none). */
function onlyPages(routes: ResolvedRoute[], open: Set<string>): ResolvedRoute[] {
  const out: ResolvedRoute[] = [];
  for (const r of routes) {
    if (r.children && r.children.length > 0) {
      const children = onlyPages(r.children, open);
      if (children.length > 0 || (r.view && open.has(r.fullPath))) out.push({ ...r, children });
    } else if (!r.view || open.has(r.fullPath)) out.push(r);
  }
  return out;
}

/** May the user make this call, as far as the pages it belongs to go (the server's rule)? */
export function mayCall(user: AccessSubject, path: string): boolean {
  return pageAllowsCall(pageSubject(user), path);
}

/** Full paths of the routes that have a page (the leaves that can be opened). */
export function pagePaths(routes: ResolvedRoute[]): string[] {
  const out: string[] = [];
  const walk = (items: ResolvedRoute[]) => {
    for (const r of items) {
      if (r.view) out.push(r.fullPath);
      if (r.children) walk(r.children);
    }
  };
  walk(routes);
  return [...new Set(out)];
}

export function isPathPermitted(routes: ResolvedRoute[], pathname: string): boolean {
  const target = normalizePath(pathname);
  return pagePaths(routes).some((p) => normalizePath(p) === target);
}

/**
 * Where a user lands after login and on "back home": the monitor home when permitted, else the
 * first page of the menu, else the first page of any kind; null when nothing is permitted.
 */
export function landingPath(routes: ResolvedRoute[]): string | null {
  const pages = pagePaths(routes);
  if (pages.includes('/')) return '/';
  const inMenu = menuPaths(buildMenu(routes)).filter((p) => !isExternal(p) && pages.includes(p));
  return inMenu[0] ?? pages.find((p) => !isExternal(p)) ?? null;
}

/** Every route with a page, flattened, for the router (each declared once). */
export function pageRoutes(table: RouteDef[] = PROTECTED_ROUTES): ResolvedRoute[] {
  const out: ResolvedRoute[] = [];
  const walk = (items: ResolvedRoute[]) => {
    for (const r of items) {
      if (r.view) out.push(r);
      if (r.children) walk(r.children);
    }
  };
  walk(resolveRoutes(table));
  return out;
}

export function findRoute(pathname: string, table: RouteDef[] = PROTECTED_ROUTES): ResolvedRoute | undefined {
  const target = normalizePath(pathname);
  return pageRoutes(table).find((r) => normalizePath(r.fullPath) === target);
}

/** The chain of routes from the top of the table down to the page at `pathname`. */
export function routeChain(pathname: string, table: RouteDef[] = PROTECTED_ROUTES): ResolvedRoute[] {
  const target = normalizePath(pathname);
  const walk = (items: ResolvedRoute[], trail: ResolvedRoute[]): ResolvedRoute[] | null => {
    for (const r of items) {
      const next = [...trail, r];
      if (r.view && normalizePath(r.fullPath) === target) return next;
      if (r.children) {
        const found = walk(r.children, next);
        if (found) return found;
      }
    }
    return null;
  };
  return walk(resolveRoutes(table), []) ?? [];
}

/** Where a group's own path leads: its declared redirect, else its first page. */
export function groupRedirects(table: RouteDef[] = PROTECTED_ROUTES): { from: string; to: string }[] {
  const pages = new Set(pageRoutes(table).map((r) => r.fullPath));
  const out: { from: string; to: string }[] = [];
  for (const r of resolveRoutes(table)) {
    if (pages.has(r.fullPath) || !r.children) continue;
    const to = r.redirect && r.redirect !== r.fullPath ? r.redirect : pagePaths(r.children)[0];
    if (to) out.push({ from: r.fullPath, to });
  }
  return out;
}

export interface MenuNode {
  key: string;
  title: string;
  icon?: string;
  /** External link (http, https, mailto, tel). */
  external?: boolean;
  children?: MenuNode[];
}

export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/.test(path);
}

/**
 * The menu: hidden routes are omitted, and a parent with exactly one visible child shows that
 * child in its place (unless it is marked alwaysShow). A parent with no visible children shows as
 * a plain item for its own path.
 */
export function buildMenu(routes: ResolvedRoute[]): MenuNode[] {
  const out: MenuNode[] = [];
  for (const r of routes) {
    if (r.hidden || r.fullPath === '*') continue;
    const visible = (r.children ?? []).filter((c) => !c.hidden);
    if (r.children && visible.length === 1 && !r.alwaysShow) {
      const only = visible[0]!;
      if (!only.children || only.children.filter((c) => !c.hidden).length === 0) {
        out.push(leaf(only, r.meta));
        continue;
      }
    }
    if (r.children && visible.length === 0) {
      if (r.view || r.meta) out.push(leaf(r));
      continue;
    }
    if (!r.children) {
      out.push(leaf(r));
      continue;
    }
    out.push({
      key: r.fullPath,
      title: r.meta?.title ?? visible[0]?.meta?.title ?? r.fullPath,
      icon: r.meta?.icon,
      children: buildMenu(visible),
    });
  }
  return out;
}

function leaf(r: ResolvedRoute, parentMeta?: RouteMeta): MenuNode {
  return {
    key: r.fullPath,
    title: r.meta?.title ?? parentMeta?.title ?? r.fullPath,
    icon: r.meta?.icon ?? parentMeta?.icon,
    external: isExternal(r.path),
  };
}

/** Paths of the menu's items that lead somewhere (for tests and for the open-keys logic). */
export function menuPaths(menu: MenuNode[]): string[] {
  return menu.flatMap((m) => (m.children ? menuPaths(m.children) : [m.key]));
}

/** Pages that open as fixed tags (meta.affix). */
export function affixRoutes(routes: ResolvedRoute[]): ResolvedRoute[] {
  return pageRoutesOf(routes).filter((r) => r.meta?.affix);
}

function pageRoutesOf(routes: ResolvedRoute[]): ResolvedRoute[] {
  return routes.flatMap((r) => [...(r.view ? [r] : []), ...(r.children ? pageRoutesOf(r.children) : [])]);
}
