// Alarm texts in a reader's language: the stored key and parameters rendered with the contract's
// catalogue, names of measures translated too; alarm type names and descriptions from the
// installation's table (administrators edit a Chinese and an English text) or the built-in list.
import { alarmMessageParams, alarmTypeByCode, translate, type Locale } from '@wt/contract';
import { toTaiwanese } from '../../lib/zh-tw.js';

export function renderAlarmMessage(locale: Locale, key: string, params: Record<string, unknown> | null | undefined): string {
  if (!key) return '';
  return translate(locale, key, alarmMessageParams(params, (m) => translate(locale, `alarm.measure.${m}`)));
}

/**
 * Chinese text of a type for a reader: zh-CN as stored; zh-TW the built-in traditional text while
 * the stored one is still the built-in simplified text, else the stored text converted (an edit).
 */
function chinese(locale: Locale, stored: string | undefined, builtInZh: string | undefined, builtInZhTW: string | undefined): string | undefined {
  if (locale !== 'zh-TW') return stored ?? builtInZh;
  if (stored === undefined || stored === builtInZh) return builtInZhTW ?? stored;
  return toTaiwanese(stored);
}

/** The alarm type's name in a language, from the installation's table when given, else the built-in list. */
export function alarmTypeName(locale: Locale, code: number, row?: { nameZh: string; nameEn: string }): string {
  const seed = alarmTypeByCode(code);
  const name = locale === 'en' ? (row?.nameEn ?? seed?.en) : chinese(locale, row?.nameZh, seed?.zh, seed?.zhTW);
  return name || String(code);
}

/** The alarm type's description in a language, as its name. */
export function alarmTypeDescription(locale: Locale, code: number, row?: { descriptionZh: string; descriptionEn: string }): string {
  const seed = alarmTypeByCode(code);
  if (locale === 'en') return row?.descriptionEn ?? seed?.enDescription ?? '';
  return chinese(locale, row?.descriptionZh, seed?.zhDescription, seed?.zhTWDescription) ?? '';
}
