// @vitest-environment jsdom
// The thresholds tab of the alarm settings, with the calls answered here: it edits the account's
// thresholds, or one device's when an IMEI is given (the request names it, the source tag says whose
// they are), the no-motion window goes out as the schedule the contract takes, and an IMEI outside
// the subtree shows the server's refusal with nothing to save.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import type { UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import AlarmSettingPage from '../src/pages/alarm/AlarmSettingPage';
import { polyfillDom } from './dom';

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 10_000 });

let sent: { path: string; body: Record<string, unknown> }[] = [];
const blank = {
  heartRateMin: 40, heartRateMax: 150, systolicMin: null, systolicMax: 140, diastolicMin: null, diastolicMax: 90, bodyTempMax: 37.5, wristTempMax: null,
  bloodOxygenMin: 90, speedLimit: null, noMotionMinutes: null, noMotionSchedule: null,
};

function answer(path: string, body: Record<string, unknown>): unknown {
  switch (path) {
    case '/ExceptionMessage/allExceptionThreshold':
      if (body.Imei === '865000000000999') return { State: 404, Message: 'monitor.deviceNotFound', Text: 'The device does not exist' };
      return { State: 200, Item: body.Imei ? { ...blank, speedLimit: 80 } : blank, Source: body.Imei ? 'device' : 'account' };
    case '/ExceptionMessage/actionThresholdValue':
      return { State: 200, Item: { ...blank, ...body }, Source: body.Imei ? 'device' : 'account' };
    default:
      return { State: 200, Total: 0, Items: [] };
  }
}

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  useSession.setState({ userInfo: { UserId: 1, LoginName: 'admin', timeZoneOffset: 480, Permissions: ['alarm.setting'] } as unknown as UserInfo });
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ path, body });
    return new Response(JSON.stringify(answer(path, body)), { status: 200 });
  }) as typeof fetch);
});
afterEach(() => cleanup());

async function openTab() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <App>
        <AlarmSettingPage />
      </App>
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByText('Alarm thresholds'));
  await screen.findByTestId('threshold-source');
}

const imeiInput = () => {
  const el = screen.getByTestId('threshold-imei');
  return (el.tagName === 'INPUT' ? el : el.querySelector('input')!) as HTMLInputElement;
};
const saves = () => sent.filter((s) => s.path === '/ExceptionMessage/actionThresholdValue');
const value = (name: string) => (screen.getByTestId(`threshold-${name}`).querySelector('input') ?? screen.getByTestId(`threshold-${name}`)) as HTMLInputElement;

describe('alarm thresholds tab', () => {
  it("saves a device's speed limit and no-motion window by its IMEI, and says the thresholds are the device's", async () => {
    await openTab();
    expect(screen.getByTestId('threshold-source').textContent).toBe('Set on this account');
    fireEvent.click(within(screen.getByTestId('threshold-target')).getByText('A device'));
    const imei = imeiInput();
    fireEvent.change(imei, { target: { value: '865000000000003' } });
    fireEvent.keyDown(imei, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(screen.getByTestId('threshold-source').textContent).toBe('Set on the device'));
    await waitFor(() => expect(value('speedLimit').value).toBe('80'));
    fireEvent.change(value('noMotionMinutes'), { target: { value: '45' } });
    // The window: on, with its default weekdays 08:00-18:00.
    fireEvent.click(screen.getByTestId('fence-schedule-on'));
    fireEvent.click(screen.getByTestId('threshold-save'));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]!.body).toMatchObject({
      Imei: '865000000000003',
      speedLimit: 80,
      noMotionMinutes: 45,
      noMotionSchedule: { Days: [1, 2, 3, 4, 5], Windows: [{ Start: '08:00', End: '18:00' }] },
    });
  });

  it('shows the refusal of an IMEI outside the subtree and offers nothing to save', async () => {
    await openTab();
    fireEvent.click(within(screen.getByTestId('threshold-target')).getByText('A device'));
    const imei = imeiInput();
    fireEvent.change(imei, { target: { value: '865000000000999' } });
    fireEvent.keyDown(imei, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await screen.findByTestId('threshold-error');
    expect((screen.getByTestId('threshold-save') as HTMLButtonElement).disabled).toBe(true);
    expect(saves()).toHaveLength(0);
  });
});
