// Attendance at account fences: the statistics table, one device's day, and the workbook.
import { defineCall } from '../../../calls.js';
import { exportWorkbook } from './export.js';
import * as service from './service.js';

export const attendanceCalls = [
  defineCall('/AccountFence/Attendance', (ctx, body) => service.list(ctx, body)),
  defineCall('/AccountFence/AttendanceDay', (ctx, body) => service.day(ctx, body)),
  defineCall('/AccountFence/AttendanceExport', (ctx, body) => exportWorkbook(ctx, body)),
];
