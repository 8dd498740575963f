// /AccountFence/AttendanceExport: the attendance of a filter as a workbook written while it is read
// (by the sheet writer every export shares, lib/export-sheet.ts), as the table shows it:
// the totals per device and fence over the range (View total), or the details per device, fence and
// day (View daily). Rows are
// read by keyset on attendance_daily's primary key (fence, device, day), a page at a time, so memory
// stays flat whatever the range. Headers and texts in the caller's language; times in the fence
// owner's time zone. Nothing to export answers accountFence.noAttendance (409).
import type ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { formatInZone, translate, type Locale } from '@wt/contract';
import type { AuthedContext } from '../../../calls.js';
import { badRequest, conflict } from '../../../lib/errors.js';
import { EXPORT_MAX_ROWS, EXPORT_PAGE_ROWS, mapPages } from '../../../lib/export-sheet.js';
import { rows } from '../../../lib/sql.js';
import { attendanceJob } from './job.js';
import { named, scopeOf, scopedQuery, type AttendanceFilter, type RawRow, type Scope } from './service.js';

/** Devices read per query: their rows of a month stay well under the export's page. */
const EXPORT_DEVICES = Math.max(1, Math.floor(EXPORT_PAGE_ROWS / 31) * 4);

/** The rows of a scope, the devices in scope a chunk at a time (by id), each chunk's rows by the primary key. */
async function* pages(ctx: AuthedContext, s: Scope, view: 'total' | 'daily'): AsyncGenerator<RawRow[]> {
  const db = ctx.deps.database.db;
  let after = 0;
  for (;;) {
    const ids = (await rows<{ id: number }>(db, sql`SELECT d.id FROM devices d WHERE ${s.devices} AND d.id > ${after} ORDER BY d.id LIMIT ${EXPORT_DEVICES}`)).map((r) => Number(r.id));
    if (ids.length === 0) return;
    after = ids[ids.length - 1]!;
    const chunk = sql.raw(`'{${ids.join(',')}}'::int[]`);
    const order = view === 'daily' ? sql`p.device_id, p.fence_id, p.day` : sql`p.device_id, p.fence_id`;
    const page = await rows<RawRow>(db, named(scopedQuery(s, view, sql`a.device_id = ANY(${chunk})`), order));
    if (page.length) yield page;
    if (ids.length < EXPORT_DEVICES) return;
  }
}

function columns(L: Locale, view: 'total' | 'daily'): Partial<ExcelJS.Column>[] {
  const h = (key: string) => translate(L, `attendanceExport.${key}`);
  const head: Partial<ExcelJS.Column>[] = [
    { header: h('fence'), key: 'fence', width: 18 },
    { header: h('imei'), key: 'imei', width: 18 },
    { header: h('deviceName'), key: 'deviceName', width: 16 },
    { header: h('account'), key: 'account', width: 16 },
  ];
  const figures: Partial<ExcelJS.Column>[] = [
    { header: h('insideMinutes'), key: 'insideMinutes', width: 14 },
    { header: h('entries'), key: 'entries', width: 10 },
    { header: h('exits'), key: 'exits', width: 10 },
    { header: h('lateMinutes'), key: 'lateMinutes', width: 14 },
    { header: h('earlyMinutes'), key: 'earlyMinutes', width: 14 },
  ];
  if (view === 'daily') {
    return [
      ...head,
      { header: h('day'), key: 'day', width: 12 },
      { header: h('firstIn'), key: 'firstIn', width: 20 },
      { header: h('lastOut'), key: 'lastOut', width: 20 },
      ...figures,
      { header: h('status'), key: 'status', width: 18 },
    ];
  }
  return [
    ...head,
    { header: h('days'), key: 'days', width: 8 },
    ...figures,
    { header: h('lateDays'), key: 'lateDays', width: 12 },
    { header: h('earlyDays'), key: 'earlyDays', width: 12 },
    { header: h('absentDays'), key: 'absentDays', width: 12 },
  ];
}

/** A row as the cells of its view's columns, in order (arrays write several times faster than keyed objects). */
function shape(L: Locale, r: RawRow, view: 'total' | 'daily'): unknown[] {
  const head = [r.fence_name, r.imei, r.device_name, r.login_name];
  const figures = [Math.round(Number(r.inside_seconds) / 60), Number(r.entries), Number(r.exits), Number(r.late_minutes), Number(r.early_minutes)];
  if (view === 'total') return [...head, Number(r.days), ...figures, Number(r.late_days), Number(r.early_days), Number(r.absent_days)];
  // The day is the fence owner's (attendance is counted in its zone), and so are its first and last times.
  const tz = Number(r.tz);
  const status = [r.absent_days ? 'absent' : '', r.late_days ? 'late' : '', r.early_days ? 'early' : '']
    .filter(Boolean)
    .map((k) => translate(L, `attendanceExport.${k}`))
    .join(', ');
  return [...head, r.day ?? '', r.first_in ? formatInZone(r.first_in, tz) : '', r.last_out ? formatInZone(r.last_out, tz) : '', ...figures, status];
}

export async function exportWorkbook(ctx: AuthedContext, body: AttendanceFilter) {
  const db = ctx.deps.database.db;
  const s = await scopeOf(ctx, body);
  if (s.fenceIds.length) await attendanceJob(ctx.deps).ensureFresh(s.fenceIds, s.to);
  const view = body.View;
  const [count] = s.fenceIds.length ? await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM (${scopedQuery(s, view)}) b`) : [];
  const total = Number(count?.n ?? 0);
  if (total === 0) throw conflict('accountFence.noAttendance');
  if (total > EXPORT_MAX_ROWS) throw badRequest('export.tooMany', { count: total, limit: EXPORT_MAX_ROWS });
  const L = ctx.locale;
  return ctx.request.server.sheets.send(ctx.request, ctx.reply!, {
    fileName: `attendance-${view}-${body.From}-${body.To}`,
    dated: false,
    sheet: translate(L, view === 'total' ? 'attendanceExport.sheetTotal' : 'attendanceExport.sheetDaily'),
    columns: columns(L, view),
    total,
    pages: mapPages(pages(ctx, s, view), (r) => shape(L, r, view)),
  });
}
