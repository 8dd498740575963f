import { describe, expect, it } from 'vitest';
import * as OpenCC from 'opencc-js';
import { PROTECTED_ROUTES, messageKeys, type MessageTree } from '@wt/contract';
import { NAMESPACES, RESOURCES } from '../src/i18n/resources';
import { resolveRoutes, type ResolvedRoute } from '../src/access';

const cnToTwp = OpenCC.Converter({ from: 'cn', to: 'twp' });
const cnToTw = OpenCC.Converter({ from: 'cn', to: 'tw' });
const twToCn = OpenCC.Converter({ from: 'tw', to: 'cn' });

/**
 * Traditional only: converting the text from simplified changes nothing, or a round trip through
 * simplified gives it back. A simplified-only character is changed by both.
 */
export function isTraditional(text: string): boolean {
  return cnToTwp(text) === text || cnToTw(twToCn(text)) === text;
}

function strings(tree: MessageTree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[`${prefix}${k}`, v] as [string, string]] : strings(v, `${prefix}${k}.`)));
}

describe('locales', () => {
  for (const ns of NAMESPACES) {
    it(`${ns}: the three languages have the same keys`, () => {
      const zhCN = messageKeys(RESOURCES['zh-CN'][ns]).sort();
      expect(messageKeys(RESOURCES['zh-TW'][ns]).sort()).toEqual(zhCN);
      expect(messageKeys(RESOURCES.en[ns]).sort()).toEqual(zhCN);
      expect(zhCN.length).toBeGreaterThan(0);
    });

    it(`${ns}: zh-TW holds traditional characters only`, () => {
      const bad = strings(RESOURCES['zh-TW'][ns]).filter(([, v]) => !isTraditional(v));
      expect(bad).toEqual([]);
    });
  }

  it('the traditional check catches a planted simplified string', () => {
    expect(isTraditional('設備列表')).toBe(true);
    expect(isTraditional('设备列表')).toBe(false);
    expect(isTraditional('告警記錄，请確認')).toBe(false);
    const planted = { ...RESOURCES['zh-TW'].shell, planted: '关闭所有' } as MessageTree;
    expect(strings(planted).filter(([, v]) => !isTraditional(v)).map(([k]) => k)).toEqual(['planted']);
  });

  it('every route title and page description is translated', () => {
    const titles = new Set<string>();
    const views = new Set<string>();
    const walk = (rs: ResolvedRoute[]) =>
      rs.forEach((r) => {
        if (r.meta?.title) titles.add(r.meta.title);
        if (r.view) views.add(r.view);
        if (r.children) walk(r.children);
      });
    walk(resolveRoutes(PROTECTED_ROUTES));
    for (const lng of ['zh-CN', 'zh-TW', 'en'] as const) {
      for (const t of titles) expect(RESOURCES[lng].route[t], `${lng} route:${t}`).toBeTypeOf('string');
      for (const v of views) expect(RESOURCES[lng].pages[v], `${lng} pages:${v}`).toBeTypeOf('string');
    }
  });

  it('zh-CN and zh-TW texts differ from English (nothing left untranslated)', () => {
    const en = new Map(strings(RESOURCES.en.route));
    const same = strings(RESOURCES['zh-CN'].route).filter(([k, v]) => en.get(k) === v);
    expect(same).toEqual([]);
  });
});
