// Goods receipts (/erp/receipts): what was received against which purchase order, into which
// warehouse and on which day, with its lines; filtered by order, supplier, warehouse and days
// (the viewer's). Receipts are made from an audited order ("receive" on the purchasing page).
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { erp } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { ExportButton } from '../../components/ExportButton';
import { userDataCell } from '../../i18n/texts';
import { ListPage } from '../../patterns';
import { useDictOptions } from '../inventory/shared';
import { ERP_KEY, useParties } from './shared';

type Receipt = z.infer<typeof erp.receiptSchema>;
type Search = { OrderId?: number; SupplierId?: number; WarehouseId?: number; From?: string; To?: string };

export default function ErpReceiptsPage() {
  const { t } = useTranslation();
  const suppliers = useParties('supplier');
  const stores = useDictOptions('stores');
  const orders = useQuery({
    queryKey: [...ERP_KEY, 'purchases', 'audited', 'options'],
    queryFn: async () => (await call('/Erp/PurchaseList', { PageNo: 1, PageCount: 1000, Audit: 2 })).Items.map((o) => ({ value: o.Id, label: o.OrderNo })),
  });
  return (
    <ListPage<Receipt, Search>
      queryKey={[...ERP_KEY, 'receipts']}
      rowKey="Id"
      testId="erp-receipts"
      search={[
        { type: 'select', name: 'OrderId', label: t('erp:purchase.orderNo'), options: orders.data ?? [], loading: orders.isLoading, searchable: true, width: 160 },
        { type: 'select', name: 'SupplierId', label: t('erp:supplier'), options: suppliers.options, loading: suppliers.loading, searchable: true, width: 180 },
        { type: 'select', name: 'WarehouseId', label: t('erp:warehouse'), options: stores.options, loading: stores.loading, width: 160 },
        { type: 'dateRange', name: 'Days', label: t('erp:receipt.receivedOn'), to: ['From', 'To'] },
      ]}
      fetch={(q) => call('/Erp/ReceiptList', q)}
      toolbar={(ctx) => [
        <ExportButton key="export" path="/Erp/ListExport" body={() => ({ List: 'receipts', Filter: ctx.search })} fileName={`${t('erp:export.receipts')}.xlsx`} testId="export-receipts" />,
      ]}
      columns={[
        { key: 'ReceivedOn', title: t('erp:receipt.receivedOn'), dataIndex: 'ReceivedOn', width: 120 },
        { key: 'OrderNo', title: t('erp:purchase.orderNo'), dataIndex: 'OrderNo', width: 140, onCell: userDataCell },
        { key: 'SupplierName', title: t('erp:supplier'), dataIndex: 'SupplierName', width: 160, onCell: userDataCell },
        { key: 'WarehouseName', title: t('erp:warehouse'), dataIndex: 'WarehouseName', width: 140 },
        { key: 'Lines', title: t('erp:receipt.items'), onCell: userDataCell, render: (_, r) => r.Lines.map((l) => `${l.ItemName} × ${l.Quantity}`).join('; ') },
        { key: 'Quantity', title: t('erp:quantity'), dataIndex: 'Quantity', width: 100, align: 'right' },
        { key: 'Remark', title: t('erp:remark'), dataIndex: 'Remark', width: 160, onCell: userDataCell },
        { key: 'Created', title: t('erp:created'), dataIndex: 'Created', width: 170 },
      ]}
    />
  );
}
