// A thin bar at the top of the window from the moment a page is asked for until it is shown: the
// router's navigation state covers the route's check and the loading of the page's module, the
// pending page (KeepAliveOutlet) the time it takes to render.
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { theme } from 'antd';
import { usePagePending } from './pagePending';

export function NavigationProgress() {
  const { t } = useTranslation('shell');
  const { token } = theme.useToken();
  const busy = usePagePending((s) => s.navigating || s.pending);
  // After a navigation the bar fills and fades instead of vanishing mid-way.
  const [finishing, setFinishing] = useState(false);
  const [wasBusy, setWasBusy] = useState(busy);
  if (busy !== wasBusy) {
    setWasBusy(busy);
    setFinishing(!busy);
  }
  useEffect(() => {
    if (!finishing) return;
    const id = window.setTimeout(() => setFinishing(false), 400);
    return () => window.clearTimeout(id);
  }, [finishing]);

  if (!busy && !finishing) return null;
  return (
    <div
      className={`wt-nav-progress${busy ? '' : ' done'}`}
      role="progressbar"
      aria-label={t('navigating')}
      aria-busy={busy}
      data-testid="nav-progress"
      data-state={busy ? 'loading' : 'done'}
    >
      <div className="wt-nav-progress-bar" style={{ background: token.colorPrimary, boxShadow: `0 0 8px ${token.colorPrimary}` }} />
    </div>
  );
}
