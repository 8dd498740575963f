// What the positioning tests share: the two sibling tenants with the rights of the position pages,
// and a scene with one floor plan.
import { sql } from 'drizzle-orm';
import { CLEAN_SVG, pngDataUrl, svgDataUrl } from './images.js';
import type { TestPlatform } from './helpers.js';

/** agent01 and operator01 (siblings) as position-page users, logged in. */
export async function positionTenants(p: TestPlatform) {
  await p.deps.database.db.execute(sql`UPDATE accounts SET user_type = 3 WHERE login_name IN ('agent01', 'operator01')`);
  return { agent: (await p.login('agent01')).token, operator: (await p.login('operator01')).token };
}

/** A scene with one floor (a 40 x 30 plan), made by `token`. */
export async function sceneWithFloor(p: TestPlatform, token: string, scene: string, floor: { no: number; name: string; description: string }) {
  const sceneId = (await p.call('/Scene/addSceneInfo', { Name: scene, Lat: 22.54, Lon: 113.93, Address: '深圳', BeaconType: 1, Method: 1, MapSvg: svgDataUrl(CLEAN_SVG) }, token)).body.SceneId as number;
  const floorId = (await p.call('/Scene/addFoorsInfo', { SceneId: sceneId, FloorNo: floor.no, Name: floor.name, Description: floor.description, Type: 1, Plan: pngDataUrl(40, 30) }, token)).body.FloorId as number;
  return { sceneId, floorId };
}
