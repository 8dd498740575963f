import type { TFunction } from 'i18next';
import i18n from './index';
import { ApiError } from '../api/client';
import { importColumnTitle } from './texts';

/** The text of a failure in the current language: the server's key, else the console's own. */
export function errorText(t: TFunction, err: unknown): string {
  if (err instanceof ApiError) {
    const params = { ...(err.params ?? {}) };
    // A `column` names a column of an import sheet by its key: shown by its title.
    if (typeof params.column === 'string') params.column = importColumnTitle(t, params.column);
    if (i18n.exists(`messages:${err.messageKey}`)) return t(`messages:${err.messageKey}`, params);
    if (i18n.exists(`common:${err.messageKey}`)) return t(`common:${err.messageKey}`, params);
    if (err.text) return err.text;
  }
  return t('common:errors.unknown');
}
