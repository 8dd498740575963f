// Asset inventory: devices of the caller's subtree marked as assets, where each is now (the
// location presence of modules/location, the latest indoor floor, last seen), moving or still from
// its fixes of the last ASSET_MOVING_SECONDS, missing when not seen for ASSET_MISSING_MINUTES; and
// the stock-take of a location: the assets expected there against those inside it now and seen
// recently, saved with who and when, exported as an .xlsx.
import { sql, type SQL } from 'drizzle-orm';
import { State, asset as schemas, translate, type Locale } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { StockTakeLine } from '../../db/schema/index.js';
import { fieldError, notFound } from '../../lib/errors.js';
import { subtreePattern } from '../../lib/scope.js';
import { allOf, contains, iso, rows } from '../../lib/sql.js';
import { shownTime } from '../../lib/time.js';
import { writeXlsx, type Cell } from '../../lib/xlsx.js';
import { locationCrud } from '../location/service.js';
import { ASSET_MOVING_SECONDS, movingDevices, type Fix } from '../../rules/asset.js';

const ints = (ids: number[]) => sql.join(ids.map((i) => sql`${i}`), sql`, `);

/** Assets of the caller's subtree: asset a, device d, account acc, state s, with `extra` conditions. */
const inScope = (ctx: AuthedContext, extra: SQL[] = []) =>
  sql`FROM assets a JOIN devices d ON d.id = a.device_id JOIN accounts acc ON acc.id = d.account_id LEFT JOIN device_state s ON s.device_id = a.device_id
      WHERE ${allOf([sql`acc.path LIKE ${subtreePattern(ctx.user)}`, ...extra])}`;

/** Seen since this time: not missing. */
const missingBefore = (ctx: AuthedContext) => new Date(Date.now() - ctx.deps.config.ASSET_MISSING_MINUTES * 60_000).toISOString();

interface AssetRow {
  device_id: number;
  imei: string;
  name: string;
  account_name: string;
  category: number;
  expected_location_id: number | null;
  expected_location_name: string | null;
  location_id: number | null;
  location_name: string | null;
  floor_name: string | null;
  last_seen: Date | null;
}

export async function list(ctx: AuthedContext, q: z.output<typeof schemas.assetListRequest>) {
  const { db } = ctx.deps.database;
  const before = missingBefore(ctx);
  const seen = sql`s.last_seen >= ${before}`;
  const filters: SQL[] = [];
  if (q.Keyword) filters.push(sql`(d.imei ILIKE ${contains(q.Keyword)} OR d.name ILIKE ${contains(q.Keyword)})`);
  if (q.Category !== undefined) filters.push(sql`a.category = ${q.Category}`);
  if (q.LocationId !== undefined) filters.push(sql`EXISTS (SELECT 1 FROM beacon_location_presence p WHERE p.device_id = a.device_id AND p.location_id = ${q.LocationId} AND p.inside)`);
  if (q.State === 1) filters.push(seen);
  if (q.State === 2) filters.push(sql`(s.last_seen IS NULL OR s.last_seen < ${before})`);
  const [counts] = await rows<{ n: number; missing: number }>(
    db,
    sql`SELECT count(*)::int AS n, count(*) FILTER (WHERE s.last_seen IS NULL OR s.last_seen < ${before})::int AS missing ${inScope(ctx, filters)}`,
  );
  const items = await rows<AssetRow>(
    db,
    sql`SELECT a.device_id, d.imei, d.name, acc.login_name AS account_name, a.category, a.expected_location_id, el.name AS expected_location_name,
               loc.id AS location_id, loc.name AS location_name, f.name AS floor_name, s.last_seen
        FROM (SELECT a.device_id, s.last_seen ${inScope(ctx, filters)} ORDER BY d.imei LIMIT ${q.PageCount} OFFSET ${(q.PageNo - 1) * q.PageCount}) page
        JOIN assets a ON a.device_id = page.device_id
        JOIN devices d ON d.id = a.device_id JOIN accounts acc ON acc.id = d.account_id
        LEFT JOIN device_state s ON s.device_id = a.device_id
        LEFT JOIN beacon_locations el ON el.id = a.expected_location_id
        LEFT JOIN floors f ON f.id = s.indoor_floor_id
        LEFT JOIN LATERAL (SELECT l.id, l.name FROM beacon_location_presence p JOIN beacon_locations l ON l.id = p.location_id
                           WHERE p.device_id = a.device_id AND p.inside ORDER BY p.since DESC LIMIT 1) loc ON TRUE
        ORDER BY d.imei`,
  );
  const moving = await movingOf(
    ctx,
    items.map((r) => Number(r.device_id)),
  );
  const perLocation = await rows<{ id: number; name: string; n: number }>(
    db,
    sql`SELECT l.id, l.name, count(*)::int AS n
        FROM beacon_location_presence p JOIN beacon_locations l ON l.id = p.location_id
        JOIN assets a ON a.device_id = p.device_id JOIN devices d ON d.id = a.device_id JOIN accounts acc ON acc.id = d.account_id
        WHERE p.inside AND acc.path LIKE ${subtreePattern(ctx.user)}
        GROUP BY l.id, l.name ORDER BY l.name LIMIT 500`,
  );
  return {
    State: State.OK,
    Total: Number(counts?.n ?? 0),
    Missing: Number(counts?.missing ?? 0),
    MissingMinutes: ctx.deps.config.ASSET_MISSING_MINUTES,
    Items: items.map((r) => {
      const missing = !r.last_seen || new Date(r.last_seen).toISOString() < before;
      return {
        DeviceId: Number(r.device_id),
        Imei: r.imei,
        Name: r.name,
        AccountName: r.account_name,
        Category: Number(r.category),
        ExpectedLocationId: r.expected_location_id === null ? null : Number(r.expected_location_id),
        ExpectedLocationName: r.expected_location_name,
        LocationId: r.location_id === null ? null : Number(r.location_id),
        LocationName: r.location_name,
        FloorName: r.floor_name,
        LastSeen: iso(r.last_seen),
        Moving: !missing && moving.has(Number(r.device_id)),
        Missing: missing,
      };
    }),
    PerLocation: perLocation.map((r) => ({ LocationId: Number(r.id), Name: r.name, Count: Number(r.n) })),
  } as const;
}

/** The devices among `ids` whose recent fixes moved them. */
async function movingOf(ctx: AuthedContext, ids: number[]) {
  if (!ids.length) return new Set<number>();
  const since = new Date(Date.now() - ASSET_MOVING_SECONDS * 1000).toISOString();
  const fixes = await rows<{ device_id: number; lat: number | null; lon: number | null; floor_id: number | null; x: number | null; y: number | null }>(
    ctx.deps.database.db,
    sql`SELECT device_id, lat, lon, floor_id, x, y FROM positions WHERE device_id IN (${ints(ids)}) AND time >= ${since} ORDER BY device_id, time`,
  );
  const by = new Map<number, Fix[]>();
  for (const f of fixes) {
    const list = by.get(Number(f.device_id)) ?? [];
    list.push({ lat: f.lat, lon: f.lon, floorId: f.floor_id === null ? null : Number(f.floor_id), x: f.x, y: f.y });
    by.set(Number(f.device_id), list);
  }
  return movingDevices(by);
}

/** Of `ids`, those devices in the caller's subtree. */
async function devicesInScope(ctx: AuthedContext, ids: number[]) {
  const found = await rows<{ id: number }>(
    ctx.deps.database.db,
    sql`SELECT d.id FROM devices d JOIN accounts acc ON acc.id = d.account_id WHERE d.id IN (${ints(ids)}) AND acc.path LIKE ${subtreePattern(ctx.user)}`,
  );
  return new Set(found.map((r) => Number(r.id)));
}

const outcome = (ids: number[], ok: Set<number>, key: string) => ({
  State: State.OK,
  Succeeded: ok.size,
  Failed: [...new Set(ids)].filter((i) => !ok.has(i)).map((i) => ({ Imei: String(i), Message: key })),
});

export async function save(ctx: AuthedContext, b: z.output<typeof schemas.saveAssetsRequest>) {
  const { db } = ctx.deps.database;
  if (b.ExpectedLocationId !== null && !(await locationCrud.find(db, ctx.user, b.ExpectedLocationId))) throw fieldError('ExpectedLocationId', 'asset.locationNotFound');
  const ok = await devicesInScope(ctx, b.DeviceIds);
  if (ok.size)
    await db.execute(
      sql`INSERT INTO assets (device_id, category, expected_location_id)
          SELECT x, ${b.Category}, ${b.ExpectedLocationId}::int FROM unnest(ARRAY[${ints([...ok])}]::int[]) AS x
          ON CONFLICT (device_id) DO UPDATE SET category = EXCLUDED.category, expected_location_id = EXCLUDED.expected_location_id, updated_at = now()`,
    );
  return outcome(b.DeviceIds, ok, 'asset.notFound');
}

export async function remove(ctx: AuthedContext, ids: number[]) {
  const ok = await devicesInScope(ctx, ids);
  const gone = ok.size
    ? await rows<{ device_id: number }>(ctx.deps.database.db, sql`DELETE FROM assets WHERE device_id IN (${ints([...ok])}) RETURNING device_id`)
    : [];
  return outcome(ids, new Set(gone.map((r) => Number(r.device_id))), 'asset.notFound');
}

interface StockTakeRow {
  id: number;
  location_id: number;
  location_name: string;
  user_name: string;
  time: Date;
  expected: number;
  seen: number;
  missing: number;
  extra: number;
  lines: StockTakeLine[];
}

const toStockTake = (r: StockTakeRow): schemas.StockTake => ({
  StockTakeId: Number(r.id),
  LocationId: Number(r.location_id),
  LocationName: r.location_name,
  UserName: r.user_name,
  Time: iso(r.time)!,
  Expected: Number(r.expected),
  Seen: Number(r.seen),
  Missing: Number(r.missing),
  Extra: Number(r.extra),
  Lines: r.lines.map((l) => ({ DeviceId: l.deviceId, Imei: l.imei, Name: l.name, Category: l.category, Result: l.result })),
});

const ST_COLUMNS = sql`id, location_id, location_name, user_name, time, expected, seen, missing, extra, lines`;

/** Stock-take of a location now: expected there against inside it and seen within ASSET_MISSING_MINUTES. */
export async function stockTake(ctx: AuthedContext, locationId: number) {
  const { db } = ctx.deps.database;
  const loc = await locationCrud.find(db, ctx.user, locationId);
  if (!loc) throw fieldError('LocationId', 'asset.locationNotFound');
  const found = await rows<{ device_id: number; imei: string; name: string; category: number; expected: boolean; seen: boolean }>(
    db,
    sql`SELECT a.device_id, d.imei, d.name, a.category, a.expected_location_id IS NOT DISTINCT FROM ${locationId}::int AS expected,
               (s.last_seen >= ${missingBefore(ctx)} AND EXISTS (SELECT 1 FROM beacon_location_presence p WHERE p.device_id = a.device_id AND p.location_id = ${locationId} AND p.inside)) AS seen
        ${inScope(ctx, [sql`(a.expected_location_id = ${locationId} OR EXISTS (SELECT 1 FROM beacon_location_presence p WHERE p.device_id = a.device_id AND p.location_id = ${locationId} AND p.inside))`])}
        ORDER BY d.imei`,
  );
  const lines: StockTakeLine[] = found
    .filter((r) => r.expected || r.seen)
    .map((r) => ({ deviceId: Number(r.device_id), imei: r.imei, name: r.name, category: Number(r.category), result: r.expected ? (r.seen ? 1 : 2) : 3 }))
    .sort((x, y) => x.result - y.result || x.imei.localeCompare(y.imei));
  const n = (result: number) => lines.filter((l) => l.result === result).length;
  const [row] = await rows<StockTakeRow>(
    db,
    sql`INSERT INTO asset_stock_takes (owner_id, location_id, location_name, user_id, user_name, expected, seen, missing, extra, lines)
        VALUES (${loc.l.ownerId}, ${locationId}, ${loc.l.name}, ${ctx.user.id}, ${ctx.user.loginName}, ${n(1) + n(2)}, ${n(1) + n(3)}, ${n(2)}, ${n(3)}, ${JSON.stringify(lines)}::jsonb)
        RETURNING ${ST_COLUMNS}`,
  );
  return { State: State.OK, Item: toStockTake(row!) } as const;
}

const stockTakesInScope = (ctx: AuthedContext) => sql`owner_id IN (SELECT id FROM accounts WHERE path LIKE ${subtreePattern(ctx.user)})`;

export async function stockTakes(ctx: AuthedContext, q: z.output<typeof schemas.stockTakeListRequest>) {
  const { db } = ctx.deps.database;
  const where = allOf([stockTakesInScope(ctx), ...(q.LocationId !== undefined ? [sql`location_id = ${q.LocationId}`] : [])]);
  const [total] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM asset_stock_takes WHERE ${where}`);
  const items = await rows<StockTakeRow>(
    db,
    sql`SELECT ${ST_COLUMNS} FROM asset_stock_takes WHERE ${where} ORDER BY time DESC, id DESC LIMIT ${q.PageCount} OFFSET ${(q.PageNo - 1) * q.PageCount}`,
  );
  return { State: State.OK, Total: Number(total?.n ?? 0), Items: items.map(toStockTake) } as const;
}

export async function exportStockTake(ctx: AuthedContext, stockTakeId: number) {
  const [row] = await rows<StockTakeRow>(ctx.deps.database.db, sql`SELECT ${ST_COLUMNS} FROM asset_stock_takes WHERE id = ${stockTakeId} AND ${stockTakesInScope(ctx)}`);
  if (!row) throw notFound('asset.stockTakeNotFound');
  const st = toStockTake(row);
  const l: Locale = ctx.locale;
  const c = (k: string) => translate(l, `asset.column.${k}`);
  const head: Cell[][] = [
    [c('location'), st.LocationName],
    // As text in the viewer's zone: a sheet's date cell carries no zone and would read as UTC.
    [c('time'), shownTime(ctx.user, st.Time)],
    [c('user'), st.UserName],
    [translate(l, 'asset.result.2'), st.Missing, translate(l, 'asset.result.3'), st.Extra],
    [],
    [c('imei'), c('name'), c('category'), c('result')],
  ];
  const body: Cell[][] = st.Lines.map((x) => [x.Imei, x.Name, translate(l, `asset.category.${x.Category}`), translate(l, `asset.result.${x.Result}`)]);
  const content = await writeXlsx([{ name: translate(l, 'asset.sheet'), widths: [20, 24, 16, 12], rows: [...head, ...body] }]);
  return { State: State.OK, FileName: `${translate(l, 'asset.fileName', { location: st.LocationName })}.xlsx`, Content: content.toString('base64'), Rows: body.length } as const;
}
