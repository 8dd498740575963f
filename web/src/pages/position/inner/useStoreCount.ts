// The number of tags the indoor store knows, as React state.
import { useEffect, useState } from 'react';
import type { IndoorStore } from '../../../indoor/live/indoorStore';

/** The number of tags the store knows: re-renders only when a tag is first seen (not for moves). */
export function useStoreCount(store: IndoorStore): number {
  const [count, setCount] = useState(store.count);
  useEffect(() => store.subscribe(() => setCount(store.count)), [store]);
  return count;
}
