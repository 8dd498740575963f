// The operation log: every call that changes something, with who made it, when, from which address
// and place, on what, and how it ended. Extra calls (the registry has none for it):
// - /OperationLog/List    entries of the caller's subtree, newest first, searchable and paged.
// - /OperationLog/Export  the same search as a spreadsheet, streamed (no paging).
import { z } from 'zod';
import { pageOf, pageRequest } from '../envelope.js';
import { optionalDate, optionalId, text } from './common.js';

export const OPLOG_RESULTS = ['success', 'failure'] as const;

/**
 * Calls of one's own account ('self') that the log leaves out: reads (the user's information, the
 * login log) and the login log's own entries. Every other call needing an action or 'self' is logged.
 */
export const OPLOG_SKIPPED_CALLS: readonly string[] = ['/User/UserInfo', '/User/allUserLoginLog', '/User/SaveUserLoginLog'];

export const operationLogSchema = z.object({
  Id: z.number(),
  UserId: z.number(),
  LoginName: z.string(),
  /** The call's path as the registry spells it. */
  Call: z.string(),
  /** The permission action the call needs, or 'self' for one's own profile and session. */
  Action: z.string(),
  /** What the call acted on (ids, IMEIs, names), short. */
  Object: z.string(),
  /** 0 on success, else the failure's State. */
  State: z.number(),
  /** Empty on success, else the failure's message key (messages catalogue) and its parameters. */
  ErrorKey: z.string(),
  ErrorParams: z.record(z.string(), z.unknown()).nullable(),
  IPAddress: z.string(),
  Address: z.string(),
  CreateDT: z.string(),
});
export type OperationLogEntry = z.infer<typeof operationLogSchema>;

const filter = {
  /** The account whose entries (its own and its sub-accounts') are read; the caller by default. */
  UserId: optionalId,
  Action: text(64).optional(),
  Call: text(128).optional(),
  Result: z.enum(OPLOG_RESULTS, { error: 'validation.invalid' }).optional(),
  StartTime: optionalDate,
  EndTime: optionalDate,
};

export const operationLogListRequest = z.object({ ...pageRequest, ...filter });
export const operationLogListResponse = pageOf(operationLogSchema);
export const operationLogExportRequest = z.object(filter);
/** The answer is the .xlsx file itself, streamed (X-Total-Rows announces the rows). */
export const operationLogExportResponse = z.unknown().describe('the .xlsx file');

export const oplogSchemas = {
  '/OperationLog/List': { request: operationLogListRequest, response: operationLogListResponse },
  '/OperationLog/Export': { request: operationLogExportRequest, response: operationLogExportResponse },
};
