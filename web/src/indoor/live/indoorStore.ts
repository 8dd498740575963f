// The devices indoors, outside React: one slot per device in typed arrays (scene, floor, plan
// metres, accuracy, method, status), written by the realtime batches (the `in` of each change) and
// seeded from /Scene/sceneInfoByMonitorForServer when a scene opens. The inner map's layer reads
// the arrays in requestAnimationFrame; a batch only writes slots and wakes the listeners once per
// frame, so thousands of moving tags never re-render a React component per tag.
//
// Positions are plan metres (x right, y down from the plan's top-left corner). Every new fix starts
// a short glide from where the tag is drawn now to the new point (see `interpolate`).
import type { IndoorLive, LiveDevice, scene } from '@wt/contract';
import { liveDevices } from '../../map/deviceStore';

/** Methods in the order of their code in `method`. */
export const METHODS = ['nearest', 'trilateration', 'uwb', 'aoa'] as const;
export type Method = (typeof METHODS)[number];
const METHOD_CODE = new Map<string, number>(METHODS.map((m, i) => [m, i]));

/** Bits of `flags`. */
export const ONLINE = 1;
export const SOS = 2;
/** The latest fix is indoors (scene, floor, x, y hold it). */
export const INDOOR = 4;

/** How long a tag glides to its new position, ms. */
export const GLIDE_MS = 900;

/** Ease-out cubic on 0..1: fast start, soft arrival. */
export function easeOut(t: number): number {
  const u = 1 - t;
  return 1 - u * u * u;
}

/**
 * Where a tag is drawn `now`: from (x0, y0) at `start` to (x1, y1) over `duration` ms, eased.
 * Before the start it is at the origin, after the end at the target.
 */
export function interpolate(x0: number, y0: number, x1: number, y1: number, start: number, now: number, duration = GLIDE_MS): [number, number] {
  if (duration <= 0 || now >= start + duration) return [x1, y1];
  if (now <= start) return [x0, y0];
  const k = easeOut((now - start) / duration);
  return [x0 + (x1 - x0) * k, y0 + (y1 - y0) * k];
}

export interface IndoorTag {
  id: number;
  imei: string;
  name: string;
  sceneId: number;
  floorId: number;
  x: number;
  y: number;
  /** Metres, null when unknown. */
  accuracy: number | null;
  method: Method | null;
  online: boolean;
  sos: boolean;
  indoor: boolean;
  battery: number | null;
  /** Epoch ms of the fix and of the last communication (null: unknown). */
  fixTime: number | null;
  lastSeen: number | null;
}

type Listener = () => void;
/** Names and IMEIs of devices first seen in a batch (the monitor's list knows them). */
export type Directory = (id: number) => { imei: string; name: string } | undefined;

const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export class IndoorStore {
  count = 0;
  readonly slot = new Map<number, number>();
  ids = new Int32Array(0);
  scene = new Int32Array(0);
  floor = new Int32Array(0);
  /** Glide origin and target, plan metres, and when the glide started (performance.now ms). */
  x0 = new Float32Array(0);
  y0 = new Float32Array(0);
  x1 = new Float32Array(0);
  y1 = new Float32Array(0);
  moveStart = new Float64Array(0);
  /** Accuracy radius in metres, NaN when unknown. */
  accuracy = new Float32Array(0);
  /** Index in METHODS, 255 unknown. */
  method = new Uint8Array(0);
  flags = new Uint8Array(0);
  /** Percent, -1 unknown. */
  battery = new Int16Array(0);
  /** Epoch ms, NaN unknown. */
  fixTime = new Float64Array(0);
  lastSeen = new Float64Array(0);
  names: string[] = [];
  imeis: string[] = [];
  /** The latest move start of any slot: the layer animates until GLIDE_MS after it. */
  lastMove = -Infinity;
  /** Bumped on every change that a view may show (throttled to one notice per frame). */
  version = 0;
  private listeners = new Set<Listener>();
  private scheduled = false;

  constructor(private directory?: Directory) {}

  setDirectory(directory: Directory): void {
    this.directory = directory;
  }

  subscribe(l: Listener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  private grow(min: number): void {
    let size = Math.max(64, this.ids.length);
    while (size < min) size *= 2;
    if (size === this.ids.length) return;
    const copy = <T extends Int32Array | Float32Array | Float64Array | Uint8Array | Int16Array>(a: T, make: (n: number) => T): T => {
      const b = make(size);
      b.set(a);
      return b;
    };
    this.ids = copy(this.ids, (n) => new Int32Array(n));
    this.scene = copy(this.scene, (n) => new Int32Array(n));
    this.floor = copy(this.floor, (n) => new Int32Array(n));
    this.x0 = copy(this.x0, (n) => new Float32Array(n));
    this.y0 = copy(this.y0, (n) => new Float32Array(n));
    this.x1 = copy(this.x1, (n) => new Float32Array(n));
    this.y1 = copy(this.y1, (n) => new Float32Array(n));
    this.moveStart = copy(this.moveStart, (n) => new Float64Array(n));
    this.accuracy = copy(this.accuracy, (n) => new Float32Array(n));
    this.method = copy(this.method, (n) => new Uint8Array(n));
    this.flags = copy(this.flags, (n) => new Uint8Array(n));
    this.battery = copy(this.battery, (n) => new Int16Array(n));
    this.fixTime = copy(this.fixTime, (n) => new Float64Array(n));
    this.lastSeen = copy(this.lastSeen, (n) => new Float64Array(n));
  }

  /** The slot of a device, created (not indoors, unknown status) when new. */
  private slotOf(id: number): number {
    let i = this.slot.get(id);
    if (i !== undefined) return i;
    i = this.count++;
    if (i >= this.ids.length) this.grow(i + 1);
    this.slot.set(id, i);
    this.ids[i] = id;
    this.scene[i] = 0;
    this.floor[i] = 0;
    this.accuracy[i] = NaN;
    this.method[i] = 255;
    this.flags[i] = 0;
    this.battery[i] = -1;
    this.fixTime[i] = NaN;
    this.lastSeen[i] = NaN;
    const known = this.directory?.(id);
    this.names[i] = known?.name ?? '';
    this.imeis[i] = known?.imei ?? '';
    return i;
  }

  /** A new fix: glides from where the tag is drawn now, or jumps when it changed floor or was not indoors. */
  private place(i: number, sceneId: number, floorId: number, x: number, y: number, t: number): void {
    const wasHere = (this.flags[i]! & INDOOR) !== 0 && this.scene[i] === sceneId && this.floor[i] === floorId;
    if (wasHere) {
      const [cx, cy] = interpolate(this.x0[i]!, this.y0[i]!, this.x1[i]!, this.y1[i]!, this.moveStart[i]!, t);
      this.x0[i] = cx;
      this.y0[i] = cy;
    } else {
      this.x0[i] = x;
      this.y0[i] = y;
    }
    this.x1[i] = x;
    this.y1[i] = y;
    this.moveStart[i] = t;
    if (wasHere && t > this.lastMove) this.lastMove = t;
    this.scene[i] = sceneId;
    this.floor[i] = floorId;
    this.flags[i]! |= INDOOR;
  }

  /**
   * Merges a realtime batch. `in` present: the new indoor fix; null: the latest fix is outdoors
   * (the tag leaves the plan); absent: only status fields change. Devices never seen indoors get a
   * slot only when a change places them indoors.
   */
  apply(changes: readonly LiveDevice[], t = now()): void {
    let touched = false;
    for (let k = 0; k < changes.length; k++) {
      const c = changes[k]!;
      const inside: IndoorLive | null | undefined = c.in;
      let i = this.slot.get(c.i);
      if (i === undefined) {
        if (!inside) continue;
        i = this.slotOf(c.i);
      }
      if (inside) {
        this.place(i, inside.sc, inside.f, inside.x, inside.y, t);
        this.accuracy[i] = inside.a ?? NaN;
        this.method[i] = METHOD_CODE.get(inside.mt) ?? 255;
        if (c.t !== undefined) this.fixTime[i] = c.t;
      } else if (inside === null) {
        this.flags[i]! &= ~INDOOR;
      }
      if (c.on !== undefined) this.flags[i] = c.on ? this.flags[i]! | ONLINE : this.flags[i]! & ~ONLINE;
      if (c.b !== undefined) this.battery[i] = c.b;
      this.lastSeen[i] = c.ls;
      touched = true;
    }
    if (touched) this.changed();
  }

  /** The devices indoors in a scene now (the snapshot that opens it): names, status and positions. */
  seed(sceneId: number, items: readonly scene.IndoorDevice[], t = now()): void {
    const present = new Set<number>();
    for (const d of items) {
      const i = this.slotOf(d.DeviceId);
      present.add(d.DeviceId);
      this.names[i] = d.Name;
      this.imeis[i] = d.Imei;
      const fix = Date.parse(d.Time);
      // A realtime fix newer than the snapshot's is kept.
      if (!(this.fixTime[i]! > fix) || (this.flags[i]! & INDOOR) === 0) {
        this.place(i, sceneId, d.FloorId, d.X, d.Y, t);
        // A snapshot places without gliding: the tag was not drawn before.
        this.x0[i] = d.X;
        this.y0[i] = d.Y;
        this.accuracy[i] = d.Accuracy ?? NaN;
        this.method[i] = METHOD_CODE.get(d.Method) ?? 255;
        this.fixTime[i] = fix;
      }
      let f = this.flags[i]!;
      f = d.Online ? f | ONLINE : f & ~ONLINE;
      f = d.Sos ? f | SOS : f & ~SOS;
      this.flags[i] = f;
      this.battery[i] = d.Battery ?? -1;
      if (!(this.lastSeen[i]! >= fix)) this.lastSeen[i] = fix;
    }
    // Tags of this scene the snapshot no longer lists have left it.
    for (let i = 0; i < this.count; i++) if (this.scene[i] === sceneId && !present.has(this.ids[i]!)) this.flags[i]! &= ~INDOOR;
    this.changed();
  }

  /** SOS raised (a realtime alarm) or handled. */
  setSos(id: number, on: boolean): void {
    const i = this.slot.get(id);
    if (i === undefined) return;
    const before = this.flags[i]!;
    this.flags[i] = on ? before | SOS : before & ~SOS;
    if (this.flags[i] !== before) this.changed();
  }

  /** Drawn position of a slot at `t`. */
  positionAt(i: number, t: number): [number, number] {
    return interpolate(this.x0[i]!, this.y0[i]!, this.x1[i]!, this.y1[i]!, this.moveStart[i]!, t);
  }

  /** Whether a glide is under way at `t` (the layer keeps drawing until it ends). */
  moving(t: number): boolean {
    return t < this.lastMove + GLIDE_MS;
  }

  isIndoor(i: number, sceneId: number, floorId?: number): boolean {
    return (this.flags[i]! & INDOOR) !== 0 && this.scene[i] === sceneId && (floorId === undefined || this.floor[i] === floorId);
  }

  /** Tags indoors per floor of a scene. */
  countByFloor(sceneId: number): Map<number, number> {
    const out = new Map<number, number>();
    for (let i = 0; i < this.count; i++) {
      if ((this.flags[i]! & INDOOR) === 0 || this.scene[i] !== sceneId) continue;
      out.set(this.floor[i]!, (out.get(this.floor[i]!) ?? 0) + 1);
    }
    return out;
  }

  /** One tag as a record, for the card (null when unknown). */
  tag(id: number): IndoorTag | null {
    const i = this.slot.get(id);
    if (i === undefined) return null;
    const f = this.flags[i]!;
    const m = this.method[i]!;
    return {
      id,
      imei: this.imeis[i]!,
      name: this.names[i]!,
      sceneId: this.scene[i]!,
      floorId: this.floor[i]!,
      x: this.x1[i]!,
      y: this.y1[i]!,
      accuracy: Number.isNaN(this.accuracy[i]!) ? null : this.accuracy[i]!,
      method: m < METHODS.length ? METHODS[m]! : null,
      online: (f & ONLINE) !== 0,
      sos: (f & SOS) !== 0,
      indoor: (f & INDOOR) !== 0,
      battery: this.battery[i]! < 0 ? null : this.battery[i]!,
      fixTime: Number.isNaN(this.fixTime[i]!) ? null : this.fixTime[i]!,
      lastSeen: Number.isNaN(this.lastSeen[i]!) ? null : this.lastSeen[i]!,
    };
  }

  /**
   * Whether a tag indoors in the scene has no name yet: first seen in a realtime batch while the
   * monitor's device list was not loaded, after the snapshot was taken. The page asks the snapshot
   * again then, so the tag can be found by its name.
   */
  hasUnnamed(sceneId: number): boolean {
    for (let i = 0; i < this.count; i++) {
      if (this.scene[i] === sceneId && (this.flags[i]! & INDOOR) !== 0 && !this.names[i]) return true;
    }
    return false;
  }

  /** Tags of a scene whose name or IMEI contains the text (case-insensitive), at most `limit`. */
  search(sceneId: number, text: string, limit = 20): IndoorTag[] {
    const q = text.trim().toLowerCase();
    const out: IndoorTag[] = [];
    if (!q) return out;
    for (let i = 0; i < this.count && out.length < limit; i++) {
      if (!this.isIndoor(i, sceneId)) continue;
      if (this.names[i]!.toLowerCase().includes(q) || this.imeis[i]!.toLowerCase().includes(q)) out.push(this.tag(this.ids[i]!)!);
    }
    return out;
  }

  /** Forgets every device (a new session). */
  clear(): void {
    this.count = 0;
    this.slot.clear();
    this.names = [];
    this.imeis = [];
    this.lastMove = -Infinity;
    this.changed();
  }

  /** Listeners hear of changes once per animation frame, however many batches arrived. */
  private changed(): void {
    this.version++;
    if (this.scheduled) return;
    this.scheduled = true;
    const run = () => {
      this.scheduled = false;
      for (const l of this.listeners) l();
    };
    if (typeof requestAnimationFrame === 'function' && typeof document !== 'undefined' && document.visibilityState === 'visible') requestAnimationFrame(run);
    else setTimeout(run, 16);
  }
}

/**
 * The console's indoor tags, fed by the realtime connection and the inner map's snapshots; a tag
 * first seen in a batch takes its name and IMEI from the monitor's device list when it is loaded.
 */
export const indoorLive = new IndoorStore((id) => liveDevices.records.get(id));
