// A purchase order in a dialog: its supplier picked from the master data, its lines (a material or
// product, quantity, unit price) with each line's total and the order's, which becomes the order's
// amount. An audited order is fixed: the same dialog shows it read-only.
import { useEffect } from 'react';
import { Button, Descriptions, Form, Input, InputNumber, Modal, Select, Space, Table, Typography, type FormInstance } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { erp } from '@wt/contract';
import { call } from '../../api/client';
import { userDataCell } from '../../i18n/texts';
import { FormDialog, renderFields } from '../../patterns';
import type { Purchase } from './PurchaseDrawer';
import { ERP_KEY, centsOf, useParties, useStockThings } from './shared';

export interface LineValue {
  Kind?: number;
  ItemId?: number;
  Quantity?: number | null;
  UnitPrice?: string | number | null;
}

/** Each line's total in cents (null while its quantity or price is not a number) and the order's. */
export function orderTotals(lines: readonly (LineValue | undefined)[] | undefined): { lines: (number | null)[]; total: number } {
  const each = (lines ?? []).map((l) => {
    const cents = centsOf(l?.UnitPrice);
    const q = typeof l?.Quantity === 'number' && Number.isInteger(l.Quantity) ? l.Quantity : null;
    return cents === null || q === null ? null : cents * q;
  });
  return { lines: each, total: each.reduce<number>((s, c) => s + (c ?? 0), 0) };
}
const money = (cents: number | null) => (cents === null ? '—' : erp.fromCents(cents));

/** The item picker of a line: the materials or the products, by the line's kind. */
function ItemSelect({ kind, ...rest }: { kind: 1 | 2; value?: number; onChange?: (v: number) => void; 'data-testid'?: string }) {
  const things = useStockThings(kind);
  return <Select showSearch={{ optionFilterProp: 'label' }} options={things.options} loading={things.loading} style={{ width: 200 }} {...rest} />;
}

/** The order's lines as a form list, each with its total, and the order's total below. */
export function OrderLinesEditor({ form }: { form: FormInstance }) {
  const { t } = useTranslation();
  const lines = Form.useWatch('Lines', form) as LineValue[] | undefined;
  const totals = orderTotals(lines);
  // The order's amount follows its lines while it has any.
  useEffect(() => {
    if (lines?.length) form.setFieldValue('Amount', erp.fromCents(totals.total));
  }, [form, lines?.length, totals.total]);
  return (
    <Form.List name="Lines">
      {(items, { add, remove }) => (
        <div data-testid="order-lines">
          <Typography.Text strong>{t('erp:lines.title')}</Typography.Text>
          {items.map((item, i) => {
            const kind = (lines?.[i]?.Kind ?? 2) as 1 | 2;
            return (
              <Space key={item.key} align="start" wrap style={{ display: 'flex', marginTop: 8 }} data-testid={`order-line-${i}`}>
                <Form.Item name={[item.name, 'Kind']} noStyle>
                  <Select
                    style={{ width: 100 }}
                    options={[1, 2].map((k) => ({ value: k, label: t(`erp:item.${k}`) }))}
                    onChange={() => form.setFieldValue(['Lines', item.name, 'ItemId'], undefined)}
                    data-testid="line-kind"
                  />
                </Form.Item>
                <Form.Item name={[item.name, 'ItemId']} style={{ marginBottom: 0 }}>
                  <ItemSelect kind={kind} data-testid="line-item" />
                </Form.Item>
                <Form.Item name={[item.name, 'Quantity']} style={{ marginBottom: 0 }}>
                  <InputNumber min={1} precision={0} placeholder={t('erp:lines.quantity')} style={{ width: 110 }} data-testid="line-quantity" />
                </Form.Item>
                <Form.Item name={[item.name, 'UnitPrice']} style={{ marginBottom: 0 }}>
                  <Input placeholder={t('erp:lines.unitPrice')} style={{ width: 110 }} data-testid="line-price" />
                </Form.Item>
                <Typography.Text style={{ display: 'inline-block', minWidth: 90, lineHeight: '32px', textAlign: 'right' }} data-testid="line-total">
                  {money(totals.lines[i] ?? null)}
                </Typography.Text>
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('erp:delete')} onClick={() => remove(item.name)} />
              </Space>
            );
          })}
          <Space style={{ display: 'flex', justifyContent: 'space-between', margin: '8px 0 16px' }}>
            <Button icon={<PlusOutlined />} onClick={() => add({ Kind: 2 })} data-testid="line-add">
              {t('erp:lines.add')}
            </Button>
            <Typography.Text strong data-testid="order-total">
              {t('erp:lines.orderTotal', { total: erp.fromCents(totals.total) })}
            </Typography.Text>
          </Space>
        </div>
      )}
    </Form.List>
  );
}

/** An audited order as it is: its supplier, lines and totals, nothing to change. */
export function PurchaseOrderView({ order, onClose }: { order: Purchase | null; onClose: () => void }) {
  const { t } = useTranslation();
  const totals = orderTotals(order?.Lines);
  return (
    <Modal open={order !== null} title={order ? t('erp:purchase.view', { no: order.OrderNo }) : ''} onCancel={onClose} footer={null} width={760} destroyOnHidden>
      {order ? (
        <Space orientation="vertical" style={{ width: '100%' }} data-testid="purchase-order-view">
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('erp:purchase.orderNo')}>{order.OrderNo}</Descriptions.Item>
            <Descriptions.Item label={t('erp:purchase.poNo')}>{order.PoNo}</Descriptions.Item>
            <Descriptions.Item label={t('erp:supplier')}>{order.SupplierName}</Descriptions.Item>
            <Descriptions.Item label={t('erp:purchase.amount')}>{order.Amount}</Descriptions.Item>
          </Descriptions>
          <Table
            size="small"
            rowKey="Id"
            pagination={false}
            dataSource={order.Lines}
            data-testid="purchase-view-lines"
            columns={[
              { key: 'Kind', title: t('erp:lines.kind'), render: (_: unknown, l) => t(`erp:item.${l.Kind}`) },
              { key: 'ItemName', title: t('erp:lines.item'), dataIndex: 'ItemName', onCell: userDataCell },
              { key: 'Quantity', title: t('erp:lines.quantity'), dataIndex: 'Quantity', align: 'right' },
              { key: 'UnitPrice', title: t('erp:lines.unitPrice'), dataIndex: 'UnitPrice', align: 'right' },
              { key: 'Total', title: t('erp:lines.total'), align: 'right', render: (_: unknown, _l, i) => money(totals.lines[i] ?? null) },
            ]}
          />
          <Typography.Text strong style={{ display: 'block', textAlign: 'right' }} data-testid="order-total">
            {t('erp:lines.orderTotal', { total: erp.fromCents(totals.total) })}
          </Typography.Text>
        </Space>
      ) : null}
    </Modal>
  );
}

type OrderForm = Record<string, unknown> & { Lines?: LineValue[] };

/** Adds or edits an open order with its supplier and lines. */
export function PurchaseOrderDialog({ editing, onClose }: { editing: { row: Purchase | null } | null; onClose: () => void }) {
  const { t } = useTranslation();
  const suppliers = useParties('supplier');
  const row = editing?.row;
  return (
    <FormDialog<OrderForm>
      open={editing !== null}
      title={t(row ? 'erp:purchase.edit' : 'erp:purchase.add')}
      schema={erp.purchaseSave}
      width={820}
      initial={
        row
          ? {
              Id: row.Id, OrderNo: row.OrderNo, PoNo: row.PoNo, Content: row.Content, Purpose: row.Purpose, Amount: row.Amount, SupplierId: row.SupplierId ?? undefined,
              Lines: row.Lines.map((l) => ({ Kind: l.Kind, ItemId: l.ItemId, Quantity: l.Quantity, UnitPrice: l.UnitPrice })),
            }
          : { Purpose: 1, Lines: [] }
      }
      transform={(v) => ({
        ...v,
        Amount: v.Amount === undefined || v.Amount === null ? '' : String(v.Amount),
        SupplierId: v.SupplierId ?? null,
        Lines: (v.Lines ?? []).map((l) => ({ ...l, UnitPrice: l.UnitPrice === undefined || l.UnitPrice === null ? '' : String(l.UnitPrice) })),
      })}
      submit={(v) => call('/Erp/PurchaseSave', v as never)}
      successMessage={t('erp:saved')}
      invalidate={[ERP_KEY]}
      onClose={onClose}
      testId="purchase-form"
      fields={(form) => (
        <>
          {renderFields([
            { name: 'OrderNo', label: t('erp:purchase.orderNo'), required: true, input: <Input maxLength={64} data-testid="purchase-order-no" /> },
            { name: 'PoNo', label: t('erp:purchase.poNo'), required: true, input: <Input maxLength={64} data-testid="purchase-po-no" /> },
            {
              name: 'SupplierId',
              label: t('erp:supplier'),
              input: <Select allowClear showSearch={{ optionFilterProp: 'label' }} options={suppliers.options} loading={suppliers.loading} data-testid="purchase-supplier" />,
            },
            { name: 'Content', label: t('erp:purchase.content'), required: true, input: <Input.TextArea rows={2} maxLength={500} data-testid="purchase-content" /> },
            { name: 'Purpose', label: t('erp:purchase.purpose'), required: true, input: <Select options={[1, 2, 3].map((p) => ({ value: p, label: t(`erp:purchase.purposes.${p}`) }))} /> },
          ])}
          <OrderLinesEditor form={form} />
          {renderFields([{ name: 'Amount', label: t('erp:purchase.amount'), required: true, extra: t('erp:lines.amountHint'), input: <Input style={{ width: 180 }} data-testid="purchase-amount" /> }])}
        </>
      )}
    />
  );
}
