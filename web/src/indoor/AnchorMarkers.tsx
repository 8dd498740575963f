// Anchors drawn on a PlanView (children of it): a BLE beacon as a blue circle, a UWB anchor as a
// purple square, an AOA locator as an orange triangle with an arrow along its Heading (degrees
// clockwise on screen from the plan's +x axis); an invalid anchor is grey and dashed. Markers keep
// their size on screen whatever the zoom. With `editable`, a marker is dragged to move the anchor
// and an AOA arrow's tip is dragged to turn it; a click (no drag) selects.
import { useState } from 'react';
import { PlanMarker, usePlan, usePlanDrag } from './PlanView';
import type { Point } from './planTransform';

/** What a marker needs of an anchor (the contract's Anchor has more). */
export interface AnchorMark {
  BeaconId: number;
  Name: string;
  Type: number;
  State: number;
  X: number;
  Y: number;
  Heading: number;
}

export const ANCHOR_COLOURS: Record<number, string> = { 1: '#1677ff', 2: '#722ed1', 3: '#fa8c16' };
const INVALID = '#8c8c8c';
/** An AOA arrow's length, screen pixels. */
const ARROW_PX = 42;

/** The unit vector of a heading in plan axes (x right, y down): clockwise on screen from +x. */
export function headingVector(deg: number): [number, number] {
  const r = (deg * Math.PI) / 180;
  return [Math.cos(r), Math.sin(r)];
}

/** The heading (degrees in (-180, 180]) of the direction from `a` to `b` in plan axes. */
export function headingBetween(a: Point, b: Point): number {
  const deg = (Math.atan2(b[1] - a[1], b[0] - a[0]) * 180) / Math.PI;
  return deg === -180 ? 180 : deg;
}

function Shape({ type, colour, selected, dashed }: { type: number; colour: string; selected: boolean; dashed: boolean }) {
  const stroke = selected ? '#000' : '#fff';
  const common = { fill: colour, stroke, strokeWidth: selected ? 2.5 : 1.5, strokeDasharray: dashed ? '3 2' : undefined };
  if (type === 2) return <rect x={-7} y={-7} width={14} height={14} rx={2} {...common} />;
  if (type === 3) return <polygon points="0,-9 8,6 -8,6" {...common} />;
  return <circle r={7} {...common} />;
}

function Marker({
  anchor,
  selected,
  editable,
  showHeading,
  onSelect,
  onMove,
  onTurn,
}: {
  anchor: AnchorMark;
  selected: boolean;
  editable: boolean;
  showHeading: boolean;
  onSelect?: (a: AnchorMark) => void;
  onMove?: (a: AnchorMark, at: [number, number]) => unknown;
  onTurn?: (a: AnchorMark, heading: number) => unknown;
}) {
  const plan = usePlan();
  // Where it is shown while dragged (the stored position until the server has the new one).
  const [moving, setMoving] = useState<[number, number] | null>(null);
  const [turning, setTurning] = useState<number | null>(null);
  const at: Point = moving ?? [anchor.X, anchor.Y];
  const heading = turning ?? anchor.Heading;
  const drag = usePlanDrag({
    at,
    disabled: !editable || !onMove,
    onDrag: setMoving,
    // Shown at the drop until the save (and the list asked again) is over, then where the server has it.
    onDrop: (p) => {
      setMoving(p);
      void Promise.resolve(onMove?.(anchor, p)).finally(() => setMoving(null));
    },
    onClick: () => onSelect?.(anchor),
  });
  const len = ARROW_PX * plan.transform.metresPerScreenPixel;
  const [hx, hy] = headingVector(heading);
  const tip: Point = [at[0] + hx * len, at[1] + hy * len];
  const turn = usePlanDrag({
    at: tip,
    disabled: !editable || !onTurn,
    onDrag: (p) => setTurning(headingBetween(at, p)),
    onDrop: (p) => {
      const h = Number(headingBetween(at, p).toFixed(1));
      setTurning(h);
      void Promise.resolve(onTurn?.(anchor, h)).finally(() => setTurning(null));
    },
  });
  const colour = anchor.State === 1 ? (ANCHOR_COLOURS[anchor.Type] ?? '#1677ff') : INVALID;
  return (
    <g data-testid={`anchor-${anchor.BeaconId}`} data-type={anchor.Type} data-state={anchor.State}>
      {showHeading && anchor.Type === 3 ? (
        <>
          <line
            x1={at[0]}
            y1={at[1]}
            x2={tip[0]}
            y2={tip[1]}
            stroke={colour}
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
            data-testid={`anchor-heading-${anchor.BeaconId}`}
          />
          <PlanMarker at={tip} {...turn} style={{ cursor: editable && onTurn ? 'grab' : 'default' }} data-testid={`anchor-heading-handle-${anchor.BeaconId}`}>
            <g transform={`rotate(${heading})`}>
              <polygon points="2,0 -8,-5 -8,5" fill={colour} stroke="#fff" strokeWidth={1} />
            </g>
            {/* A wider invisible target for the pointer. */}
            <circle r={9} fill="transparent" />
          </PlanMarker>
        </>
      ) : null}
      <PlanMarker at={at} {...drag} data-testid={`anchor-marker-${anchor.BeaconId}`}>
        <Shape type={anchor.Type} colour={colour} selected={selected} dashed={anchor.State !== 1} />
        <text
          x={10}
          y={4}
          fontSize={12}
          fill="#262626"
          stroke="#fff"
          strokeWidth={3}
          paintOrder="stroke"
          style={{ pointerEvents: 'none' }}
        >
          {anchor.Name}
        </text>
      </PlanMarker>
    </g>
  );
}

export interface AnchorMarkersProps {
  anchors: readonly AnchorMark[];
  selectedId?: number | null;
  /** Markers can be dragged (moving anchors, turning AOA locators). */
  editable?: boolean;
  /** AOA arrows; default true. */
  showHeading?: boolean;
  onSelect?: (a: AnchorMark) => void;
  /** An anchor dropped at a new place (plan metres); a promise keeps it shown there until it settles. */
  onMove?: (a: AnchorMark, at: [number, number]) => unknown;
  /** An AOA locator turned to a new heading (degrees); a promise as for `onMove`. */
  onTurn?: (a: AnchorMark, heading: number) => unknown;
}

export function AnchorMarkers(props: AnchorMarkersProps) {
  return (
    <g data-testid="anchor-markers">
      {props.anchors.map((a) => (
        <Marker
          key={a.BeaconId}
          anchor={a}
          selected={props.selectedId === a.BeaconId}
          editable={!!props.editable}
          showHeading={props.showHeading ?? true}
          onSelect={props.onSelect}
          onMove={props.onMove}
          onTurn={props.onTurn}
        />
      ))}
    </g>
  );
}
