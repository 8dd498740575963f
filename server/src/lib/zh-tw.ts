// Traditional Chinese (Taiwan) for texts that exist only in simplified Chinese: an alarm type name an
// administrator typed, a place name of the offline IP database. The catalogue's own texts are
// written in the three languages; this is only for data. OpenCC (cn → twp: Taiwan characters and
// phrases) costs about 150 ms and 45 MB of heap to load, so it is loaded on the first text that
// needs it and conversions are kept.
import { createRequire } from 'node:module';

type Convert = (text: string) => string;
let opencc: Convert | undefined;
const converted = new Map<string, string>();
const KEPT = 10_000;
const HAN = /[\u3400-\u9fff]/;

/** One term per concept in zh-TW: OpenCC writes 賬 for 账 (账户 → 賬戶), Taiwan writes 帳戶 and 帳號. */
export function taiwanTerms(text: string): string {
  return text.replaceAll('賬', '帳');
}

/** The text in traditional characters with Taiwan's terms; text without Chinese characters as it is. */
export function toTaiwanese(text: string): string {
  if (!text || !HAN.test(text)) return text;
  const hit = converted.get(text);
  if (hit !== undefined) return hit;
  opencc ??= (createRequire(import.meta.url)('opencc-js/cn2t') as typeof import('opencc-js')).Converter({ from: 'cn', to: 'twp' });
  const out = taiwanTerms(opencc(text));
  if (converted.size >= KEPT) converted.clear();
  converted.set(text, out);
  return out;
}
