// Escalation of unacknowledged alarms: a policy per account and alarm type, inherited down the
// account tree unless a sub-account has its own. A policy's steps each wait a number of minutes
// after the alarm was raised (unacknowledged) and notify recipients on channels; the last step
// repeats every RepeatMinutes, at most RepeatCap times. Calls:
// - /Escalation/List    the policy in force for every alarm type of an account: its own or the
//                       nearest ancestor's (Inherited, FromUserId).
// - /Escalation/Get     one alarm type's own policy (null when inherited) and the one in force.
// - /Escalation/Save    the account's own policy for an alarm type (creates or replaces).
// - /Escalation/Delete  drops the account's own policy: the type follows the account above again.
import { z } from 'zod';
import { ALARM_CODES } from '../alarm-types.js';
import { ok } from '../envelope.js';
import { id, int, optionalId } from './common.js';

/** Alarm types a policy may be set for: every stored alarm type (56 only refreshes the console). */
export const ESCALATION_ALARM_TYPES: readonly number[] = Object.values(ALARM_CODES).filter((c) => c !== ALARM_CODES.refresh);
export const ESCALATION_CHANNELS = ['sms', 'email', 'push', 'console'] as const;
export type EscalationChannel = (typeof ESCALATION_CHANNELS)[number];
export const ESCALATION_LIMITS = { steps: 10, waitMinutes: 1440, contacts: 20, dutyUsers: 20, repeatMinutes: 1440, repeatCap: 100 } as const;

const channel = z.enum(ESCALATION_CHANNELS);
const alarmType = z.preprocess(
  (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
  int(1, 1000).refine((c) => ESCALATION_ALARM_TYPES.includes(c), { error: 'escalation.badAlarmType' }),
);

export const escalationStepSchema = z.object({
  /** Minutes after the alarm was raised, unacknowledged. */
  Wait: int(0, ESCALATION_LIMITS.waitMinutes),
  /** Alarm contacts of the device's account by position in their order (1 = first). */
  Contacts: z.array(int(1, ESCALATION_LIMITS.contacts), { error: 'validation.array' }).max(ESCALATION_LIMITS.contacts, { error: 'validation.tooMany' }).default([]),
  /** Accounts on duty (in the account's subtree): their phone, e-mail and console. */
  DutyUsers: z.array(id, { error: 'validation.array' }).max(ESCALATION_LIMITS.dutyUsers, { error: 'validation.tooMany' }).default([]),
  /** The parent account of the device's account: its alarm contacts and its console. */
  Parent: z.boolean({ error: 'validation.boolean' }).default(false),
  Channels: z.array(channel, { error: 'validation.array' }).min(1, { error: 'validation.tooFew' }).max(ESCALATION_CHANNELS.length, { error: 'validation.tooMany' }),
});
export type EscalationStep = z.output<typeof escalationStepSchema>;

const steps = z
  .array(escalationStepSchema, { error: 'validation.array' })
  .min(1, { error: 'validation.tooFew' })
  .max(ESCALATION_LIMITS.steps, { error: 'validation.tooMany' })
  .refine((s) => s.every((x, i) => i === 0 || x.Wait >= s[i - 1]!.Wait), { error: 'escalation.stepsOrder' });

export const escalationPolicySchema = z.object({
  Id: z.number(),
  UserId: z.number(),
  AlarmType: z.number(),
  Enabled: z.boolean(),
  Steps: z.array(z.object({ Wait: z.number(), Contacts: z.array(z.number()), DutyUsers: z.array(z.number()), Parent: z.boolean(), Channels: z.array(z.enum(ESCALATION_CHANNELS)) })),
  RepeatMinutes: z.number(),
  RepeatCap: z.number(),
});
export type EscalationPolicy = z.infer<typeof escalationPolicySchema>;

/** The policy in force for one alarm type of an account: null when no account up the tree has one. */
export const effectivePolicySchema = z.object({
  AlarmType: z.number(),
  Policy: escalationPolicySchema.nullable(),
  /** The policy is an ancestor's, not the account's own. */
  Inherited: z.boolean(),
  FromUserId: z.number().nullable(),
  FromUserName: z.string().nullable(),
});
export type EffectivePolicy = z.infer<typeof effectivePolicySchema>;

export const escalationListRequest = z.object({ UserId: optionalId });
export const escalationListResponse = ok({ UserId: z.number(), Items: z.array(effectivePolicySchema) });

export const escalationGetRequest = z.object({ UserId: optionalId, AlarmType: alarmType });
export const escalationGetResponse = ok({ Own: escalationPolicySchema.nullable(), Effective: effectivePolicySchema });

export const escalationSaveRequest = z
  .object({
    UserId: optionalId,
    AlarmType: alarmType,
    Enabled: z.boolean({ error: 'validation.boolean' }).default(true),
    Steps: steps,
    RepeatMinutes: int(0, ESCALATION_LIMITS.repeatMinutes).default(0),
    RepeatCap: int(0, ESCALATION_LIMITS.repeatCap).default(0),
  })
  // Only a valid repeat asks for a cap: a refused RepeatMinutes is reported on its own field.
  .refine((b) => !(Number.isInteger(b.RepeatMinutes) && b.RepeatMinutes > 0 && b.RepeatMinutes <= ESCALATION_LIMITS.repeatMinutes) || b.RepeatCap > 0, {
    path: ['RepeatCap'],
    error: 'escalation.repeatCapRequired',
    params: { max: ESCALATION_LIMITS.repeatCap },
  });
export type EscalationSaveBody = z.output<typeof escalationSaveRequest>;

export const escalationDeleteRequest = z.object({ UserId: optionalId, AlarmType: alarmType });

export const escalationSchemas = {
  '/Escalation/List': { request: escalationListRequest, response: escalationListResponse },
  '/Escalation/Get': { request: escalationGetRequest, response: escalationGetResponse },
  '/Escalation/Save': { request: escalationSaveRequest, response: escalationGetResponse },
  '/Escalation/Delete': { request: escalationDeleteRequest, response: escalationGetResponse },
};
