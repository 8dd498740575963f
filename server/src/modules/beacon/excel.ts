// Beacon lists as spreadsheets: the import (/Beacon/Import: every row checked with the same rules
// as the add calls, then all rows written in one transaction, or none with a row-by-row report),
// its template, and the export of the beacons in reach (/Beacon/Export). The sheet is read in the
// device import's reader thread.
import { sql } from 'drizzle-orm';
import { LOCALES, State, beacon as schemas, translate, type Locale } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { sceneAnchors } from '../../db/schema/index.js';
import { AppError, conflict } from '../../lib/errors.js';
import { accountInScope } from '../../lib/scope.js';
import { isUniqueViolation, jsonParam, rows } from '../../lib/sql.js';
import { writeXlsx, type Cell } from '../../lib/xlsx.js';
import { normalizeMac } from '../../indoor/keys.js';
import { readSheetRows } from '../device/excel.js';
import { beaconCrud, beaconFilters, toBeacon } from './repo.js';
import { MODELS, beaconValues } from './service.js';

const COLUMNS = schemas.BEACON_IMPORT_COLUMNS;
type Column = (typeof COLUMNS)[number];
type Failure = z.infer<typeof schemas.beaconImportFailureSchema>;

const norm = (s: string) => s.replace(/[\s_()（）]/g, '').toLowerCase();
const title = (locale: Locale, c: string) => translate(locale, `beacon.columns.${c}`);
/** A header names a column by its key or its title in any console language. */
const HEADERS = new Map<string, Column>(COLUMNS.flatMap((c) => [norm(c), ...LOCALES.map((l) => norm(title(l, c)))].map((h) => [h, c] as [string, Column])));
/** Type and state cells: the number, or its name in any language. */
const wordsOf = (pairs: [number, string][]) =>
  new Map(pairs.flatMap(([n, key]) => [String(n), ...LOCALES.map((l) => norm(translate(l, key)))].map((w) => [norm(w), n] as [string, number])));
const TYPE_WORDS = wordsOf([
  [1, 'beacon.bluetooth'],
  [2, 'beacon.uwb'],
]);
const STATE_WORDS = wordsOf([
  [1, 'beacon.valid'],
  [2, 'beacon.invalid'],
]);
/** The request field a column feeds. */
const FIELD_COLUMN: Record<string, Column> = { Code: 'Code', Major: 'Major', Minor: 'Minor', Mac: 'Mac', Name: 'Name', Address: 'Address', Lon: 'Longitude', Lat: 'Latitude', Type: 'Type', State: 'State' };

type NewBeacon = typeof sceneAnchors.$inferInsert;

export async function importBeacons(ctx: AuthedContext, b: z.output<typeof schemas.beaconImportRequest>) {
  const { db } = ctx.deps.database;
  const owner = await accountInScope(db, ctx.user, b.UserId);
  const sheet = await readSheetRows(b.Content);
  const header = new Map<Column, number>();
  const first = sheet[0]?.row === 1 ? sheet[0].cells : [];
  first.forEach((text, i) => {
    const c = HEADERS.get(norm(text));
    if (c && !header.has(c)) header.set(c, i);
  });
  if (!header.has('Code') && !header.has('Mac')) throw new AppError(State.BAD_REQUEST, 'beacon.importMissingColumn', { column: 'Code / Mac' });
  const records = sheet
    .filter((r) => r.row !== 1)
    .map((r) => ({ row: r.row, cells: Object.fromEntries(COLUMNS.map((c) => [c, header.has(c) ? (r.cells[header.get(c)!] ?? '').trim() : ''])) as Record<Column, string> }))
    .filter((r) => COLUMNS.some((c) => r.cells[c] !== ''));
  if (!records.length) throw new AppError(State.BAD_REQUEST, 'beacon.importEmpty');

  const failed: Failure[] = [];
  const fail = (row: number, column: Column, value: string, message: string, params?: Record<string, unknown>) =>
    failed.push({ Row: row, Column: column, Value: value, Message: message, ...(params ? { Params: params } : {}) });
  const good: { row: number; values: NewBeacon }[] = [];
  const seenMac = new Map<string, number>();
  const seenCode = new Map<string, number>();
  for (const { row, cells } of records) {
    const model = cells.Code || cells.Major || cells.Minor ? MODELS.UUID_MODEL : MODELS.MAC_MODEL;
    if (!cells.Code && !cells.Mac) {
      fail(row, 'Code', '', 'beacon.importNeedsIdentity');
      continue;
    }
    const body = {
      ...(model === MODELS.UUID_MODEL ? { Code: cells.Code, Major: cells.Major || undefined, Minor: cells.Minor || undefined } : {}),
      Mac: cells.Mac || undefined,
      Name: cells.Name,
      Address: cells.Address,
      Lon: cells.Longitude || undefined,
      Lat: cells.Latitude || undefined,
      Type: cells.Type ? (TYPE_WORDS.get(norm(cells.Type)) ?? cells.Type) : undefined,
      State: cells.State ? (STATE_WORDS.get(norm(cells.State)) ?? cells.State) : undefined,
    };
    const parsed = (model === MODELS.UUID_MODEL ? schemas.addUuidBeaconRequest : schemas.addMacBeaconRequest).safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const column = FIELD_COLUMN[String(issue.path[0])] ?? 'Code';
        fail(row, column, cells[column], issue.message, issue.code === 'too_big' || issue.code === 'too_small' ? { max: (issue as { maximum?: unknown }).maximum } : undefined);
      }
      continue;
    }
    const v = parsed.data as z.output<typeof schemas.addUuidBeaconRequest>;
    const mac = v.Mac ? normalizeMac(v.Mac) : null;
    const codeKey = model === MODELS.UUID_MODEL ? `${v.Code.toLowerCase()}:${v.Major}:${v.Minor}` : null;
    const again = (mac && seenMac.get(mac)) || (codeKey && seenCode.get(codeKey));
    if (again) {
      fail(row, mac && seenMac.has(mac) ? 'Mac' : 'Code', mac && seenMac.has(mac) ? cells.Mac : cells.Code, 'beacon.importDuplicate', { row: again });
      continue;
    }
    if (mac) seenMac.set(mac, row);
    if (codeKey) seenCode.set(codeKey, row);
    good.push({ row, values: { ownerId: owner.id, ...beaconValues(model, v) } });
  }
  // Identities already registered anywhere on the platform ("beacon code or MAC already exists").
  for (const t of await taken(db, good.map((g) => g.values))) {
    const g = good.find((x) => (t.mac && x.values.mac === t.mac) || (t.code && x.values.code?.toLowerCase() === t.code && x.values.major === t.major && x.values.minor === t.minor));
    if (g) fail(g.row, t.mac && g.values.mac === t.mac ? 'Mac' : 'Code', (t.mac && g.values.mac === t.mac ? g.values.mac : g.values.code) ?? '', 'beacon.exists');
  }
  failed.sort((x, y) => x.Row - y.Row);
  const count = (m: number) => good.filter((g) => g.values.model === m).length;
  const answer = { State: State.OK, Rows: records.length, Uuid: count(MODELS.UUID_MODEL), Mac: count(MODELS.MAC_MODEL), Failed: failed } as const;
  if (failed.length || b.DryRun) return { ...answer, Imported: false };
  try {
    await db.transaction(async (tx) => {
      for (let i = 0; i < good.length; i += 1000) await tx.insert(sceneAnchors).values(good.slice(i, i + 1000).map((g) => g.values));
    });
  } catch (err) {
    // Registered meanwhile by another call: nothing of the sheet is kept.
    if (isUniqueViolation(err)) throw conflict('beacon.exists');
    throw err;
  }
  return { ...answer, Imported: true };
}

/** Of the identities given, those already registered. */
async function taken(db: Db, list: NewBeacon[]) {
  if (!list.length) return [];
  const json = jsonParam(list.map((v) => ({ m: v.mac ?? null, c: v.code?.toLowerCase() ?? null, j: v.major ?? null, n: v.minor ?? null })));
  return rows<{ mac: string | null; code: string | null; major: number | null; minor: number | null }>(
    db,
    sql`WITH x AS (SELECT * FROM json_to_recordset(${json}::json) AS x(m text, c text, j int, n int))
        SELECT an.mac, NULL AS code, NULL::int AS major, NULL::int AS minor FROM scene_anchors an JOIN x ON x.m IS NOT NULL AND an.mac = x.m
        UNION ALL
        SELECT NULL, lower(an.code), an.major, an.minor FROM scene_anchors an JOIN x ON x.c IS NOT NULL AND lower(an.code) = x.c AND an.major = x.j AND an.minor = x.n`,
  );
}

const typeName = (locale: Locale, kind: number) => translate(locale, kind === 2 ? 'beacon.uwb' : kind === 3 ? 'beacon.aoa' : 'beacon.bluetooth');
const stateName = (locale: Locale, state: number) => translate(locale, state === 2 ? 'beacon.invalid' : 'beacon.valid');

/** The template: the columns titled in the reader's language and one example row of each model. */
export async function importTemplate(locale: Locale) {
  const content = await writeXlsx([
    {
      name: translate(locale, 'beacon.sheet'),
      widths: [40, 8, 8, 20, 16, 24, 12, 12, 12, 10],
      rows: [
        COLUMNS.map((c) => title(locale, c)),
        ['FDA50693-A4E2-4FB1-AFCF-C6EB07647825', 10001, 1, 'AC:23:3F:A0:10:01', 'Lobby', 'Building A', 113.9431, 22.5405, typeName(locale, 1), stateName(locale, 1)],
        ['', '', '', 'AC:23:3F:A0:10:02', 'Gate', 'Building A', '', '', typeName(locale, 1), stateName(locale, 1)],
      ],
    },
  ]);
  return { State: State.OK, FileName: `${translate(locale, 'beacon.templateFileName')}.xlsx`, Content: content.toString('base64') } as const;
}

export async function exportBeacons(ctx: AuthedContext, q: z.output<typeof schemas.beaconExportRequest>) {
  const { db } = ctx.deps.database;
  const root = q.UserId !== undefined ? await accountInScope(db, ctx.user, q.UserId) : undefined;
  const max = schemas.BEACON_EXPORT_MAX_ROWS;
  const { total, items } = await beaconCrud.list(db, ctx.user, { filters: beaconFilters(q, root?.path), page: { PageNo: 1, PageCount: max } });
  if (total > max) throw new AppError(State.BAD_REQUEST, 'beacon.exportTooMany', { max });
  const l = ctx.locale;
  const head = [...COLUMNS, 'Account', 'Scene', 'Floor'].map((c) => title(l, c));
  const body: Cell[][] = items.map(toBeacon).map((x) => [
    x.Code,
    x.Major,
    x.Minor,
    x.Mac,
    x.Name,
    x.Address,
    x.Lon,
    x.Lat,
    typeName(l, x.Type),
    stateName(l, x.State),
    x.AccountName,
    x.SceneName,
    x.FloorName,
  ]);
  const content = await writeXlsx([{ name: translate(l, 'beacon.sheet'), widths: [40, 8, 8, 20, 16, 24, 12, 12, 12, 10, 16, 16, 12], rows: [head, ...body] }]);
  return { State: State.OK, FileName: `${translate(l, 'beacon.fileName')}.xlsx`, Content: content.toString('base64'), Rows: items.length } as const;
}
