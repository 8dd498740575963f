// What every spreadsheet export shares (POST /api/export/...: alarm records, health readings,
// devices): the caller, the filter parsed like its list call's, the size limit, and the writer that
// streams the sheet as its rows are read. The rows are read page by page by keyset, each page
// written and handed to the socket before the next is read, so memory stays flat; X-Total-Rows
// announces the count for the console's progress. Exports still running when the server closes are
// cut, so a client that stopped reading cannot hold the shutdown.
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasMessage, type Action } from '@wt/contract';
import type { z } from 'zod';
import type { AuthedContext } from '../calls.js';
import type { AppDeps } from '../deps.js';
import { requestLocale, requireAction } from '../plugins/calls.js';
import { AppError } from './errors.js';

/**
 * The authenticated caller of an export (a file route outside the call registry), refused (403)
 * when its permission set lacks the export's action or its password must be changed first.
 */
export async function exportContext(app: FastifyInstance, deps: AppDeps, request: FastifyRequest, action: Action): Promise<AuthedContext> {
  const user = await app.authenticator.fromHeader(request.headers.authorization);
  if (user.mustChangePassword) throw new AppError(403, 'account.mustChangePassword');
  requireAction(user, action, requestLocale(request));
  return {
    deps,
    user,
    locale: requestLocale(request),
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
    request,
  };
}

/** The filter of an export, or the same validation failure a list call answers (via the shared error handler). */
export function parseFilter<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data;
  throw new AppError(
    400,
    'common.validation',
    undefined,
    r.error.issues.map((i) => ({
      Field: i.path.join('.'),
      Message: hasMessage(i.message) ? i.message : 'validation.invalid',
    })),
  );
}

/** Rows a worksheet holds below its header (the .xlsx format's limit is 1 048 576 rows): the most one export writes. */
export const EXPORT_MAX_ROWS = 1_048_575;
/** Rows read per query: large enough that the per-query cost vanishes, small enough to hold. */
export const EXPORT_PAGE_ROWS = 2_000;

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Refuses an export of more rows than a sheet holds, before anything is written. */
export function checkExportSize(total: number) {
  if (total > EXPORT_MAX_ROWS) throw new AppError(400, 'export.tooMany', { count: total, limit: EXPORT_MAX_ROWS });
}

/**
 * Answers a spreadsheet written as it is read: `pages` yields the rows a page at a time, each
 * either keyed by the columns' keys or as the cells in the columns' order (which writes about three
 * times faster). The file is `fileName` and the day's date, or `fileName` alone when it names its
 * own dates. Headers go out with the first bytes; a failure after that can only cut the file short,
 * which the console reports as a failed download.
 */
export interface SheetStreams {
  send(
    request: FastifyRequest,
    reply: FastifyReply,
    o: {
      fileName: string;
      dated?: boolean;
      sheet: string;
      columns: Partial<ExcelJS.Column>[];
      total: number;
      pages: AsyncIterable<Record<string, unknown>[] | unknown[][]>;
    },
  ): FastifyReply;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The one sheet writer of every export (file routes and calls alike). */
    sheets: SheetStreams;
  }
}

/** Decorates the app with its sheet writer; the exports still running are cut when the app closes. */
export const sheetsPlugin = fp(
  async (app: FastifyInstance) => {
    const active = new Set<PassThrough>();
    app.addHook('preClose', (done) => {
      for (const out of active) out.destroy();
      done();
    });
    app.decorate('sheets', { send: (request, reply, o) => streamSheet(active, request, reply, o) } satisfies SheetStreams);
  },
  { name: 'sheets' },
);

function streamSheet(
  active: Set<PassThrough>,
  request: FastifyRequest,
  reply: FastifyReply,
  o: Parameters<SheetStreams['send']>[2],
) {
  const out = new PassThrough();
  active.add(out);
  out.once('close', () => active.delete(out));
  writeSheet(out, o).then(
    () => undefined,
    (err: unknown) => {
      request.log.error({ err, file: o.fileName }, 'export failed');
      out.destroy(err as Error);
    },
  );
  return reply
    .header('content-type', XLSX)
    .header('content-disposition', `attachment; filename="${o.dated === false ? o.fileName : `${o.fileName}-${new Date().toISOString().slice(0, 10)}`}.xlsx"`)
    .header('x-total-rows', String(o.total))
    .header('access-control-expose-headers', 'X-Total-Rows')
    .header('cache-control', 'no-store')
    .send(out);
}

type SheetSpec = Pick<Parameters<SheetStreams['send']>[2], 'sheet' | 'columns' | 'pages'>;

/** Writes the sheet to `out` page by page, waiting for a slow reader between pages. */
async function writeSheet(out: PassThrough, o: SheetSpec): Promise<void> {
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
  const ws = wb.addWorksheet(o.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = o.columns;
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  for await (const page of o.pages) {
    for (const r of page) ws.addRow(r).commit();
    if (out.destroyed) return;
    // Let the page be compressed and sent before the next is read (an embedded database answers
    // without giving the event loop a turn), and let a slow reader hold the next query back: the
    // rows wait in the database, not in memory.
    await new Promise<void>((resolve) => setImmediate(resolve));
    // A reader that went away closes the stream: stop waiting then.
    while (out.writableNeedDrain && !out.destroyed) await Promise.race([once(out, 'drain'), once(out, 'close')]);
  }
  ws.commit();
  await wb.commit();
}

/** The same sheet as a file in memory, for a mail's attachment (a scheduled report). */
export async function sheetBuffer(o: SheetSpec): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = once(out, 'end');
  await writeSheet(out, o);
  await ended;
  return Buffer.concat(chunks);
}

/** Maps each page of an iterable. */
export async function* mapPages<T, U>(pages: AsyncIterable<T[]>, f: (row: T) => U): AsyncGenerator<U[]> {
  for await (const page of pages) yield page.map(f);
}

