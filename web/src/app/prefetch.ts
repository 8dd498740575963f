// Page modules fetched before they are opened, so a menu click does not wait for the network and
// the module's evaluation: every page the user may open, one at a time while the browser is idle
// after login, and the page under the pointer at once.
import { findRoute, type ResolvedRoute } from '../access';
import { VIEWS } from './views';

const started = new Map<string, Promise<unknown>>();

/** Starts loading a page's module (once; a failed load may be tried again). */
export function preloadView(view: string | undefined): Promise<unknown> {
  if (!view || !VIEWS[view]) return Promise.resolve();
  let p = started.get(view);
  if (!p) {
    p = VIEWS[view]().catch(() => started.delete(view));
    started.set(view, p);
  }
  return p;
}

/** Starts loading the module of the page at `path` (a menu key, a tag's path). */
export function preloadPath(path: string): void {
  void preloadView(findRoute(path.split('?')[0]!)?.view);
}

/** The views of the permitted routes, in menu order, each once. */
export function viewsOf(routes: ResolvedRoute[]): string[] {
  const out: string[] = [];
  const walk = (items: ResolvedRoute[]) => {
    for (const r of items) {
      if (r.view && !out.includes(r.view)) out.push(r.view);
      if (r.children) walk(r.children);
    }
  };
  walk(routes);
  return out;
}

export type Idle = (fn: () => void) => () => void;

/**
 * The browser's idle callback where it has one (not Safari), else a short timer. A short idle
 * slice (under 20 ms) is passed over for the next one, unless the page has not been idle for 5 s.
 */
const onIdle: Idle = (fn) => {
  if (typeof window.requestIdleCallback === 'function') {
    let id = 0;
    const wait = () => {
      id = window.requestIdleCallback((deadline) => (deadline.timeRemaining() >= 20 || deadline.didTimeout ? fn() : wait()), { timeout: 5_000 });
    };
    wait();
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(fn, 200);
  return () => window.clearTimeout(id);
};

/**
 * Loads the given pages one after another, each when the browser is idle, starting after
 * `delayMs` (the page on screen loads its own data first). Returns a function that stops it.
 */
export function preloadWhenIdle(
  views: string[],
  { delayMs = 2_000, idle = onIdle, load = preloadView }: { delayMs?: number; idle?: Idle; load?: (view: string) => Promise<unknown> } = {},
): () => void {
  let stopped = false;
  let cancel: () => void = () => {};
  const next = (i: number) => {
    if (stopped || i >= views.length) return;
    cancel = idle(() => {
      if (stopped) return;
      void load(views[i]!).then(() => next(i + 1));
    });
  };
  const timer = window.setTimeout(() => next(0), delayMs);
  return () => {
    stopped = true;
    window.clearTimeout(timer);
    cancel();
  };
}
