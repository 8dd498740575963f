// Alarm texts in a reader's language: the stored key and parameters rendered with the contract's
// catalogue, names of measures translated too.
import { alarmTypeByCode, translate, type Locale } from '@wt/contract';

export function renderAlarmMessage(locale: Locale, key: string, params: Record<string, unknown> | null | undefined): string {
  if (!key) return '';
  const p = { ...(params ?? {}) };
  if (typeof p.measure === 'string') p.measure = translate(locale, `alarm.measure.${p.measure}`);
  if (typeof p.battery === 'number') p.battery = ` ${p.battery}%`;
  else if (p.battery === undefined) p.battery = '';
  return translate(locale, key, p);
}

/** The alarm type's name in a language, from the installation's table when given, else the built-in list. */
export function alarmTypeName(locale: Locale, code: number, row?: { nameZh: string; nameEn: string }): string {
  const seed = alarmTypeByCode(code);
  const zh = row?.nameZh ?? seed?.zh;
  const en = row?.nameEn ?? seed?.en;
  return (locale === 'en' ? en : zh) ?? String(code);
}
