// Moving or still, for the asset inventory: a tag moved when two of its fixes of the last
// ASSET_MOVING_SECONDS lie further apart than the noise of their kind (plan metres on a floor plan,
// a GNSS fix's scatter outdoors) or on different floors. One fix, or none, is still.
import { haversineMeters } from './fence.js';

export const ASSET_MOVING_SECONDS = 120;
/** Indoor fixes (plan metres) further apart than this moved. */
export const INDOOR_MOVING_METRES = 2;
/** Outdoor fixes further apart than this moved (a still GNSS fix wanders by some metres). */
export const OUTDOOR_MOVING_METRES = 15;

export interface Fix {
  lat: number | null;
  lon: number | null;
  floorId: number | null;
  x: number | null;
  y: number | null;
}

/** Whether the fixes (oldest first) show movement. */
export function moved(fixes: Fix[]): boolean {
  const indoor = fixes.filter((f) => f.floorId !== null && f.x !== null && f.y !== null);
  if (new Set(indoor.map((f) => f.floorId)).size > 1) return true;
  for (let i = 0; i < indoor.length; i++)
    for (let j = i + 1; j < indoor.length; j++) if (Math.hypot(indoor[i]!.x! - indoor[j]!.x!, indoor[i]!.y! - indoor[j]!.y!) > INDOOR_MOVING_METRES) return true;
  const outdoor = fixes.filter((f) => f.floorId === null && f.lat !== null && f.lon !== null) as (Fix & { lat: number; lon: number })[];
  for (let i = 0; i < outdoor.length; i++)
    for (let j = i + 1; j < outdoor.length; j++) if (haversineMeters(outdoor[i]!, outdoor[j]!) > OUTDOOR_MOVING_METRES) return true;
  return false;
}

/** The devices whose fixes show movement. */
export function movingDevices(byDevice: Map<number, Fix[]>): Set<number> {
  return new Set([...byDevice].filter(([, fixes]) => moved(fixes)).map(([id]) => id));
}
