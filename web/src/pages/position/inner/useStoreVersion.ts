// React views of the IndoorStore (floor counts, the card, the search) re-render at most every
// `ms` milliseconds, however many realtime batches arrive: the canvas follows every batch, text
// does not need to.
import { useEffect, useState } from 'react';
import type { IndoorStore } from '../../../indoor/live/indoorStore';

export function useStoreVersion(store: IndoorStore, ms = 500): number {
  const [version, setVersion] = useState(store.version);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = 0;
    const unsubscribe = store.subscribe(() => {
      if (timer) return;
      const wait = Math.max(0, last + ms - Date.now());
      timer = setTimeout(() => {
        timer = undefined;
        last = Date.now();
        setVersion(store.version);
      }, wait);
    });
    return () => {
      unsubscribe();
      if (timer) clearTimeout(timer);
    };
  }, [store, ms]);
  return version;
}

/** The number of tags the store knows: re-renders only when a tag is first seen (not for moves). */
export function useStoreCount(store: IndoorStore): number {
  const [count, setCount] = useState(store.count);
  useEffect(() => store.subscribe(() => setCount(store.count)), [store]);
  return count;
}
