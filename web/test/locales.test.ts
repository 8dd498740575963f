import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import * as OpenCC from 'opencc-js';
import { ALARM_TYPES, COMMAND_CODES, PROTECTED_ROUTES, commandDetailsKey, commandNameKey, device, messageKeys, translate, type MessageTree } from '@wt/contract';
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

/** CJK ideographs, kana, hangul and full-width punctuation: none belongs in an English text. */
export const CJK = /[\u2e80-\u2fdf\u3000-\u30ff\u3100-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/;

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

    it(`${ns}: zh-TW says 帳戶 and 帳號 (never 賬), 裝置 for a device (never 設備), 報警 for an alarm (never 告警) and 類型 for a type (never 型別)`, () => {
      expect(strings(RESOURCES['zh-TW'][ns]).filter(([, v]) => /賬|設備|告警|型別/.test(v))).toEqual([]);
    });

    it(`${ns}: zh-CN says 报警 for an alarm (never 告警), as the menus and the alarm records do`, () => {
      expect(strings(RESOURCES['zh-CN'][ns]).filter(([, v]) => /告警/.test(v))).toEqual([]);
    });

    it(`${ns}: English holds no Chinese, Japanese or Korean text`, () => {
      expect(strings(RESOURCES.en[ns]).filter(([, v]) => CJK.test(v))).toEqual([]);
    });
  }

  it('the built-in alarm types have a name and a description in each language: traditional in zh-TW, no CJK in English', () => {
    for (const a of ALARM_TYPES) {
      for (const v of [a.zh, a.zhTW, a.en, a.zhDescription, a.zhTWDescription, a.enDescription]) expect(v, a.name).toBeTruthy();
      expect([a.zhTW, a.zhTWDescription].filter((v) => !isTraditional(v) || v.includes('賬')), a.name).toEqual([]);
      expect([a.en, a.enDescription].filter((v) => CJK.test(v)), a.name).toEqual([]);
      // zh-TW is not the simplified text left as it was (only codes like SOS read the same).
      if (a.zh !== a.zhTW) expect(isTraditional(a.zh), a.name).toBe(false);
    }
  });

  it('every command has a name and details in each language, from the one catalogue', () => {
    for (const code of COMMAND_CODES) {
      for (const key of [commandNameKey(code), commandDetailsKey(code)]) {
        const zhCN = translate('zh-CN', key);
        const zhTW = translate('zh-TW', key);
        const en = translate('en', key);
        expect([zhCN, zhTW, en].every((v) => v && v !== key), key).toBe(true);
        expect(isTraditional(zhTW) && !zhTW.includes('賬'), `${key}: ${zhTW}`).toBe(true);
        expect(CJK.test(en), `${key}: ${en}`).toBe(false);
      }
    }
    // No page keeps its own list of command names.
    for (const lng of ['zh-CN', 'zh-TW', 'en'] as const) {
      expect(RESOURCES[lng].commands.codes, lng).toBeUndefined();
      expect((RESOURCES[lng].monitor.command as MessageTree).codes, lng).toBeUndefined();
    }
  });

  it('the import sheet has a title for every column in each language, no two alike', () => {
    for (const lng of ['zh-CN', 'zh-TW', 'en'] as const) {
      const titles = device.IMPORT_COLUMNS.map((c) => translate(lng, `device.importColumns.${c}`));
      expect(titles.every((v, i) => v !== `device.importColumns.${device.IMPORT_COLUMNS[i]}`), lng).toBe(true);
      expect(new Set(titles).size, lng).toBe(titles.length);
    }
  });

  it('the checks catch a planted 賬 and a planted Chinese text in English', () => {
    expect(strings({ a: '本賬戶' }).filter(([, v]) => v.includes('賬'))).toHaveLength(1);
    expect(CJK.test('Entered 账户 fence')).toBe(true);
    expect(CJK.test('Alarm：SOS')).toBe(true);
    expect(CJK.test('Fall — 37.5 °C, 90%')).toBe(false);
  });

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

  it('every namespaced key the console names in its code exists (a text moved elsewhere is not left behind)', () => {
    const src = path.join(import.meta.dirname, '../src');
    const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => /\.tsx?$/.test(f));
    // 'ns:a.b' and `ns:a.b.${x}`: the key, or the group a dynamic key is taken from, must be there.
    const literal = /[`'"]([a-zA-Z]+):([A-Za-z0-9_.]+?)(\.?\$\{|[`'"])/g;
    const missing: string[] = [];
    let seen = 0;
    for (const f of files) {
      for (const m of readFileSync(path.join(src, f), 'utf8').matchAll(literal)) {
        const [, ns, key] = m;
        if (!NAMESPACES.includes(ns!)) continue;
        seen++;
        let node: unknown = RESOURCES['zh-CN'][ns!];
        for (const part of key!.split('.')) node = typeof node === 'object' && node ? (node as MessageTree)[part] : undefined;
        if (node === undefined) missing.push(`${f}: ${ns}:${key}`);
      }
    }
    expect(missing).toEqual([]);
    expect(seen).toBeGreaterThan(200);
  });
});
