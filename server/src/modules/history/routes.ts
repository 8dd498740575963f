// The History area's calls: one device's path with stops, and the xlsx export.
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const historyCalls = [
  defineCall('/device/devicesHistory', (ctx, b) => service.deviceHistory(ctx, b)),
  defineCall('/device/BatchExportHistoryDataByUserId', (ctx, b) => service.exportHistory(ctx, b)),
];
