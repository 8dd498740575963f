// The reports area's calls: trips and stops, the summary per device per day, the alarms report, and
// any of them as a workbook; the thresholds of trips and stops per account; scheduled reports by mail.
import { defineCall } from '../../calls.js';
import { exportReport } from './export.js';
import { deleteSubscription, listSubscriptions, saveSubscription } from './schedule.js';
import * as service from './service.js';
import { saveSettings, settings } from './settings.js';

export const reportCalls = [
  defineCall('/Report/Trips', (ctx, b) => service.trips(ctx, b)),
  defineCall('/Report/Summary', (ctx, b) => service.summary(ctx, b)),
  defineCall('/Report/Alarms', (ctx, b) => service.alarms(ctx, b)),
  defineCall('/Report/Export', (ctx, b) => exportReport(ctx, b)),
  defineCall('/Report/Settings', (ctx, b) => settings(ctx, b)),
  defineCall('/Report/SaveSettings', (ctx, b) => saveSettings(ctx, b)),
  defineCall('/Report/Subscriptions', (ctx) => listSubscriptions(ctx)),
  defineCall('/Report/SubscriptionSave', (ctx, b) => saveSubscription(ctx, b)),
  defineCall('/Report/SubscriptionDelete', (ctx, b) => deleteSubscription(ctx, b.Id)),
];
