// Separation timing, pure: a slave is separated once when not heard for the timeout (counted from
// its last hearing, or from the start of watching when never heard), back once when heard again.
import { describe, expect, it } from 'vitest';
import { separationStep, type SlaveState } from '../src/rules/separation.js';

const T = 60_000;
const run = (s: SlaveState, steps: ({ heardAt: number } | { now: number })[]) => {
  const changes: string[] = [];
  for (const x of steps) {
    const r = separationStep(s, x, T);
    s = r.state;
    if (r.change) changes.push(`${r.change}@${'now' in x ? x.now : x.heardAt}`);
  }
  return { s, changes };
};

describe('slave separation', () => {
  it('separates after the timeout from the last hearing, once, and is back once when heard', () => {
    const { changes, s } = run({ lastHeard: null, watchedSince: 0, separated: false }, [
      { heardAt: 10_000 },
      { now: 69_999 },
      { now: 70_000 },
      { now: 80_000 },
      { heardAt: 90_000 },
      { heardAt: 91_000 },
      { now: 150_999 },
    ]);
    expect(changes).toEqual(['separated@70000', 'back@90000']);
    expect(s).toEqual({ lastHeard: 91_000, watchedSince: 0, separated: false });
  });

  it('counts a slave never heard from the start of watching', () => {
    expect(run({ lastHeard: null, watchedSince: 5000, separated: false }, [{ now: 64_999 }, { now: 65_000 }]).changes).toEqual(['separated@65000']);
  });

  it('keeps hearing as it comes: a late report does not move the clock back', () => {
    const { s, changes } = run({ lastHeard: null, watchedSince: 0, separated: false }, [{ heardAt: 50_000 }, { heardAt: 20_000 }, { now: 100_000 }]);
    expect(s.lastHeard).toBe(50_000);
    expect(changes).toEqual([]);
  });
});
