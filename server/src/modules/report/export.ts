// /Report/Export: a report as a workbook written while it is computed (by the sheet writer every export
// shares, lib/export-sheet.ts). Trips and stops: a row per trip or stop of the device or group's
// devices (at most MAX_TRIP_DEVICES); summary: a row per device and day, the devices read a page at a
// time so memory stays flat whatever the subtree; alarms: a row per alarm type with its count and
// time to confirm. Headers and type names in the caller's language, times in its zone.
import type ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { translate, type Locale } from '@wt/contract';
import type { AuthedContext } from '../../calls.js';
import { badRequest, conflict } from '../../lib/errors.js';
import { EXPORT_MAX_ROWS } from '../../lib/export-sheet.js';
import { rows } from '../../lib/sql.js';
import { shownTime } from '../../lib/time.js';
import * as service from './service.js';

type Kind = 'trips' | 'stops' | 'summary' | 'alarms';
type Body = service.Subject & service.Thresholds & { Report: Kind };

/** Devices summarised per page of the summary export. */
const SUMMARY_DEVICES = 50;

function columns(L: Locale, kind: Kind): Partial<ExcelJS.Column>[] {
  const c = (key: string, width: number) => ({ header: translate(L, `reportExport.${key}`), key, width });
  const device = [c('imei', 18), c('deviceName', 16)];
  if (kind === 'trips') {
    return [...device, c('start', 20), c('startAddress', 28), c('end', 20), c('endAddress', 28), c('distanceKm', 12), c('minutes', 12), c('maxSpeed', 14), c('avgSpeed', 14)];
  }
  if (kind === 'stops') return [...device, c('start', 20), c('end', 20), c('minutes', 12), c('address', 32)];
  if (kind === 'summary') {
    return [
      ...device,
      c('day', 12),
      c('distanceKm', 12),
      c('movingMinutes', 12),
      c('stoppedMinutes', 12),
      c('maxSpeed', 14),
      c('firstTime', 20),
      c('lastTime', 20),
      c('alarms', 8),
      c('heartRate', 14),
      c('bloodOxygen', 14),
      c('bodyTemp', 14),
      c('systolic', 14),
    ];
  }
  return [c('type', 22), c('count', 10), c('p50', 16), c('p90', 16)];
}

const km = (m: number) => Math.round(m / 100) / 10;
const range = (e: { Min: number; Max: number } | null) => (e ? `${e.Min}-${e.Max}` : '');

/** A report's sheet: its file name, sheet name, columns, row count and rows (refused when empty or too big). */
export async function reportSheet(ctx: AuthedContext, body: Body) {
  const L = ctx.locale;
  const kind = body.Report;
  const fileName = `${kind}-${body.From}-${body.To}`;
  const sheet = (total: number, pages: AsyncIterable<unknown[][]>) => {
    if (total === 0) throw conflict('report.nothing');
    if (total > EXPORT_MAX_ROWS) throw badRequest('export.tooMany', { count: total, limit: EXPORT_MAX_ROWS });
    return { fileName, sheet: translate(L, `reportExport.sheet${kind[0]!.toUpperCase()}${kind.slice(1)}`), columns: columns(L, kind), total, pages };
  };
  const t = (iso: string) => shownTime(ctx.user, iso);
  if (kind === 'trips' || kind === 'stops') {
    const r = await service.trips(ctx, body);
    const cells =
      kind === 'trips'
        ? r.Devices.flatMap((d) =>
            d.Trips.map((x) => [d.Imei, d.Name, t(x.Start), x.StartPlace.Address, t(x.End), x.EndPlace.Address, km(x.Distance), x.Minutes, x.MaxSpeed, x.AvgSpeed]),
          )
        : r.Devices.flatMap((d) => d.Stops.map((x) => [d.Imei, d.Name, t(x.Start), t(x.End), x.Minutes, x.Address]));
    return sheet(cells.length, (async function* () {
      yield cells;
    })());
  }
  if (kind === 'summary') {
    const where = await service.subjectDevices(ctx, body, false);
    const [{ n }] = (await rows<{ n: number }>(ctx.deps.database.db, sql`SELECT count(*)::int AS n FROM devices d WHERE ${where}`)) as [{ n: number }];
    const { from, to } = service.periodOf(ctx, body);
    const days = Math.round((to - from) / 86_400_000);
    async function* pages(): AsyncGenerator<unknown[][]> {
      for (let page = 1; ; page++) {
        const r = await service.summary(ctx, { ...body, PageNo: page, PageCount: SUMMARY_DEVICES });
        if (!r.Items.length) return;
        yield r.Items.map((x) => [
          x.Imei,
          x.Name,
          x.Day,
          km(x.Distance),
          x.MovingMinutes,
          x.StoppedMinutes,
          x.MaxSpeed,
          x.First ? t(x.First.Time) : '',
          x.Last ? t(x.Last.Time) : '',
          x.Alarms,
          range(x.HeartRate),
          range(x.BloodOxygen),
          range(x.BodyTemp),
          range(x.Systolic),
        ]);
        if (page * SUMMARY_DEVICES >= r.Total) return;
      }
    }
    return sheet(Number(n) * days, pages());
  }
  const r = await service.alarms(ctx, body);
  const cells = r.ByType.map((x) => [x.Name, x.Count, x.P50Minutes ?? '', x.P90Minutes ?? '']);
  return sheet(cells.length, (async function* () {
    yield cells;
  })());
}

export async function exportReport(ctx: AuthedContext, body: Body) {
  const s = await reportSheet(ctx, body);
  return ctx.request.server.sheets.send(ctx.request, ctx.reply!, { ...s, dated: false });
}
