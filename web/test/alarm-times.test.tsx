// @vitest-environment jsdom
// Alarm lists sort by when an alarm was first raised: the time shown is that one, and an alarm that
// repeated also shows when it last did (with the count), in the console's language.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import i18n from '../src/i18n';
import { AlarmTimes } from '../src/pages/alarm/AlarmTimes';
import { polyfillDom } from './dom';

polyfillDom();
afterEach(cleanup);

describe('alarm times', () => {
  it('shows the first time, which the lists sort by, and the last repeat of a repeated alarm', async () => {
    await i18n.changeLanguage('en');
    render(<AlarmTimes alarm={{ Created: '2026-11-27 08:00:00', LastTime: '2026-11-27 09:30:00', Count: 3 }} />);
    const shown = screen.getByTestId('alarm-times');
    expect(shown.textContent).toContain('2026-11-27 08:00:00');
    expect(screen.getByTestId('alarm-last-time').textContent).toBe('last 2026-11-27 09:30:00 (×3)');
    // The first time comes first.
    expect(shown.textContent!.indexOf('08:00:00')).toBeLessThan(shown.textContent!.indexOf('09:30:00'));
  });

  it('shows one time for an alarm raised once, and formats both in the viewer\'s way', async () => {
    await i18n.changeLanguage('zh-CN');
    render(<AlarmTimes alarm={{ Created: 'a', LastTime: 'a', Count: 1 }} />);
    expect(screen.queryByTestId('alarm-last-time')).toBeNull();
    cleanup();
    render(<AlarmTimes alarm={{ Created: 'a', LastTime: 'b', Count: 2 }} format={(s) => `<${s}>`} />);
    expect(screen.getByTestId('alarm-times').textContent).toBe('<a>最近 <b>（×2）');
  });
});
