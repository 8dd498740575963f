// What the inventory pages share: the dictionaries as select options, the query key every
// inventory list hangs under (a stock change shows everywhere), IMEI lists typed or pasted, and
// the rows refused by a batch or a sale shown as a table.
import { Table } from 'antd';
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import type { TFunction } from 'i18next';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { call } from '../../api/client';
import type { RowAction } from '../../patterns';

export const INVENTORY_KEY = ['inventory'] as const;

export type DictKind = 'models' | 'versions' | 'stores' | 'owners';
const LIST_PATH = {
  models: '/Inventory/ModelList',
  versions: '/Inventory/VersionList',
  stores: '/Inventory/StoreList',
  owners: '/Inventory/OwnerList',
} as const;

/** A dictionary as select options (every entry: dictionaries are short). */
export function useDictOptions(kind: DictKind) {
  const q = useQuery({
    queryKey: [...INVENTORY_KEY, kind, 'options'],
    queryFn: () => call(LIST_PATH[kind], { PageNo: 1, PageCount: 1000 }),
  });
  return { options: (q.data?.Items ?? []).map((x) => ({ value: x.Id, label: x.Name })), loading: q.isLoading };
}

/** IMEIs typed or pasted: one per line, or separated by commas, semicolons or spaces. */
export function splitList(text: string | undefined): string[] {
  return (text ?? '')
    .split(/[\s,;，；]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export interface RefusedRow {
  Row: number;
  Imei: string;
  Message: string;
  Params?: Record<string, unknown>;
}

/** The rows refused, each with its reason in the reader's language. */
export function RefusedTable({ rows, testId }: { rows: RefusedRow[]; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Table<RefusedRow>
      size="small"
      data-testid={testId}
      rowKey={(r) => `${r.Row}:${r.Imei}`}
      pagination={rows.length > 10 ? { pageSize: 10, showSizeChanger: false } : false}
      dataSource={rows}
      columns={[
        { key: 'Row', title: t('inventory:batchPage.row'), dataIndex: 'Row', width: 80 },
        { key: 'Imei', title: t('inventory:imei'), dataIndex: 'Imei', width: 180 },
        { key: 'Message', title: t('inventory:batchPage.reason'), render: (_, r) => t(`messages:${r.Message}`, { ...r.Params }) },
      ]}
    />
  );
}

/** Edit and delete (after a confirmation naming the row) of an inventory row. */
export function editDeleteActions(
  t: TFunction,
  o: { name: string; onEdit: () => void; remove: () => Promise<unknown>; mayEdit: boolean; mayDelete?: boolean },
): RowAction[] {
  return [
    { key: 'edit', label: t('inventory:edit'), icon: <EditOutlined />, visible: o.mayEdit, onClick: o.onEdit },
    {
      key: 'delete',
      label: t('inventory:delete'),
      icon: <DeleteOutlined />,
      danger: true,
      visible: o.mayDelete ?? o.mayEdit,
      confirm: t('inventory:confirmDelete', { name: o.name }),
      run: o.remove,
      success: t('inventory:deleted'),
      invalidate: [INVENTORY_KEY],
    },
  ];
}
