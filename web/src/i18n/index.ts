import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@wt/contract';
import { NAMESPACES, RESOURCES } from './resources';
import { LOCAL_KEYS, localStore } from '../utils/storage';
import { queryClient } from '../app/queryClient';

export function isLocale(v: unknown): v is Locale {
  return typeof v === 'string' && (LOCALES as readonly string[]).includes(v);
}

/** The remembered language, else the default (Chinese). */
export function storedLocale(): Locale {
  const v = localStore.get(LOCAL_KEYS.locale);
  return isLocale(v) ? v : DEFAULT_LOCALE;
}

void i18n.use(initReactI18next).init({
  resources: RESOURCES,
  lng: storedLocale(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: [...LOCALES],
  ns: [...NAMESPACES],
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  // A key no language has is a defect: keep a list the browser tests read, and say it once.
  saveMissing: true,
  missingKeyHandler: (_lngs, ns, key) => {
    if (typeof window === 'undefined') return;
    const w = window as unknown as { __wtMissingKeys?: string[] };
    const id = `${ns}:${key}`;
    if ((w.__wtMissingKeys ??= []).includes(id)) return;
    w.__wtMissingKeys.push(id);
    console.warn(`missing translation: ${id}`);
  },
});

function applyDocumentLanguage(lng: string) {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
}
applyDocumentLanguage(i18n.language);

export function setLocale(locale: Locale): void {
  localStore.set(LOCAL_KEYS.locale, locale);
  void i18n.changeLanguage(locale);
  applyDocumentLanguage(locale);
  // Answers hold texts the server rendered in the language of the request (alarm contents, type names,
  // warehouse names): those on screen are fetched again, those of closed views are dropped, so a view
  // opened later never shows the old language while it refetches.
  queryClient.removeQueries({ type: 'inactive' });
  void queryClient.invalidateQueries();
}

export function currentLocale(): Locale {
  return isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
}

export default i18n;
