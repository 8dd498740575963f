// Texts the server keeps as keys and parameters of the contract's catalogue (the `messages`
// namespace), rendered in the console's language: alarm contents, command names and descriptions,
// alarm type names, the import sheet's column titles. Every page goes through these, so one thing
// has one name everywhere.
import { createElement, type HTMLAttributes, type ReactNode } from 'react';
import type { TFunction } from 'i18next';
import { alarmMessageParams, builtInAlarmTypeName, commandDetailsKey, commandNameKey, type Locale } from '@wt/contract';
import i18n from './index';

/**
 * An alarm's content: its catalogue key and parameters in the current language; without a key
 * (an older server, a partner's client) the text the server rendered.
 */
export function alarmMessageText(t: TFunction, key: string | undefined, params: Record<string, unknown> | undefined, rendered = ''): string {
  if (!key || !i18n.exists(`messages:${key}`)) return rendered;
  return t(`messages:${key}`, alarmMessageParams(params, (m) => t(`messages:alarm.measure.${m}`, { defaultValue: m })));
}

/** A command's name: an administrator's name for it when given, else the catalogue's by code. */
export function commandName(t: TFunction, code: string, override?: string | null): string {
  return override || t(`messages:${commandNameKey(code)}`, { defaultValue: code });
}

/** A command's description, as its name. */
export function commandDetails(t: TFunction, code: string, override?: string | null): string {
  return override || t(`messages:${commandDetailsKey(code)}`, { defaultValue: '' });
}

/** The built-in name of an alarm type in the console's language (the installation's names come from the server). */
export function builtInTypeName(locale: Locale, code: number): string {
  return builtInAlarmTypeName(locale, code) ?? String(code);
}

/** The title of a column of an import sheet: the device import's (LoginName, IMEI ...) or the beacon import's. */
export function importColumnTitle(t: TFunction, column: string): string {
  // A list of keys: the first that exists answers, and only a column neither names counts as missing.
  return t([`messages:device.importColumns.${column}`, `messages:beacon.columns.${column}`], { defaultValue: column });
}

/**
 * Marks what people typed or named (device, account and platform names, remarks, addresses): the
 * browser tests' check that a page shows no text of another language skips it (e2e/console.ts,
 * `visibleTexts`). Spread on an element (`<span {...USER_DATA}>`), or `onCell: userDataCell` on a
 * table column.
 */
export const USER_DATA = { 'data-user-data': '' } as const;
export const userDataCell = () => USER_DATA as HTMLAttributes<HTMLElement>;

/**
 * Props for a Select whose options are user data (devices by name, say): the chosen options and the
 * drop-down's are marked, the placeholder stays one of the console's texts.
 * `<Select options={devices} {...userDataOptions} />`
 */
export const userDataOptions = {
  labelRender: (o: { label?: ReactNode; value?: unknown }) => createElement('span', USER_DATA, o.label ?? String(o.value ?? '')),
  optionRender: (o: { label?: ReactNode }) => createElement('span', USER_DATA, o.label),
};
