// An indoor track on the plan's SVG overlay: the parts of the track on the floor shown (a track
// that leaves the floor and comes back is drawn as separate runs, never joined across floors), its
// ends, and the point the playback has reached.
import { PlanMarker } from '../../../indoor/PlanView';

export type TrackPoint = { FloorId: number; X: number; Y: number };

/** Consecutive points on `floorId`, as runs of [x, y] in plan metres. */
export function runsOnFloor(points: readonly TrackPoint[], floorId: number): [number, number][][] {
  const runs: [number, number][][] = [];
  let run: [number, number][] | null = null;
  for (const p of points) {
    if (p.FloorId !== floorId) {
      run = null;
      continue;
    }
    if (!run) runs.push((run = []));
    run.push([p.X, p.Y]);
  }
  return runs;
}

export function TrackMarks({ points, floorId, current }: { points: readonly TrackPoint[]; floorId: number; current: number | null }) {
  const runs = runsOnFloor(points, floorId);
  const first = points[0];
  const last = points[points.length - 1];
  const at = current === null ? undefined : points[current];
  return (
    <g data-testid="track" data-runs={runs.length} pointerEvents="none">
      {runs.map((r, k) => (
        <polyline
          key={k}
          points={r.map(([x, y]) => `${x},${y}`).join(' ')}
          fill="none"
          stroke="#1677ff"
          strokeWidth={3}
          strokeOpacity={0.8}
          strokeLinejoin="round"
          vectorEffect="non-scaling-stroke"
        />
      ))}
      {first && first.FloorId === floorId && (
        <PlanMarker at={[first.X, first.Y]}>
          <circle r={6} fill="#52c41a" stroke="#fff" strokeWidth={2} />
        </PlanMarker>
      )}
      {last && last.FloorId === floorId && (
        <PlanMarker at={[last.X, last.Y]}>
          <circle r={6} fill="#f5222d" stroke="#fff" strokeWidth={2} />
        </PlanMarker>
      )}
      {at && at.FloorId === floorId && (
        <PlanMarker at={[at.X, at.Y]} data-testid="track-current">
          <circle r={9} fill="#1677ff" fillOpacity={0.25} />
          <circle r={5} fill="#1677ff" stroke="#fff" strokeWidth={2} />
        </PlanMarker>
      )}
    </g>
  );
}
