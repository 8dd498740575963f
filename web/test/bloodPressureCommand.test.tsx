// @vitest-environment jsdom
// The device command dialog's blood pressure thresholds: systolic and diastolic limits are two
// pairs of fields, each 20 to 100; a limit out of range is refused on its own field with the
// range, nothing is sent; in-range limits go to the server as the four fields.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { App } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { CommandDialog } from '../src/pages/devices/commands/CommandDialog';
import { polyfillDom } from './dom';

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
afterAll(() => setFetch(fetch));
afterEach(cleanup);

describe('blood pressure threshold command', () => {
  it('shows systolic and diastolic limits apart and refuses a limit out of 20-100 on its field', async () => {
    const sent: { url: string; body: Record<string, unknown> }[] = [];
    setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
      const u = String(url);
      if (u.includes('SendCommand')) {
        sent.push({ url: u, body: JSON.parse(String(init?.body ?? '{}')) });
        return new Response(
          JSON.stringify({ State: 200, Item: { Id: 1, Imei: '865000000000001', Code: 'BLOOD_PRESSURE_THRESHOLD', Name: '', Params: {}, Status: 'queued', Encoded: '', Reply: null, Error: '', SenderId: 1, SenderName: '', CreatedAt: new Date().toISOString(), SentAt: null, AnsweredAt: null } }),
          { status: 200 },
        );
      }
      return new Response(JSON.stringify({ State: 200, Total: 0, Items: [] }), { status: 200 });
    }) as typeof fetch);
    render(
      <QueryClientProvider client={new QueryClient()}>
        <App>
          <CommandDialog device={{ Imei: '865000000000001', Name: 'Mr Wang', Commands: ['BLOOD_PRESSURE_THRESHOLD'] }} onClose={() => {}} />
        </App>
      </QueryClientProvider>,
    );
    for (const f of ['systolicMin', 'systolicMax', 'diastolicMin', 'diastolicMax']) await screen.findByText(i18n.t(`commands:field.${f}`));
    const input = (f: string) => document.querySelector<HTMLInputElement>(`[data-testid="cmd-${f}"] input, input[data-testid="cmd-${f}"]`)!;
    const type = (f: string, v: string) => fireEvent.change(input(f), { target: { value: v } });
    type('systolicMin', '90');
    type('systolicMax', '140');
    type('diastolicMin', '60');
    type('diastolicMax', '90');
    fireEvent.click(document.getElementById('cmd-send')!);
    const range = i18n.t('messages:validation.thresholdRange', { min: 20, max: 100 });
    expect(await screen.findByText(range)).toBeTruthy();
    expect(screen.getAllByText(range)).toHaveLength(1);
    // On the systolic maximum's field.
    expect(screen.getByText(range).closest('.ant-form-item')?.contains(input('systolicMax'))).toBe(true);
    expect(sent).toEqual([]);

    type('systolicMax', '100');
    fireEvent.click(document.getElementById('cmd-send')!);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]!.body).toMatchObject({ Imei: '865000000000001', Code: 'BLOOD_PRESSURE_THRESHOLD', Params: { systolicMin: 90, systolicMax: 100, diastolicMin: 60, diastolicMax: 90 } });
  });
});
