// Re-renders a React view when a store outside React changed, at most every `ms` milliseconds
// however many changes arrive (the live device list, the inner map's floor counts and card): the map
// layers follow their stores directly, text does not need 60 updates a second. A change for which
// `immediate` answers true (a whole reload) is shown at once.
import { useEffect, useState } from 'react';

export interface VersionedStore<C> {
  readonly version: number;
  subscribe(listener: (changed: C) => void): () => void;
}

export function useThrottledVersion<C>(store: VersionedStore<C>, ms: number, immediate?: (changed: C) => boolean): number {
  const [version, setVersion] = useState(store.version);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const unsubscribe = store.subscribe((changed) => {
      const now = immediate?.(changed) ?? false;
      if (timer !== undefined && !now) return;
      clearTimeout(timer);
      timer = setTimeout(
        () => {
          timer = undefined;
          last = Date.now();
          setVersion(store.version);
        },
        now ? 0 : Math.max(0, last + ms - Date.now()),
      );
    });
    return () => {
      unsubscribe();
      clearTimeout(timer);
    };
  }, [store, ms, immediate]);
  return version;
}
