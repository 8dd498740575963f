// @vitest-environment jsdom
// The realtime alarm pop-up's own handling: "acknowledge" sends the confirm call of that alarm record
// and closes the pop-up, "assign to me" assigns the record to the signed-in account, "open the device"
// goes to the device's detail page; a user whose set lacks alarm.confirm sees neither of the first
// two, and one without the device pages no "open the device". The socket is replaced by a stub that
// hands the provider the messages a test sends.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import type { RealtimeMessage, UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { permittedRoutes } from '../src/access';
import { useSession } from '../src/stores/session';
import { useRealtime } from '../src/realtime/store';
import { polyfillDom } from './dom';

type Handlers = { onMessage: (m: RealtimeMessage) => void };
let handlers: Handlers | null = null;
vi.mock('../src/realtime/connection', () => ({
  RealtimeConnection: class {
    subscribe(h: Handlers) {
      handlers = h;
      return () => (handlers = null);
    }
    start() {}
    stop() {}
  },
}));
const { RealtimeProvider } = await import('../src/realtime/RealtimeProvider');

vi.setConfig({ testTimeout: 30_000 });

let sent: { path: string; body: Record<string, unknown> }[] = [];
beforeAll(async () => {
  polyfillDom();
  window.HTMLMediaElement.prototype.play = () => Promise.resolve();
  window.HTMLMediaElement.prototype.pause = () => undefined;
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    sent.push({ path, body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown> });
    return new Response(JSON.stringify({ State: 200, Items: [], Total: 0 }), { status: 200 });
  }) as typeof fetch);
});
afterEach(cleanup);

function Where() {
  const l = useLocation();
  return <span data-testid="where">{l.pathname + l.search}</span>;
}

function renderAs(permissions: string[], routes = '') {
  const info = { UserId: 3, LoginName: 'agent01', UserType: 1, routes, Permissions: permissions } as unknown as UserInfo;
  useSession.setState({ token: 't', userId: 3, userInfo: info, permitted: permittedRoutes(info) });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/alarm/record']}>
        <App>
          <RealtimeProvider />
          <Routes>
            <Route path="*" element={<Where />} />
          </Routes>
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

async function raise(alarmId: number) {
  await waitFor(() => expect(handlers).not.toBeNull());
  act(() =>
    handlers!.onMessage({
      type: 'alarm',
      deviceId: 9,
      alarm: { NotificationType: 5, DeviceID: '865000000000009', Nickname: 'Room 9', Message: 'SOS', Created: new Date().toISOString(), AlarmId: alarmId },
    }),
  );
  return screen.findByText('Room 9');
}

const calls = (path: string) => sent.filter((s) => s.path === path);

describe('alarm pop-up actions', () => {
  it('acknowledges the alarm with the confirm call and closes the pop-up', async () => {
    renderAs(['*']);
    await raise(41);
    const open = useRealtime.getState().openNotifications;
    expect(open).toBeGreaterThan(0);
    fireEvent.click(await screen.findByTestId('alarm-acknowledge'));
    await waitFor(() => expect(calls('/ExceptionMessage/updateExceptionByID')).toEqual([{ path: '/ExceptionMessage/updateExceptionByID', body: { Id: 41, Remark: '' } }]));
    // The pop-up is closed (jsdom runs no leave animation: the console's count of open pop-ups says it).
    await waitFor(() => expect(useRealtime.getState().openNotifications).toBe(open - 1));
    expect(await screen.findByText(i18n.t('monitor:alarm.acknowledged'))).toBeTruthy();
  });

  it('assigns the alarm to the signed-in account', async () => {
    renderAs(['*']);
    await raise(42);
    fireEvent.click(await screen.findByTestId('alarm-assign-me'));
    await waitFor(() => expect(calls('/AlarmRecord/Assign')).toEqual([{ path: '/AlarmRecord/Assign', body: { Id: 42, AssigneeId: 3 } }]));
    expect(await screen.findByText(i18n.t('monitor:alarm.assignedToMe'))).toBeTruthy();
  });

  it('opens the device detail page', async () => {
    renderAs(['*']);
    await raise(43);
    fireEvent.click(await screen.findByTestId('alarm-open-device'));
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/devices/detail?imei=865000000000009'));
  });

  it('closes the pop-up of an alarm the platform cleared, and only that one', async () => {
    renderAs(['*']);
    await waitFor(() => expect(handlers).not.toBeNull());
    const before = useRealtime.getState().openNotifications;
    const fenceOut = (deviceId: number, name: string) =>
      act(() =>
        handlers!.onMessage({
          type: 'alarm',
          deviceId,
          alarm: { NotificationType: 23, DeviceID: `86500000000000${deviceId}`, Nickname: name, Message: 'left', Created: new Date().toISOString(), AlarmId: 50 + deviceId },
        }),
      );
    fenceOut(7, 'Room 7');
    fenceOut(8, 'Room 8');
    await screen.findByText('Room 8');
    expect(useRealtime.getState().openNotifications).toBe(before + 2);
    // Device 7 is back inside: its fence-out pop-up closes, device 8's stays.
    act(() => handlers!.onMessage({ type: 'alarmCleared', deviceId: 7, alarms: [{ id: 57, type: 23 }] }));
    await waitFor(() => expect(useRealtime.getState().openNotifications).toBe(before + 1));
    // Another type of the same device, or another device, closes nothing.
    act(() => handlers!.onMessage({ type: 'alarmCleared', deviceId: 8, alarms: [{ id: 99, type: 9 }] }));
    act(() => handlers!.onMessage({ type: 'alarmCleared', deviceId: 6, alarms: [{ id: 98, type: 23 }] }));
    expect(useRealtime.getState().openNotifications).toBe(before + 1);
  });

  it('shows only what the set allows: no acknowledge or assign without alarm.confirm, no device without its page', async () => {
    renderAs(['read'], '/,/alarm,/alarm/record');
    await raise(44);
    expect(screen.getByTestId('alarm-open-monitor')).toBeTruthy();
    expect(screen.queryByTestId('alarm-acknowledge')).toBeNull();
    expect(screen.queryByTestId('alarm-assign-me')).toBeNull();
    expect(screen.queryByTestId('alarm-open-device')).toBeNull();
  });
});
