// Spreadsheet exports of alarm records and health readings: POST /api/export/alarm-records and
// /api/export/health-readings with the same filters as the list calls, answered as an .xlsx file.
// They sit outside the call registry because their answer is a file, not the JSON envelope.
import ExcelJS from 'exceljs';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  alarmRecordFilter,
  alarmTypeByCode,
  hasMessage,
  healthFilter,
  translate,
  type Locale,
} from '@wt/contract';
import { z } from 'zod';
import type { AuthedContext } from '../../calls.js';
import type { AppDeps } from '../../deps.js';
import { AppError } from '../../lib/errors.js';
import { requestLocale } from '../../plugins/calls.js';
import { queryReadings, readingOut } from '../health/service.js';
import { queryRecords, recordOut } from './service.js';

/** Rows in one export: a spreadsheet beyond this is not read by anyone, and it bounds the memory used. */
export const EXPORT_MAX_ROWS = 100_000;

/** The authenticated caller of an export (a file route outside the call registry). */
export async function exportContext(app: FastifyInstance, deps: AppDeps, request: FastifyRequest): Promise<AuthedContext> {
  const user = await app.authenticator.fromHeader(request.headers.authorization);
  return {
    deps,
    user,
    locale: requestLocale(request),
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
    request,
  };
}

async function send(reply: FastifyReply, wb: ExcelJS.Workbook, name: string) {
  const buf = await wb.xlsx.writeBuffer();
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header(
      'content-disposition',
      `attachment; filename="${name}-${new Date().toISOString().slice(0, 10)}.xlsx"`,
    )
    .send(Buffer.from(buf));
}

const h = (locale: Locale, key: string) => translate(locale, `alarmExport.${key}`);

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

export async function exportRoutes(app: FastifyInstance, opts: { deps: AppDeps }) {
  const records = z.object(alarmRecordFilter);
  // Failures are thrown and rendered by the shared error handler, like every call's.
  app.post('/api/export/alarm-records', async (request, reply) => {
    const ctx = await exportContext(app, opts.deps, request);
    const filter = parseFilter(records, request.body);
    const found = await queryRecords(ctx, filter, EXPORT_MAX_ROWS, 0);
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet(h(ctx.locale, 'alarmSheet'));
    const L = ctx.locale;
    ws.columns = [
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
    ];
    for (const r of found) {
      const o = recordOut(L, r);
      const t = alarmTypeByCode(o.Type);
      ws.addRow({
        time: o.Created,
        type: t ? (L === 'en' ? t.en : t.zh) : String(o.Type),
        imei: o.Imei,
        device: o.DeviceName,
        account: o.AccountName,
        model: o.Model,
        message: o.Message,
        count: o.Count,
        status: h(L, o.Status === 1 ? 'confirmed' : 'unconfirmed'),
        remark: o.Remark,
      });
    }
    ws.getRow(1).font = { bold: true };
    return send(reply, wb, 'alarms');
  });

  const readings = z.object(healthFilter);
  app.post('/api/export/health-readings', async (request, reply) => {
    const ctx = await exportContext(app, opts.deps, request);
    const filter = parseFilter(readings, request.body);
    const found = await queryReadings(ctx, filter, EXPORT_MAX_ROWS, 0);
    if (!found.length) throw new AppError(404, 'health.noData');
    const L = ctx.locale;
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet(h(L, 'healthSheet'));
    ws.columns = [
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
    ];
    for (const r of found) ws.addRow(readingOut(r));
    ws.getRow(1).font = { bold: true };
    return send(reply, wb, 'health');
  });
}
