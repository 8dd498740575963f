// The data router. Every protected route of the contract's table is declared here once; what a
// user may open is decided by the access functions in the loaders, never by adding routes.
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { groupRedirects, pageRoutes, type ResolvedRoute } from '../access';
import { VIEWS } from './views';
import { catchAllLoader, loginLoader, pageLoader, requireToken, shellLoader } from './guard';
import { setNavigate } from './navigation';
import { FullScreenSpin } from '../components/FullScreenSpin';
import { usePagePending } from './shell/pagePending';

export interface RouteHandle {
  route?: ResolvedRoute;
}

function pageRoute(r: ResolvedRoute): RouteObject {
  const load = VIEWS[r.view!];
  if (!load) throw new Error(`No page for view ${r.view}`);
  const common = {
    loader: pageLoader(r.fullPath),
    lazy: async () => ({ Component: (await load()).default }),
    handle: { route: r } satisfies RouteHandle,
  };
  return r.fullPath === '/' ? { index: true, ...common } : { path: r.fullPath, ...common };
}

export const routes: RouteObject[] = [
  { path: '/login', loader: loginLoader, lazy: async () => ({ Component: (await import('../pages/login/LoginPage')).default }) },
  { path: '/login/:name/:pwd', lazy: async () => ({ Component: (await import('../pages/login/AutoLoginPage')).default }) },
  { path: '/login/:name/:pwd/:language', lazy: async () => ({ Component: (await import('../pages/login/AutoLoginPage')).default }) },
  { path: '/auth-redirect', lazy: async () => ({ Component: (await import('../pages/login/AuthRedirectPage')).default }) },
  { path: '/404', loader: requireToken, lazy: async () => ({ Component: (await import('../pages/NotFoundPage')).default }) },
  {
    path: '/',
    id: 'shell',
    loader: shellLoader,
    lazy: async () => ({ Component: (await import('./shell/Shell')).default }),
    children: [
      ...pageRoutes().map(pageRoute),
      ...groupRedirects().map((g) => ({ path: g.from, loader: () => redirect(g.to) })),
      { path: '/redirect/*', lazy: async () => ({ Component: (await import('../pages/RedirectPage')).default }) },
    ],
  },
  { path: '*', loader: catchAllLoader, Component: () => null },
];

export function createAppRouter() {
  const router = createBrowserRouter(routes.map((r) => ({ HydrateFallback: FullScreenSpin, ...r })) as RouteObject[]);
  setNavigate((to, options) => void router.navigate(to, options));
  // The navigation's feedback follows the router's state as it changes (see pagePending.ts).
  router.subscribe((state) => usePagePending.getState().setNavigating(state.navigation.state !== 'idle'));
  return router;
}
