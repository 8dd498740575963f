import { useMemo, useState, useEffect, createElement } from 'react';
import { Menu, type MenuProps } from 'antd';
import { Link, useLocation, useNavigate, useNavigation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@wt/contract';
import { buildMenu, routeChain, type MenuNode } from '../../access';
import { ROUTE_ICONS } from '../icons';
import { useSession } from '../../stores/session';
import { useSettings } from '../../stores/settings';
import { preloadPath } from '../prefetch';
import logoUrl from '../logo.svg';
import { useEffectiveBrand, useHiddenMenus, withoutHidden } from '../brand';

type Item = Required<MenuProps>['items'][number];

function toItems(nodes: MenuNode[], t: (k: string) => string): Item[] {
  return nodes.map((n) => {
    const Icon = n.icon ? ROUTE_ICONS[n.icon] : undefined;
    const icon = Icon ? createElement(Icon) : undefined;
    const label = t(n.title);
    if (n.children) return { key: n.key, icon, label, children: toItems(n.children, t) };
    return {
      key: n.key,
      icon,
      // The page's module starts loading as the pointer comes over its entry.
      onMouseEnter: n.external ? undefined : () => preloadPath(n.key),
      label: n.external ? (
        <a href={n.key} target="_blank" rel="noopener noreferrer">
          {label}
        </a>
      ) : (
        label
      ),
    };
  });
}

export const SIDEBAR_COLLAPSED_WIDTH = 64;

/** A title's width in half-width characters (a Chinese character counts two): a long one gets a smaller font. */
export function titleWidth(title: string): number {
  let n = 0;
  for (const ch of title) n += /[\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uff60]/.test(ch) ? 2 : 1;
  return n;
}

/** The menu of the user's permitted routes, optionally under the platform logo. */
export function Sidebar({ collapsed, onNavigate }: { collapsed: boolean; onNavigate?: () => void }) {
  const { t } = useTranslation('route');
  const location = useLocation();
  const navigate = useNavigate();
  // The page being opened is marked at once, before it has loaded.
  const pathname = useNavigation().location?.pathname ?? location.pathname;
  const permitted = useSession((s) => s.permitted);
  const pageName = useSession((s) => s.userInfo?.PageName);
  const showLogo = useSettings((s) => s.sidebarLogo);
  // White label: the brand the account inherits names the console and gives it its icon, and the
  // menus the brands above hide are left out.
  const brand = useEffectiveBrand();
  const hidden = useHiddenMenus();
  const title = brand?.Title || pageName || t('common:appShortName');
  const menu = useMemo(() => buildMenu(withoutHidden(permitted, hidden)), [permitted, hidden]);
  const items = useMemo(() => toItems(menu, t), [menu, t]);

  // The active item: the page itself, or for a hidden page its nearest listed ancestor group.
  const chain = routeChain(pathname);
  const selected = chain.length ? chain[chain.length - 1]!.fullPath : pathname;
  const parents = chain.slice(0, -1).map((r) => r.fullPath);
  const [openKeys, setOpenKeys] = useState<string[]>(parents);
  useEffect(() => {
    if (!collapsed) setOpenKeys((keys) => [...new Set([...keys, ...parents])]);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname, collapsed]);

  return (
    <div style={{ display: 'flex', flexDirection: 'column', height: '100%', width: '100%' }}>
      {showLogo && (
        <Link to="/" className="wt-logo" title={title}>
          <img src={brand?.IconUrl || logoUrl} alt="" width={28} height={28} data-testid="sidebar-logo" />
          {!collapsed && (
            <span className={`wt-logo-title${titleWidth(title) > 34 ? ' long' : ''}`} data-testid="sidebar-title" {...(brand?.Title || pageName ? { 'data-user-data': '' } : {})}>
              {title}
            </span>
          )}
        </Link>
      )}
      <div style={{ flex: 1, overflowY: 'auto', overflowX: 'hidden' }}>
        <Menu
          theme="dark"
          mode="inline"
          className="wt-side-menu"
          inlineCollapsed={collapsed}
          items={items}
          selectedKeys={[selected]}
          {...(collapsed ? {} : { openKeys, onOpenChange: setOpenKeys })}
          style={{ borderInlineEnd: 0, width: collapsed ? SIDEBAR_COLLAPSED_WIDTH : LIMITS.sidebarWidth }}
          onClick={({ key }) => {
            if (/^(https?:|mailto:|tel:)/.test(key)) return;
            navigate(key);
            onNavigate?.();
          }}
        />
      </div>
    </div>
  );
}
