// The operation log names each call it records in the reader's language: every call of the registry
// that is logged has a name in each language, and every named call is one of the registry's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CALL_ACTIONS, LOCALES, OPLOG_SKIPPED_CALLS } from '@wt/contract';

const names = (lang: string) =>
  (JSON.parse(readFileSync(path.resolve(__dirname, '../src/i18n/locales', lang, 'settings.json'), 'utf8')) as { calls: Record<string, string> }).calls;

describe('operation log call names', () => {
  const logged = Object.entries(CALL_ACTIONS)
    .filter(([p, need]) => need !== 'read' && need !== 'public' && !OPLOG_SKIPPED_CALLS.includes(p))
    .map(([p]) => p);

  it.each([...LOCALES])('names every logged call in %s', (lang) => {
    const n = names(lang);
    expect(logged.filter((p) => !n[p]?.trim())).toEqual([]);
    expect(Object.keys(n).filter((p) => !logged.includes(p))).toEqual([]);
  });
});
