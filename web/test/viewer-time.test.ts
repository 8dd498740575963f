// The console shows the server's instants in the logged-in account's zone, not the browser's, and
// keeps what the server already wrote in that zone as it is.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import type { UserInfo } from '@wt/contract';
import { accountNow, shownAt, shownTime, viewerNow, viewerOffset, wallClock } from '../src/session/time';
import { useSession } from '../src/stores/session';

const setOffset = (timeZoneOffset: number) => useSession.setState({ userInfo: { timeZoneOffset } as UserInfo });

describe('times in the account’s zone', () => {
  afterEach(() => useSession.setState({ userInfo: null }));

  it('shows an instant at the account’s offset, whatever the browser’s zone', () => {
    setOffset(-540);
    expect(shownTime('2026-03-01T23:30:05Z')).toBe('2026-03-01 14:30:05');
    setOffset(480);
    expect(shownTime('2026-03-01T23:30:05Z')).toBe('2026-03-02 07:30:05');
    expect(shownTime(Date.parse('2026-03-01T23:30:05Z'))).toBe('2026-03-02 07:30:05');
    expect(shownTime(null)).toBe('');
  });

  it('keeps a time the server already wrote in the account’s zone', () => {
    expect(shownAt('2026-03-01 14:30:05', 480)).toBe('2026-03-01 14:30:05');
  });

  it('uses the browser’s offset only until the account is known', () => {
    expect(viewerOffset(null)).toBe(-new Date().getTimezoneOffset());
    expect(viewerOffset({ timeZoneOffset: 0 })).toBe(0);
  });

  it('sends a picked time as wall-clock text, without a zone', () => {
    expect(wallClock(dayjs('2026-03-01T08:00:00'))).toBe('2026-03-01 08:00:00.000');
  });

  it('starts a picker at the account’s date and time, whatever the browser’s zone', () => {
    const at = Date.parse('2026-03-01T20:30:00Z');
    // UTC+8: already the 2nd; UTC-9: still the 1st, in the morning.
    expect(wallClock(viewerNow(480, at))).toBe('2026-03-02 04:30:00.000');
    expect(wallClock(viewerNow(480, at).startOf('day'))).toBe('2026-03-02 00:00:00.000');
    expect(wallClock(viewerNow(-540, at))).toBe('2026-03-01 11:30:00.000');
    setOffset(-540);
    expect(accountNow().format('YYYY-MM-DD')).toBe(shownTime(Date.now()).slice(0, 10));
  });

  it('has no page sending a picked time as a browser instant', () => {
    // A picked day or time is the account's wall clock (wallClock); toISOString would read it in the
    // browser's zone, so a history range picked in UTC+8 on a UTC browser would start 8 hours late.
    const root = path.resolve(import.meta.dirname, '../src');
    const found: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const f = path.join(dir, name);
        if (statSync(f).isDirectory()) walk(f);
        else if (/\.tsx?$/.test(name))
          readFileSync(f, 'utf8')
            .split('\n')
            .forEach((line, i) => /\.toISOString\(\)/.test(line) && found.push(`${path.relative(root, f)}:${i + 1}`));
      }
    };
    walk(root);
    expect(found).toEqual([]);
  });

  it('has no page formatting a server time in the browser’s zone', () => {
    const root = path.resolve(import.meta.dirname, '../src');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const f = path.join(dir, name);
        if (statSync(f).isDirectory()) walk(f);
        else if (/\.tsx?$/.test(name)) files.push(f);
      }
    };
    walk(root);
    // formatDateTime with one argument formats in the browser's zone; session/time.ts gives the account's.
    const found = files
      .filter((f) => !f.endsWith(path.join('session', 'time.ts')))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ at: `${path.relative(root, f)}:${i + 1}`, line })))
      .filter(({ line }) => /formatDateTime\([^,()]*(\([^()]*\))?[^,()]*\)/.test(line) || /relativeTime\([^,()]*\)/.test(line));
    expect(found).toEqual([]);
  });
});
