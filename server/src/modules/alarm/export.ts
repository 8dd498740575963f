// Spreadsheet exports of alarm records and health readings, and the plugin of every export route:
// POST /api/export/alarm-records, /api/export/health-readings and /api/export/devices
// (modules/device/export.ts) take the same filters as their list calls and answer an .xlsx file,
// streamed (lib/export-sheet.ts). They sit outside the call registry because their answer is a
// file, not the JSON envelope.
import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { alarmRecordFilter, healthFilter, translate, type Locale } from '@wt/contract';
import { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { AppDeps } from '../../deps.js';
import { alarmTypes } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { EXPORT_PAGE_ROWS, checkExportSize, exportContext, mapPages, parseFilter } from '../../lib/export-sheet.js';
import { allOf, rows } from '../../lib/sql.js';
import { deviceExportRoutes } from '../device/export.js';
import { countReadings, readingOut, readingPages } from '../health/service.js';
import { RECORD_COLUMNS, recordConditions, recordOut, type RecordFilter } from './service.js';
import { alarmTypeName } from './format.js';

type Row = Record<string, unknown>;

/** Alarm records newest first, page by page by keyset (created_at as text keeps its microseconds). */
export async function* recordPages(ctx: AuthedContext, f: RecordFilter, pageSize = EXPORT_PAGE_ROWS): AsyncGenerator<Row[]> {
  const conds = await recordConditions(ctx, f);
  let after: { time: string; id: number } | undefined;
  for (;;) {
    const cursor = after ? sql`(alarms.created_at < ${after.time} OR (alarms.created_at = ${after.time} AND alarms.id < ${after.id}))` : sql`TRUE`;
    const page = await rows<Row>(
      ctx.deps.database.db,
      sql`SELECT ${RECORD_COLUMNS}, al.created_at::text AS "cursorTime" FROM (
            SELECT * FROM alarms WHERE ${allOf(conds)} AND ${cursor} ORDER BY alarms.created_at DESC, alarms.id DESC LIMIT ${pageSize}
          ) al JOIN devices d ON d.id = al.device_id JOIN accounts a ON a.id = al.account_id LEFT JOIN accounts cb ON cb.id = al.confirmed_by
          ORDER BY al.created_at DESC, al.id DESC`,
    );
    if (page.length === 0) return;
    yield page;
    if (page.length < pageSize) return;
    const last = page[page.length - 1]!;
    after = { time: String(last.cursorTime), id: Number(last.id) };
  }
}

const h = (locale: Locale, key: string) => translate(locale, `alarmExport.${key}`);

export async function exportRoutes(app: FastifyInstance, opts: { deps: AppDeps }) {
  const sheets = app.sheets;
  deviceExportRoutes(app, opts);
  const records = z.object(alarmRecordFilter);
  // Failures are thrown and rendered by the shared error handler, like every call's.
  app.post('/api/export/alarm-records', async (request, reply) => {
    const ctx = await exportContext(app, opts.deps, request, 'alarm.export');
    const filter = parseFilter(records, request.body);
    const [{ n }] = (await rows<{ n: number }>(ctx.deps.database.db, sql`SELECT count(*)::int AS n FROM alarms WHERE ${allOf(await recordConditions(ctx, filter))}`)) as [{ n: number }];
    const total = Number(n);
    checkExportSize(total);
    const L = ctx.locale;
    // Type names as the installation's table has them (administrators edit them), in the caller's language.
    const types = new Map((await ctx.deps.database.db.select().from(alarmTypes)).map((t) => [t.code, t]));
    return sheets.send(request, reply, {
      fileName: 'alarms',
      sheet: h(L, 'alarmSheet'),
      total,
      columns: [
        { header: h(L, 'time'), key: 'time', width: 20 },
        { header: h(L, 'type'), key: 'type', width: 16 },
        { header: 'IMEI', key: 'imei', width: 18 },
        { header: h(L, 'deviceName'), key: 'device', width: 18 },
        { header: h(L, 'account'), key: 'account', width: 16 },
        { header: h(L, 'model'), key: 'model', width: 12 },
        { header: h(L, 'message'), key: 'message', width: 30 },
        { header: h(L, 'count'), key: 'count', width: 8 },
        { header: h(L, 'status'), key: 'status', width: 10 },
        { header: h(L, 'remark'), key: 'remark', width: 24 },
      ],
      pages: mapPages(recordPages(ctx, filter), (r) => {
        const o = recordOut(L, ctx.user, r);
        return {
          time: o.Created,
          type: alarmTypeName(L, o.Type, types.get(o.Type)),
          imei: o.Imei,
          device: o.DeviceName,
          account: o.AccountName,
          model: o.Model,
          message: o.Message,
          count: o.Count,
          status: h(L, o.Status === 1 ? 'confirmed' : 'unconfirmed'),
          remark: o.Remark,
        };
      }),
    });
  });

  const readings = z.object(healthFilter);
  app.post('/api/export/health-readings', async (request, reply) => {
    const ctx = await exportContext(app, opts.deps, request, 'health.export');
    const filter = parseFilter(readings, request.body);
    // One row per device and report time, as the list shows them.
    const total = await countReadings(ctx, filter);
    if (total === 0) throw new AppError(404, 'health.noData');
    checkExportSize(total);
    const L = ctx.locale;
    return sheets.send(request, reply, {
      fileName: 'health',
      sheet: h(L, 'healthSheet'),
      total,
      columns: [
        { header: h(L, 'time'), key: 'Time', width: 20 },
        { header: 'IMEI', key: 'Imei', width: 18 },
        { header: h(L, 'deviceName'), key: 'DeviceName', width: 18 },
        { header: h(L, 'heartRate'), key: 'HeartRate', width: 10 },
        { header: h(L, 'systolic'), key: 'Systolic', width: 10 },
        { header: h(L, 'diastolic'), key: 'Diastolic', width: 10 },
        { header: h(L, 'bodyTemp'), key: 'BodyTemp', width: 10 },
        { header: h(L, 'wristTemp'), key: 'WristTemp', width: 10 },
        { header: h(L, 'bloodOxygen'), key: 'BloodOxygen', width: 10 },
        { header: 'HRV', key: 'Hrv', width: 8 },
        { header: h(L, 'steps'), key: 'Steps', width: 10 },
        { header: h(L, 'distance'), key: 'Distance', width: 10 },
        { header: h(L, 'calories'), key: 'Calories', width: 10 },
        { header: 'UV', key: 'Uv', width: 8 },
        { header: 'PHO', key: 'Pho', width: 8 },
        { header: 'IR', key: 'Ir', width: 8 },
      ],
      pages: mapPages(readingPages(ctx, filter, EXPORT_PAGE_ROWS), (r) => readingOut(ctx.user, r)),
    });
  });
}
