// Prints how many of the console's 190 calls the server implements, by area, and which are missing.
import { CALLS } from '@wt/contract';
import { allCalls } from './modules/index.js';

const implemented = new Set(allCalls().map((c) => c.path.toLowerCase()));
const byArea = new Map<string, { done: number; total: number; missing: string[] }>();
for (const c of CALLS) {
  const a = byArea.get(c.area) ?? { done: 0, total: 0, missing: [] };
  a.total += 1;
  if (implemented.has(c.path.toLowerCase())) a.done += 1;
  else a.missing.push(c.path);
  byArea.set(c.area, a);
}
const verbose = process.argv.includes('--missing');
for (const [area, a] of byArea) {
  console.log(`${area.padEnd(10)} ${String(a.done).padStart(3)} / ${a.total}`);
  if (verbose) for (const m of a.missing) console.log(`    missing ${m}`);
}
const done = CALLS.filter((c) => implemented.has(c.path.toLowerCase())).length;
console.log(`implemented ${done} of ${CALLS.length} calls (${CALLS.length - done} answer State 501)`);
