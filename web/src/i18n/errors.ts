import type { TFunction } from 'i18next';
import type { FieldError } from '@wt/contract';
import i18n from './index';
import { ApiError } from '../api/client';
import { importColumnTitle } from './texts';

/** A field error of the server in the current language: the field's name and what is wrong with it. */
export function fieldErrorText(t: TFunction, field: FieldError, labels: Record<string, string> = {}): string {
  return `${labels[field.Field] ?? field.Field} ${i18n.exists(`messages:${field.Message}`) ? t(`messages:${field.Message}`, field.Params ?? {}) : (field.Text ?? field.Message)}`;
}

/**
 * The text of a failure in the current language: the server's key, else the console's own. A
 * validation failure lists its fields with their limits, as the server's Text does; `labels` names
 * a call's fields as the screen shows them (an upload's `Data` is the file the user chose).
 */
export function errorText(t: TFunction, err: unknown, labels: Record<string, string> = {}): string {
  if (err instanceof ApiError) {
    const params = { ...(err.params ?? {}) };
    // A `column` names a column of an import sheet by its key: shown by its title.
    if (typeof params.column === 'string') params.column = importColumnTitle(t, params.column);
    if (i18n.exists(`messages:${err.messageKey}`)) {
      const text = t(`messages:${err.messageKey}`, params);
      return err.fields?.length ? `${text}: ${err.fields.map((f) => fieldErrorText(t, f, labels)).join('; ')}` : text;
    }
    if (i18n.exists(`common:${err.messageKey}`)) return t(`common:${err.messageKey}`, params);
    if (err.text) return err.text;
  }
  return t('common:errors.unknown');
}
