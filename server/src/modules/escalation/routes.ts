// Escalation policies of unacknowledged alarms: own or inherited per account and alarm type.
import { defineCall } from '../../calls.js';
import { deletePolicy, getPolicy, listPolicies, savePolicy } from './policies.js';

export const escalationCalls = [
  defineCall('/Escalation/List', (ctx, body) => listPolicies(ctx, body)),
  defineCall('/Escalation/Get', (ctx, body) => getPolicy(ctx, body)),
  defineCall('/Escalation/Save', (ctx, body) => savePolicy(ctx, body)),
  defineCall('/Escalation/Delete', (ctx, body) => deletePolicy(ctx, body)),
];
