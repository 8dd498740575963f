// Presence of devices in locations, pure (no I/O). A location is a zone on a floor plan (a polygon
// in plan metres) or the set of beacons whose hearing means "here". Each device's side of each
// location is debounced with the dwell rule (rules/dwell.ts): entering needs `enter` (N positions
// inside or a dwell time), leaving a zone `leave` (N positions outside or a time outside); a
// beacon-defined location is left when none of its beacons has heard the device for
// `beaconTimeoutMs` (hearings elsewhere say nothing: a tag heard by several gateways at once would
// otherwise flap). A device never seen is outside, so the first confirmed entry raises its alarm.
//
// Only sides that differ from "outside, nothing pending" are kept, so 20 000 tags walking past
// 50 locations hold memory only for those inside or at a doorway.
import pointInPolygon from 'point-in-polygon-hao';
import { dwellStep, type DwellConfig, type DwellState } from './dwell.js';

export interface TrackedLocation {
  id: number;
  kind: 'zone' | 'beacons';
  floorId?: number;
  /** Zone: closed ring of [x, y] plan metres. */
  ring?: number[][];
  /** Beacons: the anchor keys (MAC or uuid:major:minor) whose hearing means inside. */
  keys?: Set<string>;
}

/** One thing a device said about where it is. */
export type Sample =
  | { kind: 'position'; time: number; floorId: number | null; x: number | null; y: number | null }
  | { kind: 'heard'; time: number; keys: string[] };

export interface PresenceChange {
  locationId: number;
  deviceId: number;
  /** The state to keep (null: back to "outside, nothing pending": forget it). */
  state: DwellState | null;
  /** A confirmed entry or exit, dated by its first sample on the new side. */
  crossing: { inside: boolean; time: number } | null;
}

export interface PresenceConfig {
  enter: DwellConfig;
  leave: DwellConfig;
  beaconTimeoutMs: number;
}

const OUTSIDE: DwellState = { inside: false, since: 0, time: Number.NEGATIVE_INFINITY, pendingSince: null, pendingCount: 0 };
const resting = (s: DwellState) => !s.inside && s.pendingSince === null;

export function closeRing(points: [number, number][]): number[][] {
  const ring = points.map(([x, y]) => [x, y]);
  const a = ring[0];
  const b = ring[ring.length - 1];
  return a && b && (a[0] !== b[0] || a[1] !== b[1]) ? [...ring, a] : ring;
}

export function insideZone(loc: TrackedLocation, floorId: number | null, x: number | null, y: number | null): boolean {
  if (loc.kind !== 'zone' || floorId === null || x === null || y === null || floorId !== loc.floorId || !loc.ring) return false;
  return pointInPolygon([x, y], [loc.ring]) !== false;
}

export class PresenceTracker {
  /** `${locationId}:${deviceId}` -> state, only when inside or pending. */
  readonly states = new Map<string, DwellState>();

  constructor(private readonly cfg: PresenceConfig) {}

  /** Folds one sample of a device into its side of each location given; answers what changed. */
  observe(deviceId: number, locations: readonly TrackedLocation[], sample: Sample): PresenceChange[] {
    const out: PresenceChange[] = [];
    for (const loc of locations) {
      let inside: boolean;
      if (loc.kind === 'zone') {
        if (sample.kind !== 'position') continue;
        inside = insideZone(loc, sample.floorId, sample.x, sample.y);
      } else {
        // Only hearings by its own beacons say anything about a beacon-defined location.
        if (sample.kind !== 'heard' || !sample.keys.some((k) => loc.keys?.has(k))) continue;
        inside = true;
      }
      const key = `${loc.id}:${deviceId}`;
      const prev = this.states.get(key) ?? OUTSIDE;
      if (!inside && resting(prev)) continue;
      const r = dwellStep(prev, inside, sample.time, prev.inside ? this.cfg.leave : this.cfg.enter);
      if (r.stale) continue;
      const changed = r.crossing !== null || r.state.pendingSince !== prev.pendingSince || r.state.pendingCount !== prev.pendingCount;
      if (resting(r.state)) this.states.delete(key);
      else this.states.set(key, r.state);
      if (changed)
        out.push({ locationId: loc.id, deviceId, state: resting(r.state) ? null : r.state, crossing: r.crossing ? { inside: r.crossing.inside, time: r.crossing.time } : null });
    }
    return out;
  }

  /**
   * Beacon-defined locations: devices inside (or entering) that none of its beacons heard for the
   * timeout leave it, dated by their last hearing.
   */
  expire(now: number, beaconLocations: ReadonlySet<number>): PresenceChange[] {
    const out: PresenceChange[] = [];
    for (const [key, s] of this.states) {
      const [loc, dev] = key.split(':').map(Number) as [number, number];
      if (!beaconLocations.has(loc) || now - s.time < this.cfg.beaconTimeoutMs) continue;
      this.states.delete(key);
      out.push({ locationId: loc, deviceId: dev, state: null, crossing: s.inside ? { inside: false, time: s.time } : null });
    }
    return out;
  }

  /** A location removed or changed: its sides are forgotten. */
  forgetLocation(id: number) {
    for (const key of this.states.keys()) if (key.startsWith(`${id}:`)) this.states.delete(key);
  }
}
