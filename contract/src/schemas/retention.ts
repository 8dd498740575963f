// How long positions, health readings and device events are kept (docs/scaling.md "Retention"):
// a platform default (the root account's setting) and an override per top-level account, which
// applies to its whole subtree. Extra calls:
// - /Retention/Info  the retention in force for an account in scope: the platform default, the
//                    top-level account it belongs to and its override, the effective days.
// - /Retention/Save  the root account sets the platform default (UserId: itself) or a top-level
//                    account's override (a day count per kind, or null to follow the default).
import { z } from 'zod';
import { ok } from '../envelope.js';
import { int, optionalId } from './common.js';

/** Days a kind of data may be kept: from a week to ten years. */
export const RETENTION_MIN_DAYS = 7;
export const RETENTION_MAX_DAYS = 3650;
export const RETENTION_KINDS = ['Positions', 'Health', 'Events'] as const;
export type RetentionKind = (typeof RETENTION_KINDS)[number];

const days = int(RETENTION_MIN_DAYS, RETENTION_MAX_DAYS);
/** A setting: days, or null to follow the level above. */
const setting = z.preprocess((v) => (v === '' || v === undefined ? null : v), days.nullable());

export const retentionDaysSchema = z.object({ Positions: z.number(), Health: z.number(), Events: z.number() });
export const retentionSettingSchema = z.object({ Positions: z.number().nullable(), Health: z.number().nullable(), Events: z.number().nullable() });
export type RetentionDays = z.infer<typeof retentionDaysSchema>;
export type RetentionSetting = z.infer<typeof retentionSettingSchema>;

export const retentionInfoRequest = z.object({ UserId: optionalId });
export const retentionInfoResponse = ok({
  UserId: z.number(),
  /** The account is the root (its setting is the platform default) or a top-level account (an override). */
  Level: z.enum(['platform', 'topLevel', 'below']),
  /** The built-in days, the platform default, and the days in force for the account. */
  BuiltIn: retentionDaysSchema,
  Platform: retentionDaysSchema,
  Effective: retentionDaysSchema,
  /** The setting that applies: the root's (platform), or the top-level account's (its own or the one above it); a null day count follows the level above. */
  Own: retentionSettingSchema,
  /** The top-level account whose override applies (the account itself, or the one above it). */
  TopLevelId: z.number().nullable(),
  TopLevelName: z.string().nullable(),
  /** Days after which whole days are dropped: the longest retention in force on the platform. */
  PartitionDays: retentionDaysSchema,
  /** The caller may change this account's setting. */
  Editable: z.boolean(),
});
export type RetentionInfo = z.infer<typeof retentionInfoResponse>;

export const saveRetentionRequest = z.object({ UserId: optionalId, Positions: setting, Health: setting, Events: setting });
export type SaveRetentionBody = z.output<typeof saveRetentionRequest>;

export const retentionSchemas = {
  '/Retention/Info': { request: retentionInfoRequest, response: retentionInfoResponse },
  '/Retention/Save': { request: saveRetentionRequest, response: retentionInfoResponse },
};
