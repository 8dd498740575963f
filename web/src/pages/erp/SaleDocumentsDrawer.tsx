// The documents of a sales record in a drawer: what is ordered, delivered, returned, invoiced and
// paid with the payment state; its deliveries (with the IMEIs handed over, each returnable), its
// invoices and payments, each added by a dialog.
import { useState } from 'react';
import { Button, DatePicker, Descriptions, Drawer, Input, InputNumber, Space, Table, Tag, Typography } from 'antd';
import { RollbackOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { erpSales } from '@wt/contract';
import type { z } from 'zod';
import { call } from '../../api/client';
import { FormDialog } from '../../patterns';
import { ERP_KEY } from './shared';
import { splitList } from '../inventory/shared';
import type { DeliveryTarget } from './DeliveryDialog';

type Delivery = z.infer<typeof erpSales.deliverySchema>;
const PAY_COLORS: Record<number, string> = { 1: 'default', 2: 'green', 3: 'blue', 4: 'orange' };
const day = (d: Dayjs | undefined) => (d ?? dayjs()).format('YYYY-MM-DD');

export function SaleDocumentsDrawer({ sale, mayEdit, onClose }: { sale: DeliveryTarget | null; mayEdit: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [dialog, setDialog] = useState<'invoice' | 'payment' | null>(null);
  const [returning, setReturning] = useState<Delivery | null>(null);
  const docs = useQuery({ queryKey: [...ERP_KEY, 'sale-documents', sale?.Id], queryFn: () => call('/Erp/SaleDocuments', { Id: sale!.Id }), enabled: sale !== null });
  const d = docs.data;
  return (
    <Drawer open={sale !== null} onClose={onClose} size={720} title={t('erp:documents.title', { no: sale?.SalesNo ?? '' })} destroyOnHidden>
      {d ? (
        <Space orientation="vertical" size="large" style={{ width: '100%' }} data-testid="erp-sale-documents">
          <Descriptions size="small" column={3} bordered>
            <Descriptions.Item label={t('erp:documents.ordered')}>{d.Ordered}</Descriptions.Item>
            <Descriptions.Item label={t('erp:documents.delivered')}>{d.Delivered}</Descriptions.Item>
            <Descriptions.Item label={t('erp:documents.returned')}>{d.Returned}</Descriptions.Item>
            <Descriptions.Item label={t('erp:documents.value')}>{d.DeliveredValue}</Descriptions.Item>
            <Descriptions.Item label={t('erp:documents.invoiced')}>{d.Invoiced}</Descriptions.Item>
            <Descriptions.Item label={t('erp:documents.paid')}>
              <Space size={4}>
                {d.Paid}
                <Tag color={PAY_COLORS[d.PayState]}>{t(`erp:documents.payStates.${d.PayState}`)}</Tag>
              </Space>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>{t('erp:documents.deliveries')}</Typography.Title>
          <Table<Delivery>
            size="small"
            rowKey="Id"
            pagination={false}
            dataSource={d.Deliveries}
            // Fixed widths, the IMEIs cut to what is left (all in the tooltip): thirty IMEIs must not push
            // the return button out of the drawer.
            tableLayout="fixed"
            columns={[
              { key: 'DeliveredOn', title: t('erp:delivery.day'), dataIndex: 'DeliveredOn', width: 110 },
              { key: 'WarehouseName', title: t('erp:sale.warehouse'), dataIndex: 'WarehouseName', width: 100 },
              { key: 'Quantity', title: t('erp:quantity'), dataIndex: 'Quantity', width: 80 },
              { key: 'Returned', title: t('erp:documents.returned'), dataIndex: 'Returned', width: 80 },
              { key: 'Imeis', title: t('erp:delivery.imeis'), render: (_, r) => <Typography.Text ellipsis={{ tooltip: r.Imeis.join(', ') }} style={{ width: '100%' }}>{r.Imeis.join(', ')}</Typography.Text> },
              {
                key: 'return',
                title: t('erp:actions'),
                width: 100,
                render: (_, r) =>
                  mayEdit && r.Quantity > r.Returned ? (
                    <Button size="small" icon={<RollbackOutlined />} onClick={() => setReturning(r)} data-testid="erp-delivery-return">
                      {t('erp:documents.return')}
                    </Button>
                  ) : null,
              },
            ]}
          />
          <Space>
            <Typography.Title level={5} style={{ margin: 0 }}>{t('erp:documents.invoices')}</Typography.Title>
            {mayEdit ? <Button size="small" onClick={() => setDialog('invoice')}>{t('erp:documents.addInvoice')}</Button> : null}
          </Space>
          <Table
            size="small"
            rowKey="Id"
            pagination={false}
            dataSource={d.Invoices}
            columns={[
              { key: 'Number', title: t('erp:documents.number'), dataIndex: 'Number' },
              { key: 'InvoiceDate', title: t('erp:documents.date'), dataIndex: 'InvoiceDate' },
              { key: 'Amount', title: t('erp:documents.amount'), dataIndex: 'Amount', align: 'right' },
            ]}
          />
          <Space>
            <Typography.Title level={5} style={{ margin: 0 }}>{t('erp:documents.payments')}</Typography.Title>
            {mayEdit ? <Button size="small" onClick={() => setDialog('payment')}>{t('erp:documents.addPayment')}</Button> : null}
          </Space>
          <Table
            size="small"
            rowKey="Id"
            pagination={false}
            dataSource={d.Payments}
            columns={[
              { key: 'PaidOn', title: t('erp:documents.date'), dataIndex: 'PaidOn' },
              { key: 'Amount', title: t('erp:documents.amount'), dataIndex: 'Amount', align: 'right' },
              { key: 'Remark', title: t('erp:remark'), dataIndex: 'Remark' },
            ]}
          />
        </Space>
      ) : null}
      <FormDialog<{ [k: string]: unknown; Day?: Dayjs }>
        open={dialog === 'invoice'}
        title={t('erp:documents.addInvoice')}
        schema={erpSales.saleInvoiceSave}
        initial={{ SaleId: sale?.Id, Day: dayjs() }}
        transform={({ Day, ...v }) => ({ ...v, Amount: v.Amount === undefined ? '' : String(v.Amount), InvoiceDate: day(Day) })}
        rename={{ InvoiceDate: 'Day' }}
        submit={(v) => call('/Erp/SaleInvoiceSave', v as never)}
        successMessage={t('erp:saved')}
        invalidate={[ERP_KEY]}
        onClose={() => setDialog(null)}
        testId="erp-sale-invoice-form"
        fields={[
          { name: 'Number', label: t('erp:documents.number'), required: true, input: <Input maxLength={64} /> },
          { name: 'Amount', label: t('erp:documents.amount'), required: true, input: <Input style={{ width: 160 }} /> },
          { name: 'Day', label: t('erp:documents.date'), required: true, input: <DatePicker allowClear={false} /> },
        ]}
      />
      <FormDialog<{ [k: string]: unknown; Day?: Dayjs }>
        open={dialog === 'payment'}
        title={t('erp:documents.addPayment')}
        schema={erpSales.salePaymentSave}
        initial={{ SaleId: sale?.Id, Day: dayjs() }}
        transform={({ Day, ...v }) => ({ ...v, Amount: v.Amount === undefined ? '' : String(v.Amount), PaidOn: day(Day) })}
        rename={{ PaidOn: 'Day' }}
        submit={(v) => call('/Erp/SalePaymentSave', v as never)}
        successMessage={t('erp:saved')}
        invalidate={[ERP_KEY]}
        onClose={() => setDialog(null)}
        testId="erp-sale-payment-form"
        fields={[
          { name: 'Amount', label: t('erp:documents.amount'), required: true, input: <Input style={{ width: 160 }} /> },
          { name: 'Day', label: t('erp:documents.date'), required: true, input: <DatePicker allowClear={false} /> },
          { name: 'Remark', label: t('erp:remark'), input: <Input maxLength={500} /> },
        ]}
      />
      <FormDialog<{ [k: string]: unknown; Day?: Dayjs; ImeisText?: string }>
        open={returning !== null}
        title={t('erp:documents.return')}
        schema={erpSales.salesReturnSave}
        initial={{ DeliveryId: returning?.Id, Day: dayjs() }}
        transform={({ Day, ImeisText, Quantity, ...v }) => {
          const imeis = splitList(ImeisText);
          return { ...v, ...(imeis.length ? {} : { Quantity }), Imeis: imeis, ReturnedOn: day(Day) };
        }}
        rename={{ ReturnedOn: 'Day', Imeis: 'ImeisText' }}
        submit={(v) => call('/Erp/SalesReturnSave', v as never)}
        successMessage={t('erp:saved')}
        invalidate={[ERP_KEY]}
        onClose={() => setReturning(null)}
        testId="erp-sales-return-form"
        fields={[
          { name: 'Quantity', label: t('erp:quantity'), input: <InputNumber min={1} max={returning ? returning.Quantity - returning.Returned : undefined} style={{ width: 160 }} /> },
          ...(returning?.Imeis.length ? [{ name: 'ImeisText', label: t('erp:delivery.imeis'), extra: t('erp:delivery.imeisHint'), input: <Input.TextArea rows={3} /> }] : []),
          { name: 'Day', label: t('erp:documents.date'), required: true, input: <DatePicker allowClear={false} /> },
          { name: 'Remark', label: t('erp:remark'), input: <Input maxLength={500} /> },
        ]}
      />
    </Drawer>
  );
}
