// The console's texts: one JSON file per namespace and language (locales/<lang>/<namespace>.json,
// found at build time, so an area adds its namespace by adding its three files), plus the server's
// message catalogue from the contract as the `messages` namespace (so an error key means the same
// on both sides).
import { LOCALES, MESSAGES, type Locale } from '@wt/contract';

export type Tree = { [key: string]: string | Tree };

const files = import.meta.glob<Tree>('./locales/*/*.json', { eager: true, import: 'default' });

function collect(): Record<Locale, Record<string, Tree>> {
  const out = Object.fromEntries(LOCALES.map((l) => [l, { messages: MESSAGES[l] }])) as unknown as Record<Locale, Record<string, Tree>>;
  for (const [file, tree] of Object.entries(files)) {
    const m = /\.\/locales\/([^/]+)\/([^/]+)\.json$/.exec(file);
    if (!m || !(LOCALES as readonly string[]).includes(m[1]!)) continue;
    out[m[1] as Locale][m[2]!] = tree;
  }
  return out;
}

export const RESOURCES = collect();

/** Every namespace, in a stable order (the ones of the default language). */
export const NAMESPACES = Object.keys(RESOURCES['zh-CN']).sort();
export type Namespace = string;

export { LOCALES };
export type { Locale };
