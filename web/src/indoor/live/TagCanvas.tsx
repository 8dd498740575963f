// The live tags of one floor as a single canvas over the plan. It draws in requestAnimationFrame
// only when something changed (a realtime batch, the view, a toggle), while a glide is under way,
// and at each SOS blink; an idle floor costs nothing. Batches never re-render this component: it
// listens to the IndoorStore directly.
import { useEffect, useRef } from 'react';
import type { IndoorStore } from './indoorStore';
import { drawTags, type ScreenTransform } from './tagLayer';

/** SOS tags blink twice a second. */
export const BLINK_MS = 500;

export interface TagCanvasProps {
  store: IndoorStore;
  sceneId: number;
  floorId: number;
  transform: ScreenTransform;
  width: number;
  height: number;
  accuracy: boolean;
  labels: boolean;
  selectedId: number | null;
}

export function TagCanvas(props: TagCanvasProps) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const wake = useRef<() => void>(() => undefined);

  useEffect(() => {
    const el = canvas.current;
    let g: CanvasRenderingContext2D | null = null;
    try {
      g = el?.getContext('2d') ?? null;
    } catch {
      g = null;
    }
    if (!el || !g) return;
    let frame = 0;
    let dirty = true;
    let sos = 0;
    let lastBlink = -1;
    let size = { w: 0, h: 0, dpr: 0 };
    const draw = () => {
      frame = 0;
      const p = latest.current;
      const now = performance.now();
      const blink = Math.floor(now / BLINK_MS) % 2;
      const gliding = p.store.moving(now);
      if (!dirty && !gliding && !(sos > 0 && blink !== lastBlink)) return;
      dirty = false;
      lastBlink = blink;
      const dpr = window.devicePixelRatio || 1;
      if (size.w !== p.width || size.h !== p.height || size.dpr !== dpr) {
        size = { w: p.width, h: p.height, dpr };
        el.width = Math.max(1, Math.round(p.width * dpr));
        el.height = Math.max(1, Math.round(p.height * dpr));
      }
      g.setTransform(dpr, 0, 0, dpr, 0, 0);
      const r = drawTags(g, p.store, {
        sceneId: p.sceneId,
        floorId: p.floorId,
        transform: p.transform,
        width: p.width,
        height: p.height,
        now,
        accuracy: p.accuracy,
        labels: p.labels,
        selectedId: p.selectedId,
        blinkOn: blink === 0,
      });
      sos = r.sos;
      // Keep going while tags glide or SOS tags blink.
      if (gliding || sos > 0) frame = requestAnimationFrame(draw);
    };
    const schedule = () => {
      dirty = true;
      if (!frame) frame = requestAnimationFrame(draw);
    };
    wake.current = schedule;
    const unsubscribe = props.store.subscribe(schedule);
    schedule();
    return () => {
      unsubscribe();
      if (frame) cancelAnimationFrame(frame);
      wake.current = () => undefined;
    };
  }, [props.store]);

  // A new view, floor or toggle: one more frame.
  useEffect(() => {
    wake.current();
  }, [props.sceneId, props.floorId, props.transform, props.width, props.height, props.accuracy, props.labels, props.selectedId]);

  return (
    <canvas
      ref={canvas}
      data-testid="tag-layer"
      style={{ position: 'absolute', left: 0, top: 0, width: props.width, height: props.height, pointerEvents: 'none' }}
    />
  );
}
