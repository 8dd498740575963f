// The shell around every protected page (SPEC §2): sidebar, navbar, tag bar, settings panel.
import { useEffect, useState } from 'react';
import { Drawer, Layout } from 'antd';
import { useLocation, useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIMITS } from '@wt/contract';
import { affixRoutes } from '../../access';
import { Sidebar, SIDEBAR_COLLAPSED_WIDTH } from './Sidebar';
import { Navbar } from './Navbar';
import { TagsView } from './TagsView';
import { SettingsDrawer } from './SettingsDrawer';
import { KeepAliveOutlet } from './KeepAliveOutlet';
import { NavigationProgress } from './NavigationProgress';
import { preloadWhenIdle, viewsOf } from '../prefetch';
import { RealtimeProvider } from '../../realtime/RealtimeProvider';
import { FullScreenSpin } from '../../components/FullScreenSpin';
import { ForcedPasswordChange } from '../../pages/account/accounts/ForcedPasswordChange';
import { useApp, deviceOf } from '../../stores/app';
import { useSession } from '../../stores/session';
import { useSettings } from '../../stores/settings';
import { useTags } from '../../stores/tags';
import { REDIRECT_PREFIX, type TagView } from '../../stores/tagsLogic';
import { refreshTokens } from '../../session/auth';
import { useEffectiveBrand } from '../brand';
import type { RouteHandle } from '../router';
import './shell.css';

function tagOf(handle: RouteHandle | undefined, fullPath: string): TagView | null {
  const r = handle?.route;
  if (!r?.meta?.title) return null;
  return { path: r.fullPath, fullPath, title: r.meta.title, view: r.view, affix: r.meta.affix, keepAlive: r.meta.keepAlive && !r.meta.noCache };
}

export default function Shell() {
  const { t } = useTranslation();
  const location = useLocation();
  const matches = useMatches();
  const token = useSession((s) => s.token);
  const userInfo = useSession((s) => s.userInfo);
  const permitted = useSession((s) => s.permitted);
  const { sidebarOpened, device, setDevice, closeSidebar } = useApp();
  const { tagsView, fixedHeader } = useSettings();
  const [settingsOpen, setSettingsOpen] = useState(false);
  const mobile = device === 'mobile';
  const handle = matches[matches.length - 1]?.handle as RouteHandle | undefined;

  // Mobile below 992 px: the sidebar closes on resize and on every route change.
  useEffect(() => {
    const onResize = () => {
      const next = deviceOf(window.innerWidth);
      setDevice(next);
      if (next === 'mobile') closeSidebar();
    };
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [setDevice, closeSidebar]);

  useEffect(() => {
    if (useApp.getState().device === 'mobile') closeSidebar();
  }, [location.pathname, closeSidebar]);

  // Tags: the fixed ones first, then each visited page.
  useEffect(() => {
    useTags.getState().setAffix(affixRoutes(permitted).map((r) => tagOf({ route: r }, r.fullPath)!).filter(Boolean));
  }, [permitted]);
  useEffect(() => {
    if (location.pathname.startsWith(`${REDIRECT_PREFIX}/`)) return;
    const tag = tagOf(handle, location.pathname + location.search);
    if (tag) useTags.getState().add(tag);
  }, [location.pathname, location.search, handle]);

  // The pages the user may open are fetched while the browser is idle: a menu click then finds
  // its page's module already there.
  useEffect(() => preloadWhenIdle(viewsOf(permitted)), [permitted]);

  // Token refresh every 5 minutes while the shell is open.
  useEffect(() => {
    if (!token) return;
    const id = window.setInterval(() => void refreshTokens(), LIMITS.tokenRefreshMs);
    return () => window.clearInterval(id);
  }, [token]);

  // Window title: the page, then the platform's name (the brand's page title when it has one).
  const title = handle?.route?.meta?.title;
  const brand = useEffectiveBrand();
  const site = brand?.PageTitle || brand?.Title || userInfo?.PageName || t('common:appName');
  useEffect(() => {
    document.title = title ? `${t(`route:${title}`)} - ${site}` : site;
  }, [title, site, t]);

  if (!token || !userInfo) return <FullScreenSpin tip={t('shell:user.loggingOut')} />;
  // A reset password is changed before anything else.
  if (userInfo.MustChangePassword) return <ForcedPasswordChange />;

  const siderWidth = mobile ? 0 : sidebarOpened ? LIMITS.sidebarWidth : SIDEBAR_COLLAPSED_WIDTH;

  return (
    <Layout style={{ minHeight: '100vh' }} className={mobile ? 'wt-mobile' : undefined}>
      <ShellPainted />
      <NavigationProgress />
      {mobile ? (
        <Drawer
          placement="left"
          open={sidebarOpened}
          onClose={closeSidebar}
          size={LIMITS.sidebarWidth}
          closable={false}
          styles={{ body: { padding: 0, background: '#001529' } }}
        >
          <Sidebar collapsed={false} onNavigate={closeSidebar} />
        </Drawer>
      ) : (
        <Layout.Sider
          width={LIMITS.sidebarWidth}
          collapsedWidth={SIDEBAR_COLLAPSED_WIDTH}
          collapsed={!sidebarOpened}
          trigger={null}
          style={{ position: 'fixed', insetInlineStart: 0, top: 0, bottom: 0, zIndex: 20, overflow: 'hidden' }}
        >
          <Sidebar collapsed={!sidebarOpened} />
        </Layout.Sider>
      )}
      <Layout style={{ marginInlineStart: siderWidth, transition: 'margin 0.2s' }}>
        <div className={`wt-header${fixedHeader ? ' fixed' : ''}`}>
          <Navbar onOpenSettings={() => setSettingsOpen(true)} />
          {tagsView && <TagsView />}
        </div>
        <Layout.Content className="wt-main">
          <KeepAliveOutlet />
        </Layout.Content>
      </Layout>
      <SettingsDrawer open={settingsOpen} onClose={() => setSettingsOpen(false)} />
      <RealtimeProvider />
    </Layout>
  );
}

/** Marks the shell's first paint (`wt-shell`, once per page load), the start of bench:map's land timing. */
function ShellPainted() {
  useEffect(() => {
    if (performance.getEntriesByName('wt-shell').length === 0) requestAnimationFrame(() => performance.mark('wt-shell'));
  }, []);
  return null;
}
