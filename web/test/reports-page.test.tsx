// @vitest-environment jsdom
// The reports page with its calls answered here: trips and stops of an IMEI shown with their times in
// the account's zone (UTC+8), the daily summary and the alarms report from the server's answers.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import type { UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import ReportsPage from '../src/pages/report/ReportsPage';
import { polyfillDom } from './dom';

// jsdom has no canvas: the chart shows the series it was given.
vi.mock('echarts-for-react/esm/core', () => ({
  default: (props: { option: { series: { data: number[] }[] } }) => <div data-testid="chart-data">{JSON.stringify(props.option.series[0]!.data)}</div>,
}));

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 10_000 });

let sent: { path: string; body: Record<string, unknown> }[] = [];
let editable = true;
const thresholds = { StopMinutes: 30, StopRadius: 150, StopSpeed: 5, GapMinutes: 60, MinTripMeters: 200 };
const place = (Address: string) => ({ Lat: 22.5, Lon: 114, Address });

function answer(path: string): unknown {
  switch (path) {
    case '/Report/Trips':
      return {
        State: 200,
        Devices: [
          {
            DeviceId: 7,
            Imei: '865000000000007',
            Name: 'Van 1',
            Trips: [{ Start: '2026-03-02T01:00:00.000Z', End: '2026-03-02T01:10:00.000Z', StartPlace: place('Futian'), EndPlace: place('Luohu'), Distance: 10_000, Minutes: 10, MaxSpeed: 60, AvgSpeed: 58.5 }],
            Stops: [{ Start: '2026-03-02T00:00:00.000Z', End: '2026-03-02T01:00:00.000Z', Minutes: 60, ...place('Futian') }],
          },
        ],
      };
    case '/Report/Summary':
      return {
        State: 200,
        Total: 1,
        Items: [
          {
            DeviceId: 7,
            Imei: '865000000000007',
            Name: 'Van 1',
            Day: '2026-03-02',
            Distance: 19_000,
            MovingMinutes: 19,
            StoppedMinutes: 160,
            MaxSpeed: 60,
            First: { Time: '2026-03-02T00:00:00.000Z', Lat: 22.5, Lon: 114 },
            Last: null,
            Alarms: 2,
            HeartRate: { Min: 72, Max: 110 },
            BloodOxygen: null,
            BodyTemp: null,
            Systolic: null,
          },
        ],
      };
    case '/Report/Alarms':
      return {
        State: 200,
        Total: 3,
        ConfirmedCount: 2,
        P50Minutes: 20,
        P90Minutes: 28,
        ByType: [{ Type: 1, Name: 'SOS', Count: 2, ConfirmedCount: 2, P50Minutes: 20, P90Minutes: 28 }],
        ByDevice: [{ DeviceId: 7, Imei: '865000000000007', Name: 'Van 1', Count: 2 }],
        ByDay: [{ Day: '2026-03-02', Count: 2 }],
      };
    case '/Report/Settings':
    case '/Report/SaveSettings':
      return {
        State: 200,
        UserId: 1,
        Own: { StopMinutes: null, StopRadius: 150, StopSpeed: null, GapMinutes: null, MinTripMeters: null },
        Inherited: { ...thresholds, StopRadius: 100 },
        Effective: thresholds,
        BuiltIn: { ...thresholds, StopMinutes: 5, StopRadius: 100 },
        Editable: editable,
      };
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
  editable = true;
  useSession.setState({ userInfo: { UserId: 1, LoginName: 'admin', timeZoneOffset: 480, Permissions: ['*'] } as unknown as UserInfo });
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    sent.push({ path, body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown> });
    return new Response(JSON.stringify(answer(path)), { status: 200 });
  }) as typeof fetch);
});
afterEach(() => cleanup());

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <ReportsPage />
      </App>
    </QueryClientProvider>,
  );
}

describe('reports page', () => {
  it('asks for a device first, then shows its trips and stops in the account zone', async () => {
    renderPage();
    expect(await screen.findByText('Enter an IMEI or choose a group, then press Run')).toBeTruthy();
    expect(sent.some((s) => s.path === '/Report/Trips')).toBe(false);
    fireEvent.change(screen.getByTestId('report-imei'), { target: { value: '865000000000007' } });
    fireEvent.click(screen.getByTestId('report-run'));
    const trips = await screen.findByTestId('report-trips');
    await within(trips).findByText('Luohu');
    // 01:00Z is 09:00 at UTC+8.
    expect(within(trips).getByText('2026-03-02 09:00:00')).toBeTruthy();
    expect(within(trips).getByText('10.0')).toBeTruthy();
    expect(within(screen.getByTestId('report-stops')).getByText('2026-03-02 08:00:00')).toBeTruthy();
    expect(within(screen.getByTestId('report-trips-chart')).getByTestId('chart-data').textContent).toBe('[10]');
    const call = sent.find((s) => s.path === '/Report/Trips')!.body;
    expect(call).toMatchObject({ Imei: '865000000000007' });
    expect(call.From).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('shows the daily summary and the alarms report', async () => {
    renderPage();
    fireEvent.click(await screen.findByText('Daily summary'));
    const summary = await screen.findByTestId('report-summary');
    await within(summary).findByText('72–110');
    expect(within(summary).getByText('19.0')).toBeTruthy();
    fireEvent.click(screen.getByText('Alarms', { selector: '.ant-tabs-tab-btn' }));
    const types = await screen.findByTestId('report-alarms-types');
    await within(types).findByText('SOS');
    expect(within(types).getByText('28')).toBeTruthy();
    expect(within(screen.getByTestId('report-alarms-chart')).getByTestId('chart-data').textContent).toBe('[2]');
  });

  it('shows the thresholds in force and lets an administrator set them, refusing one out of its limits', async () => {
    renderPage();
    expect((await screen.findByTestId('report-thresholds')).textContent).toBe('Stops: at least 30 min within 150 m, at most 5 km/h');
    fireEvent.click(screen.getByTestId('report-thresholds-edit'));
    const form = await screen.findByTestId('report-thresholds-form');
    // The account's own radius is shown; an empty field says what it follows.
    expect((within(form).getByTestId('report-threshold-StopRadius') as HTMLInputElement).value).toBe('150');
    expect(within(form).getByText('Empty: 30 min. From 1 to 1440')).toBeTruthy();
    expect((within(form).getByTestId('report-threshold-StopMinutes') as HTMLInputElement).placeholder).toBe('30');
    fireEvent.change(within(form).getByTestId('report-threshold-GapMinutes'), { target: { value: '2000' } });
    fireEvent.click(screen.getByRole('button', { name: /OK|Save/ }));
    await waitFor(() => expect(form.querySelector('.ant-form-item-explain-error')?.textContent ?? '').toMatch(/1,?440/));
    expect(sent.some((s) => s.path === '/Report/SaveSettings')).toBe(false);
    fireEvent.change(within(form).getByTestId('report-threshold-GapMinutes'), { target: { value: '90' } });
    fireEvent.change(within(form).getByTestId('report-threshold-StopMinutes'), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: /OK|Save/ }));
    await waitFor(() => expect(sent.some((s) => s.path === '/Report/SaveSettings')).toBe(true));
    expect(sent.find((s) => s.path === '/Report/SaveSettings')!.body).toMatchObject({ StopMinutes: 10, StopRadius: 150, GapMinutes: 90, StopSpeed: null });
  });

  it('shows the thresholds without the edit button to an account that may not set them', async () => {
    editable = false;
    renderPage();
    await screen.findByTestId('report-thresholds');
    expect(screen.queryByTestId('report-thresholds-edit')).toBeNull();
  });
});
