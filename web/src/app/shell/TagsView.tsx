import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate, useNavigation } from 'react-router';
import { useTranslation } from 'react-i18next';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import LoadingOutlined from '@ant-design/icons/es/icons/LoadingOutlined';
import { theme } from 'antd';
import { LIMITS } from '@wt/contract';
import { useTags } from '../../stores/tags';
import { redirectPathFor, type TagNavigation, type TagView } from '../../stores/tagsLogic';
import { preloadPath } from '../prefetch';

/** The bar of visited views with its right-click menu (Refresh, Close, Close Others, Close All). */
export function TagsView() {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const views = useTags((s) => s.views);
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const pending = useNavigation().location?.pathname;
  const [menu, setMenu] = useState<{ x: number; y: number; view: TagView } | null>(null);
  const barRef = useRef<HTMLDivElement>(null);
  const activeRef = useRef<HTMLAnchorElement>(null);

  useEffect(() => {
    if (!menu) return;
    const close = () => setMenu(null);
    window.addEventListener('click', close);
    window.addEventListener('scroll', close, true);
    return () => {
      window.removeEventListener('click', close);
      window.removeEventListener('scroll', close, true);
    };
  }, [menu]);

  useEffect(() => {
    activeRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [pathname]);

  const follow = (next: TagNavigation) => {
    if (next.kind === 'go') navigate(next.to);
    else if (next.kind === 'refresh') refresh(next.path);
  };
  const refresh = (fullPath: string) => {
    const view = views.find((v) => v.fullPath === fullPath || v.path === fullPath);
    useTags.getState().drop(view?.path ?? fullPath);
    navigate(redirectPathFor(fullPath), { replace: true });
  };
  const close = (view: TagView) => follow(useTags.getState().close(view.path, pathname));
  const closeOthers = (view: TagView) => follow(useTags.getState().closeOthers(view.path, pathname));
  const closeAll = (view: TagView) => follow(useTags.getState().closeAll(view.path));

  return (
    <div className="wt-tags" ref={barRef}>
      <div className="wt-tags-scroll">
        {views.map((v) => {
          const active = v.path === pathname;
          return (
            <a
              key={v.path}
              ref={active ? activeRef : undefined}
              href={v.fullPath}
              className={`wt-tag${active ? ' active' : ''}`}
              style={active ? { background: token.colorPrimary, borderColor: token.colorPrimary, color: '#fff' } : undefined}
              onClick={(e) => {
                e.preventDefault();
                navigate(v.fullPath);
              }}
              onMouseEnter={() => preloadPath(v.path)}
              aria-busy={v.path === pending && !active ? true : undefined}
              onAuxClick={(e) => {
                if (e.button === 1 && !v.affix) {
                  e.preventDefault();
                  close(v);
                }
              }}
              onContextMenu={(e) => {
                e.preventDefault();
                const box = barRef.current?.getBoundingClientRect();
                const maxX = (box?.width ?? window.innerWidth) - LIMITS.contextMenuWidth;
                setMenu({ x: Math.min(e.clientX - (box?.left ?? 0) + 15, maxX), y: e.clientY - (box?.top ?? 0), view: v });
              }}
            >
              {active && <span className="wt-tag-dot" />}
              {v.path === pending && !active && <LoadingOutlined className="wt-tag-pending" />}
              {t(`route:${v.title}`)}
              {!v.affix && (
                <CloseOutlined
                  className="wt-tag-close"
                  aria-label={t('shell:tags.close')}
                  onClick={(e) => {
                    e.preventDefault();
                    e.stopPropagation();
                    close(v);
                  }}
                />
              )}
            </a>
          );
        })}
      </div>
      {menu && (
        <ul className="wt-contextmenu" role="menu" style={{ left: menu.x, top: menu.y, width: LIMITS.contextMenuWidth }}>
          <li role="menuitem" onClick={() => refresh(menu.view.fullPath)}>
            {t('shell:tags.refresh')}
          </li>
          {!menu.view.affix && (
            <li role="menuitem" onClick={() => close(menu.view)}>
              {t('shell:tags.close')}
            </li>
          )}
          <li role="menuitem" onClick={() => closeOthers(menu.view)}>
            {t('shell:tags.closeOthers')}
          </li>
          <li role="menuitem" onClick={() => closeAll(menu.view)}>
            {t('shell:tags.closeAll')}
          </li>
        </ul>
      )}
    </div>
  );
}
