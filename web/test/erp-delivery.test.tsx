// @vitest-environment jsdom
// The delivery dialog of a sales record against a mocked server: nothing is sent without a
// warehouse and a quantity or IMEIs (the field messages show); scanned IMEIs are sent as a list
// (one per line, the quantity their count); a refusal naming the quantity and what remains shows
// under the quantity, in the reader's language.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App } from 'antd';
import i18n from '../src/i18n';
import { setFetch } from '../src/api/client';
import { polyfillDom } from './dom';
import { DeliveryDialog } from '../src/pages/erp/DeliveryDialog';

vi.setConfig({ testTimeout: 90_000 });

let sent: { path: string; body: Record<string, unknown> }[] = [];
let refuse = false;

beforeAll(async () => {
  polyfillDom();
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  refuse = false;
  setFetch((async (url: RequestInfo | URL, init?: RequestInit) => {
    const path = String(url).replace(/^\/api/, '');
    const body = JSON.parse(String(init?.body ?? '{}')) as Record<string, unknown>;
    sent.push({ path, body });
    const answer = (data: object, status = 200) => new Response(JSON.stringify({ State: status, ...data }), { status });
    if (path === '/Inventory/StoreList') return answer({ Total: 2, Items: [{ Id: 3, Name: 'Shanghai' }, { Id: 4, Name: 'Shenzhen' }] });
    if (path === '/Erp/DeliverySave')
      return refuse
        ? answer({ Message: 'validation.failed', Fields: [{ Field: 'Quantity', Message: 'erp.deliveryAboveOrder', Params: { remaining: 2 } }] }, 400)
        : answer({ Id: 9, Quantity: 2, Imeis: ['861000000000001', '861000000000002'] });
    return answer({ Items: [], Total: 0 });
  }) as typeof fetch);
});
afterEach(cleanup);

const t = (key: string, params?: Record<string, unknown>) => i18n.t(key, params);
const deliveries = () => sent.filter((s) => s.path === '/Erp/DeliverySave');

async function open() {
  const closed = { n: 0 };
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <DeliveryDialog sale={{ Id: 7, SalesNo: 'SO-7' }} onClose={() => (closed.n += 1)} />
      </App>
    </QueryClientProvider>,
  );
  const dialog = await screen.findByRole('dialog');
  expect(within(dialog).getByText(t('erp:delivery.title', { no: 'SO-7' }))).toBeTruthy();
  return { dialog, closed };
}
async function pickWarehouse(dialog: HTMLElement, name: string) {
  fireEvent.mouseDown(within(dialog).getByRole('combobox', { name: t('erp:sale.warehouse') }));
  fireEvent.click(await screen.findByText(name, { selector: '.ant-select-item-option-content' }));
}
const ok = () => screen.getAllByRole('button', { name: /OK/ }).at(-1)!;

describe('ERP delivery dialog', () => {
  it('sends nothing without a warehouse and a quantity or IMEIs, then the scanned IMEIs as a list', async () => {
    const { dialog, closed } = await open();
    fireEvent.click(ok());
    expect(await screen.findByText(t('messages:inventory.storeRequired'))).toBeTruthy();
    await pickWarehouse(dialog, 'Shenzhen');
    fireEvent.click(ok());
    expect(await screen.findByText(t('messages:erp.quantityRequired'))).toBeTruthy();
    expect(deliveries()).toEqual([]);

    fireEvent.change(within(dialog).getByTestId('delivery-imeis'), { target: { value: '861000000000001\n861000000000002\n' } });
    fireEvent.click(ok());
    await waitFor(() => expect(deliveries()).toHaveLength(1));
    const body = deliveries()[0]!.body;
    expect(body).toMatchObject({ SaleId: 7, WarehouseId: 4, Imeis: ['861000000000001', '861000000000002'] });
    expect(body.Quantity).toBeUndefined();
    expect(body.DeliveredOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(await screen.findByText(t('erp:delivery.done', { count: 2 }))).toBeTruthy();
    await waitFor(() => expect(closed.n).toBe(1));
  });

  it('sends a quantity and shows the refusal naming what remains under the quantity', async () => {
    refuse = true;
    const { dialog, closed } = await open();
    await pickWarehouse(dialog, 'Shanghai');
    fireEvent.change(within(dialog).getByTestId('delivery-quantity'), { target: { value: '5' } });
    fireEvent.click(ok());
    await waitFor(() => expect(deliveries()).toHaveLength(1));
    expect(deliveries()[0]!.body).toMatchObject({ SaleId: 7, WarehouseId: 3, Quantity: 5, Imeis: [] });
    expect(await screen.findByText(t('messages:erp.deliveryAboveOrder', { remaining: 2 }))).toBeTruthy();
    expect(t('messages:erp.deliveryAboveOrder', { remaining: 2 })).toContain('2');
    expect(closed.n).toBe(0);
  });
});
