import { useEffect, useState } from 'react';
import { App, Avatar, Dropdown, Tooltip, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import screenfull from 'screenfull';
import MenuFoldOutlined from '@ant-design/icons/es/icons/MenuFoldOutlined';
import MenuUnfoldOutlined from '@ant-design/icons/es/icons/MenuUnfoldOutlined';
import FullscreenOutlined from '@ant-design/icons/es/icons/FullscreenOutlined';
import FullscreenExitOutlined from '@ant-design/icons/es/icons/FullscreenExitOutlined';
import SettingOutlined from '@ant-design/icons/es/icons/SettingOutlined';
import FontSizeOutlined from '@ant-design/icons/es/icons/FontSizeOutlined';
import TranslationOutlined from '@ant-design/icons/es/icons/TranslationOutlined';
import UserOutlined from '@ant-design/icons/es/icons/UserOutlined';
import DownOutlined from '@ant-design/icons/es/icons/DownOutlined';
import { LOCALES } from '@wt/contract';
import { Breadcrumbs } from './Breadcrumbs';
import { Clock } from './Clock';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { useApp, type ComponentSize } from '../../stores/app';
import { useSession } from '../../stores/session';
import { currentLocale, setLocale } from '../../i18n';
import { logout } from '../../session/auth';
import { helpPdfUrl } from '../../utils/help';
import { AlarmBell } from '../../realtime/AlarmBell';

const SIZES: ComponentSize[] = ['large', 'middle', 'small'];

export function Navbar({ onOpenSettings }: { onOpenSettings: () => void }) {
  const { t } = useTranslation('shell');
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const { sidebarOpened, toggleSidebar, size, setSize, device } = useApp();
  const user = useSession((s) => s.userInfo);
  const [fullscreen, setFullscreen] = useState(false);
  const [passwordOpen, setPasswordOpen] = useState(false);
  const locale = currentLocale();
  const mobile = device === 'mobile';

  useEffect(() => {
    if (!screenfull.isEnabled) return;
    const onChange = () => setFullscreen(screenfull.isFullscreen);
    screenfull.on('change', onChange);
    return () => screenfull.off('change', onChange);
  }, []);

  const toggleFullscreen = () => {
    if (!screenfull.isEnabled) {
      void message.warning(t('fullscreenUnsupported'));
      return;
    }
    void screenfull.toggle();
  };

  const iconStyle = { fontSize: 18, color: token.colorTextSecondary };

  return (
    <div className="wt-navbar">
      <button type="button" className="wt-nav-btn" onClick={toggleSidebar} aria-label={t('hamburger')} title={t('hamburger')}>
        {sidebarOpened && !mobile ? <MenuFoldOutlined style={iconStyle} /> : <MenuUnfoldOutlined style={iconStyle} />}
      </button>
      {!mobile && (
        <div className="wt-nav-breadcrumb">
          <Breadcrumbs />
        </div>
      )}
      <div className="wt-nav-right">
        {!mobile && (
          <span className="wt-nav-item">
            <Clock />
          </span>
        )}
        <Tooltip title={fullscreen ? t('exitFullscreen') : t('fullscreen')}>
          <button type="button" className="wt-nav-btn" onClick={toggleFullscreen} aria-label={t('fullscreen')}>
            {fullscreen ? <FullscreenExitOutlined style={iconStyle} /> : <FullscreenOutlined style={iconStyle} />}
          </button>
        </Tooltip>
        <AlarmBell iconStyle={iconStyle} />
        <Dropdown
          trigger={['click']}
          menu={{
            selectable: true,
            selectedKeys: [size],
            items: SIZES.map((s) => ({ key: s, label: t(`size.${s}`) })),
            onClick: ({ key }) => setSize(key as ComponentSize),
          }}
        >
          <button type="button" className="wt-nav-btn" aria-label={t('size.title')} title={t('size.title')}>
            <FontSizeOutlined style={iconStyle} />
          </button>
        </Dropdown>
        <Dropdown
          trigger={['click']}
          menu={{
            selectable: true,
            selectedKeys: [locale],
            items: LOCALES.map((l) => ({ key: l, label: t(`common:languages.${l}`) })),
            onClick: ({ key }) => setLocale(key as (typeof LOCALES)[number]),
          }}
        >
          <button type="button" className="wt-nav-btn" aria-label={t('common:language')} title={t('common:language')}>
            <TranslationOutlined style={iconStyle} />
          </button>
        </Dropdown>
        <Tooltip title={t('settings.open')}>
          <button type="button" className="wt-nav-btn" onClick={onOpenSettings} aria-label={t('settings.open')}>
            <SettingOutlined style={iconStyle} />
          </button>
        </Tooltip>
        <Dropdown
          trigger={['click']}
          menu={{
            items: [
              { key: 'password', label: t('user.changePassword') },
              { key: 'help', label: t('user.help') },
              { type: 'divider' },
              { key: 'logout', label: t('user.logout') },
            ],
            onClick: ({ key }) => {
              if (key === 'password') setPasswordOpen(true);
              else if (key === 'help') window.open(helpPdfUrl(locale), '_blank', 'noopener');
              else if (key === 'logout') {
                void message.loading(t('user.loggingOut'), 1.5);
                void logout();
              }
            },
          }}
        >
          <button type="button" className="wt-nav-btn wt-nav-user" aria-label={user?.PageName ?? ''}>
            <Avatar size={30} src={user?.Avatar || undefined} icon={<UserOutlined />} style={{ background: token.colorPrimary }} />
            {!mobile && (
              <span className="wt-nav-username" data-user-data>
                {user?.Username || user?.LoginName}
              </span>
            )}
            <DownOutlined style={{ fontSize: 10, color: token.colorTextSecondary }} />
          </button>
        </Dropdown>
      </div>
      <ChangePasswordDialog open={passwordOpen} onClose={() => setPasswordOpen(false)} />
    </div>
  );
}
