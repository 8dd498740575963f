// The anchors of a floor on the plan's SVG overlay: BLE beacons as circles, UWB anchors as squares,
// AOA locators as triangles with an arrow along their heading (degrees clockwise on screen from the
// plan's +x axis). Invalid anchors are grey. Markers keep their size at any zoom (PlanMarker).
import type { scene } from '@wt/contract';
import { PlanMarker } from '../../../indoor/PlanView';

export const ANCHOR_COLORS: Record<number, string> = { 1: '#1677ff', 2: '#722ed1', 3: '#fa8c16' };
const INVALID = '#bfbfbf';

export function AnchorMarks({ anchors }: { anchors: readonly scene.Anchor[] }) {
  return (
    <g data-testid="anchors" pointerEvents="none">
      {anchors.map((a) => {
        const color = a.State === 1 ? (ANCHOR_COLORS[a.Type] ?? INVALID) : INVALID;
        return (
          <PlanMarker key={a.BeaconId} at={[a.X, a.Y]} data-anchor={a.BeaconId} data-type={a.Type} data-state={a.State}>
            <title>{a.Name}</title>
            {a.Type === 2 ? (
              <rect x={-5} y={-5} width={10} height={10} fill="#fff" stroke={color} strokeWidth={2.5} />
            ) : a.Type === 3 ? (
              <>
                <g transform={`rotate(${a.Heading})`}>
                  <line x1={0} y1={0} x2={26} y2={0} stroke={color} strokeWidth={2} />
                  <path d="M26,-5 L34,0 L26,5 Z" fill={color} />
                </g>
                <path d="M0,-7 L6.5,5 L-6.5,5 Z" fill="#fff" stroke={color} strokeWidth={2.5} strokeLinejoin="round" />
              </>
            ) : (
              <circle r={5} fill="#fff" stroke={color} strokeWidth={2.5} />
            )}
          </PlanMarker>
        );
      })}
    </g>
  );
}
