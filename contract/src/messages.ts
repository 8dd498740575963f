// Messages the server sends back (errors, notices, mails), in the three console languages. The
// console merges these into its i18next resources as the `messages` namespace, so a key means the
// same on both sides; the server renders them itself for mails and for the `Text` field.
import zhCN from './messages/zh-CN.json' with { type: 'json' };
import zhTW from './messages/zh-TW.json' with { type: 'json' };
import en from './messages/en.json' with { type: 'json' };

export const LOCALES = ['zh-CN', 'zh-TW', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'zh-CN';

export type MessageTree = { [key: string]: string | MessageTree };
export const MESSAGES: Record<Locale, MessageTree> = { 'zh-CN': zhCN, 'zh-TW': zhTW, en };

/** Picks a console language from a language tag or an Accept-Language header. */
export function resolveLocale(tag: string | null | undefined): Locale {
  if (!tag) return DEFAULT_LOCALE;
  for (const part of tag.split(',')) {
    const t = part.split(';')[0]!.trim().toLowerCase();
    if (t.startsWith('en')) return 'en';
    if (t === 'zh-tw' || t === 'zh-hk' || t === 'zh-hant' || t.startsWith('zh-hant')) return 'zh-TW';
    if (t.startsWith('zh')) return 'zh-CN';
  }
  return DEFAULT_LOCALE;
}

function lookup(tree: MessageTree, key: string): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

export function hasMessage(key: string): boolean {
  return lookup(MESSAGES[DEFAULT_LOCALE], key) !== undefined;
}

/** Renders a message key with {{param}} interpolation, as i18next does in the console. */
export function translate(locale: Locale, key: string, params?: Record<string, unknown>): string {
  const text = lookup(MESSAGES[locale], key) ?? lookup(MESSAGES[DEFAULT_LOCALE], key) ?? key;
  if (!params) return text;
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** All dotted keys of a tree, for the locale consistency test. */
export function messageKeys(tree: MessageTree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([k, v]) =>
    typeof v === 'string' ? [`${prefix}${k}`] : messageKeys(v, `${prefix}${k}.`),
  );
}
