// @vitest-environment jsdom
// A compact row button with a confirmation: its tooltip names it on hover, and is closed while the
// confirmation is open instead of being drawn over it.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App, ConfigProvider } from 'antd';
import { ActionButton } from '../src/patterns/actions';
import { polyfillDom } from './dom';

beforeAll(() => polyfillDom());
afterEach(cleanup);

const visibleTooltips = () => [...document.querySelectorAll('.ant-tooltip')].filter((e) => !e.className.includes('ant-tooltip-hidden'));

describe('action button', () => {
  it('closes its tooltip while its confirmation is open', async () => {
    const pressed = vi.fn();
    render(
      // Without animations: a closed tooltip is hidden at once.
      <ConfigProvider theme={{ token: { motion: false } }}>
        <App>
          <ActionButton action={{ label: 'Delete', danger: true, testId: 'del' }} type="link" compact confirm="Delete it?" onPress={pressed} />
        </App>
      </ConfigProvider>,
    );
    const button = screen.getByTestId('del');
    fireEvent.mouseEnter(button);
    await waitFor(() => expect(visibleTooltips().map((e) => e.textContent)).toEqual(['Delete']));
    fireEvent.click(button);
    await screen.findByText('Delete it?');
    await waitFor(() => expect(visibleTooltips().map((e) => e.textContent)).toEqual([]));
    expect(pressed).not.toHaveBeenCalled();
  });
});
