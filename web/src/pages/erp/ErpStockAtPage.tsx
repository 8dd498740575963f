// Stock at a date (/erp/stockAt): what each material or product held in each warehouse at the end
// of a day of the viewer's zone (default today), read from the stock ledger; one row per item, one
// column per warehouse holding any, and the item's total. Materials and products carry no minimum
// stock, so nothing is flagged as low.
import { useState } from 'react';
import { Card, DatePicker, Radio, Select, Space, Table, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { erp } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { ExportButton } from '../../components/ExportButton';
import { userDataCell } from '../../i18n/texts';
import { accountNow } from '../../session/time';
import { useDictOptions } from '../inventory/shared';
import { ERP_KEY } from './shared';

type StockRow = z.infer<typeof erp.stockAtRow>;
interface ItemRow {
  ItemId: number;
  ItemName: string;
  ByWarehouse: Record<number, number>;
  Total: number;
}

/** The answer's rows (item × warehouse) as one row per item with its warehouses as columns. */
export function pivotStock(rows: readonly StockRow[]) {
  const warehouses = new Map<number, string>();
  const items = new Map<number, ItemRow>();
  for (const r of rows) {
    warehouses.set(r.WarehouseId, r.WarehouseName);
    const it = items.get(r.ItemId) ?? { ItemId: r.ItemId, ItemName: r.ItemName, ByWarehouse: {}, Total: 0 };
    it.ByWarehouse[r.WarehouseId] = (it.ByWarehouse[r.WarehouseId] ?? 0) + r.Quantity;
    it.Total += r.Quantity;
    items.set(r.ItemId, it);
  }
  return {
    warehouses: [...warehouses].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name)),
    items: [...items.values()].sort((a, b) => a.ItemName.localeCompare(b.ItemName)),
  };
}

export default function ErpStockAtPage() {
  const { t } = useTranslation();
  const stores = useDictOptions('stores');
  const [day, setDay] = useState<Dayjs>(() => accountNow());
  const [kind, setKind] = useState<1 | 2>(2);
  const [warehouse, setWarehouse] = useState<number | undefined>();
  const filter = { Kind: kind, WarehouseId: warehouse, Date: day.format('YYYY-MM-DD') };
  const q = useQuery({ queryKey: [...ERP_KEY, 'stockAt', filter], queryFn: async () => (await call('/Erp/StockAt', filter)).Items });
  const { warehouses, items } = pivotStock(q.data ?? []);
  return (
    <Card>
      <Space wrap style={{ marginBottom: 16, width: '100%', justifyContent: 'space-between' }}>
        <Space wrap>
          <Typography.Text>{t('erp:stockAt.date')}</Typography.Text>
          <DatePicker value={day} allowClear={false} onChange={(d) => d && setDay(d)} data-testid="stock-at-date" />
          <Radio.Group value={kind} onChange={(e) => setKind(e.target.value as 1 | 2)} options={[1, 2].map((k) => ({ value: k, label: t(`erp:item.${k}`) }))} optionType="button" />
          <Select allowClear placeholder={t('erp:warehouse')} style={{ width: 160 }} value={warehouse} onChange={setWarehouse} options={stores.options} loading={stores.loading} data-testid="stock-at-warehouse" />
        </Space>
        <ExportButton path="/Erp/ListExport" body={{ List: 'stockAt', Filter: filter }} fileName={`${t('erp:export.stockAt')}-${filter.Date}.xlsx`} testId="export-stock-at" />
      </Space>
      <Table<ItemRow>
        size="small"
        rowKey="ItemId"
        loading={q.isLoading}
        dataSource={items}
        pagination={items.length > 50 ? { pageSize: 50 } : false}
        data-testid="stock-at"
        columns={[
          { key: 'ItemName', title: t('erp:lines.item'), dataIndex: 'ItemName', onCell: userDataCell },
          ...warehouses.map((w) => ({
            key: `w${w.id}`,
            title: w.name,
            align: 'right' as const,
            width: 120,
            render: (_: unknown, r: ItemRow) => (
              <span data-testid="stock-cell" data-item={r.ItemName} data-warehouse={w.name}>
                {r.ByWarehouse[w.id] ?? 0}
              </span>
            ),
          })),
          { key: 'Total', title: t('erp:stockAt.total'), dataIndex: 'Total', align: 'right', width: 110 },
        ]}
      />
    </Card>
  );
}
