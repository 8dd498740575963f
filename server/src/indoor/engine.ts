// The indoor positioning engine: turns what radios report into fixes on a floor plan.
//   scan()     a wearable lists the beacons it hears;
//   observe()  fixed gateways (anchor keys) each report hearing a tag; a tag's observations are
//              gathered over `windowMs` of device time and solved together (flush() closes the
//              windows nothing more has arrived for, `lateHoldMs` longer for late ones);
//   uwb()      a UWB system's own coordinates, passed through in the floor's frame;
//   aoa()      bearings from angle-of-arrival locators.
// Per tag it keeps smoothed RSSI per anchor, the chosen floor (with hysteresis), the nearest
// beacon (with hysteresis) and a position filter.
//
// Time. Everything a tag's fixes depend on follows the device time of its reports: its state is
// forgotten when a report comes more than `tagTtlMs` after its previous one, and a gateway window
// closes when a report of the tag at or past its end arrives. So reports uploaded late (a gateway
// that was offline, a watch that buffered) give the same fixes as the same reports sent live, in
// one request or many. The caller's clock (`clock`, when reports arrive) decides only what cannot
// wait for more data: when the last window of a burst is solved (nothing more has arrived for
// `windowMs`, `lateHoldMs` longer when its reports came late), and which tags leave memory
// (nothing arrived for `tagIdleMs`, or the least recently heard one when `maxTags` are tracked);
// neither changes the fixes of a tag still sending.
// Pure: no I/O, the clock is given, never throws on bad input.
import { intersectBearings, type AoaOptions, type Bearing } from './aoa.js';
import { chooseFloor, DEFAULT_FLOOR_CHOICE, floorScore, newFloorState, type FloorChoiceOptions, type FloorState } from './floor.js';
import { isGeoreference, planToGeo } from './geo.js';
import { normalizeAnchorKey } from './keys.js';
import { chooseNearest, type NearestCandidate } from './nearest.js';
import { distanceFromRssi, distanceSigma, isPlausibleRssi } from './radio.js';
import { DEFAULT_SMOOTHING, smoothRssi, varianceAt, type SmoothedRssi, type SmoothingOptions } from './smoothing.js';
import { trilaterate, type Range } from './trilateration.js';
import {
  inRange,
  type AoaReading,
  type FixMethod,
  type Georeference,
  type Heard,
  type IndoorFix,
  type PositioningMethod,
  type SceneModel,
  type UwbReading,
} from './types.js';

export interface PositionFilterOptions {
  /**
   * 'position': the position is a random walk (processNoise in m²/s); 'velocity': position and
   * velocity per axis, the velocity a random walk (white acceleration, processNoise in m²/s³), which
   * follows a person walking a corridor without lagging behind, with speed bounded by maxSpeed.
   */
  model: 'position' | 'velocity';
  processNoise: number;
  /** Velocity model: estimated speeds are clamped to this, m/s. */
  maxSpeed: number;
  /** After a longer gap the filter restarts from the next fix, ms. */
  maxGapMs: number;
}

export interface EngineOptions {
  smoothing: SmoothingOptions;
  /** Gateway observations of a tag are gathered over this much device time before solving, ms. */
  windowMs: number;
  /**
   * A window whose observations arrive late (more than windowMs after their device time: a gateway
   * uploading what it buffered) waits this much longer for more before it is solved without them,
   * so an upload split into requests with pauses between them gathers the windows it would have
   * live, ms.
   */
  lateHoldMs: number;
  /** Nearest beacon: another beacon must be louder (relative to its RSSI@1m) by this much to take over, dB. */
  nearestMarginDb: number;
  /** ...and do so in this many consecutive scans. */
  nearestScans: number;
  floor: FloorChoiceOptions;
  /** Trilateration uses the K loudest anchors of the floor. */
  k: number;
  /** Height at which tags are worn, m. */
  tagHeight: number;
  /** Floor under the sd of a range, m (mounting, body shadowing: a range is never known better). */
  minRangeSd: number;
  /**
   * An anchor with a fresh estimate that a scan did not report, while the scan reported a weaker
   * one, was most likely below what the scan could carry (wearables report only their N loudest,
   * gateways only above a threshold): its estimate is pulled toward the scan's weakest reading, as
   * a censored measurement. Without this, anchors heard only when shadowing favours them keep
   * estimates that are too loud, and fixes lean toward them.
   */
  censorMisses: boolean;
  /** Smoothing of trilateration, UWB and AOA fixes; null for raw fixes. */
  positionFilter: PositionFilterOptions | null;
  aoa: AoaOptions;
  /** A tag's state is forgotten when its next report is this much later (or earlier) in device time than its last, ms. */
  tagTtlMs: number;
  /**
   * A tag nothing has arrived from for this long by the caller's clock is dropped from memory, ms.
   * Longer than tagTtlMs, so a tag still sending never loses state to it, and long enough that a
   * gateway or watch coming back with what it buffered while offline continues its tags' state.
   */
  tagIdleMs: number;
  /** At most this many tags are tracked; beyond it the tag heard from least recently is dropped to make room. */
  maxTags: number;
}

export const DEFAULT_ENGINE_OPTIONS: EngineOptions = {
  smoothing: DEFAULT_SMOOTHING,
  windowMs: 1000,
  lateHoldMs: 5_000,
  nearestMarginDb: 6,
  nearestScans: 3,
  floor: DEFAULT_FLOOR_CHOICE,
  k: 6,
  tagHeight: 1.2,
  minRangeSd: 0.5,
  censorMisses: true,
  positionFilter: { model: 'velocity', processNoise: 0.5, maxSpeed: 2, maxGapMs: 15_000 },
  aoa: { angleSigmaDeg: 4, minCrossingDeg: 10, tagHeight: 1.2, maxRange: 60 },
  tagTtlMs: 10 * 60_000,
  tagIdleMs: 60 * 60_000,
  maxTags: 200_000,
};

export type EngineOptionsInput = Partial<Omit<EngineOptions, 'smoothing' | 'floor' | 'aoa' | 'positionFilter'>> & {
  smoothing?: Partial<SmoothingOptions>;
  floor?: Partial<FloorChoiceOptions>;
  aoa?: AoaOptions;
  positionFilter?: Partial<PositionFilterOptions> | null;
};

/**
 * UWB quality (percent, 100 best) to accuracy radius: 0.1 m at 100 rising linearly to 3 m at 0;
 * 0.3 m when the system reports no quality (typical two-way-ranging UWB in line of sight).
 */
export function uwbAccuracy(quality: number | undefined): number {
  if (!inRange(quality, 0, 100)) return 0.3;
  return 0.1 + (2.9 * (100 - quality)) / 100;
}

interface FloorInfo {
  /** `sceneId/floorId`. */
  id: string;
  sceneId: string;
  floorId: string;
  method: PositioningMethod;
  exponent: number;
  geo: Georeference | null;
}

interface AnchorInfo {
  key: string;
  floor: FloorInfo;
  x: number;
  y: number;
  height: number;
  rssi1m: number;
}

interface LocatorInfo {
  key: string;
  floor: FloorInfo;
  x: number;
  y: number;
  height: number;
  heading: number;
}

interface TagState {
  /** Device time of the tag's latest report. */
  lastSeen: number;
  /** When its latest report arrived (the caller's clock). */
  arrived: number;
  rssi: Map<string, SmoothedRssi>;
  floor: FloorState;
  nearest: string | null;
  /** Anchor winning by the margin but not yet for nearestScans scans, and for how many. */
  nearestCandidate: string | null;
  nearestCount: number;
  /** Position filter: per axis position and velocity, and their covariance (shared by both axes: same noise on each). */
  pos: { floor: string; x: number; y: number; vx: number; vy: number; p00: number; p01: number; p11: number; time: number } | null;
  /** Gateway window: device times of its first and latest observation, when the latest arrived, and the readings. */
  window: { start: number; last: number; arrived: number; obs: Map<string, { sum: number; n: number }> } | null;
}

const MAX_TIME = 8.64e15;
/** Bounds of plan coordinates accepted from UWB systems, m. */
const MAX_COORD = 100_000;

export class IndoorEngine {
  readonly options: EngineOptions;
  private anchors = new Map<string, AnchorInfo>();
  private locators = new Map<string, LocatorInfo>();
  private floors = new Map<string, FloorInfo>();
  /** Tracked tags, the one heard from least recently first (re-inserted on every report). */
  private tags = new Map<string, TagState>();
  /** Tags with an open gateway window. */
  private open = new Set<string>();
  /** Fixes of windows closed by a tag's other reports, handed out by the next flush(). */
  private ready: IndoorFix[] = [];
  /** Without a clock: the latest device time seen stands for it. */
  private latest = 0;
  /** Scratch buffers reused by every solve (no allocation per scan for these). */
  private candidates: { a: AnchorInfo; s: SmoothedRssi; score: number }[] = [];

  /** `clock`: when reports arrive (ms); without it, the latest device time seen stands for it. */
  constructor(
    options: EngineOptionsInput = {},
    private readonly clock?: () => number,
  ) {
    const d = DEFAULT_ENGINE_OPTIONS;
    this.options = {
      ...d,
      ...options,
      smoothing: { ...d.smoothing, ...options.smoothing },
      floor: { ...d.floor, ...options.floor },
      aoa: { ...d.aoa, ...options.aoa },
      positionFilter: options.positionFilter === null ? null : { ...d.positionFilter!, ...options.positionFilter },
    } as EngineOptions;
  }

  /** Replaces the configuration. Invalid floors, anchors and locators are skipped; a key already taken keeps its first place. */
  setScenes(scenes: readonly SceneModel[]): void {
    this.anchors.clear();
    this.locators.clear();
    this.floors.clear();
    for (const sc of Array.isArray(scenes) ? scenes : []) {
      if (!sc || typeof sc.sceneId !== 'string') continue;
      const method: PositioningMethod = sc.method === 'nearest' ? 'nearest' : 'triangular';
      const floors = new Map<string, FloorInfo>();
      for (const f of Array.isArray(sc.floors) ? sc.floors : []) {
        if (!f || typeof f.floorId !== 'string') continue;
        const info: FloorInfo = {
          id: `${sc.sceneId}/${f.floorId}`,
          sceneId: sc.sceneId,
          floorId: f.floorId,
          method,
          exponent: inRange(f.exponent, 1, 8) ? f.exponent : 2,
          geo: isGeoreference(f.geo) ? { ...f.geo } : null,
        };
        floors.set(f.floorId, info);
        this.floors.set(info.id, info);
      }
      for (const a of Array.isArray(sc.anchors) ? sc.anchors : []) {
        const key = a && normalizeAnchorKey(a.key);
        const floor = key && floors.get(a.floorId);
        if (!key || !floor || this.anchors.has(key) || !inRange(a.x, -MAX_COORD, MAX_COORD) || !inRange(a.y, -MAX_COORD, MAX_COORD)) continue;
        this.anchors.set(key, {
          key,
          floor,
          x: a.x,
          y: a.y,
          height: inRange(a.height, -10, 100) ? a.height : 2.5,
          rssi1m: inRange(a.rssi1m, -100, -10) ? a.rssi1m : -59,
        });
      }
      for (const l of Array.isArray(sc.locators) ? sc.locators : []) {
        const key = l && typeof l.key === 'string' ? (normalizeAnchorKey(l.key) ?? l.key) : null;
        const floor = key && floors.get(l.floorId);
        if (!key || !floor || this.locators.has(key) || !inRange(l.x, -MAX_COORD, MAX_COORD) || !inRange(l.y, -MAX_COORD, MAX_COORD) || !inRange(l.heading, -3600, 3600)) continue;
        this.locators.set(key, { key, floor, x: l.x, y: l.y, height: inRange(l.height, -10, 100) ? l.height : 3, heading: l.heading });
      }
    }
    // Tracked tags keep their state: readings of anchors that no longer exist are skipped and expire,
    // a floor that no longer exists is left at the next scan, so editing a plan causes no gap.
  }

  /** Tags currently tracked. */
  get size(): number {
    return this.tags.size;
  }

  /** Whether a tag's state is held. */
  tracks(tag: string): boolean {
    return this.tags.has(tag);
  }

  forget(tag: string): void {
    this.tags.delete(tag);
    this.open.delete(tag);
  }

  /** A wearable's scan: the anchors it hears. Null when no known anchor was heard or the input is unusable. */
  scan(tag: string, heard: readonly Heard[], time: number): IndoorFix | null {
    if (!validTag(tag) || !inRange(time, 0, MAX_TIME) || !Array.isArray(heard)) return null;
    const state = this.state(tag, time, true);
    return this.solve(tag, state, heard, time);
  }

  /**
   * A fixed gateway (`anchor`) heard `tag`. Returns the fix of the tag's previous window when this
   * observation arrives after it elapsed, else null (see flush()).
   */
  observe(tag: string, anchor: string, rssi: number, time: number): IndoorFix | null {
    if (!validTag(tag) || !inRange(time, 0, MAX_TIME) || !isPlausibleRssi(rssi)) return null;
    const key = this.anchorOf(anchor);
    if (!key) return null;
    const fix = this.closeElapsed(tag, time);
    const state = this.state(tag, time, false);
    if (!state.window) {
      state.window = { start: time, last: time, arrived: state.arrived, obs: new Map() };
      this.open.add(tag);
    }
    const w = state.window;
    w.last = Math.max(w.last, time);
    w.arrived = state.arrived;
    const o = w.obs.get(key);
    if (o) {
      o.sum += rssi;
      o.n++;
    } else w.obs.set(key, { sum: rssi, n: 1 });
    return fix;
  }

  /**
   * At `now` by the caller's clock: the fixes of windows closed by the tags' later reports since the
   * last call, and of the windows nothing has arrived for in `windowMs`; drops the tags idle for
   * `tagIdleMs`.
   */
  flush(now: number): IndoorFix[] {
    const out = this.ready;
    this.ready = [];
    if (!inRange(now, 0, MAX_TIME)) return out;
    for (const tag of this.open) {
      const state = this.tags.get(tag);
      if (!state?.window) {
        this.open.delete(tag);
        continue;
      }
      const w = state.window;
      if (now - w.arrived < this.options.windowMs + (w.arrived - w.last > this.options.windowMs ? this.options.lateHoldMs : 0)) continue;
      const fix = this.closeWindow(tag, state);
      if (fix) out.push(fix);
    }
    this.evictIdle(now);
    return out;
  }

  /** A UWB system's fix, passed through in the floor of `reading.anchor`. */
  uwb(tag: string, reading: UwbReading, time: number): IndoorFix | null {
    if (!validTag(tag) || !inRange(time, 0, MAX_TIME) || !reading) return null;
    const key = this.anchorOf(reading.anchor);
    if (!key || !inRange(reading.x, -MAX_COORD, MAX_COORD) || !inRange(reading.y, -MAX_COORD, MAX_COORD)) return null;
    const floor = this.anchors.get(key)!.floor;
    const state = this.state(tag, time, true);
    // The anchor names the floor outright; it still passes through the floor state so a later BLE
    // scan starts from it, and a floor change resets the position filter.
    chooseFloor(state.floor, new Map([[floor.id, 0]]), this.options.floor);
    return this.filtered(tag, state, floor, reading.x, reading.y, uwbAccuracy(reading.quality), 'uwb', 1, time);
  }

  /** Bearings from AOA locators. Null when they do not fix a point (unknown locators, near-parallel bearings). */
  aoa(tag: string, readings: readonly AoaReading[], time: number): IndoorFix | null {
    if (!validTag(tag) || !inRange(time, 0, MAX_TIME) || !Array.isArray(readings)) return null;
    // Readings grouped by floor; the floor with the most locators is used.
    const byFloor = new Map<FloorInfo, Bearing[]>();
    for (const r of readings) {
      if (!r || !inRange(r.azimuth, -360, 360)) continue;
      const l = this.locators.get(r.locator) ?? this.locators.get(normalizeAnchorKey(r.locator) ?? '');
      if (!l) continue;
      let list = byFloor.get(l.floor);
      if (!list) byFloor.set(l.floor, (list = []));
      list.push({ x: l.x, y: l.y, bearing: l.heading + r.azimuth, height: l.height, elevation: inRange(r.elevation, -90, 90) ? r.elevation : undefined });
    }
    let floor: FloorInfo | null = null;
    let bearings: Bearing[] = [];
    for (const [f, list] of byFloor) {
      if (list.length > bearings.length) {
        floor = f;
        bearings = list;
      }
    }
    if (!floor) return null;
    const p = intersectBearings(bearings, { ...this.options.aoa, tagHeight: this.options.tagHeight });
    if (!p) return null;
    const state = this.state(tag, time, true);
    chooseFloor(state.floor, new Map([[floor.id, 0]]), this.options.floor);
    return this.filtered(tag, state, floor, p.x, p.y, p.accuracy, 'aoa', p.lines, time);
  }

  // ------------------------------------------------------------------ internals

  private anchorOf(raw: unknown): string | null {
    if (typeof raw !== 'string') return null;
    if (this.anchors.has(raw)) return raw;
    const k = normalizeAnchorKey(raw);
    return k && this.anchors.has(k) ? k : null;
  }

  /** The caller's clock now, or the latest device time seen without one. */
  private now(time: number): number {
    if (this.clock) return this.clock();
    if (time > this.latest) this.latest = time;
    return this.latest;
  }

  /**
   * A report of the tag at device time `time` comes after its gateway window: the window is solved
   * first, as it would have been had the report come live. Its fix is answered (observe) or handed
   * out by the next flush (`hold`).
   */
  private closeElapsed(tag: string, time: number, hold = false): IndoorFix | null {
    const s = this.tags.get(tag);
    if (!s?.window || time - s.window.start < this.options.windowMs) return null;
    const fix = this.closeWindow(tag, s);
    if (fix && hold) this.ready.push(fix);
    return hold ? null : fix;
  }

  /**
   * The tag's state for a report at device time `time`: a new one when it had none, or when its last
   * report is more than tagTtlMs away in device time. The tag becomes the most recently heard.
   */
  private state(tag: string, time: number, closeWindow: boolean): TagState {
    if (closeWindow) this.closeElapsed(tag, time, true);
    const arrived = this.now(time);
    let s = this.tags.get(tag);
    if (s) this.tags.delete(tag);
    if (s && Math.abs(time - s.lastSeen) > this.options.tagTtlMs) {
      // What it gathered before is still solved, with the state it belongs to.
      if (s.window) {
        const fix = this.closeWindow(tag, s);
        if (fix) this.ready.push(fix);
      }
      s = undefined;
    }
    if (!s) {
      this.evictIdle(arrived);
      if (this.tags.size >= this.options.maxTags) {
        // The map runs from the least recently heard tag.
        const idle = this.tags.keys().next().value!;
        this.tags.delete(idle);
        this.open.delete(idle);
      }
      s = { lastSeen: time, arrived, rssi: new Map(), floor: newFloorState(), nearest: null, nearestCandidate: null, nearestCount: 0, pos: null, window: null };
    }
    s.lastSeen = Math.max(s.lastSeen, time);
    s.arrived = Math.max(s.arrived, arrived);
    this.tags.set(tag, s);
    return s;
  }

  /** Drops the tags nothing has arrived from for tagIdleMs at `now` (from the least recently heard, so it stops at the first one kept). */
  private evictIdle(now: number): void {
    const limit = now - this.options.tagIdleMs;
    for (const [tag, s] of this.tags) {
      if (s.arrived >= limit) return;
      this.tags.delete(tag);
      this.open.delete(tag);
    }
  }

  private closeWindow(tag: string, state: TagState): IndoorFix | null {
    const w = state.window!;
    state.window = null;
    this.open.delete(tag);
    // One reading per gateway: the mean dBm of what it heard in the window.
    const heard: Heard[] = [];
    for (const [anchor, o] of w.obs) heard.push({ anchor, rssi: o.sum / o.n });
    return this.solve(tag, state, heard, w.last);
  }

  private solve(tag: string, state: TagState, heard: readonly Heard[], time: number): IndoorFix | null {
    const o = this.options;
    // Smooth every valid reading and score the floors heard in this scan.
    const relByFloor = new Map<string, number[]>();
    let weakest = Infinity;
    for (const h of heard) {
      if (!h || !isPlausibleRssi(h.rssi)) continue;
      const key = this.anchorOf(h.anchor);
      if (!key) continue;
      if (h.rssi < weakest) weakest = h.rssi;
      const a = this.anchors.get(key)!;
      const s = smoothRssi(state.rssi.get(key), h.rssi, time, o.smoothing);
      state.rssi.set(key, s);
      let rel = relByFloor.get(a.floor.id);
      if (!rel) relByFloor.set(a.floor.id, (rel = []));
      rel.push(s.value - a.rssi1m);
    }
    if (!relByFloor.size) return null;
    const scores = new Map<string, number>();
    for (const [f, rel] of relByFloor) scores.set(f, floorScore(rel));
    const floorId = chooseFloor(state.floor, scores, o.floor);
    const floor = floorId ? this.floors.get(floorId) : undefined;
    if (!floor) return null;

    // Fresh smoothed anchors of the chosen floor, loudest first (relative to their own power).
    const cands = this.candidates;
    cands.length = 0;
    for (const [key, s] of state.rssi) {
      if (time - s.time > o.smoothing.maxAgeMs) {
        state.rssi.delete(key);
        continue;
      }
      const a = this.anchors.get(key);
      if (!a || a.floor !== floor) continue;
      if (o.censorMisses && s.time < time && s.value > weakest) {
        // Not heard now though louder than the weakest heard: a reading at most `weakest` (its time is left as is, so it still expires).
        const k = s.variance / (s.variance + o.smoothing.measurementNoise);
        s.value += k * (weakest - s.value);
        s.variance *= 1 - k;
      }
      cands.push({ a, s, score: s.value - a.rssi1m });
    }
    if (!cands.length) return null;
    cands.sort((p, q) => q.score - p.score);

    if (floor.method === 'triangular' && cands.length >= 3) {
      const ranges: Range[] = [];
      for (let i = 0; i < cands.length && i < o.k; i++) {
        const { a, s } = cands[i];
        const d = distanceFromRssi(s.value, a.rssi1m, floor.exponent);
        const sdDb = Math.sqrt(varianceAt(s, time, o.smoothing));
        ranges.push({ x: a.x, y: a.y, dz: a.height - o.tagHeight, d, sd: o.minRangeSd, relSd: distanceSigma(1, sdDb, floor.exponent) });
      }
      const prev = state.pos && state.pos.floor === floor.id ? state.pos : undefined;
      const p = trilaterate(ranges, { start: prev });
      if (p) return this.filtered(tag, state, floor, p.x, p.y, p.accuracy, 'trilateration', ranges.length, time);
    }

    // Nearest beacon (the scene's method, or too few anchors to trilaterate).
    const list: NearestCandidate[] = cands.map((c) => ({ key: c.a.key, score: c.score }));
    const i = chooseNearest(list, state.nearest, o.nearestMarginDb);
    let c = cands[i];
    const current = state.nearest === null ? undefined : cands.find((x) => x.a.key === state.nearest);
    if (current && c !== current) {
      // A challenger beating the current beacon by the margin must do so in nearestScans consecutive scans.
      state.nearestCount = state.nearestCandidate === c.a.key ? state.nearestCount + 1 : 1;
      state.nearestCandidate = c.a.key;
      if (state.nearestCount < o.nearestScans) c = current;
      else state.nearestCandidate = null;
    } else state.nearestCandidate = null;
    state.nearest = c.a.key;
    const d = distanceFromRssi(c.s.value, c.a.rssi1m, floor.exponent);
    const horizontal = Math.sqrt(Math.max(0, d * d - (c.a.height - o.tagHeight) ** 2));
    return this.fix(tag, floor, c.a.x, c.a.y, Math.max(1, horizontal), 'nearest', cands.length, time);
  }

  /** Through the position filter: a Kalman filter per axis, both axes sharing one covariance. */
  private filtered(tag: string, state: TagState, floor: FloorInfo, x: number, y: number, accuracy: number, method: FixMethod, used: number, time: number): IndoorFix {
    const f = this.options.positionFilter;
    const r = Math.max(0.01, accuracy * accuracy);
    const p = state.pos;
    if (!f || !p || p.floor !== floor.id || time - p.time > f.maxGapMs || time < p.time - f.maxGapMs) {
      // Unknown velocity at the start: variance of a walking speed (about 1 m/s).
      state.pos = { floor: floor.id, x, y, vx: 0, vy: 0, p00: r, p01: 0, p11: 1, time };
    } else {
      const dt = Math.max(0, time - p.time) / 1000;
      const q = f.processNoise;
      if (f.model === 'velocity') {
        // Predict: x += v dt; P = F P F' + Q with white acceleration Q = q [dt³/3 dt²/2; dt²/2 dt].
        p.x += p.vx * dt;
        p.y += p.vy * dt;
        const p00 = p.p00 + 2 * dt * p.p01 + dt * dt * p.p11 + (q * dt * dt * dt) / 3;
        const p01 = p.p01 + dt * p.p11 + (q * dt * dt) / 2;
        const p11 = p.p11 + q * dt;
        // Update with the position measurement.
        const k0 = p00 / (p00 + r);
        const k1 = p01 / (p00 + r);
        const ex = x - p.x;
        const ey = y - p.y;
        p.x += k0 * ex;
        p.y += k0 * ey;
        p.vx += k1 * ex;
        p.vy += k1 * ey;
        const speed = Math.hypot(p.vx, p.vy);
        if (speed > f.maxSpeed) {
          p.vx *= f.maxSpeed / speed;
          p.vy *= f.maxSpeed / speed;
        }
        p.p00 = (1 - k0) * p00;
        p.p01 = (1 - k0) * p01;
        p.p11 = p11 - k1 * p01;
      } else {
        const v = p.p00 + q * dt;
        const k = v / (v + r);
        p.x += k * (x - p.x);
        p.y += k * (y - p.y);
        p.p00 = (1 - k) * v;
      }
      p.time = Math.max(p.time, time);
    }
    const st = state.pos!;
    return this.fix(tag, floor, st.x, st.y, Math.sqrt(st.p00), method, used, time);
  }

  private fix(tag: string, floor: FloorInfo, x: number, y: number, accuracy: number, method: FixMethod, anchors: number, time: number): IndoorFix {
    const fix: IndoorFix = { tag, sceneId: floor.sceneId, floorId: floor.floorId, x, y, accuracy, method, anchors, time };
    if (floor.geo) {
      const g = planToGeo(floor.geo, x, y);
      fix.lat = g.lat;
      fix.lon = g.lon;
    }
    return fix;
  }
}

function validTag(tag: unknown): tag is string {
  return typeof tag === 'string' && tag.length > 0 && tag.length <= 128;
}
