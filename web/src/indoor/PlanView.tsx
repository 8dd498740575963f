// The floor-plan viewer every indoor page uses (floors' scale tool, anchors, AOA, the live inner
// map): the plan PNG fitted to its container, wheel zoom around the pointer, drag to pan, and an
// SVG overlay in plan metres where the page draws its items. Pointer events come back in plan
// metres and image pixels; items can be dragged. The maths is in `planTransform.ts`.
//
// API
// - `<PlanView planUrl width height metresPerPixel ...>`:
//   - `planUrl`, `width`, `height`: the plan image and its pixel size (a floor's PlanUrl, Width,
//     Height). `metresPerPixel`: the floor's scale; null while none is set, then one metre is one
//     pixel (`UNSCALED`) and `PlanPointer.scaled` is false.
//   - `children`: SVG elements drawn in plan metres (inside a `<g>` carrying the transform), or a
//     function `(ctx: PlanContext) => ReactNode` of the current transform. `<PlanMarker at>` draws
//     its children in screen pixels around a point given in metres (icons and labels that keep
//     their size whatever the zoom); `vectorEffect="non-scaling-stroke"` keeps lines thin.
//   - `layers(ctx)`: extra HTML layers (a canvas, a WebGL canvas) stacked over the image and the
//     SVG overlay, absolutely positioned over the whole viewer; draw with `ctx.transform` (plan
//     metres -> screen pixels, `matrix` for canvas `setTransform`). Give them
//     `pointer-events: none` unless they handle the pointer themselves.
//   - `onPlanClick(p)`, `onPlanPointerMove(p)`: a click (no drag) on the plan, the pointer moving
//     over it, as `PlanPointer` (metres, image pixels, screen pixels).
//   - `onViewChange(transform, view)`: after every zoom, pan, fit or resize.
//   - `ref`: `PlanViewHandle` with `fit()`, `zoomBy(factor)`, `centerOn(metres, zoom?)`,
//     `transform()`, `view()`.
//   - `cursor`: the CSS cursor over the plan (a tool's crosshair); `height`: the viewer's height
//     (default 100% of its parent); `testId` (default `plan-view`).
// - `usePlan()`: the `PlanContext` inside the overlay (children of `PlanView`).
// - `usePlanDrag({ at, onDrag, onDrop, onClick })`: pointer handlers that make an SVG item
//   draggable in plan metres (`onDrag` while moving, `onDrop` at the end, `onClick` when it was not
//   moved); the viewer does not pan while an item is dragged.
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type PointerEvent as ReactPointerEvent,
  type ReactNode,
  type Ref,
  type SVGProps,
} from 'react';
import { Button, Empty, Tooltip } from 'antd';
import { CompressOutlined, MinusOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  MAX_ZOOM_FACTOR,
  MIN_ZOOM_FACTOR,
  fitView,
  metresToScreen,
  panBy,
  planTransform,
  scaleOf,
  screenToImage,
  screenToMetres,
  wheelFactor,
  zoomAt,
  type PlanTransform,
  type Point,
  type View,
} from './planTransform';

/** A pointer position on the plan in the three frames. */
export interface PlanPointer {
  /** Plan metres (pixels × the scale; pixels when the floor has no scale yet). */
  metres: [number, number];
  /** Image pixels. */
  pixels: [number, number];
  /** Screen pixels from the viewer's top-left corner. */
  screen: [number, number];
  /** False while the floor has no scale (metres are then pixels). */
  scaled: boolean;
}

/** What the overlay's children and the layers see. */
export interface PlanContext {
  transform: PlanTransform;
  view: View;
  /** The scale in force (the floor's, or 1 while none is set). */
  metresPerPixel: number;
  scaled: boolean;
  /** The viewer's size in screen pixels. */
  size: { width: number; height: number };
  toScreen: (metres: Point) => [number, number];
  /** Client (event) coordinates to a plan pointer. */
  fromClient: (clientX: number, clientY: number) => PlanPointer;
}

export interface PlanViewHandle {
  /** Shows the whole plan. */
  fit: () => void;
  /** Zooms around the viewer's centre. */
  zoomBy: (factor: number) => void;
  /** Puts a point (plan metres) in the middle, at `zoom` screen pixels per image pixel when given. */
  centerOn: (metres: Point, zoom?: number) => void;
  transform: () => PlanTransform | null;
  view: () => View | null;
}

export interface PlanViewProps {
  planUrl: string | null | undefined;
  width: number;
  height: number;
  metresPerPixel: number | null | undefined;
  children?: ReactNode | ((ctx: PlanContext) => ReactNode);
  layers?: (ctx: PlanContext) => ReactNode;
  onPlanClick?: (p: PlanPointer) => void;
  onPlanPointerMove?: (p: PlanPointer) => void;
  onViewChange?: (transform: PlanTransform, view: View) => void;
  cursor?: CSSProperties['cursor'];
  /** The viewer's CSS height; default 100% (the parent sets it). */
  viewerHeight?: CSSProperties['height'];
  testId?: string;
  ref?: Ref<PlanViewHandle>;
}

const PlanCtx = createContext<PlanContext | null>(null);

/** The plan context inside a `PlanView`'s overlay. */
export function usePlan(): PlanContext {
  const ctx = useContext(PlanCtx);
  if (!ctx) throw new Error('usePlan is used outside a PlanView');
  return ctx;
}

/** A pointer moving less than this (screen pixels) between down and up is a click, not a drag. */
const CLICK_SLOP = 4;

export function PlanView(props: PlanViewProps) {
  const { t } = useTranslation('scene');
  const box = useRef<HTMLDivElement>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  const [view, setView] = useState<View | null>(null);
  // The fitted zoom of the current plan and size: the zoom limits are relative to it.
  const fitted = useMemo(() => fitView(props.width, props.height, size.width, size.height), [props.width, props.height, size]);
  // Until the user zooms or pans, the view follows the container's size (fitted again).
  const touched = useRef(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  // A new plan (or its size) is shown whole.
  useEffect(() => {
    touched.current = false;
    setFailed(false);
  }, [props.planUrl, props.width, props.height]);
  useEffect(() => {
    if (!touched.current) setView(fitted);
  }, [fitted]);

  const mpp = scaleOf(props.metresPerPixel);
  const scaled = mpp === props.metresPerPixel;
  const shownView = view ?? fitted;
  const transform = useMemo(() => planTransform(shownView, mpp), [shownView, mpp]);

  const onViewChange = props.onViewChange;
  useEffect(() => {
    onViewChange?.(transform, shownView);
  }, [transform, shownView, onViewChange]);

  const fromClient = useCallback(
    (clientX: number, clientY: number): PlanPointer => {
      const r = box.current?.getBoundingClientRect();
      const screen: [number, number] = [clientX - (r?.left ?? 0), clientY - (r?.top ?? 0)];
      return {
        screen,
        pixels: screenToImage(shownView, screen),
        metres: screenToMetres(shownView, mpp, screen),
        scaled,
      };
    },
    [shownView, mpp, scaled],
  );

  const ctx = useMemo<PlanContext>(
    () => ({
      transform,
      view: shownView,
      metresPerPixel: mpp,
      scaled,
      size,
      toScreen: (m) => metresToScreen(shownView, mpp, m),
      fromClient,
    }),
    [transform, shownView, mpp, scaled, size, fromClient],
  );

  const limits = useCallback(
    (): [number, number] => [fitted.zoom * MIN_ZOOM_FACTOR, fitted.zoom * MAX_ZOOM_FACTOR],
    [fitted],
  );
  const change = useCallback((next: (v: View) => View) => {
    touched.current = true;
    setView((v) => next(v ?? fitted));
  }, [fitted]);

  useImperativeHandle(
    props.ref,
    () => ({
      fit: () => {
        touched.current = false;
        setView(fitted);
      },
      zoomBy: (factor) => change((v) => zoomAt(v, factor, [size.width / 2, size.height / 2], ...limits())),
      centerOn: (m, zoom) =>
        change((v) => {
          const z = zoom ?? v.zoom;
          return { zoom: z, offsetX: size.width / 2 - (m[0] / mpp) * z, offsetY: size.height / 2 - (m[1] / mpp) * z };
        }),
      transform: () => transform,
      view: () => shownView,
    }),
    [fitted, change, size, limits, mpp, transform, shownView],
  );

  // The wheel zooms around the pointer; React's wheel listener is passive, so the page would
  // scroll too: a native one that may prevent it.
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const r = el.getBoundingClientRect();
      const anchor: Point = [e.clientX - r.left, e.clientY - r.top];
      change((v) => zoomAt(v, wheelFactor(e.deltaY, e.deltaMode), anchor, ...limits()));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => el.removeEventListener('wheel', onWheel);
  }, [change, limits]);

  // Dragging the background pans; a press without movement is a click on the plan.
  const pan = useRef<{ id: number; x: number; y: number; view: View; moved: boolean } | null>(null);
  const [panning, setPanning] = useState(false);
  const onPointerDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.button !== 0) return;
    pan.current = { id: e.pointerId, x: e.clientX, y: e.clientY, view: shownView, moved: false };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  };
  const onPointerMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    const p = pan.current;
    if (p && p.id === e.pointerId) {
      const dx = e.clientX - p.x;
      const dy = e.clientY - p.y;
      if (!p.moved && Math.hypot(dx, dy) >= CLICK_SLOP) {
        p.moved = true;
        setPanning(true);
      }
      if (p.moved) {
        touched.current = true;
        setView(panBy(p.view, dx, dy));
      }
    }
    props.onPlanPointerMove?.(fromClient(e.clientX, e.clientY));
  };
  const onPointerUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    const p = pan.current;
    if (!p || p.id !== e.pointerId) return;
    pan.current = null;
    setPanning(false);
    e.currentTarget.releasePointerCapture?.(e.pointerId);
    if (!p.moved) props.onPlanClick?.(fromClient(e.clientX, e.clientY));
  };

  const children = typeof props.children === 'function' ? props.children(ctx) : props.children;
  const [a, b, c, d, e, f] = transform.matrix;

  return (
    <div
      ref={box}
      data-testid={props.testId ?? 'plan-view'}
      data-scaled={scaled ? 'true' : 'false'}
      className="wt-plan-view"
      style={{
        position: 'relative',
        overflow: 'hidden',
        height: props.viewerHeight ?? '100%',
        minHeight: 240,
        background: '#f5f5f5',
        cursor: panning ? 'grabbing' : (props.cursor ?? 'grab'),
        touchAction: 'none',
        userSelect: 'none',
      }}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={() => {
        pan.current = null;
        setPanning(false);
      }}
    >
      {props.planUrl && !failed ? (
        <img
          src={props.planUrl}
          alt=""
          draggable={false}
          onError={() => setFailed(true)}
          style={{
            position: 'absolute',
            left: 0,
            top: 0,
            width: props.width,
            height: props.height,
            maxWidth: 'none',
            transformOrigin: '0 0',
            transform: `translate(${shownView.offsetX}px, ${shownView.offsetY}px) scale(${shownView.zoom})`,
            pointerEvents: 'none',
            imageRendering: shownView.zoom > 2 ? 'pixelated' : 'auto',
            boxShadow: '0 0 0 1px rgba(0,0,0,0.15)',
            background: '#fff',
          }}
        />
      ) : (
        <Empty
          style={{ position: 'absolute', top: '40%', left: 0, right: 0 }}
          description={failed ? t('plan.loadFailed') : t('plan.none')}
        />
      )}
      <PlanCtx.Provider value={ctx}>
        <svg
          width="100%"
          height="100%"
          style={{ position: 'absolute', inset: 0, overflow: 'visible' }}
          data-testid="plan-overlay"
        >
          <g transform={`matrix(${a} ${b} ${c} ${d} ${e} ${f})`}>{children}</g>
        </svg>
        {props.layers?.(ctx)}
      </PlanCtx.Provider>
      <div
        style={{ position: 'absolute', right: 8, top: 8, display: 'flex', flexDirection: 'column', gap: 4 }}
        onPointerDown={(ev) => ev.stopPropagation()}
      >
        <Tooltip title={t('plan.zoomIn')} placement="left">
          <Button
            size="small"
            icon={<PlusOutlined />}
            aria-label={t('plan.zoomIn')}
            onClick={() => change((v) => zoomAt(v, 1.5, [size.width / 2, size.height / 2], ...limits()))}
          />
        </Tooltip>
        <Tooltip title={t('plan.zoomOut')} placement="left">
          <Button
            size="small"
            icon={<MinusOutlined />}
            aria-label={t('plan.zoomOut')}
            onClick={() => change((v) => zoomAt(v, 1 / 1.5, [size.width / 2, size.height / 2], ...limits()))}
          />
        </Tooltip>
        <Tooltip title={t('plan.fit')} placement="left">
          <Button
            size="small"
            icon={<CompressOutlined />}
            aria-label={t('plan.fit')}
            data-testid="plan-fit"
            onClick={() => {
              touched.current = false;
              setView(fitted);
            }}
          />
        </Tooltip>
      </div>
    </div>
  );
}

/**
 * Children drawn in screen pixels around a point given in plan metres (an icon, a label): they
 * keep their size at any zoom. Other props go to the `<g>`.
 */
export function PlanMarker({ at, children, ...rest }: { at: Point; children?: ReactNode } & SVGProps<SVGGElement>) {
  const { transform } = usePlan();
  return (
    <g transform={`translate(${at[0]} ${at[1]}) scale(${transform.metresPerScreenPixel})`} {...rest}>
      {children}
    </g>
  );
}

/**
 * Makes an SVG item draggable in plan metres: spread the result on the item's element. `onDrag`
 * gets the position while moving (the item's position plus the pointer's movement), `onDrop` the
 * final one; a press without movement calls `onClick` instead. The viewer does not pan meanwhile.
 */
export function usePlanDrag(opts: {
  at: Point;
  onDrag?: (metres: [number, number]) => void;
  onDrop?: (metres: [number, number]) => void;
  onClick?: () => void;
  /** Clicks only: the item is not moved. */
  disabled?: boolean;
}): {
  onPointerDown: (e: ReactPointerEvent<Element>) => void;
  onPointerMove: (e: ReactPointerEvent<Element>) => void;
  onPointerUp: (e: ReactPointerEvent<Element>) => void;
  style: CSSProperties;
} {
  const plan = usePlan();
  // The press under way: its pointer, where it started, the item's place then, whether it moved.
  const drag = useRef<{ id: number; start: PlanPointer; at: Point; moved: boolean } | null>(null);
  const latest = useRef({ opts, plan });
  latest.current = { opts, plan };
  // The item's place now: where it was plus the pointer's movement, in plan metres.
  const where = (d: { start: PlanPointer; at: Point }, e: ReactPointerEvent<Element>): [number, number] => {
    const p = latest.current.plan.fromClient(e.clientX, e.clientY);
    return [d.at[0] + (p.metres[0] - d.start.metres[0]), d.at[1] + (p.metres[1] - d.start.metres[1])];
  };
  return {
    style: { cursor: opts.disabled ? 'pointer' : 'move' },
    onPointerDown: (e) => {
      if (e.button !== 0) return;
      // The viewer does not pan or take it as a click on the plan.
      e.stopPropagation();
      if (!opts.disabled) (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
      drag.current = { id: e.pointerId, start: plan.fromClient(e.clientX, e.clientY), at: opts.at, moved: false };
    },
    onPointerMove: (e) => {
      const d = drag.current;
      if (!d || d.id !== e.pointerId) return;
      e.stopPropagation();
      const { opts: o } = latest.current;
      if (o.disabled) return;
      const p = latest.current.plan.fromClient(e.clientX, e.clientY);
      if (!d.moved && Math.hypot(p.screen[0] - d.start.screen[0], p.screen[1] - d.start.screen[1]) >= CLICK_SLOP) d.moved = true;
      if (d.moved) o.onDrag?.(where(d, e));
    },
    onPointerUp: (e) => {
      const d = drag.current;
      if (!d || d.id !== e.pointerId) return;
      e.stopPropagation();
      drag.current = null;
      (e.currentTarget as Element).releasePointerCapture?.(e.pointerId);
      const { opts: o } = latest.current;
      if (d.moved) o.onDrop?.(where(d, e));
      else o.onClick?.();
    },
  };
}
