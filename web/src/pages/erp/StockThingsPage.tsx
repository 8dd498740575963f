// Materials (name, supplier, remark, stock) and products (model, colour, stock): list, add, edit,
// delete (refused once records exist), inbound and outbound records from each row.
import { useState } from 'react';
import { Input, Select, Tag } from 'antd';
import { DeleteOutlined, EditOutlined, ExportOutlined, ImportOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { erp } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { userDataCell } from '../../i18n/texts';
import { FormDialog, ListPage, addAction, type RowAction } from '../../patterns';
import { useCan } from '../../access/can';
import { ERP_KEY, RecordDialog } from './shared';
import { useDictOptions } from '../inventory/shared';

type Material = z.infer<typeof erp.materialSchema>;
type Product = z.infer<typeof erp.productSchema>;
type Row = { Id: number; Stock: number; Remark: string; Created: string } & Partial<Material> & Partial<Product>;
const COLOUR_TAG: Record<number, string> = { 1: 'default', 2: 'blue', 3: 'gold' };

export function StockThingsPage({ kind }: { kind: 1 | 2 }) {
  const { t } = useTranslation();
  const mayEdit = useCan()('inventory.edit');
  const [editing, setEditing] = useState<{ row: Row | null } | null>(null);
  const invModels = useDictOptions('models');
  const [record, setRecord] = useState<{ kind: 1 | 2; id: number; name: string; direction: 1 | 2 } | null>(null);
  const isMaterial = kind === 1;
  const nameOf = (r: Row) => (isMaterial ? r.Name! : r.ModelName!);
  const row = editing?.row;
  return (
    <ListPage<Row, { Keyword?: string }>
      queryKey={[...ERP_KEY, isMaterial ? 'materials' : 'products']}
      rowKey="Id"
      testId={isMaterial ? 'erp-materials' : 'erp-products'}
      search={[{ type: 'text', name: 'Keyword', label: t('erp:keyword') }]}
      fetch={(q) => (isMaterial ? call('/Erp/MaterialList', q) : call('/Erp/ProductList', q)) as Promise<{ Total: number; Items: Row[] }>}
      toolbar={[addAction(t(isMaterial ? 'erp:material.add' : 'erp:product.add'), () => setEditing({ row: null }), { visible: mayEdit })]}
      actionsColumn={{ title: t('erp:actions'), width: 300 }}
      rowActions={(r): RowAction[] => [
        { key: 'in', label: t('erp:inbound'), icon: <ImportOutlined />, visible: mayEdit, testId: 'erp-in', onClick: () => setRecord({ kind, id: r.Id, name: nameOf(r), direction: 1 }) },
        { key: 'out', label: t('erp:outbound'), icon: <ExportOutlined />, visible: mayEdit, testId: 'erp-out', onClick: () => setRecord({ kind, id: r.Id, name: nameOf(r), direction: 2 }) },
        { key: 'edit', label: t('erp:edit'), icon: <EditOutlined />, visible: mayEdit, onClick: () => setEditing({ row: r }) },
        {
          key: 'delete',
          label: t('erp:delete'),
          icon: <DeleteOutlined />,
          danger: true,
          visible: mayEdit,
          confirm: t('erp:confirmDelete', { name: nameOf(r) }),
          run: () => (isMaterial ? call('/Erp/MaterialDelete', { Id: r.Id }) : call('/Erp/ProductDelete', { Id: r.Id })),
          success: t('erp:deleted'),
          invalidate: [ERP_KEY],
        },
      ]}
      columns={[
        ...(isMaterial
          ? [
              { key: 'Name', title: t('erp:name'), dataIndex: 'Name', onCell: userDataCell },
              { key: 'Supplier', title: t('erp:supplier'), dataIndex: 'Supplier', onCell: userDataCell },
            ]
          : [
              { key: 'ModelName', title: t('erp:modelName'), dataIndex: 'ModelName', onCell: userDataCell },
              { key: 'Colour', title: t('erp:colour'), render: (_: unknown, r: Row) => <Tag color={COLOUR_TAG[r.Colour!]}>{t(`erp:colours.${r.Colour}`)}</Tag> },
            ]),
        { key: 'Stock', title: t('erp:stock'), dataIndex: 'Stock', width: 100 },
        { key: 'Remark', title: t('erp:remark'), dataIndex: 'Remark', onCell: userDataCell },
        { key: 'Created', title: t('erp:created'), dataIndex: 'Created', width: 170 },
      ]}
    >
      <FormDialog<Record<string, unknown>>
        open={editing !== null}
        title={t(isMaterial ? (row ? 'erp:material.edit' : 'erp:material.add') : row ? 'erp:product.edit' : 'erp:product.add')}
        schema={isMaterial ? erp.materialSave : erp.productSave}
        initial={row ? { Id: row.Id, Name: row.Name, Supplier: row.Supplier, ModelName: row.ModelName, Colour: row.Colour, InvModelId: row.InvModelId ?? undefined, Remark: row.Remark } : {}}
        submit={(v) => (isMaterial ? call('/Erp/MaterialSave', v as never) : call('/Erp/ProductSave', v as never))}
        successMessage={t('erp:saved')}
        invalidate={[ERP_KEY]}
        onClose={() => setEditing(null)}
        fields={
          isMaterial
            ? [
                { name: 'Name', label: t('erp:name'), required: true, input: <Input maxLength={64} /> },
                { name: 'Supplier', label: t('erp:supplier'), input: <Input maxLength={100} /> },
                { name: 'Remark', label: t('erp:remark'), input: <Input.TextArea rows={2} maxLength={500} /> },
              ]
            : [
                { name: 'ModelName', label: t('erp:modelName'), required: true, input: <Input maxLength={64} /> },
                { name: 'Colour', label: t('erp:colour'), required: true, input: <Select options={[1, 2, 3].map((c) => ({ value: c, label: t(`erp:colours.${c}`) }))} /> },
                { name: 'InvModelId', label: t('erp:invModel'), extra: t('erp:invModelHint'), input: <Select allowClear options={invModels.options} loading={invModels.loading} /> },
                { name: 'Remark', label: t('erp:remark'), input: <Input.TextArea rows={2} maxLength={500} /> },
              ]
        }
      />
      <RecordDialog target={record} onClose={() => setRecord(null)} />
    </ListPage>
  );
}
