// @vitest-environment jsdom
// The device edit dialog: allowed source networks typed as tags, checked with the contract's
// schema before anything is sent (an entry that is no network is named under the field).
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import i18n from '../src/i18n';
import { polyfillDom } from './dom';

const call = vi.hoisted(() => vi.fn());
vi.mock('../src/api/client', async (original) => ({ ...(await original<typeof import('../src/api/client')>()), call }));

const { EditDeviceDialog } = await import('../src/pages/devices/dialogs/EditDeviceDialog');

vi.setConfig({ testTimeout: 30_000 });

beforeAll(async () => {
  await i18n.changeLanguage('en');
  polyfillDom();
});
afterEach(() => {
  cleanup();
  call.mockReset();
});

const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
const ok = () => screen.getAllByRole('button', { name: /OK/ }).at(-1)!;

function open(networks: string[]) {
  const device = { DeviceId: 9, Imei: '865000000000009', Name: 'Bed 9', AllowedNetworks: networks } as never;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <App>
        <EditDeviceDialog device={device} onClose={() => {}} />
      </App>
    </QueryClientProvider>,
  );
}

describe('the device edit dialog', () => {
  it('names an entry that is no network under the field and sends nothing', async () => {
    open(['203.0.113.0/24', 'nowhere']);
    await screen.findByTestId('edit-device-form');
    fireEvent.click(ok());
    await screen.findByText(t('messages:device.networkInvalid', { value: 'nowhere' }));
    expect(call).not.toHaveBeenCalled();
  });

  it('sends the networks typed, with the device', async () => {
    call.mockResolvedValue({ State: 0 });
    open(['203.0.113.0/24']);
    const input = (await screen.findByTestId('edit-device-form')).querySelector('input')!;
    fireEvent.change(input, { target: { value: '2001:db8::/32,' } });
    fireEvent.click(ok());
    await waitFor(() => expect(call).toHaveBeenCalled());
    expect(call).toHaveBeenCalledWith('/Device/EditDevice', { DeviceId: 9, AllowedNetworks: ['203.0.113.0/24', '2001:db8::/32'] });
  });
});
