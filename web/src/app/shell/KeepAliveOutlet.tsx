// Keeps the pages whose route asks for it (meta.keepAlive) mounted while other tags are shown,
// hidden, and drops them when their tag closes or is refreshed.
import { useEffect, useRef, type ReactNode } from 'react';
import { useLocation, useMatches, useOutlet } from 'react-router';
import type { RouteHandle } from '../router';
import { useTags } from '../../stores/tags';

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

  for (const key of [...cache.current.keys()]) {
    const refreshed = dropped.includes(key) && key !== current;
    if (refreshed || (key !== current && !open.has(key))) cache.current.delete(key);
  }
  if (current && !cache.current.has(current)) cache.current.set(current, outlet);

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
      {current ? null : (
        <div key={`page:${location.pathname}`} style={{ height: '100%' }}>
          {outlet}
        </div>
      )}
    </>
  );
}
