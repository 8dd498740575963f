// The Health area's calls.
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const healthCalls = [
  defineCall('/health/GetHealth2', (ctx, body) => service.series(ctx, body)),
  defineCall('/Device/allHealthDataPage', (ctx, body) => service.listReadings(ctx, body)),
  defineCall('/health/HealthHasDataForDevice', (ctx, body) => service.hasDataForDevice(ctx, body)),
  defineCall('/health/HealthHasDataForUsers', (ctx, body) => service.hasDataForUsers(ctx, body)),
];
