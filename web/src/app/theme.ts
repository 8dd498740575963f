// The console's colours as painted. The settings panel keeps the theme colour a user picks (SPEC §2:
// #409EFF by default); the console paints with its accessible shade: the same hue and saturation,
// darkened until white text on it (primary buttons, the selected menu item, the active tag) and the
// colour itself as text on the console's lightest greys (links, tabs, table rows) reach the 4.5:1
// contrast of WCAG 2.1 AA. The red of errors and dangerous actions, and the text of coloured tags on
// their tinted backgrounds, are darkened the same way.
import { theme, type ThemeConfig } from 'antd';
import { LIMITS } from '@wt/contract';

/** The smallest contrast ratio of normal text (WCAG 2.1, 1.4.3 level AA). */
export const MIN_CONTRAST = 4.5;

/** The colours the settings panel offers. */
export const THEME_PRESETS = ['#409EFF', '#1890ff', '#304156', '#212121', '#11a983', '#13c2c2', '#6959CD', '#f5222d'];

/**
 * Secondary text (descriptions, breadcrumbs, hints): antd's 45 % black is 3.36:1 on white; 60 % is
 * 5.7:1 on white and above 5:1 on the light greys of table headers.
 */
export const SECONDARY_TEXT = 'rgba(0, 0, 0, 0.6)';

type Rgb = [number, number, number];

/** `#rgb` or `#rrggbb` as channels 0-255; null for anything else. */
export function parseHex(hex: string): Rgb | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join('') : m[1]!;
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

const toHex = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** Relative luminance (WCAG 2.1). */
function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** The contrast ratio of two colours (1 to 21), as WCAG defines it. */
export function contrastRatio(a: string, b: string): number {
  const x = parseHex(a);
  const y = parseHex(b);
  if (!x || !y) throw new Error(`not a colour: ${x ? b : a}`);
  const [hi, lo] = [luminance(x), luminance(y)].sort((p, q) => q - p) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

function toHsl([r, g, b]: Rgb): [number, number, number] {
  const [R, G, B] = [r / 255, g / 255, b / 255];
  const max = Math.max(R, G, B);
  const min = Math.min(R, G, B);
  const l = (max + min) / 2;
  if (max === min) return [0, 0, l];
  const d = max - min;
  const s = l > 0.5 ? d / (2 - max - min) : d / (max + min);
  const h = max === R ? (G - B) / d + (G < B ? 6 : 0) : max === G ? (B - R) / d + 2 : (R - G) / d + 4;
  return [h / 6, s, l];
}

function fromHsl([h, s, l]: [number, number, number]): Rgb {
  if (s === 0) return [l * 255, l * 255, l * 255];
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t: number) => {
    const u = t < 0 ? t + 1 : t > 1 ? t - 1 : t;
    if (u < 1 / 6) return p + (q - p) * 6 * u;
    if (u < 1 / 2) return q;
    if (u < 2 / 3) return p + (q - p) * (2 / 3 - u) * 6;
    return p;
  };
  return [channel(h + 1 / 3) * 255, channel(h) * 255, channel(h - 1 / 3) * 255];
}

/**
 * `colour`, darkened step by step (lightness only, same hue and saturation) until text in it on
 * `background` reaches `MIN_CONTRAST`; unchanged when it already does.
 */
export function readableOn(colour: string, background: string): string {
  const rgb = parseHex(colour);
  if (!rgb) throw new Error(`not a colour: ${colour}`);
  let out = toHex(rgb);
  if (contrastRatio(out, background) >= MIN_CONTRAST) return out;
  const [h, s, l] = toHsl(rgb);
  for (let k = l; k > 0; k -= 0.005) {
    out = toHex(fromHsl([h, s, k]));
    if (contrastRatio(out, background) >= MIN_CONTRAST) return out;
  }
  return '#000000';
}

/**
 * The lightest background the console puts coloured text on besides white: the page's grey (table
 * headers, hovered rows and card tabs are lighter). What reads on it reads on white, and white text
 * reads on it.
 */
export const PAGE_GREY = '#f0f2f5';

/**
 * The theme colour as painted (see the top of this file). Not a colour (a stored setting gone bad):
 * the shade of the default theme colour.
 */
export function accessibleShade(colour: string): string {
  return parseHex(colour) ? readableOn(colour, PAGE_GREY) : readableOn(LIMITS.themeColor, PAGE_GREY);
}

/** antd's tag colours (`<Tag color="green">`): text in the colour's 7th shade on its 1st. */
export const TAG_COLOURS = ['red', 'volcano', 'orange', 'gold', 'yellow', 'lime', 'green', 'cyan', 'blue', 'geekblue', 'purple', 'magenta'] as const;
/** Status tags (`<Tag color="success">`): text in the status colour on its light background. */
const STATUS = ['Success', 'Warning', 'Error', 'Info'] as const;

/** The theme of the console's ConfigProvider for a theme colour. */
export function themeConfig(themeColor: string): ThemeConfig & { token: Record<string, string>; components: { Tag: Record<string, string> } } {
  const primary = accessibleShade(themeColor);
  const base = theme.getDesignToken() as unknown as Record<string, string>;
  const token = {
    colorPrimary: primary,
    colorInfo: primary,
    colorLink: primary,
    colorError: readableOn(base.colorError!, PAGE_GREY),
    colorTextTertiary: SECONDARY_TEXT,
    colorTextDescription: SECONDARY_TEXT,
  };
  const derived = theme.getDesignToken({ token }) as unknown as Record<string, string>;
  const tag: Record<string, string> = {};
  for (const c of TAG_COLOURS) tag[`${c}7`] = readableOn(derived[`${c}7`]!, derived[`${c}1`]!);
  for (const s of STATUS) tag[`color${s}`] = readableOn(derived[`color${s}`]!, derived[`color${s}Bg`]!);
  return { token, components: { Tag: tag } };
}
