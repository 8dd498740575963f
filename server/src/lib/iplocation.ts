// IP location from the offline ip2region database shipped in its npm package (no network).
import ip2region from 'ip2region';
import { pinyin } from 'pinyin-pro';
import type { Locale } from '@wt/contract';
import { toTaiwanese } from './zh-tw.js';

// The package is CommonJS with an `exports.default`; under Node's ESM loader that arrives nested.
const IP2Region = ((ip2region as unknown as { default?: typeof ip2region }).default ?? ip2region) as typeof ip2region;
let searcher: InstanceType<typeof IP2Region> | undefined;

export interface IpLocation {
  country: string;
  province: string;
  city: string;
  isp: string;
}

export function lookupIp(ip: string): IpLocation {
  const clean = ip.replace(/^::ffff:/, '');
  if (!clean || clean === '::1' || clean.startsWith('127.')) return { country: '', province: '', city: '', isp: 'localhost' };
  searcher ??= new IP2Region();
  try {
    const r = searcher.search(clean);
    if (!r) return { country: '', province: '', city: '', isp: '' };
    return { country: r.country ?? '', province: r.province ?? '', city: r.city ?? '', isp: r.isp ?? '' };
  } catch {
    return { country: '', province: '', city: '', isp: '' };
  }
}

/** "中国 广东省 深圳市" style text; empty for unknown addresses. */
export function ipLocationText(ip: string): string {
  const l = lookupIp(ip);
  return [l.country, l.province, l.city].filter((p) => p && p !== '0').join(' ') || l.isp;
}

// ---- the stored text in a reader's language ---------------------------------------------------------
// The database names places in simplified Chinese only. zh-TW converts them; English names the
// country (ICU's region names, matched through their Chinese forms), China's provinces by their
// official English names and other Chinese place names in pinyin. A foreign region is left at its
// country: its Chinese transliteration has no reliable way back.

const PROVINCES: Record<string, string> = {
  北京: 'Beijing', 天津: 'Tianjin', 上海: 'Shanghai', 重庆: 'Chongqing', 河北: 'Hebei', 山西: 'Shanxi', 辽宁: 'Liaoning',
  吉林: 'Jilin', 黑龙江: 'Heilongjiang', 江苏: 'Jiangsu', 浙江: 'Zhejiang', 安徽: 'Anhui', 福建: 'Fujian', 江西: 'Jiangxi',
  山东: 'Shandong', 河南: 'Henan', 湖北: 'Hubei', 湖南: 'Hunan', 广东: 'Guangdong', 海南: 'Hainan', 四川: 'Sichuan',
  贵州: 'Guizhou', 云南: 'Yunnan', 陕西: 'Shaanxi', 甘肃: 'Gansu', 青海: 'Qinghai', 台湾: 'Taiwan', 内蒙古: 'Inner Mongolia',
  广西: 'Guangxi', 西藏: 'Tibet', 宁夏: 'Ningxia', 新疆: 'Xinjiang', 香港: 'Hong Kong', 澳门: 'Macao',
};
const CONTINENTS: Record<string, string> = { 亚洲: 'Asia', 欧洲: 'Europe', 非洲: 'Africa', 北美洲: 'North America', 南美洲: 'South America', 大洋洲: 'Oceania', 南极洲: 'Antarctica' };
const CHINA = '中国';
const HAN = /[\u3400-\u9fff]/;
const SUFFIX = /(省|市|壮族自治区|回族自治区|维吾尔自治区|自治区|特别行政区|自治州|地区|区|县)$/;

let countries: Map<string, string> | undefined;
/** Chinese country name → English, from ICU's region names in both languages. */
function countryInEnglish(name: string): string | undefined {
  if (!countries) {
    countries = new Map(Object.entries(CONTINENTS));
    const zh = new Intl.DisplayNames(['zh-Hans'], { type: 'region' });
    const en = new Intl.DisplayNames(['en'], { type: 'region' });
    const A = 'A'.charCodeAt(0);
    for (let i = 0; i < 26 * 26; i++) {
      const code = String.fromCharCode(A + Math.floor(i / 26), A + (i % 26));
      const z = zh.of(code);
      const e = en.of(code);
      if (z && e && z !== code && !countries.has(z)) countries.set(z, e);
    }
  }
  return countries.get(name);
}

function pinyinName(name: string): string {
  const base = name.length > 2 ? name.replace(SUFFIX, '') : name;
  return base.replace(/[\u3400-\u9fff]+/g, (han) => {
    const p = pinyin(han, { toneType: 'none', type: 'array', v: true }).join('');
    return p.charAt(0).toUpperCase() + p.slice(1);
  });
}

function inEnglish(text: string): string {
  const parts = text.split(' ').filter(Boolean);
  const country = parts[0] !== undefined ? countryInEnglish(parts[0]) : undefined;
  if (country && parts[0] !== CHINA) return country;
  const out = parts.map((p, i) => {
    if (i === 0 && country) return country;
    if (!HAN.test(p)) return p;
    return PROVINCES[p.replace(SUFFIX, '')] ?? PROVINCES[p] ?? pinyinName(p);
  });
  // "北京 北京市" is one place.
  return out.filter((p, i) => p !== out[i - 1]).join(', ');
}

/** An IP location as stored (ipLocationText) in a reader's language. */
export function ipLocationIn(locale: Locale, text: string): string {
  if (!text || locale === 'zh-CN') return text;
  return locale === 'zh-TW' ? toTaiwanese(text) : inEnglish(text);
}
