// @vitest-environment jsdom
// Scheduled reports on the reports page, with the calls answered here: the list shows each
// subscription's texts, the add dialog sends the request the contract asks for, a trips report
// without a device or group shows the server's refusal under the subject field, delete calls delete,
// and a user without the export action sees no button.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import type { ReportSubscription, UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import ReportsPage from '../src/pages/report/ReportsPage';
import { polyfillDom } from './dom';

vi.mock('echarts-for-react/esm/core', () => ({ default: () => <div /> }));

vi.setConfig({ testTimeout: 30_000 });
configure({ asyncUtilTimeout: 10_000 });

let sent: { path: string; body: Record<string, unknown> }[] = [];
let items: ReportSubscription[] = [];
/** The refusal of the next save, if any. */
let refuse: unknown = null;

const van: ReportSubscription = {
  Id: 5,
  Report: 'trips',
  Frequency: 'weekly',
  Email: 'fleet@example.com',
  UserId: null,
  GroupId: null,
  DeviceId: 7,
  Subject: 'Van 1',
  Enabled: true,
  NextAt: '2026-03-09 06:00:00',
  LastSentAt: '2026-03-02 06:00:05',
  LastPeriod: '2026-02-23 – 2026-03-01',
  LastError: '',
};
const all: ReportSubscription = {
  ...van,
  Id: 6,
  Report: 'alarms',
  Frequency: 'monthly',
  DeviceId: null,
  UserId: 1,
  Subject: 'admin',
  Enabled: false,
  NextAt: '',
  LastSentAt: '',
  LastPeriod: '',
  LastError: 'The mail server refused the address',
};

function answer(path: string, body: Record<string, unknown>): { status: number; json: unknown } {
  switch (path) {
    case '/Report/Subscriptions':
      return { status: 200, json: { State: 200, Items: items } };
    case '/Report/SubscriptionSave':
      if (refuse) return { status: 200, json: refuse };
      return { status: 200, json: { State: 200, Item: { ...van, ...body, Id: body.Id ?? 9 } } };
    case '/Report/SubscriptionDelete':
      items = items.filter((i) => i.Id !== body.Id);
      return { status: 200, json: { State: 200 } };
    case '/group/GroupList':
      return { status: 200, json: { State: 200, Total: 1, Items: [{ GroupId: 3, Name: 'Vans' }] } };
    case '/Report/Settings':
      return { status: 200, json: { State: 500, Message: 'none' } };
    default:
      return { status: 200, json: { State: 200, Total: 0, Items: [] } };
  }
}

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  items = [van, all];
  refuse = null;
  useSession.setState({
    userInfo: { UserId: 1, LoginName: 'admin', Email: 'admin@example.com', timeZoneOffset: 480, Permissions: ['history.export'] } as unknown as UserInfo,
  });
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ path, body });
    const a = answer(path, body);
    return new Response(JSON.stringify(a.json), { status: a.status });
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

async function openList() {
  renderPage();
  fireEvent.click(await screen.findByTestId('report-subscriptions'));
  const list = await screen.findByTestId('report-subscription-list');
  await within(list).findByText('Van 1');
  return list;
}

const lists = () => sent.filter((s) => s.path === '/Report/Subscriptions').length;
const saves = () => sent.filter((s) => s.path === '/Report/SubscriptionSave');

describe('scheduled reports', () => {
  it('lists the subscriptions with their kind, subject, frequency, times, period and error', async () => {
    const list = await openList();
    const rows = list.querySelectorAll('tbody tr.ant-table-row');
    expect(rows).toHaveLength(2);
    const first = within(rows[0] as HTMLElement);
    expect(first.getByText('Trips')).toBeTruthy();
    expect(first.getByText('Weekly')).toBeTruthy();
    expect(first.getByText('fleet@example.com')).toBeTruthy();
    expect(first.getByText('2026-03-09 06:00:00')).toBeTruthy();
    expect(first.getByText('2026-03-02 06:00:05')).toBeTruthy();
    expect(first.getByText('Period 2026-02-23 – 2026-03-01')).toBeTruthy();
    expect((first.getByTestId('subscription-enabled-5') as HTMLElement).getAttribute('aria-checked')).toBe('true');
    const second = within(rows[1] as HTMLElement);
    expect(second.getByText('Monthly')).toBeTruthy();
    expect(second.getByText('admin')).toBeTruthy();
    // Switched off: neither a next mailing nor a last one.
    expect(second.getAllByText('–')).toHaveLength(2);
    const error = second.getByText('The mail server refused the address');
    expect(error.closest('.ant-typography-danger')).not.toBeNull();
    expect((second.getByTestId('subscription-enabled-6') as HTMLElement).getAttribute('aria-checked')).toBe('false');
  });

  it('adds a trips report of a group with the user e-mail as default', async () => {
    await openList();
    fireEvent.click(screen.getByTestId('report-subscription-add'));
    const form = await screen.findByTestId('report-subscription-form');
    expect((within(form).getByTestId('subscription-email') as HTMLInputElement).value).toBe('admin@example.com');
    // Report: trips; frequency: weekly; group: Vans.
    fireEvent.mouseDown(within(form).getByTestId('subscription-report').querySelector('input')!);
    fireEvent.click(await screen.findByTitle('Trips'));
    fireEvent.mouseDown(within(form).getByTestId('subscription-frequency').querySelector('input')!);
    fireEvent.click(await screen.findByTitle('Weekly'));
    fireEvent.mouseDown(within(form).getByTestId('subscription-group').querySelector('input')!);
    fireEvent.click(await screen.findByTitle('Vans'));
    fireEvent.click(screen.getByRole('button', { name: /OK/ }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]!.body).toEqual({ Report: 'trips', Frequency: 'weekly', Email: 'admin@example.com', GroupId: 3, Enabled: true });
    // Saved: the list is asked again.
    await waitFor(() => expect(lists()).toBe(2));
  });

  it('shows the server refusal of a trips report without a subject under the subject field', async () => {
    refuse = { State: 400, Message: 'report.subjectRequired', Fields: [{ Field: 'DeviceId', Message: 'report.subjectRequired' }] };
    await openList();
    fireEvent.click(screen.getByTestId('report-subscription-add'));
    const form = await screen.findByTestId('report-subscription-form');
    fireEvent.mouseDown(within(form).getByTestId('subscription-report').querySelector('input')!);
    fireEvent.click(await screen.findByTitle('Trips'));
    fireEvent.click(screen.getByRole('button', { name: /OK/ }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]!.body).toEqual({ Report: 'trips', Frequency: 'daily', Email: 'admin@example.com', Enabled: true });
    const imeiItem = within(form).getByTestId('subscription-imei').closest('.ant-form-item') as HTMLElement;
    const text = i18n.t('messages:report.subjectRequired');
    expect(text).not.toBe('report.subjectRequired');
    await waitFor(() => expect(imeiItem.querySelector('.ant-form-item-explain-error')?.textContent).toBe(text));
    // The dialog stays open.
    expect(screen.getByTestId('report-subscription-form')).toBeTruthy();
  });

  it('edits with the ids the row holds, and switches one off', async () => {
    await openList();
    fireEvent.click(screen.getByTestId('subscription-edit-5'));
    const form = await screen.findByTestId('report-subscription-form');
    expect((within(form).getByTestId('subscription-imei') as HTMLInputElement).placeholder).toBe('Van 1');
    fireEvent.change(within(form).getByTestId('subscription-email'), { target: { value: 'ops@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: /OK/ }));
    await waitFor(() => expect(saves()).toHaveLength(1));
    expect(saves()[0]!.body).toEqual({ Id: 5, Report: 'trips', Frequency: 'weekly', Email: 'ops@example.com', DeviceId: 7, Enabled: true });
    // Saved: the list is asked again.
    await waitFor(() => expect(lists()).toBe(2));
    fireEvent.click(screen.getByTestId('subscription-enabled-5'));
    await waitFor(() => expect(saves()).toHaveLength(2));
    expect(saves()[1]!.body).toEqual({ Id: 5, Report: 'trips', Frequency: 'weekly', Email: 'fleet@example.com', DeviceId: 7, Enabled: false });
  });

  it('deletes after the confirmation', async () => {
    const list = await openList();
    fireEvent.click(within(list).getByTestId('subscription-delete-5'));
    expect(await screen.findByText('Stop mailing the report of Van 1?')).toBeTruthy();
    expect(sent.some((s) => s.path === '/Report/SubscriptionDelete')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(sent.filter((s) => s.path === '/Report/SubscriptionDelete').map((s) => s.body)).toEqual([{ Id: 5 }]));
    await waitFor(() => expect(within(list).queryByText('Van 1')).toBeNull());
    expect(within(list).getByText('admin')).toBeTruthy();
  });

  it('is not offered to a user who may not export', async () => {
    useSession.setState({ userInfo: { UserId: 2, LoginName: 'viewer', Email: '', timeZoneOffset: 480, Permissions: ['history.view'] } as unknown as UserInfo });
    renderPage();
    await screen.findByTestId('report-run');
    expect(screen.queryByTestId('report-subscriptions')).toBeNull();
    expect(sent.some((s) => s.path === '/Report/Subscriptions')).toBe(false);
  });
});
