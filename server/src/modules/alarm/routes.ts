// The Alarm area's calls (ExceptionMessage).
import { defineCall } from '../../calls.js';
import * as service from './service.js';

export const alarmCalls = [
  defineCall('/ExceptionMessage/ExceptionType', (ctx, body) => service.listTypes(ctx, body)),
  defineCall('/ExceptionMessage/ExcdeptionListWhitoutCode', (ctx) => service.typeOptions(ctx)),
  defineCall('/ExceptionMessage/saveExceptionType', (ctx, body) => service.saveType(ctx, body)),
  defineCall('/ExceptionMessage/DeleteExceptionType', (ctx, body) => service.deleteType(ctx, body.Id)),
  defineCall('/ExceptionMessage/allExceptionMsgPage', (ctx, body) => service.listRecords(ctx, body)),
  defineCall('/ExceptionMessage/UpdateExceptionMessageStatus', (ctx, body) => service.confirmMany(ctx, body)),
  defineCall('/ExceptionMessage/updateExceptionByID', (ctx, body) => service.confirmOne(ctx, body)),
  defineCall('/ExceptionMessage/allExceptionThreshold', (ctx, body) => service.getThresholds(ctx, body)),
  defineCall('/ExceptionMessage/actionThresholdValue', (ctx, body) => service.saveThresholds(ctx, body)),
  defineCall('/ExceptionMessage/AlarmRulesByUserId', (ctx, body) => service.listSettings(ctx, body.UserId)),
  defineCall('/ExceptionMessage/saveAlarmRules', (ctx, body) => service.saveSetting(ctx, body)),
  defineCall('/ExceptionMessage/DeleteAlarmSetById', (ctx, body) => service.deleteSetting(ctx, body.Id)),
  defineCall('/ExceptionMessage/AlarmContactPersonByUserId', (ctx, body) => service.listContacts(ctx, body.UserId)),
  defineCall('/ExceptionMessage/actionForAlarmContactPeople', (ctx, body) => service.saveContact(ctx, body)),
  defineCall('/ExceptionMessage/DeleteAlarmContactPerson', (ctx, body) => service.deleteContact(ctx, body.Id)),
  defineCall('/AlarmRecord/Resolve', (ctx, body) => service.resolveAlarm(ctx, body)),
  defineCall('/AlarmRecord/Assign', (ctx, body) => service.assignAlarm(ctx, body)),
  defineCall('/AlarmRecord/Comment', (ctx, body) => service.commentAlarm(ctx, body)),
  defineCall('/AlarmRecord/Timeline', (ctx, body) => service.alarmTimeline(ctx, body.Id)),
  defineCall('/AlarmRecord/Assignees', (ctx, body) => service.alarmAssignees(ctx, body.Id)),
];
