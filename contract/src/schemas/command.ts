// Schemas of the Command area calls implemented so far: sending a command to one device, the
// batch upload-interval command, and the command history.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { intervalMinutes } from '../commands.js';
import { imei } from '../rules.js';
import { requiredText, text } from './common.js';

export const COMMAND_STATUSES = ['queued', 'sent', 'answered', 'failed'] as const;
export type CommandStatusName = (typeof COMMAND_STATUSES)[number];

export const commandItemSchema = z.object({
  Id: z.number(),
  Imei: z.string(),
  DeviceName: z.string(),
  Code: z.string(),
  /** Display name of the command when the catalogue gives one; empty: the console names it from Code. */
  Name: z.string(),
  Params: z.record(z.string(), z.unknown()),
  Status: z.enum(COMMAND_STATUSES).describe('queued: waits for the device to connect; sent: on the wire; answered: the device replied'),
  /** What went on the wire (text, or hex for binary protocols). */
  Encoded: z.string(),
  Reply: z.string().nullable(),
  Error: z.string(),
  SenderId: z.number(),
  SenderName: z.string(),
  CreatedAt: z.string(),
  SentAt: z.string().nullable(),
  AnsweredAt: z.string().nullable(),
});
export type CommandItem = z.infer<typeof commandItemSchema>;

export const sendCommandRequest = z.object({
  Imei: imei,
  /** A code of the command catalogue (COMMAND_CODES). */
  Code: requiredText('validation.required', 32),
  /** The command's parameters, checked with validateCommand; field errors are named Params.<field>. */
  Params: z.record(z.string().max(64), z.unknown()).optional(),
});
export const sendCommandResponse = ok({ Item: commandItemSchema });

export const batchSendFrequencyRequest = z.object({
  /** Devices of the caller's own account; empty or absent means all of them. */
  Imeis: z.array(imei).max(10_000).optional(),
  /** Minutes between position reports. */
  Interval: intervalMinutes,
});
export const batchSendFrequencyResponse = ok({
  Succeeded: z.number(),
  Failed: z.array(z.object({ Imei: z.string(), Message: z.string(), Params: z.record(z.string(), z.unknown()).optional() })),
  Items: z.array(z.object({ Id: z.number(), Imei: z.string(), Status: z.enum(COMMAND_STATUSES) })),
});

export const commandListRequest = z.object({
  ...pageRequest,
  Imei: text(64).optional(),
  Status: z.enum(COMMAND_STATUSES).optional(),
  Code: text(32).optional(),
});
export const commandListResponse = pageOf(commandItemSchema);
