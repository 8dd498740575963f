// Sales (/inventory/sales): customer, model, quantity, sale and expiry times; a new sale hands the
// devices over to the customer's account (unbound, ready to bind); voiding takes them back to stock
// unless the customer has since bound them, moved them or they sent data (the refusal names them).
import { useState } from 'react';
import { DatePicker, Input, Tag } from 'antd';
import { EditOutlined, StopOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { inventory, type InventorySaleRow } from './types';
import { call } from '../../api/client';
import { FormDialog, ListPage, addAction, type RowAction } from '../../patterns';
import { userDataCell } from '../../i18n/texts';
import { useCan } from '../../access/can';
import { SaleDialog } from './SaleDialog';
import { INVENTORY_KEY, useDictOptions } from './shared';
import { wallClock } from '../../session/time';

export default function InventorySalesPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('inventory.edit');
  const models = useDictOptions('models');
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<InventorySaleRow | null>(null);
  return (
    <ListPage<InventorySaleRow, { ModelId?: number; State?: number; Keyword?: string }>
      queryKey={[...INVENTORY_KEY, 'sales']}
      rowKey="Id"
      testId="inventory-sales"
      search={[
        { type: 'select', name: 'ModelId', label: t('inventory:model'), options: models.options, loading: models.loading, width: 160 },
        { type: 'select', name: 'State', label: t('inventory:salesPage.state'), options: [1, 2].map((s) => ({ value: s, label: t(`inventory:salesPage.states.${s}`) })), width: 120 },
        { type: 'text', name: 'Keyword', label: t('inventory:keyword') },
      ]}
      fetch={(q) => call('/Inventory/SalesList', q)}
      toolbar={[addAction(t('inventory:salesPage.add'), () => setAdding(true), { visible: mayEdit, testId: 'sale-add' })]}
      actionsColumn={{ title: t('inventory:actions'), width: 150 }}
      rowActions={(r): RowAction[] => [
        { key: 'edit', label: t('inventory:edit'), icon: <EditOutlined />, visible: mayEdit && r.State === 1, onClick: () => setEditing(r) },
        {
          key: 'void',
          label: t('inventory:salesPage.void'),
          icon: <StopOutlined />,
          danger: true,
          visible: mayEdit && r.State === 1,
          testId: 'sale-void',
          confirm: t('inventory:salesPage.confirmVoid', { no: r.SaleNo }),
          run: () => call('/Inventory/SalesDelById', { Id: r.Id }),
          success: t('inventory:salesPage.voided'),
          invalidate: [INVENTORY_KEY, ['devices']],
        },
      ]}
      columns={[
        { key: 'SaleNo', title: t('inventory:salesPage.saleNo'), dataIndex: 'SaleNo', width: 160 },
        { key: 'CustomerName', title: t('inventory:customer'), dataIndex: 'CustomerName', onCell: userDataCell },
        { key: 'ModelName', title: t('inventory:model'), dataIndex: 'ModelName' },
        { key: 'Quantity', title: t('inventory:quantity'), dataIndex: 'Quantity', width: 90 },
        { key: 'SoldAt', title: t('inventory:salesPage.soldAt'), dataIndex: 'SoldAt', width: 170 },
        { key: 'ExpiresAt', title: t('inventory:expires'), dataIndex: 'ExpiresAt', width: 170 },
        {
          key: 'State',
          title: t('inventory:salesPage.state'),
          width: 90,
          render: (_, r) => <Tag color={r.State === 1 ? 'green' : 'default'}>{t(`inventory:salesPage.states.${r.State}`)}</Tag>,
        },
        { key: 'Remark', title: t('inventory:remark'), dataIndex: 'Remark', onCell: userDataCell },
      ]}
    >
      <SaleDialog open={adding} onClose={() => setAdding(false)} />
      <FormDialog<{ Id: number; Expiry?: Dayjs; ExpiresAt?: string; Remark?: string }>
        open={editing !== null}
        title={t('inventory:salesPage.edit')}
        schema={inventory.saleUpdateRequest}
        initial={editing ? { Id: editing.Id, Expiry: editing.ExpiresAt ? dayjs(editing.ExpiresAt) : undefined, Remark: editing.Remark } : {}}
        transform={({ Expiry, ...v }) => ({ ...v, ExpiresAt: Expiry ? wallClock(Expiry.endOf('day')) : undefined })}
        rename={{ ExpiresAt: 'Expiry' }}
        submit={({ Id, ExpiresAt, Remark }) => call('/Inventory/SalesUpdate', { Id, ExpiresAt, Remark })}
        successMessage={t('inventory:saved')}
        invalidate={[INVENTORY_KEY]}
        onClose={() => setEditing(null)}
        fields={[
          { name: 'Expiry', label: t('inventory:salesPage.expiresAt'), input: <DatePicker /> },
          { name: 'Remark', label: t('inventory:remark'), input: <Input.TextArea rows={2} maxLength={500} /> },
        ]}
      />
    </ListPage>
  );
}
