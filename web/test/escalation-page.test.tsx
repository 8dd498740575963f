// @vitest-environment jsdom
// The escalation policy page against a mocked server: every alarm type with its policy in force
// (own, inherited from an account above, none) and its steps in words; an administrator edits the
// own policy (a step's wait changed, saved with the account chosen), sees the repeat's cap and the
// steps' order refused on their fields before anything is sent and the server's refusal of an
// account on duty under that step's field, and deletes the own policy; a set without
// `alarm.setting` sees no edit or delete.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import { ALARM_CODES, type EffectivePolicy, type UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import { polyfillDom } from './dom';

const { default: EscalationPage } = await import('../src/pages/alarm/EscalationPage');

vi.setConfig({ testTimeout: 30_000 });

const SOS: EffectivePolicy = {
  AlarmType: ALARM_CODES.sos,
  Policy: {
    Id: 4,
    UserId: 2,
    AlarmType: ALARM_CODES.sos,
    Enabled: true,
    Steps: [
      { Wait: 0, Contacts: [], DutyUsers: [], Parent: false, Channels: ['console'] },
      { Wait: 1, Contacts: [1], DutyUsers: [], Parent: false, Channels: ['sms'] },
      { Wait: 3, Contacts: [2], DutyUsers: [], Parent: true, Channels: ['sms', 'console'] },
    ],
    RepeatMinutes: 5,
    RepeatCap: 6,
  },
  Inherited: false,
  FromUserId: 2,
  FromUserName: 'agent01',
};
const FALL: EffectivePolicy = {
  AlarmType: ALARM_CODES.fall,
  Policy: { ...SOS.Policy!, Id: 5, UserId: 1, AlarmType: ALARM_CODES.fall, RepeatMinutes: 0, RepeatCap: 0, Steps: [SOS.Policy!.Steps[0]!] },
  Inherited: true,
  FromUserId: 1,
  FromUserName: 'admin',
};
const REMOVAL: EffectivePolicy = { AlarmType: ALARM_CODES.removal, Policy: null, Inherited: false, FromUserId: null, FromUserName: null };

let sent: { path: string; body: Record<string, unknown> }[] = [];
let refuse: Record<string, object> = {};

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  refuse = {};
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ path, body });
    const answer = (data: object) => new Response(JSON.stringify({ State: 200, ...data }), { status: 200 });
    if (refuse[path]) return new Response(JSON.stringify(refuse[path]), { status: 400 });
    switch (path) {
      case '/Escalation/List':
        return answer({ UserId: body.UserId ?? 1, Items: [SOS, FALL, REMOVAL] });
      case '/Escalation/Save':
      case '/Escalation/Delete':
        return answer({ Own: null, Effective: REMOVAL });
      case '/user/allChildrenUsers':
        return answer({
          Node: { UserId: 1, ParentId: null, LoginName: 'admin', Username: 'admin', companyName: '', Contact: '', AccountKind: 'company', HasChildren: true },
          Items: [{ UserId: 2, ParentId: 1, LoginName: 'agent01', Username: 'agent01', companyName: '', Contact: '', AccountKind: 'company', HasChildren: false }],
          Total: 1,
        });
      default:
        return answer({ Items: [], Total: 0 });
    }
  }) as typeof fetch);
});
afterEach(cleanup);

function renderPage(permissions: string[]) {
  useSession.setState({ userId: 1, userInfo: { UserId: 1, LoginName: 'admin', Permissions: permissions } as unknown as UserInfo });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <App>
          <EscalationPage />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
const calls = (path: string) => sent.filter((s) => s.path === path);
const ok = () => screen.getAllByRole('button', { name: /OK/ }).at(-1)!;
const rowOf = (text: string) => screen.getByText(text).closest('tr')!;

describe('escalation page', () => {
  it('lists every alarm type with its policy in force, its source and its steps in words', async () => {
    renderPage(['read', 'alarm.setting']);
    const table = await screen.findByTestId('escalation-table');
    await within(table).findByText('SOS');
    const sos = rowOf('SOS');
    expect(within(sos).getByText('Own')).toBeTruthy();
    expect(within(sos).getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'At once · Console',
      'After 1 min · Contact 1 · SMS',
      'After 3 min · Contact 2, Parent account · SMS, Console',
    ]);
    expect(within(sos).getByText('Every 5 min, at most 6 times')).toBeTruthy();
    expect(within(rowOf('Fall')).getByText(/Inherited from/).textContent).toBe('Inherited from admin');
    expect(within(rowOf('Watch removed')).getByText('None')).toBeTruthy();
    // Only the own policy can be deleted.
    expect(screen.getByTestId(`escalation-delete-${ALARM_CODES.sos}`)).toBeTruthy();
    expect(screen.queryByTestId(`escalation-delete-${ALARM_CODES.fall}`)).toBeNull();
    expect(calls('/Escalation/List')[0]!.body).toEqual({ UserId: 1 });
  });

  it('edits a step of the own policy and saves it', async () => {
    renderPage(['read', 'alarm.setting']);
    fireEvent.click(await screen.findByTestId(`escalation-edit-${ALARM_CODES.sos}`));
    await screen.findByTestId('escalation-form');
    expect(screen.getAllByTestId('escalation-step')).toHaveLength(3);
    const wait = within(screen.getByTestId('step-wait-1')).queryByRole('spinbutton') ?? screen.getByTestId('step-wait-1');
    fireEvent.change(wait, { target: { value: '2' } });
    fireEvent.click(ok());
    await waitFor(() => expect(calls('/Escalation/Save')).toHaveLength(1));
    const body = calls('/Escalation/Save')[0]!.body;
    expect(body).toMatchObject({ UserId: 1, AlarmType: ALARM_CODES.sos, Enabled: true, RepeatMinutes: 5, RepeatCap: 6 });
    expect((body.Steps as { Wait: number }[]).map((s) => s.Wait)).toEqual([0, 2, 3]);
    await waitFor(() => expect(calls('/Escalation/List').length).toBeGreaterThan(1));
  });

  it('refuses steps out of order and a repeat without a cap on their fields, and puts the server refusal under its field', async () => {
    renderPage(['read', 'alarm.setting']);
    fireEvent.click(await screen.findByTestId(`escalation-edit-${ALARM_CODES.sos}`));
    await screen.findByTestId('escalation-form');
    const spin = (id: string) => within(screen.getByTestId(id)).queryByRole('spinbutton') ?? screen.getByTestId(id);
    fireEvent.change(spin('step-wait-2'), { target: { value: '0' } });
    fireEvent.change(spin('repeat-cap'), { target: { value: '0' } });
    fireEvent.click(ok());
    expect(await screen.findByText(t('messages:escalation.stepsOrder'))).toBeTruthy();
    expect(screen.getByText(t('messages:escalation.repeatCapRequired', { max: 100 }))).toBeTruthy();
    expect(calls('/Escalation/Save')).toEqual([]);

    fireEvent.change(spin('step-wait-2'), { target: { value: '3' } });
    fireEvent.change(spin('repeat-cap'), { target: { value: '6' } });
    refuse['/Escalation/Save'] = {
      State: 400,
      Message: 'common.validation',
      Fields: [{ Field: 'Steps.1.DutyUsers.0', Message: 'escalation.dutyUserOutOfScope', Params: { id: 99 } }],
    };
    fireEvent.click(ok());
    const msg = await screen.findByText(t('messages:escalation.dutyUserOutOfScope', { id: 99 }));
    // Under the second step's field of accounts on duty.
    expect(msg.closest('[data-testid="escalation-step"]')).toBe(screen.getAllByTestId('escalation-step')[1]);
  });

  it('deletes the own policy after a confirmation', async () => {
    renderPage(['read', 'alarm.setting']);
    fireEvent.click(await screen.findByTestId(`escalation-delete-${ALARM_CODES.sos}`));
    fireEvent.click(await screen.findByRole('button', { name: /OK|Yes|Confirm/ }));
    await waitFor(() => expect(calls('/Escalation/Delete')).toHaveLength(1));
    expect(calls('/Escalation/Delete')[0]!.body).toEqual({ UserId: 1, AlarmType: ALARM_CODES.sos });
  });

  it('shows a view-only set the policies without edit or delete', async () => {
    renderPage(['read']);
    await within(await screen.findByTestId('escalation-table')).findByText('SOS');
    expect(screen.queryByTestId(`escalation-edit-${ALARM_CODES.sos}`)).toBeNull();
    expect(screen.queryByTestId(`escalation-delete-${ALARM_CODES.sos}`)).toBeNull();
  });
});
