// The console's one table widget: server-side paging, sorting and column filters, an optional
// search form above it, row selection for batch actions and a toolbar. The data comes from a
// `fetch` that maps the table state to a paged call (PageNo/PageCount -> Total/Items).
import { useMemo, useState, type Key, type ReactNode } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Alert, Button, Skeleton, Space, Table, type TableProps } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { useTranslation } from 'react-i18next';
import { errorText } from '../i18n/errors';

export interface TableQuery {
  page: number;
  pageSize: number;
  /** Column key sorted on, with its direction. */
  sortField?: string;
  sortOrder?: 'asc' | 'desc';
  /** Column filters by column key (antd's filter values). */
  filters: Record<string, Key[] | null>;
}

export interface Paged<T> {
  Total: number;
  Items: T[];
}

export interface DataTableProps<T> {
  /** Query key prefix; the table state and `params` are appended. */
  queryKey: readonly unknown[];
  /** Extra inputs of the query (search form values ...): a change goes back to page 1. */
  params?: unknown;
  fetch: (query: TableQuery, params: unknown) => Promise<Paged<T>>;
  columns: ColumnsType<T>;
  rowKey: keyof T & string;
  /** Selected row keys for batch actions; selection is off without it. */
  selection?: { keys: Key[]; onChange: (keys: Key[], rows: T[]) => void };
  /** Above the table; a function gets the last answer (to show a count, or disable a button at a limit). */
  toolbar?: ReactNode | ((data: Paged<T> | undefined) => ReactNode);
  /**
   * 'server' (default): each page is asked for. 'client': `fetch` answers every row at once (a
   * short list such as an account's thirty roles) and the table pages through it.
   */
  paging?: 'server' | 'client';
  /** Shown instead of antd's "no data" when the list is empty. */
  empty?: ReactNode;
  pageSizes?: number[];
  defaultPageSize?: number;
  enabled?: boolean;
  scrollX?: number | string;
  size?: TableProps<T>['size'];
  testId?: string;
}

const CLIENT_QUERY: TableQuery = { page: 1, pageSize: 0, filters: {} };

/** The selection column's width (antd's default, with its padding). */
const SELECTION_WIDTH = 48;

/**
 * The table's scroll width: the one asked for, but never less than its columns' widths (and the
 * selection column) add up to, so that no column is squeezed under a fixed one (a header clipped
 * by the fixed actions column).
 */
export function scrollWidth(asked: number | string | undefined, columns: readonly { width?: number | string }[], selection: boolean): number | string | undefined {
  if (asked === undefined || typeof asked === 'string') return asked;
  const sum = columns.reduce((n, c) => n + (typeof c.width === 'number' ? c.width : 0), selection ? SELECTION_WIDTH : 0);
  return Math.max(asked, sum);
}

export function DataTable<T extends object>(props: DataTableProps<T>) {
  const { t } = useTranslation();
  const [state, setState] = useState<TableQuery>({ page: 1, pageSize: props.defaultPageSize ?? 20, filters: {} });
  const [lastParams, setLastParams] = useState<string>(JSON.stringify(props.params ?? null));
  const paramsKey = JSON.stringify(props.params ?? null);
  // A new search starts again from the first page (set during render, React's documented pattern).
  if (paramsKey !== lastParams) {
    setLastParams(paramsKey);
    if (state.page !== 1) setState((s) => ({ ...s, page: 1 }));
  }

  const client = props.paging === 'client';
  // A list held whole is paged, sorted and filtered by the table (columns give compare and filter
  // functions): none of that asks again.
  const asked: TableQuery = client ? CLIENT_QUERY : state;
  const query = useQuery({
    queryKey: [...props.queryKey, asked, props.params ?? null],
    queryFn: () => props.fetch(asked, props.params),
    placeholderData: keepPreviousData,
    enabled: props.enabled ?? true,
  });

  const onChange: TableProps<T>['onChange'] = (pagination, filters, sorter) => {
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    const sortField = s?.order ? String(s.columnKey ?? s.field ?? '') : undefined;
    // antd reports every filterable column, the unset ones as null: only the set ones count, so a
    // page change with no filter chosen is not taken for a new filter (which restarts at page 1).
    const next = normalizeFilters(filters as Record<string, Key[] | null>);
    setState((prev) => {
      const filtersChanged = JSON.stringify(next) !== JSON.stringify(prev.filters);
      return {
        page: filtersChanged ? 1 : (pagination.current ?? 1),
        pageSize: pagination.pageSize ?? prev.pageSize,
        sortField: sortField || undefined,
        sortOrder: s?.order === 'ascend' ? 'asc' : s?.order === 'descend' ? 'desc' : undefined,
        filters: next,
      };
    });
  };

  // Reflect the controlled sort and filters back into the columns so antd shows them.
  const columns = useMemo(
    () =>
      props.columns.map((c) => {
        const key = String(c.key ?? '');
        const out = { ...c };
        if (c.sorter) out.sortOrder = state.sortField === key ? (state.sortOrder === 'asc' ? 'ascend' : 'descend') : null;
        if (c.filters) out.filteredValue = state.filters[key] ?? null;
        return out;
      }),
    [props.columns, state.sortField, state.sortOrder, state.filters],
  );

  const rows = query.data?.Items ?? [];
  // Until the first answer there is nothing to count: placeholder rows, neither "no data" nor a
  // total of 0 (later loads keep the previous page on screen under the spinner).
  const firstLoad = query.isLoading;
  const toolbar = typeof props.toolbar === 'function' ? props.toolbar(query.data) : props.toolbar;
  return (
    <div className="data-table" data-testid={props.testId}>
      {toolbar ? (
        <Space wrap style={{ marginBottom: 12 }}>
          {toolbar}
        </Space>
      ) : null}
      {query.error ? (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 12 }}
          title={errorText(t, query.error)}
          action={
            <Button size="small" onClick={() => void query.refetch()} loading={query.isFetching} data-testid="table-retry">
              {t('widgets:table.retry')}
            </Button>
          }
        />
      ) : null}
      <Table<T>
        rowKey={props.rowKey}
        size={props.size ?? 'middle'}
        columns={columns}
        dataSource={rows}
        loading={query.isFetching && !firstLoad}
        locale={
          firstLoad
            ? { emptyText: <Skeleton active title={false} paragraph={{ rows: 5 }} className="data-table-skeleton" /> }
            : props.empty !== undefined && !query.error
              ? { emptyText: props.empty }
              : undefined
        }
        onChange={onChange}
        // An empty table is not scrolled sideways: a scroll area with nothing to focus cannot be scrolled from the keyboard.
        scroll={props.scrollX && rows.length ? { x: scrollWidth(props.scrollX, columns, !!props.selection) } : undefined}
        rowSelection={
          props.selection
            ? { selectedRowKeys: props.selection.keys, onChange: (keys, selected) => props.selection!.onChange(keys, selected), preserveSelectedRowKeys: true }
            : undefined
        }
        pagination={
          firstLoad
            ? false
            : {
                current: state.page,
                pageSize: state.pageSize,
                total: client ? rows.length : (query.data?.Total ?? 0),
                showSizeChanger: true,
                pageSizeOptions: props.pageSizes ?? [10, 20, 50, 100],
                showTotal: (total) => t('widgets:table.total', { count: total }),
              }
        }
      />
    </div>
  );
}

/** The sort and filters of a table query as the call fields every paged list accepts. */
export function sortParams(q: TableQuery): { SortField?: string; SortOrder?: 'asc' | 'desc' } {
  return q.sortField && q.sortOrder ? { SortField: q.sortField, SortOrder: q.sortOrder } : {};
}

/** Column filters with only the set ones, in key order: equal filters compare equal. */
export function normalizeFilters(filters: Record<string, Key[] | null | undefined> | undefined): Record<string, Key[]> {
  const out: Record<string, Key[]> = {};
  for (const key of Object.keys(filters ?? {}).sort()) {
    const v = filters![key];
    if (v && v.length) out[key] = v;
  }
  return out;
}

/** The single value of a one-choice column filter, if set. */
export function filterValue(q: TableQuery, key: string): string | undefined {
  const v = q.filters[key];
  return v && v.length ? String(v[0]) : undefined;
}
