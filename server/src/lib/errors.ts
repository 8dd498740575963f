// One error shape for every failure a call can answer (ARCHITECTURE.md "The API").
import { State, type FieldError } from '@wt/contract';

export class AppError extends Error {
  constructor(
    readonly state: number,
    /** i18n key of the contract's message catalogue. */
    readonly key: string,
    readonly params?: Record<string, unknown>,
    readonly fields?: FieldError[],
  ) {
    super(key);
  }
}

export const badRequest = (key: string, params?: Record<string, unknown>, fields?: FieldError[]) =>
  new AppError(State.BAD_REQUEST, key, params, fields);
export const fieldError = (field: string, key: string, params?: Record<string, unknown>) =>
  new AppError(State.BAD_REQUEST, 'common.validation', undefined, [{ Field: field, Message: key, Params: params }]);
export const forbidden = (key = 'common.forbidden') => new AppError(State.FORBIDDEN, key);
export const notFound = (key = 'common.notFound') => new AppError(State.NOT_FOUND, key);
export const conflict = (key: string, params?: Record<string, unknown>) => new AppError(State.CONFLICT, key, params);
export const tokenInvalid = () => new AppError(State.TOKEN_INVALID, 'common.tokenInvalid');
/** A genuine token or session that ran out because nothing renewed it for long (SPEC §8: log in again after long idleness). */
export const idleRelogin = () => new AppError(State.TOKEN_INVALID, 'common.idleRelogin');
