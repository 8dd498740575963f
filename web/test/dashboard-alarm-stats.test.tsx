// @vitest-environment jsdom
// The dashboard's alarm statistics with the alarm figures answered here: the last 7 days of the
// account's zone asked for, alarms per day stacked by type, time to acknowledge, and the export
// offered only where the reports page is open.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { ALARM_CODES, type UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import type { ResolvedRoute } from '../src/access';
import { AlarmStats, lastDays } from '../src/pages/home/dashboard/AlarmStats';
import { polyfillDom } from './dom';

// jsdom has no canvas: the chart shows the series it was given.
vi.mock('echarts-for-react', () => ({
  default: (props: { option: { xAxis: { data: string[] }; series: { name: string; data: number[]; stack: string }[] } }) => (
    <div data-testid="chart-data">{JSON.stringify({ x: props.option.xAxis.data, series: props.option.series.map((s) => [s.name, s.stack, s.data]) })}</div>
  ),
}));

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 10_000 });

let sent: { path: string; body: Record<string, unknown> }[] = [];
const days = lastDays(480, 7);

function answer(path: string): unknown {
  if (path === '/Report/Alarms')
    return {
      State: 200,
      Total: 5,
      ConfirmedCount: 3,
      P50Minutes: 4.5,
      P90Minutes: 38,
      ByType: [
        { Type: ALARM_CODES.overspeed, Name: 'Overspeed', Count: 3, ConfirmedCount: 2, P50Minutes: 4, P90Minutes: 30 },
        { Type: ALARM_CODES.sos, Name: 'SOS', Count: 2, ConfirmedCount: 1, P50Minutes: 5, P90Minutes: 38 },
      ],
      ByDevice: [],
      ByDay: [
        { Day: days[0], Count: 1 },
        { Day: days[6], Count: 4 },
      ],
      ByTypeDay: [
        { Day: days[0], Type: ALARM_CODES.sos, Count: 1 },
        { Day: days[6], Type: ALARM_CODES.overspeed, Count: 3 },
        { Day: days[6], Type: ALARM_CODES.sos, Count: 1 },
      ],
    };
  return { State: 200, Total: 0, Items: [] };
}

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    sent.push({ path, body: JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown> });
    return new Response(JSON.stringify(answer(path)), { status: 200 });
  }) as typeof fetch);
});
afterEach(() => cleanup());

function renderPanel(pages: string[]) {
  const permitted: ResolvedRoute[] = pages.map((p) => ({ path: p, fullPath: p, view: 'page' }) as unknown as ResolvedRoute);
  useSession.setState({ userInfo: { UserId: 1, LoginName: 'admin', timeZoneOffset: 480, Permissions: ['*'] } as unknown as UserInfo, permitted });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <AlarmStats />
      </App>
    </QueryClientProvider>,
  );
}

describe('dashboard alarm statistics', () => {
  it('counts the last 7 days of the account zone', () => {
    // 2026-03-01 20:00Z is 2026-03-02 04:00 at UTC+8.
    expect(lastDays(480, 7, Date.parse('2026-03-01T20:00:00Z'))).toEqual(['2026-02-24', '2026-02-25', '2026-02-26', '2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(lastDays(-300, 2, Date.parse('2026-03-01T02:00:00Z'))).toEqual(['2026-02-27', '2026-02-28']);
  });

  it('asks for the 7 days, stacks the alarms per day by type and shows the time to acknowledge', async () => {
    renderPanel(['/dashboard']);
    const panel = await screen.findByTestId('dashboard-alarm-stats');
    await waitFor(() => expect(within(panel).getByTestId('alarm-stats-total').textContent).toBe('5'));
    expect(sent.find((s) => s.path === '/Report/Alarms')!.body).toEqual({ From: days[0], To: days[6] });
    expect(within(panel).getByText('Alarm statistics, last 7 days')).toBeTruthy();
    expect(within(panel).getByTestId('alarm-stats-p50').textContent).toBe('4.5 min');
    expect(within(panel).getByTestId('alarm-stats-p90').textContent).toBe('38 min');
    const chart = JSON.parse(within(panel).getByTestId('chart-data').textContent!) as { x: string[]; series: [string, string, number[]][] };
    expect(chart.x).toEqual(days.map((d) => d.slice(5)));
    expect(chart.series).toEqual([
      ['Overspeed', 'alarms', [0, 0, 0, 0, 0, 0, 3]],
      ['SOS', 'alarms', [1, 0, 0, 0, 0, 0, 1]],
    ]);
  });

  it('offers the export only where the reports page is open', async () => {
    renderPanel(['/dashboard']);
    await waitFor(() => expect(screen.getByTestId('alarm-stats-total').textContent).toBe('5'));
    expect(screen.queryByTestId('alarm-stats-export')).toBeNull();
    cleanup();
    renderPanel(['/dashboard', '/report/index']);
    await waitFor(() => expect(screen.getByTestId('alarm-stats-total').textContent).toBe('5'));
    expect(screen.getByTestId('alarm-stats-export')).toBeTruthy();
  });
});
