// @vitest-environment jsdom
// The console's colours: the theme colour is painted in a shade that white text on it (and it as text
// on white and on the page's grey) reaches 4.5:1, whichever preset or colour a user picks; secondary
// text, the red of errors and the text of coloured tags do too; and the console's ConfigProvider
// hands these tokens to every component.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { theme } from 'antd';
import { LIMITS } from '@wt/contract';
import { Providers } from '../src/app/Providers';
import { MIN_CONTRAST, PAGE_GREY, SECONDARY_TEXT, TAG_COLOURS, THEME_PRESETS, accessibleShade, contrastRatio, parseHex, readableOn, themeConfig } from '../src/app/theme';
import { useSettings } from '../src/stores/settings';
import { polyfillDom } from './dom';

const WHITE = '#ffffff';

/** An rgba() over an opaque background, as the browser blends it. */
function over(rgba: string, bg: string): string {
  const [r, g, b, a] = /rgba\(([^)]+)\)/.exec(rgba)![1]!.split(',').map(Number) as [number, number, number, number];
  const base = parseHex(bg)!;
  return `#${[r, g, b].map((c, i) => Math.round(c * a + base[i]! * (1 - a)).toString(16).padStart(2, '0')).join('')}`;
}

/** Hue of a colour in degrees. */
function hue(hex: string): number {
  const [r, g, b] = parseHex(hex)!.map((c) => c / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const d = max - Math.min(r, g, b);
  const h = max === r ? ((g - b) / d) % 6 : max === g ? (b - r) / d + 2 : (r - g) / d + 4;
  return (h * 60 + 360) % 360;
}

beforeAll(() => polyfillDom());
afterEach(() => {
  cleanup();
  useSettings.getState().reset();
});

describe('contrast ratio', () => {
  it('measures as WCAG does', () => {
    expect(contrastRatio('#000000', WHITE)).toBeCloseTo(21, 5);
    expect(contrastRatio(WHITE, WHITE)).toBe(1);
    // The default theme colour of the spec under white text: what axe-core reports.
    expect(contrastRatio(LIMITS.themeColor, WHITE)).toBeCloseTo(2.78, 2);
    expect(contrastRatio('#8c8c8c', WHITE)).toBeCloseTo(3.36, 2);
    expect(contrastRatio('#fff', '#FFFFFF')).toBe(1);
  });
});

describe('the theme colour as painted', () => {
  it('gives white text 4.5:1 on the default colour, and the colour on the page’s grey, keeping its hue', () => {
    const shade = accessibleShade(LIMITS.themeColor);
    expect(contrastRatio(shade, WHITE)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrastRatio(shade, PAGE_GREY)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(Math.abs(hue(shade) - hue(LIMITS.themeColor))).toBeLessThan(2);
    // Darkened no further than needed.
    expect(contrastRatio(shade, PAGE_GREY)).toBeLessThan(4.7);
  });

  it('gives 4.5:1 on every preset and on colours a user may pick', () => {
    for (const c of [...THEME_PRESETS, '#ffff00', '#ffffff', '#7fffd4', '#fa8c16', '#abc']) {
      expect(contrastRatio(accessibleShade(c), WHITE), c).toBeGreaterThanOrEqual(MIN_CONTRAST);
      expect(contrastRatio(accessibleShade(c), PAGE_GREY), c).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
  });

  it('leaves a colour that already passes as it is', () => {
    expect(accessibleShade('#304156')).toBe('#304156');
    expect(accessibleShade('#6959CD')).toBe('#6959cd');
    expect(readableOn('#000000', WHITE)).toBe('#000000');
  });

  it('falls back to the default colour’s shade for a stored value that is not a colour', () => {
    expect(accessibleShade('blue; background: red')).toBe(accessibleShade(LIMITS.themeColor));
  });
});

describe('the console’s theme', () => {
  const config = themeConfig(LIMITS.themeColor);
  const base = theme.getDesignToken() as unknown as Record<string, string>;

  it('gives secondary text 4.5:1 on white and on the light greys of table headers and the page', () => {
    for (const bg of [WHITE, '#fafafa', '#f5f5f5', PAGE_GREY]) {
      expect(contrastRatio(over(SECONDARY_TEXT, bg), bg), bg).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
    expect(config.token.colorTextTertiary).toBe(SECONDARY_TEXT);
    expect(config.token.colorTextDescription).toBe(SECONDARY_TEXT);
  });

  it('paints errors and dangerous actions in a red that reads on white and carries white text', () => {
    expect(contrastRatio(base.colorError!, WHITE)).toBeLessThan(MIN_CONTRAST);
    expect(contrastRatio(config.token.colorError!, WHITE)).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });

  it('gives the text of every coloured and status tag 4.5:1 on its background', () => {
    const tag = config.components.Tag;
    const derived = theme.getDesignToken({ token: config.token }) as unknown as Record<string, string>;
    // antd's own green does not: the check can fail.
    expect(contrastRatio(base.green7!, base.green1!)).toBeLessThan(MIN_CONTRAST);
    for (const c of TAG_COLOURS) expect(contrastRatio(tag[`${c}7`]!, derived[`${c}1`]!), c).toBeGreaterThanOrEqual(MIN_CONTRAST);
    for (const s of ['Success', 'Warning', 'Error', 'Info']) {
      expect(contrastRatio(tag[`color${s}`]!, derived[`color${s}Bg`]!), s).toBeGreaterThanOrEqual(MIN_CONTRAST);
    }
  });
});

function Probe() {
  const { token } = theme.useToken();
  return <span data-testid="probe" data-primary={token.colorPrimary} data-link={token.colorLink} data-description={token.colorTextDescription} />;
}

describe('the console’s ConfigProvider', () => {
  it('paints components with the accessible tokens of the chosen theme colour', () => {
    useSettings.getState().change('themeColor', '#13c2c2');
    render(
      <Providers>
        <Probe />
      </Providers>,
    );
    const probe = screen.getByTestId('probe');
    const primary = probe.getAttribute('data-primary')!;
    expect(primary).toBe(accessibleShade('#13c2c2'));
    expect(contrastRatio(primary, WHITE)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(probe.getAttribute('data-link')).toBe(primary);
    expect(contrastRatio(over(probe.getAttribute('data-description')!, WHITE), WHITE)).toBeGreaterThanOrEqual(MIN_CONTRAST);
  });
});
