// People walking around a building along its walk graph: from a spot in one room to a spot in
// another (sometimes on the other floor, through the stair/lift core), at their own walking speed,
// pausing at each spot as residents and staff do. Deterministic for a seed; gives the ground truth
// (floor, x, y, room) at any time, asked in increasing time order.
import { Rng } from '../rng.js';
import { roomAt, type Building, type WalkNode } from './building.js';

export interface WalkTruth {
  floorId: string;
  x: number;
  y: number;
  /** Room, corridor, hall or stair core id. */
  roomId: string;
  moving: boolean;
}

export interface WalkerOptions {
  /** Walking speed range, m/s (default 0.5..1.4; each walker draws one). */
  speed?: [number, number];
  /** Pause at a destination spot, s (default 20..180). */
  pause?: [number, number];
  /** Chance that the next destination is on another floor (default 0.15). */
  otherFloor?: number;
}

interface Leg {
  t0: number;
  t1: number;
  a: WalkNode;
  b: WalkNode;
  /** Floor change: the walker is in the stair core the whole leg, changing floor halfway. */
  vertical: boolean;
}

/** Shortest paths over a building's walk graph (Dijkstra; the graph has a couple of hundred nodes). */
export class WalkGraph {
  readonly nodes = new Map<string, WalkNode>();
  private adj = new Map<string, { to: string; cost: number; seconds?: number }[]>();

  constructor(readonly building: Building) {
    for (const n of building.nodes) {
      this.nodes.set(n.id, n);
      this.adj.set(n.id, []);
    }
    for (const e of building.edges) {
      const a = this.nodes.get(e.a)!;
      const b = this.nodes.get(e.b)!;
      // Cost in metres; a floor change counts as its seconds at 1 m/s.
      const cost = e.seconds ?? Math.hypot(a.x - b.x, a.y - b.y);
      this.adj.get(e.a)!.push({ to: e.b, cost, seconds: e.seconds });
      this.adj.get(e.b)!.push({ to: e.a, cost, seconds: e.seconds });
    }
  }

  /** Node ids from `from` to `to`, both included; null when unreachable. */
  path(from: string, to: string): string[] | null {
    const dist = new Map<string, number>([[from, 0]]);
    const prev = new Map<string, string>();
    const done = new Set<string>();
    while (true) {
      let u: string | null = null;
      let best = Infinity;
      for (const [k, d] of dist) {
        if (!done.has(k) && d < best) {
          best = d;
          u = k;
        }
      }
      if (u === null) return null;
      if (u === to) break;
      done.add(u);
      for (const e of this.adj.get(u)!) {
        const nd = best + e.cost;
        if (nd < (dist.get(e.to) ?? Infinity)) {
          dist.set(e.to, nd);
          prev.set(e.to, u);
        }
      }
    }
    const out = [to];
    while (out[0] !== from) out.unshift(prev.get(out[0])!);
    return out;
  }

  /** Seconds of a floor-change edge between two nodes, or undefined for an ordinary edge. */
  verticalSeconds(a: string, b: string): number | undefined {
    return this.adj.get(a)!.find((e) => e.to === b)?.seconds;
  }
}

export class Walker {
  readonly speed: number;
  private rng: Rng;
  private graph: WalkGraph;
  private spots: WalkNode[];
  private legs: Leg[] = [];
  private at: WalkNode;
  private until: number;
  private o: Required<WalkerOptions>;

  constructor(building: Building | WalkGraph, seed: number, startTime: number, options: WalkerOptions = {}) {
    this.graph = building instanceof WalkGraph ? building : new WalkGraph(building);
    this.o = { speed: options.speed ?? [0.5, 1.4], pause: options.pause ?? [20, 180], otherFloor: options.otherFloor ?? 0.15 };
    this.rng = new Rng(seed);
    this.speed = this.rng.range(this.o.speed[0], this.o.speed[1]);
    this.spots = [...this.graph.nodes.values()].filter((n) => n.kind === 'spot');
    this.at = this.rng.pick(this.spots);
    this.until = startTime + this.rng.range(0, this.o.pause[1]) * 1000;
  }

  /** Ground truth at `time` (ms); times must not decrease between calls. */
  truth(time: number): WalkTruth {
    while (true) {
      if (!this.legs.length) {
        if (time < this.until) return { floorId: this.at.floorId, x: this.at.x, y: this.at.y, roomId: this.at.roomId, moving: false };
        this.plan();
        continue;
      }
      const leg = this.legs[0];
      if (time >= leg.t1) {
        this.legs.shift();
        if (!this.legs.length) {
          this.at = leg.b;
          this.until = leg.t1 + this.rng.range(this.o.pause[0], this.o.pause[1]) * 1000;
        }
        continue;
      }
      const f = Math.max(0, (time - leg.t0) / (leg.t1 - leg.t0));
      if (leg.vertical) {
        const n = f < 0.5 ? leg.a : leg.b;
        return { floorId: n.floorId, x: n.x, y: n.y, roomId: n.roomId, moving: true };
      }
      const x = leg.a.x + (leg.b.x - leg.a.x) * f;
      const y = leg.a.y + (leg.b.y - leg.a.y) * f;
      // The room is where the point is (a doorway on a wall counts for the room listed first).
      const roomId = roomAt(this.graph.building, leg.a.floorId, x, y)?.id ?? leg.a.roomId;
      return { floorId: leg.a.floorId, x, y, roomId, moving: true };
    }
  }

  private plan(): void {
    const sameFloor = !this.rng.chance(this.o.otherFloor);
    const pool = this.spots.filter((s) => s !== this.at && (s.floorId === this.at.floorId) === sameFloor);
    const dest = this.rng.pick(pool.length ? pool : this.spots.filter((s) => s !== this.at));
    const path = this.graph.path(this.at.id, dest.id)!;
    let t = this.until;
    for (let i = 1; i < path.length; i++) {
      const a = this.graph.nodes.get(path[i - 1])!;
      const b = this.graph.nodes.get(path[i])!;
      const vs = this.graph.verticalSeconds(a.id, b.id);
      const dur = (vs ?? Math.hypot(b.x - a.x, b.y - a.y) / this.speed) * 1000;
      this.legs.push({ t0: t, t1: t + dur, a, b, vertical: vs !== undefined });
      t += dur;
    }
    if (!this.legs.length) this.until = t + this.o.pause[0] * 1000;
  }
}
