// @vitest-environment jsdom
// The purchasing page's order dialogs against a mocked server: the lines' totals and the order's
// (which becomes its amount) as quantities change, an audited order shown read-only, and the goods
// receipt dialog with each line's ordered, received and remaining quantities, a fully received line
// closed, only lines with a quantity sent, and the server's over-receipt refusal shown under the
// line it names; the sales record dialog taking its customer from the master data.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import { MemoryRouter } from 'react-router';
import type { UserInfo } from '@wt/contract';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { useSession } from '../src/stores/session';
import { orderTotals } from '../src/pages/erp/PurchaseOrderDialog';
import { receiptLines } from '../src/pages/erp/ReceiptDialog';
import { polyfillDom } from './dom';

const { default: ErpPurchasePage } = await import('../src/pages/erp/ErpPurchasePage');
vi.setConfig({ testTimeout: 90_000 });

const order = <T extends object>(o: T) => ({
  PoNo: 'CG', Content: 'parts', Purpose: 1, Amount: '0', AuditedAt: null, Paid: '0.00', Invoiced: '0.00', Batches: [], Invoices: [], SupplierId: 3, SupplierName: 'Acme', Created: '2026-11-20 08:00:00', ...o,
});
const OPEN = order({
  Id: 1, OrderNo: 'PO-OPEN', Audit: 1, Amount: '312.50',
  Lines: [
    { Id: 11, Kind: 2, ItemId: 7, ItemName: 'W1', Quantity: 10, UnitPrice: '1.25', Received: 0 },
    { Id: 12, Kind: 1, ItemId: 8, ItemName: 'Strap', Quantity: 3, UnitPrice: '100', Received: 0 },
  ],
});
const AUDITED = order({
  Id: 2, OrderNo: 'PO-DONE', Audit: 2, Amount: '700.00',
  Lines: [
    { Id: 21, Kind: 1, ItemId: 8, ItemName: 'Strap', Quantity: 5, UnitPrice: '20', Received: 5 },
    { Id: 22, Kind: 2, ItemId: 7, ItemName: 'W1', Quantity: 100, UnitPrice: '6', Received: 60 },
  ],
});
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
    const answer = (data: object, status = 200) => new Response(JSON.stringify({ State: status, ...data }), { status });
    if (path === '/Erp/PurchaseList') return answer({ Total: 2, Items: [OPEN, AUDITED] });
    if (path === '/Erp/SupplierList') return answer({ Total: 1, Items: [{ Id: 3, Name: 'Acme' }] });
    if (path === '/Erp/ProductList') return answer({ Total: 1, Items: [{ Id: 7, ModelName: 'W1' }] });
    if (path === '/Erp/MaterialList') return answer({ Total: 1, Items: [{ Id: 8, Name: 'Strap' }] });
    if (path === '/Inventory/StoreList') return answer({ Total: 1, Items: [{ Id: 5, Name: 'Shenzhen' }] });
    if (path === '/Erp/PurchaseSave') return answer({ Id: 1 });
    if (path === '/Erp/ReceiptSave') return answer({ Message: 'common.validation', Fields: [{ Field: 'Lines.0.Quantity', Message: 'erp.overReceipt', Params: { line: 2, item: 'W1', remaining: 39 } }] }, 400);
    return answer({ Items: [], Total: 0 });
  }) as typeof fetch);
  useSession.setState({ userId: 1, userInfo: { UserId: 1, LoginName: 'admin', Permissions: ['read', 'inventory.edit'], TimeZoneOffset: 480 } as unknown as UserInfo });
});
afterEach(cleanup);

const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
const ok = () => screen.getAllByRole('button', { name: /OK/ }).at(-1)!;
const renderPage = () =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <App>
          <ErpPurchasePage />
        </App>
      </MemoryRouter>
    </QueryClientProvider>,
  );
const rowOf = async (no: string) => (await within(await screen.findByTestId('erp-purchases')).findByText(no)).closest('tr')!;

describe('order totals', () => {
  it('multiplies each line in cents and adds the lines that have a price and a quantity', () => {
    expect(orderTotals([{ Quantity: 3, UnitPrice: '12.5' }, { Quantity: 2, UnitPrice: 'x' }, { Quantity: 7, UnitPrice: '0.10' }])).toEqual({ lines: [3750, null, 70], total: 3820 });
    expect(orderTotals(undefined)).toEqual({ lines: [], total: 0 });
  });
  it('sends the lines to receive with their rows in the dialog', () => {
    expect(receiptLines(AUDITED, [{ Quantity: 0 }, { Quantity: 25 }])).toEqual([{ LineId: 22, Quantity: 25, Pos: 1 }]);
  });
});

describe('purchase order dialogs', () => {
  it('shows line and order totals that follow the quantities, and sends them as the amount', async () => {
    renderPage();
    fireEvent.click(within(await rowOf('PO-OPEN')).getByTestId('purchase-edit'));
    const dialog = await screen.findByTestId('purchase-form');
    await waitFor(() => expect(within(dialog).getAllByTestId('line-total').map((e) => e.textContent)).toEqual(['12.50', '300.00']));
    expect(within(dialog).getByTestId('order-total').textContent).toBe(t('erp:lines.orderTotal', { total: '312.50' }));
    const quantity = within(within(dialog).getByTestId('order-line-0')).getByTestId('line-quantity');
    fireEvent.change(quantity, { target: { value: '20' } });
    await waitFor(() => expect(within(dialog).getAllByTestId('line-total')[0]!.textContent).toBe('25.00'));
    expect(within(dialog).getByTestId('order-total').textContent).toBe(t('erp:lines.orderTotal', { total: '325.00' }));
    await waitFor(() => expect((within(dialog).getByTestId('purchase-amount') as HTMLInputElement).value).toBe('325.00'));
    fireEvent.click(ok());
    await waitFor(() => expect(sent.filter((s) => s.path === '/Erp/PurchaseSave')).toHaveLength(1));
    expect(sent.find((s) => s.path === '/Erp/PurchaseSave')!.body).toMatchObject({
      Id: 1,
      SupplierId: 3,
      Amount: '325.00',
      Lines: [
        { Kind: 2, ItemId: 7, Quantity: 20, UnitPrice: '1.25' },
        { Kind: 1, ItemId: 8, Quantity: 3, UnitPrice: '100' },
      ],
    });
  });

  it('shows an audited order read-only: no edit, its lines and totals without inputs', async () => {
    renderPage();
    const row = await rowOf('PO-DONE');
    expect(within(row).queryByTestId('purchase-edit')).toBeNull();
    fireEvent.click(within(row).getByTestId('purchase-view'));
    const view = await screen.findByTestId('purchase-order-view');
    expect(within(view).queryAllByRole('textbox')).toEqual([]);
    expect(within(view).queryAllByRole('spinbutton')).toEqual([]);
    expect(within(view).getByText('600.00')).toBeTruthy();
    expect(within(view).getByTestId('order-total').textContent).toBe(t('erp:lines.orderTotal', { total: '700.00' }));
  });

  it('receives against the lines: remaining quantities, a closed line, the refusal under its line', async () => {
    renderPage();
    const row = await rowOf('PO-DONE');
    expect(within(await rowOf('PO-OPEN')).queryByTestId('purchase-receive')).toBeNull();
    fireEvent.click(within(row).getByTestId('purchase-receive'));
    const form = await screen.findByTestId('receipt-form');
    const lines = within(form).getByTestId('receipt-lines');
    expect(within(lines).getAllByTestId('line-remaining').map((e) => e.textContent)).toEqual(['0', '40']);
    const inputs = within(lines).getAllByRole('spinbutton') as HTMLInputElement[];
    expect(inputs.map((i) => [i.value, i.disabled])).toEqual([
      ['0', true],
      ['40', false],
    ]);
    // The warehouse is required: nothing is sent without it.
    fireEvent.click(ok());
    expect(await within(form).findByText(t('messages:inventory.storeRequired'))).toBeTruthy();
    expect(sent.filter((s) => s.path === '/Erp/ReceiptSave')).toEqual([]);
    const select = within(form).getByTestId('receipt-warehouse');
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
    fireEvent.click(await screen.findByText('Shenzhen', { selector: '.ant-select-item-option-content *, .ant-select-item-option-content' }));
    fireEvent.change(inputs[1]!, { target: { value: '39' } });
    fireEvent.click(ok());
    await waitFor(() => expect(sent.filter((s) => s.path === '/Erp/ReceiptSave')).toHaveLength(1));
    expect(sent.find((s) => s.path === '/Erp/ReceiptSave')!.body).toMatchObject({ OrderId: 2, WarehouseId: 5, Lines: [{ LineId: 22, Quantity: 39 }] });
    // The server's "Lines.0" is the dialog's second row.
    const refusal = await within(form).findByText(t('messages:erp.overReceipt', { line: 2, item: 'W1', remaining: 39 }));
    expect(refusal.closest('tr')).toBe(within(lines).getAllByRole('row')[2]);
  });
});

describe('sales record dialog', () => {
  it('picks the customer from the master data and takes its name as the customer company', async () => {
    const { default: ErpSalesPage } = await import('../src/pages/erp/ErpSalesPage');
    setFetch((async (url: RequestInfo | URL) => {
      const path = String(url).replace(/^\/api/, '');
      const answer = (data: object) => new Response(JSON.stringify({ State: 200, ...data }), { status: 200 });
      if (path === '/Erp/CustomerList') return answer({ Total: 1, Items: [{ Id: 4, Name: 'Harbour Shop' }] });
      return answer({ Items: [], Total: 0 });
    }) as typeof fetch);
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <App>
            <ErpSalesPage />
          </App>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    fireEvent.click(await screen.findByRole('button', { name: new RegExp(t('erp:sale.add')) }));
    const form = await screen.findByTestId('erp-sale-form');
    const select = within(form).getByTestId('erp-sale-customer-id');
    fireEvent.mouseDown(select.querySelector('.ant-select-selector') ?? select);
    fireEvent.click(await screen.findByText('Harbour Shop', { selector: '.ant-select-item-option-content *, .ant-select-item-option-content' }));
    await waitFor(() => expect((within(form).getByTestId('erp-sale-customer') as HTMLInputElement).value).toBe('Harbour Shop'));
  });
});
