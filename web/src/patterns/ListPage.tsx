// A list-and-edit screen: a search bar built from field descriptions, the console's DataTable
// (server or client paging, loading, empty and error states), a toolbar of buttons and batch
// actions on the selected rows, and an action column whose actions may ask for a confirmation and
// run their call with a busy flag, success or error message and invalidation. Actions the user may
// not use are left out (`visible: false`).
import { useMemo, useState, type Key, type ReactNode } from 'react';
import { wallClock } from '../session/time';
import { Card, DatePicker, Input, Select, Typography, type TableProps } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DataTable, sortParams, type Paged, type TableQuery } from '../components/DataTable';
import { SearchForm, clean, type SearchField } from '../components/SearchForm';
import {
  ActionButton,
  RowActions,
  isToolbarAction,
  useActionRunner,
  type ListContext,
  type RowAction,
  type ToolbarEntry,
} from './actions';

// ---- search fields -----------------------------------------------------------------------------

interface SearchBase {
  /** The query field it fills (a date range fills the two fields of `to`). */
  name: string;
  label: ReactNode;
  /** Left out when false. */
  visible?: boolean;
  /** Input width in pixels; default 200 (a date range: antd's own). */
  width?: number;
  placeholder?: string;
}

export type SearchSpec =
  | (SearchBase & { type: 'text' })
  | (SearchBase & {
      type: 'select';
      options: { value: string | number; label: ReactNode }[];
      multiple?: boolean;
      loading?: boolean;
      /** Typing filters the options by their label. */
      searchable?: boolean;
    })
  | (SearchBase & {
      type: 'dateRange';
      /** The query fields of the range's start (start of its first day) and end (end of its last day), as wall-clock text of the account's zone. */
      to: [string, string];
    })
  | (SearchBase & { type: 'custom'; input: ReactNode });

function searchInput(f: SearchSpec): ReactNode {
  const style = { width: f.width ?? 200 };
  switch (f.type) {
    case 'text':
      return <Input allowClear style={style} placeholder={f.placeholder} />;
    case 'select':
      return (
        <Select
          allowClear
          style={style}
          placeholder={f.placeholder}
          mode={f.multiple ? 'multiple' : undefined}
          loading={f.loading}
          showSearch={f.searchable ? { optionFilterProp: 'label' } : undefined}
          options={f.options}
        />
      );
    case 'dateRange':
      return <DatePicker.RangePicker allowClear style={f.width ? style : undefined} />;
    case 'custom':
      return f.input;
  }
}

/** The search form's values as query fields: date ranges split into their two bounds. */
export function searchQuery(
  fields: readonly SearchSpec[],
  values: Record<string, unknown>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...clean(values) };
  for (const f of fields) {
    if (f.type !== 'dateRange') continue;
    const range = out[f.name] as [Dayjs | null, Dayjs | null] | undefined;
    delete out[f.name];
    // Days of the account's zone: sent without a zone, the server reads them in it.
    if (range?.[0]) out[f.to[0]] = wallClock(range[0].startOf('day'));
    if (range?.[1]) out[f.to[1]] = wallClock(range[1].endOf('day'));
  }
  return out;
}

// ---- the page ----------------------------------------------------------------------------------

/** The query handed to `fetch`: the search values with the page (server paging) and the sort. */
export type ListQuery<Search> = Search & {
  PageNo?: number;
  PageCount?: number;
  SortField?: string;
  SortOrder?: 'asc' | 'desc';
};

export interface ListPageProps<Row extends object, Search extends object = Record<string, unknown>> {
  /** A title above the list (a page in the tab layout has its title in the tab: usually none). */
  title?: ReactNode;
  /** Above the search bar: an intro text, a hint. */
  header?: ReactNode;
  /** Query key prefix of the list; invalidate it (or a prefix of it) to reload. */
  queryKey: readonly unknown[];
  /**
   * Asks for the rows: the search values, and with server paging PageNo/PageCount, and the sort
   * (`SortField`/`SortOrder`) of a sortable column; the table's column filters come second.
   */
  fetch: (query: ListQuery<Search>, table: TableQuery) => Promise<Paged<Row>>;
  columns: ColumnsType<Row>;
  rowKey: keyof Row & string;
  search?: SearchSpec[];
  initialSearch?: Partial<Search>;
  /** Buttons (as data) and elements above the table; a function sees the selection and the last answer. */
  toolbar?: ToolbarEntry<Row>[] | ((ctx: ListContext<Row>) => ToolbarEntry<Row>[]);
  /** The actions of a row, in an action column at the right (a row whose actions are all hidden shows none). */
  rowActions?: (row: Row) => RowAction[];
  actionsColumn?: { title?: ReactNode; width?: number; fixed?: 'right'; /** Icons with tooltips instead of labelled links. */ compact?: boolean };
  /** Row checkboxes; on by itself when a toolbar action is a batch action. */
  selectable?: boolean;
  /** 'server' (default) or 'client' (fetch answers every row). */
  paging?: 'server' | 'client';
  defaultPageSize?: number;
  pageSizes?: number[];
  scrollX?: number | string;
  size?: TableProps<Row>['size'];
  /** Shown when the list is empty (default antd's "no data"). */
  empty?: ReactNode;
  /** data-testid of the table. */
  testId?: string;
  /** Wrapped in a Card (default true). */
  card?: boolean;
  /** Dialogs of the page. */
  children?: ReactNode;
}

export function ListPage<Row extends object, Search extends object = Record<string, unknown>>(
  props: ListPageProps<Row, Search>,
) {
  const { t } = useTranslation();
  // The search the list starts with: the search form's initial values, as the query takes them.
  const [search, setSearch] = useState<Record<string, unknown>>(() =>
    searchQuery(props.search ?? [], (props.initialSearch ?? {}) as Record<string, unknown>),
  );
  const [selection, setSelection] = useState<{ keys: Key[]; rows: Row[] }>({ keys: [], rows: [] });
  // Actions change the list by default: it is asked again after them.
  const { running, perform } = useActionRunner([props.queryKey]);

  const searchSpecs = useMemo(() => (props.search ?? []).filter((f) => f.visible !== false), [props.search]);
  const searchFields: SearchField[] = searchSpecs.map((f) => ({
    name: f.name,
    label: f.label,
    input: searchInput(f),
  }));

  const { rowActions, queryKey } = props;
  const columns = useMemo<ColumnsType<Row>>(() => {
    if (!rowActions) return props.columns;
    const actionsColumn: ColumnsType<Row>[number] = {
      key: 'actions',
      title: props.actionsColumn?.title ?? t('widgets:list.actions'),
      width: props.actionsColumn?.width,
      fixed: props.actionsColumn?.fixed,
      render: (_, row) => <RowActions actions={rowActions(row)} invalidate={[queryKey]} compact={props.actionsColumn?.compact} />,
    };
    return [...props.columns, actionsColumn];
  }, [props.columns, rowActions, queryKey, props.actionsColumn, t]);

  const toolbarOf = (data: Paged<Row> | undefined): ReactNode => {
    if (!props.toolbar) return null;
    const ctx: ListContext<Row> = {
      selectedKeys: selection.keys,
      selectedRows: selection.rows,
      clearSelection: () => setSelection({ keys: [], rows: [] }),
      data,
      search,
    };
    const entries = typeof props.toolbar === 'function' ? props.toolbar(ctx) : props.toolbar;
    const shown = entries.filter(
      (e) => e !== null && e !== undefined && e !== false && !(isToolbarAction(e) && e.visible === false),
    );
    if (!shown.length) return null;
    return (
      <>
        {shown.map((e, i) => {
          if (!isToolbarAction(e))
            return typeof e === 'string' ? <Typography.Text key={`text-${i}`}>{e}</Typography.Text> : e;
          const busyKey = `toolbar:${e.key}`;
          const confirm = typeof e.confirm === 'function' ? e.confirm(ctx) : e.confirm;
          return (
            <ActionButton
              key={e.key}
              action={{
                ...e,
                label:
                  e.batch && selection.keys.length ? (
                    <>
                      {e.label} ({selection.keys.length})
                    </>
                  ) : (
                    e.label
                  ),
                disabled: e.disabled || (e.batch && !selection.keys.length),
              }}
              type={e.primary ? 'primary' : 'default'}
              confirm={confirm}
              loading={running === busyKey}
              onPress={() =>
                e.run
                  ? void perform(busyKey, () => e.run!(ctx), e, e.batch ? ctx.clearSelection : undefined)
                  : e.onClick?.(ctx)
              }
            />
          );
        })}
      </>
    );
  };

  const selectable =
    props.selectable ??
    (Array.isArray(props.toolbar)
      ? props.toolbar.some((e) => isToolbarAction(e) && e.batch && e.visible !== false)
      : false);

  const body = (
    <>
      {props.title ? (
        <Typography.Title level={5} style={{ marginTop: 0 }}>
          {props.title}
        </Typography.Title>
      ) : null}
      {props.header}
      {searchFields.length ? (
        <SearchForm<Record<string, unknown>>
          fields={searchFields}
          initialValues={props.initialSearch as Record<string, unknown> | undefined}
          onSearch={(values) => {
            setSearch(searchQuery(searchSpecs, values));
            setSelection({ keys: [], rows: [] });
          }}
        />
      ) : null}
      <DataTable<Row>
        testId={props.testId}
        queryKey={props.queryKey}
        params={search}
        paging={props.paging}
        rowKey={props.rowKey}
        columns={columns}
        scrollX={props.scrollX}
        size={props.size}
        empty={props.empty}
        defaultPageSize={props.defaultPageSize}
        pageSizes={props.pageSizes}
        fetch={(q, p) =>
          props.fetch(
            {
              ...(p as Search),
              ...(props.paging === 'client' ? {} : { PageNo: q.page, PageCount: q.pageSize }),
              ...sortParams(q),
            },
            q,
          )
        }
        selection={
          selectable
            ? { keys: selection.keys, onChange: (keys, rows) => setSelection({ keys, rows }) }
            : undefined
        }
        toolbar={props.toolbar ? toolbarOf : undefined}
      />
      {props.children}
    </>
  );
  return props.card === false ? body : <Card>{body}</Card>;
}
