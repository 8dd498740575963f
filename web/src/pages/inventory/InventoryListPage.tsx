// The stock (/inventory/list): one row per IMEI, searched by model, store, state, IMEI range or a
// list of IMEIs; stock in one device, edit or delete an item, sell the selected ones. The
// dictionaries (models, versions, stores, owners) are kept in the tabs beside it.
import { useState } from 'react';
import { Button, Input, Select, Tabs, Tag } from 'antd';
import { InboxOutlined, ShoppingCartOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { inventory, type InventoryItemRow } from './types';
import { call } from '../../api/client';
import { FormDialog, ListPage, addAction } from '../../patterns';
import { useCan } from '../../access/can';
import { DictionaryTab } from './DictionaryTab';
import { SaleDialog } from './SaleDialog';
import { INVENTORY_KEY, editDeleteActions, splitList, useDictOptions } from './shared';

interface StockSearch {
  ModelId?: number;
  StoreId?: number;
  State?: number;
  Imei?: string;
  ImeiFrom?: string;
  ImeiTo?: string;
  ImeisText?: string;
}

const STATE_COLORS: Record<number, string> = { 1: 'green', 2: 'blue', 3: 'orange', 4: 'default' };

function StockTab() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mayEdit = useCan()('inventory.edit');
  const models = useDictOptions('models');
  const stores = useDictOptions('stores');
  const versions = useDictOptions('versions');
  const owners = useDictOptions('owners');
  const [editing, setEditing] = useState<{ row: InventoryItemRow | null } | null>(null);
  const [selling, setSelling] = useState<{ imeis: string[]; modelId?: number; clear?: () => void } | null>(null);
  const row = editing?.row;
  return (
    <ListPage<InventoryItemRow, StockSearch>
      card={false}
      queryKey={[...INVENTORY_KEY, 'items']}
      rowKey="Id"
      testId="inventory-items"
      selectable
      search={[
        { type: 'select', name: 'ModelId', label: t('inventory:model'), options: models.options, loading: models.loading, width: 160 },
        { type: 'select', name: 'StoreId', label: t('inventory:store'), options: stores.options, loading: stores.loading, width: 140 },
        { type: 'select', name: 'State', label: t('inventory:state'), options: [1, 2, 3, 4].map((s) => ({ value: s, label: t(`inventory:states.${s}`) })), width: 120 },
        { type: 'text', name: 'Imei', label: t('inventory:imei'), width: 170 },
        { type: 'text', name: 'ImeiFrom', label: t('inventory:imeiFrom'), width: 170 },
        { type: 'text', name: 'ImeiTo', label: t('inventory:imeiTo'), width: 170 },
        { type: 'text', name: 'ImeisText', label: t('inventory:imeiList'), placeholder: t('inventory:imeiListHint'), width: 260 },
      ]}
      fetch={({ ImeisText, ...q }) => {
        const list = splitList(ImeisText);
        return call('/Inventory/DevicesList', { ...q, ...(list.length ? { Imeis: list } : {}) });
      }}
      toolbar={[
        addAction(t('inventory:item.add'), () => setEditing({ row: null }), { visible: mayEdit }),
        <Button key="batches" icon={<InboxOutlined />} onClick={() => void navigate('/inventory/batch')} data-testid="goto-batches">
          {t('inventory:item.batches')}
        </Button>,
        {
          key: 'sell',
          label: t('inventory:item.sell'),
          icon: <ShoppingCartOutlined />,
          batch: true,
          visible: mayEdit,
          testId: 'sell-selected',
          onClick: ({ selectedRows, clearSelection }) =>
            setSelling({ imeis: selectedRows.filter((r) => r.State === 1).map((r) => r.Imei), modelId: selectedRows[0]?.ModelId, clear: clearSelection }),
        },
      ]}
      actionsColumn={{ title: t('inventory:actions'), width: 150 }}
      rowActions={(r) =>
        editDeleteActions(t, { name: r.Imei, mayEdit, mayDelete: mayEdit && r.State !== 2, onEdit: () => setEditing({ row: r }), remove: () => call('/Inventory/DevicesDelById', { Id: r.Id }) })
      }
      scrollX={1500}
      columns={[
        { key: 'Imei', title: t('inventory:imei'), dataIndex: 'Imei', width: 170 },
        { key: 'Iccid', title: t('inventory:iccid'), dataIndex: 'Iccid', width: 190 },
        { key: 'ModelName', title: t('inventory:model'), dataIndex: 'ModelName', width: 120 },
        { key: 'VersionName', title: t('inventory:version'), dataIndex: 'VersionName', width: 110 },
        { key: 'StoreName', title: t('inventory:store'), dataIndex: 'StoreName', width: 100 },
        { key: 'OwnerName', title: t('inventory:owner'), dataIndex: 'OwnerName', width: 120 },
        { key: 'State', title: t('inventory:state'), width: 90, render: (_, r) => <Tag color={STATE_COLORS[r.State]}>{t(`inventory:states.${r.State}`)}</Tag> },
        { key: 'BatchNo', title: t('inventory:batch'), dataIndex: 'BatchNo', width: 150 },
        { key: 'SaleNo', title: t('inventory:sale'), dataIndex: 'SaleNo', width: 150 },
        { key: 'CustomerName', title: t('inventory:customer'), dataIndex: 'CustomerName', width: 130 },
        { key: 'ExpiresAt', title: t('inventory:expires'), dataIndex: 'ExpiresAt', width: 170 },
      ]}
    >
      <FormDialog<Record<string, unknown>>
        open={editing !== null}
        title={t(row ? 'inventory:item.edit' : 'inventory:item.add')}
        schema={row ? inventory.itemUpdateRequest : inventory.itemInsertRequest}
        initial={row ? { Id: row.Id, Iccid: row.Iccid, VersionId: row.VersionId ?? undefined, StoreId: row.StoreId, OwnerId: row.OwnerId ?? undefined, State: row.State === 2 ? undefined : row.State } : {}}
        submit={(v) => (row ? call('/Inventory/DevicesUpdate', v as never) : call('/Inventory/DevicesInsert', v as never))}
        successMessage={t('inventory:saved')}
        invalidate={[INVENTORY_KEY]}
        onClose={() => setEditing(null)}
        testId="item-form"
        fields={[
          { name: 'Imei', label: t('inventory:imei'), required: true, visible: !row, input: <Input maxLength={15} /> },
          { name: 'Iccid', label: t('inventory:iccid'), input: <Input maxLength={32} /> },
          { name: 'ModelId', label: t('inventory:model'), required: true, visible: !row, input: <Select options={models.options} /> },
          { name: 'VersionId', label: t('inventory:version'), input: <Select allowClear options={versions.options} /> },
          { name: 'StoreId', label: t('inventory:store'), required: !row, input: <Select options={stores.options} disabled={row?.State === 2} /> },
          { name: 'OwnerId', label: t('inventory:owner'), input: <Select allowClear options={owners.options} /> },
          {
            name: 'State',
            label: t('inventory:state'),
            visible: !!row && row.State !== 2,
            input: <Select options={[1, 3, 4].map((s) => ({ value: s, label: t(`inventory:states.${s}`) }))} />,
          },
        ]}
      />
      <SaleDialog open={selling !== null} imeis={selling?.imeis} modelId={selling?.modelId} onClose={() => setSelling(null)} onDone={selling?.clear} />
    </ListPage>
  );
}

export default function InventoryListPage() {
  const { t } = useTranslation();
  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'stock', label: t('inventory:tabs.stock'), children: <StockTab /> },
        ...(['models', 'versions', 'stores', 'owners'] as const).map((k) => ({ key: k, label: t(`inventory:tabs.${k}`), children: <DictionaryTab kind={k} /> })),
      ]}
    />
  );
}
