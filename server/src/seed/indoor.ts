// The demo scene: the simulator's two-storey care home (simulator/src/indoor/building.ts) as a scene
// of operator01 (the demo account that has the inner map): its site map, both floors with their
// plans, scale and place on the earth, BLE anchors about every 8 m, UWB anchors in the west wing of
// floor 1 and two AOA locators in the dining hall. Its tags are devices of operator01: residents'
// watches that report the beacons they hear, asset tags heard by the gateways, UWB tags and AOA
// tags. In demo mode the simulator walks them (gateway/service.ts); the anchors start uncalibrated
// (RSSI at 1 m -59 everywhere, exponent 2), as installed hardware does.
import type { DemoStep } from './demo.js';
import { newToken } from '../modules/integration/repo.js';
import { newFileKey } from '../modules/scene/files.js';

/** The HTTP uplink integration the demo's indoor gateways and tags report through. */
export const INDOOR_DEMO_INTEGRATION = 'indoor-gateways';

const RESIDENTS = ['陈秀英', '林桂芳', '黄国华', '周玉兰', '吴建平', '郑淑贞', '王福海', '李美华', '张玉珍', '刘德顺', '杨桂香', '赵文斌'];
const ASSETS = ['轮椅 01', '轮椅 02', '输液泵 01', '输液泵 02', '助行器 01', '监护仪 01', '血压计 01', '急救箱 01'];
const UWB_TAGS = ['护士 周敏', '护士 李娜', '护工 王强'];
const AOA_TAGS = ['餐厅 访客 01', '餐厅 访客 02'];

/** The demo's indoor tags: identity (IMEI, or MAC for asset tags), kind and name. */
export function indoorDemoTags(): { id: string; imei: string; extId: string | null; kind: 'wearable' | 'asset' | 'uwb' | 'aoa'; name: string }[] {
  const out: ReturnType<typeof indoorDemoTags> = [];
  let n = 0;
  // 866…5001 on: their last ten digits (the watch protocol's short id) differ from the other demo devices'.
  const imei = () => `866${String(5000 + ++n).padStart(12, '0')}`;
  for (const name of RESIDENTS) {
    const i = imei();
    out.push({ id: i, imei: i, extId: null, kind: 'wearable', name });
  }
  ASSETS.forEach((name, k) => {
    const mac = `AC:23:3F:D0:00:${String(k + 1).padStart(2, '0')}`;
    out.push({ id: mac, imei: imei(), extId: mac.toLowerCase(), kind: 'asset', name });
  });
  for (const name of UWB_TAGS) {
    const i = imei();
    out.push({ id: i, imei: i, extId: null, kind: 'uwb', name });
  }
  for (const name of AOA_TAGS) {
    const i = imei();
    out.push({ id: i, imei: i, extId: null, kind: 'aoa', name });
  }
  return out;
}

/** A simple site map of the building (the scene's SVG map). */
function siteMap(name: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 440 260" width="440" height="260">
  <rect width="440" height="260" fill="#eef3ea"/>
  <path d="M0 225 H440" stroke="#c9ccd1" stroke-width="22"/>
  <rect x="20" y="30" width="400" height="200" fill="#ffffff" stroke="#3c4048" stroke-width="4"/>
  <rect x="20" y="110" width="400" height="30" fill="#f1f3f5"/>
  <rect x="180" y="140" width="160" height="90" fill="#fdf3e1" stroke="#3c4048" stroke-width="2"/>
  <rect x="340" y="140" width="80" height="90" fill="#e7ecf5" stroke="#3c4048" stroke-width="2"/>
  <text x="220" y="22" font-family="sans-serif" font-size="14" text-anchor="middle" fill="#3c4048">${name}</text>
</svg>`;
}

const CODE = 'FDA50693A4E24FB1AFCFC6EB07647825';

export const seedIndoorDemo: DemoStep = async (deps, accounts) => {
  let sim: typeof import('@wt/simulator');
  try {
    sim = await import('@wt/simulator');
  } catch (err) {
    deps.log.warn({ err }, 'the device simulator is not available: no demo scene');
    return;
  }
  const b = sim.CARE_HOME;
  const owner = accounts.operator;
  const q = deps.database.query.bind(deps.database);
  const key = newFileKey;
  const [scene] = await q<{ id: number }>(
    `INSERT INTO scenes (owner_id, name, lat, lon, address, enabled, beacon_type, method, map_svg, map_key)
     VALUES ($1, $2, $3, $4, $5, true, 1, 1, $6, $7) RETURNING id`,
    [owner.id, '阳光护理院', b.floors[0]!.geo.originLat, b.floors[0]!.geo.originLon, '深圳市福田区福中三路 1 号', siteMap('阳光护理院 Sunshine Care Home'), key()],
  );
  const floorIds = new Map<string, number>();
  for (const f of b.floors) {
    const plan = sim.renderFloorPlan(b, f.floorId);
    const [row] = await q<{ id: number }>(
      `INSERT INTO floors (scene_id, floor_no, name, description, kind, plan, plan_key, width, height, metres_per_pixel, origin_lat, origin_lon, rotation, exponent)
       VALUES ($1, $2, $3, $4, 3, $5, $6, $7, $8, $9, $10, $11, $12, 2) RETURNING id`,
      [scene!.id, f.level, `${f.level} 楼`, f.level === 1 ? '餐厅、护士站、西翼 UWB 区域' : '住宿区与休息厅', plan.png, key(), plan.width, plan.height, f.metresPerPixel, f.geo.originLat, f.geo.originLon, f.geo.rotation],
    );
    floorIds.set(f.floorId, row!.id);
  }
  let minor = 0;
  for (const a of b.anchors) {
    minor += 1;
    await q(
      `INSERT INTO scene_anchors (owner_id, scene_id, floor_id, name, mac, code, major, minor, kind, state, x, y, height, heading, rssi_1m)
       VALUES ((SELECT owner_id FROM scenes WHERE id = $1), $1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10, $11, 0, -59)`,
      [scene!.id, floorIds.get(a.floorId), `${a.kind === 'uwb' ? 'UWB' : 'BLE'}-${a.key.slice(-5).replace(':', '')}`, a.key, CODE, a.kind === 'uwb' ? 2 : 1, minor, a.kind === 'uwb' ? 2 : 1, a.x, a.y, a.height],
    );
  }
  for (const l of b.locators) {
    minor += 1;
    await q(
      `INSERT INTO scene_anchors (owner_id, scene_id, floor_id, name, mac, code, major, minor, kind, state, x, y, height, heading, rssi_1m)
       VALUES ((SELECT owner_id FROM scenes WHERE id = $1), $1, $2, $3, $4, $5, 3, $6, 3, 1, $7, $8, $9, $10, -59)`,
      [scene!.id, floorIds.get(l.floorId), `AOA-${l.key.slice(-2)}`, l.key, CODE, minor, l.x, l.y, l.height, l.heading],
    );
  }
  for (const t of indoorDemoTags()) {
    await q(
      `INSERT INTO devices (imei, short_id, ext_id, name, model_name, protocol, account_id)
       VALUES ($1, $2, $3, $4, $5, 'uplink', $6) ON CONFLICT (imei) DO NOTHING`,
      [t.imei, t.imei.slice(-10), t.extId, t.name, t.kind === 'wearable' ? 'K9 4G 定位手表' : t.kind === 'asset' ? 'B2 蓝牙资产标签' : t.kind === 'uwb' ? 'U1 UWB 工牌' : 'A1 AOA 标签', owner.id],
    );
  }
  if ((deps.config.SIMULATE ?? 50) > 0) await seedDemoPlaces(deps, owner.id, floorIds, b.floors);
  // The token is set again, and handed to the simulator, each time the demo simulation starts.
  await q(`INSERT INTO integrations (name, account_id, token_hash) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING`, [INDOOR_DEMO_INTEGRATION, owner.id, newToken().hash]);
};

/** The demo's locations: rooms of the care home, each a zone of its floor (plan metres). */
export const DEMO_LOCATIONS = [
  { room: 'F1-HALL', name: '餐厅', description: '一楼餐厅：进出都提醒', event: 2 },
  { room: 'F1-NURSE', name: '护士站', description: '一楼护士站', event: 1 },
  { room: 'F2-LOUNGE', name: '休息厅', description: '二楼休息厅', event: 1 },
] as const;

/** The demo's asset tags as assets: category (1 wheelchair, 2 pump, 4 tool, 5 other) and where each belongs. */
const DEMO_ASSETS: Record<string, { category: number; home: (typeof DEMO_LOCATIONS)[number]['name'] }> = {
  '轮椅 01': { category: 1, home: '休息厅' },
  '轮椅 02': { category: 1, home: '餐厅' },
  '输液泵 01': { category: 2, home: '护士站' },
  '输液泵 02': { category: 2, home: '护士站' },
  '助行器 01': { category: 5, home: '休息厅' },
  '监护仪 01': { category: 4, home: '护士站' },
  '血压计 01': { category: 4, home: '护士站' },
  '急救箱 01': { category: 5, home: '餐厅' },
};

/**
 * Locations and assets for the simulated care home, so the pages that show them start with
 * something that moves: the tags walk in and out of these rooms. Only with the simulation (the
 * tests' platforms start without it and build their own).
 */
async function seedDemoPlaces(
  deps: Parameters<DemoStep>[0],
  ownerId: number,
  floorIds: Map<string, number>,
  floors: { floorId: string; rooms: { id: string; x0: number; y0: number; x1: number; y1: number }[] }[],
): Promise<void> {
  const q = deps.database.query.bind(deps.database);
  const ids = new Map<string, number>();
  for (const l of DEMO_LOCATIONS) {
    const floor = floors.find((f) => f.rooms.some((r) => r.id === l.room))!;
    const r = floor.rooms.find((x) => x.id === l.room)!;
    const points = [[r.x0, r.y0], [r.x1, r.y0], [r.x1, r.y1], [r.x0, r.y1]];
    const [row] = await q<{ id: number }>(
      `INSERT INTO beacon_locations (owner_id, name, description, event, kind, floor_id, points)
       VALUES ($1, $2, $3, $4, 1, $5, $6::jsonb) RETURNING id`,
      [ownerId, l.name, l.description, l.event, floorIds.get(floor.floorId), JSON.stringify(points)],
    );
    ids.set(l.name, row!.id);
  }
  for (const t of indoorDemoTags().filter((x) => x.kind === 'asset')) {
    const a = DEMO_ASSETS[t.name];
    if (!a) continue;
    await q(
      `INSERT INTO assets (device_id, category, expected_location_id)
       SELECT id, $2, $3 FROM devices WHERE imei = $1 ON CONFLICT (device_id) DO NOTHING`,
      [t.imei, a.category, ids.get(a.home)],
    );
  }
}
