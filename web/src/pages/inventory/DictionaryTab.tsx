// One dictionary of the inventory (models, versions, stores, owners): list, add, edit, delete.
// An entry in use cannot be deleted: the server says so, and the list shows which are in use.
import { useState } from 'react';
import { Input, Select, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ColumnsType } from 'antd/es/table';
import { inventory } from '@wt/contract';
import { call } from '../../api/client';
import { userDataCell } from '../../i18n/texts';
import { FormDialog, ListPage, addAction, type FieldSpec } from '../../patterns';
import { useCan } from '../../access/can';
import { INVENTORY_KEY, editDeleteActions, type DictKind } from './shared';

interface DictRow {
  Id: number;
  Name: string;
  Remark: string;
  InUse: boolean;
  Created: string;
  Kind?: number;
  DeviceModelId?: number | null;
  DeviceModelName?: string;
  InStock?: number;
  Address?: string;
  Seeded?: boolean;
}

const CALLS = {
  models: { list: '/Inventory/ModelList', insert: '/Inventory/ModelInsert', update: '/Inventory/ModelUpdate', remove: '/Inventory/ModelDelById', schema: inventory.modelSave },
  versions: { list: '/Inventory/VersionList', insert: '/Inventory/VersionInsert', update: '/Inventory/VersionUpdate', remove: '/Inventory/VersionDelById', schema: inventory.versionSave },
  stores: { list: '/Inventory/StoreList', insert: '/Inventory/StoreInsert', update: '/Inventory/StoreUpdate', remove: '/Inventory/StoreDelById', schema: inventory.storeSave },
  owners: { list: '/Inventory/OwnerList', insert: '/Inventory/OwnerInsert', update: '/Inventory/OwnerUpdate', remove: '/Inventory/OwnerDelById', schema: inventory.ownerSave },
} as const;

type AnyCall = (path: string, body: unknown) => Promise<never>;
const anyCall = call as unknown as AnyCall;

export function DictionaryTab({ kind }: { kind: DictKind }) {
  const { t } = useTranslation();
  const mayEdit = useCan()('inventory.edit');
  const [editing, setEditing] = useState<{ row: DictRow | null } | null>(null);
  const c = CALLS[kind];
  const catalogue = useQuery({
    queryKey: ['model', 'models', 'options'],
    queryFn: () => call('/Command/allModelList', { PageNo: 1, PageCount: 1000 }),
    enabled: kind === 'models',
  });
  const catalogueOptions = ((catalogue.data as { Items?: { ModelId: number; Name: string }[] } | undefined)?.Items ?? []).map((m) => ({ value: m.ModelId, label: m.Name }));

  const columns: ColumnsType<DictRow> = [
    { key: 'Name', title: t('inventory:name'), dataIndex: 'Name', onCell: (r) => (r.Seeded ? {} : userDataCell()) },
    ...(kind === 'versions' ? [{ key: 'Kind', title: t('inventory:kind'), render: (_: unknown, r: DictRow) => t(`inventory:kinds.${r.Kind}`), width: 120 }] : []),
    ...(kind === 'models'
      ? [
          { key: 'DeviceModelName', title: t('inventory:catalogueModel'), dataIndex: 'DeviceModelName', onCell: userDataCell },
          { key: 'InStock', title: t('inventory:inStock'), dataIndex: 'InStock', width: 100 },
        ]
      : []),
    ...(kind === 'stores' ? [{ key: 'Address', title: t('inventory:address'), dataIndex: 'Address', onCell: userDataCell }] : []),
    { key: 'Remark', title: t('inventory:remark'), dataIndex: 'Remark', onCell: userDataCell },
    { key: 'InUse', title: t('inventory:inUse'), width: 90, render: (_, r) => (r.InUse ? <Tag color="blue">{t('inventory:yes')}</Tag> : t('inventory:no')) },
    { key: 'Created', title: t('inventory:created'), dataIndex: 'Created', width: 170 },
  ];

  const fields: FieldSpec[] = [
    { name: 'Name', label: t('inventory:name'), required: true, input: <Input maxLength={64} data-testid="dict-name" /> },
    ...(kind === 'versions'
      ? [{ name: 'Kind', label: t('inventory:kind'), input: <Select options={[1, 2].map((k) => ({ value: k, label: t(`inventory:kinds.${k}`) }))} /> }]
      : []),
    ...(kind === 'models'
      ? [{ name: 'DeviceModelId', label: t('inventory:catalogueModel'), input: <Select allowClear options={catalogueOptions} loading={catalogue.isLoading} /> }]
      : []),
    ...(kind === 'stores' ? [{ name: 'Address', label: t('inventory:address'), input: <Input maxLength={200} /> }] : []),
    { name: 'Remark', label: t('inventory:remark'), input: <Input.TextArea rows={2} maxLength={500} /> },
  ];

  const row = editing?.row;
  return (
    <ListPage<DictRow, { Keyword?: string }>
      card={false}
      queryKey={[...INVENTORY_KEY, kind]}
      rowKey="Id"
      testId={`inventory-${kind}`}
      search={[{ type: 'text', name: 'Keyword', label: t('inventory:keyword') }]}
      fetch={(q) => anyCall(c.list, q)}
      toolbar={[addAction(t(`inventory:add.${kind}`), () => setEditing({ row: null }), { visible: mayEdit })]}
      actionsColumn={{ title: t('inventory:actions'), width: 150 }}
      rowActions={(r) => editDeleteActions(t, { name: r.Name, mayEdit, onEdit: () => setEditing({ row: r }), remove: () => anyCall(c.remove, { Id: r.Id }) })}
      columns={columns}
    >
      <FormDialog<Record<string, unknown>>
        open={editing !== null}
        title={t(row ? `inventory:editTitle.${kind}` : `inventory:add.${kind}`)}
        schema={c.schema}
        initial={
          row
            ? { Id: row.Id, Name: row.Name, Remark: row.Remark, Kind: row.Kind, DeviceModelId: row.DeviceModelId ?? undefined, Address: row.Address }
            : { Kind: 1 }
        }
        submit={(v) => anyCall(row ? c.update : c.insert, v)}
        successMessage={t('inventory:saved')}
        invalidate={[INVENTORY_KEY]}
        onClose={() => setEditing(null)}
        testId="dict-form"
        fields={fields}
      />
    </ListPage>
  );
}
