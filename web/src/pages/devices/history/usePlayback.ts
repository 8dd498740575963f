// History playback (SPEC §4): idle, playing, paused, finished; faster and slower.
import { useCallback, useEffect, useRef, useState } from 'react';

export type PlaybackState = 'idle' | 'playing' | 'paused' | 'finished';
export const SPEEDS = [1, 2, 4, 8, 16, 32] as const;
const TICK_MS = 250;

export function usePlayback(length: number) {
  const [state, setState] = useState<PlaybackState>('idle');
  const [index, setIndex] = useState(0);
  const [speed, setSpeed] = useState(2);
  const idx = useRef(0);

  useEffect(() => {
    setState('idle');
    setIndex(0);
    idx.current = 0;
  }, [length]);

  useEffect(() => {
    if (state !== 'playing') return;
    const id = window.setInterval(() => {
      // A long path plays in about a minute at 1x, whatever its length.
      const step = Math.max(1, Math.round((length / 240) * SPEEDS[speed]!) / 4) | 0 || 1;
      const next = Math.min(length - 1, idx.current + step);
      idx.current = next;
      setIndex(next);
      if (next >= length - 1) setState('finished');
    }, TICK_MS);
    return () => window.clearInterval(id);
  }, [state, speed, length]);

  const toggle = useCallback(() => {
    if (!length) return;
    setState((s) => {
      if (s === 'playing') return 'paused';
      if (s === 'finished' || s === 'idle') {
        idx.current = 0;
        setIndex(0);
      }
      return 'playing';
    });
  }, [length]);

  const seek = useCallback((i: number) => {
    idx.current = i;
    setIndex(i);
    setState((s) => (s === 'finished' && i < length - 1 ? 'paused' : s === 'idle' ? 'paused' : s));
  }, [length]);

  return {
    state,
    index,
    speed: SPEEDS[speed]!,
    toggle,
    seek,
    faster: () => setSpeed((s) => Math.min(SPEEDS.length - 1, s + 1)),
    slower: () => setSpeed((s) => Math.max(0, s - 1)),
  };
}
