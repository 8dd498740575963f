// The beacon calibration calls: fit the distance model of a floor's BLE anchors (RSSI at 1 m per
// anchor, the floor's path-loss exponent) from what the anchors heard of each other over the last
// minutes (anchor_hearings, gathered by the positioning service), and store a fit once it has been
// looked at. /Scene/Calibrate changes nothing; it answers the fit's error next to the error of the
// values stored now, so the console can show whether applying it helps.
import { sql } from 'drizzle-orm';
import { State, scene as schemas } from '@wt/contract';
import { defineCall, type AuthedContext } from '../../calls.js';
import { AppError } from '../../lib/errors.js';
import { rows } from '../../lib/sql.js';
import { anchorKey, distanceFromRssi, fitRadioModel, rssiAtDistance, samplesFromAnchorPairs, type CalibrationSample } from '../../indoor/index.js';
import { floorInReach } from '../scene/repo.js';

/** Anchor pairs heard at least this often make a fit; fewer say nothing reliable. */
export const MIN_CALIBRATION_PAIRS = 6;
/** Pairs read at most (the most often heard): a floor's anchors hear a few dozen neighbours each. */
const MAX_CALIBRATION_PAIRS = 20_000;
/** Readings one pair contributes at most, so a pair heard all day does not outweigh the others. */
const MAX_READINGS_PER_PAIR = 50;

interface AnchorRow {
  id: number;
  name: string;
  mac: string;
  x: number;
  y: number;
  height: number;
  rssi_1m: number;
}

/** RMS of the model against the samples, in dB and in metres. */
function errors(samples: CalibrationSample[], rssi1m: (key: string) => number, exponent: number) {
  let db = 0;
  let m = 0;
  for (const s of samples) {
    const r1 = rssi1m(s.anchor);
    db += (s.rssi - rssiAtDistance(s.distance, r1, exponent)) ** 2;
    m += (distanceFromRssi(s.rssi, r1, exponent) - s.distance) ** 2;
  }
  const n = Math.max(1, samples.length);
  return { rmsDb: Math.sqrt(db / n), rmsMetres: Math.sqrt(m / n) };
}

const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d;

export async function calibrate(ctx: AuthedContext, b: { FloorId: number; Minutes: number }): Promise<schemas.Calibration> {
  const db = ctx.deps.database.db;
  const floor = await floorInReach(db, ctx.user, 'edit', b.FloorId);
  const anchors = await rows<AnchorRow>(db, sql`SELECT id, name, mac, x, y, height, rssi_1m FROM scene_anchors WHERE floor_id = ${b.FloorId} AND kind = 1 AND state = 1`);
  const byId = new Map(anchors.map((a) => [Number(a.id), a]));
  const keyOf = (a: AnchorRow) => anchorKey({ mac: a.mac }) ?? a.mac;
  // Each hearing minute weighs as its count: its mean RSSI repeated (the fit is least squares).
  const hearings = await rows<{ from_id: number; to_id: number; n: number; mean: number }>(
    db,
    sql`SELECT from_id, to_id, sum(count)::int AS n, sum(rssi_sum) / sum(count) AS mean FROM anchor_hearings
        WHERE floor_id = ${b.FloorId} AND minute >= now() - make_interval(mins => ${b.Minutes}) GROUP BY from_id, to_id
        ORDER BY n DESC LIMIT ${MAX_CALIBRATION_PAIRS}`,
  );
  const readings: { from: string; to: string; rssi: number }[] = [];
  let pairs = 0;
  for (const h of hearings) {
    // from_id heard to_id: to_id transmitted.
    const tx = byId.get(Number(h.to_id));
    const rx = byId.get(Number(h.from_id));
    if (!tx || !rx) continue;
    pairs += 1;
    for (let i = 0; i < Math.min(Number(h.n), MAX_READINGS_PER_PAIR); i++) readings.push({ from: keyOf(tx), to: keyOf(rx), rssi: Number(h.mean) });
  }
  const placed = anchors.map((a) => ({ key: keyOf(a), x: Number(a.x), y: Number(a.y), height: Number(a.height) }));
  const samples = samplesFromAnchorPairs(readings, placed);
  const fit = pairs >= MIN_CALIBRATION_PAIRS ? fitRadioModel(samples) : null;
  if (!fit) throw new AppError(State.CONFLICT, 'scene.calibrationTooFew', { minutes: b.Minutes, pairs, min: MIN_CALIBRATION_PAIRS });
  const current = new Map(anchors.map((a) => [keyOf(a), Number(a.rssi_1m)]));
  const before = errors(samples, (k) => current.get(k) ?? -59, floor.Exponent);
  const pairsOf = new Map<number, number>();
  for (const h of hearings) pairsOf.set(Number(h.to_id), (pairsOf.get(Number(h.to_id)) ?? 0) + 1);
  return {
    FloorId: b.FloorId,
    Exponent: round(fit.exponent, 3),
    Anchors: anchors
      .filter((a) => fit.rssi1m[keyOf(a)] !== undefined)
      .map((a) => ({ BeaconId: Number(a.id), Name: a.name, Rssi1m: round(fit.rssi1m[keyOf(a)]!, 1), Before: Number(a.rssi_1m), Pairs: pairsOf.get(Number(a.id)) ?? 0 })),
    Pairs: pairs,
    RmsDb: round(fit.rmsDb),
    RmsMetres: round(fit.rmsMetres),
    BeforeRmsDb: round(before.rmsDb),
    BeforeRmsMetres: round(before.rmsMetres),
  };
}

export async function applyCalibration(ctx: AuthedContext, b: { FloorId: number; Exponent: number; Anchors: { BeaconId: number; Rssi1m: number }[] }) {
  const db = ctx.deps.database.db;
  const floor = await floorInReach(db, ctx.user, 'edit', b.FloorId);
  await db.transaction(async (tx) => {
    await tx.execute(sql`UPDATE floors SET exponent = ${b.Exponent}, updated_at = now() WHERE id = ${b.FloorId}`);
    if (b.Anchors.length) {
      const json = JSON.stringify(b.Anchors.map((a) => ({ i: a.BeaconId, r: a.Rssi1m })));
      // Only anchors of this floor take a value; other ids are ignored.
      await tx.execute(sql`UPDATE scene_anchors s SET rssi_1m = x.r FROM json_to_recordset(${json}::json) AS x(i int, r real)
        WHERE s.id = x.i AND s.floor_id = ${b.FloorId}`);
    }
  });
  ctx.deps.bus.publish(schemas.SCENES_CHANGED_TOPIC, { sceneIds: [floor.SceneId] });
  return { State: State.OK };
}

export const indoorCalls = [
  defineCall('/Scene/Calibrate', async (ctx, b) => ({ State: State.OK, Item: await calibrate(ctx, b) })),
  defineCall('/Scene/ApplyCalibration', (ctx, b) => applyCalibration(ctx, b)),
];
