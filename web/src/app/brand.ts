// White label: the brand an account shows (its own platform info, else the nearest one above it)
// in the sidebar and the browser tab, the menus the brands above it hide, and the brand the login
// page shows when opened as /login?platform=<key> or on a brand's host name.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { call } from '../api/client';
import { useSession } from '../stores/session';
import type { ResolvedRoute } from '../access';

/** Query key of an account's platform info (saving it invalidates this prefix). */
export const PLATFORM_INFO_KEY = 'platformInfo';

/** The logged-in account's platform info: own brand, the effective one, the menus hidden from it. */
export function usePlatformInfo(userId?: number) {
  const self = useSession((s) => s.userId);
  const token = useSession((s) => s.token);
  const id = userId ?? self;
  return useQuery({
    queryKey: [PLATFORM_INFO_KEY, id],
    queryFn: () => call('/Platform/Info', { UserId: id ?? undefined }),
    enabled: !!token && !!id,
    staleTime: 5 * 60_000,
  });
}

/** The brand of the account's console: title, tab title, icon; null without one. */
export function useEffectiveBrand() {
  return usePlatformInfo().data?.Effective ?? null;
}

/** Menu routes hidden from this account by the brands above it. */
export function useHiddenMenus(): ReadonlySet<string> {
  const hidden = usePlatformInfo().data?.HiddenMenus;
  return useMemo(() => new Set(hidden ?? []), [hidden]);
}

/** The brand of the login page: by the `platform` key of its address, else by the host name it is served on. */
export function useLoginBrand(key: string | null) {
  return useQuery({
    queryKey: ['loginBrand', key ?? ''],
    queryFn: () => call('/Platform/Brand', key ? { Key: key } : {}).then((r) => r.Item),
    staleTime: 10 * 60_000,
    retry: false,
  });
}

/**
 * The routes without those a brand above hides, at any depth; a group whose pages are all hidden
 * goes too.
 */
export function withoutHidden(routes: ResolvedRoute[], hidden: ReadonlySet<string>): ResolvedRoute[] {
  if (hidden.size === 0) return routes;
  const out: ResolvedRoute[] = [];
  for (const r of routes) {
    if (hidden.has(r.fullPath)) continue;
    if (!r.children?.length) {
      out.push(r);
      continue;
    }
    const children = withoutHidden(r.children, hidden);
    if (children.some((c) => !c.hidden)) out.push({ ...r, children });
  }
  return out;
}
