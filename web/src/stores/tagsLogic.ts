// The tag bar's rules (SPEC §2), as pure functions over the list of visited views.

export interface TagView {
  /** The route's path (one tag per page). */
  path: string;
  /** Path with query string, where the tag leads back to. */
  fullPath: string;
  /** i18n key of the `route` namespace. */
  title: string;
  view?: string;
  affix?: boolean;
  keepAlive?: boolean;
}

/** What the shell should do after a close: stay, go to a path, or refresh a page. */
export type TagNavigation = { kind: 'stay' } | { kind: 'go'; to: string } | { kind: 'refresh'; path: string };

export interface TagResult {
  views: TagView[];
  next: TagNavigation;
}

export const REDIRECT_PREFIX = '/redirect';

export function redirectPathFor(fullPath: string): string {
  return `${REDIRECT_PREFIX}${fullPath.startsWith('/') ? fullPath : `/${fullPath}`}`;
}

/** Adds a visited view once; a revisit only updates where it leads (query string). */
export function addView(views: TagView[], view: TagView): TagView[] {
  const i = views.findIndex((v) => v.path === view.path);
  if (i === -1) return [...views, view];
  if (views[i]!.fullPath === view.fullPath) return views;
  const next = views.slice();
  next[i] = { ...views[i]!, fullPath: view.fullPath };
  return next;
}

/** Fixed tags are always present and come first. */
export function withAffix(views: TagView[], affix: TagView[]): TagView[] {
  let out = views;
  for (const a of [...affix].reverse()) {
    if (!out.some((v) => v.path === a.path)) out = [{ ...a, affix: true }, ...out];
  }
  return out;
}

/**
 * Where to go when the active view was closed: the last remaining tag; with none left, the
 * closed Dashboard refreshes, anything else goes to the root.
 */
export function toLastView(remaining: TagView[], closed: TagView): TagNavigation {
  const last = remaining[remaining.length - 1];
  if (last) return { kind: 'go', to: last.fullPath };
  if (closed.view === 'Dashboard') return { kind: 'refresh', path: closed.fullPath };
  return { kind: 'go', to: '/' };
}

export function closeView(views: TagView[], path: string, activePath: string): TagResult {
  const closed = views.find((v) => v.path === path);
  if (!closed || closed.affix) return { views, next: { kind: 'stay' } };
  const remaining = views.filter((v) => v.path !== path);
  return { views: remaining, next: closed.path === activePath ? toLastView(remaining, closed) : { kind: 'stay' } };
}

export function closeOthers(views: TagView[], path: string, activePath: string): TagResult {
  const kept = views.filter((v) => v.affix || v.path === path);
  const target = views.find((v) => v.path === path);
  const next: TagNavigation = target && target.path !== activePath ? { kind: 'go', to: target.fullPath } : { kind: 'stay' };
  return { views: kept, next };
}

export function closeAll(views: TagView[], path: string): TagResult {
  const kept = views.filter((v) => v.affix);
  const current = views.find((v) => v.path === path);
  // From a fixed tag nothing moves: the page stays open.
  if (current?.affix) return { views: kept, next: { kind: 'stay' } };
  return { views: kept, next: toLastView(kept, current ?? { path, fullPath: path, title: '' }) };
}

/** Paths of the views kept alive (those whose route asks for it and are still open). */
export function cachedPaths(views: TagView[]): string[] {
  return views.filter((v) => v.keepAlive).map((v) => v.path);
}
