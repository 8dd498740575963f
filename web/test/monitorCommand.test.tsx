// @vitest-environment jsdom
// The monitor's quick command dialog: an empty text message is refused by the form, nothing is sent
// and nothing is left unhandled.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { CommandDialog } from '../src/pages/home/monitor/CommandDialog';
import { polyfillDom } from './dom';

const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
  process.on('unhandledRejection', onRejection);
});
afterAll(() => {
  process.off('unhandledRejection', onRejection);
});
afterEach(cleanup);

describe('monitor command dialog', () => {
  it('refuses an empty text message with the field message, sends nothing and throws nothing', async () => {
    const sent: string[] = [];
    setFetch((async (url: RequestInfo | URL) => {
      sent.push(String(url));
      return new Response(JSON.stringify({ State: 200 }), { status: 200 });
    }) as typeof fetch);
    let closed = false;
    render(
      <App>
        <CommandDialog imei="865000000000001" open onClose={() => (closed = true)} />
      </App>,
    );
    fireEvent.mouseDown(screen.getByRole('combobox'));
    fireEvent.click(await screen.findByText(i18n.t('messages:command.names.MESSAGE'), { selector: '.ant-select-item-option-content' }));
    await screen.findByText(i18n.t('monitor:command.text'));

    fireEvent.click(screen.getByRole('button', { name: i18n.t('monitor:command.send') }));
    await screen.findByText(i18n.t('messages:validation.required'));
    // Rejections are reported after the microtasks in which they were left unhandled.
    await new Promise((r) => setTimeout(r, 0));
    await waitFor(() => expect(rejections).toEqual([]));
    expect(sent).toEqual([]);
    expect(closed).toBe(false);
  });
});
