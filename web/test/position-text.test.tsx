// @vitest-environment jsdom
// One way to show a position: the address when the geocoder answers, else the coordinates as
// "latitude, longitude" with 5 decimals; an accuracy of 0 m is no accuracy; no position is a dash.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { coordinatesText, PositionText, type PositionTextProps } from '../src/components/PositionText';
import { polyfillDom } from './dom';

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
afterEach(cleanup);

function show(props: PositionTextProps, address: string | null) {
  const asked: Record<string, unknown>[] = [];
  setFetch((async (_url: RequestInfo | URL, init?: RequestInit) => {
    asked.push(JSON.parse(String(init!.body)) as Record<string, unknown>);
    return address === null
      ? new Response(JSON.stringify({ State: 500, Message: 'common.internal' }), { status: 500 })
      : new Response(JSON.stringify({ State: 200, Address: address, Source: 'offline' }));
  }) as typeof fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <PositionText {...props} />
    </QueryClientProvider>,
  );
  return asked;
}

describe('position text', () => {
  it('shows the address of the position, asked for with its coordinates', async () => {
    const asked = show({ lat: 22.543211, lon: 114.054322, accuracy: 0 }, '广东省深圳市福田区');
    expect(await screen.findByText('广东省深圳市福田区')).toBeTruthy();
    expect(asked).toEqual([{ Lat: 22.543211, Lon: 114.054322 }]);
    expect(screen.getByTestId('position-text').getAttribute('data-coordinates')).toBe('22.54321, 114.05432');
  });

  it('falls back to "latitude, longitude" without a ±0 m, with a real accuracy, and a dash without a position', async () => {
    show({ lat: 22.5, lon: 114.1, accuracy: 0 }, null);
    expect(screen.getByTestId('position-text').textContent).toBe('22.50000, 114.10000');
    cleanup();
    show({ lat: 22.5, lon: 114.1, accuracy: 12.4 }, null);
    expect(screen.getByTestId('position-text').textContent).toBe('22.50000, 114.10000 ±12 m');
    cleanup();
    show({ lat: null, lon: null }, 'x');
    expect(screen.queryByTestId('position-text')).toBeNull();
    expect(screen.getByText('—')).toBeTruthy();
    expect(coordinatesText(-33.8, 151.2)).toBe('-33.80000, 151.20000');
  });
});
