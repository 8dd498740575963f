// One purchase order's batches (date, quantity, unit price, amount paid) and invoices (company,
// date, amount, number). A batch repeating another's unit price and quantity is kept only after the
// user confirms (SPEC §5); invoices never total more than the payments (the server refuses).
import { useState } from 'react';
import { App, Button, DatePicker, Descriptions, Drawer, Input, InputNumber, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { erp } from '@wt/contract';
import type { z } from 'zod';
import { ApiError, call } from '../../api/client';
import { FormDialog, RowActions } from '../../patterns';
import { ERP_KEY } from './shared';

export type Purchase = z.infer<typeof erp.purchaseSchema>;

interface BatchForm {
  OrderId: number;
  Day?: Dayjs;
  BatchDate?: string;
  Quantity?: number;
  UnitPrice?: string;
  AmountPaid?: string;
}
interface InvoiceForm {
  OrderId: number;
  Day?: Dayjs;
  InvoiceDate?: string;
  Company?: string;
  Amount?: string;
  Number?: string;
}

/** The delete action column of the drawer's tables. */
function deleteColumn<R>(t: TFunction, visible: boolean, name: (r: R) => string, remove: (r: R) => Promise<unknown>) {
  return {
    key: 'actions',
    width: 90,
    render: (_: unknown, r: R) => (
      <RowActions
        actions={[
          { key: 'delete', label: t('erp:delete'), icon: <DeleteOutlined />, danger: true, visible, confirm: t('erp:confirmDelete', { name: name(r) }), run: () => remove(r), invalidate: [ERP_KEY] },
        ]}
      />
    ),
  };
}

/** A titled table of the order's drawer (batches, invoices) with its "add" button. */
function DrawerTable<R extends { Id: number }>({
  title,
  add,
  rows,
  testId,
  columns,
}: {
  title: string;
  add?: { label: string; testId: string; onClick: () => void };
  rows: R[];
  testId: string;
  columns: TableColumnsType<R>;
}) {
  return (
    <div>
      <Space style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {title}
        </Typography.Title>
        {add ? (
          <Button size="small" icon={<PlusOutlined />} onClick={add.onClick} data-testid={add.testId}>
            {add.label}
          </Button>
        ) : null}
      </Space>
      <Table<R> size="small" rowKey="Id" pagination={false} dataSource={rows} data-testid={testId} columns={columns} />
    </div>
  );
}

export function PurchaseDrawer({ orderId, onClose, mayEdit }: { orderId: number | null; onClose: () => void; mayEdit: boolean }) {
  const { t } = useTranslation();
  // The order as the server has it now: a batch or an invoice saved asks it again (under ERP_KEY).
  const q = useQuery({
    queryKey: [...ERP_KEY, 'purchases', 'one', orderId],
    queryFn: async () => (await call('/Erp/PurchaseList', { PageNo: 1, PageCount: 1, Id: orderId! })).Items[0] ?? null,
    enabled: orderId !== null,
  });
  const order = orderId === null ? null : (q.data ?? null);
  const { modal } = App.useApp();
  const [adding, setAdding] = useState<'batch' | 'invoice' | null>(null);
  const open = adding !== null;
  const unaudited = order?.Audit === 1;

  /** Saves a batch; a repeated unit price and quantity is asked about, then saved with Confirm. */
  const saveBatch = async (v: BatchForm) => {
    const body = { OrderId: v.OrderId, BatchDate: v.BatchDate!, Quantity: v.Quantity as number, UnitPrice: String(v.UnitPrice ?? ''), AmountPaid: String(v.AmountPaid ?? '') };
    try {
      return await call('/Erp/PurchaseBatchSave', body);
    } catch (e) {
      if (!(e instanceof ApiError) || e.messageKey !== 'erp.batchRepeatConfirm') throw e;
      const yes = await modal.confirm({ title: t('erp:purchase.repeatTitle'), content: t(`messages:${e.messageKey}`, e.params) });
      if (!yes) throw e;
      return call('/Erp/PurchaseBatchSave', { ...body, Confirm: true });
    }
  };

  return (
    <Drawer open={orderId !== null} onClose={onClose} size={760} title={order ? `${order.OrderNo} · ${order.PoNo}` : ''} destroyOnHidden data-testid="purchase-drawer">
      {order ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('erp:purchase.content')}>{order.Content}</Descriptions.Item>
            <Descriptions.Item label={t('erp:purchase.purpose')}>{t(`erp:purchase.purposes.${order.Purpose}`)}</Descriptions.Item>
            <Descriptions.Item label={t('erp:purchase.amount')}>{order.Amount}</Descriptions.Item>
            <Descriptions.Item label={t('erp:purchase.audit')}>
              <Tag color={order.Audit === 2 ? 'green' : 'orange'}>{t(`erp:purchase.audits.${order.Audit}`)}</Tag>
            </Descriptions.Item>
            <Descriptions.Item label={t('erp:purchase.paid')}>{order.Paid}</Descriptions.Item>
            <Descriptions.Item label={t('erp:purchase.invoiced')}>{order.Invoiced}</Descriptions.Item>
            <Descriptions.Item label={t('erp:supplier')}>{order.SupplierName}</Descriptions.Item>
          </Descriptions>
          <DrawerTable
            title={t('erp:lines.title')}
            rows={order.Lines}
            testId="purchase-lines"
            columns={[
              { key: 'Kind', title: t('erp:lines.kind'), render: (_: unknown, l) => t(`erp:item.${l.Kind}`) },
              { key: 'ItemName', title: t('erp:lines.item'), dataIndex: 'ItemName' },
              { key: 'Quantity', title: t('erp:lines.quantity'), dataIndex: 'Quantity' },
              { key: 'UnitPrice', title: t('erp:lines.unitPrice'), dataIndex: 'UnitPrice' },
              {
                key: 'Received',
                title: t('erp:lines.received'),
                render: (_: unknown, l) => <Tag color={l.Received >= l.Quantity ? 'green' : l.Received > 0 ? 'blue' : 'default'}>{`${l.Received} / ${l.Quantity}`}</Tag>,
              },
            ]}
          />
          <DrawerTable
            title={t('erp:purchase.batches')}
            add={mayEdit && unaudited ? { label: t('erp:purchase.addBatch'), testId: 'purchase-add-batch', onClick: () => setAdding('batch') } : undefined}
            rows={order.Batches}
            testId="purchase-batches"
            columns={[
              { key: 'BatchDate', title: t('erp:purchase.batchDate'), dataIndex: 'BatchDate' },
              { key: 'Quantity', title: t('erp:quantity'), dataIndex: 'Quantity' },
              { key: 'UnitPrice', title: t('erp:purchase.unitPrice'), dataIndex: 'UnitPrice' },
              { key: 'AmountPaid', title: t('erp:purchase.amountPaid'), dataIndex: 'AmountPaid' },
              deleteColumn<{ Id: number; BatchDate: string }>(t, mayEdit && unaudited, (b) => b.BatchDate, (b) => call('/Erp/PurchaseBatchDelete', { Id: b.Id })),
            ]}
          />
          <DrawerTable
            title={t('erp:purchase.invoices')}
            add={mayEdit ? { label: t('erp:purchase.addInvoice'), testId: 'purchase-add-invoice', onClick: () => setAdding('invoice') } : undefined}
            rows={order.Invoices}
            testId="purchase-invoices"
            columns={[
              { key: 'Company', title: t('erp:purchase.company'), dataIndex: 'Company' },
              { key: 'InvoiceDate', title: t('erp:purchase.invoiceDate'), dataIndex: 'InvoiceDate' },
              { key: 'Amount', title: t('erp:purchase.invoiceAmount'), dataIndex: 'Amount' },
              { key: 'Number', title: t('erp:purchase.invoiceNo'), dataIndex: 'Number' },
              deleteColumn<{ Id: number; Number: string }>(t, mayEdit, (i) => i.Number, (i) => call('/Erp/InvoiceDelete', { Id: i.Id })),
            ]}
          />
        </Space>
      ) : null}
      <FormDialog<BatchForm>
        open={open && adding === 'batch'}
        title={t('erp:purchase.addBatch')}
        schema={erp.purchaseBatchSave}
        initial={{ OrderId: order?.Id, Day: dayjs() }}
        transform={({ Day, ...v }) => ({ ...v, BatchDate: (Day ?? dayjs()).format('YYYY-MM-DD'), UnitPrice: v.UnitPrice ?? '', AmountPaid: v.AmountPaid ?? '' })}
        rename={{ BatchDate: 'Day' }}
        submit={saveBatch}
        successMessage={t('erp:saved')}
        invalidate={[ERP_KEY]}
        onClose={() => setAdding(null)}
        testId="batch-form"
        fields={[
          { name: 'Day', label: t('erp:purchase.batchDate'), required: true, input: <DatePicker allowClear={false} /> },
          { name: 'Quantity', label: t('erp:quantity'), required: true, input: <InputNumber min={1} style={{ width: 160 }} data-testid="batch-quantity" /> },
          { name: 'UnitPrice', label: t('erp:purchase.unitPrice'), required: true, input: <Input style={{ width: 160 }} data-testid="batch-unit-price" /> },
          { name: 'AmountPaid', label: t('erp:purchase.amountPaid'), required: true, input: <Input style={{ width: 160 }} data-testid="batch-paid" /> },
        ]}
      />
      <FormDialog<InvoiceForm>
        open={open && adding === 'invoice'}
        title={t('erp:purchase.addInvoice')}
        schema={erp.invoiceSave}
        initial={{ OrderId: order?.Id, Day: dayjs() }}
        transform={({ Day, ...v }) => ({ ...v, InvoiceDate: (Day ?? dayjs()).format('YYYY-MM-DD'), Amount: v.Amount ?? '' })}
        rename={{ InvoiceDate: 'Day' }}
        submit={(v) => call('/Erp/InvoiceSave', { OrderId: v.OrderId, Company: v.Company ?? '', InvoiceDate: v.InvoiceDate!, Amount: String(v.Amount), Number: v.Number ?? '' })}
        successMessage={t('erp:saved')}
        invalidate={[ERP_KEY]}
        onClose={() => setAdding(null)}
        testId="invoice-form"
        fields={[
          { name: 'Company', label: t('erp:purchase.company'), required: true, input: <Input maxLength={100} data-testid="invoice-company" /> },
          { name: 'Day', label: t('erp:purchase.invoiceDate'), required: true, input: <DatePicker allowClear={false} /> },
          { name: 'Amount', label: t('erp:purchase.invoiceAmount'), required: true, input: <Input style={{ width: 160 }} data-testid="invoice-amount" /> },
          { name: 'Number', label: t('erp:purchase.invoiceNo'), required: true, input: <Input maxLength={64} data-testid="invoice-number" /> },
        ]}
      />
    </Drawer>
  );
}
