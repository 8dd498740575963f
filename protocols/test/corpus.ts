// The Traccar conformance corpus (traccar-frames.json in the sibling `shared/conformance` folder),
// read by the conformance and fuzz tests, and what those tests do when it is not on the machine.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));

/** protocols/test -> repo root -> sibling "shared"; `CONFORMANCE_CORPUS` names another copy. */
export const corpusPath = process.env.CONFORMANCE_CORPUS
  ? path.resolve(process.env.CONFORMANCE_CORPUS)
  : path.resolve(here, '../../../shared/conformance/traccar-frames.json');

/** The corpus's entries, or null when the file is not there. */
export function readCorpus<T>(): T[] | null {
  return existsSync(corpusPath) ? (JSON.parse(readFileSync(corpusPath, 'utf8')) as T[]) : null;
}

/** A CI run (`CI` set, as CI services do, and not "false" or "0"). */
export const inCi = !!process.env.CI && !['false', '0'].includes(process.env.CI.toLowerCase());

/**
 * Registers, in place of the tests that need the corpus, what says they did not run: outside CI a
 * line on the console and a skipped test, both naming what was not tested and the missing file; in
 * CI a failing test, so a CI run never passes having tested less than it claims.
 */
export function corpusMissing(notTested: string): void {
  const line = `${notTested}: not tested, ${corpusPath} is missing`;
  if (inCi) {
    it(`conformance corpus needed in CI: ${notTested}`, () => {
      throw new Error(`${line}. A CI run fails without it: check out the shared folder beside the repository, or set CONFORMANCE_CORPUS to the file.`);
    });
    return;
  }
  console.warn(`SKIPPED ${line}`);
  it.skip(`skipped (conformance corpus missing): ${notTested}`, () => {});
}
