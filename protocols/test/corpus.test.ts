// The conformance and fuzz tests without their corpus, run as a CI or a developer would run them (a
// vitest of their own, pointed at a file that does not exist): outside CI they pass, printing what
// they did not test; with CI=true they fail, naming the missing file.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const protocols = path.resolve(here, '..');
const vitest = path.resolve(protocols, '../node_modules/vitest/vitest.mjs');
const MISSING = path.join(protocols, 'test', 'no-such-corpus', 'traccar-frames.json');

/** The two test files' corpus tests ("-t corpus" leaves out the property tests that need no corpus). */
function run(ci: boolean) {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('VITEST') && k !== 'CI' && k !== 'NODE_ENV') env[k] = v;
  env.CONFORMANCE_CORPUS = MISSING;
  env.NO_COLOR = '1';
  if (ci) env.CI = 'true';
  const r = spawnSync(process.execPath, [vitest, 'run', 'test/conformance.test.ts', 'test/fuzz.test.ts', '-t', 'corpus', '--reporter', 'verbose'], {
    cwd: protocols,
    env,
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('the conformance corpus, missing', () => {
  it('is reported outside CI: a line per test file says what was not tested, and the run passes', { timeout: 120_000 }, () => {
    const r = run(false);
    expect(r.out).toContain(`SKIPPED the 247 Traccar frames through our watch, GT06 and OsmAnd decoders: not tested, ${MISSING} is missing`);
    expect(r.out).toContain('SKIPPED the GT06 decoder and framer on real frames of every layout, mutated and cut short: not tested');
    expect(r.status, r.out).toBe(0);
  });

  it('fails a CI run (CI=true), naming the missing file', { timeout: 120_000 }, () => {
    const r = run(true);
    expect(r.status, r.out).not.toBe(0);
    expect(r.out).toContain('conformance corpus needed in CI: the 247 Traccar frames');
    expect(r.out).toContain('conformance corpus needed in CI: the GT06 decoder and framer');
    expect(r.out).toContain(`${MISSING} is missing`);
  });
});
