// @vitest-environment jsdom
// The attendance tab with its calls answered here: both views render the server's rows, a column's
// sort reaches the call as Sort/Order, the export is there only with attendance.export and shows the
// server's "nothing to export" in the reader's language, and a day opens its timeline.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import type { UserInfo, accountFence } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import { AttendancePanel } from '../src/pages/account/attendance/AttendancePanel';
import { polyfillDom } from './dom';

vi.setConfig({ testTimeout: 30_000 });
// A table or drawer in jsdom can take more than the default second to appear on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

type Row = accountFence.AttendanceRow;

const base: Row = {
  DeviceId: 11,
  Imei: '865000000000011',
  DeviceName: 'Wang Lei',
  LoginName: 'school1',
  FenceId: 3,
  FenceName: 'Campus',
  Day: null,
  Days: 3,
  FirstIn: null,
  LastOut: null,
  InsideMinutes: 1_275,
  Entries: 4,
  Exits: 3,
  LateMinutes: 25,
  EarlyMinutes: 0,
  LateDays: 1,
  EarlyDays: 0,
  AbsentDays: 1,
};
const totalRows: Row[] = [base, { ...base, DeviceId: 12, Imei: '865000000000012', DeviceName: 'Li Na', LateMinutes: 0, LateDays: 0, AbsentDays: 0, InsideMinutes: 45 }];
const dailyRows: Row[] = [
  { ...base, Day: '2026-11-24', Days: 1, FirstIn: '2026-11-24T00:25:00Z', LastOut: '2026-11-24T09:40:00Z', InsideMinutes: 425, AbsentDays: 0 },
  { ...base, Day: '2026-11-23', Days: 1, FirstIn: null, LastOut: null, InsideMinutes: 0, Entries: 0, Exits: 0, LateMinutes: 0, LateDays: 0, AbsentDays: 1 },
  // An owner in UTC-5: its clock, not the reader's.
  { ...base, DeviceId: 13, Imei: '865000000000013', Day: '2026-11-22', Days: 1, FirstIn: '2026-11-22T14:05:00Z', LastOut: '2026-11-23T01:20:00Z', TimeZoneOffset: -300, AbsentDays: 0 },
];

let sent: { path: string; body: Record<string, unknown> }[] = [];

function answer(path: string, body: Record<string, unknown>): unknown {
  switch (path) {
    case '/AccountFence/Attendance':
      return { State: 200, Total: 2, Items: body.View === 'daily' ? dailyRows : totalRows };
    case '/AccountFence/AttendanceDay':
      return {
        State: 200,
        Row: dailyRows[0],
        TimeZoneOffset: 480,
        Intervals: [
          { Start: '2026-11-23T16:00:00Z', End: '2026-11-24T00:25:00Z', State: 'unknown' },
          { Start: '2026-11-24T00:25:00Z', End: '2026-11-24T09:40:00Z', State: 'inside' },
          { Start: '2026-11-24T09:40:00Z', End: '2026-11-24T16:00:00Z', State: 'outside' },
        ],
        Windows: [
          { Start: '2026-11-24T00:00:00Z', End: '2026-11-24T09:30:00Z' },
          { Start: '2026-11-24T14:00:00Z', End: '2026-11-24T22:00:00Z' },
        ],
      };
    case '/user/allChildrenUsers':
      return { State: 200, Total: 0, Items: [], Node: { UserId: 1, ParentId: null, LoginName: 'admin', Username: 'admin', companyName: '', HasChildren: false } };
    case '/AccountFence/List':
      return { State: 200, Total: 1, Items: [{ FenceId: 3, Name: 'Campus' }] };
    default:
      return { State: 200, Total: 0, Items: [] };
  }
}

function loginWith(permissions: string[]) {
  useSession.setState({ userInfo: { UserId: 1, LoginName: 'admin', timeZoneOffset: 480, Permissions: permissions } as unknown as UserInfo });
}

function renderPanel() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <App>
        <AttendancePanel />
      </App>
    </QueryClientProvider>,
  );
}

const attendanceCalls = () => sent.filter((s) => s.path === '/AccountFence/Attendance');
const table = () => screen.getByTestId('attendance-table');

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ path, body });
    return new Response(JSON.stringify(answer(path, body)), { status: 200 });
  }) as typeof fetch);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('attendance tab', () => {
  it('shows the totals per device, then a row per day, from the server’s answers', async () => {
    loginWith(['*']);
    renderPanel();
    await within(table()).findByText('Li Na');
    const first = attendanceCalls()[0]!.body;
    expect(first).toMatchObject({ View: 'total', PageNo: 1, PageCount: 20 });
    expect(first.From).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(first.Sort).toBeUndefined();
    // Minutes as hours and minutes; late and absent days stand out.
    expect(within(table()).getByText('21 h 15 min')).toBeTruthy();
    expect(within(table()).getByText('45 min')).toBeTruthy();
    expect(within(table()).getAllByTestId('late-tag').map((e) => e.textContent)).toEqual(['1 d · 25 min']);
    expect(within(table()).getAllByText('4 / 3')).toHaveLength(2);
    expect(within(table()).getAllByTestId('absent-tag')).toHaveLength(1);

    fireEvent.click(screen.getByText('Per day'));
    await within(table()).findByText('2026-11-23');
    expect(attendanceCalls().at(-1)!.body).toMatchObject({ View: 'daily', PageNo: 1, From: first.From, To: first.To });
    // First in and last out on the owner's clock (UTC+8 here).
    expect(within(table()).getByText('08:25')).toBeTruthy();
    expect(within(table()).getByText('17:40')).toBeTruthy();
    expect(within(table()).getByText('09:05')).toBeTruthy();
    expect(within(table()).getByText('20:20')).toBeTruthy();
    expect(within(table()).getByText('7 h 05 min')).toBeTruthy();
    expect(within(table()).getAllByText('Late 25 min')).toHaveLength(2);
    expect(within(table()).getAllByTestId('absent-tag')).toHaveLength(1);
  });

  it('sends the sorted column as Sort and Order', async () => {
    loginWith(['*']);
    renderPanel();
    await within(table()).findByText('Li Na');
    const header = (title: string) => within(table().querySelector('thead')!).getByText(title);
    fireEvent.click(header('Time inside'));
    await waitFor(() => expect(attendanceCalls().at(-1)!.body).toMatchObject({ Sort: 'InsideMinutes', Order: 'asc' }));
    fireEvent.click(header('Time inside'));
    await waitFor(() => expect(attendanceCalls().at(-1)!.body).toMatchObject({ Sort: 'InsideMinutes', Order: 'desc' }));
    fireEvent.click(header('Absent days'));
    await waitFor(() => expect(attendanceCalls().at(-1)!.body).toMatchObject({ Sort: 'AbsentDays', Order: 'asc' }));
  });

  it('offers the export only with attendance.export, and shows “nothing to export” in the reader’s language', async () => {
    loginWith(['read', 'accountFence.edit']);
    const { unmount } = renderPanel();
    await within(table()).findByText('Li Na');
    expect(screen.queryByTestId('attendance-export')).toBeNull();
    unmount();

    loginWith(['attendance.export']);
    const exported: unknown[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      exported.push([url, JSON.parse(String(init.body))]);
      return new Response(JSON.stringify({ State: 409, Message: 'accountFence.noAttendance' }), { status: 409 });
    });
    renderPanel();
    await within(table()).findByText('Li Na');
    fireEvent.click(screen.getByTestId('attendance-export'));
    await screen.findByText('No attendance data to export');
    const [url, body] = exported[0] as [string, Record<string, unknown>];
    expect(url).toBe('/api/AccountFence/AttendanceExport');
    expect(body).toMatchObject({ View: 'total', From: attendanceCalls()[0]!.body.From });
    expect(body.PageNo).toBeUndefined();
  });

  it('opens a day’s timeline from a daily row, with its windows and summary', async () => {
    loginWith(['*']);
    renderPanel();
    await within(table()).findByText('Li Na');
    fireEvent.click(screen.getByText('Per day'));
    fireEvent.click(await within(table()).findByText('2026-11-24'));
    const dayView = await screen.findByTestId('attendance-day');
    expect(sent.find((s) => s.path === '/AccountFence/AttendanceDay')?.body).toEqual({ DeviceId: 11, FenceId: 3, Day: '2026-11-24' });
    const timeline = within(dayView).getByTestId('attendance-timeline');
    expect(timeline.querySelectorAll('rect[data-kind="inside"]')).toHaveLength(1);
    expect(timeline.querySelectorAll('rect[data-kind="unknown"]')).toHaveLength(1);
    expect(timeline.querySelectorAll('g[data-kind="window"]')).toHaveLength(2);
    // The 22:00 window runs into the next morning.
    const windows = within(dayView).getByTestId('attendance-windows');
    expect([...windows.querySelectorAll('.ant-tag')].map((e) => e.textContent)).toEqual(['08:00–17:30', '22:00–06:00 (continues the next day)']);
    const summary = within(dayView).getByTestId('attendance-summary');
    expect(within(summary).getByText('08:25')).toBeTruthy();
    expect(within(summary).getByText('7 h 05 min')).toBeTruthy();
    expect(within(summary).getByText('4 / 3')).toBeTruthy();
  });

  it('opens a device’s days from a total row, and a day from there', async () => {
    loginWith(['*']);
    renderPanel();
    fireEvent.click(await within(table()).findByText('Wang Lei'));
    const days = await screen.findByTestId('attendance-days');
    // The names are marked as user data, the words around them are the console's.
    const title = screen.getByTestId('attendance-drawer-title');
    expect(title.textContent).toBe('Days of Wang Lei at Campus');
    expect([...title.querySelectorAll('[data-user-data]')].map((e) => e.textContent)).toEqual(['Wang Lei', 'Campus']);
    await within(days).findByText('2026-11-24');
    expect(attendanceCalls().at(-1)!.body).toMatchObject({ View: 'daily', Imei: '865000000000011', FenceId: 3 });
    fireEvent.click(within(days).getByText('2026-11-24'));
    await screen.findByTestId('attendance-day');
    fireEvent.click(screen.getByText('Back to the days'));
    await screen.findByTestId('attendance-days');
  });
});
