// The reports area's calls: trips and stops, the summary per device per day, the alarms report, and
// any of them as a workbook.
import { defineCall } from '../../calls.js';
import { exportReport } from './export.js';
import * as service from './service.js';

export const reportCalls = [
  defineCall('/Report/Trips', (ctx, b) => service.trips(ctx, b)),
  defineCall('/Report/Summary', (ctx, b) => service.summary(ctx, b)),
  defineCall('/Report/Alarms', (ctx, b) => service.alarms(ctx, b)),
  defineCall('/Report/Export', (ctx, b) => exportReport(ctx, b)),
];
