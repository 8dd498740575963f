// Import of accounts with devices from an .xlsx sheet (/Device/batchDevicesCreateUserByExcel) and
// the template the console offers for download. Every row is checked before anything is written;
// the writing goes in slices of short transactions, and a slice that fails undoes the ones before
// it (applyAccountDevices): a sheet is imported whole or not at all.
import ExcelJS from 'exceljs';
import { Piscina } from 'piscina';
import { sql } from 'drizzle-orm';
import { DEFAULT_LOCALE, EMAIL, IMEI, LOCALES, State, device as deviceSchemas, loginPassword, translate, type Locale } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { accountInScope } from '../../lib/scope.js';
import { importPace, rows } from '../../lib/sql.js';
import { applyAccountDevices, planAccountDevices, type NewAccountRows } from './service.js';

const COLUMNS = deviceSchemas.IMPORT_COLUMNS;
type Column = (typeof COLUMNS)[number];

const normHeader = (s: string) => s.replace(/[\s_()（）]/g, '').toLowerCase();
/** The title of a column in a language (the template's header row). */
const columnTitle = (locale: Locale, c: Column) => translate(locale, `device.importColumns.${c}`);
/** A header cell names a column by its key (LoginName ...) or by its title in any console language. */
const HEADER_NAMES = new Map<string, Column>(
  COLUMNS.flatMap((c) => [normHeader(c), ...LOCALES.map((l) => normHeader(columnTitle(l, c)))].map((h) => [h, c] as [string, Column])),
);
type RowFailure = z.infer<typeof deviceSchemas.importRowFailureSchema>;

/** Most device rows one import takes; a larger sheet is refused, to be split. */
export const IMPORT_MAX_ROWS = 10_000;
/** Columns read per row (the template has 8), and characters kept per cell (beyond every field's limit). */
const MAX_COLUMNS = 64;
const MAX_CELL_LENGTH = 1024;
/** Longest a workbook may take to read, and the memory its reader may use. */
const READ_TIMEOUT_MS = 60_000;
const READ_MEMORY_MB = 512;

// Workbooks are read in a worker thread (excel-reader.worker.mjs): unzipping and parsing a large
// one took seconds of the event loop that every device and console shares. One reader thread, a few
// imports waiting at most; it exits when idle.
let pool: Piscina | undefined;
function sheetReader(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./excel-reader.worker.mjs', import.meta.url).href,
    minThreads: 0,
    maxThreads: 1,
    maxQueue: 4,
    idleTimeout: 30_000,
    resourceLimits: { maxOldGenerationSizeMb: READ_MEMORY_MB },
  });
  return pool;
}

/** Stops the reader thread (the platform's shutdown). */
export async function closeSheetReader() {
  const p = pool;
  pool = undefined;
  await p?.destroy();
}

type SheetRows = { status: 'ok'; rows: { row: number; cells: string[] }[] } | { status: 'noSheet' } | { status: 'tooManyRows' };

/** The non-empty rows of the first sheet, read off the event loop; refuses what cannot be read. */
export async function readSheetRows(base64: string, maxRows = IMPORT_MAX_ROWS): Promise<{ row: number; cells: string[] }[]> {
  let r: SheetRows;
  try {
    r = (await sheetReader().run(
      { base64, maxRows, maxColumns: MAX_COLUMNS, maxCellLength: MAX_CELL_LENGTH },
      { signal: AbortSignal.timeout(READ_TIMEOUT_MS) },
    )) as SheetRows;
  } catch (err) {
    const e = err as { message?: string; code?: string; name?: string };
    if (/queue is at limit/i.test(e.message ?? '')) throw new AppError(State.TOO_MANY_REQUESTS, 'device.importBusy');
    // Out of its memory, or out of time: a zip that unpacks to far more than it looks.
    if (e.code === 'ERR_WORKER_OUT_OF_MEMORY' || e.name === 'AbortError' || e.name === 'TimeoutError') throw new AppError(State.BAD_REQUEST, 'device.importTooComplex');
    throw new AppError(State.BAD_REQUEST, 'device.importInvalidFile');
  }
  if (r.status === 'tooManyRows') throw new AppError(State.BAD_REQUEST, 'device.importTooManyRows', { max: maxRows });
  if (r.status === 'noSheet') throw new AppError(State.BAD_REQUEST, 'device.importInvalidFile');
  return r.rows;
}

/** Reads the first sheet into records keyed by the template's columns, with their sheet row numbers. */
export async function readSheet(base64: string): Promise<{ row: number; cells: Record<Column, string> }[]> {
  const sheetRows = await readSheetRows(base64);
  const header = new Map<Column, number>();
  const first = sheetRows[0]?.row === 1 ? sheetRows[0].cells : [];
  first.forEach((text, i) => {
    const c = HEADER_NAMES.get(normHeader(text));
    if (c && !header.has(c)) header.set(c, i + 1);
  });
  const index = {} as Record<Column, number>;
  for (const c of COLUMNS) {
    const at = header.get(c);
    // Username, Email, ICCID and DeviceName may be left out of a sheet; the rest are needed.
    if (at === undefined && ['LoginName', 'Password', 'IMEI', 'Model'].includes(c)) {
      throw new AppError(State.BAD_REQUEST, 'device.importMissingColumn', { column: c });
    }
    index[c] = at ?? 0;
  }
  const out: { row: number; cells: Record<Column, string> }[] = [];
  for (const r of sheetRows) {
    if (r.row === 1) continue;
    const cells = Object.fromEntries(COLUMNS.map((c) => [c, index[c] ? (r.cells[index[c] - 1] ?? '').trim() : ''])) as Record<Column, string>;
    if (COLUMNS.some((c) => cells[c] !== '')) out.push({ row: r.row, cells });
  }
  return out;
}

export async function importExcel(ctx: AuthedContext, b: z.output<typeof deviceSchemas.importExcelRequest>) {
  const { db } = ctx.deps.database;
  const parent = await accountInScope(db, ctx.user, b.ParentUserId);
  const sheet = await readSheet(b.Content);
  if (sheet.length === 0) throw new AppError(State.BAD_REQUEST, 'device.importEmpty');

  const models = new Map((await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM device_models`)).map((m) => [m.name.toLowerCase(), m.id]));
  const failed: RowFailure[] = [];
  const failure = (row: number, Column: string, Imei: string, Message: string, Params?: Record<string, unknown>): RowFailure => ({ Row: row, Column, Imei, Message, ...(Params ? { Params } : {}) });
  const fail = (...f: Parameters<typeof failure>) => failed.push(failure(...f));
  const planFailures = (p: Awaited<ReturnType<typeof planAccountDevices>>) => p.failures.map((f) => failure(f.row ?? 0, f.column ?? 'IMEI', f.Imei, f.Message, f.Params));
  const byLogin = new Map<string, NewAccountRows>();
  for (const { row, cells } of sheet) {
    const imei = cells.IMEI;
    let ok = true;
    const refuse = (column: string, key: string) => {
      ok = false;
      fail(row, column, imei, key);
    };
    if (!cells.LoginName) refuse('LoginName', 'validation.accountRequired');
    const pw = loginPassword.safeParse(cells.Password);
    if (!pw.success) refuse('Password', pw.error.issues[0]!.message);
    if (!imei) refuse('IMEI', 'validation.imeiRequired');
    else if (!IMEI.test(imei)) refuse('IMEI', 'validation.imeiInvalid');
    if (cells.ICCID && !/^[0-9A-Za-z]{1,32}$/.test(cells.ICCID)) refuse('ICCID', 'device.iccidInvalid');
    if (cells.Email && !EMAIL.test(cells.Email)) refuse('Email', 'validation.emailInvalid');
    const modelId = models.get(cells.Model.toLowerCase());
    if (!cells.Model) refuse('Model', 'validation.modelRequired');
    else if (!modelId) refuse('Model', 'device.modelNotFound');
    if (!ok) continue;
    const key = cells.LoginName.toLowerCase();
    let acc = byLogin.get(key);
    if (!acc) {
      acc = { loginName: cells.LoginName, password: cells.Password, username: cells.Username || undefined, email: cells.Email || undefined, devices: [] };
      byLogin.set(key, acc);
    } else if (acc.password !== cells.Password) {
      fail(row, 'Password', imei, 'device.importPasswordMismatch', { loginName: cells.LoginName });
      continue;
    }
    acc.devices.push({ imei, iccid: cells.ICCID || undefined, modelId, name: cells.DeviceName || undefined, row });
  }
  const req = [...byLogin.values()];
  // Database checks (free login names, IMEIs the caller's or unknown) cover the rows valid so far.
  const pace = importPace(ctx.deps);
  const plan = await planAccountDevices(db, ctx.user, req, pace);
  failed.push(...planFailures(plan));
  const byRow = (list: RowFailure[]) => list.sort((x, y) => x.Row - y.Row);
  byRow(failed);

  const summary = req.map((r) => ({ LoginName: r.loginName, UserId: null as number | null, Devices: r.devices.length }));
  const moved = req.reduce((n, r) => n + r.devices.filter((d) => plan.mine.has(d.imei)).length, 0);
  const created = req.reduce((n, r) => n + r.devices.length, 0) - moved;
  const refused = (list: RowFailure[]) => ({ State: State.OK as typeof State.OK, Imported: false, Rows: sheet.length, Accounts: summary, Moved: moved, Created: created, Failed: list });
  if (failed.length || b.DryRun) return refused(failed);
  let done: Awaited<ReturnType<typeof applyAccountDevices>>;
  try {
    done = await applyAccountDevices(ctx, parent, req, plan);
  } catch (err) {
    // Undone. A login name or IMEI taken meanwhile is reported as the checks report it.
    const again = planFailures(await planAccountDevices(db, ctx.user, req, pace));
    if (!again.length) throw err;
    return refused(byRow(again));
  }
  return {
    State: State.OK as typeof State.OK,
    Imported: true,
    Rows: sheet.length,
    Accounts: done.map((d) => ({ LoginName: d.loginName, UserId: d.userId, Devices: d.moved + d.created })),
    Moved: moved,
    Created: created,
    Failed: [],
  };
}

/** The template: the columns titled in the reader's language, one example row, and the models to choose from on a second sheet. */
export async function importTemplate(db: Db, locale: Locale = DEFAULT_LOCALE): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(translate(locale, 'device.importSheet'));
  ws.columns = COLUMNS.map((c) => ({ header: columnTitle(locale, c), key: c, width: c === 'IMEI' || c === 'ICCID' ? 22 : 16 }));
  // IMEIs and ICCIDs are text, so Excel keeps every digit.
  ws.getColumn('IMEI').numFmt = '@';
  ws.getColumn('ICCID').numFmt = '@';
  ws.getRow(1).font = { bold: true };
  const models = await rows<{ name: string; type: string }>(db, sql`SELECT name, type FROM device_models ORDER BY name`);
  ws.addRow({
    LoginName: 'customer01',
    Password: 'abc123',
    Username: 'Customer 01',
    Email: 'customer01@example.com',
    IMEI: '860000000000001',
    ICCID: '89860000000000000001',
    Model: models[0]?.name ?? '',
    DeviceName: 'Watch 1',
  });
  const ms = wb.addWorksheet(translate(locale, 'device.importModelsSheet'));
  ms.columns = [
    { header: columnTitle(locale, 'Model'), key: 'name', width: 24 },
    { header: translate(locale, 'device.importModelType'), key: 'type', width: 20 },
  ];
  for (const m of models) ms.addRow(m);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
