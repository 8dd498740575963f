// Indoor positioning accuracy and engine throughput, on simulated walks with ground truth in the
// demo care home (two floors of 40 x 20 m, BLE anchors about every 8 m, UWB in the west wing of
// floor 1, two AOA locators in the dining hall). Printed:
//
// 1. Calibration: RSSI@1m per anchor and n per floor fitted from anchors hearing each other (the
//    hardware's true RSSI@1m varies by anchor around -59 dBm); fit error and the error of the fitted
//    values against the truth. The engine then runs with the fitted values, as after the console's
//    calibration step.
// 2. Accuracy per method, over every fix of every walker: median and p90 of the horizontal error
//    (fixes on the right floor), floor correct %, room correct % (the room, corridor or hall
//    containing the fix against the one containing the truth). Wearables scan once a second and
//    report the 8 loudest anchors (shadowing sigma 4 dB by default, 15 dB per floor, heard down to
//    -95 dBm). "gateways" is trilateration from the anchors acting as fixed gateways that hear the
//    tag (one observation per gateway a second, solved in 1 s windows). UWB is measured in the UWB
//    wing, AOA in the dining hall (where they exist).
// 3. Throughput: engine.scan() on one core, 8 anchors heard per scan, `--tags` tags scanning once a
//    second of data time, scans pre-generated before the clock starts.
//
// 4. Locations: `--location-tags` tags (20 000) reporting a position every 2 s of data time across
//    `--locations` zones (50, 6 x 4 m rooms on a grid of floors), each tag walking between rooms and
//    standing in doorways; the presence tracker (rules/location.ts, the dwell rule per tag and
//    location) folds every position. Printed: positions/s on one core against the 10 000/s needed,
//    the share of one core the real-time load takes (below 100 %: no growing backlog), confirmed
//    crossings, and the states held in memory.
//
// 5. With `--assets` (alone): the asset inventory's list call on PostgreSQL (bench/assets.ts).
//
//   npm run bench:indoor -- [--walkers 40] [--minutes 60] [--sigma 4] [--seed 7] [--tags 2000] [--scans 200000] [--uncalibrated]
//                           [--location-tags 20000] [--locations 50] [--location-minutes 10] [--locations-only]
//   npm run bench:indoor -- --assets [--asset-tags 20000] [--locations 50] [--asset-fixes 60] [--samples 20]
import {
  aoaReadings,
  anchorPairReadings,
  bleScan,
  CARE_HOME,
  roomAt,
  Rng,
  uwbFix,
  Walker,
  WalkGraph,
  type Building,
  type WalkTruth,
} from '@wt/simulator';
import { fitRadioModel, IndoorEngine, samplesFromAnchorPairs, type EngineOptionsInput, type IndoorFix, type SceneModel } from '../src/indoor/index.js';
import { PresenceTracker, closeRing, type TrackedLocation } from '../src/rules/location.js';
import { benchArgs, fmt, percentile } from './common.js';
import { benchAssets } from './assets.js';

const args = benchArgs();
const WALKERS = Number(args.get('walkers') ?? 40);
const MINUTES = Number(args.get('minutes') ?? 60);
const SIGMA = Number(args.get('sigma') ?? 4);
const SEED = Number(args.get('seed') ?? 7);
const TAGS = Number(args.get('tags') ?? 2000);
const SCANS = Number(args.get('scans') ?? 200_000);
const CALIBRATE = !args.has('uncalibrated');
/** The hardware's true RSSI@1m and n (the best calibration could do), to see what calibration error costs. */
const TRUE_MODEL = args.has('true-model');
/** Engine options as JSON, e.g. --engine '{"k":5,"smoothing":{"processNoise":2}}'. */
const ENGINE: EngineOptionsInput = JSON.parse(args.get('engine') ?? '{}');

const b: Building = CARE_HOME;
const START = Date.UTC(2026, 2, 2, 1, 0, 0);

// ---------------------------------------------------------------- 1. calibration

function calibrate(): { rssi1m: Map<string, number>; exponent: Map<string, number> } {
  const rng = new Rng(SEED * 31 + 1);
  const readings = anchorPairReadings(b, rng, 10, { sigmaDb: SIGMA });
  const rssi1m = new Map<string, number>();
  const exponent = new Map<string, number>();
  console.log(`1. calibration from anchors hearing each other (${fmt(readings.length)} readings, 10 per pair heard, sigma ${SIGMA} dB)`);
  for (const f of b.floors) {
    const anchors = b.anchors.filter((a) => a.kind === 'ble' && a.floorId === f.floorId);
    const keys = new Set(anchors.map((a) => a.key));
    const fit = fitRadioModel(samplesFromAnchorPairs(readings.filter((r) => keys.has(r.from) && keys.has(r.to)), anchors));
    if (!fit) throw new Error(`no calibration for ${f.floorId}`);
    let se = 0;
    for (const a of anchors) {
      rssi1m.set(a.key, fit.rssi1m[a.key] ?? -59);
      se += ((fit.rssi1m[a.key] ?? -59) - a.rssi1m) ** 2;
    }
    exponent.set(f.floorId, fit.exponent);
    const spread = Math.sqrt(anchors.reduce((s, a) => s + (a.rssi1m + 59) ** 2, 0) / anchors.length);
    console.log(
      `   ${f.name}: n ${fmt(fit.exponent, 2)} (true ${fmt(f.exponent, 2)}), fit RMS ${fmt(fit.rmsDb, 2)} dB / ${fmt(fit.rmsMetres, 2)} m over ${fmt(fit.samples)} samples; ` +
        `RSSI@1m error RMS ${fmt(Math.sqrt(se / anchors.length), 2)} dB (the default -59 would be off by ${fmt(spread, 2)} dB RMS)`,
    );
  }
  return { rssi1m, exponent };
}

function sceneOf(method: 'triangular' | 'nearest', sceneId: string, cal: ReturnType<typeof calibrate> | null): SceneModel {
  return {
    sceneId,
    method,
    floors: b.floors.map((f) => ({ floorId: f.floorId, level: f.level, exponent: TRUE_MODEL ? f.exponent : (cal?.exponent.get(f.floorId) ?? 2), geo: f.geo })),
    anchors: b.anchors.map((a) => ({
      key: a.key,
      floorId: a.floorId,
      x: a.x,
      y: a.y,
      height: a.height,
      kind: a.kind,
      rssi1m: TRUE_MODEL ? a.rssi1m : a.kind === 'ble' ? (cal?.rssi1m.get(a.key) ?? -59) : -59,
    })),
    locators: b.locators.map((l) => ({ ...l })),
  };
}

// ---------------------------------------------------------------- 2. accuracy

class Score {
  errors: number[] = [];
  fixes = 0;
  floorOk = 0;
  roomOk = 0;
  add(fix: IndoorFix | null, t: WalkTruth): void {
    if (!fix) return;
    this.fixes++;
    if (fix.floorId !== t.floorId) return;
    this.floorOk++;
    this.errors.push(Math.hypot(fix.x - t.x, fix.y - t.y));
    if (roomAt(b, fix.floorId, fix.x, fix.y)?.id === t.roomId) this.roomOk++;
  }
  row(label: string, note = ''): string {
    const e = this.errors.sort((p, q) => p - q);
    const pct = (n: number) => `${fmt((n / Math.max(1, this.fixes)) * 100, 1)} %`;
    return `   ${label.padEnd(24)} ${fmt(this.fixes).padStart(9)} ${fmt(percentile(e, 50), 2).padStart(8)} ${fmt(percentile(e, 90), 2).padStart(8)} ${pct(this.floorOk).padStart(9)} ${pct(this.roomOk).padStart(9)}  ${note}`;
  }
}

function accuracy(cal: ReturnType<typeof calibrate> | null): { trilateration: Score; nearest: Score } {
  const tri = new IndoorEngine(ENGINE);
  tri.setScenes([sceneOf('triangular', b.sceneId, cal)]);
  const near = new IndoorEngine(ENGINE);
  near.setScenes([sceneOf('nearest', b.sceneId, cal)]);
  const gw = new IndoorEngine(ENGINE);
  gw.setScenes([sceneOf('triangular', b.sceneId, cal)]);
  const s = { trilateration: new Score(), nearest: new Score(), gateways: new Score(), uwb: new Score(), aoa: new Score() };
  const graph = new WalkGraph(b);
  const walkers = Array.from({ length: WALKERS }, (_, i) => new Walker(graph, SEED * 1000 + i, START));
  const rng = new Rng(SEED);
  const tags = walkers.map((_, i) => `tag-${i}`);
  const truths: WalkTruth[] = new Array(WALKERS);
  const end = START + MINUTES * 60_000;
  for (let t = START; t <= end; t += 1000) {
    for (let i = 0; i < WALKERS; i++) {
      // Each tag scans at its own phase within the second.
      const time = t + Math.floor((i * 1000) / WALKERS);
      const truth = walkers[i].truth(time);
      const heard = bleScan(b, truth, rng, { sigmaDb: SIGMA, topN: 8 });
      s.trilateration.add(tri.scan(tags[i], heard, time), truth);
      s.nearest.add(near.scan(tags[i], heard, time), truth);
      // Gateways: every anchor that hears the tag reports it (a separate draw: it is another radio path).
      // The tag's previous window (a second ago) closes now, scored against the truth of then.
      for (const fix of gw.flush(time)) s.gateways.add(fix, truths[Number(fix.tag.slice(4))]);
      for (const h of bleScan(b, truth, rng, { sigmaDb: SIGMA, topN: 64 })) gw.observe(tags[i], h.anchor, h.rssi, time);
      const u = uwbFix(b, truth, rng);
      if (u) s.uwb.add(tri.uwb(`${tags[i]}-uwb`, u, time), truth);
      if (truth.roomId === 'F1-HALL') {
        const r = aoaReadings(b, truth, rng, { sigmaDeg: 4 });
        s.aoa.add(tri.aoa(`${tags[i]}-aoa`, r, time), truth);
      }
      truths[i] = truth;
    }
  }
  console.log(`\n2. accuracy: ${WALKERS} walkers x ${MINUTES} min, one scan a second each, 8 loudest anchors per scan, sigma ${SIGMA} dB, ${CALIBRATE ? 'calibrated' : 'uncalibrated (RSSI@1m -59, n 2)'}${TRUE_MODEL ? ', true radio model' : ''}`);
  console.log(`   ${'method'.padEnd(24)} ${'fixes'.padStart(9)} ${'median m'.padStart(8)} ${'p90 m'.padStart(8)} ${'floor ok'.padStart(9)} ${'room ok'.padStart(9)}`);
  console.log(s.nearest.row('nearest beacon', 'target median < 4 m'));
  console.log(s.trilateration.row('trilateration', 'target median < 1.5 m, p90 < 3 m, floor >= 99 %, room >= 93 %'));
  console.log(s.gateways.row('trilateration, gateways', '1 s windows'));
  console.log(s.uwb.row('UWB (west wing)', '10-30 cm noise'));
  console.log(s.aoa.row('AOA (dining hall)', '2 locators, 4° noise'));
  return s;
}

// ---------------------------------------------------------------- 3. throughput

function throughput(cal: ReturnType<typeof calibrate> | null): void {
  const engine = new IndoorEngine(ENGINE);
  engine.setScenes([sceneOf('triangular', b.sceneId, cal)]);
  // Scans from walkers (so they are realistic), 8 anchors each, for TAGS tags scanning once a second.
  const graph = new WalkGraph(b);
  const walkers = Array.from({ length: Math.min(TAGS, 200) }, (_, i) => new Walker(graph, SEED * 7000 + i, START));
  const rng = new Rng(SEED + 99);
  const tags = Array.from({ length: TAGS }, (_, i) => `T${i}`);
  const scans: { tag: string; heard: { anchor: string; rssi: number }[]; time: number }[] = [];
  for (let k = 0; scans.length < SCANS; k++) {
    const time = START + Math.floor((k * 1000) / TAGS);
    const w = walkers[k % walkers.length];
    const heard = bleScan(b, w.truth(START + Math.floor(k / walkers.length) * 1000 / Math.max(1, TAGS / walkers.length)), rng, { sigmaDb: SIGMA, topN: 8 });
    if (heard.length === 8) scans.push({ tag: tags[k % TAGS], heard, time });
  }
  // Warm-up (JIT), then the measured run.
  for (let i = 0; i < Math.min(20_000, scans.length); i++) engine.scan(scans[i].tag, scans[i].heard, scans[i].time);
  engine.setScenes([sceneOf('triangular', b.sceneId, cal)]);
  let fixes = 0;
  const t0 = performance.now();
  for (const sc of scans) if (engine.scan(sc.tag, sc.heard, sc.time)) fixes++;
  const s = (performance.now() - t0) / 1000;
  console.log(`\n3. throughput: ${fmt(scans.length)} scans of 8 anchors, ${fmt(TAGS)} tags scanning once a second: ${fmt(scans.length / s)} scans/s on one core (target >= 10,000); ${fmt(fixes)} fixes`);
}

// ---------------------------------------------------------------- 4. locations

function locations(): void {
  const TAGS_N = Number(args.get('location-tags') ?? 20_000);
  const LOCS = Number(args.get('locations') ?? 50);
  const MIN = Number(args.get('location-minutes') ?? 10);
  const rng = new Rng(SEED + 500);
  // Rooms of 6 x 4 m on a grid, 10 a row, 10 rooms a floor: a tag is on one floor and walks the row.
  const rooms: TrackedLocation[] = Array.from({ length: LOCS }, (_, i) => {
    const floorId = 1 + Math.floor(i / 10);
    const x0 = (i % 10) * 8;
    return { id: i + 1, kind: 'zone', floorId, ring: closeRing([[x0, 0], [x0 + 6, 0], [x0 + 6, 4], [x0, 4]]) };
  });
  const floors = Math.ceil(LOCS / 10);
  const byFloor = new Map<number, TrackedLocation[]>();
  for (const r of rooms) byFloor.set(r.floorId!, [...(byFloor.get(r.floorId!) ?? []), r]);
  // Each tag: a floor, a position along the row, a walking speed; a third of them linger in doorways.
  const tags = Array.from({ length: TAGS_N }, (_, i) => ({ id: i + 1, floor: 1 + (i % floors), x: rng.next() * 80, y: 1 + rng.next() * 2, v: (rng.next() - 0.5) * 1.2, door: i % 3 === 0 }));
  const tracker = new PresenceTracker({ enter: { fixes: 2, ms: 10_000 }, leave: { fixes: 3, ms: 15_000 }, beaconTimeoutMs: 30_000 });
  const steps = Math.round((MIN * 60) / 2);
  let samples = 0;
  let crossings = 0;
  let doorway = 0;
  let busy = 0;
  for (let k = 0; k < steps; k++) {
    const time = START + k * 2000;
    const t0 = performance.now();
    for (const t of tags) {
      // A doorway: on the wall at x = 6 of its room, a step in and a step out.
      if (t.door) t.x = Math.floor(t.x / 8) * 8 + 6 + (k % 2 ? 0.15 : -0.15);
      else {
        t.x += t.v * 2;
        if (t.x < 0 || t.x > 80) t.v = -t.v;
      }
      const changes = tracker.observe(t.id, byFloor.get(t.floor) ?? [], { kind: 'position', time, floorId: t.floor, x: t.x, y: t.y });
      for (const c of changes) {
        if (!c.crossing) continue;
        if (t.door) doorway++;
        else crossings++;
      }
      samples++;
    }
    busy += performance.now() - t0;
  }
  const s = busy / 1000;
  const needed = TAGS_N / 2;
  console.log(`\n4. locations: ${fmt(TAGS_N)} tags, a position every 2 s, ${fmt(LOCS)} zones, ${fmt(MIN)} min of data time (${fmt(samples)} positions)`);
  console.log(`   ${fmt(samples / s)} positions/s on one core (needed ${fmt(needed)}/s): the real-time load takes ${fmt((needed / (samples / s)) * 100, 1)} % of a core; ${fmt(crossings)} crossings confirmed (${fmt(crossings / (MIN * 60), 1)}/s) by walking tags and ${fmt(doorway)} by the ${fmt(Math.ceil(TAGS_N / 3))} standing in doorways, ${fmt(tracker.states.size)} states held (inside or at a doorway)`);
}

if (args.has('assets')) {
  await benchAssets();
} else {
  if (!args.has('locations-only')) {
    const cal = CALIBRATE ? calibrate() : null;
    accuracy(cal);
    throughput(cal);
  }
  locations();
}
