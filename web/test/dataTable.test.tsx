// @vitest-environment jsdom
// The console's one table widget in a DOM: paging past page 1 with column filters on the page, and
// what it shows before the first answer.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ColumnsType } from 'antd/es/table';
import i18n from '../src/i18n';
import { polyfillDom } from './dom';
import { DataTable, normalizeFilters, scrollWidth, type Paged, type TableQuery } from '../src/components/DataTable';

interface Row {
  Id: number;
  Name: string;
  Online: boolean;
}

const ROWS: Row[] = Array.from({ length: 45 }, (_, i) => ({ Id: i + 1, Name: `Device ${i + 1}`, Online: i % 2 === 0 }));

const columns: ColumnsType<Row> = [
  { key: 'Name', title: 'Name', dataIndex: 'Name', sorter: true },
  {
    key: 'Online',
    title: 'Online',
    dataIndex: 'Online',
    filterMultiple: false,
    filters: [
      { text: 'online', value: 'online' },
      { text: 'offline', value: 'offline' },
    ],
    render: (v: boolean) => (v ? 'online' : 'offline'),
  },
  { key: 'Model', title: 'Model', filters: [{ text: 'K9', value: 'K9' }], render: () => 'K9' },
];

function renderTable(fetch: (q: TableQuery) => Promise<Paged<Row>>) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <DataTable<Row> queryKey={['test-rows']} params={{}} fetch={fetch} columns={columns} rowKey="Id" testId="rows" />
    </QueryClientProvider>,
  );
}

const page = (q: TableQuery): Paged<Row> => ({ Total: ROWS.length, Items: ROWS.slice((q.page - 1) * q.pageSize, q.page * q.pageSize) });

beforeAll(async () => {
  await i18n.changeLanguage('en');
  polyfillDom();
});
afterEach(cleanup);

describe('data table', () => {
  it('scrolls at least as wide as its columns, so none is squeezed under the fixed actions column', async () => {
    const wide: ColumnsType<Row> = [
      { key: 'Name', title: 'Name', dataIndex: 'Name', width: 300 },
      { key: 'Model', title: 'Model', render: () => 'K9', width: 300 },
      { key: 'Actions', title: 'Actions', render: () => 'x', width: 100, fixed: 'right' },
    ];
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const { container } = render(
      <QueryClientProvider client={client}>
        <DataTable<Row> queryKey={['wide-rows']} params={{}} fetch={async (q) => page(q)} columns={wide} rowKey="Id" testId="wide" scrollX={400} />
      </QueryClientProvider>,
    );
    await screen.findByText('Device 1');
    expect((container.querySelector('table') as HTMLTableElement).style.width).toBe('700px');
    expect(scrollWidth(400, wide, true)).toBe(748);
    expect(scrollWidth(2000, wide, false)).toBe(2000);
    expect(scrollWidth('max-content', wide, false)).toBe('max-content');
  });

  it('counts only the column filters that are set', () => {
    expect(normalizeFilters({ Online: null, Model: [] })).toEqual({});
    expect(normalizeFilters({ Online: ['online'], Bound: null })).toEqual({ Online: ['online'] });
    expect(JSON.stringify(normalizeFilters({ b: ['1'], a: ['2'] }))).toBe(JSON.stringify(normalizeFilters({ a: ['2'], b: ['1'] })));
  });

  it('goes to page 2 on the first click, with filterable columns and no filter set', async () => {
    const asked: number[] = [];
    const { container } = renderTable(async (q) => {
      asked.push(q.page);
      return page(q);
    });
    await screen.findByText('Device 1');
    fireEvent.click(container.querySelector('.ant-pagination-item-2')!);
    await screen.findByText('Device 21');
    expect(container.querySelector('.ant-pagination-item-active')?.textContent).toBe('2');
    expect(asked).toEqual([1, 2]);
  });

  it('goes back to page 1 when a column filter is chosen', async () => {
    const asked: TableQuery[] = [];
    const { container } = renderTable(async (q) => {
      asked.push(q);
      return page(q);
    });
    await screen.findByText('Device 1');
    fireEvent.click(container.querySelector('.ant-pagination-item-3')!);
    await screen.findByText('Device 41');
    // Open the Online column's filter, pick "online", confirm.
    fireEvent.click(container.querySelectorAll('.ant-table-filter-trigger')[0]!);
    fireEvent.click(await screen.findByText('online', { selector: '.ant-dropdown-menu-title-content span' }));
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ page: 1, filters: { Online: ['online'] } }));
    expect(container.querySelector('.ant-pagination-item-active')?.textContent).toBe('1');
  });

  it('shows placeholder rows, and neither "no data" nor a total, until the first answer', async () => {
    let answer!: (p: Paged<Row>) => void;
    const { container } = renderTable(() => new Promise((resolve) => (answer = resolve)));
    expect(container.querySelector('.data-table-skeleton')).not.toBeNull();
    expect(container.querySelector('.ant-empty')).toBeNull();
    expect(container.querySelector('.ant-pagination')).toBeNull();
    expect(container.textContent).not.toMatch(/No data|in total/);

    await act(async () => answer({ Total: 45, Items: ROWS.slice(0, 20) }));
    await screen.findByText('Device 1');
    expect(container.querySelector('.data-table-skeleton')).toBeNull();
    expect(container.querySelector('.ant-pagination-total-text')?.textContent).toBe('45 in total');
  });

  it('says "no data" once an answer with no rows has come', async () => {
    const { container } = renderTable(async () => ({ Total: 0, Items: [] }));
    await waitFor(() => expect(container.querySelector('.ant-empty')).not.toBeNull());
    expect(container.querySelector('.data-table-skeleton')).toBeNull();
  });
});
