// The contract itself: the registry is the spec's call list, the message catalogue is complete in
// the three languages, and the traditional Chinese holds no simplified-only characters.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as OpenCC from 'opencc-js';
import { describe, expect, it } from 'vitest';
import {
  CALLS,
  EXTRA_CALLS,
  LOCALES,
  MESSAGES,
  PROTECTED_ROUTES,
  SCHEMAS,
  allRoutePaths,
  effectiveUserType,
  findCall,
  messageKeys,
  relativeTime,
  resolveLocale,
  roleLabelOf,
  toDate,
  translate,
} from '../src/index.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const specCalls = path.resolve(here, '../../../shared/spec/calls.json');

describe('call registry', () => {
  it('holds exactly the 190 calls of the spec, in its order', () => {
    expect(CALLS).toHaveLength(190);
    if (!existsSync(specCalls)) return;
    const spec = JSON.parse(readFileSync(specCalls, 'utf8')) as { calls: { path: string }[] };
    expect(CALLS.map((c) => c.path)).toEqual(spec.calls.map((c) => c.path));
  });

  it('finds calls case-insensitively and has no duplicates', () => {
    expect(findCall('/user/login')?.path).toBe('/User/Login');
    expect(findCall('/USER/CHILDRENUSERS')?.path).toBe('/user/childrenUsers');
    const keys = [...CALLS, ...EXTRA_CALLS].map((c) => c.path.toLowerCase());
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('has a schema for every path it knows, and knows every path with a schema', () => {
    for (const p of Object.keys(SCHEMAS)) expect(findCall(p), p).toBeDefined();
  });
});

describe('message catalogue', () => {
  const keySets = Object.fromEntries(LOCALES.map((l) => [l, messageKeys(MESSAGES[l]).sort()]));

  it('has the same keys in zh-CN, zh-TW and en', () => {
    expect(keySets['zh-TW']).toEqual(keySets['zh-CN']);
    expect(keySets.en).toEqual(keySets['zh-CN']);
  });

  it('keeps the same {{params}} in every language', () => {
    const params = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();
    for (const key of keySets['zh-CN']!) {
      const zh = translate('zh-CN', key);
      expect(params(translate('zh-TW', key)), key).toEqual(params(zh));
      expect(params(translate('en', key)), key).toEqual(params(zh));
    }
  });

  it('writes zh-TW in traditional characters only', () => {
    const toTraditional = OpenCC.Converter({ from: 'cn', to: 'tw' });
    // Self-check: the converter does flag a simplified string.
    expect(toTraditional('设备')).not.toBe('设备');
    const offenders = keySets['zh-TW']!.filter((k) => {
      const text = translate('zh-TW', k);
      return toTraditional(text) !== text;
    });
    expect(offenders).toEqual([]);
  });

  it('renders params and falls back to the key for unknown messages', () => {
    expect(translate('en', 'common.rateLimited', { seconds: 9 })).toContain('9 seconds');
    expect(translate('en', 'no.such.key')).toBe('no.such.key');
    expect(resolveLocale('en-US,en;q=0.9')).toBe('en');
    expect(resolveLocale('zh-TW')).toBe('zh-TW');
    expect(resolveLocale('zh-Hant-HK')).toBe('zh-TW');
    expect(resolveLocale(undefined)).toBe('zh-CN');
  });
});

describe('roles and routes', () => {
  it('maps the ten user types to their role labels', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(roleLabelOf)).toEqual([
      'editor',
      'editor',
      'admin',
      'editor-indoor',
      'editor-datashow',
      'editor-all-indoor-datashow',
      'editor-healthdata',
      'editor-healthdata-innor',
      'editor-healthdata-datashow',
      'editor-all-indoor-datashow-health',
    ]);
  });

  it('applies the effective user type rule of §4', () => {
    expect(effectiveUserType(3, '')).toBe(3);
    expect(effectiveUserType(3, '/,/health/detail')).toBe(3);
    expect(effectiveUserType(3, '/,/devices/list')).toBe(7);
    expect(effectiveUserType(10, ['/health/data'])).toBe(7);
  });

  it('declares every protected path of SPEC §2 once', () => {
    const paths = allRoutePaths(PROTECTED_ROUTES);
    for (const p of [
      '/', '/dashboard', '/devices/list', '/devices/detail', '/devices/roles', '/devices/history', '/deviceFence', '/deviceAlarm',
      '/track/index', '/alarm/rule', '/alarm/record', '/alarm/alarmSetting', '/alarm/escalation', '/health/data', '/health/detail', '/indoorBeacons/index',
      '/account/accounts', '/account/role', '/account/showfence', '/model/list', '/model/protocol', '/model/command', '/inventory/list',
      '/inventory/sales', '/inventory/batch', '/position/beacons', '/position/assetInventory', '/position/fenceList',
      '/position/monitorDetail', '/position/bindBeacon', '/position/innerMap', '/scene/sencelist', '/scene/floors', '/scene/aoa',
      '/scene/beacons', '/scene/scenemap', '/push/sendMessage', '/push/pushlist', '/push/app', '/setting/platform',
      '/setting/userlogs', '/setting/setingfunction',
    ]) {
      expect(paths, p).toContain(p);
    }
  });
});

describe('time helpers of §9', () => {
  const now = Date.parse('2026-11-21T12:00:00Z');
  it('reads 10-digit numbers as seconds', () => {
    expect(toDate(1_700_000_000)!.getTime()).toBe(1_700_000_000_000);
    expect(toDate('1700000000000')!.getTime()).toBe(1_700_000_000_000);
  });
  it('gives just now, minutes, hours, one day, then the date', () => {
    expect(relativeTime(now - 29_000, now)).toEqual({ key: 'justNow' });
    expect(relativeTime(now - 30_000, now)).toEqual({ key: 'minutesAgo', count: 1 });
    expect(relativeTime(now - 59 * 60_000, now)).toEqual({ key: 'minutesAgo', count: 59 });
    expect(relativeTime(now - 3_600_000, now)).toEqual({ key: 'hoursAgo', count: 1 });
    expect(relativeTime(now - 25 * 3_600_000, now)).toEqual({ key: 'oneDayAgo' });
    expect(relativeTime(now - 3 * 86_400_000, now).key).toBe('date');
  });
});
