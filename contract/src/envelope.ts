// Response envelope shared by server and console. Every answer is JSON with a numeric State;
// success is 200 except /User/Login and /User/ChangePassword which succeed with 0 (SPEC §7, §9).
import { z } from 'zod';
import { int } from './schemas/common.js';

export const State = {
  OK: 200,
  LOGIN_OK: 0,
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_MANY_REQUESTS: 429,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  /** Expired or invalid token (sent with HTTP 401). */
  TOKEN_INVALID: 1100,
} as const;
export type StateCode = (typeof State)[keyof typeof State];

/** HTTP status that goes with a failure State. */
export function httpStatusFor(state: number): number {
  if (state === State.TOKEN_INVALID) return 401;
  if (state >= 400 && state < 600) return state;
  return 200;
}

export const fieldErrorSchema = z.object({
  Field: z.string(),
  Message: z.string(),
  Params: z.record(z.string(), z.unknown()).optional(),
  /** The message rendered in the request's language. */
  Text: z.string().optional(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

export const failureSchema = z.object({
  State: z.number(),
  /** i18n key of the message (see messages.ts). */
  Message: z.string(),
  Params: z.record(z.string(), z.unknown()).optional(),
  /** The message already rendered in the request's language, for clients without the catalogue. */
  Text: z.string().optional(),
  Fields: z.array(fieldErrorSchema).optional(),
  /** The request's id, as the server's log lines of it carry it (reqId). */
  RequestId: z.string().optional(),
});
export type Failure = z.infer<typeof failureSchema>;

/** A success answer: State 200 plus the call's own fields. */
export function ok<T extends z.ZodRawShape>(shape: T) {
  return z.object({ State: z.literal(200), ...shape });
}

export const okEmpty = ok({ Message: z.string().optional() });

/** Paged list calls take PageNo (from 1) and PageCount, and answer Total and Items. */
export const pageRequest = {
  PageNo: int(1, 1_000_000).default(1),
  PageCount: int(1, 1000).default(20),
};

export function pageOf<T extends z.ZodType>(item: T) {
  return ok({ Total: z.number().int(), Items: z.array(item) });
}
