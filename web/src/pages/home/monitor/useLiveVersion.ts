// Re-renders a React view when the live devices changed, at most every `ms` (lists do not need
// 60 updates a second; the map layer follows the store directly).
import { useEffect, useState } from 'react';
import type { DeviceStore } from '../../../map/deviceStore';

export function useLiveVersion(store: DeviceStore, ms = 2000): number {
  const [version, setVersion] = useState(store.version);
  useEffect(() => {
    let timer: number | undefined;
    let last = 0;
    const unsubscribe = store.subscribe((changed) => {
      const wait = changed === 'all' ? 0 : Math.max(0, ms - (Date.now() - last));
      if (timer !== undefined && changed !== 'all') return;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        timer = undefined;
        last = Date.now();
        setVersion(store.version);
      }, wait);
    });
    return () => {
      unsubscribe();
      window.clearTimeout(timer);
    };
  }, [store, ms]);
  return version;
}
