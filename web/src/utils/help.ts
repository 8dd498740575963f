import type { Locale } from '@wt/contract';

/** The help document of a language, shipped under public/help/. */
export function helpPdfUrl(locale: Locale): string {
  return `/help/help-${locale}.pdf`;
}
