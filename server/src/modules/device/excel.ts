// Import of accounts with devices from an .xlsx sheet (/Device/batchDevicesCreateUserByExcel) and
// the template the console offers for download. Every row is checked before anything is written,
// and the writing is one transaction: a sheet is imported whole or not at all.
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { DEFAULT_LOCALE, EMAIL, IMEI, LOCALES, State, device as deviceSchemas, loginPassword, translate, type Locale } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { Db } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import { accountInScope } from '../../lib/scope.js';
import { rows } from '../../lib/sql.js';
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

/** Reads the first sheet into records keyed by the template's columns, with their sheet row numbers. */
export async function readSheet(base64: string): Promise<{ row: number; cells: Record<Column, string> }[]> {
  const data = Buffer.from(base64.replace(/^data:[^,]*,/, ''), 'base64');
  const wb = new ExcelJS.Workbook();
  try {
    await wb.xlsx.load(data as unknown as ArrayBuffer);
  } catch {
    throw new AppError(State.BAD_REQUEST, 'device.importInvalidFile');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new AppError(State.BAD_REQUEST, 'device.importInvalidFile');
  const header = new Map<Column, number>();
  ws.getRow(1).eachCell((cell, col) => {
    const c = HEADER_NAMES.get(normHeader(cell.text));
    if (c && !header.has(c)) header.set(c, col);
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
  ws.eachRow({ includeEmpty: false }, (r, n) => {
    if (n === 1) return;
    const cells = Object.fromEntries(COLUMNS.map((c) => [c, index[c] ? r.getCell(index[c]).text.trim() : ''])) as Record<Column, string>;
    if (COLUMNS.some((c) => cells[c] !== '')) out.push({ row: n, cells });
  });
  return out;
}

export async function importExcel(ctx: AuthedContext, b: z.output<typeof deviceSchemas.importExcelRequest>) {
  const { db } = ctx.deps.database;
  const parent = await accountInScope(db, ctx.user, b.ParentUserId);
  const sheet = await readSheet(b.Content);
  if (sheet.length === 0) throw new AppError(State.BAD_REQUEST, 'device.importEmpty');

  const models = new Map((await rows<{ id: number; name: string }>(db, sql`SELECT id, name FROM device_models`)).map((m) => [m.name.toLowerCase(), m.id]));
  const failed: RowFailure[] = [];
  const fail = (row: number, Column: string, Imei: string, Message: string, Params?: Record<string, unknown>) =>
    failed.push({ Row: row, Column, Imei, Message, ...(Params ? { Params } : {}) });
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
  const plan = await planAccountDevices(db, ctx.user, req);
  for (const f of plan.failures) fail(f.row ?? 0, f.column ?? 'IMEI', f.Imei, f.Message, f.Params);
  failed.sort((x, y) => x.Row - y.Row);

  const summary = req.map((r) => ({ LoginName: r.loginName, UserId: null as number | null, Devices: r.devices.length }));
  const moved = req.reduce((n, r) => n + r.devices.filter((d) => plan.mine.has(d.imei)).length, 0);
  const created = req.reduce((n, r) => n + r.devices.length, 0) - moved;
  if (failed.length || b.DryRun) {
    return { State: State.OK as typeof State.OK, Imported: false, Rows: sheet.length, Accounts: summary, Moved: moved, Created: created, Failed: failed };
  }
  const done = await applyAccountDevices(ctx, parent, req, plan);
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
