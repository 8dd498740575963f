// Transfers (/erp/transfers): materials and products moved between warehouses, and the dialog that
// moves some: the item, the source and target warehouses and the quantity, with what the source
// holds now shown beside it (the server refuses more than that).
import { useState } from 'react';
import { Form, Input, InputNumber, Radio, Select, Typography, type FormInstance } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { erp } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { ExportButton } from '../../components/ExportButton';
import { userDataCell } from '../../i18n/texts';
import { FormDialog, ListPage, addAction, renderFields } from '../../patterns';
import { useCan } from '../../access/can';
import { accountNow } from '../../session/time';
import { useDictOptions } from '../inventory/shared';
import { ERP_KEY, useStockThings } from './shared';

type Transfer = z.infer<typeof erp.transferSchema>;
type Search = { Kind?: number; WarehouseId?: number };
interface TransferForm {
  Kind: number;
  ItemId?: number;
  FromWarehouseId?: number;
  ToWarehouseId?: number;
  Quantity?: number;
  Remark?: string;
}

/** What the source warehouse holds of the item today (from the ledger). */
function SourceStock({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const kind = Form.useWatch('Kind', form) as number | undefined;
  const item = Form.useWatch('ItemId', form) as number | undefined;
  const from = Form.useWatch('FromWarehouseId', form) as number | undefined;
  const q = useQuery({
    queryKey: [...ERP_KEY, 'stockAt', 'source', kind, item, from],
    queryFn: async () => (await call('/Erp/StockAt', { Kind: kind!, WarehouseId: from!, Date: accountNow().format('YYYY-MM-DD') })).Items.find((r) => r.ItemId === item)?.Quantity ?? 0,
    enabled: !!kind && !!item && !!from,
  });
  if (!kind || !item || !from) return null;
  return (
    <Typography.Paragraph type="secondary" data-testid="transfer-available">
      {q.data === undefined ? '…' : t('erp:transfer.available', { count: q.data })}
    </Typography.Paragraph>
  );
}

function ItemField({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const kind = (Form.useWatch('Kind', form) ?? 2) as 1 | 2;
  const things = useStockThings(kind);
  return renderFields([
    { name: 'ItemId', label: t('erp:lines.item'), required: true, input: <Select showSearch={{ optionFilterProp: 'label' }} options={things.options} loading={things.loading} data-testid="transfer-item" /> },
  ]);
}

export default function ErpTransfersPage() {
  const { t } = useTranslation();
  const mayEdit = useCan()('inventory.edit');
  const stores = useDictOptions('stores');
  const [adding, setAdding] = useState(false);
  return (
    <ListPage<Transfer, Search>
      queryKey={[...ERP_KEY, 'transfers']}
      rowKey="Id"
      testId="erp-transfers"
      search={[
        { type: 'select', name: 'Kind', label: t('erp:lines.kind'), options: [1, 2].map((k) => ({ value: k, label: t(`erp:item.${k}`) })), width: 120 },
        { type: 'select', name: 'WarehouseId', label: t('erp:warehouse'), options: stores.options, loading: stores.loading, width: 160 },
      ]}
      fetch={(q) => call('/Erp/TransferList', q)}
      toolbar={(ctx) => [
        addAction(t('erp:transfer.add'), () => setAdding(true), { visible: mayEdit, testId: 'transfer-add' }),
        <ExportButton key="export" path="/Erp/ListExport" body={() => ({ List: 'transfers', Filter: ctx.search })} fileName={`${t('erp:export.transfers')}.xlsx`} testId="export-transfers" />,
      ]}
      columns={[
        { key: 'Created', title: t('erp:created'), dataIndex: 'Created', width: 170 },
        { key: 'Kind', title: t('erp:lines.kind'), width: 90, render: (_, r) => t(`erp:item.${r.Kind}`) },
        { key: 'ItemName', title: t('erp:lines.item'), dataIndex: 'ItemName', onCell: userDataCell },
        { key: 'FromWarehouseName', title: t('erp:transfer.from'), dataIndex: 'FromWarehouseName', width: 140 },
        { key: 'ToWarehouseName', title: t('erp:transfer.to'), dataIndex: 'ToWarehouseName', width: 140 },
        { key: 'Quantity', title: t('erp:quantity'), dataIndex: 'Quantity', width: 100, align: 'right' },
        { key: 'Remark', title: t('erp:remark'), dataIndex: 'Remark', onCell: userDataCell },
      ]}
    >
      <FormDialog<TransferForm>
        open={adding}
        title={t('erp:transfer.add')}
        schema={erp.transferSave}
        initial={{ Kind: 2 }}
        submit={(v) => call('/Erp/TransferSave', v as never)}
        successMessage={t('erp:saved')}
        invalidate={[ERP_KEY]}
        onClose={() => setAdding(false)}
        testId="transfer-form"
        fields={(form) => (
          <>
            <Form.Item name="Kind" label={t('erp:lines.kind')}>
              <Radio.Group onChange={() => form.setFieldValue('ItemId', undefined)} options={[1, 2].map((k) => ({ value: k, label: t(`erp:item.${k}`) }))} />
            </Form.Item>
            <ItemField form={form} />
            {renderFields([
              { name: 'FromWarehouseId', label: t('erp:transfer.from'), required: true, input: <Select options={stores.options} loading={stores.loading} data-testid="transfer-from" /> },
            ])}
            <SourceStock form={form} />
            {renderFields([
              { name: 'ToWarehouseId', label: t('erp:transfer.to'), required: true, input: <Select options={stores.options} loading={stores.loading} data-testid="transfer-to" /> },
              { name: 'Quantity', label: t('erp:quantity'), required: true, input: <InputNumber min={1} precision={0} style={{ width: 160 }} data-testid="transfer-quantity" /> },
              { name: 'Remark', label: t('erp:remark'), input: <Input.TextArea rows={2} maxLength={500} /> },
            ])}
          </>
        )}
      />
    </ListPage>
  );
}
