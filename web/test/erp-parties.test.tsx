// @vitest-environment jsdom
// The ERP's customers page against a mocked server: the list with contact, payment terms and the
// linked platform account; the dialog refusing a customer without a name and a tax number with
// other than letters and digits before sending, then sending the customer with its fields.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import type { UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import { polyfillDom } from './dom';

const { default: ErpCustomersPage } = await import('../src/pages/erp/ErpCustomersPage');
vi.setConfig({ testTimeout: 90_000 });

const CUSTOMER = { Id: 4, Name: 'Harbour Shop', Contact: 'Ms Li', Phone: '021-555', Address: '8 Quay', TaxNo: '91310000X', PaymentDays: 30, Remark: '', Created: '2026-11-20 08:00:00', PlatformAccountId: 9, PlatformAccountName: 'agent01' };
let sent: { path: string; body: Record<string, unknown> }[] = [];

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
    const answer = (data: object) => new Response(JSON.stringify({ State: 200, ...data }), { status: 200 });
    if (path === '/Erp/CustomerList') return answer({ Total: 1, Items: [CUSTOMER] });
    if (path === '/Erp/CustomerSave') return answer({ Id: 5 });
    return answer({ Items: [], Total: 0 });
  }) as typeof fetch);
  useSession.setState({ userId: 1, userInfo: { UserId: 1, LoginName: 'admin', Permissions: ['read', 'inventory.edit'] } as unknown as UserInfo });
});
afterEach(cleanup);

const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
const ok = () => screen.getAllByRole('button', { name: /OK/ }).at(-1)!;

describe('ERP customers', () => {
  it('lists customers and sends a new one only once its fields are right', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <App>
            <ErpCustomersPage />
          </App>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const table = await screen.findByTestId('erp-customers');
    await within(table).findByText('Harbour Shop');
    expect(within(table).getByText('agent01')).toBeTruthy();
    expect(within(table).getByText(t('erp:party.days', { count: 30 }))).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: new RegExp(t('erp:customer.add')) }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(t('erp:party.taxNo')), { target: { value: 'ab-12' } });
    fireEvent.click(ok());
    expect(await screen.findByText(t('messages:erp.taxNoInvalid'))).toBeTruthy();
    expect(screen.getByText(t('messages:erp.nameRequired'))).toBeTruthy();
    expect(sent.filter((s) => s.path === '/Erp/CustomerSave')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText(t('erp:name')), { target: { value: 'Hill Store' } });
    fireEvent.change(within(dialog).getByLabelText(t('erp:party.taxNo')), { target: { value: 'AB12' } });
    fireEvent.change(within(dialog).getByLabelText(t('erp:party.phone')), { target: { value: '0755-1' } });
    fireEvent.click(ok());
    await waitFor(() => expect(sent.filter((s) => s.path === '/Erp/CustomerSave')).toHaveLength(1));
    expect(sent.find((s) => s.path === '/Erp/CustomerSave')!.body).toMatchObject({ Name: 'Hill Store', TaxNo: 'AB12', Phone: '0755-1', PaymentDays: 0 });
  });
});
