// Stock-in batches (/inventory/batch): each batch's model, version, store, owner, date, quantity and
// what of it is still in stock; a new batch from pasted IMEIs or a workbook; edit (a new store
// moves the items still in stock) and delete (while none of it was sold).
import { useState } from 'react';
import { DatePicker, Input, Select } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { inventory, type InventoryBatchRow } from './types';
import { call } from '../../api/client';
import { FormDialog, ListPage, addAction } from '../../patterns';
import { userDataCell } from '../../i18n/texts';
import { useCan } from '../../access/can';
import { BatchDialog } from './BatchDialog';
import { INVENTORY_KEY, editDeleteActions, useDictOptions } from './shared';

export default function InventoryBatchPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('inventory.edit');
  const models = useDictOptions('models');
  const stores = useDictOptions('stores');
  const versions = useDictOptions('versions');
  const owners = useDictOptions('owners');
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<InventoryBatchRow | null>(null);
  return (
    <ListPage<InventoryBatchRow, { ModelId?: number; StoreId?: number; Keyword?: string }>
      queryKey={[...INVENTORY_KEY, 'batches']}
      rowKey="Id"
      testId="inventory-batches"
      search={[
        { type: 'select', name: 'ModelId', label: t('inventory:model'), options: models.options, loading: models.loading, width: 160 },
        { type: 'select', name: 'StoreId', label: t('inventory:store'), options: stores.options, loading: stores.loading, width: 140 },
        { type: 'text', name: 'Keyword', label: t('inventory:keyword') },
      ]}
      fetch={(q) => call('/Inventory/InventoryBatchList', q)}
      toolbar={[addAction(t('inventory:batchPage.add'), () => setAdding(true), { visible: mayEdit, testId: 'batch-add' })]}
      actionsColumn={{ title: t('inventory:actions'), width: 150 }}
      rowActions={(r) => editDeleteActions(t, { name: r.BatchNo, mayEdit, onEdit: () => setEditing(r), remove: () => call('/Inventory/DelById', { Id: r.Id }) })}
      columns={[
        { key: 'BatchNo', title: t('inventory:batchPage.batchNo'), dataIndex: 'BatchNo', width: 160 },
        { key: 'ModelName', title: t('inventory:model'), dataIndex: 'ModelName' },
        { key: 'VersionName', title: t('inventory:version'), dataIndex: 'VersionName' },
        { key: 'StoreName', title: t('inventory:store'), dataIndex: 'StoreName' },
        { key: 'OwnerName', title: t('inventory:owner'), dataIndex: 'OwnerName' },
        { key: 'StockInDate', title: t('inventory:batchPage.date'), dataIndex: 'StockInDate', width: 120 },
        { key: 'Quantity', title: t('inventory:batchPage.total'), dataIndex: 'Quantity', width: 90 },
        { key: 'InStock', title: t('inventory:batchPage.inStock'), dataIndex: 'InStock', width: 90 },
        { key: 'Remark', title: t('inventory:remark'), dataIndex: 'Remark', onCell: userDataCell },
      ]}
    >
      <BatchDialog open={adding} onClose={() => setAdding(false)} />
      <FormDialog<{ Id: number; VersionId?: number; StoreId?: number; OwnerId?: number; Date?: Dayjs; StockInDate?: string; Remark?: string }>
        open={editing !== null}
        title={t('inventory:batchPage.edit')}
        schema={inventory.batchUpdateRequest}
        initial={editing ? { Id: editing.Id, VersionId: editing.VersionId ?? undefined, StoreId: editing.StoreId, OwnerId: editing.OwnerId ?? undefined, Date: dayjs(editing.StockInDate), Remark: editing.Remark } : {}}
        transform={({ Date: d, ...v }) => ({ ...v, StockInDate: d ? d.format('YYYY-MM-DD') : undefined })}
        rename={{ StockInDate: 'Date' }}
        submit={({ Id, VersionId, StoreId, OwnerId, StockInDate, Remark }) => call('/Inventory/UpdateInfo', { Id, VersionId, StoreId, OwnerId, StockInDate, Remark })}
        successMessage={t('inventory:saved')}
        invalidate={[INVENTORY_KEY]}
        onClose={() => setEditing(null)}
        fields={[
          { name: 'VersionId', label: t('inventory:version'), input: <Select allowClear options={versions.options} /> },
          { name: 'StoreId', label: t('inventory:store'), input: <Select options={stores.options} /> },
          { name: 'OwnerId', label: t('inventory:owner'), input: <Select allowClear options={owners.options} /> },
          { name: 'Date', label: t('inventory:batchPage.date'), input: <DatePicker allowClear={false} /> },
          { name: 'Remark', label: t('inventory:remark'), input: <Input.TextArea rows={2} maxLength={500} /> },
        ]}
      />
    </ListPage>
  );
}
