// Schemas of partner push: the companies alarms are POSTed to, and the log of delivery attempts.
import { z } from 'zod';
import { ok, pageOf, pageRequest } from '../envelope.js';
import { requiredString } from '../rules.js';
import { STORABLE, flag12, id, int, optionalDate, optionalId, requiredText, text } from './common.js';

/** Which alarms a company receives. */
export const PUSH_MODELS = { all: 1, sos: 2, health: 3 } as const;
/** Body format: 1 the full alarm record, 2 the console's push message (NotificationType ...). */
export const PUSH_FORMATS = { record: 1, message: 2 } as const;

export const pushCompanySchema = z.object({
  Id: z.number(),
  Name: z.string(),
  PushModel: z.number(),
  DefaultFormat: z.number(),
  PushUrl: z.string(),
  /** 1 effective, 2 not. */
  Effective: z.number(),
  /** Key of the HMAC-SHA256 signature sent in X-Signature. */
  VerificationCode: z.string(),
  AccountId: z.number(),
  AccountName: z.string(),
  Created: z.string(),
});
export type PushCompany = z.infer<typeof pushCompanySchema>;

export const pushCompanyListRequest = z.object({ ...pageRequest, Keyword: text(100).optional() });
export const pushCompanyListResponse = pageOf(pushCompanySchema);

/** http(s)://… that a URL parser takes (a regular expression alone lets `http://[::1` through). */
function isHttpUrl(v: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(v)) return false;
  try {
    return Boolean(new URL(v));
  } catch {
    return false;
  }
}

export const savePushCompanyRequest = z.object({
  Id: optionalId,
  AccountId: optionalId,
  Name: requiredText('push.nameRequired', 100),
  PushModel: int(1, 3).default(1),
  DefaultFormat: int(1, 2).default(1),
  PushUrl: requiredText('push.urlRequired', 1024).refine(isHttpUrl, { error: 'push.urlInvalid' }),
  Effective: flag12.default(1),
  VerificationCode: requiredString('push.codeRequired')
    .min(8, { error: 'push.codeTooShort' })
    .max(128, { error: 'validation.tooLong' })
    .check(...STORABLE),
});
export const savePushCompanyResponse = ok({ Id: z.number() });
export const deletePushCompanyRequest = z.object({ Id: id });

export const pushAttemptSchema = z.object({
  Id: z.number(),
  CompanyId: z.number(),
  CompanyName: z.string(),
  AlarmId: z.number().nullable(),
  Imei: z.string(),
  Url: z.string(),
  Attempt: z.number(),
  /** HTTP status of the partner's answer; null when it could not be reached. */
  StatusCode: z.number().nullable(),
  /** 1 delivered, 2 failed (retried later unless it was the last attempt). */
  Success: z.number(),
  Error: z.string(),
  DurationMs: z.number(),
  Created: z.string(),
  Body: z.string(),
});
export const pushAttemptListRequest = z.object({
  ...pageRequest,
  StartTime: optionalDate,
  EndTime: optionalDate,
  CompanyId: optionalId,
  Success: z.preprocess((v) => (v === '' || v === null ? undefined : v), int(1, 2).optional()),
  Imei: text(64).optional(),
});
export const pushAttemptListResponse = pageOf(pushAttemptSchema);

export const pushSchemas = {
  '/Push/CompanyList': { request: pushCompanyListRequest, response: pushCompanyListResponse },
  '/Push/SaveCompany': { request: savePushCompanyRequest, response: savePushCompanyResponse },
  '/Push/DeleteCompany': { request: deletePushCompanyRequest, response: ok({}) },
  '/user/searchPushDataList': { request: pushAttemptListRequest, response: pushAttemptListResponse },
} as const;
