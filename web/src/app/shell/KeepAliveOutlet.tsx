// Keeps the pages whose route asks for it (meta.keepAlive) mounted while other tags are shown,
// hidden, and drops them when their tag closes or is refreshed.
//
// A page opened for the first time renders after the browser has painted the navigation's
// feedback (the progress bar, the menu's selection), and as a transition that yields to the
// browser: a page that takes seconds to render no longer freezes the click's feedback.
import { startTransition, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useMatches, useOutlet } from 'react-router';
import { Spin } from 'antd';
import type { RouteHandle } from '../router';
import { useTags } from '../../stores/tags';
import { usePagePending } from './pagePending';

export function keepAliveKey(handle: RouteHandle | undefined): string | null {
  const meta = handle?.route?.meta;
  return meta?.keepAlive && !meta.noCache ? handle!.route!.fullPath : null;
}

export function KeepAliveOutlet() {
  const outlet = useOutlet();
  const matches = useMatches();
  const location = useLocation();
  const views = useTags((s) => s.views);
  const dropped = useTags((s) => s.dropped);
  const undrop = useTags((s) => s.undrop);
  const cache = useRef(new Map<string, ReactNode>());

  const current = keepAliveKey(matches[matches.length - 1]?.handle as RouteHandle | undefined);
  const open = new Set(views.filter((v) => v.keepAlive).map((v) => v.path));

  // The location whose page may render; a new one waits for a painted frame first (a page kept
  // alive and already mounted is only shown again, at once).
  const [shown, setShown] = useState(location.key);
  const waiting = location.key !== shown && !(current && cache.current.has(current));
  const setPending = usePagePending((s) => s.set);
  useLayoutEffect(() => setPending(waiting), [waiting, setPending]);
  useEffect(() => {
    if (location.key === shown) return;
    if (!waiting) return setShown(location.key);
    let timer = 0;
    const frame = requestAnimationFrame(() => {
      // After the frame is painted: the next task renders the page.
      timer = window.setTimeout(() => startTransition(() => setShown(location.key)));
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [location.key, shown, waiting]);

  for (const key of [...cache.current.keys()]) {
    const refreshed = dropped.includes(key) && key !== current;
    if (refreshed || (key !== current && !open.has(key))) cache.current.delete(key);
  }
  if (current && !waiting && !cache.current.has(current)) cache.current.set(current, outlet);

  useEffect(() => {
    for (const key of dropped) if (key !== current) undrop(key);
  }, [dropped, current, undrop]);

  return (
    <>
      {[...cache.current.entries()].map(([key, element]) => (
        <div key={key} style={{ display: key === current ? 'block' : 'none', height: '100%' }} data-keep-alive={key}>
          {element}
        </div>
      ))}
      {waiting ? (
        <div className="wt-page-pending" data-testid="page-pending">
          <Spin />
        </div>
      ) : null}
      {current || waiting ? null : (
        <div key={`page:${location.pathname}`} style={{ height: '100%' }}>
          {outlet}
        </div>
      )}
    </>
  );
}
