// What attendance needs of account fences: each fence compiled with its owner's time zone and
// schedule (cached until the fence's updated_at moves), and the devices a fence watches (the devices
// of the accounts it names, and with IncludeChildren those of their sub-accounts).
import { sql, type SQL } from 'drizzle-orm';
import type { StoredSchedule } from '../../../db/schema/account-fence.js';
import type { Db } from '../../../db/client.js';
import { rows } from '../../../lib/sql.js';
import type { Area } from '../../../rules/area.js';
import type { Schedule } from '../../../rules/schedule.js';
import { fenceArea, type DistrictPolygons, type FenceGeometryRow } from '../areas.js';
import { districtPolygons } from '../districts.js';

export interface AttendanceFence {
  id: number;
  name: string;
  ownerId: number;
  tz: number;
  schedule: Schedule | null;
  createdAt: number;
  updatedAt: number;
  area: Area;
}

interface FenceRow extends FenceGeometryRow {
  id: number;
  name: string;
  owner_id: number;
  tz: number;
  schedule: StoredSchedule | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const ms = (v: Date | string) => (v instanceof Date ? v : new Date(v)).getTime();

/** District boundaries: the shipped dataset at full precision (swappable for tests). */
let districtLoader: DistrictPolygons = (code) => districtPolygons(code);
export function setDistrictLoader(loader: DistrictPolygons) {
  districtLoader = loader;
  compiled.clear();
}

const compiled = new Map<number, { updatedAt: number; area: Area }>();

/** The fences selected by `where` (on account_fences f), compiled. */
export async function loadFences(db: Db, where: SQL = sql`TRUE`): Promise<AttendanceFence[]> {
  const list = await rows<FenceRow>(
    db,
    sql`SELECT f.id, f.name, f.owner_id, f.kind, f.lat, f.lon, f.radius, f.points, f.district_code, f.schedule, f.created_at, f.updated_at,
               a.time_zone_offset AS tz
          FROM account_fences f JOIN accounts a ON a.id = f.owner_id
         WHERE ${where} ORDER BY f.id`,
  );
  const out: AttendanceFence[] = [];
  for (const r of list) {
    const updatedAt = ms(r.updated_at);
    let c = compiled.get(r.id);
    if (!c || c.updatedAt !== updatedAt) {
      c = { updatedAt, area: await fenceArea(r, districtLoader) };
      compiled.set(r.id, c);
    }
    out.push({
      id: r.id,
      name: r.name,
      ownerId: r.owner_id,
      tz: Number(r.tz),
      schedule: r.schedule ? { days: r.schedule.days, windows: r.schedule.windows } : null,
      createdAt: ms(r.created_at),
      updatedAt,
      area: c.area,
    });
  }
  return out;
}

/**
 * (fence_id, device_id) of every watched device, for the fences selected by `fenceWhere` (on
 * account_fences f) and the devices selected by `deviceWhere` (on devices d).
 */
export function watchedSql(fenceWhere: SQL, deviceWhere: SQL = sql`TRUE`): SQL {
  return sql`SELECT DISTINCT w.fence_id, w.device_id FROM (
               SELECT f.id AS fence_id, d.id AS device_id
                 FROM account_fences f
                 JOIN account_fence_accounts fa ON fa.fence_id = f.id
                 JOIN devices d ON d.account_id = fa.account_id
                WHERE ${fenceWhere} AND ${deviceWhere}
               UNION ALL
               SELECT f.id, d.id
                 FROM account_fences f
                 JOIN account_fence_accounts fa ON fa.fence_id = f.id
                 JOIN accounts wa ON wa.id = fa.account_id
                 JOIN accounts da ON da.path LIKE wa.path || '%' AND da.id <> wa.id
                 JOIN devices d ON d.account_id = da.id
                WHERE f.include_children AND ${fenceWhere} AND ${deviceWhere}) w`;
}

export async function isWatched(db: Db, fenceId: number, deviceId: number): Promise<boolean> {
  const r = await rows(db, sql`${watchedSql(sql`f.id = ${fenceId}`, sql`d.id = ${deviceId}`)} LIMIT 1`);
  return r.length > 0;
}
