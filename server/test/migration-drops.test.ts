// Migrations never drop data without a step that keeps it: every DROP TABLE, DROP COLUMN or TRUNCATE
// in a migration must be listed here, by migration and object, with the reason it loses nothing
// (docs/operations.md "Upgrades"). A new one fails this test until it has been reviewed and listed.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const MIGRATIONS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/db/migrations');

/** Reviewed drops: `<migration file> <DROP TABLE|DROP COLUMN|TRUNCATE> <table[.column]>` and why no data is lost. */
const REVIEWED: Record<string, string> = {
  '0017_partitioned_series.sql DROP TABLE positions_unpartitioned':
    'the table was renamed from positions just before; every row was copied into the partitioned positions by the INSERT ... SELECT before the drop',
  '0017_partitioned_series.sql DROP TABLE health_readings_unpartitioned':
    'renamed from health_readings; every row copied into the partitioned health_readings before the drop',
  '0017_partitioned_series.sql DROP TABLE device_events_unpartitioned':
    'renamed from device_events; every row (ids kept) copied into the partitioned device_events before the drop',
  '0024_drop_setting_function.sql DROP COLUMN accounts.setting_function':
    'no call ever wrote the column (it always held its default); whether an account has the functional configuration page is derived from its function switches',
};

const unquote = (s: string) => s.replace(/"/g, '').replace(/^public\./, '');

/** The drops a migration's SQL makes, as `<file> <kind> <object>` (comments ignored). */
export function dropsOf(file: string, sql: string): string[] {
  const text = sql.replace(/--[^\n]*/g, ' ');
  const out: string[] = [];
  for (const m of text.matchAll(/\bDROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?([\w."]+(?:\s*,\s*[\w."]+)*)/gi))
    for (const t of m[1]!.split(',')) out.push(`${file} DROP TABLE ${unquote(t.trim())}`);
  for (const m of text.matchAll(/\bALTER\s+TABLE\s+(?:ONLY\s+)?(?:IF\s+EXISTS\s+)?([\w."]+)([^;]*)/gi))
    for (const c of m[2]!.matchAll(/\bDROP\s+(?:COLUMN\s+)?(?:IF\s+EXISTS\s+)?([\w"]+)/gi)) {
      const col = unquote(c[1]!);
      // ALTER TABLE ... DROP CONSTRAINT / DEFAULT / NOT NULL / IDENTITY / EXPRESSION lose no rows.
      if (/^(constraint|default|not|identity|expression)$/i.test(col)) continue;
      out.push(`${file} DROP COLUMN ${unquote(m[1]!)}.${col}`);
    }
  for (const m of text.matchAll(/\bTRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?([\w."]+)/gi)) out.push(`${file} TRUNCATE ${unquote(m[1]!)}`);
  return out;
}

describe('migrations that drop data', () => {
  it('recognises the forms of a drop and ignores what loses no rows', () => {
    expect(dropsOf('x.sql', 'ALTER TABLE "a" DROP COLUMN "b";\nALTER TABLE a DROP CONSTRAINT c, DROP COLUMN IF EXISTS d;')).toEqual([
      'x.sql DROP COLUMN a.b',
      'x.sql DROP COLUMN a.d',
    ]);
    expect(dropsOf('x.sql', 'DROP TABLE IF EXISTS "t1", t2; -- DROP TABLE t3\nTRUNCATE TABLE t4;\nALTER TABLE t ALTER COLUMN c DROP NOT NULL;')).toEqual([
      'x.sql DROP TABLE t1',
      'x.sql DROP TABLE t2',
      'x.sql TRUNCATE t4',
    ]);
  });

  it('drop nothing that is not on the reviewed list with its reason', () => {
    const found = readdirSync(MIGRATIONS)
      .filter((f) => f.endsWith('.sql'))
      .sort()
      .flatMap((f) => dropsOf(f, readFileSync(path.join(MIGRATIONS, f), 'utf8')));
    const unreviewed = found.filter((d) => !REVIEWED[d]);
    expect(unreviewed, 'a migration drops data: keep the data in an earlier step, then list the drop with its reason').toEqual([]);
    // The list names only drops that exist (a renamed migration must be reviewed again).
    expect(Object.keys(REVIEWED).filter((d) => !found.includes(d))).toEqual([]);
  });
});
